#include "engine/scanner.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <re2/re2.h>
#include <stdexcept>
#include <unordered_map>

#include "util/ascii.h"

#ifdef RANKLINE_HAVE_HYPERSCAN
#include <hs.h>
#endif

namespace rl
{

namespace
{

struct BuiltinDef {
    Builtin kind;
    const char* pattern;
};

// Version from NCCL's own line (bare on rank 0 up to 2.21, INFO from 2.22) or from PyTorch's
// exception text ("..., NCCL version 2.18.3").
const BuiltinDef kBuiltins[] = {
    {Builtin::NcclVersion, R"(NCCL version (?P<version>\d+\.\d+\.\d+))"},
    // vLLM and SGLang say which library their own communicator loaded: "vLLM is using
    // nccl==2.21.5" (RCCL's version on ROCm).
    {Builtin::NcclVersion, R"(is using nccl==(?P<version>\d+\.\d+\.\d+))"},
    // Only rank, nranks and the device are read (identity); the other fields stay uncaptured, as
    // every rank prints this line for each communicator it creates.
    {Builtin::InitLine,
     R"(comm (?:0x[0-9a-fA-F]+|\(nil\)) rank (?P<rank>\d+) nranks (?P<nranks>\d+) cudaDev (?P<dev>-?\d+))"},
    {Builtin::InitPhase, R"(commId (?P<commid>0x[0-9a-fA-F]+) ?- Init (?P<phase>START|COMPLETE))"},
    {Builtin::NodesLine,
     R"(comm (?:0x[0-9a-fA-F]+|\(nil\)) rank \d+ nRanks (?P<nranks>\d+) nNodes (?P<nnodes>\d+) localRanks \d+ )"
     R"(localRank (?P<localrank>\d+))"},
    {Builtin::BootstrapAddress, R"(Bootstrap ?: Using (?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>)"},
    {Builtin::SocketAddress, R"(NET/Socket : Using \[\d+\](?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>)"},
    // PyTorch's "[Rank N]" after a glog bracket, and the default group's prefix ("[PG 0 Rank N]",
    // "[PG ID 0 PG GUID 0(default_pg) Rank N]"), whose rank within the group is the global rank; other
    // groups' prefixes name a rank within their group and are not read.
    {Builtin::TorchRank, R"((?:\] \[|\[PG 0 |\(default_pg\) )Rank (?P<rank>\d+)\] )"},
    {Builtin::Traceback, R"(Traceback \(most recent call last\):)"},
    {Builtin::Exception, R"((?:^|\s)(?P<exc>[A-Za-z_][\w.]*)Error: )"},
    // NCCL's "cudaDriverVersion 12020" (the driver's CUDA version, nccl-log-formats §4.1).
    {Builtin::CudaDriver, R"(cudaDriverVersion (?P<code>\d+))"},
    // "NCCL_SOCKET_IFNAME set by environment to eth0", "... set to eth0", and NAME=value as jobs
    // print their environment; every setting on the line is read by identity/environment.
    {Builtin::NcclSetting, R"(NCCL_[A-Z0-9_]+(?: set (?:by environment )?to |=))"},
    // "torch 2.1.0a0+29c30b1", "PyTorch version: 2.1.0+cu121", "torch==2.3.1".
    {Builtin::TorchVersion,
     R"(\b(?:Py)?[Tt]orch(?: [Vv]ersion)?(?:==|: ?| v?)(?P<torch>\d+\.\d+(?:\.\d+)?[a-z0-9.+]*))"},
    {Builtin::TorchCuda, R"(CUDA used to build PyTorch: (?P<cuda>\d+\.\d+))"},
    {Builtin::IbOob, R"(NET/IB : Using .*; OOB (?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>)"},
    // The NVIDIA driver's kernel lines that name a GPU by its bus: its Xids ("NVRM: Xid (PCI:0000:3b:00):
    // 79, ..."; older drivers leave out "PCI:", with MIG the instance follows the bus), with the pid
    // of a process using the GPU where the driver knew one ("pid=35521"; "pid='<unknown>'"), and its
    // "NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus." and "NVRM: GPU at PCI:0000:3b:00: ...".
    // nccl-tests prints every rank's line from its first process (MPI gathers them): "Rank %2d Group
    // %2d Pid %6d on %10s device %2d [0x%02x] %s", the bus as "[%04x:%02x:%02x]" in later releases.
    // The host is cut at its first dot, as NCCL's prefix has it. Spelled with the format's own
    // spaces: its longest literal, "#  Rank ", is then the rare one the prefilter looks for.
    {Builtin::NcclTestsDevice,
     R"(#  Rank +(?P<rank>\d+) Group +-?\d+ Pid +(?P<pid>\d+) on +(?P<host>\S+) device +(?P<dev>\d+) \[)"},
    {Builtin::NvrmGpu,
     R"(NVRM: (?:Xid \((?:PCI:)?|GPU (?:at PCI:)?)(?P<pci>[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}))"
     R"((?:[^)]*\): \d+(?:, pid=(?P<pid>\d+))?)?)"},
};

// `text` at `p` (which is at most s.size()).
bool at(std::string_view s, std::size_t p, std::string_view text)
{
    return s.substr(p, text.size()) == text;
}

// Captures, in the order RE2 names them (by name), in one allocation.
bool setCaptures(Captures& caps, std::initializer_list<std::pair<std::string_view, std::string_view>> named)
{
    std::size_t size = 0;
    for (const auto& [name, value] : named)
        size += Captures::packedSize(name, value);
    caps.reserve(size);
    for (const auto& [name, value] : named)
        caps.add(name, value);
    return true;
}

// The InitLine and InitPhase regexes of kBuiltins by hand: every rank prints both for each
// communicator it creates, and through RE2 with submatches they cost 300-400 ns a line, ten times
// this. Same leftmost match and the same captures, in the order RE2 names them (by name);
// tst_scanner compares both with the regexes on every line of the fixtures and real logs.
// Each run of hex or decimal digits is followed by a character outside it, so greedy runs never
// need to give back.
bool matchInitLine(std::string_view line, Captures& caps)
{
    for (std::size_t i = line.find("comm "); i != std::string_view::npos; i = line.find("comm ", i + 1)) {
        std::size_t p = i + 5;
        if (at(line, p, "0x") && p + 2 < line.size() && isHex(line[p + 2]))
            p = runEnd(line, p + 2, isHex);
        else if (at(line, p, "(nil)"))
            p += 5;
        else
            continue;
        if (!at(line, p, " rank "))
            continue;
        const std::size_t rankAt = p + 6;
        p = runEnd(line, rankAt, isDigit);
        if (p == rankAt || !at(line, p, " nranks "))
            continue;
        const std::string_view rank = line.substr(rankAt, p - rankAt);
        const std::size_t nranksAt = p + 8;
        p = runEnd(line, nranksAt, isDigit);
        if (p == nranksAt || !at(line, p, " cudaDev "))
            continue;
        const std::string_view nranks = line.substr(nranksAt, p - nranksAt);
        p += 9;
        const std::size_t devAt = p;
        if (p < line.size() && line[p] == '-')
            ++p;
        if (p >= line.size() || !isDigit(line[p]))
            continue;
        const std::string_view dev = line.substr(devAt, runEnd(line, p, isDigit) - devAt);
        return setCaptures(caps, {{"dev", dev}, {"nranks", nranks}, {"rank", rank}});
    }
    return false;
}

bool matchInitPhase(std::string_view line, Captures& caps)
{
    for (std::size_t i = line.find("commId "); i != std::string_view::npos; i = line.find("commId ", i + 1)) {
        const std::size_t idAt = i + 7;
        if (!at(line, idAt, "0x") || idAt + 2 >= line.size() || !isHex(line[idAt + 2]))
            continue;
        std::size_t p = runEnd(line, idAt + 2, isHex);
        const std::string_view id = line.substr(idAt, p - idAt);
        if (p < line.size() && line[p] == ' ')
            ++p;
        if (!at(line, p, "- Init "))
            continue;
        p += 7;
        std::string_view phase;
        if (at(line, p, "START"))
            phase = line.substr(p, 5);
        else if (at(line, p, "COMPLETE"))
            phase = line.substr(p, 8);
        else
            continue;
        return setCaptures(caps, {{"commid", id}, {"phase", phase}});
    }
    return false;
}

// The other built-ins every rank prints once or more (cudaDriverVersion, its Bootstrap and
// NET/Socket address lines, PyTorch's "[Rank N]", NCCL_* settings), by hand for the same reason:
// ten thousand ranks' logs make some 70,000 such lines, each an RE2 call of its own. Each gives
// RE2's leftmost match and captures (tst_scanner compares them as above). Every run below ends
// at a character its class excludes, so no shorter run could match either. A run that holds a
// byte outside ASCII is left to the regex (RegexDecides): there RE2 reads UTF-8 characters, and
// no class matches an invalid byte.
enum class Hand { NoMatch, Match, RegexDecides };

// "IF:IP<PORT>" at `p`: (?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>
Hand matchAddressAt(std::string_view line, std::size_t p, Captures& caps)
{
    auto run = [&](char stop) -> std::optional<std::size_t> {
        for (; p < line.size() && line[p] != stop && !isSpace(line[p]); ++p)
            if (static_cast<unsigned char>(line[p]) >= 0x80)
                return std::nullopt;
        return p;
    };
    const std::size_t ifAt = p;
    const auto ifEnd = run(':');
    if (!ifEnd)
        return Hand::RegexDecides;
    if (*ifEnd == ifAt || !at(line, *ifEnd, ":"))
        return Hand::NoMatch;
    const std::size_t ipAt = ++p;
    const auto ipEnd = run('<');
    if (!ipEnd)
        return Hand::RegexDecides;
    if (*ipEnd == ipAt || !at(line, *ipEnd, "<"))
        return Hand::NoMatch;
    const std::size_t portEnd = runEnd(line, *ipEnd + 1, isDigit);
    if (portEnd == *ipEnd + 1 || !at(line, portEnd, ">"))
        return Hand::NoMatch;
    setCaptures(caps, {{"if", line.substr(ifAt, *ifEnd - ifAt)}, {"ip", line.substr(ipAt, *ipEnd - ipAt)}});
    return Hand::Match;
}

// Tries `from(i)` at each place `lead` occurs, left to right: the first that matches is the
// leftmost match, and one the regex must decide hands it the whole line.
template <class From> Hand eachOccurrence(std::string_view line, std::string_view lead, From&& from)
{
    for (std::size_t i = line.find(lead); i != std::string_view::npos; i = line.find(lead, i + 1))
        if (const Hand h = from(i + lead.size()); h != Hand::NoMatch)
            return h;
    return Hand::NoMatch;
}

// Bootstrap ?: Using (?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>
Hand matchBootstrapAddress(std::string_view line, Captures& caps)
{
    return eachOccurrence(line, "Bootstrap", [&](std::size_t p) {
        if (at(line, p, " "))
            ++p;
        return at(line, p, ": Using ") ? matchAddressAt(line, p + 8, caps) : Hand::NoMatch;
    });
}

// NET/Socket : Using \[\d+\](?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>
Hand matchSocketAddress(std::string_view line, Captures& caps)
{
    return eachOccurrence(line, "NET/Socket : Using [", [&](std::size_t p) {
        const std::size_t end = runEnd(line, p, isDigit);
        return end > p && at(line, end, "]") ? matchAddressAt(line, end + 1, caps) : Hand::NoMatch;
    });
}

// A name and a run of digits after it: cudaDriverVersion (?P<code>\d+) and, with `after`,
// \] \[Rank (?P<rank>\d+)\] .
bool matchNumberAfter(std::string_view line, std::string_view lead, std::string_view after,
                      std::string_view name, Captures& caps)
{
    for (std::size_t i = line.find(lead); i != std::string_view::npos; i = line.find(lead, i + 1)) {
        const std::size_t from = i + lead.size();
        const std::size_t end = runEnd(line, from, isDigit);
        if (end == from || !at(line, end, after))
            continue;
        return setCaptures(caps, {{name, line.substr(from, end - from)}});
    }
    return false;
}

// (?:\] \[|\[PG 0 |\(default_pg\) )Rank (?P<rank>\d+)\] : the leftmost match is the first "Rank " that
// one of the three comes right before and a number and "] " right after (none of them holds
// "Rank ", so a later "Rank "'s match cannot start before an earlier one's).
bool matchTorchRank(std::string_view line, Captures& caps)
{
    for (std::size_t i = line.find("Rank "); i != std::string_view::npos; i = line.find("Rank ", i + 1)) {
        const std::string_view before = line.substr(0, i);
        if (!before.ends_with("] [") && !before.ends_with("[PG 0 ") && !before.ends_with("(default_pg) "))
            continue;
        const std::size_t from = i + 5;
        const std::size_t end = runEnd(line, from, isDigit);
        if (end == from || !at(line, end, "] "))
            continue;
        return setCaptures(caps, {{"rank", line.substr(from, end - from)}});
    }
    return false;
}

// \b(?:Py)?[Tt]orch(?: [Vv]ersion)?(?:==|: ?| v?)(?P<torch>\d+\.\d+(?:\.\d+)?[a-z0-9.+]*)
// Every rank prints its PyTorch version, and each "torch/" of a Python path is a candidate too:
// through RE2, with no literal to anchor at, a capture costs three passes over the line. A match
// starts at a "[Tt]orch" (or the "Py" before it) and what it captures depends only on the text
// after "orch", where no choice is left open: " [Vv]ersion", when there, must be taken (without it
// the separator would need a digit at its 'v' or 'V'), each separator form is told by its first
// character, and the version runs as far as its classes go (nothing follows it). The classes are
// ASCII, and RE2's \b reads bytes: no byte outside ASCII needs the regex.
bool matchTorchVersion(std::string_view line, Captures& caps)
{
    auto boundaryBefore = [&](std::size_t p) { return p == 0 || !isWord(line[p - 1]); };
    for (std::size_t i = line.find("orch"); i != std::string_view::npos; i = line.find("orch", i + 1)) {
        if (i == 0 || (line[i - 1] != 'T' && line[i - 1] != 't'))
            continue;
        const std::size_t t = i - 1;
        const bool py = t >= 2 && line[t - 2] == 'P' && line[t - 1] == 'y';
        if (!boundaryBefore(t) && !(py && boundaryBefore(t - 2)))
            continue;
        std::size_t p = i + 4;
        if (at(line, p, " version") || at(line, p, " Version"))
            p += 8;
        if (at(line, p, "=="))
            p += 2;
        else if (at(line, p, ":"))
            p += at(line, p + 1, " ") ? 2 : 1;
        else if (at(line, p, " "))
            p += at(line, p + 1, "v") ? 2 : 1;
        else
            continue;
        const std::size_t from = p;
        std::size_t end = runEnd(line, from, isDigit);
        if (end == from || !at(line, end, "."))
            continue;
        const std::size_t minor = end + 1;
        end = runEnd(line, minor, isDigit);
        if (end == minor)
            continue;
        end = runEnd(line, end,
                     [](char c) { return (c >= 'a' && c <= 'z') || isDigit(c) || c == '.' || c == '+'; });
        return setCaptures(caps, {{"torch", line.substr(from, end - from)}});
    }
    return false;
}

// NCCL_[A-Z0-9_]+(?: set (?:by environment )?to |=), which captures nothing.
bool matchNcclSetting(std::string_view line)
{
    constexpr std::string_view lead = "NCCL_";
    for (std::size_t i = line.find(lead); i != std::string_view::npos; i = line.find(lead, i + 1)) {
        const std::size_t from = i + lead.size();
        const std::size_t end =
            runEnd(line, from, [](char c) { return (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_'; });
        if (end > from &&
            (at(line, end, "=") || at(line, end, " set to ") || at(line, end, " set by environment to ")))
            return true;
    }
    return false;
}

// Whether `text` holds one text of each of the fingerprint's required sets (requiredLiterals).
bool holdsRequired(const Fingerprint& f, std::string_view text)
{
    for (const auto& anyOf : f.required)
        if (std::none_of(anyOf.begin(), anyOf.end(),
                         [text](const std::string& t) { return text.find(t) != std::string_view::npos; }))
            return false;
    return true;
}

} // namespace

#ifdef RANKLINE_HAVE_HYPERSCAN
// The compiled literal database and a pool of scratch spaces: Hyperscan needs one scratch per
// concurrent scan, and scans run on every core.
struct Scanner::Hyperscan {
    hs_database_t* db = nullptr;
    std::mutex mutex;
    std::vector<hs_scratch_t*> idle;
    hs_scratch_t* prototype = nullptr;

    ~Hyperscan()
    {
        for (auto* s : idle)
            hs_free_scratch(s);
        hs_free_scratch(prototype);
        hs_free_database(db);
    }
    hs_scratch_t* take()
    {
        std::lock_guard lock(mutex);
        if (!idle.empty()) {
            hs_scratch_t* s = idle.back();
            idle.pop_back();
            return s;
        }
        hs_scratch_t* s = nullptr;
        if (hs_clone_scratch(prototype, &s) != HS_SUCCESS)
            throw std::bad_alloc();
        return s;
    }
    void give(hs_scratch_t* s)
    {
        std::lock_guard lock(mutex);
        idle.push_back(s);
    }
};
#else
struct Scanner::Hyperscan {
};
#endif

namespace
{

// Whether the entry's summary reads a capture of this name, in any placeholder form.
bool summaryNames(const Entry& entry, const std::string& name)
{
    const std::vector<std::string_view> read = summaryPlaceholders(entry.summary);
    return std::any_of(read.begin(), read.end(),
                       [&name](std::string_view p) { return placeholderOf(p).name == name; });
}

// Whether a symptom of the entry other than `symptom` captures `name`.
bool capturedElsewhere(const Entry& entry, std::size_t symptom, const std::string& name)
{
    for (std::size_t s = 0; s < entry.symptoms.size(); ++s)
        if (s != symptom)
            for (const auto& fp : entry.symptoms[s].fingerprints)
                if (fp.pattern.find("(?P<" + name + ">") != std::string::npos)
                    return true;
    return false;
}

} // namespace

Scanner::Scanner(const Encyclopedia& encyclopedia, PrefilterKind prefilter)
{
    for (const auto& b : kBuiltins) {
        auto fp = compileFingerprint(b.pattern);
        if (!fp)
            throw std::logic_error("built-in pattern does not compile: " + fp.error().cause);
        m_patterns.push_back({-1, -1, b.kind, std::move(*fp), true, false});
    }
    for (std::size_t e = 0; e < encyclopedia.entries.size(); ++e) {
        const Entry& entry = encyclopedia.entries[e];
        for (std::size_t s = 0; s < entry.symptoms.size(); ++s) {
            const Symptom& sym = entry.symptoms[s];
            const bool captures = sym.primary || sym.phase != Phase::Context || sym.progress;
            for (const auto& given : sym.fingerprints) {
                Fingerprint fp = given;
                if (!fp.regex) { // the encyclopedia let go of it (releaseCompiledFingerprints)
                    auto again = compileFingerprint(given.pattern);
                    if (!again)
                        throw std::logic_error("fingerprint does not compile: " + again.error().cause);
                    fp.regex = std::move(again->regex);
                }
                const auto& names = fp.regex->NamedCapturingGroups();
                // A context line's captures are dropped, unless it alone defines one the entry's
                // summary reads (the 2.18 copy bug's line number beside the CUDA failure it
                // explains): a name the failure's own lines capture too stays theirs.
                const bool summaryReads =
                    !captures && std::any_of(names.begin(), names.end(), [&](const auto& n) {
                        return summaryNames(entry, n.first) && !capturedElsewhere(entry, s, n.first);
                    });
                m_patterns.push_back({static_cast<int>(e), static_cast<int>(s), Builtin::None, std::move(fp),
                                      captures || summaryReads, names.find("seq") != names.end(),
                                      sym.phase == Phase::Context && !sym.primary});
            }
        }
    }
    std::string alternation;
    for (std::size_t p = 0; p < m_patterns.size(); ++p) {
        const Fingerprint& fp = m_patterns[p].fingerprint;
        for (std::size_t l = 0; l < fp.literals.size(); ++l) {
            const std::string& lit = fp.literals[l];
            const bool afterDigit = l < fp.literalAfterDigit.size() && fp.literalAfterDigit[l];
            // One entry per (text, guard): the same text may need a digit before it for one
            // pattern and not for another.
            std::size_t index = 0;
            while (index < m_literals.size() &&
                   (m_literals[index] != lit || m_literalAfterDigit[index] != afterDigit))
                ++index;
            if (index == m_literals.size()) {
                m_literals.push_back(lit);
                m_literalAfterDigit.push_back(afterDigit);
                m_patternsByLiteral.emplace_back();
                if (!alternation.empty())
                    alternation += '|';
                alternation += RE2::QuoteMeta(lit);
            }
            auto& list = m_patternsByLiteral[index];
            if (std::find(list.begin(), list.end(), static_cast<int>(p)) == list.end())
                list.push_back(static_cast<int>(p));
        }
    }
    // Entries that watch the same line (a service thread's "Connection closed" is evidence for two)
    // carry the same regex: match it once per line.
    m_sameRegex.resize(m_patterns.size());
    m_hasTwin.assign(m_patterns.size(), false);
    {
        std::unordered_map<std::string, int> first;
        for (std::size_t p = 0; p < m_patterns.size(); ++p) {
            const ScanPattern& sp = m_patterns[p];
            auto [it, added] = first.try_emplace(sp.fingerprint.pattern + (sp.wantCaptures ? "\x01" : "\x02"),
                                                 static_cast<int>(p));
            m_sameRegex[p] = it->second;
            if (!added)
                m_hasTwin[p] = m_hasTwin[static_cast<std::size_t>(it->second)] = true;
        }
    }
    m_alternation = "(" + alternation + ")";
#ifdef RANKLINE_HAVE_HYPERSCAN
    // Hyperscan needs SSSE3; on an older CPU the RE2 pass does the same job, slower.
    if (prefilter == PrefilterKind::Hyperscan && hs_valid_platform() == HS_SUCCESS) {
        auto hs = std::make_unique<Hyperscan>();
        std::vector<const char*> text;
        std::vector<std::size_t> lengths;
        std::vector<unsigned> flags(m_literals.size(), 0), ids;
        for (std::size_t i = 0; i < m_literals.size(); ++i) {
            text.push_back(m_literals[i].data());
            lengths.push_back(m_literals[i].size());
            ids.push_back(static_cast<unsigned>(i));
        }
        hs_compile_error_t* error = nullptr;
        if (hs_compile_lit_multi(text.data(), flags.data(), ids.data(), lengths.data(),
                                 static_cast<unsigned>(text.size()), HS_MODE_BLOCK, nullptr, &hs->db,
                                 &error) != HS_SUCCESS) {
            std::string why = error && error->message ? error->message : "unknown error";
            hs_free_compile_error(error);
            throw std::logic_error("literal database does not compile: " + why);
        }
        if (hs_alloc_scratch(hs->db, &hs->prototype) != HS_SUCCESS)
            throw std::bad_alloc();
        m_hs = std::move(hs);
        m_kind = PrefilterKind::Hyperscan;
    }
#else
    (void)prefilter;
#endif
    // The RE2 pass is the whole prefilter without Hyperscan; with it, only matchLine (pasted
    // snippets) needs the literal set, built on first use: every analysis builds a scanner, and
    // these two cost a third of its construction.
    if (!m_hs)
        buildRe2Prefilter();
}

void Scanner::buildRe2Prefilter() const
{
    std::call_once(m_re2Once, [this] {
        RE2::Options opts;
        opts.set_log_errors(false);
        opts.set_max_mem(std::int64_t{64} << 20);
        auto prefilter = std::make_unique<RE2>(m_alternation, opts);
        if (!prefilter->ok())
            throw std::logic_error("prefilter does not compile: " + prefilter->error());
        auto set = std::make_unique<RE2::Set>(opts, RE2::UNANCHORED);
        for (const auto& lit : m_literals)
            if (set->Add(RE2::QuoteMeta(lit), nullptr) < 0)
                throw std::logic_error("literal does not compile: " + lit);
        if (!set->Compile())
            throw std::logic_error("literal set does not compile");
        m_prefilter = std::move(prefilter);
        m_literalSet = std::move(set);
    });
}

Scanner::~Scanner() = default;

void Scanner::releaseMatchers()
{
    m_released = true;
    // The compiled regexes too: they are the encyclopedia's as well unless it let go of them
    // (Encyclopedia::releaseCompiledFingerprints), and then this frees them.
    for (auto& p : m_patterns)
        p.fingerprint.regex.reset();
    m_hs.reset();
    m_literalSet.reset();
    m_prefilter.reset();
}

bool Scanner::matchPattern(int p, std::string_view line, std::uint32_t index, ScanHit& hit) const
{
    const ScanPattern& sp = m_patterns[static_cast<std::size_t>(p)];
    hit.line = index;
    hit.pattern = p;
    hit.captures.clear();
    if (m_released) // its regex is gone (releaseMatchers): nothing matches any more
        return false;
    const RE2& re = *sp.fingerprint.regex;
    const re2::StringPiece text(line.data(), line.size());
    if (m_handMatched) {
        Hand h = Hand::RegexDecides;
        switch (sp.builtin) {
        case Builtin::InitLine:
            return matchInitLine(line, hit.captures);
        case Builtin::InitPhase:
            return matchInitPhase(line, hit.captures);
        case Builtin::CudaDriver:
            return matchNumberAfter(line, "cudaDriverVersion ", {}, "code", hit.captures);
        case Builtin::TorchRank:
            return matchTorchRank(line, hit.captures);
        case Builtin::NcclSetting:
            return matchNcclSetting(line);
        case Builtin::TorchVersion:
            return matchTorchVersion(line, hit.captures);
        case Builtin::BootstrapAddress:
            h = matchBootstrapAddress(line, hit.captures);
            break;
        case Builtin::SocketAddress:
            h = matchSocketAddress(line, hit.captures);
            break;
        default:
            break;
        }
        if (h != Hand::RegexDecides)
            return h == Hand::Match;
    }
    // Every match of a pattern with a lead starts where the lead occurs: a line without it is
    // answered without RE2. Lines are candidates for a pattern by its rarest literal, which the
    // lead often is not: each rank's "backend=nccl" lines are candidates for the "0x… nccl…()"
    // stack-frame patterns, and ran a DFA over their whole length (a thousand bytes of config)
    // for nothing.
    const std::string& lead = sp.fingerprint.lead;
    std::size_t leadAt = 0;
    if (m_handMatched && !lead.empty()) {
        leadAt = line.find(lead);
        if (leadAt == std::string_view::npos)
            return false;
    }
    // Nor is RE2 asked about a line that lacks a text every match holds: every rank's
    // "NET/IB : No device found." is a candidate for the IB async-event patterns by their
    // "NET/IB : ", and its "Bootstrap : Using eth0:..." for those of link-local and docker
    // addresses: on ten thousand ranks a hundred thousand searches, 3 % of the CPU time.
    if (m_handMatched && !holdsRequired(sp.fingerprint, line.substr(leadAt)))
        return false;
    if (!sp.wantCaptures || re.NamedCapturingGroups().empty()) {
        // Context lines only need to be found, and so does a pattern that names no capture (its
        // hit keeps none): the DFA alone answers, without looking for where the match starts,
        // from the first place a match may start (RE2 reads the text before it as context, for
        // \b).
        return re.Match(text, leadAt, line.size(), RE2::UNANCHORED, nullptr, 0);
    }
    int groups = re.NumberOfCapturingGroups();
    std::array<re2::StringPiece, 24> fixed;
    std::vector<re2::StringPiece> dynamic;
    re2::StringPiece* sub = fixed.data();
    if (groups + 1 > static_cast<int>(fixed.size())) {
        dynamic.resize(static_cast<std::size_t>(groups) + 1);
        sub = dynamic.data();
    }
    // A pattern that starts with a literal: every match starts where it occurs, so the leftmost
    // match is the first anchored one at its occurrences, and RE2 finds an anchored match with its
    // captures in one pass. Unanchored, with captures, it runs a forward search for the end, a
    // reverse one for the start and then a third pass for the captures.
    if (m_handMatched && !lead.empty()) {
        bool found = false;
        for (std::size_t from = leadAt; !found && from != std::string_view::npos;
             from = line.find(lead, from + 1))
            found = re.Match(text, from, line.size(), RE2::ANCHOR_START, sub, groups + 1);
        if (!found)
            return false;
    } else if (!re.Match(text, 0, line.size(), RE2::UNANCHORED, sub, groups + 1)) {
        return false;
    }
    // Sized first: a hit is kept for the rest of the analysis, so no growth slack.
    std::size_t bytes = 0;
    for (const auto& [name, i] : re.NamedCapturingGroups())
        if (const auto& piece = sub[static_cast<std::size_t>(i)]; piece.data())
            bytes += Captures::packedSize(name, std::string_view(piece.data(), piece.size()));
    hit.captures.reserve(bytes);
    for (const auto& [name, i] : re.NamedCapturingGroups()) {
        const auto& piece = sub[static_cast<std::size_t>(i)];
        if (piece.data())
            hit.captures.add(name, std::string_view(piece.data(), piece.size()));
    }
    return true;
}

void Scanner::matchLine(std::string_view line, std::uint32_t index, std::vector<ScanHit>& out) const
{
    if (m_released)
        return;
    buildRe2Prefilter();
    std::vector<int> present;
    if (!m_literalSet->Match(re2::StringPiece(line.data(), line.size()), &present))
        return;
    std::vector<int> candidates;
    for (int li : present)
        for (int p : m_patternsByLiteral[static_cast<std::size_t>(li)])
            candidates.push_back(p);
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    ScanHit hit;
    for (int p : candidates)
        if (matchPattern(p, line, index, hit))
            out.push_back(std::move(hit));
}

std::vector<Scanner::LiteralAt> Scanner::findLiterals(const Source& source, std::uint64_t begin,
                                                      std::uint64_t end) const
{
    std::vector<LiteralAt> found =
        m_hs ? findLiteralsHyperscan(source, begin, end) : findLiteralsRe2(source, begin, end);
    std::sort(found.begin(), found.end(), [](const LiteralAt& x, const LiteralAt& y) {
        return std::tie(x.line, x.literal, x.offset) < std::tie(y.line, y.literal, y.offset);
    });
    // One entry per (line, literal): the first place it occurs.
    found.erase(std::unique(found.begin(), found.end(),
                            [](const LiteralAt& x, const LiteralAt& y) {
                                return x.line == y.line && x.literal == y.literal;
                            }),
                found.end());
    return found;
}

std::vector<Scanner::LiteralAt> Scanner::findLiteralsRe2(const Source& source, std::uint64_t begin,
                                                         std::uint64_t end) const
{
    buildRe2Prefilter();
    std::vector<LiteralAt> found;
    const std::string_view text = source.text().substr(0, end);
    re2::StringPiece input(text.data() + begin, text.size() - begin);
    const auto& starts = source.lineStarts;
    std::vector<int> present;
    while (!input.empty()) {
        re2::StringPiece match;
        if (!m_prefilter->Match(input, 0, input.size(), RE2::UNANCHORED, &match, 1))
            break;
        auto offset = static_cast<std::uint64_t>(match.data() - text.data());
        auto lineIndex = static_cast<std::uint32_t>(starts.lineOf(offset));
        std::string_view line = source.line(lineIndex);
        // A huge line (a progress bar that never printed a line break) is searched around the
        // candidate only: one pass over a gigabyte line, not one per literal.
        constexpr std::size_t kWindow = 64 * 1024;
        if (line.size() > 2 * kWindow) {
            const auto at = static_cast<std::size_t>(offset - starts[lineIndex]);
            line = line.substr(at > kWindow ? at - kWindow : 0, 2 * kWindow);
        }
        present.clear();
        if (m_literalSet->Match(re2::StringPiece(line.data(), line.size()), &present))
            for (int li : present)
                found.push_back({lineIndex, static_cast<std::uint32_t>(li), offset});
        // Resume at the next line: the set already named every literal on this one.
        std::uint64_t next = lineIndex + 1 < starts.size() ? starts[lineIndex + 1] : text.size();
        input = re2::StringPiece(text.data() + next, text.size() - next);
    }
    return found;
}

std::vector<Scanner::LiteralAt> Scanner::findLiteralsHyperscan(const Source& source, std::uint64_t begin,
                                                               std::uint64_t end) const
{
    std::vector<LiteralAt> found;
#ifdef RANKLINE_HAVE_HYPERSCAN
    // Room for about one literal in 256 bytes (logs of many ranks' start-up have one in 400): a
    // small file's forty took six doublings.
    found.reserve(std::min<std::uint64_t>((end - begin) / 256 + 16, std::uint64_t{1} << 16));
    struct Context {
        const Scanner* self;
        const Source* source;
        std::vector<LiteralAt>* found;
        std::uint64_t base = 0; // where the piece being scanned starts
        // The line of the previous match and its byte range: matches arrive roughly in order, so
        // most need no search.
        std::uint32_t line = 0;
        std::uint64_t begin = 1;
        std::uint64_t end = 0;
    };
    Context ctx{this, &source, &found};
    auto onMatch = [](unsigned id, unsigned long long, unsigned long long to, unsigned, void* user) -> int {
        auto* c = static_cast<Context*>(user);
        const auto& starts = c->source->lineStarts;
        // Literal matches have a fixed length, so the start follows from the end.
        const std::uint64_t at = c->base + to - c->self->m_literals[id].size();
        if (c->self->m_literalAfterDigit[id]) {
            const char before = at > 0 ? c->source->text()[at - 1] : ' ';
            if (before < '0' || before > '9')
                return 0; // cannot match here: the pattern puts a digit right before this text
        }
        if (at < c->begin || at >= c->end) {
            // Usually a few lines further on: step forward from the last line, search otherwise.
            std::size_t line = c->line;
            const std::size_t count = starts.size();
            int steps = 0;
            if (at >= c->end)
                while (steps < 16 && line + 1 < count && starts[line + 1] <= at) {
                    ++line;
                    ++steps;
                }
            if (at < c->begin || steps == 16)
                line = starts.lineOf(at);
            c->line = static_cast<std::uint32_t>(line);
            c->begin = starts[c->line];
            c->end = c->line + 1 < starts.size() ? starts[c->line + 1] : c->source->text().size();
        }
        c->found->push_back({c->line, id, at});
        return 0;
    };
    const std::string_view text = source.text().substr(0, end);
    // Hyperscan takes 32-bit lengths: a huge source is scanned in pieces that overlap by the
    // longest literal, so nothing on a boundary is lost (the caller drops the duplicates).
    std::size_t longest = 0;
    for (const auto& l : m_literals)
        longest = std::max(longest, l.size());
    constexpr std::size_t kPiece = std::size_t{1} << 30;
    hs_scratch_t* scratch = m_hs->take();
    for (std::size_t pos = begin; pos < text.size();) {
        const std::size_t n = std::min(kPiece, text.size() - pos);
        ctx.base = pos;
        hs_scan(m_hs->db, text.data() + pos, static_cast<unsigned>(n), 0, scratch, onMatch, &ctx);
        if (pos + n >= text.size())
            break;
        pos += n - longest;
    }
    m_hs->give(scratch);
#else
    (void)source;
    (void)begin;
    (void)end;
#endif
    return found;
}

void Scanner::scan(const Source& source, const std::function<bool(int, std::uint32_t)>& want,
                   const std::function<void(ScanHit&&)>& take) const
{
    scan(source, 0, static_cast<std::uint32_t>(source.lineCount()), want, take);
}

void Scanner::scan(const Source& source, std::uint32_t first, std::uint32_t last,
                   const std::function<bool(int, std::uint32_t)>& want,
                   const std::function<void(ScanHit&&)>& take) const
{
    const auto& lines = source.lineStarts;
    last = std::min(last, static_cast<std::uint32_t>(lines.size()));
    // After releaseMatchers the RE2 prefilter would be null, or built again from nothing.
    if (first >= last || m_released)
        return;
    const std::uint64_t end = last < lines.size() ? lines[last] : source.text().size();
    const std::vector<LiteralAt> found = findLiterals(source, lines[first], end);
    const auto& starts = source.lineStarts;
    // Kept by the thread from one source to the next: ten thousand small files each grew their own.
    thread_local std::vector<int> candidates;
    // This line's shared-regex results: the first `twinCount` entries. The entries (and their
    // captures' room) are reused from line to line and source to source; Init lines, which every
    // rank prints by the dozen, match two patterns of one regex each.
    struct Twin {
        int rep = -1;
        bool matched = false;
        ScanHit hit;
    };
    thread_local std::vector<Twin> twins;
    std::size_t twinCount = 0;
    ScanHit hit;
    for (std::size_t i = 0; i < found.size();) {
        const std::uint32_t lineIndex = found[i].line;
        std::uint64_t offset = found[i].offset; // the line's leftmost literal, as the RE2 pass finds
        candidates.clear();
        for (; i < found.size() && found[i].line == lineIndex; ++i) {
            offset = std::min(offset, found[i].offset);
            for (int p : m_patternsByLiteral[found[i].literal])
                candidates.push_back(p);
        }
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        if (want)
            candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                            [&](int p) { return !want(p, lineIndex); }),
                             candidates.end());
        if (candidates.empty())
            continue;
        std::string_view line = source.line(lineIndex);
        // A huge line is matched around its first candidate only (see findLiteralsRe2).
        constexpr std::size_t kWindow = 64 * 1024;
        if (line.size() > 2 * kWindow) {
            const auto at = static_cast<std::size_t>(offset - starts[lineIndex]);
            line = line.substr(at > kWindow ? at - kWindow : 0, 2 * kWindow);
        }
        // Each candidate runs its own regex. A set of every pattern, read once per line with
        // several candidates, cost more: its automaton over hundreds of patterns is rebuilt state
        // by state on most lines (29,000 instructions a line against 1,600 a regex, measured on
        // a rank's Bootstrap and NET/Socket lines, which are candidates for five or six), and
        // the real logs' busiest lines are candidates for twenty at most.
        twinCount = 0;
        for (int p : candidates) {
            const auto pi = static_cast<std::size_t>(p);
            if (!m_hasTwin[pi]) {
                if (matchPattern(p, line, lineIndex, hit))
                    take(std::move(hit));
                continue;
            }
            const int rep = m_sameRegex[pi];
            const auto used = twins.begin() + static_cast<std::ptrdiff_t>(twinCount);
            auto known = std::find_if(twins.begin(), used, [rep](const Twin& t) { return t.rep == rep; });
            if (known == used) {
                if (twinCount == twins.size())
                    twins.emplace_back();
                known = twins.begin() + static_cast<std::ptrdiff_t>(twinCount++);
                known->rep = rep;
                known->matched = matchPattern(p, line, lineIndex, known->hit);
            }
            if (known->matched) {
                // Into the room the last hit left, unless whoever took it kept its captures.
                hit.line = known->hit.line;
                hit.captures.assign(known->hit.captures);
                hit.pattern = p;
                take(std::move(hit));
            }
        }
    }
}

std::vector<ScanHit> Scanner::scan(const Source& source) const
{
    std::vector<ScanHit> hits;
    scan(source, {}, [&hits](ScanHit&& h) { hits.push_back(std::move(h)); });
    return hits;
}

} // namespace rl
