#include "util/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rl
{

MappedFile::~MappedFile()
{
    reset();
}

MappedFile::MappedFile(MappedFile&& other) noexcept : m_data(other.m_data), m_size(other.m_size)
{
    other.m_data = nullptr;
    other.m_size = 0;
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    if (this != &other) {
        reset();
        m_data = other.m_data;
        m_size = other.m_size;
        other.m_data = nullptr;
        other.m_size = 0;
    }
    return *this;
}

void MappedFile::reset()
{
    if (m_data)
        ::munmap(m_data, m_size);
    m_data = nullptr;
    m_size = 0;
}

void MappedFile::dropResident() const
{
    if (m_data)
        ::madvise(m_data, m_size, MADV_DONTNEED);
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
    f.m_size = static_cast<std::size_t>(st.st_size);
    if (f.m_size > 0) {
        void* p = ::mmap(nullptr, f.m_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int err = errno;
            ::close(fd);
            f.m_size = 0;
            return Error{path, std::string("cannot map file: ") + std::strerror(err), "check free memory"};
        }
        ::madvise(p, f.m_size, MADV_SEQUENTIAL);
        f.m_data = p;
    }
    ::close(fd);
    return f;
}

} // namespace rl
