#include "util/sigbus_guard.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace rl::sigbus
{

namespace
{

// Fixed storage so the handler reads plain atomics and never allocates or locks. 64 Ki slots cover
// more mapped files than the kernel's default map count (vm.max_map_count = 65530) allows anyway.
constexpr std::size_t kSlots = std::size_t{1} << 16;

struct Slot {
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
    std::atomic<bool> faulted{false};
};

Slot g_slots[kSlots];
std::atomic<std::size_t> g_used{0}; // slots [0, g_used) may be live
std::uintptr_t g_pageSize = 4096;
struct sigaction g_previous {
};

std::mutex g_mutex; // guards g_free and slot hand-out, never taken in the handler
std::vector<std::size_t> g_free;

void onSigbus(int, siginfo_t* info, void*)
{
    const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
    const std::size_t used = g_used.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < used; ++i) {
        const std::uintptr_t b = g_slots[i].begin.load(std::memory_order_acquire);
        const std::uintptr_t e = g_slots[i].end.load(std::memory_order_acquire);
        if (b == 0 || addr < b || addr >= e)
            continue;
        // Zero pages from the faulting page to the end of the mapping: one fault per file, and
        // munmap of the whole range later still works.
        const std::uintptr_t page = addr & ~(g_pageSize - 1);
        void* p = ::mmap(reinterpret_cast<void*>(page), e - page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (p != MAP_FAILED) {
            g_slots[i].faulted.store(true, std::memory_order_release);
            return; // the access is retried and now reads zeros
        }
        break;
    }
    // Not one of ours: give the signal back to whoever had it; returning retries the access, which
    // faults again under the previous disposition (by default: the process dies as it would have).
    ::sigaction(SIGBUS, &g_previous, nullptr);
}

void install()
{
    static std::once_flag once;
    std::call_once(once, [] {
        g_pageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        struct sigaction sa {
        };
        sa.sa_sigaction = onSigbus;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGBUS, &sa, &g_previous);
    });
}

} // namespace

std::optional<std::size_t> guard(const void* begin, std::size_t length)
{
    install();
    std::lock_guard<std::mutex> lock(g_mutex);
    std::size_t slot;
    if (!g_free.empty()) {
        slot = g_free.back();
        g_free.pop_back();
    } else if (g_used.load() < kSlots) {
        slot = g_used.load();
    } else {
        return std::nullopt;
    }
    const auto b = reinterpret_cast<std::uintptr_t>(begin);
    g_slots[slot].faulted.store(false);
    g_slots[slot].end.store(b + length, std::memory_order_release);
    g_slots[slot].begin.store(b, std::memory_order_release);
    if (slot == g_used.load())
        g_used.store(slot + 1, std::memory_order_release);
    return slot;
}

void release(std::size_t slot)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_slots[slot].begin.store(0, std::memory_order_release);
    g_slots[slot].end.store(0, std::memory_order_release);
    g_free.push_back(slot);
}

bool faulted(std::size_t slot)
{
    return g_slots[slot].faulted.load(std::memory_order_acquire);
}

} // namespace rl::sigbus
