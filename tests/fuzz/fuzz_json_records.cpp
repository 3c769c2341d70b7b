// Fuzz target: jsonRecordsHead and jsonRecordsText on the input, as the reader gives them a file's
// head and its whole text. Where the head says no, the text is read as it is; where the text turns,
// every line it held that was no record is kept, so the result is never empty for a text that is not.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "bundle/json_records.h"
#include "util/text_kind.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)rl::jsonRecordsHead(text);
    if (auto lines = rl::jsonRecordsText(text)) {
        if (lines->empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos)
            std::abort();
    }
    return 0;
}
