#pragma once
// Read-only view of a file's bytes. Line text is read back from here on demand, so the bundle's
// text never has to live in heap strings. Large files are memory-mapped and guarded against being
// truncated by another program while mapped (util/sigbus_guard.h); small files, and any file that
// cannot be mapped, are read into memory with pread.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "util/expected.h"

namespace rl
{

class MappedFile
{
public:
    MappedFile() = default;
    ~MappedFile();
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Maps the file as it is now: a file still being written is read up to the size seen at open.
    static Expected<MappedFile> open(const std::string& path);

    std::string_view text() const { return {m_data, m_size}; }
    std::size_t size() const { return m_size; }
    // Drops this process's copies of the pages (they stay in the page cache and fault back in on the
    // next read): keeps resident memory bounded while a large bundle is scanned once.
    void dropResident() const;
    // True when the file shrank while it was open: the bytes it lost read as NUL (mapped) or were
    // never read (copied). Meaningful once the text has been read through.
    bool damaged() const;

private:
    void reset();
    const char* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_mapped = false;
    bool m_shrank = false;
    std::optional<std::size_t> m_guard;
    std::unique_ptr<char[]> m_copy;
};

} // namespace rl
