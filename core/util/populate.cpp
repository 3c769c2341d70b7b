#include "util/populate.h"

#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace rl
{

namespace
{
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23; // glibc headers older than the kernel: the kernel's value
#endif
} // namespace

void populate(const void* p, std::size_t bytes)
{
    constexpr std::size_t kWorthIt = std::size_t{64} << 10;
    if (!p || bytes < kWorthIt)
        return;
    static const auto pageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(p);
    // Whole pages only: a partial first or last page may hold another allocation's bytes, which
    // populating would not harm, but the page is then one the caller did not ask for.
    const std::uintptr_t from = (begin + pageSize - 1) & ~(pageSize - 1);
    const std::uintptr_t to = (begin + bytes) & ~(pageSize - 1);
    if (to > from)
        ::madvise(reinterpret_cast<void*>(from), to - from, kPopulateWrite); // failure: faults as before
}

} // namespace rl
