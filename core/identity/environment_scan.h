#pragma once
// Fills Analysis::environment and the NCCL version disagreement (Analysis::nccl.mismatch) from
// the scanner's built-in hits and the events, once processes are known (see analysis.cpp).

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/scanner.h"
#include "identity/version_clues.h"
#include "parse/line_parser.h"
#include "util/intern_pool.h"
#include "util/strong_id.h"

namespace rl
{

struct Analysis;

// What a built-in line's text says beyond the scanner's captures. Read by the scan while it holds
// the line's text (readEnvironmentLine), applied to its rank by collectEnvironment once processes
// are known: reading it there would read every file a second time.
struct EnvironmentLine {
    struct Setting {
        std::string name, value;
        const char* how; // "set by environment", "set", "printed"
    };
    std::vector<Setting> settings;                           // NcclSetting
    std::vector<std::pair<std::string, std::string>> listed; // (interface, address) listed on the line
    std::vector<LineClue> clues;                             // NCCL versions the line's form implies
    std::optional<std::string> cuda;                         // "+cudaX.Y" / "CUDA X.Y" on a version line
    bool empty() const { return settings.empty() && listed.empty() && clues.empty() && !cuda; }
    bool operator==(const EnvironmentLine& o) const;
};

struct EnvironmentLineInternTraits {
    using View = const EnvironmentLine&;
    static const EnvironmentLine& view(const EnvironmentLine& l) { return l; }
    static std::size_t hash(const EnvironmentLine& l);
    static bool equal(const EnvironmentLine& l, const EnvironmentLine& kept) { return l == kept; }
    static EnvironmentLine make(EnvironmentLine&& l) { return std::move(l); }
};

// Each distinct environment line of a run, kept once: every rank of a job prints the same
// settings, the same version forms and its host's interfaces, so ten thousand ranks' lines are a
// few thousand distinct ones; kept per line they were most of what the scan held.
using EnvironmentLinePool = InternPool<EnvironmentLine, EnvironmentLineInternTraits>;

// A built-in line the environment reads. Tens of thousands on a large job, most of them read
// through their text alone: the few whose captures are read (environmentReadsCaptures) keep them
// in EnvironmentHits::captures, so the others carry no room for them.
struct EnvironmentHit {
    static constexpr std::uint32_t kNoCaptures = UINT32_MAX;
    LineRef where;
    const EnvironmentLine* text = nullptr; // in the run's pool; null when the text says nothing more
    std::uint32_t captures = kNoCaptures;  // index in EnvironmentHits::captures
    Builtin builtin = Builtin::None;
};

struct EnvironmentHits {
    std::vector<EnvironmentHit> hits; // in source order, as the scan produced them
    std::vector<Captures> captures;
    void add(LineRef where, Builtin builtin, const EnvironmentLine* text, Captures* withCaptures)
    {
        std::uint32_t at = EnvironmentHit::kNoCaptures;
        if (withCaptures) {
            at = static_cast<std::uint32_t>(captures.size());
            captures.push_back(std::move(*withCaptures));
        }
        hits.push_back({where, text, at, builtin});
    }
};

// The built-in patterns whose hits collectEnvironment reads.
bool isEnvironmentBuiltin(Builtin b);
// Those of them that tell something by their captures alone; the others only through the text the
// scan read (EnvironmentLine), so a hit of theirs without one need not be passed on.
bool environmentReadsCaptures(Builtin b);
// The NCCL_* settings a line states: "NAME set by environment to V", "NAME set to V", or NAME=V
// pairs as jobs print their environment. `byRegex`: by the regexes alone, which the hand-written
// reading of ASCII lines is compared with in tests.
std::vector<EnvironmentLine::Setting> settingsOfLine(std::string_view text, bool byRegex = false);
// The text of a line that matched `builtin`; nothing when it says nothing beyond the captures.
// A value, not an allocation: the scan interns it (EnvironmentLinePool) and lets it go.
// `byRegex` as for settingsOfLine.
std::optional<EnvironmentLine> readEnvironmentLine(Builtin builtin, std::string_view text,
                                                   bool byRegex = false);

// What an event's line says about the NCCL version (collectEnvironment's step 2).
struct EventLineText {
    std::vector<LineClue> clues;
    // "Mismatched NCCL version detected : rank R version V rank R' version V'"
    bool mismatch = false;
    std::string otherRank, otherCode, ownRank, ownCode;
    // A connect-abort WARN and its thread's next NCCL line, a misc/socket.cc trail (§2.3): read for
    // events at WARN level only.
    std::optional<LineClue> connectAbort;
    bool empty() const { return clues.empty() && !mismatch && !connectAbort; }
};
// How far after a connect-abort WARN its thread's next NCCL line is looked for.
constexpr std::uint32_t kConnectAbortTrailLines = 400;
// What the line alone says: its clues and the mismatch WARN (connectAbort needs the next lines).
EventLineText readEventLine(std::string_view text);
// The line's NCCL prefix when it is the connect-abort WARN ("socketStartConnect: Connect to" at
// misc/socket.cc).
std::optional<NcclPrefix> connectAbortWarn(std::string_view text);
// The clue of that WARN when `next`, its thread's next NCCL line, is a misc/socket.cc trail.
std::optional<LineClue> connectAbortAfter(const NcclPrefix& warn, const ParsedLine& next);
// Whether a version line is the one PyTorch's exception text repeats ("NCCL error ..., NCCL
// version X"), not NCCL's own banner.
bool versionLineInException(std::string_view text);

// Event lines the scan read while it held a source's text, so that collectEnvironment need not read
// the source again. A line of an event it did not read is read then.
struct ScannedEventLines {
    bool scanned = false;             // false: nothing below was read (a source scanned otherwise)
    std::vector<std::uint32_t> lines; // every line read, ascending
    // The lines that said something, ascending; connectAbort as read for a WARN-level event.
    std::vector<std::pair<std::uint32_t, std::unique_ptr<EventLineText>>> texts;
    // Of the NCCL version lines the scan kept (every one a process's version can come from), those
    // in PyTorch's exception text.
    std::vector<std::uint32_t> exceptionVersions;
};

// `scanned`: per source (may be empty). `workers`: threads for reading the lines' text that the
// scan did not read (source by source).
void collectEnvironment(Analysis& analysis, EnvironmentHits hits, std::vector<ScannedEventLines> scanned,
                        unsigned workers);

// Why an interface or address is suspicious: loopback, docker, veth, link-local (any of them).
std::vector<std::string> addressKinds(const std::string& interface, const std::string& address);
// The subnet an address is compared by: "10.0.0.0/24" for IPv4, the first four groups + "::/64"
// for IPv6; empty for loopback, link-local and anything unparsable.
std::string assumedSubnet(const std::string& address);
// "ranks 0–3, 5 on gpu-a, gpu-b" for people.
std::string describeProcesses(const Analysis& analysis, const std::vector<ProcessId>& processes);

} // namespace rl
