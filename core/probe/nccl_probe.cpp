#include "probe/nccl_probe.h"

#include <csignal>
#include <cstdlib>
#include <dlfcn.h>

#include "probe/isolated.h"

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

NcclProbeResult probeNcclIsolated(const std::string& library, int timeoutMs)
{
    // Fields travel back NUL-separated: found, code, path, error, note.
    IsolatedResult child = runIsolated(
        [&library] {
            std::string note;
            if (library.find('/') == std::string::npos) {
                if (void* pre = ::dlopen(library.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
                    Dl_info info{};
                    void* sym = ::dlsym(pre, "ncclGetVersion");
                    note = "this process had already loaded ";
                    note += sym && ::dladdr(sym, &info) && info.dli_fname ? info.dli_fname : library.c_str();
                    note += ", so the answer is that library, not necessarily a fresh process's choice";
                    ::dlclose(pre);
                }
            }
            NcclProbeResult r = probeNccl(library);
            std::string out;
            out += r.found ? "1" : "0";
            out += '\0';
            out += std::to_string(r.code);
            out += '\0';
            out += r.path;
            out += '\0';
            out += r.error;
            out += '\0';
            out += note;
            return out;
        },
        timeoutMs);
    NcclProbeResult r;
    if (!child.ok) {
        r.error = library + ": " + child.error;
        // The loader maps the library's segments as its headers describe them: a file cut short (a
        // partial copy or download) faults on the first page past its end.
        if (child.signal == SIGBUS)
            r.error += " (the file is shorter than its headers say: a truncated copy or an unfinished "
                       "download; copy or install it again)";
        else if (child.signal == SIGSEGV)
            r.error += " (the library crashed while it was loaded or asked for its version: a damaged file, "
                       "or one built for another system)";
        return r;
    }
    std::string fields[5];
    std::size_t f = 0;
    for (char c : child.output) {
        if (c == '\0') {
            if (++f == 5)
                break;
        } else {
            fields[f] += c;
        }
    }
    r.found = fields[0] == "1";
    r.code = std::atoi(fields[1].c_str());
    r.path = fields[2];
    r.error = fields[3];
    r.note = fields[4];
    if (r.found)
        r.version = Version::fromNcclCode(r.code);
    return r;
}

} // namespace rl
