#pragma once
// Values kept once per run however often the logs repeat them. Every rank of a job prints the same
// settings, the same version forms and the same communicator ids: ten thousand ranks' worth is a
// few thousand distinct values, and keeping one copy each (and a pointer per use) is what lets a
// bundle of many small files fit its memory bound.

#include <array>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace rl
{

// `Traits` says how to look at a value: `View` (what a lookup is given: the value itself, or a
// cheaper view of it), `view(x)`, `hash(view)`, `equal(view, kept)` and `make(x)`, which builds the
// kept copy the first time. Any thread may intern; what intern() returns is valid, and never
// changes, for as long as the pool lives.
template <class T, class Traits> class InternPool
{
public:
    template <class V> const T* intern(V&& value)
    {
        // Typed as the traits' View: `auto` would drop a reference and copy the value.
        const typename Traits::View view = Traits::view(value);
        const std::size_t h = Traits::hash(view);
        // Sharded by hash, so that the scan's threads seldom wait for each other.
        Shard& shard = m_shards[(h >> 7) % m_shards.size()];
        std::lock_guard<std::mutex> lock(shard.mutex);
        for (auto [at, end] = shard.index.equal_range(h); at != end; ++at)
            if (Traits::equal(view, *at->second))
                return at->second;
        const T* kept = &shard.values.emplace_back(Traits::make(std::forward<V>(value)));
        shard.index.emplace(h, kept);
        return kept;
    }
    std::size_t size() const
    {
        std::size_t n = 0;
        for (const auto& shard : m_shards) {
            std::lock_guard<std::mutex> lock(shard.mutex);
            n += shard.values.size();
        }
        return n;
    }

private:
    struct Shard {
        mutable std::mutex mutex;
        std::unordered_multimap<std::size_t, const T*> index;
        std::deque<T> values; // stable addresses
    };
    std::array<Shard, 16> m_shards;
};

struct StringInternTraits {
    using View = std::string_view;
    static std::string_view view(std::string_view s) { return s; }
    static std::size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
    static bool equal(std::string_view s, const std::string& kept) { return s == kept; }
    static std::string make(std::string_view s) { return std::string(s); }
};

// Strings, looked up by a view: a repeated one costs no allocation.
using StringPool = InternPool<std::string, StringInternTraits>;

} // namespace rl
