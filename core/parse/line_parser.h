#pragma once
// Pure functions over one physical log line: launcher decorations, timestamps, the NCCL prefix
// in every version form, and NCCLCHECK return-code trail lines. Nothing here allocates.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace rl
{

enum class Level : std::uint8_t { None, Trace, Info, Warn, Error, Fatal };
const char* levelName(Level level);

// Microseconds since 1970-01-01 in the clock of the host that wrote the line. Stamps without a
// zone are taken as written (the host's local wall clock); alignment happens in the timeline.
struct Timestamp {
    std::int64_t us = 0;
    std::int64_t resolutionUs = 1; // a stamp printed to the second covers [us, us + 1 s)
    bool yearGuessed = false;      // glog stamps carry no year
};

enum class Decoration : std::uint8_t {
    None,
    TorchrunRank,    // [rank3]:, [3]: (a prefix template of the global rank)
    TorchrunDefault, // [default3]:, [trainer3]: (role and local rank)
    Srun,            // 3:
    MpirunTag,       // [1,3]<stdout>:, horovodrun's [3]<stdout>:
    Ray,             // (RayWorker pid=409241, ip=10.0.0.3)
    HostPrefix,      // pdsh / DeepSpeed: "10.10.23.10: ", "worker-3: "
    Journald,        // journalctl -o short-iso: "<stamp> host ident[pid]: "
    ProcessTag,      // UCX's "[host:pid:thread_idx(:tid)] ", Open MPI's "[host:pid] "
    KubectlPod,      // kubectl logs --prefix: "[pod/<pod>/<container>] " (the pod's name is its host name)
    // MPICH's and Intel MPI's mpiexec -prepend-rank (-l): "[3] ". Read only at the start of a line;
    // the same form is a viewer's line number or a pid in pasted logs, so whether it names the
    // rank is decided per stretch of a file (analyze), not here.
    PrependRank,
    // grep's name of the file a line came from, where it searched several (`grep -r`, `-H`):
    // "logs/rank3.log:", with -n "logs/rank3.log:120:" (a context line "logs/rank3.log-", with -n
    // "logs/rank3.log-121-"). The name's rank is the file's (read from the name by the scan, as a
    // folder's file would be).
    GrepFile,
    // A logger's own "[rank/world]" before its bracketed time ("[0604/1024][2025-02-16 22:31:34,422]
    // ..."): the global rank. Read only where another bracket follows at once: "[12/345] " with a
    // space is ninja's or a progress counter's.
    RankOfWorld,
    // libfabric's own line, "libfabric:<pid>:<seconds>:...<warn> ": the pid of the process that
    // wrote it, whose NCCL lines in the same stream name its host.
    Libfabric,
};

struct NcclPrefix {
    std::string_view host;
    std::int64_t pid = -1; // -1 when a reporter redacted it
    std::int64_t tid = -1;
    int device = -1;
    std::string_view file; // WARN only: source file relative to NCCL's src/
    int fileLine = 0;
    std::string_view function; // 2.30.7+ WARN only
    Level level = Level::None;
    std::string_view message;
};

// `file:line -> code` (NCCLCHECK back-trace); first one after a WARN names the failing file.
struct TrailStep {
    std::string_view file;
    int fileLine = 0;
    int code = 0;
};

struct ParsedLine {
    std::string_view text; // the line without its end-of-line characters
    std::string_view body; // text after launcher decorations and a leading timestamp
    Decoration decoration = Decoration::None;
    int decorationRank = -1;
    std::string_view decorationHost; // pdsh/DeepSpeed host, Ray ip, journald host, UCX/Open MPI tag's host,
                                     // a logger's "[host:pid=N]", kubectl's pod
                                     // (also behind a launcher's rank prefix)
    std::int64_t decorationPid = -1; // Ray, journald, a UCX/Open MPI tag, libfabric's line
    std::string_view decorationFile; // GrepFile: the file name grep printed
    std::optional<Timestamp> stamp;
    Level level = Level::None; // NCCL level, glog letter, or Python logging level
    std::optional<NcclPrefix> nccl;
    std::optional<TrailStep> trail;
};

// Whether `s` is only an ellipsis, as a poster writes for lines left out: two or more dots, or
// "…", and nothing else but spaces and a CR.
bool onlyEllipsis(std::string_view s);

// Ray's log deduplication: lines of its workers that are the same once every word holding a digit is
// left out are printed once, and the later ones, from any worker and host, are held for a few
// seconds and printed as one line, the latest of them under its worker's tag, followed by
// "[repeated Nx across cluster]" (possibly coloured, and the first time by a note on how to turn
// deduplication off). The count N and where the suffix starts (the space before it), or nullopt.
struct RayRepeat {
    int count = 0;
    std::size_t at = 0;
};
std::optional<RayRepeat> rayRepeatIn(std::string_view line);

// The rank of the process that printed an NCCL "Channel" connection line, from its message:
// "Channel 00/0 : 3[3] -> 4[4] via P2P/IPC" and "... [send] via NET/IB/0" name the sender first, "...
// [receive] via NET/..." the peer first and this process second (net.cc, p2p.cc, shm.cc; the
// bracket is the device, or the bus id in old releases). A rank in the connection's communicator,
// which need not be the world's. -1 where the message is no such line.
int channelLineRank(std::string_view message);

// The rank of the process whose proxy thread printed NCCL's "[Proxy Service 11] Failed to execute
// operation Connect from rank 11, retcode 2" WARN (proxy.cc, 2.12.7 to 2.30.7): the owning
// communicator's rank (comm->rank up to 2.17, the top parent's tpRank from 2.18.1), on the GPU that
// communicator uses, which the line's "[dev]" names. A rank in that communicator, as a Channel
// line's is. -1 where the message is no such line.
int proxyServiceRank(std::string_view message);

// `defaultYear` is used for glog stamps, which have no year.
ParsedLine parseLine(std::string_view line, int defaultYear = 1970);

// The file name of tail's or head's header where it listed several files ("==> logs/rank2.log <=="),
// or of a script's banner before each file it printed ("=== logs/rank2.log ===": a log file's name
// between runs of one mark), or empty.
std::string_view listingHeader(std::string_view line);

// Timestamp at the start of `text`, with the number of characters it took (including one trailing
// space or bracket). Understands ISO 8601 / RFC 3339, Python logging ("2025-06-12 14:03:16,902"),
// NCCL 2.26+ "[2025-03-20 14:02:11] ", glog "I0612 14:03:17.123456" and "[E0612 14:03:17.1 ...]".
std::optional<Timestamp> parseTimestampAt(std::string_view text, int defaultYear,
                                          std::size_t* consumed = nullptr, Level* glogLevel = nullptr);

// torchelastic's ChildFailedError box gives each failed worker a record: a bare "[N]:" line, then
// "  time      : 2024-03-05_07:01:51", "  host      : <fqdn>", "  rank      : R (local_rank: L)",
// "  exitcode  : C (pid: P)", "  error_file: ...", "  traceback : ..." and the traceback's further
// lines, each indented two spaces more than the error file's own (torch/distributed/elastic/
// multiprocessing/errors). The agent prints the box, but each record speaks for one worker.
struct ElasticRecord {
    std::uint32_t lineCount = 0; // the header through the traceback's last line
    // The "traceback :" line, counted from the header: from there on the record quotes the worker
    // (its error file's traceback, or how it ended: "Signal 6 (SIGABRT) received by PID 26026");
    // the lines before are the agent's account of it.
    std::uint32_t tracebackAt = 0;
    std::string_view host; // up to the first dot, as NCCL's own prefix names a host
    std::int64_t pid = -1;
    int rank = -1;
    int localRank = -1;
    std::optional<Timestamp> time; // the worker's error file's time, or when the agent saw it fail
    // The restart attempt its error file's path names (<log dir>/<run id>/attempt_<n>/<local rank>/).
    std::optional<int> attempt;
};

// Whether a line's body (parseLine's) is a record's "[N]:" header.
bool elasticRecordHeader(std::string_view body);

// The record whose header is bodies[0], the lines after it following (their parseLine bodies); the
// record ends where they stop being indented, or with the span. Nullopt when bodies[0] is not a
// header or the record lacks its host, rank, pid or traceback.
std::optional<ElasticRecord> elasticRecordAt(std::span<const std::string_view> bodies, int defaultYear);

std::int64_t civilToUnixSeconds(int year, int month, int day, int hour, int minute, int second);

} // namespace rl
