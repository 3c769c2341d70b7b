#pragma once
// Fills Analysis::environment and the NCCL version disagreement (Analysis::nccl.mismatch) from
// the scanner's built-in hits and the events, once processes are known (see analysis.cpp).

#include <string>
#include <utility>
#include <vector>

#include "engine/scanner.h"
#include "util/strong_id.h"

namespace rl
{

struct Analysis;

struct EnvironmentHit {
    LineRef where;
    Builtin builtin = Builtin::None;
    std::vector<std::pair<std::string, std::string>> captures;
};

// The built-in patterns whose hits collectEnvironment reads.
bool isEnvironmentBuiltin(Builtin b);

void collectEnvironment(Analysis& analysis, const std::vector<EnvironmentHit>& hits);

// Why an interface or address is suspicious: loopback, docker, veth, link-local (any of them).
std::vector<std::string> addressKinds(const std::string& interface, const std::string& address);
// The subnet an address is compared by: "10.0.0.0/24" for IPv4, the first four groups + "::/64"
// for IPv6; empty for loopback, link-local and anything unparsable.
std::string assumedSubnet(const std::string& address);
// "ranks 0–3, 5 on gpu-a, gpu-b" for people.
std::string describeProcesses(const Analysis& analysis, const std::vector<ProcessId>& processes);

} // namespace rl
