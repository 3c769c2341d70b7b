#pragma once
// Small string helpers the report writers and the probe share.

#include <string>
#include <string_view>
#include <vector>

namespace rl
{

// The parts with `separator` between them; an empty part adds nothing, not even a separator.
inline std::string joined(const std::vector<std::string>& parts, std::string_view separator = ", ")
{
    std::string out;
    for (const auto& p : parts) {
        if (!out.empty() && !p.empty())
            out += separator;
        out += p;
    }
    return out;
}

} // namespace rl
