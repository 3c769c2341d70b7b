#include "util/mapped_file.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "util/sigbus_guard.h"
#include "util/text_kind.h"

namespace rl
{

namespace
{

// Small files (kSmallFileBytes) that are mapped go side by side in slabs (below) while few maps
// are live.
constexpr std::size_t kSmallFile = kSmallFileBytes;

// Small files are mapped too, so that a bundle of many small logs keeps its text out of the heap
// (a copy is heap memory until the end; a map's pages are given back by dropResident). Every map
// is one entry of the kernel's per-process map count (vm.max_map_count, 65530 by default), which
// the allocator, the libraries and the threads' stacks share and which fails mmap and malloc alike
// when it runs out: small files stop being mapped at half of it, at most 30,000, and are copied
// beyond that.
std::size_t smallFileMapLimit()
{
    static const std::size_t limit = [] {
        std::size_t max = 65530;
        if (std::FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
            unsigned long v = 0;
            if (std::fscanf(f, "%lu", &v) == 1 && v > 0)
                max = v;
            std::fclose(f);
        }
        return std::min<std::size_t>(30000, max / 2);
    }();
    return limit;
}

std::size_t pageSize()
{
    static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

// Small files' maps, side by side in address space reserved for them ("slabs"), so that their
// pages are given back many files at a time. One madvise per 16 KiB file flushed the TLB of every
// core running the scan each time: 10,000 small files spent 0.2 s doing that, a third of the
// scan. dropResident marks a small file's range; once the marked ranges add up to kFlushBytes
// they are given back with one madvise per slab over the span they cover. Pages of files between
// them that are still being read are given back too and simply fault in again: the maps are
// private and read-only, so giving pages back never loses data.
//
// A slab is reserved (PROT_NONE) as a whole and its files' maps stay in it until its last file
// closes, when it is unmapped and forgotten with its marks: the span given back only ever holds
// these files' maps and reserved space, never another mapping that took over a freed range.
class SmallMaps
{
public:
    static SmallMaps& instance()
    {
        static SmallMaps* maps = new SmallMaps; // never destroyed: files may close during exit
        return *maps;
    }

    // Maps `size` bytes of fd into a slab; nullptr where that is not possible (the caller maps
    // the file on its own).
    void* map(int fd, std::size_t size)
    {
        const std::size_t len = roundUp(size);
        char* at = nullptr;
        {
            // The range is claimed under the lock, and counted as a live map so that its slab
            // stays; the map itself is made outside it: two threads opening files would otherwise
            // take turns at the lock for every mmap.
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_maps >= smallFileMapLimit())
                return nullptr;
            if (m_slabs.empty() || m_slabs.back().used + len > kSlabBytes) {
                void* base = ::mmap(nullptr, kSlabBytes, PROT_NONE,
                                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
                if (base == MAP_FAILED)
                    return nullptr;
                m_slabs.push_back({static_cast<char*>(base)});
            }
            Slab& slab = m_slabs.back();
            at = slab.base + slab.used;
            slab.used += len;
            ++slab.live;
            ++slab.maps;
            ++m_maps;
        }
        void* p = ::mmap(at, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
        if (p != MAP_FAILED)
            return p;
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = slabOf(at);
        // A failed MAP_FIXED may have unmapped the range: reserve it again, or give up on the rest
        // of this slab if even that fails. Its range stays claimed either way, never mapped.
        if (!reserve(at, len)) {
            it->used = kSlabBytes;
            it->holed = true;
        }
        --it->maps;
        --m_maps;
        closeOneLocked(it);
        return nullptr;
    }

    // True when `p` was mapped by map(). Its range stays mapped until the slab's last file closes
    // and the whole slab is unmapped at once (one call instead of one per file when a bundle
    // closes); meanwhile its pages are given back with the next marks.
    bool unmap(const void* p, std::size_t size)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = slabOf(p);
        if (it == m_slabs.end())
            return false;
        if (!closeOneLocked(it))
            markLocked(it, p, size);
        return true;
    }

    // True when `p` is a small file's map (its pages are then given back soon, not now).
    bool drop(const void* p, std::size_t size)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = slabOf(p);
        if (it == m_slabs.end())
            return false;
        markLocked(it, p, size);
        return true;
    }

    // Gives back what is marked now, however little.
    void flush()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_pending > 0)
            flushLocked();
    }

private:
    static constexpr std::size_t kSlabBytes = std::size_t{64} << 20;
    static constexpr std::size_t kFlushBytes = std::size_t{8} << 20;

    struct Slab {
        char* base = nullptr;
        std::size_t used = 0;     // bytes handed out from base
        std::size_t live = 0;     // files mapped in it and still open
        std::size_t maps = 0;     // files mapped in it, open or closed: the maps it holds
        std::size_t pending = 0;  // bytes marked by drop() since the last flush
        const char* lo = nullptr; // the span the marks cover
        const char* hi = nullptr;
        bool holed = false; // a failed map left a range in it unreserved: its pages are kept
    };

    // One file of the slab fewer; the slab is unmapped and forgotten with its last. True when it was.
    bool closeOneLocked(std::vector<Slab>::iterator it)
    {
        if (--it->live > 0)
            return false;
        ::munmap(it->base, kSlabBytes);
        m_maps -= it->maps;
        m_pending -= it->pending;
        m_slabs.erase(it);
        return true;
    }

    void markLocked(std::vector<Slab>::iterator it, const void* p, std::size_t size)
    {
        const char* b = static_cast<const char*>(p);
        const char* e = b + roundUp(size);
        if (it->pending == 0) {
            it->lo = b;
            it->hi = e;
        } else {
            it->lo = std::min(it->lo, b);
            it->hi = std::max(it->hi, e);
        }
        it->pending += size;
        m_pending += size;
        if (m_pending >= kFlushBytes)
            flushLocked();
    }

    void flushLocked()
    {
        for (Slab& s : m_slabs) {
            if (s.pending > 0 && !s.holed)
                ::madvise(const_cast<char*>(s.lo), static_cast<std::size_t>(s.hi - s.lo), MADV_DONTNEED);
            s.pending = 0;
        }
        m_pending = 0;
    }

    static std::size_t roundUp(std::size_t n) { return (n + pageSize() - 1) & ~(pageSize() - 1); }
    static bool reserve(void* at, std::size_t len)
    {
        return ::mmap(at, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) !=
               MAP_FAILED;
    }
    std::vector<Slab>::iterator slabOf(const void* p)
    {
        const char* c = static_cast<const char*>(p);
        return std::find_if(m_slabs.begin(), m_slabs.end(),
                            [c](const Slab& s) { return c >= s.base && c < s.base + kSlabBytes; });
    }

    std::mutex m_mutex;
    std::vector<Slab> m_slabs;
    std::size_t m_maps = 0; // in every slab
    std::size_t m_pending = 0;
};

// Reads up to `size` bytes, those from `done` on; fewer when the file shrank meanwhile. -1 on a
// read error.
long long readInto(int fd, char* out, std::size_t size, std::size_t done = 0)
{
    while (done < size) {
        ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    return static_cast<long long>(done);
}

} // namespace

MappedFile::~MappedFile()
{
    reset();
}

MappedFile::MappedFile(MappedFile&& other) noexcept
{
    *this = std::move(other);
}

// What the other one owned (its map, its guard, its copy) is this one's now; it is left empty.
MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    if (this != &other) {
        reset();
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_mapped = std::exchange(other.m_mapped, false);
        m_shrank = other.m_shrank;
        m_guard = std::exchange(other.m_guard, std::nullopt);
        m_headBinary = other.m_headBinary;
        m_headRecords = other.m_headRecords;
        m_copy = std::move(other.m_copy);
        m_opened = other.m_opened;
    }
    return *this;
}

void MappedFile::reset()
{
    if (m_guard)
        sigbus::release(*m_guard);
    if (m_mapped && !SmallMaps::instance().unmap(m_data, m_size))
        ::munmap(const_cast<char*>(m_data), m_size);
    m_copy.reset();
    m_data = nullptr;
    m_size = 0;
    m_mapped = false;
    m_guard.reset();
    m_headBinary.reset();
    m_headRecords = false;
}

bool MappedFile::damaged() const
{
    return m_shrank || (m_guard && sigbus::faulted(*m_guard));
}

FileIdentity FileIdentity::of(const struct stat& st)
{
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
            static_cast<std::uint64_t>(st.st_size)};
}

FileChange changeSince(const std::string& path, const FileIdentity& opened)
{
    if (!opened.known())
        return {};
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0)
        // Refused (permissions changed, a stale network mount): nothing can be told, which is not
        // the same as gone.
        return errno == ENOENT || errno == ENOTDIR ? FileChange{FileChange::Kind::Gone, 0} : FileChange{};
    const FileIdentity now = FileIdentity::of(st);
    if (now.device != opened.device || now.inode != opened.inode)
        return {FileChange::Kind::Replaced, now.size};
    if (now.size > opened.size)
        return {FileChange::Kind::Grew, now.size};
    if (now.size < opened.size)
        return {FileChange::Kind::Shrank, now.size};
    return {};
}

std::uint64_t MappedFile::grownBy(const std::string& path) const
{
    const FileChange c = changeSince(path, m_opened);
    return c.kind == FileChange::Kind::Grew ? c.sizeNow - m_opened.size : 0;
}

void MappedFile::dropResident() const
{
    // Only a memory map can give its pages back; a copied (damaged or small) file keeps its buffer.
    if (m_data && m_mapped && !SmallMaps::instance().drop(m_data, m_size))
        ::madvise(const_cast<char*>(m_data), m_size, MADV_DONTNEED);
}

void MappedFile::flushDropped()
{
    SmallMaps::instance().flush();
}

void MappedFile::dropResident(std::uint64_t offset, std::uint64_t length) const
{
    // A small file's map is given back whole, with its slab's next marks.
    if (!m_data || !m_mapped || offset >= m_size || m_size < kSmallFile)
        return;
    const auto page = static_cast<std::uint64_t>(pageSize());
    const auto base = reinterpret_cast<std::uintptr_t>(m_data);
    const std::uint64_t end = std::min<std::uint64_t>(offset + length, m_size);
    // Whole pages only: the ones at either end also hold bytes of the neighbouring pieces.
    const std::uint64_t from = ((base + offset + page - 1) / page) * page;
    const std::uint64_t to = ((base + end) / page) * page;
    if (to > from)
        ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

namespace
{

// An error unless the open descriptor is a regular file; `st` tells its size.
std::optional<Error> statRegular(int fd, const std::string& path, struct stat& st)
{
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return Error{path, "not a regular file", "only regular files and archives are read"};
    return std::nullopt;
}

// How many small files may be held open: half of the descriptors the limit leaves beyond a reserve
// for everything else (libraries, the window, archives), read once.
std::size_t smallFileHoldLimit()
{
    static const std::size_t limit = [] {
        struct rlimit rl {
        };
        if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
            return std::size_t{0};
        return rl.rlim_cur > 512 ? static_cast<std::size_t>(rl.rlim_cur - 512) / 2 : std::size_t{0};
    }();
    return limit;
}

std::atomic<std::size_t> g_smallFilesHeld{0};

} // namespace

SmallFile::~SmallFile()
{
    reset();
}

SmallFile::SmallFile(SmallFile&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_size(other.m_size), m_opened(other.m_opened)
{
}

SmallFile& SmallFile::operator=(SmallFile&& other) noexcept
{
    if (this != &other) {
        reset();
        m_fd = std::exchange(other.m_fd, -1);
        m_size = other.m_size;
        m_opened = other.m_opened;
    }
    return *this;
}

void SmallFile::reset()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        g_smallFilesHeld.fetch_sub(1);
    }
    m_fd = -1;
}

Expected<OpenedFile> openFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int err = errno;
        std::string hint = err == EACCES
                               ? "check the file's permissions or run Rankline as a user who can read it"
                               : "check that the file exists and is readable";
        return Error{path, std::string("cannot open: ") + std::strerror(err), hint};
    }
    struct stat st {
    };
    if (auto error = statRegular(fd, path, st)) {
        ::close(fd);
        return *error;
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size < kSmallFileBytes) {
        if (g_smallFilesHeld.fetch_add(1) < smallFileHoldLimit()) {
            SmallFile f;
            f.m_fd = fd; // counted above: from here on reset() closes it and gives the count back
            f.m_size = size;
            f.m_opened = FileIdentity::of(st);
            return OpenedFile{std::move(f)};
        }
        g_smallFilesHeld.fetch_sub(1); // no descriptor to spare: mapped like any other file
    }
    Expected<MappedFile> mapped = MappedFile::map(fd, st, path, true);
    ::close(fd);
    if (!mapped)
        return mapped.error();
    return OpenedFile{std::move(*mapped)};
}

void SmallFile::expect(std::size_t count)
{
    // The kernel grows a process's descriptor table by doubling it, and in a process with several
    // threads each growth waits for an RCU grace period: opening 10,000 small files on two cores
    // took three times as long as reading them. Growing the table once, to what they need, waits
    // once. (F_DUPFD asks for the lowest free descriptor at or above the one given.)
    const std::size_t want = std::min(count, smallFileHoldLimit());
    if (want < 256)
        return;
    const int base = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (base < 0)
        return;
    const int high = ::fcntl(base, F_DUPFD_CLOEXEC, base + static_cast<int>(want) + 64);
    if (high >= 0)
        ::close(high);
    ::close(base);
}

bool SmallFile::read(std::string& out, std::uint64_t* grownBy) const
{
    // Resized, not assigned: the scan reads every file into one buffer per thread, and filling
    // it with zeros first wrote each byte once more (the read overwrites them; a short read's
    // rest is filled below).
    // One byte more than the file had when opened, in the same read: a regular file answers a read
    // with every byte it has up to the end, so a file that has not grown returns exactly its size
    // and needs no second call to see the end, and one that has grown says so at no extra cost.
    if (grownBy)
        *grownBy = 0;
    out.resize(m_size + 1);
    ssize_t first = -1;
    if (m_fd >= 0)
        do
            first = ::pread(m_fd, out.data(), m_size + 1, 0);
        while (first < 0 && errno == EINTR);
    long long n = first;
    if (first > static_cast<ssize_t>(m_size)) {
        n = static_cast<long long>(m_size);
        if (grownBy) // at least the byte read, should the file have been cut again since
            *grownBy = std::max<std::uint64_t>(this->grownBy(), 1);
    } else if (first > 0 && static_cast<std::size_t>(first) < m_size) {
        n = readInto(m_fd, out.data(), m_size, static_cast<std::size_t>(first)); // a short read
    }
    out.resize(m_size);
    if (n == static_cast<long long>(m_size))
        return true;
    // A failed read may have left part of the bytes: what the file no longer has reads as NUL.
    std::fill(out.begin() + std::max<long long>(n, 0), out.end(), '\0');
    return false;
}

std::uint64_t SmallFile::grownBy() const
{
    struct stat st {
    };
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0)
        return 0;
    const auto now = static_cast<std::uint64_t>(st.st_size);
    return now > m_size ? now - m_size : 0;
}

Expected<MappedFile> SmallFile::map(const std::string& path) const
{
    return MappedFile::map(m_fd, path, false);
}

Expected<MappedFile> MappedFile::map(int fd, const std::string& path, bool lookAtHead)
{
    struct stat st {
    };
    if (auto error = statRegular(fd, path, st))
        return *error;
    return map(fd, st, path, lookAtHead);
}

Expected<MappedFile> MappedFile::map(int fd, const struct stat& st, const std::string& path, bool lookAtHead)
{
    const auto size = static_cast<std::size_t>(st.st_size);
    MappedFile f;
    f.m_opened = FileIdentity::of(st);
    const bool small = size < kSmallFile;
    if (size > 0) {
        void* p = small ? SmallMaps::instance().map(fd, size)
                        : ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != nullptr && p != MAP_FAILED) {
            f.m_data = static_cast<const char*>(p);
            f.m_size = size;
            f.m_mapped = true; // from here on reset() unmaps it, wherever it lives
            f.m_guard = sigbus::guard(p, size);
            if (f.m_guard) {
                if (!small) // a small file is read in one fault-around window anyway
                    ::madvise(p, size, MADV_SEQUENTIAL);
                thread_local std::vector<char> head(kHeadBytes);
                const std::size_t want = std::min(size, kHeadBytes);
                if (lookAtHead && readInto(fd, head.data(), want) == static_cast<long long>(want)) {
                    f.m_headBinary = binaryHead({head.data(), want});
                    f.m_headRecords = jsonRecordsHead({head.data(), want});
                }
                return f;
            }
            f.reset(); // no guard slot left: an unguarded map is not safe, copy instead
        }
    }
    if (size > 0) {
        // Small files beyond the map limit, and any file that could not be mapped (address space
        // limit, map count).
        try {
            f.m_copy.reset(new char[size]);
        } catch (const std::bad_alloc&) {
            return Error{path, "not enough memory to read this file (" + std::to_string(size >> 20) + " MiB)",
                         "open fewer files at once or raise the memory limit (ulimit -v)"};
        }
        long long n = readInto(fd, f.m_copy.get(), size);
        if (n < 0) {
            int err = errno;
            return Error{path, std::string("read error: ") + std::strerror(err),
                         "check the disk and the file"};
        }
        f.m_data = f.m_copy.get();
        f.m_size = static_cast<std::size_t>(n);
        f.m_shrank = f.m_size < size;
    }
    return f;
}

} // namespace rl
