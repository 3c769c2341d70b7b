#include "bundle/archive_library.h"

#include <dlfcn.h>
#include <link.h>

namespace rl
{

namespace
{

struct Loaded {
    ArchiveLibrary library;
    bool ok = false;
    std::string why;
};

template <typename F> bool resolve(void* handle, const char* name, F& out, std::string& why)
{
    out = reinterpret_cast<F>(::dlsym(handle, name));
    if (!out && why.empty())
        why = std::string("it has no ") + name;
    return out != nullptr;
}

Loaded load()
{
    Loaded l;
    // libarchive's ABI has been libarchive.so.13 since 3.0 (2011); the unversioned name is the
    // development symlink, tried for builds against a libarchive of its own.
    void* handle = nullptr;
    std::string dlError;
    for (const char* name : {"libarchive.so.13", "libarchive.so"}) {
        handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (handle)
            break;
        if (const char* e = ::dlerror(); e && dlError.empty())
            dlError = e;
    }
    if (!handle) {
        l.why =
            "libarchive.so.13 could not be loaded (" + dlError +
            "); install libarchive13 (Debian, Ubuntu) or libarchive to open archives and .zst/.xz/.bz2 logs, "
            "or extract them first";
        return l;
    }
    ArchiveLibrary& a = l.library;
    std::string missing;
    bool all = true;
#define RL_ARCHIVE_RESOLVE(name) all = resolve(handle, "archive_" #name, a.name, missing) && all;
    RL_ARCHIVE_FUNCTIONS(RL_ARCHIVE_RESOLVE)
#undef RL_ARCHIVE_RESOLVE
    if (!all) {
        // Kept loaded: unloading a library that may have started threads is not worth the risk.
        link_map* map = nullptr;
        const std::string file = ::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name
                                     ? std::string(map->l_name)
                                     : std::string("libarchive.so.13");
        l.why =
            file + " is not a usable libarchive (" + missing +
            "); install libarchive13 3.x, or check LD_LIBRARY_PATH, to open archives, or extract them first";
        return l;
    }
    l.ok = true;
    return l;
}

} // namespace

const ArchiveLibrary* archiveLibrary(std::string* why)
{
    static const Loaded loaded = load();
    if (!loaded.ok && why)
        *why = loaded.why;
    return loaded.ok ? &loaded.library : nullptr;
}

} // namespace rl
