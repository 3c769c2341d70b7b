// Fuzz target: one encyclopedia entry from untrusted JSON (parseEntry compiles its fingerprints and
// checks its samples), then the fingerprint compiler alone on the raw input as a pattern.
#include <cstddef>
#include <cstdint>
#include <string>

#include "encyclopedia/encyclopedia.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string text(reinterpret_cast<const char*>(data), size);
    (void)rl::parseEntry(text, "fuzz.json");
    if (size < 512)
        (void)rl::compileFingerprint(text);
    return 0;
}
