#include "identity/environment_scan.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <re2/re2.h>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analysis.h"
#include "identity/version_clues.h"
#include "probe/local_facts.h"
#include "util/ascii.h"
#include "util/parallel.h"
#include "util/populate.h"
#include "util/rank_runs.h"

namespace rl
{

namespace
{

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

std::string trimmed(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    return std::string(s);
}

std::string captureOf(const EnvironmentHits& all, const EnvironmentHit& h, const char* name)
{
    return h.captures == EnvironmentHit::kNoCaptures ? std::string{}
                                                     : std::string(all.captures[h.captures].get(name));
}

struct Patterns {
    RE2 ncclCuda{R"(NCCL version \d+\.\d+\.\d+[^+\s]*\+cuda(\d+\.\d+))"};
    RE2 setByEnv{R"((NCCL_[A-Z0-9_]+) set by environment to (.*)$)"};
    RE2 setTo{R"((NCCL_[A-Z0-9_]+) set to (.*)$)"};
    RE2 assignment{R"((?:^|[^A-Za-z0-9_])(NCCL_[A-Z0-9_]+)=("[^"]*"|'[^']*'|[^\s;'"\)\]\}]*))"};
    RE2 torchCuda{R"(\bCUDA(?: version)?:? (\d+\.\d+))"};
    RE2 cuSuffix{R"(\+cu(\d+)(\d)\b)"};
    RE2 socketIf{R"(\[\d+\]([^\s:\[\]]+):([^\s<]+)<\d+>)"};
    RE2 mismatch{R"(Mismatched NCCL version detected : rank (\d+) version (\d+) rank (\d+) version (\d+))"};
};

const Patterns& patterns()
{
    static const Patterns p;
    return p;
}

// A character of socketIf's interface name, [^\s:\[\]] (as a byte: ASCII lines only, or a first
// look that the regex then confirms).
bool isInterfaceNameChar(char c)
{
    return !isSpace(c) && c != ':' && c != '[' && c != ']';
}

// Text that socketIf needs: "<digit>]" and a character of an interface name right after. Most
// address lines name one interface without the list ("Bootstrap : Using eth0:10.0.0.2<0>"); a
// regex search that fails still reads the whole line, on every address line of every rank.
bool mayListInterfaces(std::string_view line)
{
    for (std::size_t k = line.find(']'); k != std::string_view::npos; k = line.find(']', k + 1)) {
        if (k == 0 || k + 1 >= line.size() || line[k - 1] < '0' || line[k - 1] > '9')
            continue;
        if (isInterfaceNameChar(line[k + 1]))
            return true;
    }
    return false;
}

// torchCuda by hand on a plain ASCII line: the leftmost \bCUDA(?: version)?:? (\d+\.\d+), " version"
// tried first as the regex prefers it. Every rank prints its PyTorch line; a search with a
// capture costs a few thousand instructions on it.
bool torchCudaByHand(std::string_view s, std::string& value)
{
    for (std::size_t i = s.find("CUDA"); i != std::string_view::npos; i = s.find("CUDA", i + 1)) {
        if (i > 0 && isWord(s[i - 1]))
            continue;
        for (const std::string_view version : {std::string_view(" version"), std::string_view()}) {
            std::size_t p = i + 4;
            if (s.substr(p, version.size()) != version)
                continue;
            p += version.size();
            if (p < s.size() && s[p] == ':')
                ++p;
            if (p >= s.size() || s[p] != ' ')
                continue;
            const std::size_t from = ++p;
            p = runEnd(s, p, isDigit);
            if (p == from || p >= s.size() || s[p] != '.')
                continue;
            const std::size_t end = runEnd(s, p + 1, isDigit);
            if (end == p + 1)
                continue;
            value.assign(s.substr(from, end - from));
            return true;
        }
    }
    return false;
}

// socketIf by hand on a plain ASCII line: each \[\d+\]([^\s:\[\]]+):([^\s<]+)<\d+> in turn, as
// FindAndConsume finds them. Each run ends at a character its class excludes, so the first '['
// that starts a match starts the leftmost one.
void listedByHand(std::string_view s, std::vector<std::pair<std::string, std::string>>& out)
{
    auto addressChar = [](char c) { return !isSpace(c) && c != '<'; };
    for (std::size_t i = s.find('['); i != std::string_view::npos; i = s.find('[', i + 1)) {
        const std::size_t digitsEnd = runEnd(s, i + 1, isDigit);
        if (digitsEnd == i + 1 || digitsEnd >= s.size() || s[digitsEnd] != ']')
            continue;
        const std::size_t nameAt = digitsEnd + 1;
        const std::size_t nameEnd = runEnd(s, nameAt, isInterfaceNameChar);
        if (nameEnd == nameAt || nameEnd >= s.size() || s[nameEnd] != ':')
            continue;
        const std::size_t addressAt = nameEnd + 1;
        const std::size_t addressEnd = runEnd(s, addressAt, addressChar);
        if (addressEnd == addressAt || addressEnd >= s.size() || s[addressEnd] != '<')
            continue;
        const std::size_t portEnd = runEnd(s, addressEnd + 1, isDigit);
        if (portEnd == addressEnd + 1 || portEnd >= s.size() || s[portEnd] != '>')
            continue;
        out.emplace_back(s.substr(nameAt, nameEnd - nameAt), s.substr(addressAt, addressEnd - addressAt));
        i = portEnd; // the next match starts after this one
    }
}

struct Ipv6 {
    unsigned char b[16];
};

// Processes in first-added order without repeats. A bundle can hold ten thousand processes that all
// share one setting, address or subnet: testing membership by a search of the list would be
// quadratic.
class ProcessList
{
public:
    // Process ids are dense (indexes into Analysis::processes): a bit per id, not a hashed set.
    explicit ProcessList(std::vector<ProcessId>& ids) : m_ids(ids)
    {
        for (ProcessId id : ids)
            mark(id);
    }
    void add(ProcessId id)
    {
        if (mark(id))
            m_ids.push_back(id);
    }

private:
    // True when `id` was not marked yet.
    bool mark(ProcessId id)
    {
        if (id.value >= m_have.size())
            m_have.resize(std::max<std::size_t>(id.value + 1, m_have.size() * 2), false);
        if (m_have[id.value])
            return false;
        m_have[id.value] = true;
        return true;
    }
    std::vector<ProcessId>& m_ids;
    std::vector<bool> m_have;
};

std::string withoutScope(const std::string& a)
{
    auto pct = a.find('%');
    return pct == std::string::npos ? a : a.substr(0, pct);
}

} // namespace

bool isEnvironmentBuiltin(Builtin b)
{
    switch (b) {
    case Builtin::NcclVersion:
    case Builtin::InitLine:
    case Builtin::NodesLine:
    case Builtin::BootstrapAddress:
    case Builtin::SocketAddress:
    case Builtin::CudaDriver:
    case Builtin::NcclSetting:
    case Builtin::TorchVersion:
    case Builtin::TorchCuda:
    case Builtin::IbOob:
        return true;
    default:
        return false;
    }
}

bool environmentReadsCaptures(Builtin b)
{
    switch (b) {
    case Builtin::CudaDriver:
    case Builtin::TorchVersion:
    case Builtin::TorchCuda:
    case Builtin::BootstrapAddress: // its interface and address when the line lists none
    case Builtin::IbOob:
        return true;
    default:
        return false;
    }
}

namespace
{

bool nameChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
// The end of "NCCL_[A-Z0-9_]+" starting at `at`, or npos when no name character follows "NCCL_".
std::size_t ncclNameEnd(std::string_view s, std::size_t at)
{
    const std::size_t p = runEnd(s, at + 5, nameChar);
    return p == at + 5 ? std::string_view::npos : p;
}

// The three setting forms by hand, for lines of ASCII: every rank prints its environment, and RE2's
// unanchored search with submatches read such a line once per setting and once more to find none.
// Each gives what its regex in Patterns gives (a name run is followed by a character outside it,
// so greedy runs never give back); tst_environment compares them on every line of the fixtures and
// real logs and on random lines. Lines with other bytes take the regexes, whose UTF-8 handling is
// their own (RE2 finds no match in some lines with invalid UTF-8).
//   (NCCL_[A-Z0-9_]+)<literal>(.*)$ searched anywhere.
bool settingBefore(std::string_view s, std::string_view literal, std::string& name, std::string& value)
{
    for (std::size_t j = s.find("NCCL_"); j != std::string_view::npos; j = s.find("NCCL_", j + 1)) {
        const std::size_t e = ncclNameEnd(s, j);
        if (e == std::string_view::npos || s.substr(e, literal.size()) != literal)
            continue;
        name.assign(s.substr(j, e - j));
        value.assign(s.substr(e + literal.size()));
        return true;
    }
    return false;
}
//   One FindAndConsume of Patterns::assignment: (?:^|[^A-Za-z0-9_])(NCCL_[A-Z0-9_]+)=(value), the
//   value a "quoted" or 'quoted' string, else a run without whitespace, ; ' " ) ] }.
bool nextAssignment(std::string_view& rest, std::string& name, std::string& value)
{
    for (std::size_t j = rest.find("NCCL_"); j != std::string_view::npos; j = rest.find("NCCL_", j + 1)) {
        if (j > 0 && isWord(rest[j - 1]))
            continue;
        const std::size_t e = ncclNameEnd(rest, j);
        if (e == std::string_view::npos || e >= rest.size() || rest[e] != '=')
            continue;
        const std::size_t v = e + 1;
        std::size_t end = std::string_view::npos;
        if (v < rest.size() && (rest[v] == '"' || rest[v] == '\'')) {
            if (const std::size_t q = rest.find(rest[v], v + 1); q != std::string_view::npos)
                end = q + 1;
        }
        if (end == std::string_view::npos)
            end = runEnd(rest, v, [](char c) {
                return std::string_view(" \t\n\f\r;'\")]}").find(c) == std::string_view::npos;
            });
        name.assign(rest.substr(j, e - j));
        value.assign(rest.substr(v, end - v));
        rest.remove_prefix(end);
        return true;
    }
    return false;
}

// Whether the assignment at `at` is advice the message gives rather than a setting it reports:
// PyTorch's "unhandled system error (run with NCCL_DEBUG=INFO for details)", on nearly every NCCL
// error it raises, and NCCL's "Disable NVLS (NCCL_NVLS_ENABLE=0) if you wish ..." and "Do not
// force-enable NVLS (NCCL_NVLS_ENABLE=1) ...". Read as settings they would say the job ran at INFO.
bool isAdvice(std::string_view text, std::size_t at)
{
    if (at == std::string_view::npos)
        return false;
    std::string_view before = text.substr(0, at);
    while (!before.empty() && (before.back() == ' ' || before.back() == '('))
        before.remove_suffix(1);
    return before.ends_with("run with") || before.ends_with("Disable NVLS") ||
           before.ends_with("force-enable NVLS");
}

} // namespace

std::vector<EnvironmentLine::Setting> settingsOfLine(std::string_view text, bool byRegex)
{
    const Patterns& pat = patterns();
    const re2::StringPiece line(text.data(), text.size());
    const bool byHand = !byRegex && isPlainAscii(text);
    std::vector<EnvironmentLine::Setting> out;
    std::string name, value;
    // Each form needs its literal: lines without it are not searched (most setting lines match at
    // most one of the three forms).
    if (text.find(" set by environment to ") != std::string_view::npos &&
        (byHand ? settingBefore(text, " set by environment to ", name, value)
                : RE2::PartialMatch(line, pat.setByEnv, &name, &value))) {
        out.push_back({name, trimmed(value), "set by environment"});
    } else if (text.find(" set to ") != std::string_view::npos &&
               (byHand ? settingBefore(text, " set to ", name, value)
                       : RE2::PartialMatch(line, pat.setTo, &name, &value))) {
        out.push_back({name, trimmed(value), "set"});
    } else if (text.find('=') != std::string_view::npos) {
        re2::StringPiece rest = line;
        std::string_view restText = text;
        while (byHand ? nextAssignment(restText, name, value)
                      : RE2::FindAndConsume(&rest, pat.assignment, &name, &value)) {
            const std::size_t consumed = byHand ? static_cast<std::size_t>(restText.data() - text.data())
                                                : static_cast<std::size_t>(rest.data() - line.data());
            if (isAdvice(text, text.rfind(name + '=', consumed)))
                continue;
            if (value.size() >= 2 && (value.front() == '"' || value.front() == '\''))
                value = value.substr(1, value.size() - 2);
            else if (!value.empty() && value.back() == ',')
                value.pop_back(); // "NCCL_A=x, NCCL_B=y"
            out.push_back({name, value, "printed"});
        }
    }
    return out;
}

ClueFactInternTraits::View ClueFactInternTraits::view(const LineClue& c)
{
    return {c.id, c.range, c.staticBasis ? std::string_view(c.staticBasis) : std::string_view(c.ownBasis)};
}

std::size_t ClueFactInternTraits::hash(const View& v)
{
    std::size_t h = std::hash<std::string_view>{}(v.id) ^ std::hash<std::string_view>{}(v.basis);
    for (const Version& x : {v.range.from, v.range.to})
        for (const int part : {x.major, x.minor, x.patch})
            h = (h ^ static_cast<std::size_t>(part)) * 0x100000001b3ULL;
    return h;
}

ClueFact ClueFactInternTraits::make(LineClue&& c)
{
    return {c.id, c.range, c.staticBasis, c.staticBasis ? std::string{} : std::move(c.ownBasis),
            rangeDisplay(c.range)};
}

bool EnvironmentLine::operator==(const EnvironmentLine& o) const
{
    auto sameSetting = [](const Setting& x, const Setting& y) {
        return x.name == y.name && x.value == y.value && std::strcmp(x.how, y.how) == 0;
    };
    auto sameClue = [](const LineClue& x, const LineClue& y) {
        return std::strcmp(x.id, y.id) == 0 && x.range == y.range && x.basisView() == y.basisView();
    };
    return std::equal(settings.begin(), settings.end(), o.settings.begin(), o.settings.end(), sameSetting) &&
           listed == o.listed &&
           std::equal(clues.begin(), clues.end(), o.clues.begin(), o.clues.end(), sameClue) && cuda == o.cuda;
}

std::size_t EnvironmentLineInternTraits::hash(const EnvironmentLine& l)
{
    std::size_t h = 0;
    auto mix = [&h](std::string_view s) {
        h = (h ^ std::hash<std::string_view>{}(s)) * 0x100000001b3ULL + s.size();
    };
    for (const auto& st : l.settings) {
        mix(st.name);
        mix(st.value);
    }
    for (const auto& [ifname, address] : l.listed) {
        mix(ifname);
        mix(address);
    }
    for (const auto& c : l.clues)
        mix(c.id);
    if (l.cuda)
        mix(*l.cuda);
    return h;
}

std::optional<EnvironmentLine> readEnvironmentLine(Builtin builtin, std::string_view text, bool byRegex)
{
    const Patterns& pat = patterns();
    const re2::StringPiece line(text.data(), text.size());
    EnvironmentLine out;
    std::string name, value;
    // Only the PyTorch and address lines have a hand-written reading here (settingsOfLine has its
    // own): the others are rare.
    auto byHand = [&] { return !byRegex && isPlainAscii(text); };
    switch (builtin) {
    case Builtin::NcclSetting:
        out.settings = settingsOfLine(text, byRegex);
        break;
    case Builtin::NcclVersion:
        if (RE2::PartialMatch(line, pat.ncclCuda, &value))
            out.cuda = value;
        break;
    case Builtin::TorchVersion:
        if (byHand() ? torchCudaByHand(text, value) : RE2::PartialMatch(line, pat.torchCuda, &value))
            out.cuda = value;
        break;
    case Builtin::BootstrapAddress:
    case Builtin::SocketAddress: {
        // Up to 2.7 the Bootstrap line lists every interface as " [0]eno1:<addr><0> [1]...".
        re2::StringPiece rest = line;
        if (mayListInterfaces(text)) {
            if (byHand())
                listedByHand(text, out.listed);
            else
                while (RE2::FindAndConsume(&rest, pat.socketIf, &name, &value))
                    out.listed.push_back({name, value});
        }
        if (builtin == Builtin::BootstrapAddress)
            out.clues = versionCluesOfLine(text);
        break;
    }
    case Builtin::InitLine:
    case Builtin::NodesLine:
        out.clues = versionCluesOfLine(text);
        break;
    default:
        break;
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

EventLineText readEventLine(std::string_view text)
{
    EventLineText out;
    out.clues = versionCluesOfLine(text);
    out.mismatch = text.find("Mismatched NCCL version") != std::string_view::npos &&
                   RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), patterns().mismatch,
                                     &out.otherRank, &out.otherCode, &out.ownRank, &out.ownCode);
    return out;
}

std::optional<NcclPrefix> connectAbortWarn(std::string_view text)
{
    // Most WARNs are something else: the words first, the prefix only for those that have them.
    if (text.find("socketStartConnect: Connect to") == std::string_view::npos)
        return std::nullopt;
    const ParsedLine w = parseLine(text);
    if (!w.nccl || w.nccl->file != "misc/socket.cc" ||
        !startsWith(w.nccl->message, "socketStartConnect: Connect to"))
        return std::nullopt;
    return w.nccl;
}

std::optional<LineClue> connectAbortAfter(const NcclPrefix& warn, const ParsedLine& next)
{
    if (next.trail && next.trail->file == "misc/socket.cc")
        return connectAbortClue(warn.fileLine, next.trail->fileLine);
    return std::nullopt;
}

bool versionLineInException(std::string_view text)
{
    return text.find("NCCL error") != std::string_view::npos ||
           text.find(", NCCL version") != std::string_view::npos;
}

std::vector<std::string> addressKinds(const std::string& interface, const std::string& address)
{
    std::vector<std::string> kinds;
    const std::string ip = withoutScope(address);
    in_addr v4{};
    Ipv6 v6{};
    const bool isV4 = ::inet_pton(AF_INET, ip.c_str(), &v4) == 1;
    const bool isV6 = !isV4 && ::inet_pton(AF_INET6, ip.c_str(), v6.b) == 1;
    const std::uint32_t h = isV4 ? ntohl(v4.s_addr) : 0;
    bool loop = interface == "lo" || (isV4 && (h >> 24) == 127);
    if (isV6) {
        static const unsigned char one[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        loop = loop || std::equal(std::begin(one), std::end(one), v6.b);
    }
    if (loop)
        kinds.push_back("loopback");
    if (startsWith(interface, "docker") || startsWith(interface, "br-"))
        kinds.push_back("docker");
    if (startsWith(interface, "veth"))
        kinds.push_back("veth");
    if ((isV4 && (h >> 16) == 0xA9FE) || (isV6 && v6.b[0] == 0xFE && (v6.b[1] & 0xC0) == 0x80))
        kinds.push_back("link-local");
    return kinds;
}

std::string assumedSubnet(const std::string& address)
{
    const std::string ip = withoutScope(address);
    in_addr v4{};
    if (::inet_pton(AF_INET, ip.c_str(), &v4) == 1) {
        const std::uint32_t h = ntohl(v4.s_addr);
        if ((h >> 24) == 127 || (h >> 16) == 0xA9FE)
            return {};
        return std::to_string(h >> 24) + "." + std::to_string((h >> 16) & 0xFF) + "." +
               std::to_string((h >> 8) & 0xFF) + ".0/24";
    }
    Ipv6 v6{};
    if (::inet_pton(AF_INET6, ip.c_str(), v6.b) != 1)
        return {};
    if ((v6.b[0] == 0xFE && (v6.b[1] & 0xC0) == 0x80) ||
        addressKinds("", ip) == std::vector<std::string>{"loopback"})
        return {};
    std::fill(v6.b + 8, v6.b + 16, 0);
    char buf[INET6_ADDRSTRLEN];
    if (!::inet_ntop(AF_INET6, v6.b, buf, sizeof buf))
        return {};
    return std::string(buf) + "/64";
}

std::string describeProcesses(const Analysis& a, const std::vector<ProcessId>& processes)
{
    std::vector<int> ranks;
    std::vector<std::string> others, hosts;
    std::unordered_set<std::string_view> seenHosts;
    for (ProcessId id : processes) {
        if (id.value >= a.processes.size())
            continue;
        const Process& p = a.process(id);
        // A process driving several GPUs holds the rank of each.
        for (const auto& dr : p.deviceRanks)
            ranks.push_back(dr.second);
        if (p.rank)
            ranks.push_back(*p.rank);
        else
            others.push_back(p.label());
        if (!p.host.empty() && seenHosts.insert(p.host).second)
            hosts.push_back(p.host);
    }
    std::string s;
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    if (!ranks.empty())
        s = (ranks.size() == 1 ? "rank " : "ranks ") + rankRuns(ranks);
    for (std::size_t i = 0; i < others.size() && i < 3; ++i)
        s += (s.empty() ? "" : ", ") + others[i];
    if (others.size() > 3)
        s += " and " + std::to_string(others.size() - 3) + " more";
    if (!hosts.empty() && !ranks.empty()) {
        s += " on ";
        for (std::size_t i = 0; i < hosts.size() && i < 4; ++i)
            s += (i ? ", " : "") + hosts[i];
        if (hosts.size() > 4)
            s += " and " + std::to_string(hosts.size() - 4) + " more hosts";
    }
    return s.empty() ? "no identified process" : s;
}

void collectEnvironment(Analysis& a, EnvironmentHits envHits, std::vector<ScannedEventLines> scanned,
                        unsigned workers)
{
    const Patterns& pat = patterns();
    Environment& env = a.environment;
    auto processAt = [&a](LineRef r) -> ProcessId {
        if (r.source.value >= a.lines.size() || r.line >= a.lines[r.source.value].size())
            return {};
        ProcessId p = a.lines[r.source.value].process(r.line);
        return p.value < a.processes.size() ? p : ProcessId{};
    };
    // Each distinct text of the ranks once (RankEnvironment's views).
    auto intern = [&env](std::string_view v) -> std::string_view {
        return v.empty() ? std::string_view{} : std::string_view(*env.texts->intern(v));
    };
    auto addClue = [&env](RankEnvironment& re, LineClue c, LineRef where) {
        // The first line of each kind is evidence enough; a rank repeats the same forms many times.
        if (std::any_of(re.clues.begin(), re.clues.end(),
                        [&](const VersionClue& v) { return v.id() == c.id; }))
            return;
        // A rank shows a few kinds (three on a typical rank): room for them at once rather than
        // three growths of each of ten thousand ranks' lists (step 3 gives back what is left).
        if (re.clues.empty())
            re.clues.reserve(4);
        re.clues.push_back({env.clueFacts->intern(std::move(c)), where, true});
    };
    auto addAddress = [](RankEnvironment& re, std::string ifname, std::string ip, const char* via,
                         LineRef where) {
        for (auto& x : re.addresses)
            if (x.interface == ifname && x.address == ip)
                return;
        re.addresses.push_back({std::move(ifname), std::move(ip), via, where});
    };
    // (name, value, how) -> index in env.settings, keyed by the three joined with NUL: names
    // (NCCL_[A-Z0-9_]+) and `how` (a literal) hold none, so the key names one triple even where a
    // value does. Every rank repeats the same few settings: hashed, not compared through a tree of
    // string tuples.
    std::unordered_map<std::string, std::size_t> settingIndex;
    // The settings each process is already listed under: a handful each, so a short list per
    // process answers faster than a hashed set of (setting, process) pairs.
    std::vector<std::vector<std::uint32_t>> settingsOf(a.processes.size());
    std::string settingKey;
    auto addSetting = [&](const std::string& name, const std::string& value, const char* how, ProcessId p,
                          LineRef where) {
        settingKey.clear();
        settingKey.append(name).append(1, '\0').append(value).append(1, '\0').append(how);
        auto it = settingIndex.find(settingKey);
        if (it == settingIndex.end()) {
            it = settingIndex.emplace(settingKey, env.settings.size()).first;
            env.settings.push_back({name, value, how, {}, where});
        }
        if (!p.valid())
            return;
        std::vector<std::uint32_t>* listed = p.value < settingsOf.size() ? &settingsOf[p.value] : nullptr;
        const auto setting = static_cast<std::uint32_t>(it->second);
        if (listed && std::find(listed->begin(), listed->end(), setting) != listed->end())
            return;
        if (listed) {
            if (listed->empty())
                listed->reserve(4); // as a rank's clues above: a few each, grown once
            listed->push_back(setting);
        }
        env.settings[it->second].processes.push_back(p);
    };

    // What the text of the lines read for step 2 says. Step 2 applies it in its own order (events
    // in time order); it is read before step 1, source by source on every core (below).
    // Lines already chosen: an event per fingerprint can share a line. Events are sorted by
    // (time, line), so those of one line are neighbours.
    const LineRef* previous = nullptr;
    // The form of a rank's lines says the same thing on its thousandth WARN as on its first: look at
    // a bounded number per rank, so a bundle with millions of events is not read a second time.
    constexpr int kEventsPerRank = 64;
    std::vector<int> looked(a.processes.size(), 0);
    std::vector<const Event*> chosen; // the first events of each rank, source by source
    {
        std::vector<const Event*> inTimeOrder;
        std::uint32_t sources = 0;
        for (const auto& e : a.events) {
            const bool again = previous && *previous == e.where;
            previous = &e.where;
            if (again || !e.process.valid() || e.process.value >= a.processes.size() ||
                looked[e.process.value] >= kEventsPerRank)
                continue;
            ++looked[e.process.value];
            inTimeOrder.push_back(&e);
            sources = std::max(sources, e.where.source.value + 1);
        }
        // Each source's still in time order, put in place by counting (a stable sort of tens of
        // thousands of events, each compared through a pointer to a cold record, was a tenth of
        // this stage on ten thousand ranks).
        std::vector<std::size_t> at(std::size_t{sources} + 1, 0);
        for (const Event* e : inTimeOrder)
            ++at[e->where.source.value + 1];
        std::partial_sum(at.begin(), at.end(), at.begin());
        chosen.resize(inTimeOrder.size());
        for (const Event* e : inTimeOrder)
            chosen[at[e->where.source.value]++] = e;
    }
    // Most events say nothing about the version: only those that do keep what their text says.
    std::vector<std::unique_ptr<EventLineText>> eventText(chosen.size());
    // `src`: the event's source as this pass reads it (SourcePass).
    auto readEvent = [&](std::size_t k, const Source& src) {
        const Event& e = *chosen[k];
        const std::string_view text = src.line(e.where.line);
        EventLineText out = readEventLine(text);
        // The connect-abort WARN and the first trail line after it on the same thread pin the
        // release family (§2.3).
        if (e.level == Level::Warn)
            if (const auto w = connectAbortWarn(text))
                for (std::uint32_t i = e.where.line + 1;
                     i < src.lineCount() && i < e.where.line + kConnectAbortTrailLines; ++i) {
                    if (processAt({e.where.source, i}) != e.process)
                        continue;
                    const ParsedLine t = parseLine(src.line(i));
                    if (!t.nccl || t.nccl->tid != w->tid)
                        continue;
                    out.connectAbort = connectAbortAfter(*w, t);
                    break;
                }
        if (!out.empty())
            eventText[k] = std::make_unique<EventLineText>(std::move(out));
    };
    // What the scan read of an event's line, if it did: true when it did.
    auto takeScanned = [&](std::size_t k) {
        const Event& e = *chosen[k];
        if (e.where.source.value >= scanned.size())
            return false;
        ScannedEventLines& sc = scanned[e.where.source.value];
        if (!std::binary_search(sc.lines.begin(), sc.lines.end(), e.where.line))
            return false;
        auto it = std::lower_bound(sc.texts.begin(), sc.texts.end(), e.where.line,
                                   [](const auto& t, std::uint32_t line) { return t.first < line; });
        if (it != sc.texts.end() && it->first == e.where.line && it->second) {
            std::unique_ptr<EventLineText> text = std::move(it->second); // one event per line is chosen
            // Read as a WARN's: an event of another level (a traceback on that line) has none.
            if (e.level != Level::Warn)
                text->connectAbort.reset();
            if (!text->empty())
                eventText[k] = std::move(text);
        }
        return true;
    };
    // Whether each process's version line is PyTorch's exception (step 2), read in the same walk.
    std::vector<char> versionFromException(a.processes.size(), 0);
    std::vector<std::pair<LineRef, ProcessId>> versionLines;
    for (const auto& p : a.processes)
        if (p.ncclVersion && p.ncclVersionLine && p.id.value < versionFromException.size())
            versionLines.push_back({*p.ncclVersionLine, p.id});
    std::sort(versionLines.begin(), versionLines.end());
    // The text this stage reads (the built-in lines' was read by the scan), source by source on
    // every core. A small file is read once more into the thread's buffer; in a mapped one the
    // lines are scattered long after the scan let go of their pages, and each read maps a page
    // again: its pages are given back as soon as its reads are done. What is read is applied
    // afterwards, in the order of step 2.
    struct SourceWork {
        std::uint32_t source = 0;
        std::size_t eventBegin = 0, eventEnd = 0, versionBegin = 0, versionEnd = 0;
    };
    std::vector<SourceWork> work;
    {
        std::size_t e = 0, v = 0;
        while (e < chosen.size() || v < versionLines.size()) {
            std::uint32_t s = UINT32_MAX;
            if (e < chosen.size())
                s = std::min(s, chosen[e]->where.source.value);
            if (v < versionLines.size())
                s = std::min(s, versionLines[v].first.source.value);
            SourceWork w{s, e, e, v, v};
            while (w.eventEnd < chosen.size() && chosen[w.eventEnd]->where.source.value == s)
                ++w.eventEnd;
            while (w.versionEnd < versionLines.size() && versionLines[w.versionEnd].first.source.value == s)
                ++w.versionEnd;
            e = w.eventEnd;
            v = w.versionEnd;
            work.push_back(w);
        }
    }
    parallelFor(work.size(), workers, [&](std::size_t i) {
        const SourceWork& w = work[i];
        // The source is read only for what the scan did not read.
        std::vector<std::size_t> order;
        for (std::size_t k = w.eventBegin; k < w.eventEnd; ++k)
            if (!takeScanned(k))
                order.push_back(k);
        std::vector<std::size_t> versions;
        for (std::size_t k = w.versionBegin; k < w.versionEnd; ++k) {
            const auto& [where, id] = versionLines[k];
            const std::vector<std::uint32_t>* known = where.source.value < scanned.size()
                                                          ? &scanned[where.source.value].exceptionVersions
                                                          : nullptr;
            // Every version line the scan kept was looked at: in its list or not one.
            if (known && scanned[where.source.value].scanned)
                versionFromException[id.value] = std::binary_search(known->begin(), known->end(), where.line);
            else
                versions.push_back(k);
        }
        if (order.empty() && versions.empty())
            return;
        thread_local std::string scratch;
        const SourcePass pass(a.source(SourceId(w.source)), scratch);
        const Source& src = pass.source();
        // In line order (step 2 applies them in time order, by index): in one large file (a
        // combined stream) the events are spread over the whole text, and the pages read so far
        // are given back every few MiB rather than all held until the file is done.
        std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
            return chosen[x]->where.line < chosen[y]->where.line;
        });
        constexpr std::uint64_t kDropEvery = std::uint64_t{8} << 20;
        std::uint64_t dropped = 0;
        for (std::size_t k : order) {
            readEvent(k, src);
            const std::uint32_t line = chosen[k]->where.line;
            const std::uint64_t at = line < src.lineCount() ? src.lineStarts[line] : 0;
            if (src.buffer && at > dropped + kDropEvery) {
                src.buffer->dropResident(dropped, at - dropped);
                dropped = at;
            }
        }
        for (std::size_t k : versions) {
            const auto& [where, id] = versionLines[k];
            versionFromException[id.value] = versionLineInException(src.line(where.line));
        }
        if (src.buffer)
            src.buffer->dropResident();
    });
    // What the scan read of the events' lines has been taken; with ten thousand sources its
    // per-source lists are a megabyte or two, and this stage's peak is at its end.
    std::vector<ScannedEventLines>().swap(scanned);
    std::vector<SourceWork>().swap(work);
    std::vector<std::pair<LineRef, ProcessId>>().swap(versionLines);
    // Every rank's record, allocated only now that the lists above are given back: the stage's peak
    // is after this. Its pages are faulted in at once (util/populate.h): each is written below.
    reservePopulated(env.ranks, a.processes.size());
    env.ranks.assign(a.processes.size(), {});

    // 1. The scanner's built-in lines (in source order, as the scan produced them).
    for (std::size_t k = 0; k < envHits.hits.size(); ++k) {
        const EnvironmentHit& h = envHits.hits[k];
        auto captureOf = [&envHits, &h](const char* name) { return rl::captureOf(envHits, h, name); };
        const ProcessId pid = processAt(h.where);
        // Shared with every other rank that printed the same line (EnvironmentLinePool): read only.
        const EnvironmentLine* ht = h.text;
        if (h.builtin == Builtin::NcclSetting) {
            if (ht)
                for (const auto& st : ht->settings)
                    addSetting(st.name, st.value, st.how, pid, h.where);
            continue;
        }
        if (!pid.valid())
            continue;
        RankEnvironment& re = env.ranks[pid.value];
        switch (h.builtin) {
        case Builtin::NcclVersion:
            if (re.ncclCuda.empty() && ht && ht->cuda) {
                re.ncclCuda = intern(*ht->cuda);
                re.ncclCudaLine = h.where;
            }
            break;
        case Builtin::CudaDriver:
            if (!re.cudaDriverLine) {
                re.cudaDriverCode = std::atoi(captureOf("code").c_str());
                re.cudaDriver = intern(cudaVersionString(re.cudaDriverCode));
                re.cudaDriverLine = h.where;
            }
            break;
        case Builtin::TorchVersion: {
            if (!re.torchVersion.empty())
                break;
            re.torchVersion = intern(captureOf("torch"));
            re.torchLine = h.where;
            std::string major, minor;
            if (re.torchCuda.empty()) {
                if (ht && ht->cuda) {
                    re.torchCuda = intern(*ht->cuda);
                    re.torchCudaLine = h.where;
                } else if (RE2::PartialMatch(re2::StringPiece(re.torchVersion.data(), re.torchVersion.size()),
                                             pat.cuSuffix, &major, &minor)) {
                    re.torchCuda = intern(major + "." + minor); // "+cu121" is CUDA 12.1
                    re.torchCudaLine = h.where;
                }
            }
            break;
        }
        case Builtin::TorchCuda:
            if (re.torchCuda.empty() || (re.torchCudaLine && *re.torchCudaLine == re.torchLine)) {
                re.torchCuda = intern(captureOf("cuda"));
                re.torchCudaLine = h.where;
            }
            break;
        case Builtin::BootstrapAddress:
            if (ht && !ht->listed.empty())
                for (const auto& [ifname, ip] : ht->listed)
                    addAddress(re, ifname, ip, "bootstrap", h.where);
            else
                addAddress(re, captureOf("if"), captureOf("ip"), "bootstrap", h.where);
            if (ht)
                for (const auto& c : ht->clues)
                    addClue(re, c, h.where);
            break;
        case Builtin::SocketAddress:
            if (ht)
                for (const auto& [ifname, ip] : ht->listed)
                    addAddress(re, ifname, ip, "net-socket", h.where);
            break;
        case Builtin::IbOob:
            addAddress(re, captureOf("if"), captureOf("ip"), "net-ib-oob", h.where);
            break;
        case Builtin::InitLine:
        case Builtin::NodesLine:
            if (ht)
                for (const auto& c : ht->clues)
                    addClue(re, c, h.where);
            break;
        default:
            break;
        }
        if (h.captures != EnvironmentHit::kNoCaptures) // read: freed now, for the clues and addresses next
            envHits.captures[h.captures] = Captures{};
    }

    // Their captures were the last thing read from them: given back before the steps below
    // allocate for every rank.
    envHits = EnvironmentHits{};
    std::vector<std::vector<std::uint32_t>>().swap(settingsOf);

    // 2. Versions the logs state, and clues from the form of WARN and symptom lines.
    for (const auto& p : a.processes) {
        RankEnvironment& re = env.ranks[p.id.value];
        if (!p.ncclVersion)
            continue;
        re.ncclVersion = p.ncclVersion;
        re.ncclVersionLine = p.ncclVersionLine;
        re.ncclVersionSource = versionFromException[p.id.value] ? "pytorch-exception" : "version-line";
    }
    std::unordered_map<int, std::vector<ProcessId>> withRank; // filled on the first mismatch WARN
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        if (!eventText[k])
            continue;
        const Event& e = *chosen[k];
        const EventLineText& et = *eventText[k];
        RankEnvironment& re = env.ranks[e.process.value];
        for (const auto& c : et.clues)
            addClue(re, c, e.where);
        if (et.mismatch) {
            // NCCL 2.23.4+ compares codes after the first all-gather: the first pair is the other
            // rank's, the second the reporter's own.
            const Version own = Version::fromNcclCode(std::atoi(et.ownCode.c_str()));
            addClue(re,
                    exactVersionClue(
                        own, "its own version code " + et.ownCode +
                                 " in 'Mismatched NCCL version detected' (the second rank/version pair)"),
                    e.where);
            const int other = std::atoi(et.otherRank.c_str());
            if (withRank.empty())
                for (const auto& q : a.processes)
                    if (q.rank)
                        withRank[*q.rank].push_back(q.id);
            for (ProcessId q : withRank[other])
                if (q != e.process)
                    addClue(env.ranks[q.value],
                            exactVersionClue(Version::fromNcclCode(std::atoi(et.otherCode.c_str())),
                                             "rank " + et.ownRank + " reports this rank's version code " +
                                                 et.otherCode + " in 'Mismatched NCCL version detected'"),
                            e.where);
        }
        if (et.connectAbort)
            addClue(re, *et.connectAbort, e.where);
    }
    std::vector<std::unique_ptr<EventLineText>>().swap(eventText);
    std::vector<const Event*>().swap(chosen);
    std::vector<char>().swap(versionFromException);

    // 3. Each rank's version: stated, or what its clues leave open. Where its logs state none, the
    //    version its Flight Recorder dump names (PyTorch asked the NCCL it loaded) is exact: a hang's
    //    logs often hold watchdog lines alone. Not for a rank whose dumps name two versions.
    std::unordered_map<int, const Version*> dumpVersionOf;
    for (const DumpVersion& dv : a.nccl.dumps)
        for (int r : dv.ranks)
            if (auto [it, added] = dumpVersionOf.try_emplace(r, &dv.version);
                !added && *it->second != dv.version)
                it->second = nullptr;
    for (std::size_t i = 0; i < env.ranks.size(); ++i) {
        RankEnvironment& re = env.ranks[i];
        // A rank's clues are all in: no growth slack kept for each of thousands of ranks.
        if (re.clues.capacity() > re.clues.size())
            re.clues.shrink_to_fit();
        if (!re.ncclVersion) {
            for (const auto& c : re.clues)
                if (c.id() == "version-code") {
                    re.ncclVersion = c.range().from;
                    re.ncclVersionLine = c.where;
                    re.ncclVersionSource = "mismatch-warn";
                    break;
                }
        }
        if (!re.ncclVersion && !dumpVersionOf.empty() && i < a.processes.size() && a.processes[i].rank)
            if (auto it = dumpVersionOf.find(*a.processes[i].rank); it != dumpVersionOf.end() && it->second) {
                re.ncclVersion = *it->second;
                re.ncclVersionSource = "flight-recorder";
            }
        if (re.ncclVersion) {
            for (auto& c : re.clues)
                c.agrees = c.range().contains(*re.ncclVersion);
            continue;
        }
        if (re.clues.empty())
            continue;
        std::optional<VersionRange> r = VersionRange{{0, 0, 0}, {999, 0, 0}};
        for (const auto& c : re.clues)
            if (r)
                r = intersect(*r, c.range());
        if (r) {
            re.ncclRange = r;
            re.ncclRangeDisplay = intern(rangeDisplay(*r));
            re.ncclVersionSource = "line-forms";
        } else {
            re.ncclRangeDisplay = "the line forms contradict each other";
            for (auto& c : re.clues)
                c.agrees = false;
        }
    }

    // 4. Ranks that disagree. Exact versions group by value; a rank known only by a range joins
    //    nothing when some stated version fits it, and otherwise forms (or narrows) a group of its own.
    std::vector<VersionGroup> groups;
    // A dump's version is not a log's: one that disagrees is said with the dumps (NcclVersions::
    // dumpNote, "check that they come from this run"), not taken for ranks running two releases.
    for (const auto& p : a.processes) {
        const RankEnvironment& re = env.ranks[p.id.value];
        if (!re.ncclVersion || re.ncclVersionSource == "flight-recorder")
            continue;
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const VersionGroup& g) { return g.version == re.ncclVersion; });
        if (it == groups.end()) {
            const char* basis = re.ncclVersionSource == "pytorch-exception" ? "PyTorch's exception text"
                                : re.ncclVersionSource == "mismatch-warn"
                                    ? "the 'Mismatched NCCL version detected' WARN"
                                    : "the NCCL version line";
            groups.push_back({re.ncclVersion,
                              {*re.ncclVersion, *re.ncclVersion},
                              re.ncclVersion->toString(),
                              basis,
                              {p.id},
                              re.ncclVersionLine.value_or(LineRef{})});
        } else {
            it->processes.push_back(p.id);
        }
    }
    const std::size_t exactGroups = groups.size();
    for (const auto& p : a.processes) {
        const RankEnvironment& re = env.ranks[p.id.value];
        if (re.ncclVersion || !re.ncclRange)
            continue;
        bool fitsStated = false;
        for (std::size_t g = 0; g < exactGroups; ++g)
            fitsStated = fitsStated || re.ncclRange->contains(*groups[g].version);
        if (fitsStated)
            continue;
        auto it = std::find_if(groups.begin() + static_cast<std::ptrdiff_t>(exactGroups), groups.end(),
                               [&](const VersionGroup& g) { return overlaps(g.range, *re.ncclRange); });
        if (it == groups.end()) {
            const VersionClue& first = re.clues.front();
            groups.push_back({std::nullopt,
                              *re.ncclRange,
                              std::string(re.ncclRangeDisplay),
                              "the form of its log lines: " + std::string(first.basis()),
                              {p.id},
                              first.where});
        } else {
            it->range = *intersect(it->range, *re.ncclRange);
            it->display = rangeDisplay(it->range);
            it->processes.push_back(p.id);
        }
    }
    a.nccl.mismatch.clear();
    a.nccl.mismatchNote.clear();
    if (groups.size() >= 2) {
        std::stable_sort(groups.begin(), groups.end(), [](const VersionGroup& x, const VersionGroup& y) {
            return x.processes.size() > y.processes.size();
        });
        std::string note = "Ranks disagree on the NCCL version: ";
        for (std::size_t i = 0; i < groups.size(); ++i)
            note += (i ? "; " : "") + groups[i].display + " on " + describeProcesses(a, groups[i].processes) +
                    " (from " +
                    (groups[i].version ? groups[i].basis : std::string("the form of its log lines")) + ")";
        a.nccl.mismatchNote = note + ". Every rank of a communicator must load the same NCCL release.";
        a.nccl.mismatch = std::move(groups);
    }

    // 5. Flags.
    // Two hosts or more: some named host differs from the first one.
    const std::string* firstHost = nullptr;
    bool multiHost = false;
    for (const auto& p : a.processes)
        if (!p.host.empty()) {
            if (!firstHost)
                firstHost = &p.host;
            else if (p.host != *firstHost) {
                multiHost = true;
                break;
            }
        }
    // One host is shown only when every rank of the job has a log here: the world is the largest
    // communicator an Init line names. A bundle of rank 0's log alone says nothing of where the
    // others ran, and the notes must not reassure where they cannot know.
    int world = 0;
    std::unordered_set<int> ranksHere;
    for (const auto& p : a.processes) {
        world = std::max(world, p.nranks);
        if (p.rank)
            ranksHere.insert(*p.rank);
    }
    const std::string oneHost =
        world > 0 && ranksHere.size() >= static_cast<std::size_t>(world)
            ? " Harmless while every rank runs on this one host, as all " + std::to_string(world) +
                  " do here."
        : world > 0 ? " Harmless only if every rank runs on this one host: these logs hold " +
                          std::to_string(ranksHere.size()) + " of the job's " + std::to_string(world) +
                          " ranks, and the others may run elsewhere."
                    : " Harmless only if every rank runs on this one host, which these logs do not show.";
    // Thousands of ranks share a few hundred addresses: each (interface, address) is classified
    // once, and each address's subnet worked out and looked up once.
    struct ViewPairHash {
        std::size_t operator()(const std::pair<std::string_view, std::string_view>& v) const
        {
            return std::hash<std::string_view>{}(v.first) * 0x9e3779b97f4a7c15ULL ^
                   std::hash<std::string_view>{}(v.second);
        }
    };
    std::unordered_map<std::pair<std::string_view, std::string_view>, std::vector<std::string>, ViewPairHash>
        kindsOf;
    auto kindsFor = [&kindsOf](const std::string& interface,
                               const std::string& address) -> const std::vector<std::string>& {
        auto [it, added] = kindsOf.try_emplace({interface, address});
        if (added)
            it->second = addressKinds(interface, address);
        return it->second;
    };
    struct AddressFlagKey {
        std::string kind, interface, address;
        bool operator<(const AddressFlagKey& o) const
        {
            return std::tie(kind, interface, address) < std::tie(o.kind, o.interface, o.address);
        }
    };
    std::map<AddressFlagKey, std::size_t> addressFlags;
    for (const auto& p : a.processes) {
        for (const auto& ad : env.ranks[p.id.value].addresses) {
            for (const auto& kind : kindsFor(ad.interface, ad.address)) {
                AddressFlagKey key{kind, ad.interface, ad.address};
                auto it = addressFlags.find(key);
                if (it == addressFlags.end()) {
                    EnvironmentFlag f;
                    f.kind = kind;
                    f.severity = multiHost ? "warning" : "note";
                    f.interface = ad.interface;
                    f.address = ad.address;
                    f.where = ad.where;
                    const std::string what = ad.interface + " " + ad.address;
                    if (kind == "loopback")
                        f.detail = what + " is a loopback address: only the host itself can reach it, so a "
                                          "peer on another host that connects there reaches itself.";
                    else if (kind == "docker" && startsWith(ad.interface, "br-"))
                        // NCCL's automatic choice leaves out docker* and lo* only (its "^docker,lo"),
                        // so the bridges of Docker's user-defined networks are used like real NICs.
                        f.detail =
                            ad.interface + " is the bridge of a Docker network; its address (" + ad.address +
                            ") is private to the host, and NCCL's automatic choice, which leaves out only "
                            "docker* and lo* interfaces, does not leave it out.";
                    else if (kind == "docker")
                        f.detail = ad.interface + " is a container bridge; its address (" + ad.address +
                                   ") is private to the host, and every host has the same one.";
                    else if (kind == "veth")
                        f.detail = ad.interface +
                                   " is one end of a container's virtual cable; the address behind "
                                   "it (" +
                                   ad.address +
                                   ") is normally private to the host, and NCCL's automatic choice does not "
                                   "leave veth* interfaces out.";
                    else
                        f.detail = ad.address + " on " + ad.interface +
                                   " is link-local (169.254/16, fe80::/10): valid on one link only; IPv6 "
                                   "link-local addresses also need the right %interface scope on every host.";
                    f.detail +=
                        multiHost ? " Set NCCL_SOCKET_IFNAME to the interface the hosts share." : oneHost;
                    it = addressFlags.emplace(key, env.flags.size()).first;
                    env.flags.push_back(std::move(f));
                }
                // Processes come in id order: p is either the last one listed or not listed yet.
                auto& procs = env.flags[it->second].processes;
                if (procs.empty() || procs.back() != p.id)
                    procs.push_back(p.id);
            }
        }
    }
    // Subnets: the processes whose addresses share a subnet form one group (union-find).
    env.subnetNote = "NCCL prints no netmask: IPv4 addresses are compared as /24 and IPv6 as /64.";
    std::map<std::string, std::vector<ProcessId>> bySubnet;
    std::unordered_map<std::string_view, std::vector<ProcessId>*> subnetOf; // null: none assumed
    for (const auto& p : a.processes)
        for (const auto& ad : env.ranks[p.id.value].addresses) {
            auto [it, added] = subnetOf.try_emplace(ad.address, nullptr);
            if (added)
                if (auto s = assumedSubnet(ad.address); !s.empty())
                    it->second = &bySubnet[s];
            if (std::vector<ProcessId>* v = it->second; v && (v->empty() || v->back() != p.id))
                v->push_back(p.id); // in id order, as above
        }
    if (bySubnet.size() > 1) {
        std::vector<std::uint32_t> parent(a.processes.size());
        std::iota(parent.begin(), parent.end(), 0u);
        std::function<std::uint32_t(std::uint32_t)> root = [&](std::uint32_t x) {
            return parent[x] == x ? x : parent[x] = root(parent[x]);
        };
        for (const auto& [s, procs] : bySubnet)
            for (std::size_t i = 1; i < procs.size(); ++i)
                parent[root(procs[i].value)] = root(procs[0].value);
        std::set<std::uint32_t> components;
        for (const auto& [s, procs] : bySubnet)
            components.insert(root(procs[0].value));
        if (components.size() > 1) {
            EnvironmentFlag f;
            f.kind = "different-subnets";
            f.severity = "warning";
            std::string list;
            ProcessList listed(f.processes);
            for (const auto& [s, procs] : bySubnet) {
                list += (list.empty() ? "" : "; ") + s + " (" + describeProcesses(a, procs) + ")";
                for (ProcessId id : procs)
                    listed.add(id);
            }
            f.detail =
                "The ranks' addresses fall into " + std::to_string(bySubnet.size()) +
                " subnets that share no rank: " + list + ". " + env.subnetNote +
                " If the real subnets are wider this is fine; otherwise the hosts need a route between "
                "them (check with `ip route get <peer address>`) or NCCL_SOCKET_IFNAME should name the "
                "interface they share.";
            env.flags.push_back(std::move(f));
        }
    }
    // A setting with different values on different ranks.
    std::map<std::string, std::map<std::string, std::vector<ProcessId>>> byName;
    for (const auto& s : env.settings) {
        ProcessList v(byName[s.name][s.value]);
        for (ProcessId id : s.processes)
            v.add(id);
    }
    for (const auto& [name, values] : byName) {
        if (values.size() < 2)
            continue;
        EnvironmentFlag f;
        f.kind = "setting-differs";
        f.severity = "warning";
        std::string list;
        ProcessList listed(f.processes);
        for (const auto& [value, procs] : values) {
            list += (list.empty() ? "" : "; ") + (value.empty() ? std::string("(empty)") : value) + " on " +
                    describeProcesses(a, procs);
            for (ProcessId id : procs)
                listed.add(id);
        }
        f.detail = name + " differs between ranks: " + list + ".";
        for (const auto& s : env.settings)
            if (s.name == name) {
                f.where = s.where;
                break;
            }
        env.flags.push_back(std::move(f));
    }
    for (const auto& f : env.flags)
        for (ProcessId id : f.processes) {
            auto& kinds = env.ranks[id.value].flags;
            if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end())
                kinds.push_back(intern(f.kind));
        }
}

} // namespace rl
