#include "probe/nccl_probe.h"

#include <dlfcn.h>

namespace rl
{

NcclProbeResult probeNccl(const std::string& library)
{
    NcclProbeResult r;
    // RTLD_LOCAL keeps the library's symbols away from ours; RTLD_NOW surfaces missing
    // dependencies here rather than at the first call.
    void* handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* err = ::dlerror();
        r.error = err ? err : "dlopen failed";
        return r;
    }
    using GetVersionFn = int (*)(int*);
    void* sym = ::dlsym(handle, "ncclGetVersion");
    if (!sym) {
        r.error = library + " has no ncclGetVersion symbol";
        ::dlclose(handle);
        return r;
    }
    Dl_info info{};
    if (::dladdr(sym, &info) && info.dli_fname)
        r.path = info.dli_fname;
    int code = 0;
    auto fn = reinterpret_cast<GetVersionFn>(sym);
    if (fn(&code) != 0 || code <= 0) {
        r.error = "ncclGetVersion failed";
        ::dlclose(handle);
        return r;
    }
    r.found = true;
    r.code = code;
    r.version = Version::fromNcclCode(code);
    ::dlclose(handle);
    return r;
}

} // namespace rl
