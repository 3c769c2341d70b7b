#include "report/redactor.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <re2/re2.h>
#include <stdexcept>

#include "analysis.h"

namespace rl
{

namespace
{

// Generic words that show up where a host or user name could stand; replacing them everywhere
// would garble the report, and they identify nothing.
bool isGenericName(const std::string& lower)
{
    static const char* const words[] = {"localhost", "user",    "users", "host",  "hostname", "node",
                                        "unknown",   "none",    "null",  "root",  "home",     "admin",
                                        "nobody",    "default", "local", "master"};
    for (const char* w : words)
        if (lower == w)
            return true;
    return false;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool isHostChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Top-level domains that make "a.b.<tld>" a host name rather than a file name or a module path.
// ("local" alone is left out: Python's threading.local would look like a host.)
const char* const kTlds = R"(svc\.cluster\.local|cluster\.local|com|net|org|io|ai|edu|gov|internal|)"
                          R"(localdomain|lan|corp|intra|cluster|cloud)";

// Public domains whose names identify nobody and which readers need to see (documentation links).
bool isPublicDomain(const std::string& lowerHost)
{
    static const char* const domains[] = {"github.com",     "githubusercontent.com",
                                          "pytorch.org",    "nvidia.com",
                                          "huggingface.co", "pypi.org",
                                          "python.org",     "docker.io",
                                          "nvcr.io",        "debian.org",
                                          "ubuntu.com",     "kernel.org"};
    for (const char* d : domains) {
        std::string_view dv(d);
        if (lowerHost == dv || (lowerHost.size() > dv.size() && lowerHost.ends_with(dv) &&
                                lowerHost[lowerHost.size() - dv.size() - 1] == '.'))
            return true;
    }
    return false;
}

bool isIpv4Kept(std::string_view ip)
{
    // Loopback, unspecified and netmasks identify nobody and matter to the diagnosis (a peer
    // advertising 127.0.0.1 is the finding).
    return ip.starts_with("127.") || ip == "0.0.0.0" || ip.starts_with("255.");
}

// Validates an IPv6 candidate: hex groups of at most four digits, at most one "::", and enough of
// an address that C++ scopes ("c10d::abc") and clock times ("14:03:17") do not qualify.
bool looksLikeIpv6(std::string_view s)
{
    std::size_t dbl = s.find("::");
    if (dbl != std::string_view::npos && s.find("::", dbl + 1) != std::string_view::npos)
        return false;
    std::vector<std::string_view> groups;
    std::size_t start = 0;
    while (start <= s.size()) {
        std::size_t colon = s.find(':', start);
        if (colon == std::string_view::npos)
            colon = s.size();
        groups.push_back(s.substr(start, colon - start));
        start = colon + 1;
    }
    std::size_t nonEmpty = 0, digits = 0;
    for (auto g : groups) {
        if (g.size() > 4)
            return false;
        nonEmpty += !g.empty();
        digits += g.size();
    }
    if (dbl == std::string_view::npos)
        return groups.size() == 8 && nonEmpty == 8;
    if (nonEmpty > 7 || digits < 3)
        return false;
    if (nonEmpty >= 3)
        return true;
    // Two groups around "::": only the well-known prefixes (link-local, unique-local, global,
    // multicast, IPv4-mapped).
    std::string first = lower(groups.front().empty() && groups.size() > 2 ? groups[2] : groups.front());
    return first.starts_with("fe8") || first.starts_with("fe9") || first.starts_with("fea") ||
           first.starts_with("feb") || first.starts_with("fc") || first.starts_with("fd") ||
           first.starts_with("ff") || (first.size() == 4 && (first[0] == '2' || first[0] == '3'));
}

} // namespace

const char* pseudonymKindName(PseudonymKind k)
{
    switch (k) {
    case PseudonymKind::Host:
        return "host";
    case PseudonymKind::Address:
        return "address";
    case PseudonymKind::User:
        return "user";
    case PseudonymKind::Email:
        return "email";
    case PseudonymKind::Secret:
        return "secret";
    }
    return "?";
}

// What a match replaces. `group` picks the capture that is replaced (0: the whole match).
struct Redactor::Span {
    std::size_t begin = 0;
    std::size_t end = 0;
    PseudonymKind kind = PseudonymKind::Secret;
    std::string key;
    int priority = 0;
};

struct Redactor::Patterns {
    struct Rule {
        std::unique_ptr<RE2> re;
        PseudonymKind kind;
        int group;    // capture to replace
        int priority; // wins overlaps
        bool needsDigit = false;
    };
    std::vector<Rule> rules;
    // Context that names a host ("remote peer gpu-a<51874>"): group 1 is the host.
    std::vector<std::unique_ptr<RE2>> hostContext;
    std::unique_ptr<RE2> homeUser;
    std::unique_ptr<RE2> ipv4;
    std::unique_ptr<RE2> ipv6;
    std::unique_ptr<RE2> fqdn;
    std::unique_ptr<RE2> known; // alternation of known hosts and users, rebuilt when they change

    Patterns()
    {
        RE2::Options opt;
        opt.set_log_errors(false);
        auto add = [&](const std::string& p, PseudonymKind k, int group, int priority) {
            rules.push_back({std::make_unique<RE2>(p, opt), k, group, priority});
        };
        using K = PseudonymKind;
        // Secrets first: they win any overlap.
        add(R"(-----BEGIN [A-Z ]*PRIVATE KEY-----[^\n]*)", K::Secret, 0, 100);
        add(R"((?i)\b(?:[A-Z0-9]+[_.-])*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY(?:_?ID)?|)"
            R"(PRIVATE_?KEY|CREDENTIALS?|SESSION_?KEY)(?:[_.-][A-Z0-9]+)*["']?\s*[=:]\s*["']?([^\s"',;&]{4,}))",
            K::Secret, 1, 90);
        add(R"((?i)(?:^|\s)--?[a-z0-9-]*(?:token|password|passwd|secret|api-?key|access-?key)[= ]+["']?([^\s"']{4,}))",
            K::Secret, 1, 90);
        // Prose says "token embeddings"; a credential after the word has digits in it.
        add(R"(\b(?:[Bb]earer|Basic|token)\s+([A-Za-z0-9._~+/=-]{12,}))", K::Secret, 1, 85);
        rules.back().needsDigit = true;
        add(R"(\bhf_[A-Za-z0-9]{20,})", K::Secret, 0, 95);
        add(R"(\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b)", K::Secret, 0, 95);
        add(R"(\bgh[pousr]_[A-Za-z0-9]{30,})", K::Secret, 0, 95);
        add(R"(\bgithub_pat_[A-Za-z0-9_]{30,})", K::Secret, 0, 95);
        add(R"(\bsk-[A-Za-z0-9_-]{20,})", K::Secret, 0, 95);
        add(R"(\bxox[abprs]-[A-Za-z0-9-]{10,})", K::Secret, 0, 95);
        add(R"(\bAIza[0-9A-Za-z_-]{35})", K::Secret, 0, 95);
        add(R"(\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})", K::Secret, 0, 95);
        add(R"((?i)\bwandb\s+login\s+(?:--?\S+\s+)*([0-9a-f]{40})\b)", K::Secret, 1, 95);
        // Credentials in URLs: scheme://user:password@host.
        add(R"(\b[A-Za-z][A-Za-z0-9+.-]*://([^/\s:@]+):[^/\s@]+@)", K::User, 1, 80);
        add(R"(\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:([^/\s@]+)@)", K::Secret, 1, 80);
        add(R"(\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b)", K::Email, 0, 70);
        add(R"(\b(?:USER|LOGNAME|USERNAME|SUDO_USER)=([A-Za-z0-9._-]+))", K::User, 1, 60);
        add(R"((?i)\buser(?:name)?\s*[=:]\s*["']?([A-Za-z][A-Za-z0-9._-]{1,31}))", K::User, 1, 60);
        // AWS-style host names carry the address: ip-10-0-0-12(.ec2.internal).
        add(R"(\bip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}(?:\.[A-Za-z0-9-]+)*\b)", K::Host, 0, 55);

        homeUser = std::make_unique<RE2>(R"((?:/home/|/Users/|[A-Za-z]:\\Users\\)([A-Za-z0-9._-]+))", opt);
        ipv4 = std::make_unique<RE2>(
            R"(((?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))", opt);
        ipv6 =
            std::make_unique<RE2>(R"((?i)([0-9a-f:]*::[0-9a-f:]*|(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}))", opt);
        fqdn = std::make_unique<RE2>(
            std::string(R"((?i)\b([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*)"
                        R"([a-z0-9])?)*\.(?:)") +
                kTlds + R"())\b)",
            opt);
        for (const char* p : {R"(remote peer ([A-Za-z][A-Za-z0-9_.-]*)<\d+>)",
                              R"((?i)\bhost(?:name)?\s*[:=]\s*([A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]))",
                              R"(\bconnect to host ([A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]))"})
            hostContext.push_back(std::make_unique<RE2>(p, opt));
        // A pattern that does not compile would silently redact nothing: fail loudly instead.
        auto check = [](const RE2& re) {
            if (!re.ok())
                throw std::logic_error("redaction pattern does not compile: " + re.pattern() + ": " +
                                       re.error());
        };
        for (const auto& r : rules)
            check(*r.re);
        for (const auto& r : hostContext)
            check(*r);
        for (const RE2* r : {homeUser.get(), ipv4.get(), ipv6.get(), fqdn.get()})
            check(*r);
    }
};

Redactor::Redactor() : m_patterns(std::make_unique<Patterns>()) {}
Redactor::~Redactor() = default;

const std::string& Redactor::pseudonymFor(PseudonymKind kind, const std::string& key,
                                          std::string_view original)
{
    auto it = m_index.find({kind, key});
    if (it != m_index.end())
        return m_legend[it->second].pseudonym;
    std::size_t n = 1;
    for (const auto& p : m_legend)
        n += p.kind == kind;
    std::string name;
    switch (kind) {
    case PseudonymKind::Host:
        name = "host-" + std::to_string(n);
        break;
    case PseudonymKind::Address: {
        // Link-local addresses point at a misconfigured interface: keep that fact, drop the address.
        std::string l = lower(original);
        bool linkLocal = l.starts_with("169.254.") || l.starts_with("fe8") || l.starts_with("fe9") ||
                         l.starts_with("fea") || l.starts_with("feb");
        name = (linkLocal ? "linklocal-ip-" : "ip-") + std::to_string(n);
        break;
    }
    case PseudonymKind::User:
        name = "user-" + std::to_string(n);
        break;
    case PseudonymKind::Email:
        name = "email-" + std::to_string(n);
        break;
    case PseudonymKind::Secret:
        name = "secret-" + std::to_string(n);
        break;
    }
    m_index[{kind, key}] = m_legend.size();
    m_legend.push_back({kind, std::string(original), name});
    return m_legend.back().pseudonym;
}

void Redactor::addHost(std::string_view host)
{
    std::string h = lower(host);
    // The short name stands for the host; its domain is matched as a continuation.
    if (auto dot = h.find('.'); dot != std::string::npos && !std::isdigit(static_cast<unsigned char>(h[0])))
        h.resize(dot);
    if (h.size() < 2 || isGenericName(h) || std::all_of(h.begin(), h.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ':';
        }))
        return;
    if (std::find(m_hosts.begin(), m_hosts.end(), h) == m_hosts.end()) {
        m_hosts.push_back(h);
        m_knownDirty = true;
        pseudonymFor(PseudonymKind::Host, h, host.substr(0, h.size()));
    }
}

void Redactor::addAddress(std::string_view address)
{
    if (address.empty() || isIpv4Kept(address) || address == "::1" || address == "::")
        return;
    pseudonymFor(PseudonymKind::Address, lower(address), address);
}

void Redactor::learn(std::string_view text)
{
    re2::StringPiece in(text.data(), text.size());
    std::string host;
    for (const auto& re : m_patterns->hostContext) {
        re2::StringPiece cur = in;
        while (RE2::FindAndConsume(&cur, *re, &host)) {
            // "host: 10.0.0.1" names an address, which the address rules handle.
            if (!std::isdigit(static_cast<unsigned char>(host[0])))
                addHost(host);
        }
    }
    re2::StringPiece cur = in;
    std::string user;
    while (RE2::FindAndConsume(&cur, *m_patterns->homeUser, &user)) {
        std::string u = lower(user);
        if (u.size() >= 2 && !isGenericName(u) &&
            std::find(m_users.begin(), m_users.end(), u) == m_users.end()) {
            m_users.push_back(u);
            m_knownDirty = true;
            pseudonymFor(PseudonymKind::User, u, user);
        }
    }
}

void Redactor::rebuildKnown()
{
    m_knownDirty = false;
    std::vector<std::string> names = m_hosts;
    names.insert(names.end(), m_users.begin(), m_users.end());
    if (names.empty()) {
        m_patterns->known.reset();
        return;
    }
    // Longest first so "gpu-a1" wins over "gpu-a".
    std::stable_sort(names.begin(), names.end(),
                     [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    std::string alt = "(?i)(";
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i)
            alt += '|';
        alt += RE2::QuoteMeta(names[i]);
    }
    alt += ')';
    RE2::Options opt;
    opt.set_log_errors(false);
    m_patterns->known = std::make_unique<RE2>(alt, opt);
}

void Redactor::collectSpans(std::string_view text, std::vector<Span>& spans)
{
    const re2::StringPiece in(text.data(), text.size());
    auto offset = [&](const re2::StringPiece& p) { return static_cast<std::size_t>(p.data() - text.data()); };

    for (const auto& rule : m_patterns->rules) {
        std::array<re2::StringPiece, 4> g;
        std::size_t pos = 0;
        while (pos <= text.size() &&
               rule.re->Match(in, pos, text.size(), RE2::UNANCHORED, g.data(), rule.group + 1)) {
            const re2::StringPiece& m = g[static_cast<std::size_t>(rule.group)];
            std::size_t whole = offset(g[0]) + g[0].size();
            if (m.data() && !m.empty()) {
                std::string value(m.data(), m.size());
                // "max_tokens: 512" is a setting, not a secret.
                bool numeric = std::all_of(value.begin(), value.end(), [](char c) {
                    return std::isdigit(static_cast<unsigned char>(c));
                });
                bool digit = std::any_of(value.begin(), value.end(),
                                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
                if (!(rule.needsDigit && !digit) &&
                    !(rule.kind == PseudonymKind::Secret && numeric && value.size() < 8) &&
                    !(rule.kind == PseudonymKind::User && isGenericName(lower(value)))) {
                    // Secrets are compared exactly; a host is known by its short name.
                    std::string key = rule.kind == PseudonymKind::Secret ? value : lower(value);
                    if (rule.kind == PseudonymKind::Host)
                        key = key.substr(0, key.find('.'));
                    spans.push_back({offset(m), offset(m) + m.size(), rule.kind, key, rule.priority});
                }
            }
            pos = std::max(whole, offset(g[0]) + 1);
        }
    }

    // Home paths: the user name part.
    {
        std::array<re2::StringPiece, 2> g;
        std::size_t pos = 0;
        while (pos < text.size() &&
               m_patterns->homeUser->Match(in, pos, text.size(), RE2::UNANCHORED, g.data(), 2)) {
            std::string u = lower(std::string_view(g[1].data(), g[1].size()));
            if (!isGenericName(u))
                spans.push_back({offset(g[1]), offset(g[1]) + g[1].size(), PseudonymKind::User, u, 50});
            pos = offset(g[0]) + g[0].size();
        }
    }

    // Known hosts and users as whole words; a host's domain continuation goes with it.
    if (m_knownDirty)
        rebuildKnown();
    if (m_patterns->known) {
        std::array<re2::StringPiece, 2> g;
        std::size_t pos = 0;
        while (pos < text.size() &&
               m_patterns->known->Match(in, pos, text.size(), RE2::UNANCHORED, g.data(), 2)) {
            std::size_t b = offset(g[0]), e = b + g[0].size();
            pos = b + 1;
            if (b > 0 && (isHostChar(text[b - 1]) || text[b - 1] == '.'))
                continue;
            if (e < text.size() && isHostChar(text[e]))
                continue;
            std::string key = lower(std::string_view(g[1].data(), g[1].size()));
            bool isUser = std::find(m_users.begin(), m_users.end(), key) != m_users.end() &&
                          std::find(m_hosts.begin(), m_hosts.end(), key) == m_hosts.end();
            std::size_t end = e;
            if (!isUser) {
                // Extend over ".domain.tld" when what follows is a domain, not a file extension.
                std::size_t p = e, labels = 0, lastLabel = e;
                while (p + 1 < text.size() && text[p] == '.' && isHostChar(text[p + 1])) {
                    std::size_t q = p + 1;
                    while (q < text.size() && isHostChar(text[q]))
                        ++q;
                    lastLabel = p + 1;
                    p = q;
                    ++labels;
                }
                if (labels > 0) {
                    std::string tld = lower(text.substr(lastLabel, p - lastLabel));
                    bool isTld = RE2::FullMatch(tld, std::string("(?:") + kTlds + ")");
                    if (labels >= 2 || isTld)
                        end = p;
                }
            }
            spans.push_back({b, end, isUser ? PseudonymKind::User : PseudonymKind::Host, key, 45});
            pos = end;
        }
    }

    // IPv4.
    {
        std::array<re2::StringPiece, 2> g;
        std::size_t pos = 0;
        while (pos < text.size() &&
               m_patterns->ipv4->Match(in, pos, text.size(), RE2::UNANCHORED, g.data(), 2)) {
            std::size_t b = offset(g[0]), e = b + g[0].size();
            pos = b + 1;
            bool before =
                b > 0 && (std::isdigit(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '.' ||
                          std::isalpha(static_cast<unsigned char>(text[b - 1])));
            bool after = e < text.size() && (std::isdigit(static_cast<unsigned char>(text[e])) ||
                                             (text[e] == '.' && e + 1 < text.size() &&
                                              std::isdigit(static_cast<unsigned char>(text[e + 1]))));
            if (before || after)
                continue;
            pos = e;
            std::string ip(text.substr(b, e - b));
            if (!isIpv4Kept(ip))
                spans.push_back({b, e, PseudonymKind::Address, ip, 40});
        }
    }

    // IPv6 (a zone such as %ib1 stays: the interface name is part of the diagnosis).
    {
        std::array<re2::StringPiece, 2> g;
        std::size_t pos = 0;
        while (pos < text.size() &&
               m_patterns->ipv6->Match(in, pos, text.size(), RE2::UNANCHORED, g.data(), 2)) {
            std::size_t b = offset(g[0]), e = b + g[0].size();
            pos = std::max(e, b + 1);
            if (b > 0 && (isWordChar(text[b - 1]) || text[b - 1] == '.'))
                continue;
            if (e < text.size() && (isWordChar(text[e]) || text[e] == '.'))
                continue;
            std::string_view cand = text.substr(b, e - b);
            if (cand == "::1" || cand == "::" || !looksLikeIpv6(cand))
                continue;
            spans.push_back({b, e, PseudonymKind::Address, lower(cand), 40});
        }
    }

    // Fully qualified host names not known from the logs.
    {
        std::array<re2::StringPiece, 2> g;
        std::size_t pos = 0;
        while (pos < text.size() &&
               m_patterns->fqdn->Match(in, pos, text.size(), RE2::UNANCHORED, g.data(), 2)) {
            std::size_t b = offset(g[0]), e = b + g[0].size();
            pos = e;
            if ((b > 0 && (text[b - 1] == '.' || text[b - 1] == '-')) ||
                (e < text.size() && (text[e] == '-' || text[e] == '_')))
                continue;
            std::string h = lower(text.substr(b, e - b));
            if (isPublicDomain(h))
                continue;
            // Keyed by the short name, so the FQDN and a later bare mention share a pseudonym.
            std::string key = h.substr(0, h.find('.'));
            spans.push_back({b, e, PseudonymKind::Host, key, 30});
        }
    }
}

std::string Redactor::apply(std::string_view text)
{
    learn(text);
    std::vector<Span> spans;
    collectSpans(text, spans);
    if (spans.empty())
        return std::string(text);
    // Earliest first; at the same start the higher priority, then the longer span wins.
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        if (a.begin != b.begin)
            return a.begin < b.begin;
        if (a.priority != b.priority)
            return a.priority > b.priority;
        return a.end > b.end;
    });
    // Drop spans that overlap a kept one; a higher-priority span beats an earlier overlapping one.
    std::vector<Span> kept;
    for (auto& s : spans) {
        while (!kept.empty() && s.begin < kept.back().end && s.priority > kept.back().priority)
            kept.pop_back();
        if (!kept.empty() && s.begin < kept.back().end)
            continue;
        kept.push_back(std::move(s));
    }
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    for (const auto& s : kept) {
        out.append(text.substr(at, s.begin - at));
        std::string_view original = text.substr(s.begin, s.end - s.begin);
        std::string key = s.kind == PseudonymKind::Host && s.key.empty() ? lower(original) : s.key;
        out += pseudonymFor(s.kind, key, original);
        at = s.end;
    }
    out.append(text.substr(at));
    return out;
}

void seedRedactor(Redactor& r, const Analysis& a)
{
    for (const auto& p : a.processes)
        if (!p.host.empty())
            r.addHost(p.host);
    for (const auto& p : a.processes)
        r.addAddress(p.address);
}

} // namespace rl
