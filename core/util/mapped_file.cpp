#include "util/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/sigbus_guard.h"

namespace rl
{

namespace
{

// Below this a copy costs less than a mapping (and spares the kernel's map count on bundles of
// tens of thousands of small files).
constexpr std::size_t kCopyBelow = 64 * 1024;

// Reads up to `size` bytes; fewer when the file shrank meanwhile. -1 on a read error.
long long readInto(int fd, char* out, std::size_t size)
{
    std::size_t done = 0;
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
    : m_data(other.m_data), m_size(other.m_size), m_mapped(other.m_mapped), m_shrank(other.m_shrank),
      m_guard(other.m_guard), m_copy(std::move(other.m_copy))
{
    other.m_data = nullptr;
    other.m_size = 0;
    other.m_mapped = false;
    other.m_guard.reset();
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    if (this != &other) {
        reset();
        m_data = other.m_data;
        m_size = other.m_size;
        m_mapped = other.m_mapped;
        m_shrank = other.m_shrank;
        m_guard = other.m_guard;
        m_copy = std::move(other.m_copy);
        other.m_data = nullptr;
        other.m_size = 0;
        other.m_mapped = false;
        other.m_guard.reset();
    }
    return *this;
}

void MappedFile::reset()
{
    if (m_guard)
        sigbus::release(*m_guard);
    if (m_mapped)
        ::munmap(const_cast<char*>(m_data), m_size);
    m_copy.reset();
    m_data = nullptr;
    m_size = 0;
    m_mapped = false;
    m_guard.reset();
}

bool MappedFile::damaged() const
{
    return m_shrank || (m_guard && sigbus::faulted(*m_guard));
}

void MappedFile::dropResident() const
{
    // Only a memory map can give its pages back; a copied (damaged or small) file keeps its buffer.
    if (m_data && m_mapped)
        ::madvise(const_cast<char*>(m_data), m_size, MADV_DONTNEED);
}

Expected<MappedFile> MappedFile::open(const std::string& path)
{
    // O_NONBLOCK so that a FIFO that slipped through never blocks the open.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int err = errno;
        std::string hint = err == EACCES
                               ? "check the file's permissions or run Rankline as a user who can read it"
                               : "check that the file exists and is readable";
        return Error{path, std::string("cannot open: ") + std::strerror(err), hint};
    }
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{path, "not a regular file", "only regular files and archives are read"};
    }
    MappedFile f;
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size >= kCopyBelow) {
        void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            f.m_guard = sigbus::guard(p, size);
            if (f.m_guard) {
                ::madvise(p, size, MADV_SEQUENTIAL);
                f.m_data = static_cast<const char*>(p);
                f.m_size = size;
                f.m_mapped = true;
                ::close(fd);
                return f;
            }
            ::munmap(p, size); // no guard slot left: an unguarded map is not safe, copy instead
        }
    }
    if (size > 0) {
        // Small files, and any file that could not be mapped (address space limit, map count).
        try {
            f.m_copy.reset(new char[size]);
        } catch (const std::bad_alloc&) {
            ::close(fd);
            return Error{path, "not enough memory to read this file (" + std::to_string(size >> 20) + " MiB)",
                         "open fewer files at once or raise the memory limit (ulimit -v)"};
        }
        long long n = readInto(fd, f.m_copy.get(), size);
        if (n < 0) {
            int err = errno;
            ::close(fd);
            return Error{path, std::string("read error: ") + std::strerror(err),
                         "check the disk and the file"};
        }
        f.m_data = f.m_copy.get();
        f.m_size = static_cast<std::size_t>(n);
        f.m_shrank = f.m_size < size;
    }
    ::close(fd);
    return f;
}

} // namespace rl
