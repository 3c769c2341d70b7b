#include "util/version.h"

#include <charconv>

namespace rl
{

std::string Version::toString() const
{
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<Version> Version::parse(std::string_view text)
{
    Version v;
    int* parts[] = {&v.major, &v.minor, &v.patch};
    const char* p = text.data();
    const char* end = text.data() + text.size();
    int count = 0;
    for (; count < 3 && p < end; ++count) {
        auto [next, ec] = std::from_chars(p, end, *parts[count]);
        if (ec != std::errc{} || next == p)
            return std::nullopt;
        p = next;
        if (p < end && *p == '.' && count < 2)
            ++p;
        else
            break;
    }
    if (count < 1)
        return std::nullopt;
    return v;
}

Version Version::fromNcclCode(int code)
{
    if (code >= 10000)
        return {code / 10000, (code % 10000) / 100, code % 100};
    return {code / 1000, (code % 1000) / 100, code % 100};
}

} // namespace rl
