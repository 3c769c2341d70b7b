#include "probe/nccl_discovery.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <glob.h>
#include <iterator>
#include <sys/stat.h>

#include "util/paths.h"
#include "util/strings.h"

namespace rl
{

namespace
{

constexpr char kSoname[] = "libnccl.so.2";

std::uint32_t u32(const std::string& b, std::size_t at)
{
    std::uint32_t v = 0;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}

std::string cString(const std::string& b, std::size_t at)
{
    if (at >= b.size())
        return {};
    std::size_t end = b.find('\0', at);
    return b.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string envOr(const std::optional<std::string>& given, const char* name)
{
    if (given)
        return *given;
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::vector<std::string> globPaths(const std::string& pattern)
{
    std::vector<std::string> out;
    glob_t g{};
    if (::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &g) == 0)
        for (std::size_t i = 0; i < g.gl_pathc; ++i)
            out.emplace_back(g.gl_pathv[i]);
    ::globfree(&g);
    std::sort(out.begin(), out.end());
    return out;
}

bool isDir(const std::string& p)
{
    struct stat st {
    };
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isRegularFile(const std::string& p)
{
    struct stat st {
    };
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// `p` resolved, or `p` itself where it cannot be.
std::string realPathOf(const std::string& p)
{
    std::string real = realPath(p);
    return real.empty() ? p : real;
}

// "nvidia_nccl_cu12-2.21.5.dist-info" next to nvidia/ names the wheel that brought the library.
std::string pipPackage(const std::string& site)
{
    std::string out;
    for (const auto& d : globPaths(site + "/nvidia_nccl_cu*-*.dist-info")) {
        std::string name = d.substr(d.rfind('/') + 1);
        name.resize(name.size() - std::strlen(".dist-info"));
        auto dash = name.find('-');
        std::string pkg = name.substr(0, dash);
        std::replace(pkg.begin(), pkg.end(), '_', '-');
        if (!out.empty())
            out += ", ";
        // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict) on `" " + substr(...)` here.
        out += pkg;
        if (dash != std::string::npos) {
            out += ' ';
            out.append(name, dash + 1, std::string::npos);
        }
    }
    return out;
}

class Collector
{
public:
    std::vector<NcclLibrary> libs;

    // A libnccl.so.2 at `path`, if there is one. Returns whether it exists.
    bool add(const std::string& path, const std::string& how, const std::string& detail)
    {
        if (!isRegularFile(path))
            return false;
        const std::string real = realPathOf(path);
        auto it =
            std::find_if(libs.begin(), libs.end(), [&](const NcclLibrary& l) { return l.realPath == real; });
        if (it == libs.end()) {
            libs.push_back({});
            it = std::prev(libs.end());
            it->realPath = real;
        }
        // /usr/local/cuda -> cuda-13.0 and lib64 -> lib make several paths of one folder: one is
        // enough for each way of finding it.
        const std::string folder = realPathOf(path.substr(0, path.rfind('/') + 1));
        bool known = std::any_of(it->locations.begin(), it->locations.end(), [&](const NcclLocation& l) {
            return l.how == how &&
                   (l.path == path || realPathOf(l.path.substr(0, l.path.rfind('/') + 1)) == folder);
        });
        if (!known)
            it->locations.push_back({path, how, detail});
        return true;
    }
    NcclLibrary* find(const std::string& real)
    {
        for (auto& l : libs)
            if (l.realPath == real)
                return &l;
        return nullptr;
    }
};

} // namespace

std::vector<LdCacheEntry> readLdCache(const std::string& file, std::string* error)
{
    std::vector<LdCacheEntry> out;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        if (error)
            *error = file + ": cannot be read";
        return out;
    }
    const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // glibc (elf/cache.c, sysdeps/generic/dl-cache.h): the new table may stand alone or follow
    // the old one ("ld.so-1.7.0", 12-byte entries) at the next 8-byte boundary. New header: 20
    // bytes of magic+version, nlibs, len_strings, flags, padding, extension offset, 3 unused words
    // (48 bytes); then 24-byte entries {flags, key, value, osversion, hwcap}. Their string offsets
    // count from the new header.
    static const char kOld[] = "ld.so-1.7.0";
    static const char kNew[] = "glibc-ld.so.cache1.1";
    std::size_t base = 0;
    if (b.compare(0, std::strlen(kOld), kOld) == 0 && b.size() >= 16) {
        const std::uint64_t oldLibs = u32(b, 12);
        base = static_cast<std::size_t>((16 + oldLibs * 12 + 7) & ~std::uint64_t{7});
    }
    if (base + 48 > b.size() || b.compare(base, std::strlen(kNew), kNew) != 0) {
        if (error)
            *error = file + ": not a glibc ld.so.cache in the 1.1 format";
        return out;
    }
    const std::uint64_t nlibs = u32(b, base + 20);
    if (base + 48 + nlibs * 24 > b.size()) {
        if (error)
            *error = file + ": truncated";
        return out;
    }
    for (std::uint64_t i = 0; i < nlibs; ++i) {
        const std::size_t e = base + 48 + static_cast<std::size_t>(i) * 24;
        LdCacheEntry entry;
        entry.flags = u32(b, e);
        entry.name = cString(b, base + u32(b, e + 4));
        entry.path = cString(b, base + u32(b, e + 8));
        if (!entry.name.empty() && !entry.path.empty())
            out.push_back(std::move(entry));
    }
    return out;
}

NcclDiscovery discoverNccl(const DiscoveryOptions& o)
{
    NcclDiscovery d;
    Collector c;
    const std::string& root = o.root;
    const std::string home = envOr(o.home, "HOME");

    for (const auto& p : o.explicitPaths)
        c.add(p, "explicit", "given on the command line");

    // The loader's own choice, in a fresh child so nothing loaded here can stand in for it.
    if (o.askLoader) {
        d.loader = probeNcclIsolated(kSoname, o.timeoutMs);
        if (d.loader->found && c.add(d.loader->path, "loader", "dlopen(\"libnccl.so.2\") in a fresh process"))
            c.find(realPathOf(d.loader->path))->loaderChoice = true;
        d.searched.push_back(std::string("loader: dlopen(\"libnccl.so.2\") ") +
                             (d.loader->found ? "resolved " + d.loader->path : "failed: " + d.loader->error));
    }

    const std::string ldPath = envOr(o.ldLibraryPath, "LD_LIBRARY_PATH");
    std::vector<std::string> ldDirs;
    for (std::size_t at = 0; at <= ldPath.size();) {
        std::size_t colon = ldPath.find(':', at);
        std::string dir = ldPath.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
        if (!dir.empty()) {
            ldDirs.push_back(dir);
            c.add(dir + "/" + kSoname, "LD_LIBRARY_PATH", dir);
        }
        if (colon == std::string::npos)
            break;
        at = colon + 1;
    }
    d.searched.push_back("LD_LIBRARY_PATH: " +
                         (ldDirs.empty() ? std::string("(not set)") : joined(ldDirs, ":")));

    if (o.readCache) {
        std::string err;
        auto cache = readLdCache(o.ldCacheFile, &err);
        std::size_t n = 0;
        for (const auto& e : cache)
            if (e.name == kSoname && c.add(e.path, "ld.so.cache", o.ldCacheFile))
                ++n;
        d.searched.push_back("ld.so.cache: " +
                             (err.empty() ? o.ldCacheFile + " (" + std::to_string(cache.size()) +
                                                " entries, " + std::to_string(n) + " " + kSoname + ")"
                                          : err));
    }

    // CUDA toolkits (the CUDA 13 toolkit ships NCCL) and the NVIDIA HPC SDK.
    const std::vector<std::string> toolkitPatterns = {"/usr/local/cuda*/lib", "/usr/local/cuda*/lib64",
                                                      "/usr/local/cuda*/targets/*/lib",
                                                      "/opt/nvidia/hpc_sdk/*/*/comm_libs/*nccl*/lib"};
    for (const auto& pat : toolkitPatterns)
        for (const auto& dir : globPaths(root + pat))
            c.add(dir + "/" + kSoname, "cuda-toolkit", dir);
    d.searched.push_back("CUDA toolkit: " + joined(toolkitPatterns));

    // Distribution packages (libnccl2) where the cache may be stale or missing.
    const std::vector<std::string> systemPatterns = {"/usr/lib/*-linux-gnu", "/lib/*-linux-gnu", "/usr/lib64",
                                                     "/usr/lib", "/usr/local/lib"};
    for (const auto& pat : systemPatterns)
        for (const auto& dir : globPaths(root + pat))
            c.add(dir + "/" + kSoname, "system", dir);
    d.searched.push_back("system: " + joined(systemPatterns));

    // conda: the active environment, the usual installation folders and their environments.
    std::vector<std::string> condaBases;
    const std::string condaPrefix = envOr(o.condaPrefix, "CONDA_PREFIX");
    if (!condaPrefix.empty())
        condaBases.push_back(condaPrefix);
    if (!home.empty())
        for (const char* n : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba"})
            condaBases.push_back(home + "/" + n);
    for (const char* n : {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3", "/opt/miniforge3"})
        condaBases.push_back(root + n);
    std::vector<std::string> condaEnvs, seenCondaEnvs;
    for (const auto& b : condaBases) {
        if (!isDir(b))
            continue;
        condaEnvs.push_back(b);
        for (const auto& e : globPaths(b + "/envs/*"))
            condaEnvs.push_back(e);
    }
    for (const auto& env : condaEnvs) {
        const std::string real = realPathOf(env);
        if (std::find(seenCondaEnvs.begin(), seenCondaEnvs.end(), real) != seenCondaEnvs.end())
            continue;
        seenCondaEnvs.push_back(real);
        c.add(env + "/lib/" + kSoname, "conda", env);
    }
    d.searched.push_back("conda: " + (seenCondaEnvs.empty()
                                          ? std::string("no environment found")
                                          : std::to_string(seenCondaEnvs.size()) + " environment(s) (" +
                                                joined(condaEnvs) + ")"));

    // pip wheels (nvidia-nccl-cu11/12/13) put the library in <site>/nvidia/nccl/lib. Found without
    // running Python: the usual site-packages folders of the system, the user, a virtualenv and
    // every conda environment.
    std::vector<std::string> sitePatterns = {
        root + "/usr/lib/python3*/dist-packages",       root + "/usr/lib/python3*/site-packages",
        root + "/usr/local/lib/python3*/dist-packages", root + "/usr/local/lib/python3*/site-packages",
        root + "/usr/lib64/python3*/site-packages",
    };
    if (!home.empty())
        sitePatterns.push_back(home + "/.local/lib/python3*/site-packages");
    const std::string venv = envOr(o.virtualEnv, "VIRTUAL_ENV");
    if (!venv.empty())
        sitePatterns.push_back(venv + "/lib/python3*/site-packages");
    for (const auto& env : condaEnvs)
        sitePatterns.push_back(env + "/lib/python3*/site-packages");
    std::vector<std::string> sites;
    for (const auto& pat : sitePatterns)
        for (const auto& site : globPaths(pat))
            if (std::find(sites.begin(), sites.end(), site) == sites.end())
                sites.push_back(site);
    for (const auto& site : sites) {
        const std::string lib = site + "/nvidia/nccl/lib/" + kSoname;
        std::string detail = site;
        if (!venv.empty() && site.rfind(venv + "/", 0) == 0)
            detail += " (virtualenv " + venv + ")";
        if (c.add(lib, "pip", detail))
            if (NcclLibrary* l = c.find(realPathOf(lib)); l && l->package.empty())
                l->package = pipPackage(site);
    }
    d.searched.push_back("pip: " + std::to_string(sites.size()) + " site-packages folder(s)" +
                         (venv.empty() ? "" : ", virtualenv " + venv));

    // Each file's own version, asked in its own child: with one process, the second library of the
    // same soname could not be told from the first.
    for (auto& lib : c.libs) {
        lib.probe = probeNcclIsolated(lib.locations.front().path, o.timeoutMs);
        if (lib.probe.found && realPathOf(lib.probe.path) != lib.realPath)
            lib.probe.note = "the loader answered with " + lib.probe.path + " instead of this file";
    }
    d.libraries = std::move(c.libs);
    return d;
}

} // namespace rl
