#pragma once
// `rankline probe` output: this machine's NCCL libraries, kernel and CUDA driver, and optionally the
// socket-retry experiment, as text for people and as JSON (a contract: extend, never rename).

#include <string>

#include "probe/local_facts.h"
#include "probe/socket_retry.h"

namespace rl
{

// `requested` is the library --nccl-lib names (default: the soname, i.e. the loader's choice).
std::string probeText(const LocalFacts& facts, const NcclProbeResult& requested,
                      const SocketRetryReport* socketRetry = nullptr);
std::string probeJson(const LocalFacts& facts, const NcclProbeResult& requested,
                      const SocketRetryReport* socketRetry = nullptr, int indent = 2);

// Just the experiment, for people.
std::string socketRetryText(const SocketRetryReport& report);

} // namespace rl
