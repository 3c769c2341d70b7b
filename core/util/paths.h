#pragma once
// File-system path helpers shared by the bundle reader and the NCCL probe.

#include <cstdlib>
#include <stdlib.h>
#include <string>
#include <string_view>

namespace rl
{

// `path` with every symbolic link resolved, or "" where it cannot be (errno says why).
inline std::string realPath(const std::string& path)
{
    char* real = ::realpath(path.c_str(), nullptr);
    if (!real)
        return {};
    std::string out(real);
    std::free(real);
    return out;
}

// `name` as it was before a compressor added its suffix (any case): "rank3.log.gz" was rank3.log.
// The suffixes of the single compressed logs the bundle reader opens in place.
inline std::string_view uncompressedName(std::string_view name)
{
    for (std::string_view ext : {".gz", ".zst", ".xz", ".bz2", ".lz4", ".lzma", ".lz"}) {
        if (name.size() <= ext.size())
            continue;
        std::string_view tail = name.substr(name.size() - ext.size());
        auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
        bool same = true;
        for (std::size_t i = 0; i < ext.size(); ++i)
            same = same && lower(tail[i]) == ext[i];
        if (same)
            return name.substr(0, name.size() - ext.size());
    }
    return name;
}

} // namespace rl
