#pragma once
// The one UTF-8 decoder step the report writers share: log text may be any bytes, and every
// writer decides for itself what to do with a sequence that is not valid.

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

} // namespace rl
