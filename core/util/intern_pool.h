#pragma once
// Values kept once per run however often the logs repeat them. Every rank of a job prints the same
// settings, the same version forms and the same communicator ids: ten thousand ranks' worth is a
// few thousand distinct values, and keeping one copy each (and a pointer per use) is what lets a
// bundle of many small files fit its memory bound.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
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
        // This thread's recent answers first: ten thousand ranks intern the same few values, and
        // on two cores both scan threads taking the one shard's lock for each bounced its cache
        // line between them (a fifth of a microsecond a value). A slot names its pool by a number
        // no other pool gets, so a slot left by a pool since destroyed is never looked into.
        FrontSlot& slot = front()[h % kFrontSlots];
        if (slot.pool == m_id && slot.hash == h && Traits::equal(view, *slot.kept))
            return slot.kept;
        // Sharded by hash, so that the scan's threads seldom wait for each other.
        Shard& shard = m_shards[(h >> 7) % m_shards.size()];
        const T* kept = nullptr;
        {
            std::lock_guard<std::mutex> lock(shard.mutex);
            for (auto [at, end] = shard.index.equal_range(h); at != end && !kept; ++at)
                if (Traits::equal(view, *at->second))
                    kept = at->second;
            if (!kept) {
                kept = &shard.values.emplace_back(Traits::make(std::forward<V>(value)));
                shard.index.emplace(h, kept);
            }
        }
        slot = {m_id, h, kept};
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
    struct FrontSlot {
        std::uint64_t pool = 0; // 0: empty
        std::size_t hash = 0;
        const T* kept = nullptr;
    };
    static constexpr std::size_t kFrontSlots = 256;
    static std::array<FrontSlot, kFrontSlots>& front()
    {
        thread_local std::array<FrontSlot, kFrontSlots> recent{};
        return recent;
    }
    static std::uint64_t nextId()
    {
        static std::atomic<std::uint64_t> next{1};
        return next.fetch_add(1, std::memory_order_relaxed);
    }
    std::array<Shard, 16> m_shards;
    const std::uint64_t m_id = nextId();
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
