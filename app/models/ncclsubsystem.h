#pragma once
// Which NCCL subsystem a log line belongs to. NCCL does not print the subsystem (NCCL_DEBUG_SUBSYS
// only selects what is printed), so it is inferred from the source file a WARN or a return-code trail
// names, else from the message's own words. Pure, tested with real lines.

#include <cstdint>
#include <string_view>

namespace rl
{

enum class NcclSubsystem : std::uint8_t {
    None, // not an NCCL line
    Init,
    Bootstrap,
    Net,
    Graph,
    P2P,
    Shm,
    Proxy,
    Coll,
    Alloc,
    Env,
    Other,
};
constexpr int kNcclSubsystemCount = 12;

NcclSubsystem ncclSubsystem(std::string_view line);
const char* ncclSubsystemName(NcclSubsystem s); // "INIT", "NET", … as NCCL_DEBUG_SUBSYS spells them

} // namespace rl
