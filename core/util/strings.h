#pragma once
// Small string helpers the report writers and the probe share.

#include <cstdint>
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

// "1,234,567"
inline std::string withThousands(std::uint64_t n)
{
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

// "1 byte", "1,234 bytes"
inline std::string byteCount(std::uint64_t n)
{
    return withThousands(n) + (n == 1 ? " byte" : " bytes");
}

} // namespace rl
