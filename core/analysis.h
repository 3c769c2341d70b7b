#pragma once
// The immutable result of one run of the pipeline
//   bundle -> sources -> line index -> events -> timeline -> findings
// Both front ends read it; nothing in it changes after analyze() returns.

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bundle/bundle.h"
#include "encyclopedia/encyclopedia.h"
#include "parse/line_parser.h"
#include "probe/nccl_probe.h"
#include "util/strong_id.h"
#include "util/version.h"

namespace rl
{

constexpr std::int64_t kTimeUnknownLo = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kTimeUnknownHi = std::numeric_limits<std::int64_t>::max();

// Where a line's time came from.
enum class TimeSource : std::uint8_t { Unknown, Parsed, Inferred };

// A time interval in microseconds: the line happened somewhere in [lo, hi).
struct TimeInterval {
    std::int64_t lo = kTimeUnknownLo;
    std::int64_t hi = kTimeUnknownHi;
    bool knownLo() const { return lo != kTimeUnknownLo; }
    bool knownHi() const { return hi != kTimeUnknownHi; }
    bool known() const { return knownLo() || knownHi(); }
    // A representative instant for drawing and sorting: the start when known, else the end.
    std::int64_t anchor() const { return knownLo() ? lo : hi; }
    // The middle of a bounded interval (the fairest single guess for an unstamped line), else the
    // known end; unknown sorts first.
    std::int64_t mid() const { return knownLo() && knownHi() ? lo + (hi - lo) / 2 : knownLo() ? lo : hi; }
};

// Per-line facts, parallel to Source::lineStarts.
struct LineInfo {
    TimeInterval time;
    ProcessId process;
    std::int32_t tid = -1;
    Level level = Level::None;
    TimeSource timeSource = TimeSource::Unknown;
};

// One process of the job: (host, pid) when NCCL's prefix names it, otherwise what the file or a
// launcher prefix tells.
struct Process {
    ProcessId id;
    std::string host;
    std::int64_t pid = -1;
    std::optional<int> rank;
    int nranks = 0;
    std::string identitySource; // nccl-init, launcher-prefix, pytorch, file-name, or empty
    std::vector<SourceId> sources;
    std::string address; // its own IP from "Bootstrap : Using" / "NET/Socket : Using"
    std::string interface;
    std::optional<Version> ncclVersion;
    std::optional<LineRef> ncclVersionLine;

    std::string label() const; // "rank 5 (gpu-b:39965)" and the like
};

enum class EventKind : std::uint8_t { Symptom, Warn, Error, Traceback, Exception };

struct Capture {
    std::string name;
    std::string value;
};

// A line worth a mark on the timeline: a fingerprint hit, a WARN/ERROR, a traceback.
struct Event {
    LineRef where;
    ProcessId process;
    std::int32_t tid = -1;
    EventKind kind = EventKind::Warn;
    Level level = Level::None;
    int entry = -1;   // index into Encyclopedia::entries for fingerprint hits
    int symptom = -1; // index into Entry::symptoms
    std::vector<Capture> captures;
    TimeInterval time;

    std::string capture(const std::string& name) const;
};

struct Evidence {
    LineRef where;
    ProcessId process;
    std::string label;
    std::string note;
};

enum class CheckStatus { Confirmed, Contradicted, NotEvidenced };
const char* checkStatusName(CheckStatus s);

struct ChecklistResult {
    std::string id;
    std::string text;
    CheckStatus status = CheckStatus::NotEvidenced;
    std::string detail; // what decided it, or what would show it
    std::optional<LineRef> line;
};

struct SymptomResult {
    std::string id;
    std::string signal;
    std::string why;
    bool observed = false;
    std::optional<LineRef> line;
};

enum class Role { Initiating, Collateral, Context };
const char* roleName(Role r);

struct Finding {
    int entry = -1;
    Role role = Role::Context;
    double confidence = 0;
    ProcessId process;                // the process the finding is about (the earliest reporter)
    std::vector<ProcessId> processes; // every process that showed it
    LineRef anchor;                   // the line that makes it a finding
    TimeInterval time;
    std::vector<Evidence> evidence;
    std::vector<ChecklistResult> checklist;
    std::vector<SymptomResult> symptoms;
    std::string summary;        // one sentence for people
    std::string connectVerdict; // connect entries: refused / timed-out / undecided
    // Connect entries: the last line the failing process logged before the connect began; the
    // unlogged first attempt happened between it and the abort.
    std::optional<LineRef> connectPhaseStart;
    std::optional<ProcessId> pointsAt; // collateral: the process its reports name
    std::string pointsAtNote;
};

struct LogVersion {
    Version version;
    std::vector<ProcessId> processes;
    LineRef firstLine;
};

// A version range inferred from something other than a version line (WARN line numbers).
struct VersionHint {
    VersionRange range;
    std::string basis;
    LineRef where;
};

struct NcclVersions {
    std::vector<LogVersion> logs;
    std::vector<VersionHint> hints;
    std::optional<NcclProbeResult> local; // absent when probing was switched off
    std::optional<bool> fixApplies;
    std::string verdict; // one sentence for people
};

struct Analysis {
    std::vector<Source> sources;
    std::vector<Skipped> skipped;
    std::vector<std::vector<LineInfo>> lines; // per source
    std::vector<Process> processes;
    std::vector<Event> events;             // sorted by time (anchor), then by position
    std::vector<LineRef> merged;           // every line, in merged chronological order
    std::vector<Finding> findings;         // best first
    std::optional<std::size_t> initiating; // index into findings
    NcclVersions nccl;
    std::shared_ptr<const Encyclopedia> encyclopedia;
    TimeInterval span; // earliest known lo .. latest known hi
    std::uint64_t totalBytes = 0;
    std::uint64_t totalLines = 0;

    const Source& source(SourceId id) const { return sources[id.value]; }
    const LineInfo& info(LineRef r) const { return lines[r.source.value][r.line]; }
    std::string_view text(LineRef r) const { return sources[r.source.value].line(r.line); }
    const Process& process(ProcessId id) const { return processes[id.value]; }
    const Entry& entry(int index) const { return encyclopedia->entries[static_cast<std::size_t>(index)]; }
    const Finding* initiatingFinding() const { return initiating ? &findings[*initiating] : nullptr; }
};

struct AnalyzeOptions {
    bool probeLocalNccl = true;
    std::string ncclLibrary = "libnccl.so.2";
    BundleLimits limits;
    unsigned threads = 0; // 0: one per core
};

// Progress: stage name, items done, items total. Return false from `cancelled` to go on.
struct ProgressSink {
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)> report;
    std::function<bool()> cancelled;
    bool isCancelled() const { return cancelled && cancelled(); }
};

// Runs the whole pipeline over an already-read bundle. Returns null only when cancelled.
std::shared_ptr<const Analysis> analyze(Bundle bundle, std::shared_ptr<const Encyclopedia> encyclopedia,
                                        const AnalyzeOptions& options = {},
                                        const ProgressSink& progress = {});

// Convenience: read the paths, then analyze.
std::shared_ptr<const Analysis> analyzePaths(const std::vector<std::string>& paths,
                                             std::shared_ptr<const Encyclopedia> encyclopedia,
                                             const AnalyzeOptions& options = {},
                                             const ProgressSink& progress = {});

// Where Rankline's data files are: $RANKLINE_RESOURCES, <exe>/../share/rankline, or the source tree.
std::string resourcesDir();

} // namespace rl
