// Fuzz target: every line of the input through the scanner's matchers as the analysis runs them
// (the hand-written matchers of the built-ins every rank prints, patterns looked for from their
// leading literal) and through the plain regexes of the same candidate patterns. Aborts when the
// two give different hits or captures: the shortcuts must be exactly the regexes, on any bytes
// (tst_scanner checks them on the forms the logs hold).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/scanner.h"
#include "shipped.h"

namespace
{

struct Scanners {
    std::unique_ptr<rl::Scanner> fast;
    std::unique_ptr<rl::Scanner> plain;
};

const Scanners& scanners()
{
    static const Scanners s = [] {
        const auto enc = rl::fuzz::shippedEncyclopedia();
        Scanners out{std::make_unique<rl::Scanner>(*enc), std::make_unique<rl::Scanner>(*enc)};
        out.plain->setHandMatched(false);
        return out;
    }();
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const Scanners& s = scanners();
    std::string_view all(reinterpret_cast<const char*>(data), size);
    std::vector<rl::ScanHit> fast, plain;
    while (!all.empty()) {
        const std::size_t nl = all.find('\n');
        const std::string_view line = all.substr(0, nl);
        all = nl == std::string_view::npos ? std::string_view{} : all.substr(nl + 1);
        fast.clear();
        plain.clear();
        s.fast->matchLine(line, 0, fast);
        s.plain->matchLine(line, 0, plain);
        if (fast.size() != plain.size())
            std::abort();
        for (std::size_t i = 0; i < fast.size(); ++i)
            if (fast[i].pattern != plain[i].pattern || fast[i].captures != plain[i].captures)
                std::abort();
    }
    return 0;
}
