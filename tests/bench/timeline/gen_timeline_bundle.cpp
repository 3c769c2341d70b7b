// Writes a synthetic multi-rank incident for the timeline benchmark and screenshots: RANKS ranks on
// hosts of 8 GPUs, each logging NCCL init, then training steps (Python logging, timestamped) until
// the byte budget is spent, with WARN lines spread to a total of about EVENTS events; then the
// connect-abort incident of the sample on one rank (its retry aborts), "closed by remote peer" on its
// host's other ranks, and watchdog timeouts ten minutes later everywhere else.
//
//   gen_timeline_bundle OUT_DIR [--ranks 256] [--mib 256] [--events 40000] [--seed 1]
//
// Deterministic for a given seed. Layout: OUT_DIR/node-017/rank137.log.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace
{

constexpr int kGpusPerHost = 8;
constexpr std::int64_t kStartUs = 1749736800LL * 1000000; // 2025-06-12 14:00:00 UTC
constexpr std::int64_t kInitUs = 12 * 1000000LL;          // training starts after NCCL init
constexpr std::int64_t kFailUs = 20 * 60 * 1000000LL;     // the connect fails twenty minutes in
constexpr std::int64_t kWatchdogUs = 600 * 1000000LL;     // the watchdog fires ten minutes later

std::string stamp(std::int64_t us)
{
    const std::time_t s = static_cast<std::time_t>(us / 1000000);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d,%03d", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>((us / 1000) % 1000));
    return buf;
}

struct Rank {
    int rank;
    int host;
    int local;
    int pid;
    std::string hostName;
    std::string ip;
};

std::string prefix(const Rank& r, int tid)
{
    return r.hostName + ":" + std::to_string(r.pid) + ":" + std::to_string(tid) + " [" +
           std::to_string(r.local) + "] ";
}

void writeRank(const fs::path& file, const Rank& r, int ranks, std::uint64_t bytes, int warns, int failing,
               const Rank& failer, std::mt19937_64& rng)
{
    std::string out;
    out.reserve(bytes + 64 * 1024);
    auto py = [&](std::int64_t t, const char* level, int line, const std::string& msg) {
        out += stamp(kStartUs + t) + " " + level + " train.py:" + std::to_string(line) + " [rank" +
               std::to_string(r.rank) + "] " + msg + "\n";
    };
    const int main = r.pid, init = r.pid + 150 + r.local, proxy = init + 13;
    py(0, "INFO", 38,
       "starting on " + r.hostName + " (pid " + std::to_string(r.pid) + ", local_rank " +
           std::to_string(r.local) + ", world_size " + std::to_string(ranks) + ")");
    py(2000, "INFO", 41,
       "torch 2.1.0a0+29c30b1, CUDA 12.2, NCCL 2.18.3, device cuda:" + std::to_string(r.local));
    py(6000000 + r.rank * 97, "INFO", 57,
       "initialising process group (backend=nccl, world_size=" + std::to_string(ranks) + ")");
    const std::string pm = prefix(r, main), pi = prefix(r, init);
    out += pm + "NCCL INFO cudaDriverVersion 12020\n";
    out += pm + "NCCL INFO NCCL_SOCKET_IFNAME set to eth0\n";
    out += pm + "NCCL INFO Bootstrap : Using eth0:" + r.ip + "<0>\n";
    out += pi + "NCCL INFO NET/IB : No device found.\n";
    out += pi + "NCCL INFO NET/Socket : Using [0]eth0:" + r.ip + "<0>\n";
    out += pi + "NCCL INFO Using network Socket\n";
    char comm[160];
    std::snprintf(comm, sizeof comm,
                  "NCCL INFO comm 0x55%010llx rank %d nranks %d cudaDev %d nvmlDev %d busId %x000 commId "
                  "0x3f9a1c6e27b4d851 - Init ",
                  static_cast<unsigned long long>(rng() & 0xffffffffffULL), r.rank, ranks, r.local, r.local,
                  0x1b + r.local);
    out += pi + comm + "START\n";
    out += pi + "NCCL INFO Channel 00/0 : " + std::to_string(r.rank) + "[" + std::to_string(r.local) +
           "] -> " + std::to_string((r.rank + 1) % ranks) + "[" +
           std::to_string((r.local + 1) % kGpusPerHost) + "] via P2P/IPC/read\n";
    out += pi + "NCCL INFO Connected all rings\n";
    out += pi + "NCCL INFO Connected all trees\n";
    out += pi + comm + "COMPLETE\n";
    py(kInitUs - 500000 + r.rank * 31, "INFO", 60,
       "process group ready (rank " + std::to_string(r.rank) + " of " + std::to_string(ranks) + ")");

    // Training until the failure: step lines evenly spaced, WARN lines spread among them. The number
    // of lines comes from the length of a typical one, so the files add up to the byte budget.
    std::uniform_real_distribution<double> loss(2.0, 3.5);
    std::uniform_int_distribution<int> tok(180000, 240000);
    auto stepLine = [&](std::int64_t i, bool warn) {
        char msg[160];
        if (warn)
            std::snprintf(msg, sizeof msg, "step %lld: data loader stalled for %.2f s (prefetch queue empty)",
                          static_cast<long long>(i), 0.5 + static_cast<double>(rng() % 300) / 100.0);
        else
            std::snprintf(msg, sizeof msg,
                          "step %lld | loss %.4f | lr 6.00e-04 | grad_norm %.3f | %d tok/s | mem 61.2 GiB",
                          static_cast<long long>(i), loss(rng),
                          0.2 + static_cast<double>(rng() % 1000) / 1000.0, tok(rng));
        return std::string(msg);
    };
    const std::size_t typical =
        stamp(kStartUs).size() + 27 + std::to_string(r.rank).size() + stepLine(5000, false).size();
    const std::uint64_t tail = 1800; // the incident's lines
    const auto lines =
        static_cast<std::int64_t>(bytes > out.size() + tail ? (bytes - out.size() - tail) / typical : 1);
    const std::int64_t span = kFailUs - kInitUs;
    const std::int64_t warnEvery = warns > 0 ? std::max<std::int64_t>(1, lines / warns) : 0;
    for (std::int64_t i = 0; i < lines; ++i) {
        const std::int64_t t = kInitUs + span * i / lines + static_cast<std::int64_t>(rng() % 3000);
        const bool warn = warnEvery && i % warnEvery == warnEvery / 2;
        py(t, warn ? "WARNING" : "INFO", warn ? 212 : 180, stepLine(i, warn));
    }

    const std::string pp = prefix(r, proxy);
    const std::int64_t jitter = static_cast<std::int64_t>(rng() % 40000);
    py(kFailUs - 200000 + r.rank * 11, "INFO", 240, "creating process group for checkpoint all_gather");
    if (r.rank == failing) {
        out += pi + "NCCL INFO Channel 00/0 : " + std::to_string(r.rank) + "[" + std::to_string(r.local) +
               "] -> 0[0] [send] via NET/Socket/0\n";
        out += "\n" + pp +
               "misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.11<45763> failed : "
               "Software caused connection abort\n";
        out += pp + "NCCL INFO misc/socket.cc:564 -> 2\n";
        out += pp + "NCCL INFO misc/socket.cc:586 -> 2\n";
        out += pp + "NCCL INFO transport/net_socket.cc:336 -> 2\n";
        out += pp + "NCCL INFO transport/net.cc:592 -> 2\n";
        out += pp + "NCCL INFO proxy.cc:1306 -> 2\n\n";
        out += pp + "proxy.cc:1519 NCCL WARN [Proxy Service " + std::to_string(r.rank) +
               "] Failed to execute operation Connect from rank " + std::to_string(r.rank) + ", retcode 2\n";
        out += pi + "NCCL INFO transport/net.cc:288 -> 2\n";
        out += pi + "NCCL INFO init.cc:1079 -> 2\n";
        out += pm + "NCCL INFO group.cc:96 -> 2\n";
        py(kFailUs + 570000, "ERROR", 250, "checkpoint all_gather failed");
        out += "Traceback (most recent call last):\n  File \"/workspace/train.py\", line 247, in "
               "checkpoint\n    dist.all_gather(out, t)\n";
        out += "torch.distributed.DistBackendError: NCCL error in: "
               "/opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled system "
               "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.3\n";
        out += "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device "
               "error. \nLast error:\n";
        out += "socketStartConnect: Connect to 10.0.0.11<45763> failed : Software caused connection abort\n";
    } else if (r.host == failer.host) {
        out += "\n" + pi + "misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer " +
               failer.hostName + "<51874>\n";
        out += pi + "NCCL INFO misc/socket.cc:57 -> 6\n";
        out += pi + "NCCL INFO bootstrap.cc:71 -> 6\n";
        out += pi + "NCCL INFO init.cc:1220 -> 6\n";
        out += pm + "NCCL INFO group.cc:96 -> 6\n";
        py(kFailUs + 680000 + jitter, "ERROR", 250, "checkpoint all_gather failed");
        out += "Traceback (most recent call last):\n  File \"/workspace/train.py\", line 247, in "
               "checkpoint\n    dist.all_gather(out, t)\n";
        out += "torch.distributed.DistBackendError: NCCL error in: "
               "/opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, remote process "
               "exited or there was a network error, NCCL version 2.18.3\n";
        out += "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
               "prematurely.\nLast error:\n";
        out += "socketProgress: Connection closed by remote peer " + failer.hostName + "<51874>\n";
    } else {
        const std::string rk = "[Rank " + std::to_string(r.rank) + "] ";
        const std::string timeout = rk +
                                    "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4812, "
                                    "OpType=ALLGATHER, NumelIn=1, NumelOut=" +
                                    std::to_string(ranks) + ", Timeout(ms)=600000) ran for 600" +
                                    std::to_string(100 + rng() % 800) + " milliseconds before timing out.";
        out += "[E ProcessGroupNCCL.cpp:475] " + timeout + "\n";
        out += "[E ProcessGroupNCCL.cpp:489] Some NCCL operations have failed or timed out. Due to the "
               "asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
               "corrupted/incomplete data.\n";
        py(kFailUs + kWatchdogUs + 300000 + jitter, "ERROR", 255,
           "checkpoint all_gather timed out; aborting");
        out += "[E ProcessGroupNCCL.cpp:916] " + rk +
               "NCCL watchdog thread terminated with exception: " + timeout + "\n";
        out += "terminate called after throwing an instance of 'std::runtime_error'\n";
    }
    std::ofstream f(file, std::ios::binary);
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUT_DIR [--ranks N] [--mib N] [--events N] [--seed N]\n", argv[0]);
        return 2;
    }
    const fs::path outDir = argv[1];
    int ranks = 256, events = 40000;
    double mib = 256;
    unsigned seed = 1;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--ranks")
            ranks = std::atoi(argv[i + 1]);
        else if (k == "--mib")
            mib = std::atof(argv[i + 1]);
        else if (k == "--events")
            events = std::atoi(argv[i + 1]);
        else if (k == "--seed")
            seed = static_cast<unsigned>(std::atoi(argv[i + 1]));
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
    if (ranks < 2) {
        std::fprintf(stderr, "--ranks must be at least 2\n");
        return 2;
    }
    std::vector<Rank> all;
    for (int r = 0; r < ranks; ++r) {
        char host[32], ip[32];
        std::snprintf(host, sizeof host, "node-%03d", r / kGpusPerHost);
        std::snprintf(ip, sizeof ip, "10.0.%d.%d", r / kGpusPerHost / 250, r / kGpusPerHost % 250 + 11);
        all.push_back({r, r / kGpusPerHost, r % kGpusPerHost, 30000 + r * 7, host, ip});
    }
    const int failing = ranks > 137 ? 137 : ranks / 2 + 1;
    const auto perRank = static_cast<std::uint64_t>(mib * 1024 * 1024 / ranks);
    std::error_code ec;
    fs::create_directories(outDir, ec);
    for (const Rank& r : all) {
        std::mt19937_64 rng(seed * 1000003ULL + static_cast<unsigned>(r.rank));
        const fs::path dir = outDir / r.hostName;
        fs::create_directories(dir, ec);
        // Spread the WARN budget evenly, the remainder on the first ranks.
        const int warns = events / ranks + (r.rank < events % ranks ? 1 : 0);
        writeRank(dir / ("rank" + std::to_string(r.rank) + ".log"), r, ranks, perRank, warns, failing,
                  all[static_cast<std::size_t>(failing)], rng);
    }
    std::printf("wrote %d ranks (%.0f MiB, about %d WARN events) to %s; rank %d fails\n", ranks, mib, events,
                outDir.c_str(), failing);
    return 0;
}
