#pragma once
// Character classes for the forms read by hand (NCCL's prefixes, Init lines, NCCL_* settings):
// ASCII only and inline, since <cctype>'s are a call into the C library's locale tables on every
// character and log prefixes are ASCII.

#include <algorithm>
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
// The end of the run of characters `is` accepts that starts at `p` (p itself when none does).
template <class Is> std::size_t runEnd(std::string_view s, std::size_t p, Is is)
{
    while (p < s.size() && is(s[p]))
        ++p;
    return p;
}

// ASCII without a line break: text where a form read by hand gives what its regex gives (the
// regexes read UTF-8 characters where the hand-written readers read bytes).
inline bool isPlainAscii(std::string_view s)
{
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80 && c != '\n'; });
}

} // namespace rl
