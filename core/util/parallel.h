#pragma once
// The pipeline's one way of using every core: indices handed out one at a time from a shared
// counter, so a few big sources and thousands of small ones balance alike.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace rl
{

// `threads` when given, else every core the machine has (at least one).
inline unsigned threadsOrCores(unsigned threads = 0)
{
    return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

// fn(i) for every i in [0, n), on up to `threads` threads (the caller's among them). fn must be
// safe to run concurrently for different i.
template <class Fn> void parallelFor(std::size_t n, unsigned threads, const Fn& fn)
{
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < n;)
            fn(i);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads && t < n; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace rl
