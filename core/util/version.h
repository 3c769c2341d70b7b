#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace rl
{

// A dotted three-part version such as NCCL's 2.18.3.
struct Version {
    int major = 0;
    int minor = 0;
    int patch = 0;

    auto operator<=>(const Version&) const = default;
    std::string toString() const;
    // Accepts "2.18.3", "2.18.3+cuda12.2", "2.18" (patch 0); nullopt for anything else.
    static std::optional<Version> parse(std::string_view text);
    // NCCL's version code: X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z from 2.9 on.
    static Version fromNcclCode(int code);
};

// An inclusive range [from, to].
struct VersionRange {
    Version from;
    Version to;
    bool contains(const Version& v) const { return from <= v && v <= to; }
    auto operator<=>(const VersionRange&) const = default;
    // Open ends are stored as 0.0.0 and 999.0.0, and "every patch of 2.28" as patch 999: said
    // in words, never as those numbers.
    bool openLow() const { return from == Version{0, 0, 0}; }
    bool openHigh() const { return to == Version{999, 0, 0}; }
    bool bounded() const { return !openLow() && !openHigh(); }
    std::string toString() const
    {
        auto show = [](const Version& v) {
            return v.patch == 999 ? std::to_string(v.major) + "." + std::to_string(v.minor) + ".x"
                                  : v.toString();
        };
        if (openLow() && openHigh())
            return "every release";
        if (openHigh())
            return show(from) + " and later";
        if (openLow())
            return "up to " + show(to);
        return from == to ? show(from) : show(from) + "–" + show(to);
    }
};

} // namespace rl
