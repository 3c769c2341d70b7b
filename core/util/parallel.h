#pragma once
// The pipeline's one way of using every core: indices handed out one at a time from a shared
// counter, so a few big sources and thousands of small ones balance alike.

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace rl
{

// A moment of the pipeline where the headless command line changes how its memory is laid out
// (app/main.cpp): it sets the hook before any analysis starts; unset, nothing happens.
class MemoryHook
{
public:
    void set(void (*fn)()) { m_fn = fn; }
    void operator()() const
    {
        if (m_fn)
            m_fn();
    }

private:
    void (*m_fn)() = nullptr;
};

// What every worker thread of the pipeline runs first (parallelFor's, the bundle reader's).
inline MemoryHook workerThreadStarted;
// When the scan is done and the stages that mostly run on one core begin.
inline MemoryHook scanFinished;

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
        pool.emplace_back([&work] {
            workerThreadStarted();
            work();
        });
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace rl
