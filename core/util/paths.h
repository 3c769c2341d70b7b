#pragma once
// File-system path helpers shared by the bundle reader and the NCCL probe.

#include <cstdlib>
#include <stdlib.h>
#include <string>

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

} // namespace rl
