#pragma once
// PyTorch's Flight Recorder (TORCH_NCCL_TRACE_BUFFER_SIZE > 0, TORCH_NCCL_DUMP_ON_TIMEOUT=1): when
// the NCCL watchdog times out, each rank pickles the collectives it last ran to
// TORCH_NCCL_DEBUG_INFO_TEMP_FILE + its rank (/tmp/nccl_trace_rank_N by default). Read side by
// side, the dumps say what the logs cannot: which rank never reached the collective the others
// are waiting in. Field names as c10d's FlightRecorder writes them (dump format 2.x; pg_status
// from 2.3 on, older dumps are read from their entries alone).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/expected.h"

namespace rl
{

// Where the program called a collective: the innermost frame of its stack (the entry's `frames`,
// innermost first) outside PyTorch itself.
struct FlightCallSite {
    std::string file; // as recorded ("/workspace/train.py")
    std::int64_t line = 0;
    std::string function;
    bool empty() const { return file.empty(); }
    std::string text() const;  // "/workspace/train.py:88 in train_step"
    std::string brief() const; // "train.py:88 in train_step", for sentences
    bool operator==(const FlightCallSite&) const = default;
};

// One process group as one rank's dump saw it. Sequence numbers are collective_seq_id values:
// point-to-point operations (is_p2p) have their own count and are left out.
struct FlightGroupView {
    std::string name;       // the group's name (pg_config's key; the entries' process_group[0])
    std::string desc;       // "default_pg", "undefined", or what the program named it
    std::vector<int> ranks; // its members' global ranks (pg_config), ascending
    std::int64_t lastEnqueued = -1;
    std::int64_t lastStarted = -1;
    std::int64_t lastCompleted = -1;
    // The last collectives this rank enqueued in the group (up to kKeptOps): sequence number and
    // profiling name ("nccl:all_reduce"), ascending.
    std::vector<std::pair<std::int64_t, std::string>> ops;
    // The call sites of those of `ops` whose entry has a stack (TORCH_INCLUDE_STACK_TRACE, on by
    // default), ascending.
    std::vector<std::pair<std::int64_t, FlightCallSite>> sites;
    static constexpr std::size_t kKeptOps = 16;
    // The first send or receive (is_p2p) recorded and not completed: its profiling name
    // ("nccl:recv 3<-2") and state; empty where none is pending.
    std::string pendingP2p;
    std::string pendingP2pState;
    std::string opAt(std::int64_t seq) const;
    FlightCallSite siteAt(std::int64_t seq) const; // empty where unknown
};

struct FlightDump {
    std::string file;           // display path
    std::optional<int> rank;    // from the file name (the dump does not say)
    std::string version;        // of the dump format, "2.4"
    std::string commLibVersion; // NCCL's, where the dump says
    std::size_t entries = 0;    // collectives and point-to-point operations recorded
    // The file as read, for the report's inventory: its size and SHA-256 (hashed when read: the
    // bytes are not kept, and an archive member cannot be read again).
    std::uint64_t bytes = 0;
    std::string sha256;
    std::vector<FlightGroupView> groups;
};

// `bytes` as the pickle (or JSON text) the recorder wrote; `display` names the file in errors and
// gives the rank (its last number).
Expected<FlightDump> readFlightDump(std::string_view bytes, const std::string& display);

// The rank a dump's file name gives: the last run of digits of its name, "nccl_trace_rank_12" -> 12.
std::optional<int> flightDumpRank(std::string_view display);

// What the dumps of one process group say together.
struct FlightGroupVerdict {
    enum class Kind {
        Behind,       // some ranks never enqueued the collective the others wait in
        Mismatch,     // at one sequence number the ranks enqueued different operations
        Stalled,      // every rank with a dump enqueued it, none completed it
        PointToPoint, // no collective pending, but sends or receives are (`waiting`, `mismatchOps`)
    };
    Kind kind = Kind::Stalled;
    std::string name, desc;
    std::vector<int> ranks;       // members
    std::vector<int> withoutDump; // members whose dump is not in the bundle
    std::int64_t awaited = -1;    // the first collective not every rank completed
    std::string awaitedOp;        // its profiling name, as a rank that enqueued it recorded it
    // Ranks that never enqueued it, each with the last collective it did enqueue.
    std::vector<std::pair<int, std::int64_t>> behindLast;
    std::vector<int> waiting; // ranks that enqueued it and did not complete it
    // rank -> its operation at `awaited` (Mismatch), or its pending send or receive (PointToPoint);
    // empty for the other kinds
    std::vector<std::pair<int, std::string>> ops;
    std::vector<int> behind() const; // the ranks of behindLast
    // Per rank with a dump and a stack for it: where it called the collective it waits in, or, for
    // a rank behind, the last one it enqueued (with that collective's sequence number).
    struct Site {
        int rank = -1;
        std::int64_t seq = -1;
        std::string op;
        FlightCallSite site;
    };
    std::vector<Site> sites;
};

struct FlightRecorder {
    std::vector<FlightDump> dumps;            // by file
    std::vector<FlightGroupVerdict> verdicts; // groups where something is pending, the most telling first
    std::size_t groupsComplete = 0;           // groups read from two or more dumps with nothing pending
    // Dumps of a rank another dump (first by file name) already speaks for, left out of the
    // verdicts. Two runs' dumps side by side, or a copy.
    struct NotCompared {
        std::string file;
        int rank = -1;
        std::string compared; // the file of the dump compared for that rank
    };
    std::vector<NotCompared> notCompared;
    bool empty() const { return dumps.empty(); }
};

// The verdicts over `dumps` (moved in).
FlightRecorder summarizeFlight(std::vector<FlightDump> dumps);

const char* flightVerdictKindName(FlightGroupVerdict::Kind k);

// What a bundle of dumps alone lacks, said by the report, the window and the hypotheses alike.
inline constexpr const char* kFlightLogsWanted =
    "the ranks' logs (their stdout and stderr, or the launcher's combined output)";

// One sentence on the most telling verdict ("" when there is none).
std::string flightSentence(const FlightRecorder& f);

} // namespace rl
