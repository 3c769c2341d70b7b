#pragma once
// Small string helpers the report writers, the engine and the probe share.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rl
{

// Where the last run of ASCII digits in `s` is, as [first, second): "rank_12.log" -> {5, 7}; first ==
// second where `s` holds no digit.
inline std::pair<std::size_t, std::size_t> lastDigitRun(std::string_view s)
{
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t end = s.size();
    while (end > 0 && !digit(s[end - 1]))
        --end;
    std::size_t begin = end;
    while (begin > 0 && digit(s[begin - 1]))
        --begin;
    return {begin, end};
}

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

// NCCL's busId (0x3b000) as the kernel and nvidia-smi write it: "0000:3b:00.0" (domain, bus,
// device, function). By hand: ten thousand ranks each have one, and snprintf costs a thousand
// instructions a call.
inline std::string pciBusId(std::uint64_t bus)
{
    static constexpr char kHex[] = "0123456789abcdef";
    char out[32];
    char* p = out + sizeof out;
    auto put = [&p](std::uint64_t v, int digits) {
        for (; digits > 0 || v > 0; --digits, v >>= 4)
            *--p = kHex[v & 0xf];
    };
    put(bus & 0xf, 1);
    *--p = '.';
    put(bus >> 4 & 0xff, 2);
    *--p = ':';
    put(bus >> 12 & 0xff, 2);
    *--p = ':';
    put(bus >> 20, 4);
    return std::string(p, static_cast<std::size_t>(out + sizeof out - p));
}

} // namespace rl
