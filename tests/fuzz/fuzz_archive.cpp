// Fuzz target: the bundle reader on one file. The first byte chooses the name the file is given, and
// so the path through the reader: tar and tar.gz/xz/zst, zip, a single .gz/.zst/.xz log, a torchelastic
// error.json, a plain log. The file lives in a private temporary folder, which must hold nothing but
// that file afterwards: reading never writes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>
#include <utility>

#include "bundle/bundle.h"

namespace fs = std::filesystem;

namespace
{

// The folder goes when the process exits normally (the replay runner and a finished fuzzing run);
// a run that crashes leaves it, with the input that crashed it, to look at.
struct WorkDir {
    std::string path;
    WorkDir()
    {
        std::string tmpl = (fs::temp_directory_path() / "rankline-fuzz-archive-XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            std::abort();
        path = std::move(tmpl);
    }
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;
    ~WorkDir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const std::string& workDir()
{
    static const WorkDir dir;
    return dir.path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const char* const names[] = {"bundle.tar",    "bundle.tar.gz", "bundle.zip",     "rank0.log.gz",
                                        "rank0.log.zst", "rank0.log.xz",  "bundle.tar.zst", "bundle.tar.xz",
                                        "error.json",    "rank0.log",     "bundle.tar.bz2", "rank0.log.bz2"};
    if (size < 1)
        return 0;
    const std::string path = workDir() + "/" + names[data[0] % (sizeof names / sizeof names[0])];
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data + 1, 1, size - 1, f);
        std::fclose(f);
    } else {
        std::abort();
    }

    rl::BundleLimits limits;
    limits.maxExpandedBytes = 1 << 20; // bombs reach the cap quickly; keeps every run fast
    rl::Bundle b = rl::readBundle({workDir()}, limits);
    for (auto& s : b.sources) {
        rl::indexLines(s);
        for (std::uint32_t i = 0; i < s.lineCount(); ++i)
            (void)s.line(i);
    }
    std::size_t entries = 0;
    for (const auto& e : fs::directory_iterator(workDir())) {
        (void)e;
        ++entries;
    }
    fs::remove(path);
    if (entries != 1)
        std::abort(); // something was written next to the archive
    return 0;
}
