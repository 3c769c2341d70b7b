#pragma once
// Finds the NCCL library this machine would load and asks it for its version. No link-time
// dependency: dlopen + ncclGetVersion, which touches no GPU. An absent library is a normal answer.

#include <optional>
#include <string>

#include "util/version.h"

namespace rl
{

struct NcclProbeResult {
    bool found = false;
    Version version;
    int code = 0;
    std::string path;  // the file the loader resolved
    std::string error; // why nothing was found (loader message), when !found
    std::string note;  // isolated probes: anything that qualifies the answer
};

// `library` is a path or a soname; the default follows the loader's own search
// (LD_LIBRARY_PATH, then the ld.so cache), exactly as a training job would. Runs in this process:
// the library stays loaded, and a later dlopen of the same soname returns it.
NcclProbeResult probeNccl(const std::string& library = "libnccl.so.2");

// The same question asked in a short-lived child process (probe/isolated.h), so that probing one
// libnccl.so.2 never changes what the next dlopen in this process finds. A soname is then
// resolved as a fresh process would resolve it — unless this process had already loaded a
// library of that soname before (the child inherits it); `note` says so.
NcclProbeResult probeNcclIsolated(const std::string& library = "libnccl.so.2", int timeoutMs = 10000);

} // namespace rl
