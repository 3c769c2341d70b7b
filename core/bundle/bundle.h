#pragma once
// Stage 1: turn the paths a user gave into sources (files, archive members, decompressed logs),
// and say plainly what was skipped and why. One bad file never stops the rest.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flight/flight_recorder.h"
#include "util/mapped_file.h"
#include "util/strong_id.h"
#include "util/vectors.h"

namespace rl
{

// The bytes of one source: a memory map for plain files, an owned buffer for decompressed data.
class TextBuffer
{
public:
    virtual ~TextBuffer() = default;
    virtual std::string_view text() const = 0;
    // Lets go of resident pages where that costs only a re-read (memory maps); a no-op otherwise.
    virtual void dropResident() const {}
    // The same for bytes [offset, offset + length) only (a piece of a large file that has been
    // scanned); pages shared with the bytes around it stay.
    virtual void dropResident(std::uint64_t offset, std::uint64_t length) const
    {
        (void)offset;
        (void)length;
    }
    // True when the file behind the text shrank while it was open (see MappedFile::damaged).
    virtual bool damaged() const { return false; }
    // Looks again at the file behind the text (at `path`, where it was opened), for a reader done
    // with the text: has it grown since it was opened, as a log still being written does? The
    // text stays as it was (what was there when the bundle was opened); grownBy() says by how
    // much. At most one stat, and nothing where the pass's read has seen it already.
    virtual void checkGrowth(const std::string& path) const { (void)path; }
    // The bytes the file had beyond the text when it was last looked at (checkGrowth, or the read
    // of readForPass); 0 when it had not grown, or no file is behind the text.
    virtual std::uint64_t grownBy() const { return 0; }
    // What became of the file behind the text since it was opened, looked at now (one stat of
    // `path`), for a window that watches an open bundle. Kind::None where no file is behind the
    // text (an archive member, decompressed or pasted text): those are not watched.
    virtual FileChange changeOnDisk(const std::string& path) const
    {
        (void)path;
        return {};
    }
    // Which file on disk the text was read from (device and inode when it was opened), or an
    // unknown identity where none is behind it (an archive member, decompressed or pasted text).
    virtual FileIdentity fileIdentity() const { return {}; }
    // For one pass over the whole text by one thread (the scan, the environment's reads): fills
    // `scratch` with the text and returns true where that costs less than text() (a small file
    // nobody has mapped yet, see SourcePass); false: read text().
    virtual bool readForPass(std::string& scratch) const
    {
        (void)scratch;
        return false;
    }
    // True when the text held a NUL byte within its first MappedFile::kHeadBytes when it was first
    // read: said only by buffers that nobody looked at when they were opened (a small file, whose
    // first read is the scan's). readBundle looks at every other text itself.
    virtual bool binary() const { return false; }
    // For a binary one, what its first bytes say it is (binaryFormat), or null.
    virtual const char* binaryFormat() const { return nullptr; }
    // Closes the file behind the text where one is held open and was never mapped (a small file):
    // for a caller that will read this text no more, on any thread, and wants the descriptor
    // gone before the kernel would close it at exit.
    virtual void closeFile() const {}
};

// Byte offsets of line starts: two bytes a line while every offset is below 64 KiB (a small
// file's), else four: offsets are stored modulo 4 GiB and the lines where the upper half steps up
// are remembered, so sources larger than 4 GiB still work.
class LineOffsets
{
public:
    std::size_t size() const { return m_short.size() + m_low.size(); }
    bool empty() const { return size() == 0; }
    void clear()
    {
        m_short.clear();
        m_low.clear();
        m_blockStart.clear();
    }
    // Room for `n` line starts of a text of `bytes` bytes, in the form its offsets need.
    void reserve(std::size_t n, std::uint64_t bytes)
    {
        if (bytes <= kShortLimit && m_low.empty())
            m_short.reserve(n);
        else
            m_low.reserve(n);
    }
    void shrink_to_fit()
    {
        m_short.shrink_to_fit();
        m_low.shrink_to_fit();
    }
    // The same only where the room left is more than an eighth (rl::shrinkSlack).
    void shrinkSlack()
    {
        rl::shrinkSlack(m_short);
        rl::shrinkSlack(m_low);
    }
    void push_back(std::uint64_t offset)
    {
        if (m_low.empty() && offset < kShortLimit) {
            m_short.push_back(static_cast<std::uint16_t>(offset));
            return;
        }
        if (!m_short.empty()) {
            m_low.reserve(m_short.size() + 1);
            m_low.assign(m_short.begin(), m_short.end());
            std::vector<std::uint16_t>().swap(m_short);
        }
        while (m_blockStart.size() < (offset >> 32))
            m_blockStart.push_back(static_cast<std::uint32_t>(m_low.size()));
        m_low.push_back(static_cast<std::uint32_t>(offset));
    }
    std::uint64_t operator[](std::size_t i) const
    {
        if (!m_short.empty())
            return m_short[i];
        std::uint64_t block = 0;
        while (block < m_blockStart.size() && m_blockStart[block] <= i)
            ++block;
        return (block << 32) | m_low[i];
    }
    // The line that contains byte `offset` (the last line starting at or before it).
    std::size_t lineOf(std::uint64_t offset) const
    {
        std::size_t lo = 0, hi = size();
        while (lo < hi) {
            std::size_t mid = lo + (hi - lo) / 2;
            if ((*this)[mid] <= offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo == 0 ? 0 : lo - 1;
    }
    std::size_t bytesUsed() const
    {
        return m_short.capacity() * 2 + m_low.capacity() * 4 + m_blockStart.capacity() * 4;
    }

private:
    static constexpr std::uint64_t kShortLimit = 65536;
    std::vector<std::uint16_t> m_short; // all offsets, while every one is below kShortLimit
    std::vector<std::uint32_t> m_low;   // else: all offsets modulo 4 GiB
    std::vector<std::uint32_t> m_blockStart;
};

struct Source {
    SourceId id;
    std::string path;        // on-disk path (the archive's path for a member)
    std::string displayPath; // relative to the opened folder, "archive.tgz!member" for members
    std::uint64_t size = 0;
    std::shared_ptr<const TextBuffer> buffer;
    LineOffsets lineStarts; // byte offset of each line's first character
    // How many of Bundle::skipped came before this source in reading order: where the analysis
    // puts it among them when its first read finds it binary (TextBuffer::binary).
    std::size_t skippedBefore = 0;

    std::string_view text() const { return buffer ? buffer->text() : std::string_view{}; }
    std::size_t lineCount() const { return lineStarts.size(); }
    // The line without its end-of-line characters (CRLF included).
    std::string_view line(std::uint32_t index) const;
};

// Bytes someone else holds, as a source's text: for a Source that lives no longer than they and
// this object do (its buffer from unowned(), which does not own this object).
class ViewBuffer final : public TextBuffer
{
public:
    std::string_view text() const override { return bytes; }
    std::shared_ptr<const TextBuffer> unowned() const
    {
        return std::shared_ptr<const TextBuffer>(std::shared_ptr<const TextBuffer>(), this);
    }
    std::string_view bytes;
};

// A source as one thread's pass over it reads it: the source itself, or a copy whose text is the
// file read into `scratch` (TextBuffer::readForPass) and whose line starts, when the source has
// them, are copied (it is small). Valid while `scratch` and the source are.
class SourcePass
{
public:
    SourcePass(const Source& source, std::string& scratch);
    SourcePass(const SourcePass&) = delete; // the copy's buffer points at m_view
    SourcePass& operator=(const SourcePass&) = delete;
    const Source& source() const { return m_read ? m_copy : *m_source; }
    // True when the text was read into the scratch buffer.
    bool read() const { return m_read; }
    // The copy, to hand its line starts back to the source (scanning indexes it).
    Source& copy() { return m_copy; }

private:
    const Source* m_source;
    ViewBuffer m_view;
    Source m_copy;
    bool m_read = false;
};

struct Skipped {
    std::string file;
    std::string reason; // the cause and what to do, in one sentence
};

// Skipped::reason of a file that holds NUL bytes near its start.
inline constexpr const char* kBinaryReason = "binary file (contains NUL bytes): not a text log, skipped";

// What a binary file's first bytes say it is where they open a compressed stream, an archive or
// UTF-16 text: "gzip", "zstd", "xz", "bzip2", "lz4", "lzip", "zip", "7z", "rar", "tar" or
// "utf-16"; "flight-recorder" for PyTorch's Flight Recorder dump; null for anything else.
const char* binaryFormat(std::string_view head);
// Why a file that looks binary is skipped: kBinaryReason, or, for a compressed log or an archive
// under a name that does not say so, a RAR archive, UTF-16 text or a Flight Recorder dump
// (`format` from binaryFormat), what it is and how to have it read.
std::string binaryReason(const char* format, const std::string& display);
// Skipped::reason of a file that shrank while it was being read, and how the reason of one that
// grew begins (its byte counts follow): both were diagnosed, as far as they could be read.
inline constexpr const char* kShrankReason = "the file shrank while it was being read (truncated or rotated "
                                             "by another program); the part it lost reads as empty, the rest "
                                             "was diagnosed";
inline constexpr std::string_view kGrewReasonStart = "the file grew by ";
// Whether `reason` is one of those two: a file diagnosed as far as it could be read, not skipped.
inline bool readInPart(std::string_view reason)
{
    return reason.starts_with(kShrankReason) || reason.starts_with(kGrewReasonStart);
}

struct BundleLimits {
    std::uint64_t maxExpandedBytes = std::uint64_t{8} << 30; // for archives and .gz
    double maxExpansionRatio = 200.0;
    // Text kept from all sources together. 0: half of the address space that the memory limit
    // (ulimit -v) still leaves when reading starts, or no bound without a limit. Files past it are
    // skipped with a reason instead of failing the whole run.
    std::uint64_t maxTotalBytes = 0;
};

// A PyTorch Flight Recorder dump the reader met (flight/flight_recorder.h): its bytes as read, a
// large file's mapped and an archive member's in memory, for the analysis to read with the others.
// (A small file of a folder is found by the scan's first read, and read by the analysis from its
// source.)
struct FlightDumpBytes {
    std::string displayPath;
    std::shared_ptr<const TextBuffer> buffer;
};

struct Bundle {
    std::vector<Source> sources;
    std::vector<Skipped> skipped;
    std::vector<FlightDumpBytes> flightDumps;
    // Dumps an earlier analysis of the same bundle read (the window's re-analysis).
    std::vector<FlightDump> flightRead;
};

using CancelFn = std::function<bool()>;

// Reads every path (folders recursively, plain files, .gz and archives through libarchive).
// Sources come back sorted by display path so results do not depend on directory order.
Bundle readBundle(const std::vector<std::string>& paths, const BundleLimits& limits = {},
                  const CancelFn& cancelled = {});

// A source whose file changed on disk after it was read (sourcesChangedOnDisk).
struct ChangedSource {
    SourceId source;
    FileChange change;
};

// The sources whose files changed since they were read, in source order: one stat each, on the
// calling thread (ten thousand files take some tens of milliseconds), asking `cancelled` between
// them. Only plain files are looked at: archive members and pasted text are not.
std::vector<ChangedSource> sourcesChangedOnDisk(const std::vector<Source>& sources,
                                                const CancelFn& cancelled = {});

// Files that appeared in the opened folders since the bundle was read (a rank that started writing
// after the others, a node's logs copied in late): what readBundle(paths) would list now that no
// source and no skipped entry of the bundle names. Display paths as readBundle gives them, sorted.
// Only folders are listed again (a file opened by name is a source, watched by the function
// above); a folder that can no longer be listed adds nothing here (its files' sources say they
// are gone).
std::vector<std::string> filesAddedSince(const std::vector<std::string>& paths,
                                         const std::vector<Source>& sources,
                                         const std::vector<Skipped>& skipped, const CancelFn& cancelled = {});

// How `change` reads to a person, for a file of which `sizeRead` bytes were read: "grew by 2,048
// bytes since it was read", "was replaced since it was read (rotated or rewritten …)", ...
std::string describeChange(const FileChange& change, std::uint64_t sizeRead);

// Builds a source from text held in memory (a pasted snippet).
Source sourceFromText(std::string name, std::string text);

// Bytes held in memory under `name` (the standard input), read as readBundle reads a file: a
// compressed log or an archive (known by its first bytes) is opened, binary data is skipped with
// the reason, and text is one source.
Bundle readBytes(const std::string& name, std::string bytes, const BundleLimits& limits = {});

// The text of a torchelastic error.json as log lines, or nullopt when it is not one.
std::optional<std::string> torchelasticErrorText(std::string_view json);

// Fills `lineStarts`. Kept separate so the indexer can run it on a worker thread.
void indexLines(Source& source);

} // namespace rl
