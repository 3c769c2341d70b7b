#pragma once
// Every libnccl.so.2 this machine holds, where it was found and which version each one is: the
// loader's own choice, LD_LIBRARY_PATH, the ld.so cache, CUDA toolkit folders, conda environments
// and pip wheels (nvidia-nccl-cu*). A training job loads exactly one of them; which one depends on
// its environment, so all are reported.

#include <optional>
#include <string>
#include <vector>

#include "probe/nccl_probe.h"

namespace rl
{

// One entry of /etc/ld.so.cache: a soname and the file it resolves to.
struct LdCacheEntry {
    std::string name;
    std::string path;
    std::uint32_t flags = 0; // glibc's FLAG_* bits (libc6, x86-64, ...)
};

// Reads the loader's cache file directly (glibc's "glibc-ld.so.cache1.1" format, alone or behind
// the old "ld.so-1.7.0" table), as `ldconfig -p` prints it. Empty with `error` set when the file
// is absent or not a cache.
std::vector<LdCacheEntry> readLdCache(const std::string& file = "/etc/ld.so.cache",
                                      std::string* error = nullptr);

// One way a library was found.
struct NcclLocation {
    std::string path;   // the path as found (may be a symlink)
    std::string how;    // explicit, loader, LD_LIBRARY_PATH, ld.so.cache, cuda-toolkit, system, conda, pip
    std::string detail; // the folder, environment or package that led there
};

struct NcclLibrary {
    std::string realPath;                // the file itself, every symlink resolved
    std::vector<NcclLocation> locations; // each way it was found, first first
    bool loaderChoice = false;           // what dlopen("libnccl.so.2") gives a fresh process
    NcclProbeResult probe;               // ncclGetVersion of this file, asked in a child process
    std::string package;                 // "nvidia-nccl-cu12 2.21.5" when a pip dist-info names it
};

struct NcclDiscovery {
    std::vector<NcclLibrary> libraries;    // one per real file
    std::optional<NcclProbeResult> loader; // the loader's choice, when it was asked
    std::vector<std::string> searched;     // what was looked at, for people
};

struct DiscoveryOptions {
    std::vector<std::string> explicitPaths; // --nccl-lib and the like
    bool askLoader = true;                  // dlopen("libnccl.so.2") in a child
    bool readCache = true;                  // /etc/ld.so.cache
    std::string ldCacheFile = "/etc/ld.so.cache";
    // Prepended to every fixed system location (/usr/local/cuda*, /opt/conda, /usr/lib/python3*...):
    // tests lay out a fake machine under a temporary folder.
    std::string root;
    // The environment, read from this process when not given.
    std::optional<std::string> ldLibraryPath;
    std::optional<std::string> condaPrefix;
    std::optional<std::string> virtualEnv;
    std::optional<std::string> home;
    int timeoutMs = 10000; // per child probe
};

NcclDiscovery discoverNccl(const DiscoveryOptions& options = {});

} // namespace rl
