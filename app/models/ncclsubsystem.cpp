#include "models/ncclsubsystem.h"

#include <array>
#include <utility>

namespace rl
{

namespace
{

bool has(std::string_view s, std::string_view what)
{
    return s.find(what) != std::string_view::npos;
}

// The source file named before "NCCL WARN" or at the start of a trail ("misc/socket.cc:564 -> 2").
NcclSubsystem fromFile(std::string_view f)
{
    static const std::array<std::pair<std::string_view, NcclSubsystem>, 24> files = {{
        {"bootstrap", NcclSubsystem::Bootstrap},
        {"transport/net", NcclSubsystem::Net},
        {"transport/coll_net", NcclSubsystem::Net},
        {"misc/socket", NcclSubsystem::Net},
        {"misc/ibvwrap", NcclSubsystem::Net},
        {"misc/ibvsymbols", NcclSubsystem::Net},
        {"net.cc", NcclSubsystem::Net},
        {"net_ib", NcclSubsystem::Net},
        {"transport/p2p", NcclSubsystem::P2P},
        {"transport/shm", NcclSubsystem::Shm},
        {"misc/shmutils", NcclSubsystem::Shm},
        {"transport/nvls", NcclSubsystem::P2P},
        {"proxy", NcclSubsystem::Proxy},
        {"graph/", NcclSubsystem::Graph},
        {"enqueue", NcclSubsystem::Coll},
        {"collectives", NcclSubsystem::Coll},
        {"alloc", NcclSubsystem::Alloc},
        {"misc/cudawrap", NcclSubsystem::Init},
        {"misc/nvmlwrap", NcclSubsystem::Init},
        {"init", NcclSubsystem::Init},
        {"transport.cc", NcclSubsystem::Init},
        {"channel.cc", NcclSubsystem::Init},
        {"group.cc", NcclSubsystem::Init},
        {"misc/argcheck", NcclSubsystem::Coll},
    }};
    for (const auto& [key, sub] : files)
        if (has(f, key))
            return sub;
    return NcclSubsystem::Other;
}

std::string_view firstWord(std::string_view s)
{
    const auto end = s.find(' ');
    return s.substr(0, end);
}

} // namespace

NcclSubsystem ncclSubsystem(std::string_view line)
{
    // " NCCL INFO ", " NCCL WARN ", " NCCL TRACE ", " NCCL CALL " (the prefix before it varies).
    std::size_t at = std::string_view::npos;
    std::string_view level;
    for (std::string_view lv : {"INFO", "WARN", "TRACE", "CALL", "ABORT"}) {
        for (std::size_t from = 0;;) {
            const std::size_t p = line.find("NCCL ", from);
            if (p == std::string_view::npos)
                break;
            if (line.substr(p + 5, lv.size()) == lv && (p == 0 || line[p - 1] == ' ')) {
                at = p;
                level = lv;
                break;
            }
            from = p + 5;
        }
        if (at != std::string_view::npos)
            break;
    }
    if (at == std::string_view::npos)
        return NcclSubsystem::None;
    std::string_view msg = line.substr(at + 5 + level.size());
    while (!msg.empty() && msg.front() == ' ')
        msg.remove_prefix(1);
    // A WARN names its source file just before "NCCL WARN".
    if (level == "WARN") {
        std::string_view before = line.substr(0, at);
        while (!before.empty() && before.back() == ' ')
            before.remove_suffix(1);
        const auto sp = before.rfind(' ');
        const std::string_view file = sp == std::string_view::npos ? before : before.substr(sp + 1);
        if (has(file, ".cc:") || has(file, ".h:") || has(file, ".cu:")) {
            const NcclSubsystem s = fromFile(file);
            if (s != NcclSubsystem::Other)
                return s;
        }
    }
    // A return-code trail: "misc/socket.cc:564 -> 2".
    const std::string_view word = firstWord(msg);
    if ((has(word, ".cc:") || has(word, ".h:")) && has(msg, " -> "))
        return fromFile(word);

    if (has(msg, "Bootstrap") || has(msg, "bootstrap"))
        return NcclSubsystem::Bootstrap;
    if (msg.starts_with("NCCL_") || has(msg, "set by environment") || has(msg, "NCCL_SOCKET_IFNAME"))
        return NcclSubsystem::Env;
    if (has(msg, "via P2P") || has(msg, "P2P/") || msg.starts_with("P2P "))
        return NcclSubsystem::P2P;
    if (has(msg, "via SHM") || has(msg, "SHM/") || msg.starts_with("SHM "))
        return NcclSubsystem::Shm;
    if (has(msg, "NET/") || has(msg, "Using network") || has(msg, "via NET") || has(msg, "IB") ||
        has(msg, "Socket") || has(msg, "socket") || has(msg, "Connect to"))
        return NcclSubsystem::Net;
    if (has(msg, "Proxy") || has(msg, "proxy"))
        return NcclSubsystem::Proxy;
    if (msg.starts_with("Channel ") || msg.starts_with("Trees") || msg.starts_with("Ring") ||
        msg.starts_with("Pattern") || msg.starts_with("Tree ") || has(msg, "Connected all") ||
        has(msg, "threadThresholds") || has(msg, "coll channels") || has(msg, "topology") ||
        has(msg, "Topology") || has(msg, "CPU/") || has(msg, "GPU/"))
        return NcclSubsystem::Graph;
    if (has(msg, "opCount") || has(msg, "AllReduce") || has(msg, "Broadcast") || has(msg, "AllGather") ||
        has(msg, "ReduceScatter"))
        return NcclSubsystem::Coll;
    if (has(msg, "alloc") || has(msg, "Alloc") || has(msg, "cuMem") || has(msg, "MemoryPool"))
        return NcclSubsystem::Alloc;
    if (has(msg, "Init ") || has(msg, "Init:") || msg.starts_with("comm ") || has(msg, "cudaDriverVersion") ||
        has(msg, "NCCL version") || has(msg, "affinity") || has(msg, "NVLS") || has(msg, "Chunksize") ||
        has(msg, "nranks") || msg.starts_with("Using"))
        return NcclSubsystem::Init;
    return NcclSubsystem::Other;
}

const char* ncclSubsystemName(NcclSubsystem s)
{
    switch (s) {
    case NcclSubsystem::None:
        return "";
    case NcclSubsystem::Init:
        return "INIT";
    case NcclSubsystem::Bootstrap:
        return "BOOTSTRAP";
    case NcclSubsystem::Net:
        return "NET";
    case NcclSubsystem::Graph:
        return "GRAPH";
    case NcclSubsystem::P2P:
        return "P2P";
    case NcclSubsystem::Shm:
        return "SHM";
    case NcclSubsystem::Proxy:
        return "PROXY";
    case NcclSubsystem::Coll:
        return "COLL";
    case NcclSubsystem::Alloc:
        return "ALLOC";
    case NcclSubsystem::Env:
        return "ENV";
    case NcclSubsystem::Other:
        return "OTHER";
    }
    return "";
}

} // namespace rl
