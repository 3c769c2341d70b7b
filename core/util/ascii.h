#pragma once
// Character classes for the forms read by hand (NCCL's prefixes, Init lines, NCCL_* settings):
// ASCII only and inline, since <cctype>'s are a call into the C library's locale tables on every
// character and log prefixes are ASCII.

#include <cstdint>
#include <cstring>
#include <string_view>

namespace rl
{

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
inline bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline bool isAlpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool isAlnum(char c)
{
    return isAlpha(c) || isDigit(c);
}
// RE2's \w: [0-9A-Za-z_].
inline bool isWord(char c)
{
    return isAlnum(c) || c == '_';
}
// RE2's \s: [\t\n\f\r ] (no \v).
inline bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
// The end of the run of characters `is` accepts that starts at `p` (p itself when none does).
template <class Is> std::size_t runEnd(std::string_view s, std::size_t p, Is is)
{
    while (p < s.size() && is(s[p]))
        ++p;
    return p;
}

// ASCII without a line break: text where a form read by hand gives what its regex gives (the
// regexes read UTF-8 characters where the hand-written readers read bytes). Asked of every Init
// and setting line (a few hundred bytes each, tens of thousands of them on a large job): eight
// bytes at a time.
inline bool isPlainAscii(std::string_view s)
{
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t high = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        // A byte of `nl` is zero exactly where `w` holds '\n'; (v - ones) & ~v & high is non-zero
        // exactly when some byte of v is zero.
        const std::uint64_t nl = w ^ (ones * static_cast<std::uint64_t>('\n'));
        if ((w & high) != 0 || ((nl - ones) & ~nl & high) != 0)
            return false;
    }
    for (; i < s.size(); ++i)
        if (static_cast<unsigned char>(s[i]) >= 0x80 || s[i] == '\n')
            return false;
    return true;
}

} // namespace rl
