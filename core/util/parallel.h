#pragma once
// The pipeline's one way of using every core: indices handed out one at a time from a shared
// counter, so a few big sources and thousands of small ones balance alike.

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace rl
{

// What every worker thread of the pipeline runs first (parallelFor's, the bundle reader's): the
// headless command line sets how their memory is laid out (app/main.cpp). Set before any
// analysis starts; null: nothing.
inline void (*g_workerThreadStart)() = nullptr;
inline void setWorkerThreadStart(void (*start)())
{
    g_workerThreadStart = start;
}
inline void workerThreadStarted()
{
    if (g_workerThreadStart)
        g_workerThreadStart();
}

// What the analysis calls when the scan is done and the stages that mostly run on one core begin
// (the headless command line changes how its heap grows then, app/main.cpp). Set before any
// analysis starts; null: nothing.
inline void (*g_scanFinished)() = nullptr;
inline void setScanFinished(void (*finished)())
{
    g_scanFinished = finished;
}
inline void scanFinished()
{
    if (g_scanFinished)
        g_scanFinished();
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
        pool.emplace_back([&work] {
            workerThreadStarted();
            work();
        });
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace rl
