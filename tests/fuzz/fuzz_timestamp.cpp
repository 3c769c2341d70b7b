// Fuzz target: parseTimestampAt on the input (the first two bytes choose the default year), and
// civilToUnixSeconds on fields read from it. A stamp never claims more characters than it was given.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "parse/line_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const int year = 1900 + (data[0] | (data[1] << 8)) % 400;
    std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

    std::size_t consumed = 0;
    rl::Level level = rl::Level::None;
    if (auto t = rl::parseTimestampAt(text, year, &consumed, &level)) {
        if (consumed > text.size() || t->resolutionUs <= 0)
            std::abort();
    }
    if (size >= 14) {
        auto field = [&](int i) { return static_cast<int>(static_cast<std::int8_t>(data[2 + i])); };
        rl::civilToUnixSeconds(1900 + (data[0] | (data[1] << 8)) % 8000, field(0), field(1), field(2),
                               field(3), field(4));
    }
    return 0;
}
