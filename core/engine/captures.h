#pragma once
// The named submatches of one line, packed into one buffer. A bundle of 10,000 ranks keeps a few
// hundred thousand hits (Init lines, addresses, settings, symptoms), and a vector of (name, value)
// string pairs cost each of them an allocation of 64 bytes a pair; packed, they take one allocation
// of their exact size, and a hit without captures (a context line) none. Sixteen bytes where empty,
// half of a std::string: hits, events and environment hits all carry one.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

namespace rl
{

class Captures
{
public:
    Captures() = default;
    Captures(const Captures& o) { *this = o; }
    Captures& operator=(const Captures& o)
    {
        if (this != &o) {
            m_data.reset(o.m_size ? new char[o.m_size] : nullptr);
            if (o.m_size)
                std::memcpy(m_data.get(), o.m_data.get(), o.m_size);
            m_size = m_capacity = o.m_size;
        }
        return *this;
    }
    Captures(Captures&& o) noexcept
        : m_data(std::move(o.m_data)), m_size(std::exchange(o.m_size, 0)),
          m_capacity(std::exchange(o.m_capacity, 0))
    {
    }
    Captures& operator=(Captures&& o) noexcept
    {
        m_data = std::move(o.m_data);
        m_size = std::exchange(o.m_size, 0);
        m_capacity = std::exchange(o.m_capacity, 0);
        return *this;
    }

    // The same as copying `o`, into the room this one has when it is enough (a scratch set
    // refilled for every line, which copying would allocate anew each time).
    void assign(const Captures& o)
    {
        if (this == &o)
            return;
        m_size = 0; // nothing to keep if it has to grow
        if (o.m_size > m_capacity)
            regrow(o.m_size);
        if (o.m_size)
            std::memcpy(m_data.get(), o.m_data.get(), o.m_size);
        m_size = o.m_size;
    }

    // What add(name, value) takes, for reserving the whole set before adding it.
    static std::size_t packedSize(std::string_view name, std::string_view value)
    {
        return 1 + std::min<std::size_t>(name.size(), 255) + 4 + value.size();
    }
    void reserve(std::size_t bytes)
    {
        if (bytes > m_capacity)
            regrow(bytes);
    }
    // Names are the regex's group names (short identifiers); values are any bytes, NUL included.
    void add(std::string_view name, std::string_view value)
    {
        const std::size_t need = m_size + packedSize(name, value);
        if (need > m_capacity)
            regrow(std::max<std::size_t>(need, std::size_t{m_capacity} * 2));
        char* p = m_data.get() + m_size;
        const auto n = static_cast<unsigned char>(std::min<std::size_t>(name.size(), 255));
        *p++ = static_cast<char>(n);
        std::memcpy(p, name.data(), n);
        p += n;
        const auto v = static_cast<std::uint32_t>(value.size());
        std::memcpy(p, &v, 4);
        p += 4;
        if (v)
            std::memcpy(p, value.data(), v);
        m_size = static_cast<std::uint32_t>(need);
    }
    void clear() { m_size = 0; }
    bool empty() const { return m_size == 0; }
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
        bool seen = false;
        forEach([&](std::string_view k, std::string_view v) {
            if (!seen && k == name) {
                found = v;
                seen = true;
            }
        });
        return found;
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
        const char* p = m_data.get();
        const char* end = p + m_size;
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
    void shrink()
    {
        if (m_capacity > m_size)
            regrow(m_size);
    }
    bool operator==(const Captures& o) const
    {
        return m_size == o.m_size && (m_size == 0 || std::memcmp(m_data.get(), o.m_data.get(), m_size) == 0);
    }

private:
    void regrow(std::size_t capacity)
    {
        std::unique_ptr<char[]> grown(capacity ? new char[capacity] : nullptr);
        if (m_size)
            std::memcpy(grown.get(), m_data.get(), m_size);
        m_data = std::move(grown);
        m_capacity = static_cast<std::uint32_t>(capacity);
    }

    // Per capture: name length (1 byte), name, value length (4 bytes), value.
    std::unique_ptr<char[]> m_data;
    std::uint32_t m_size = 0;
    std::uint32_t m_capacity = 0;
};

} // namespace rl
