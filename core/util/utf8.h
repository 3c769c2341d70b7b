#pragma once
// The UTF-8 decoder steps the report writers share: log text may be any bytes, and every writer
// decides for itself what to do with a sequence that is not valid.

#include <cstddef>
#include <string_view>

namespace rl
{

struct Utf8Sequence {
    std::size_t length = 0; // as the lead byte announces it; 0 for a byte that cannot lead
    bool valid = false;     // the whole sequence is there and its continuation bytes are right
};

inline Utf8Sequence utf8SequenceAt(std::string_view s, std::size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    Utf8Sequence q;
    q.length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    q.valid = q.length > 0 && i + q.length <= s.size();
    for (std::size_t k = 1; q.valid && k < q.length; ++k)
        q.valid = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
    return q;
}

// The length of the well-formed sequence that a byte of 0x80 or more starts at s[i], by the byte
// sequences of Unicode's table 3-7 (no overlong forms, surrogates or code points past U+10FFFF:
// what nlohmann's decoder accepts), or 0. Stricter than utf8SequenceAt, which checks only the
// continuation bytes' form.
inline std::size_t wellFormedUtf8At(std::string_view s, std::size_t i)
{
    auto byteAt = [&s](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    auto inRange = [&](std::size_t k, unsigned char lo, unsigned char hi) {
        return k < s.size() && byteAt(k) >= lo && byteAt(k) <= hi;
    };
    const unsigned char c = byteAt(i);
    if (c >= 0xC2 && c <= 0xDF)
        return inRange(i + 1, 0x80, 0xBF) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return inRange(i + 1, lo, hi) && inRange(i + 2, 0x80, 0xBF) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return inRange(i + 1, lo, hi) && inRange(i + 2, 0x80, 0xBF) && inRange(i + 3, 0x80, 0xBF) ? 4 : 0;
    }
    return 0;
}

} // namespace rl
