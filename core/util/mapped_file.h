#pragma once
// Read-only view of a file's bytes. Line text is read back from here on demand, so the bundle's
// text never has to live in heap strings. Files are memory-mapped and guarded against being
// truncated by another program while mapped (util/sigbus_guard.h); a file that cannot be mapped
// (and small files beyond a safe number of maps, see mapped_file.cpp) is read into memory.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <variant>

#include "util/expected.h"

namespace rl
{

class MappedFile;
class SmallFile;

// Which file was opened (device and inode) and how large it was then. A later look at the same path
// compares with it, which tells a log still being written (same file, larger) from one rotated or
// rewritten under its name (another file).
struct FileIdentity {
    std::uint64_t device = 0, inode = 0, size = 0;
    static FileIdentity of(const struct stat& st);
    bool known() const { return inode != 0; }
};

// What became of a file since it was opened, as its path shows it now.
struct FileChange {
    enum class Kind {
        None,     // as it was, or nothing can be told (not a file that was opened, stat refused)
        Grew,     // the same file, larger: a log still being written
        Shrank,   // the same file, cut short (truncated in place, as copytruncate rotation does)
        Replaced, // another file under the name (rotated, or rewritten through a rename)
        Gone,     // no file under the name any more
    };
    Kind kind = Kind::None;
    std::uint64_t sizeNow = 0; // the file under the name now (Grew, Shrank, Replaced)
};

// One stat of `path`, compared with what was opened.
FileChange changeSince(const std::string& path, const FileIdentity& opened);
// A file opened for reading (openFile): a small one held open, any other mapped.
using OpenedFile = std::variant<SmallFile, MappedFile>;

class MappedFile
{
public:
    MappedFile() = default;
    ~MappedFile();
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Maps an open file (the descriptor stays open) as it is now: a file still being written is
    // read up to the size seen here. `lookAtHead` false spares the pread behind headBinary() where
    // the caller knows. `path` names the file in errors. (openFile opens and maps.)
    static Expected<MappedFile> map(int fd, const std::string& path, bool lookAtHead = true);

    std::string_view text() const { return {m_data, m_size}; }
    std::size_t size() const { return m_size; }
    // Drops this process's copies of the pages (they stay in the page cache and fault back in on the
    // next read): keeps resident memory bounded while a large bundle is scanned once. A small
    // file's pages go with those of other small files once their marks add up to a few MiB.
    void dropResident() const;
    // Bytes [offset, offset + length) only, in whole pages inside that range.
    void dropResident(std::uint64_t offset, std::uint64_t length) const;
    // Small files' dropResident() is deferred until their marked pages add up to several MiB, so
    // that one madvise gives back many: a pass over a bundle calls this when it is done, so that
    // what it read last is not kept for the rest of the run.
    static void flushDropped();
    // Whether the first kHeadBytes of the file say it is not text (util/text_kind.h), as read with
    // pread when the file was mapped: a look at the head through the map would map its pages,
    // which then have to be given back until the scan. nullopt when not known that way (copied
    // files, a short read).
    static constexpr std::size_t kHeadBytes = 64 * 1024;
    std::optional<bool> headBinary() const { return m_headBinary; }
    // Whether that look at the head found what may be a log kept as JSON records
    // (jsonRecordsHead); false where headBinary() is not known.
    bool headJsonRecords() const { return m_headRecords; }
    // True when the file shrank while it was open: the bytes it lost read as NUL (mapped) or were
    // never read (copied). Meaningful once the text has been read through.
    bool damaged() const;
    // How many bytes the file at `path` now has beyond those mapped, when it is still the file that
    // was opened (same device and inode: a log still being written); 0 when it has not grown, was
    // replaced (rotated) or cannot be looked at. One stat: the descriptor was closed once mapped.
    std::uint64_t grownBy(const std::string& path) const;
    // Which file was mapped, and its size then.
    const FileIdentity& opened() const { return m_opened; }

private:
    friend Expected<OpenedFile> openFile(const std::string& path);
    // map() for a file the caller has just looked at (fstat): its size, and which file it is.
    static Expected<MappedFile> map(int fd, const struct stat& st, const std::string& path, bool lookAtHead);
    void reset();
    const char* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_mapped = false;
    bool m_shrank = false;
    std::optional<std::size_t> m_guard;
    std::optional<bool> m_headBinary;
    bool m_headRecords = false;
    std::unique_ptr<char[]> m_copy;
    FileIdentity m_opened; // grownBy, opened()
};

// Files below this size are small. Reading one whole costs a fraction of mapping it: mmap, the
// page fault, madvise and munmap each take the process's address-space lock, which every core
// scanning files waits on (10,000 files of 16 KiB: about 0.04 s read on two cores, 0.15 s mapped).
constexpr std::size_t kSmallFileBytes = 64 * 1024;

// A small file held open, so that it can be read again (and stays readable when it is deleted or
// renamed meanwhile, as a map does), closed with the handle. Descriptors are a budget
// (RLIMIT_NOFILE): small files are held while fewer than half of the limit's room is taken by
// them, and mapped like any other file beyond that.
class SmallFile
{
public:
    SmallFile() = default;
    ~SmallFile();
    SmallFile(SmallFile&& other) noexcept;
    SmallFile& operator=(SmallFile&& other) noexcept;
    SmallFile(const SmallFile&) = delete;
    SmallFile& operator=(const SmallFile&) = delete;

    // About to open up to `count` files on several threads: makes room for their descriptors at
    // once (see mapped_file.cpp).
    static void expect(std::size_t count);

    // As fstat saw it when the file was opened.
    std::size_t size() const { return m_size; }
    // Reads its first size() bytes into `out` (resized to size()). False when the file is shorter
    // now or cannot be read: the bytes not read are NUL, as a truncated map's are. `grownBy`, when
    // given, is set to how many bytes the file has beyond size() (a log still being written): the
    // read asks for one byte more, so a file that has not grown costs no extra system call.
    bool read(std::string& out, std::uint64_t* grownBy = nullptr) const;
    // How many bytes the file has now beyond size(); 0 when it has not grown or is closed.
    std::uint64_t grownBy() const;
    // Which file was opened, and its size then; kept once closed (reset()).
    const FileIdentity& opened() const { return m_opened; }
    // Maps it (see MappedFile::map).
    Expected<MappedFile> map(const std::string& path) const;
    // Closes it: reads fail from then on.
    void reset();

private:
    friend Expected<OpenedFile> openFile(const std::string& path);
    int m_fd = -1;
    std::size_t m_size = 0;
    FileIdentity m_opened;
};

// Opens `path` once, never blocking (a FIFO that slipped through) and only when it is a regular
// file, with errors worded for people. A file smaller than kSmallFileBytes is held open, unread
// (SmallFile), while descriptors allow: its first read, which is the scan's, is also the look at
// its bytes (see SmallFileBuffer in bundle.cpp); any other is mapped (MappedFile).
Expected<OpenedFile> openFile(const std::string& path);

} // namespace rl
