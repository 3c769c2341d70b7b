// The `rankline` binary. The headless commands (diagnose, probe, encyclopedia) run here without Qt:
// mapping Qt's libraries costs about 13 MiB of resident memory and 30 ms before the first line is
// read, more than a small bundle's whole analysis, on the login nodes and in the scripts where
// these commands run. The window and `report` (whose PDF is painted with QPainter) live in the Qt
// module beside it, loaded only for them: one program for users, `rankline`, either way.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <malloc.h>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

#include "analysis.h"
#include "cli/cli.h"
#include "gui_main.h"
#include "util/parallel.h"

namespace
{

// A bundle of thousands of small logs is read with a descriptor held per file, within a share of
// the soft limit (util/mapped_file.h, SmallFile; mapped beyond it). Desktop sessions often set the
// soft limit to 1024 under a hard limit hundreds of times higher: raise it, as a program that
// never uses select() may.
void raiseDescriptorLimit()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
        return;
    rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, rlim_t{1} << 20);
    ::setrlimit(RLIMIT_NOFILE, &rl);
}

// The heap range adviseHugePagesForHeap reserves; the trim threshold stays above it.
constexpr int kHugeHeapRange = 256 << 20;

// A headless command allocates and frees arrays of hundreds of kilobytes by the thousand (a piece
// of a large file, a few thousand sources' records) and exits when done. By default malloc maps
// each such array afresh and unmaps it when freed (its threshold only climbs once one has been
// freed) and gives the top of its heap back beyond 128 KiB, so the next one faults its pages in
// again: on virtual machines where a page fault costs ten microseconds or more that was a few
// percent of diagnosing 10,000 small files. Kept and reused instead; the window, which lives on
// after an analysis, keeps the defaults and gives memory back.
void keepFreedMemoryForReuse()
{
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 2 * kHugeHeapRange);
}

// Gives `advice` (MADV_HUGEPAGE or MADV_NOHUGEPAGE) to the whole 2 MiB pages inside [lo, hi);
// false when there are none or the kernel refuses.
bool adviseWholeHugePages(std::uintptr_t lo, std::uintptr_t hi, int advice = MADV_HUGEPAGE)
{
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const std::uintptr_t from = (lo + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t to = hi & ~(kHuge - 1);
    return from < to && ::madvise(reinterpret_cast<void*>(from), to - from, advice) == 0;
}

// The main heap's range adviseHugePagesForHeap advised: [lo, hi). Set before either hook is.
std::uintptr_t g_hugeHeapLo = 0, g_hugeHeapHi = 0;

// The same virtual machines make every first touch of a fresh page expensive (1.5 to 14 us per
// 4 KiB page here, by the host's load, where a loop over fresh memory measures it), and the main
// thread's heap holds most of a diagnosis's memory: 10,000 small files spent a sixth of their time
// faulting it in 4 KiB at a time. So the heap is grown once by a range it then fills from the
// bottom (nothing is resident until touched), and that range asks for transparent huge pages, which
// the kernel's default "madvise" mode gives to regions that ask: a 2 MiB page per fault. It costs
// at most one partly used huge page at the top of the heap in resident memory. Afterwards the heap
// grows by the default padding again (a larger one could fail under strict overcommit, where this
// first one merely goes without), and the range is never trimmed (keepFreedMemoryForReuse keeps the
// trim threshold above it): growth beyond it, on a bundle of gigabytes, simply gets ordinary pages.
// Where malloc does not use the program break (a sanitizer's allocator), nothing is advised.
bool adviseHugePagesForHeap()
{
    constexpr int kRange = kHugeHeapRange;
    mallopt(M_TOP_PAD, kRange);
    // Larger than what the heap has free, smaller than the mmap threshold: the heap grows now.
    void* block = std::malloc(std::size_t{1} << 20);
    mallopt(M_TOP_PAD, 128 << 10); // malloc's default
    if (!block)
        return false;
    const auto lo = reinterpret_cast<std::uintptr_t>(block);
    const auto hi = reinterpret_cast<std::uintptr_t>(::sbrk(0));
    std::free(block);
    if (lo >= hi || hi - lo > 2 * std::uintptr_t{kRange} || !adviseWholeHugePages(lo, hi))
        return false;
    g_hugeHeapLo = lo;
    g_hugeHeapHi = hi;
    return true;
}

// Huge pages pay where many pages are faulted at once on every core (the scan), but only while the
// kernel has recently freed ones at hand. This VM's balloon reports free 2 MiB blocks back to the
// host after a couple of seconds (virtio-balloon free page reporting, page_reporting_order 9), and
// a reported block costs the host's work to back again when it is faulted: about 5 ms per 2 MiB
// page, against under 1 ms for 512 ordinary pages. The stages after the scan run mostly on one core
// and grow the main heap by some 12 MiB on 10,000 small files (processes, events, hits): in huge
// pages that was a third of their time (identity and events 65 ms, 41 ms in ordinary pages; the
// scan itself was not slower). So once the scan is done, the rest of the range gets ordinary
// pages; huge pages already faulted stay as they are.
void stopHugePagesForHeap()
{
    adviseWholeHugePages(g_hugeHeapLo, g_hugeHeapHi, MADV_NOHUGEPAGE);
}

// Worker threads allocate from malloc arenas of their own, which grow a 4 KiB page at a time: the
// scan's worker on 10,000 small files faulted in about 3,000 of them. So each worker's first call
// grows its thread's arena by a block, allocated and freed at once, whose whole huge pages are
// advised MADV_HUGEPAGE; the arena then fills them from the bottom. The block is as large as what
// a worker of any bundle of tens of megabytes fills anyway (a larger one left a partly used huge page
// at the top of the arena: 1.5 MiB more resident on the small files); growth beyond it gets
// ordinary pages. Once per arena: threads that start later reuse the arenas of those that ended.
void adviseHugePagesForWorkerArena()
{
    constexpr std::size_t kBlock = std::size_t{8} << 20;
    // glibc aligns each arena's heap to its maximum size, 64 MiB: the aligned address names it.
    constexpr std::uintptr_t kArenaHeap = std::uintptr_t{64} << 20;
    static std::array<std::atomic<std::uintptr_t>, 16> advised{};
    // Where malloc puts a chunk of `bytes` for this thread (given back at once); 0 where it cannot.
    auto chunkAt = [](std::size_t bytes) {
        void* chunk = std::malloc(bytes);
        const auto at = reinterpret_cast<std::uintptr_t>(chunk);
        std::free(chunk);
        return at;
    };
    // The main thread's heap is advised already.
    auto onMainHeap = [](std::uintptr_t at) { return at < reinterpret_cast<std::uintptr_t>(::sbrk(0)); };
    // Most threads start on an arena advised already (every stage after the scan starts its own):
    // a small chunk names it without the large request, which first consolidates every free chunk
    // of the arena (a few milliseconds on each arena the scan of ten thousand files left behind).
    const std::uintptr_t probe = chunkAt(1);
    if (probe == 0 || onMainHeap(probe))
        return;
    for (const auto& slot : advised)
        if (slot.load() == (probe & ~(kArenaHeap - 1)))
            return;
    const std::uintptr_t at = chunkAt(kBlock);
    if (at == 0 || onMainHeap(at))
        return;
    const std::uintptr_t arena = at & ~(kArenaHeap - 1);
    for (auto& slot : advised) {
        std::uintptr_t seen = 0;
        if (slot.compare_exchange_strong(seen, arena)) {
            adviseWholeHugePages(at, at + kBlock);
            return;
        }
        if (seen == arena)
            return;
    }
}

// The module sits beside the binary in a build tree, and in rankline's library folder once
// installed (packaging/CMakeLists.txt).
int runQtModule(int argc, char** argv)
{
    std::string dir = rl::executableDir();
    if (dir.empty())
        dir = ".";
    const std::vector<std::string> candidates = {dir + "/" RANKLINE_GUI_MODULE,
                                                 dir + "/" RANKLINE_GUI_MODULE_INSTALLED};
    std::string problem;
    for (const auto& path : candidates) {
        if (::access(path.c_str(), F_OK) != 0)
            continue;
        void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!module) {
            problem = path + " did not load: " + ::dlerror();
            break;
        }
        using Entry = int (*)(int, char**);
        auto entry = reinterpret_cast<Entry>(::dlsym(module, RANKLINE_GUI_ENTRY));
        if (!entry) {
            problem = path + " is not rankline's Qt module (no " RANKLINE_GUI_ENTRY ")";
            break;
        }
        return entry(argc, argv);
    }
    if (problem.empty())
        problem = "it is not installed (looked for " + candidates[0] + " and " + candidates[1] + ")";
    std::fprintf(stderr,
                 "rankline: the window and `rankline report` need rankline's Qt module, and %s.\n"
                 "The headless commands (diagnose, probe, encyclopedia) work without it; reinstall "
                 "rankline (or build the rankline_gui target) for the rest.\n",
                 problem.c_str());
    return 3;
}

} // namespace

int main(int argc, char** argv)
{
    raiseDescriptorLimit();
    const std::vector<std::string> args(argv, argv + argc);
    if (rl::cli::isHeadless(args)) {
        keepFreedMemoryForReuse();
        if (adviseHugePagesForHeap()) {
            rl::workerThreadStarted.set(adviseHugePagesForWorkerArena);
            rl::scanFinished.set(stopHugePagesForHeap);
        }
        return rl::cli::run(args);
    }
    return runQtModule(argc, argv);
}
