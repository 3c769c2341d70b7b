#pragma once
// Read-only memory map of a file. Line text is read back from here on demand, so the bundle's
// text never has to live in heap strings.

#include <cstddef>
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

    std::string_view text() const { return {static_cast<const char*>(m_data), m_size}; }
    std::size_t size() const { return m_size; }
    // Drops this process's copies of the pages (they stay in the page cache and fault back in on the
    // next read): keeps resident memory bounded while a large bundle is scanned once.
    void dropResident() const;

private:
    void reset();
    void* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace rl
