#pragma once
// The named submatches of one line, packed into one string. A bundle of 10,000 ranks keeps a few
// hundred thousand hits (Init lines, addresses, settings, symptoms), and a vector of (name, value)
// string pairs cost each of them an allocation of 64 bytes a pair; packed, most fit in the
// string's own inline buffer or take one small allocation.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace rl
{

class Captures
{
public:
    // Names are the regex's group names (short identifiers); values are any bytes, NUL included.
    void add(std::string_view name, std::string_view value)
    {
        const auto n = static_cast<unsigned char>(std::min<std::size_t>(name.size(), 255));
        const auto v = static_cast<std::uint32_t>(value.size());
        m_packed += static_cast<char>(n);
        m_packed.append(name.data(), n);
        char len[4];
        std::memcpy(len, &v, 4);
        m_packed.append(len, 4);
        m_packed.append(value.data(), v);
    }
    // What add(name, value) takes, for reserving the whole set before adding it.
    static std::size_t packedSize(std::string_view name, std::string_view value)
    {
        return 1 + std::min<std::size_t>(name.size(), 255) + 4 + value.size();
    }
    void reserve(std::size_t bytes) { m_packed.reserve(bytes); }
    void clear() { m_packed.clear(); }
    bool empty() const { return m_packed.empty(); }
    std::size_t size() const
    {
        std::size_t n = 0;
        forEach([&n](std::string_view, std::string_view) { ++n; });
        return n;
    }
    // The value of `name`, empty when the group did not take part in the match.
    std::string_view get(std::string_view name) const
    {
        std::string_view found;
        forEach([&](std::string_view k, std::string_view v) {
            if (found.data() == nullptr && k == name)
                found = v;
        });
        return found.data() ? found : std::string_view{};
    }
    bool has(std::string_view name) const
    {
        bool found = false;
        forEach([&](std::string_view k, std::string_view) { found = found || k == name; });
        return found;
    }
    // (name, value) in the order they were added (the regex's groups by name).
    template <class F> void forEach(F&& f) const
    {
        const char* p = m_packed.data();
        const char* end = p + m_packed.size();
        while (p < end) {
            const auto n = static_cast<unsigned char>(*p++);
            const std::string_view name(p, n);
            p += n;
            std::uint32_t v = 0;
            std::memcpy(&v, p, 4);
            p += 4;
            f(name, std::string_view(p, v));
            p += v;
        }
    }
    // Gives back growth slack: a hit is kept long after it is filled.
    void shrink() { m_packed.shrink_to_fit(); }
    bool operator==(const Captures& o) const = default;

private:
    std::string m_packed; // per capture: name length (1 byte), name, value length (4 bytes), value
};

} // namespace rl
