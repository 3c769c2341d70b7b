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
};

// `library` is a path or a soname; the default follows the loader's own search
// (LD_LIBRARY_PATH, then the ld.so cache), exactly as a training job would.
NcclProbeResult probeNccl(const std::string& library = "libnccl.so.2");

} // namespace rl
