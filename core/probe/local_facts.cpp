#include "probe/local_facts.h"

#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <glob.h>
#include <sys/utsname.h>

#include "probe/isolated.h"

namespace rl
{

std::string cudaVersionString(int code)
{
    if (code <= 0)
        return {};
    return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

KernelInfo kernelInfo()
{
    KernelInfo k;
    struct utsname u {
    };
    if (::uname(&u) == 0) {
        k.sysname = u.sysname;
        k.release = u.release;
        k.version = u.version;
        k.machine = u.machine;
    }
    return k;
}

CudaDriverInfo probeCudaDriver(int timeoutMs)
{
    CudaDriverInfo c;
    IsolatedResult child = runIsolated(
        [] {
            void* h = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
            if (!h) {
                const char* e = ::dlerror();
                return std::string("0\n") + (e ? e : "dlopen failed");
            }
            using Fn = int (*)(int*);
            void* sym = ::dlsym(h, "cuDriverGetVersion");
            Dl_info info{};
            std::string path = sym && ::dladdr(sym, &info) && info.dli_fname ? info.dli_fname : "";
            int v = 0;
            if (sym)
                reinterpret_cast<Fn>(sym)(&v);
            return "1\n" + std::to_string(v) + "\n" + path;
        },
        timeoutMs);
    if (!child.ok) {
        c.error = "libcuda.so.1: " + child.error;
    } else if (child.output.rfind("1\n", 0) == 0) {
        c.found = true;
        auto nl = child.output.find('\n', 2);
        c.driverVersion = std::atoi(child.output.substr(2, nl - 2).c_str());
        if (nl != std::string::npos)
            c.path = child.output.substr(nl + 1);
    } else {
        c.error = child.output.size() > 2 ? child.output.substr(2) : "not found";
    }
    std::ifstream v("/proc/driver/nvidia/version");
    std::getline(v, c.nvidiaDriver);
    glob_t g{};
    if (::glob("/dev/nvidia[0-9]*", 0, nullptr, &g) == 0)
        for (std::size_t i = 0; i < g.gl_pathc; ++i)
            c.devices.emplace_back(g.gl_pathv[i]);
    ::globfree(&g);
    return c;
}

LocalFacts gatherLocalFacts(const DiscoveryOptions& options)
{
    LocalFacts f;
    f.nccl = discoverNccl(options);
    f.kernel = kernelInfo();
    f.cuda = probeCudaDriver(options.timeoutMs);
    return f;
}

} // namespace rl
