// Fuzz target: one encyclopedia entry from untrusted JSON (parseEntry compiles its fingerprints and
// checks its samples), then the fingerprint compiler alone on the raw input as a pattern. Input
// of the form "pattern\nline" also checks requiredLiterals, which the scanner trusts to skip RE2:
// when the pattern matches the line, the line holds one text of each set (aborts otherwise).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <re2/re2.h>
#include <string>

#include "encyclopedia/encyclopedia.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string text(reinterpret_cast<const char*>(data), size);
    (void)rl::parseEntry(text, "fuzz.json");
    if (size < 512)
        (void)rl::compileFingerprint(text);
    const std::size_t nl = text.find('\n');
    if (nl == std::string::npos || nl >= 512)
        return 0;
    const std::string pattern = text.substr(0, nl), line = text.substr(nl + 1);
    RE2::Options opts;
    opts.set_log_errors(false);
    const RE2 re(pattern, opts);
    if (!re.ok() || !RE2::PartialMatch(line, re))
        return 0;
    for (const auto& anyOf : rl::requiredLiterals(pattern))
        if (std::none_of(anyOf.begin(), anyOf.end(),
                         [&line](const std::string& t) { return line.find(t) != std::string::npos; }))
            std::abort();
    return 0;
}
