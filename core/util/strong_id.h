#pragma once
// Ids and positions get their own types so a source index can never be passed where a process
// index or a line number is expected.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace rl
{

template <typename Tag, typename Rep = std::uint32_t> struct StrongId {
    static constexpr Rep invalidValue = std::numeric_limits<Rep>::max();
    Rep value = invalidValue;

    constexpr StrongId() = default;
    constexpr explicit StrongId(Rep v) : value(v) {}
    constexpr bool valid() const { return value != invalidValue; }
    constexpr auto operator<=>(const StrongId&) const = default;
};

struct SourceTag;
struct ProcessTag;
using SourceId = StrongId<SourceTag>;
using ProcessId = StrongId<ProcessTag>;

// A line inside one source; `line` is 0-based here and printed 1-based.
struct LineRef {
    SourceId source;
    std::uint32_t line = 0;
    constexpr auto operator<=>(const LineRef&) const = default;
};

} // namespace rl

template <typename Tag, typename Rep> struct std::hash<rl::StrongId<Tag, Rep>> {
    std::size_t operator()(const rl::StrongId<Tag, Rep>& id) const noexcept
    {
        return std::hash<Rep>{}(id.value);
    }
};
