#include "identity/version_clues.h"

#include <algorithm>
#include <re2/re2.h>
#include <re2/set.h>

#include "engine/engine.h"
#include "parse/line_parser.h"
#include "util/ascii.h"

namespace rl
{

namespace
{

constexpr Version kLow{0, 0, 0};
constexpr Version kHigh{999, 0, 0};
constexpr int kAnyPatch = 999; // "2.28.x": every patch release of 2.28

VersionRange upTo(Version v)
{
    return {kLow, v};
}
VersionRange from(Version v)
{
    return {v, kHigh};
}

enum class Scope {
    Any,    // any NCCL line, or NCCL's text repeated bare
    Socket, // and, on a WARN, printed from NCCL's socket code (misc/socket.cc, include/socket.h, os/linux.cc)
    NetIb,  // a WARN printed from NCCL's own transport/net_ib*
};

struct Rule {
    const char* id;
    const char* re; // matched at the start of the message
    VersionRange range;
    const char* basis;
    Scope scope = Scope::Any;
};

// Message forms (nccl-log-formats.md section in brackets).
const Rule kRules[] = {
    {"bootstrap-list", R"(Bootstrap : Using \[\d+\])", upTo({2, 7, kAnyPatch}),
     "'Bootstrap : Using [0]if:addr …' listing every interface is the 2.7 and earlier form; from 2.8 one "
     "interface is printed (§3)"},
    {"bootstrap-space", R"(Bootstrap : Using)", upTo({2, 23, 4}),
     "'Bootstrap : Using' with a space before the colon is printed up to 2.23.4; 2.24.3 prints "
     "'Bootstrap: Using' (§3)"},
    {"bootstrap-nospace", R"(Bootstrap: Using)", from({2, 24, 3}),
     "'Bootstrap: Using' without the space is printed from 2.24.3 on (§3)"},
    {"socket-state-machine",
     R"(socket(?:Start|Poll)Connect\b)",
     {{2, 16, 2}, {2, 28, kAnyPatch}},
     "socketStartConnect/socketPollConnect messages come from the connect state machine of "
     "2.16.2–2.28.x; 2.29 renamed them ncclOsSocket… (§2.1, C.3)",
     Scope::Socket},
    {"poll-connect-errno",
     R"(socketPollConnect: Connect to \S+ returned \d+\(.*\) errno \d+\()",
     {{2, 20, 3}, {2, 23, 4}},
     "'socketPollConnect: Connect to … returned N(…) errno N(…)' exists in 2.20.3–2.23.4 (§2.3)",
     Scope::Socket},
    {"poll-returned",
     R"(socketPollConnect poll\(\) returned \d+)",
     {{2, 23, 4}, {2, 28, kAnyPatch}},
     "the WARN 'socketPollConnect poll() returned N' first appears in 2.23.4; 2.29 renamed the function "
     "(§2.3)",
     Scope::Socket},
    {"retry-count",
     R"(\w+: connect returned .+, retrying \(\d+/\d+\) after sleep for \d+ msec)",
     {{2, 24, 3}, {2, 26, kAnyPatch}},
     "'<fn>: connect returned …, retrying (n/m)' without the address is the 2.24.3–2.26.x form; 2.27.3 adds "
     "'to <addr>' (§2.3)",
     Scope::Socket},
    {"retry-count-address", R"(\w+: connect to \S+ returned .+, retrying \(\d+/\d+\) after sleep)",
     from({2, 27, 3}),
     "'<fn>: connect to <addr> returned …, retrying (n/m)' is printed from 2.27.3 on (§2.3)", Scope::Socket},
    {"retry-exceeded",
     R"(\w+: connect returned .+, exceeded error retry count \(\d+\))",
     {{2, 24, 3}, {2, 26, kAnyPatch}},
     "'exceeded error retry count (N)' without the address is the 2.24.3–2.26.x form (§2.3)",
     Scope::Socket},
    {"retry-exceeded-address",
     R"(\w+: connect to \S+ returned .+, exceeded error retry count after \d+ attempts)", from({2, 27, 3}),
     "'connect to <addr> returned …, exceeded error retry count after N attempts' is printed from 2.27.3 on "
     "(§2.3)",
     Scope::Socket},
    {"call-to-connect", R"(Call to connect returned .+, retrying)", upTo({2, 23, 4}),
     "the INFO 'Call to connect returned …, retrying' exists up to 2.23; 2.24.3 replaced it (§2.3, D3)",
     Scope::Socket},
    {"net-colon", R"(Net : (?:Connect to \S+ failed|Call to recv from|Connection closed by remote peer))",
     upTo({2, 15, 5}), "'Net : …' socket messages are the 2.15 and earlier form (§2.3, §2.5)", Scope::Socket},
    {"progress-send",
     R"(socketProgressOpt: Call to send to )",
     {{2, 24, 3}, {2, 28, kAnyPatch}},
     "'socketProgressOpt: Call to send to' is the 2.24–2.28 form; 2.16–2.23 print 'recv from' for both "
     "directions (§2.5)",
     Scope::Socket},
    {"progress-recv",
     R"(socketProgressOpt: Call to recv from )",
     {{2, 16, 2}, {2, 28, kAnyPatch}},
     "'socketProgressOpt:' is printed by 2.16–2.28; 2.29 renamed it ncclOsSocketProgressOpt (§2.5)",
     Scope::Socket},
    {"progress-closed", R"(socketProgress: Connection closed by remote peer)", from({2, 16, 2}),
     "'socketProgress: Connection closed by remote peer' is the 2.16 and later form; 2.15 printed 'Net : …' "
     "(§2.5)",
     Scope::Socket},
    {"nodes-line", R"(comm (?:0x[0-9a-fA-F]+|\(nil\)) rank \d+ nRanks \d+ nNodes \d+ localRanks \d+)",
     from({2, 20, 3}),
     "'comm … rank N nRanks N nNodes N localRanks N localRank N MNNVL N' is printed from 2.20.3 on "
     "(src/init.cc; absent from 2.19.4)"},
    {"ncclos-socket", R"(ncclOsSocket\w+)", from({2, 29, 2}),
     "ncclOsSocket… functions exist from 2.29.2 on (§2.1, C.3)"},
    {"ib-error", R"(NET/IB : Got completion from peer \S+ with error \d+)", upTo({2, 19, 4}),
     "NET/IB 'Got completion … with error N' is the 2.19.4 and earlier form (§5.1)", Scope::NetIb},
    {"ib-status-space",
     R"(NET/IB : Got completion from peer \S+ with status=\d+ opcode=\d+ len=)",
     {{2, 20, 3}, {2, 21, 5}},
     "NET/IB 'NET/IB : … with status=N opcode=N len=' is the 2.20.3–2.21.5 form (§5.1)",
     Scope::NetIb},
    {"ib-status",
     R"(NET/IB: Got completion from peer \S+ with status=\d+ opcode=\d+ len=)",
     {{2, 22, 3}, {2, 28, 3}},
     "NET/IB 'NET/IB: … with status=N opcode=N len=' is the 2.22.3–2.28.3 form (§5.1)",
     Scope::NetIb},
    {"ib-status-reqsize",
     R"(NET/IB: Got completion from peer \S+ with status=\w+\(\d+\) opcode=\w+\(\d+\) reqSize=)",
     {{2, 28, 4}, {2, 28, kAnyPatch}},
     "NET/IB 'status=NAME(N) opcode=NAME(N) reqSize=' is printed by 2.28.9, after the 2.28.3 form and before "
     "2.29.2's (§5.1)",
     Scope::NetIb},
    {"ib-status-names",
     R"(NET/IB: Got completion from peer \S+ with status=\w+\(\d+\) opcode=\w+\(\d+\) vendor_err=)",
     from({2, 29, 2}),
     "NET/IB 'status=NAME(N) opcode=NAME(N) vendor_err=' without reqSize is the 2.29.2 and "
     "later form (§5.1)",
     Scope::NetIb},
    {"root-mismatch-info",
     R"(Bootstrap Root : mismatch in info from procs, nranks \d+ vs \d+, nroots \d+ vs \d+, iroot \d+ vs \d+\s*$)",
     {{2, 23, 4}, {2, 28, kAnyPatch}},
     "'Bootstrap Root : mismatch in info from procs' without ', offset' is the 2.23–2.28 form (§3)"},
    {"root-mismatch-offset", R"(Bootstrap Root : mismatch in info from procs, .*, offset \d+ vs \d+)",
     from({2, 29, 2}), "', offset N vs N' in the bootstrap root mismatch is printed from 2.29.2 on (§3)"},
};

struct Compiled {
    std::vector<std::unique_ptr<RE2>> rules;
    // Every rule in one automaton: a line is read once to learn which rules match, instead of once
    // per rule (versionCluesOfLine runs on every event of every rank).
    RE2::Set any{RE2::DefaultOptions, RE2::ANCHOR_START};
    bool anyCompiled = false;
    RE2 init{
        R"((?:^|\s)(?P<rk>\[Rank \d+\] )?(?:(?P<api>nccl\w+) )?comm (?:0x[0-9a-fA-F]+|\(nil\)) rank \d+ nranks \d+ cudaDev -?\d+(?P<nvml> nvmlDev -?\d+)? busId [0-9a-fA-F]+(?:.*?(?P<commid> commId 0x[0-9a-fA-F]+))? ?- Init (?P<phase>START|COMPLETE))"};
    RE2 stamp{R"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,9})?\] $)"};
    Compiled()
    {
        bool added = true;
        for (const auto& r : kRules) {
            rules.push_back(std::make_unique<RE2>(std::string("^(?:") + r.re + ")"));
            added = added && any.Add(r.re, nullptr) >= 0;
        }
        anyCompiled = added && any.Compile();
    }
    // The rules that match the start of `m`, in rule order.
    std::vector<int> matching(const re2::StringPiece& m) const
    {
        std::vector<int> hit;
        RE2::Set::ErrorInfo error{};
        // Asked first without a list, for which RE2 allocates nothing and stops at the first rule
        // that matches: most lines (every rank's Init lines) match none.
        if (anyCompiled && !any.Match(m, nullptr, &error) && error.kind == RE2::Set::kNoError)
            return hit;
        if (anyCompiled && (any.Match(m, &hit, &error) || error.kind == RE2::Set::kNoError)) {
            std::sort(hit.begin(), hit.end());
            return hit;
        }
        // The set could not run (its automaton ran out of memory): one rule at a time.
        hit.clear();
        for (std::size_t i = 0; i < rules.size(); ++i)
            if (RE2::PartialMatch(m, *rules[i]))
                hit.push_back(static_cast<int>(i));
        return hit;
    }
};

const Compiled& compiled()
{
    static const Compiled c;
    return c;
}

// The parts of an Init line that tell its form (the captures of Compiled::init).
struct InitForm {
    bool rankPrefix = false;
    std::string_view api;
    bool nvml = false;
    bool commId = false;
    bool start = false;
};

// Compiled::init where the Init line starts the message, as NCCL prints it, read by hand: a bundle
// has several Init lines per rank, and the regex with five captures ran a search, a reverse search
// and a backtracking pass on each (a third of the environment stage on 10,000 ranks). Each step
// takes the choice the regex prefers (optional groups and + taken, .*? shortest) and gives up
// where that choice fails, so a form found here is the one the regex finds; nullopt means "ask the
// regex". ASCII only: the regex reads UTF-8 characters where this reads bytes.
std::optional<InitForm> initFormAtStart(std::string_view m)
{
    if (!isPlainAscii(m))
        return std::nullopt;
    std::size_t i = 0; // (?:^|\s): ^, the regex's first choice, at the message's start
    auto lit = [&](std::string_view s) {
        if (m.substr(i, s.size()) != s)
            return false;
        i += s.size();
        return true;
    };
    auto run = [&](bool (*cls)(char)) {
        const std::size_t from = i;
        while (i < m.size() && cls(m[i]))
            ++i;
        return i > from;
    };
    auto number = [&] {
        if (i < m.size() && m[i] == '-')
            ++i;
        return run(isDigit);
    };
    InitForm f;
    // (?P<rk>\[Rank \d+\] )?
    if (lit("[Rank ") && run(isDigit) && lit("] "))
        f.rankPrefix = true;
    else
        i = 0;
    // (?:(?P<api>nccl\w+) )?
    const std::size_t apiAt = i;
    if (lit("nccl") && run(isWord) && i < m.size() && m[i] == ' ') {
        f.api = m.substr(apiAt, i - apiAt);
        ++i;
    } else {
        i = apiAt;
    }
    // comm (?:0x[0-9a-fA-F]+|\(nil\)) rank \d+ nranks \d+ cudaDev -?\d+
    if (!lit("comm ") || !((lit("0x") && run(isHex)) || lit("(nil)")) || !lit(" rank ") || !run(isDigit) ||
        !lit(" nranks ") || !run(isDigit) || !lit(" cudaDev ") || !number())
        return std::nullopt;
    // (?P<nvml> nvmlDev -?\d+)?
    const std::size_t nvmlAt = i;
    if (lit(" nvmlDev ") && number())
        f.nvml = true;
    else
        i = nvmlAt;
    // busId [0-9a-fA-F]+
    if (!lit(" busId ") || !run(isHex))
        return std::nullopt;
    // ` ?- Init (START|COMPLETE)` at `at`; true with the phase.
    auto initAt = [&](std::size_t at, bool& start) {
        i = at;
        lit(" ");
        if (!lit("- Init "))
            return false;
        if (lit("START"))
            start = true;
        else if (!lit("COMPLETE"))
            return false;
        return true;
    };
    // (?:.*?(?P<commid> commId 0x[0-9a-fA-F]+))?: the first commId that the Init phase follows
    const std::size_t busEnd = i;
    for (std::size_t at = m.find(" commId 0x", busEnd); at != std::string_view::npos;
         at = m.find(" commId 0x", at + 1)) {
        i = at + 10;
        if (run(isHex) && initAt(i, f.start)) {
            f.commId = true;
            return f;
        }
    }
    if (initAt(busEnd, f.start))
        return f;
    return std::nullopt;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

LineClue clue(const char* id, VersionRange r, const char* basis)
{
    return {id, r, basis, {}};
}

LineClue clue(const char* id, VersionRange r, std::string basis)
{
    return {id, r, nullptr, std::move(basis)};
}

} // namespace

std::string LineClue::display() const
{
    return rangeDisplay(range);
}

std::string rangeDisplay(const VersionRange& r)
{
    auto v = [](const Version& x) {
        return x.patch == kAnyPatch ? std::to_string(x.major) + "." + std::to_string(x.minor) + ".x"
                                    : x.toString();
    };
    if (r.from == r.to)
        return v(r.from);
    if (r.from == kLow && r.to == kHigh)
        return "any";
    if (r.from == kLow)
        return "≤ " + v(r.to);
    if (r.to == kHigh)
        return "≥ " + v(r.from);
    return v(r.from) + "–" + v(r.to);
}

std::optional<VersionRange> intersect(const VersionRange& a, const VersionRange& b)
{
    VersionRange r{std::max(a.from, b.from), std::min(a.to, b.to)};
    if (r.to < r.from)
        return std::nullopt;
    return r;
}

bool overlaps(const VersionRange& a, const VersionRange& b)
{
    return intersect(a, b).has_value();
}

// The proxy thread's "[Proxy Service R] Failed to execute operation ..." WARN by the line of
// src/proxy.cc that prints it, at each release tag of NVIDIA/nccl from v2.12.7-1 to v2.30.4-1 (the
// first release of that text; v2.30.7-1 spreads the call over two lines, so its number is not
// read here). Each line number belongs to the releases listed and no other.
std::optional<VersionRange> proxyWarnFamily(int fileLine)
{
    struct Row {
        int line;
        VersionRange range;
    };
    static const Row rows[] = {
        {1040, {{2, 12, 12}, {2, 12, 12}}}, {1042, {{2, 12, 10}, {2, 12, 10}}},
        {1044, {{2, 12, 7}, {2, 12, 7}}},   {1097, {{2, 13, 4}, {2, 13, 4}}},
        {1119, {{2, 14, 3}, {2, 15, 5}}},   {1162, {{2, 16, 2}, {2, 16, 2}}},
        {1172, {{2, 16, 5}, {2, 16, 5}}},   {1489, {{2, 17, 1}, {2, 17, 1}}},
        {1518, {{2, 18, 1}, {2, 18, 1}}},   {1519, {{2, 18, 3}, {2, 18, 6}}},
        {1521, {{2, 22, 3}, {2, 22, 3}}},   {1535, {{2, 19, 4}, {2, 19, 4}}},
        {1557, {{2, 19, 1}, {2, 19, 3}}},   {1567, {{2, 20, 3}, {2, 20, 5}}},
        {1580, {{2, 21, 5}, {2, 21, 5}}},   {1656, {{2, 23, 4}, {2, 23, 4}}},
        {1668, {{2, 24, 3}, {2, 24, 3}}},   {1673, {{2, 25, 1}, {2, 25, 1}}},
        {1694, {{2, 26, 2}, {2, 26, 2}}},   {1698, {{2, 26, 3}, {2, 26, 6}}},
        {1701, {{2, 27, 3}, {2, 27, 7}}},   {1734, {{2, 28, 9}, {2, 28, 9}}},
        {1741, {{2, 28, 3}, {2, 28, 7}}},   {1750, {{2, 29, 3}, {2, 29, 3}}},
        {1751, {{2, 29, 2}, {2, 29, 2}}},   {1752, {{2, 29, 7}, {2, 29, 7}}},
        {1798, {{2, 30, 3}, {2, 30, 4}}},
    };
    for (const auto& r : rows)
        if (r.line == fileLine)
            return r.range;
    return std::nullopt;
}

std::vector<LineClue> versionCluesOfLine(std::string_view line)
{
    std::vector<LineClue> out;
    const Compiled& c = compiled();
    const ParsedLine p = parseLine(line);
    std::string_view msg = p.nccl ? p.nccl->message : p.body;
    while (!msg.empty() && (msg.front() == ' ' || msg.front() == '\t'))
        msg.remove_prefix(1);
    std::string_view file = p.nccl ? p.nccl->file : std::string_view{};
    if (!file.empty() && !endsWith(file, ".cc") && !endsWith(file, ".h"))
        return out; // an external net plugin's WARN (ib_plugin.c, ...): not NCCL's own text
    const bool socketFile =
        file.empty() || file == "misc/socket.cc" || file == "include/socket.h" || file == "os/linux.cc";

    if (p.nccl) {
        // NCCL's own wall-clock stamp right before host:pid:tid (2.26.2+, default format).
        const auto hostAt = static_cast<std::size_t>(p.nccl->host.data() - line.data());
        // The stamp ends "] " right before the host and takes at least 22 bytes: most lines have
        // nothing there, and are spared the search.
        if (hostAt <= line.size() && hostAt >= 22 && line.substr(hostAt - 2, 2) == "] " &&
            RE2::PartialMatch(re2::StringPiece(line.data(), hostAt), c.stamp))
            out.push_back(
                clue("nccl-timestamp", from({2, 26, 2}),
                     "NCCL's own '[date time]' stamp before host:pid:tid exists from 2.26.2 on (§1.4)"));
        if (!p.nccl->function.empty())
            out.push_back(clue("warn-function", from({2, 30, 7}),
                               "a '(function)' before NCCL WARN is printed from 2.30.7 on (§1.1)"));
        if (file == "os/linux.cc")
            out.push_back(clue("os-linux-file", from({2, 29, 2}),
                               "the socket code lives in os/linux.cc from 2.29.2 on (§2.1)"));
        if (file == "proxy.cc" && proxyServiceRank(msg) >= 0)
            if (const auto r = proxyWarnFamily(p.nccl->fileLine))
                out.push_back(clue("proxy-warn-line", *r,
                                   "the '[Proxy Service N] Failed to execute operation' WARN at proxy.cc:" +
                                       std::to_string(p.nccl->fileLine) + " is printed only by NCCL " +
                                       r->toString() + " (src/proxy.cc at each release tag)"));
    }
    const re2::StringPiece m(msg.data(), msg.size());
    const bool initLine = msg.find("- Init ") != std::string_view::npos;
    std::optional<InitForm> form = initLine ? initFormAtStart(msg) : std::nullopt;
    // A message that reads as an Init line from its first byte starts "[Rank ", "comm " or an API
    // name and a space, where no rule can match (each starts with its own word, or with a word
    // and ': connect'); only an API name spelled like ncclOsSocket… could. Every rank prints
    // several Init lines, and the rules' automaton was a quarter of their cost.
    const bool noRuleCanMatch = form && msg.substr(0, 12) != "ncclOsSocket";
    for (int i : noRuleCanMatch ? std::vector<int>{} : c.matching(m)) {
        const Rule& r = kRules[static_cast<std::size_t>(i)];
        if (r.scope == Scope::Socket && !socketFile)
            continue;
        if (r.scope == Scope::NetIb && file.substr(0, 16) != "transport/net_ib")
            continue;
        out.push_back(clue(r.id, r.range, r.basis));
    }
    if (initLine) {
        if (!form) {
            re2::StringPiece rk, api, nvml, commid, phase;
            if (RE2::PartialMatch(m, c.init, &rk, &api, &nvml, &commid, &phase))
                form = InitForm{!rk.empty(), std::string_view(api.data(), api.size()), !nvml.empty(),
                                !commid.empty(), phase == "START"};
        }
        if (form) {
            const std::string_view api = form->api;
            if (form->rankPrefix)
                out.push_back(clue("init-rank-prefix", from({2, 29, 2}),
                                   "'[Rank N]' before the Init line is printed from 2.29.2 on (§4.2)"));
            if (!api.empty())
                out.push_back(clue("init-api-name", from({2, 21, 5}),
                                   "the API name ('" + std::string(api.data(), api.size()) +
                                       "') before 'comm' is printed from 2.21.5 on (§4.2)"));
            else if (form->nvml)
                out.push_back(
                    clue("init-nvmldev", {{2, 18, 3}, {2, 20, 5}},
                         "an Init line with nvmlDev and no API name is the 2.18.3–2.20.5 form (§4.2)"));
            else if (form->commId)
                out.push_back(clue("init-commid", {{2, 16, 2}, {2, 18, 1}},
                                   "an Init line with commId but no nvmlDev is the 2.16–2.18.1 form (§4.2)"));
            else
                out.push_back(clue("init-plain", upTo({2, 15, kAnyPatch}),
                                   "an Init line without commId is the 2.15 and earlier form (§4.2)"));
            if (form->start)
                out.push_back(clue("init-start", from({2, 18, 3}),
                                   "'Init START' exists from 2.18.3 on; earlier releases print only COMPLETE "
                                   "(§4.2, B.2)"));
        }
    }
    return out;
}

std::optional<LineClue> connectAbortClue(int warnLine, int trailLine)
{
    auto r = connectAbortFamily(warnLine, trailLine);
    if (!r)
        return std::nullopt;
    return clue("connect-abort-lines", *r,
                "socketStartConnect WARN at misc/socket.cc:" + std::to_string(warnLine) +
                    " followed by misc/socket.cc:" + std::to_string(trailLine) + " is printed only by NCCL " +
                    r->toString() + " (§2.3)");
}

LineClue exactVersionClue(const Version& v, const std::string& basis)
{
    return clue("version-code", {v, v}, basis);
}

} // namespace rl
