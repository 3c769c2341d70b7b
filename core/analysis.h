#pragma once
// The immutable result of one run of the pipeline
//   bundle -> sources -> line index -> events -> timeline -> findings
// Both front ends read it; nothing in it changes after analyze() returns.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "bundle/bundle.h"
#include "encyclopedia/encyclopedia.h"
#include "engine/captures.h"
#include "flight/flight_recorder.h"
#include "identity/environment.h"
#include "parse/line_parser.h"
#include "probe/nccl_probe.h"
#include "timeline/clock.h"
#include "util/strong_id.h"
#include "util/vectors.h"
#include "util/version.h"

namespace rl
{

class Scanner;

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

// Per-line facts, computed on demand from the compact per-source storage below.
struct LineInfo {
    TimeInterval time;
    ProcessId process;
    Level level = Level::None;
    TimeSource timeSource = TimeSource::Unknown;
};

// How a line's time is shown to people, in the window's log and the reports alike. A stamp as far
// as it was printed (a job console's minute is "12:54", not "12:54:00.000"); a line between stamps
// no finer than both of them ("~06:22:11"); else to the microsecond (shown to the millisecond).
std::int64_t shownResolution(const LineInfo& li);
// The instant shown: a stamp's start; for an unstamped line the earliest it can be, or, before a
// file's first stamp, the last instant that stamp covers (the line was written no later).
std::int64_t shownInstant(const LineInfo& li);

// A parsed timestamp on one line of a source.
struct LineStamp {
    std::uint32_t line = 0;
    std::int64_t us = 0;
    std::int64_t resolutionUs = 1;
};

// A source's stamps as (line, packed time), appended in line order, read by index. Blocks of 128:
// a block whose lines lie within 65,535 of its first stamp's and whose packed times within 2^31
// of its first's (about two minutes at microsecond precision) keeps six bytes a stamp; any other
// block, twelve. Dense logs, where stamps are many, are the narrow case.
class StampStore
{
public:
    std::size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    void push_back(std::uint32_t line, std::int64_t packed);
    std::uint32_t line(std::size_t i) const
    {
        const Block& b = m_blocks[i / kBlock];
        const std::size_t at = b.slot * kBlock + i % kBlock;
        return b.wide ? m_wideLine[at] : b.line + m_line[at];
    }
    std::int64_t packed(std::size_t i) const
    {
        const Block& b = m_blocks[i / kBlock];
        const std::size_t at = b.slot * kBlock + i % kBlock;
        return b.wide ? m_widePacked[at] : b.packed + m_packed[at];
    }
    // The first stamp whose line is not before `line` (size() when none).
    std::size_t lowerBound(std::uint32_t line) const;
    void reserve(std::size_t n);
    void shrink();
    std::size_t bytesUsed() const;

private:
    static constexpr std::size_t kBlock = 128;
    struct Block {
        std::uint32_t line;  // the block's first stamp
        std::int64_t packed; // the block's first stamp
        std::size_t slot;    // the block's place (in blocks) in the narrow or the wide arrays
        bool wide;
    };
    std::vector<Block> m_blocks;
    std::vector<std::uint16_t> m_line;  // narrow blocks: line - block.line
    std::vector<std::int32_t> m_packed; // narrow blocks: packed - block.packed
    std::vector<std::uint32_t> m_wideLine;
    std::vector<std::int64_t> m_widePacked;
    std::size_t m_count = 0;
};

// Line facts for one source, kept small because a bundle can hold millions of lines: a byte a
// line for its level, its process in the narrowest form that holds it (none when every line has
// the same process, as in a file one rank wrote; a byte while the scan numbers a file's few
// processes; else four bytes), and about six bytes per stamped line (StampStore). An unstamped
// line's interval is computed from its stamped neighbours when asked.
class SourceLines
{
public:
    static constexpr std::uint32_t kProcessMask = 0x00FFFFFF;

    std::size_t size() const { return m_level.size(); }
    void resize(std::size_t n)
    {
        m_level.assign(n, 0);
        m_narrow.clear();
        m_wide.clear();
        m_same = kProcessMask;
    }
    // Moves every line to a wider form when `p` does not fit the present one: not for several
    // threads at once (the pieces of a large source each have their own, see append()).
    void set(std::uint32_t line, ProcessId p, Level level)
    {
        m_level[line] = static_cast<std::uint8_t>(level);
        const std::uint32_t v = p.value & kProcessMask;
        if (!m_wide.empty())
            m_wide[line] = v;
        else if (!m_narrow.empty() && fitsByte(v))
            m_narrow[line] = toByte(v);
        else if (m_narrow.empty() && v == m_same)
            return;
        else
            widen(line, v);
    }
    // Gives every line the process pidOf(line) returns, which may read the processes as they were
    // (it is called twice a line), straight into the narrowest form: giving a file's lines to one
    // process of thousands never holds four bytes a line, not even for a moment, as set() would.
    template <class PidOf> void assignProcesses(const PidOf& pidOf)
    {
        const auto n = static_cast<std::uint32_t>(size());
        if (n == 0)
            return;
        const std::uint32_t first = pidOf(0).value & kProcessMask;
        bool same = true, allNarrow = fitsByte(first);
        for (std::uint32_t i = 1; i < n; ++i) {
            const std::uint32_t v = pidOf(i).value & kProcessMask;
            same = same && v == first;
            allNarrow = allNarrow && fitsByte(v);
        }
        std::vector<std::uint8_t> nextNarrow;
        std::vector<std::uint32_t> nextWide;
        if (same) {
            // nothing per line
        } else if (allNarrow) {
            nextNarrow.resize(n);
            for (std::uint32_t i = 0; i < n; ++i)
                nextNarrow[i] = toByte(pidOf(i).value & kProcessMask);
        } else {
            nextWide.resize(n);
            for (std::uint32_t i = 0; i < n; ++i)
                nextWide[i] = pidOf(i).value & kProcessMask;
        }
        m_same = first;
        m_narrow = std::move(nextNarrow);
        m_wide = std::move(nextWide);
    }
    // Every line's process is `p`: nothing per line.
    void assignAll(ProcessId p)
    {
        std::vector<std::uint8_t>().swap(m_narrow);
        std::vector<std::uint32_t>().swap(m_wide);
        m_same = p.value & kProcessMask;
    }
    // Whether the lines hold one process once for the whole source (process(0)), as after
    // assignAll(), or shrink() where every line has the same: false does not mean they differ.
    bool oneProcess() const { return m_narrow.empty() && m_wide.empty(); }
    // Every line's process p becomes remap[p]: once for the whole source where it holds one.
    void renumberProcesses(const std::vector<ProcessId>& remap)
    {
        if (!oneProcess())
            assignProcesses([&](std::uint32_t i) { return remap[process(i).value]; });
        else if (size() > 0)
            assignAll(remap[m_same]);
    }
    ProcessId process(std::uint32_t line) const
    {
        if (!m_wide.empty())
            return ProcessId(m_wide[line]);
        if (!m_narrow.empty())
            return ProcessId(fromByte(m_narrow[line]));
        return ProcessId(m_same);
    }
    Level level(std::uint32_t line) const { return static_cast<Level>(m_level[line]); }
    // Stamps must be added in line order. A resolution that is not a power of ten is widened to
    // the next one, but for a minute (parsed stamps have powers of ten, or a minute).
    void addStamp(const LineStamp& s);
    // The stamps of `later`, whose lines all follow this one's stamps; its per-line facts are not
    // read.
    void appendStamps(SourceLines&& later);
    // The lines of `piece` (a piece of a large file scanned on its own, numbered from 0) after this
    // one's, their processes renumbered by `remap` (the piece's own numbers: its index; none stays
    // none), and the stamps of `stamps`, numbered as `piece` is, after this one's.
    void append(const SourceLines& piece, const std::vector<std::uint32_t>& remap, const SourceLines& stamps);
    void reserve(std::size_t lines) { m_level.reserve(lines); }
    void reserveStamps(std::size_t n);
    // Each stamp's time through `move` (microseconds in, microseconds out), its line and resolution
    // kept.
    void moveStamps(const std::function<std::int64_t(std::int64_t)>& move);
    std::size_t stampCount() const { return m_stamps.size(); }
    std::uint32_t stampLine(std::size_t i) const { return m_stamps.line(i); }
    std::int64_t stampUs(std::size_t i) const { return m_stamps.packed(i) >> kCodeBits; }
    LineStamp stamp(std::size_t i) const;
    TimeInterval time(std::uint32_t line, TimeSource* source = nullptr) const;
    // One instant per line for ordering lines of several sources, which never puts two lines of
    // this source out of their written order (line order breaks ties): a stamped line's middle,
    // an unstamped line's interval's middle between two stamps, and before the first stamp (after
    // the last) the middle of that stamp. Unknown (no stamp at all) sorts last.
    std::int64_t orderUs(std::uint32_t line) const;
    LineInfo info(std::uint32_t line) const;
    // The lines are a listing of several files' lines, each file's a block (grep -r's output): a
    // line's time is bounded by its own process's stamps only, not by another file's beside it.
    void setStampsByProcess() { m_byProcess = true; }
    bool stampsByProcess() const { return m_byProcess; }
    // Gives back growth slack (see shrinkSlack), and puts the per-line processes in the narrowest
    // form that holds them.
    void shrink();
    std::size_t bytesUsed() const
    {
        return m_level.capacity() + m_narrow.capacity() + m_wide.capacity() * 4 + m_stamps.bytesUsed();
    }

private:
    // Microseconds shifted left, the resolution's power of ten in the low bits (kMinuteCode: a
    // minute): 2^59 us is eighteen thousand years, so nothing real is lost.
    static constexpr int kCodeBits = 4;
    static constexpr std::int64_t kMinuteCode = 15;
    static constexpr std::int64_t kMinuteUs = 60'000'000;
    // In the byte form: no process (kProcessMask); processes 0..254 are themselves.
    static constexpr std::uint8_t kNarrowNone = 255;
    static bool fitsByte(std::uint32_t v) { return v < kNarrowNone || v == kProcessMask; }
    static std::uint8_t toByte(std::uint32_t v)
    {
        return v == kProcessMask ? kNarrowNone : static_cast<std::uint8_t>(v);
    }
    static std::uint32_t fromByte(std::uint8_t b) { return b == kNarrowNone ? kProcessMask : b; }
    // Stores `v` for `line` where the present form cannot hold it.
    void widen(std::uint32_t line, std::uint32_t v);
    std::vector<std::uint8_t> m_level;
    std::vector<std::uint8_t> m_narrow;  // empty unless the byte form is in use
    std::vector<std::uint32_t> m_wide;   // empty unless the four-byte form is in use
    std::uint32_t m_same = kProcessMask; // every line's process while both forms are empty
    // A listing of several files' lines (grep's output): each file's lines are a block of their
    // own, so only the same process's stamps bound an unstamped line (setStampsByProcess).
    bool m_byProcess = false;
    StampStore m_stamps;
    // The stamps that bound an unstamped `line` whose first stamp at or after it is `at`, in a
    // listing: the same process's nearest before and after, within kNearbyStamps (npos: none).
    std::pair<std::size_t, std::size_t> sameProcessStamps(std::uint32_t line, std::size_t at) const;
    static constexpr std::size_t kNearbyStamps = 64;
};

// Every line of the bundle in merged chronological order, four bytes a line.
class MergedOrder
{
public:
    std::size_t size() const { return m_order.size(); }
    bool empty() const { return m_order.empty(); }
    LineRef operator[](std::size_t row) const;
    // `offsets` (per source, may be empty) shift each source onto the reference clock.
    // `unstampedKeys`: where a source with no stamps sorts (Analysis::processLastStamp of its
    // process); kTimeUnknownLo, or none given, puts it first.
    void build(const std::vector<SourceLines>& lines, const std::vector<std::int64_t>& offsets = {},
               const std::vector<std::int64_t>& unstampedKeys = {});

    class Iterator
    {
    public:
        Iterator(const MergedOrder* m, std::size_t i) : m_m(m), m_i(i) {}
        LineRef operator*() const { return (*m_m)[m_i]; }
        Iterator& operator++()
        {
            ++m_i;
            return *this;
        }
        bool operator!=(const Iterator& o) const { return m_i != o.m_i; }

    private:
        const MergedOrder* m_m;
        std::size_t m_i;
    };
    Iterator begin() const { return {this, 0}; }
    Iterator end() const { return {this, m_order.size()}; }
    std::size_t bytesUsed() const { return m_order.capacity() * 4 + m_base.capacity() * 4; }

private:
    std::vector<std::uint32_t> m_order; // global line numbers
    std::vector<std::uint32_t> m_base;  // first global line number of each source
};

// One process of the job: (host, pid) when NCCL's prefix names it, otherwise what the file or a
// launcher prefix tells.
// A CUDA device as a bit of Process::devices: bit d for device d, the last bit for 63 and above
// (no node has that many: they still count as another device), none for -1 (none printed).
constexpr std::uint64_t deviceBit(int device)
{
    return device < 0 ? 0 : std::uint64_t{1} << (device < 63 ? device : 63);
}

struct Process {
    ProcessId id;
    std::string host;
    std::int64_t pid = -1;
    std::optional<int> rank;
    int nranks = 0;
    std::string identitySource;   // nccl-init, launcher-prefix, torchelastic-box, pytorch, file-name,
                                  // file-name-series (numberedSeries), kernel-log (a host's kernel log, no
                                  // process of the job), or empty
    std::optional<int> localRank; // NCCL's nRanks/nNodes line (2.20.3+), else the path (gpu2.log,
                                  // torchrun <local_rank>/) or torchelastic's failure box
    std::optional<int> attempt;   // torchrun restart attempt, from the path
    std::vector<std::string> identityConflicts; // weaker sources that disagreed, and what was kept
    std::vector<SourceId> sources;
    std::string address; // its own IP from "Bootstrap : Using" / "NET/Socket : Using"
    std::string interface;
    std::optional<Version> ncclVersion;
    std::optional<LineRef> ncclVersionLine;
    // Its GPU's PCI bus as NCCL's Init line prints it ("busId 1b000": 0000:1b:00.0), with the
    // communicator that gave its rank.
    std::optional<std::uint64_t> busId;
    // The CUDA devices its NCCL lines print in their "[dev]" (deviceBit). One process driving
    // several GPUs (nccl-tests' -g, a single-process multi-GPU job) is a rank per GPU: `rank` is
    // then its first Init line's, and `deviceRanks` says each GPU's, (device, rank) in device
    // order, from the Init lines of its largest communicator; empty for a process of one GPU.
    std::uint64_t devices = 0;
    std::vector<std::pair<int, int>> deviceRanks;

    bool severalDevices() const { return (devices & (devices - 1)) != 0; }
    std::vector<int> deviceList() const;
    std::optional<int> rankOnDevice(int device) const;
    // Its rank, or each GPU's ("0–3") where it drives several and their Init lines said them; ""
    // where none is known.
    std::string rankText() const;
    std::string label() const; // "rank 5 (gpu-b:39965)" and the like
    // As label(), for one line of it: a process of several GPUs is named by the GPU whose thread
    // printed the line ("rank 5 on GPU 5 (ubuntu:39964)"), where the line's NCCL prefix says it.
    std::string labelOnDevice(int device) const;
};

enum class EventKind : std::uint8_t { Symptom, Warn, Error, Traceback, Exception };

// A line worth a mark on the timeline: a fingerprint hit, a WARN/ERROR, a traceback.
struct Event {
    LineRef where;
    ProcessId process;
    std::int32_t tid = -1;
    EventKind kind = EventKind::Warn;
    Level level = Level::None;
    int entry = -1;   // index into Encyclopedia::entries for fingerprint hits
    int symptom = -1; // index into Entry::symptoms
    Captures captures;
    TimeInterval time;

    std::string capture(const std::string& name) const;
};

// Events in timeline order: by time (start), then by line; events of one line keep their order.
void sortEvents(std::vector<Event>& events);

struct Evidence {
    LineRef where;
    ProcessId process;
    std::string label;
    std::string note;
};

// A finding's evidence one line at a time, in the order the lines first appear: a line that is
// several kinds of evidence (the earliest connect failure and the symptom itself) is shown once,
// its labels joined with ", " and its notes with " ".
std::vector<Evidence> evidenceByLine(const std::vector<Evidence>& evidence);

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

struct Hypothesis {
    int entry = -1; // the entry it would be, if any
    std::string text;
    std::optional<LineRef> line;
    std::string decider; // the log, setting or check that would decide
    // One of the finding's own checklist items that the evidence did not confirm (the report's
    // checklist says those; its other explanations are the rest).
    bool fromChecklist = false;
};

// Why processes are suspected, said of one and of several at once (reports say the suspects with
// one reason in one line naming them all). Shared by every suspect with that reason: a job of
// thousands of ranks can have thousands of them.
struct SuspectReason {
    std::string one;
    std::string many;
};

struct Suspect {
    ProcessId process;
    std::shared_ptr<const SuspectReason> why;
    const std::string& reason() const { return why->one; }
};

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
    std::string summary; // one sentence for people
    // Made by a fallback symptom (Symptom::fallback): a return-code trail with no error text, the
    // only trace of the failure in the logs.
    bool inferredFromTrail = false;
    std::string connectVerdict; // connect entries: refused / timed-out / undecided
    // Connect entries: the last line the failing process logged before the connect began; the
    // unlogged first attempt happened between it and the abort.
    std::optional<LineRef> connectPhaseStart;
    std::optional<ProcessId> pointsAt; // collateral: the process its reports name
    std::string pointsAtNote;
    // Other explanations the logs cannot rule out, and what would decide between them.
    std::vector<Hypothesis> hypotheses;
    // Collective-progress findings (watchdog): the ranks that never reached the stuck collective.
    std::vector<Suspect> suspects;
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

// NCCL as PyTorch's Flight Recorder dumps name it (their comm_lib_version), one per version: what
// fixes the version when no log line names it (a hang's logs often hold only watchdog timeouts).
struct DumpVersion {
    Version version;
    std::string text;       // as the dumps wrote it ("2.21.5", or with a build suffix)
    std::vector<int> ranks; // of the dumps that name it (from their file names)
    std::vector<std::string> files;
};

struct NcclVersions {
    std::vector<LogVersion> logs;
    std::vector<DumpVersion> dumps; // from Analysis::flight, first by version
    std::vector<VersionHint> hints;
    std::optional<NcclProbeResult> local; // absent when probing was switched off
    std::optional<bool> fixApplies;
    std::string releaseVerdict; // for people: what the release(s) mean for the failure
    // releaseVerdict, then mismatchNote where ranks disagree and dumpNote where the dumps disagree
    // with the logs (JSON nccl.verdict).
    std::string verdict() const
    {
        std::string v = releaseVerdict;
        for (const std::string* note : {&mismatchNote, &dumpNote})
            if (!note->empty())
                v += " " + *note;
        return v;
    }
    // Ranks that disagree on the version (identity/environment_scan): two or more groups, largest
    // first; empty when every rank that shows a version agrees.
    std::vector<VersionGroup> mismatch;
    std::string mismatchNote; // one sentence for people, empty without a mismatch
    // The versions of Flight Recorder dumps that no log line shows, when the logs show one: one
    // sentence for people, or empty.
    std::string dumpNote;
};

// Wall time of one pipeline stage (`rankline diagnose --timings`).
struct StageTime {
    std::string stage;
    double seconds = 0;
    // Resident memory when the stage ended (Linux /proc/self/statm; 0 where unknown): anonymous
    // (heap) and file-backed (mapped log pages and libraries).
    std::uint64_t anonBytes = 0;
    std::uint64_t fileBytes = 0;
    // CPU time the whole process spent during the stage, on every core (0 where unknown): against
    // `seconds`, how much of the stage ran in parallel.
    double cpuSeconds = 0;
};

// CPU time this process has used so far, on every core (0 where unknown).
double processCpuSeconds();

// A worker's record in a torchelastic failure box: the lines that quote the worker (its
// traceback), the time the record gives and whether the box names it the root cause. The box
// prints the root cause last and its lines carry the agent's time, so the engine orders failures
// found in one box's records by these instead.
struct ElasticRecordLines {
    SourceId source;
    std::uint32_t from = 0, end = 0;    // [from, end): the record's traceback lines
    std::optional<std::int64_t> timeUs; // its "time :" field, whole seconds on the agent's clock
    bool rootCause = false;             // under "Root Cause (first observed failure):"
};

// How much of the job the bundle holds: the ranks of the largest communicator NCCL's Init lines
// name, and which of them no line of the bundle belongs to. A job's logs are often partial (only
// rank 0's was kept, one node's folder was copied): the failure may have started on a rank whose
// log is not here, which the initiating finding cannot say on its own.
struct Coverage {
    int worldRanks = 0;            // nranks of the largest communicator (0: no Init line read)
    std::optional<LineRef> source; // an Init line that says so
    // Where no Init line was read: nccl-tests' listing of its ranks, a line each ("#  Rank 15 ..."),
    // the last of which `source` is.
    bool fromTestsListing = false;
    std::vector<int> missing; // ranks 0 .. worldRanks-1 that no process of the bundle is, ascending
    int unranked = 0;         // processes here (a pid known) whose rank no line told: may be some of them
    int worldNodes = 0;       // nNodes of that communicator (NCCL 2.20.3+), 0 where no line said
    int hostsWithLogs = 0;    // hosts of the processes with a rank in it
    bool complete() const { return worldRanks == 0 || missing.empty(); }
    // Of ranks 0 .. worldRanks-1, those some process of the bundle is.
    int ranksWithLogs() const { return worldRanks - static_cast<int>(missing.size()); }
    // "8-15", "3, 9-11": the missing ranks as ranges, at most `maxRanges` of them and a count of the rest.
    std::string missingDisplay(std::size_t maxRanges = 8) const;
};

struct Analysis {
    std::vector<Source> sources;
    std::vector<Skipped> skipped;
    // Sources whose file grew while it was being read (a log still being written): diagnosed as
    // they were when opened, each also named in `skipped`; reading them again takes in the rest.
    std::vector<SourceId> grown;
    std::vector<SourceLines> lines; // per source
    std::vector<Process> processes;
    std::vector<Event> events;                      // sorted by time (anchor), then by position
    MergedOrder merged;                             // every line, in merged chronological order (empty
                                                    // when AnalyzeOptions::mergedOrder is off)
    std::vector<ElasticRecordLines> elasticRecords; // by source, then line
    // Files whose first line with text is a step of NCCL's return-code trail ("proxy.cc:698 -> 6"):
    // excerpts that start inside a back-trace, whose WARN (the failure it reports) came before them.
    std::vector<LineRef> openingTrails; // by source
    // The driver's kernel lines that name a GPU several ranks ran on (identical machines, and a
    // kernel log that names no host, nor the pid): the line stays the kernel log's, and these are
    // the ranks it may be about.
    struct GpuCandidates {
        LineRef where;
        std::uint64_t bus = 0; // as Process::busId
        std::vector<ProcessId> processes;
    };
    std::vector<GpuCandidates> gpuCandidates; // by source, then line
    std::vector<Finding> findings;            // best first
    std::optional<std::size_t> initiating;    // index into findings
    NcclVersions nccl;
    Environment environment;                 // versions, settings, interfaces per rank; flags
    ClockModel clock;                        // per-host offsets applied to every time below
    std::vector<std::int64_t> processOffset; // per process, from its host's clock
    // Initiating vs collateral pairs on different hosts whose aligned intervals overlap: the logs
    // cannot say which came first.
    std::vector<std::pair<LineRef, LineRef>> unordered;
    // Bundle-level explanations when no initiating failure is in the logs.
    std::vector<Hypothesis> hypotheses;
    Coverage coverage;
    // PyTorch Flight Recorder dumps read from the bundle, and what they say together.
    FlightRecorder flight;
    std::shared_ptr<const Encyclopedia> encyclopedia;
    TimeInterval span; // earliest known lo .. latest known hi
    // Per process: the middle of its last stamped line's interval on the aligned clock, or
    // kTimeUnknownLo where it has none. A file with no stamps at all (a Slurm task's .err beside
    // its stamped .out) is placed there: the merged order puts its lines after that line, and
    // timelines draw them there (axisTime), where a traceback that ends a process belongs.
    std::vector<std::int64_t> processLastStamp;
    std::uint64_t totalBytes = 0;
    std::uint64_t totalLines = 0;
    std::vector<StageTime> timings; // in pipeline order

    const Source& source(SourceId id) const { return sources[id.value]; }
    // The box record whose traceback holds `r`, if one does.
    const ElasticRecordLines* elasticRecordAt(LineRef r) const
    {
        auto it = std::upper_bound(elasticRecords.begin(), elasticRecords.end(), r,
                                   [](LineRef x, const ElasticRecordLines& e) {
                                       return std::tie(x.source, x.line) < std::tie(e.source, e.from);
                                   });
        if (it == elasticRecords.begin())
            return nullptr;
        --it;
        return it->source == r.source && r.line < it->end ? &*it : nullptr;
    }
    // Facts about a line, its time on the aligned (reference) clock.
    LineInfo info(LineRef r) const
    {
        LineInfo li = lines[r.source.value].info(r.line);
        if (li.process.value < processOffset.size()) {
            const std::int64_t off = processOffset[li.process.value];
            if (li.time.knownLo())
                li.time.lo += off;
            if (li.time.knownHi())
                li.time.hi += off;
        }
        return li;
    }
    // Where a timeline draws the line, in microseconds on the aligned clock: the middle of its
    // interval, the end it has, or (a file with no stamps) its process's last stamped line; the
    // run's start where nothing says more. `standIn` tells the stand-in from a time of its own.
    std::int64_t axisTime(LineRef r, bool* standIn = nullptr) const
    {
        const LineInfo li = info(r);
        const TimeInterval t = li.time;
        if (standIn)
            *standIn = false;
        if (t.knownLo() && t.knownHi())
            return t.lo + (t.hi - t.lo) / 2;
        if (t.knownLo())
            return t.lo;
        if (t.knownHi())
            return t.hi;
        if (li.process.value < processLastStamp.size() &&
            processLastStamp[li.process.value] != kTimeUnknownLo) {
            if (standIn)
                *standIn = true;
            return processLastStamp[li.process.value];
        }
        return span.lo;
    }
    // SourceLines::orderUs on the aligned clock.
    std::int64_t orderUs(LineRef r) const
    {
        const SourceLines& sl = lines[r.source.value];
        const std::int64_t t = sl.orderUs(r.line);
        const ProcessId p = sl.process(r.line);
        return t == kTimeUnknownHi || p.value >= processOffset.size() ? t : t + processOffset[p.value];
    }
    // The line's time in its own host's clock, as logged.
    TimeInterval rawTime(LineRef r) const { return lines[r.source.value].time(r.line); }
    std::string_view text(LineRef r) const { return sources[r.source.value].line(r.line); }
    const Process& process(ProcessId id) const { return processes[id.value]; }
    // The CUDA device whose thread printed the line, from its NCCL prefix ("[5]"), where its
    // process drives several GPUs (Process::devices); -1 otherwise.
    int deviceAt(LineRef r) const;
    // Who printed the line: its process's label, by the line's GPU where the process drives several.
    std::string labelAt(LineRef r) const;
    // The line's rank: its GPU's where its process drives several and the Init lines said it, else
    // its process's.
    std::optional<int> rankAt(LineRef r) const;
    const Entry& entry(int index) const { return encyclopedia->entries[static_cast<std::size_t>(index)]; }
    const Finding* initiatingFinding() const { return initiating ? &findings[*initiating] : nullptr; }
    // Whether `hypotheses` say where to look: they name entries. The engine's only entry-less one
    // alone says that nothing in the logs was recognised.
    bool suggestsSomething() const { return !hypotheses.empty() && hypotheses.front().entry >= 0; }
};

struct AnalyzeOptions {
    bool probeLocalNccl = true;
    std::string ncclLibrary = "libnccl.so.2";
    BundleLimits limits;
    unsigned threads = 0;                      // 0: one per core
    bool allAttempts = false;                  // torchrun trees: read every attempt, not only the latest
    std::vector<ClockOverride> clockOverrides; // offsets the user typed in
    std::vector<std::pair<LineRef, LineRef>> pinnedLines; // lines the user says were simultaneous
    // The merged order of every line is what a log view scrolls through; `diagnose` prints no
    // line list and skips it (a sizeable part of its run on millions of lines).
    bool mergedOrder = true;
    // A source of at least twice this many bytes is scanned in pieces of about this size on every
    // core (one huge combined stream would otherwise run on one core).
    std::uint64_t pieceBytes = std::uint64_t{8} << 20;
    // Called on the analysing thread as each stage ends, with the stage's name as --timings prints
    // it: for a front end that fits its allocator to the stage that comes next (app/main.cpp).
    std::function<void(std::string_view stage)> afterStage;
};

// Where a run is. Reported from worker threads: a receiver must be thread-safe.
struct Progress {
    std::string stage; // "reading", "diagnosing", "done"
    std::uint64_t filesDone = 0;
    std::uint64_t filesTotal = 0;
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0;
    std::uint64_t lines = 0;
};

struct ProgressSink {
    std::function<void(const Progress&)> report;
    std::function<bool()> cancelled; // true: stop as soon as possible
    // At most one "reading" report per this interval (the one after the last file always comes):
    // a front end redraws on each, and ten thousand files made ten thousand redraws in a second,
    // each behind the lock that orders the reports. 0: every file is reported.
    std::chrono::milliseconds interval{0};
    bool isCancelled() const { return cancelled && cancelled(); }
};

// Runs the whole pipeline over an already-read bundle. Returns null only when cancelled.
std::shared_ptr<const Analysis> analyze(Bundle bundle, std::shared_ptr<const Encyclopedia> encyclopedia,
                                        const AnalyzeOptions& options = {},
                                        const ProgressSink& progress = {});

// The same with the fingerprints' scanner built beforehand from `encyclopedia` (engine/scanner.h):
// the command line builds it beside the reading of the bundle, with the encyclopedia. Null builds
// one here. An analysis uses up its scanner (its matchers are freed after the scan).
std::shared_ptr<const Analysis> analyze(Bundle bundle, std::shared_ptr<const Encyclopedia> encyclopedia,
                                        std::unique_ptr<Scanner> scanner, const AnalyzeOptions& options = {},
                                        const ProgressSink& progress = {});

// Convenience: read the paths, then analyze.
std::shared_ptr<const Analysis> analyzePaths(const std::vector<std::string>& paths,
                                             std::shared_ptr<const Encyclopedia> encyclopedia,
                                             const AnalyzeOptions& options = {},
                                             const ProgressSink& progress = {});

// Where Rankline's data files are: $RANKLINE_RESOURCES, <exe>/../share/rankline, or the source tree.
std::string resourcesDir();
// The folder of the running program (/proc/self/exe, links resolved); empty where unknown.
std::string executableDir();

} // namespace rl
