#pragma once
// Stage 1: turn the paths a user gave into sources (files, archive members, decompressed logs),
// and say plainly what was skipped and why. One bad file never stops the rest.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/strong_id.h"

namespace rl
{

// The bytes of one source: a memory map for plain files, an owned buffer for decompressed data.
class TextBuffer
{
public:
    virtual ~TextBuffer() = default;
    virtual std::string_view text() const = 0;
};

struct Source {
    SourceId id;
    std::string path;        // on-disk path (the archive's path for a member)
    std::string displayPath; // relative to the opened folder, "archive.tgz!member" for members
    std::uint64_t size = 0;
    std::shared_ptr<const TextBuffer> buffer;
    std::vector<std::uint64_t> lineStarts; // byte offset of each line's first character

    std::string_view text() const { return buffer ? buffer->text() : std::string_view{}; }
    std::size_t lineCount() const { return lineStarts.size(); }
    // The line without its end-of-line characters (CRLF included).
    std::string_view line(std::uint32_t index) const;
};

struct Skipped {
    std::string file;
    std::string reason; // the cause and what to do, in one sentence
};

struct BundleLimits {
    std::uint64_t maxExpandedBytes = std::uint64_t{8} << 30; // for archives and .gz
    double maxExpansionRatio = 200.0;
};

struct Bundle {
    std::vector<Source> sources;
    std::vector<Skipped> skipped;
};

using CancelFn = std::function<bool()>;

// Reads every path (folders recursively, plain files, .gz and archives through libarchive).
// Sources come back sorted by display path so results do not depend on directory order.
Bundle readBundle(const std::vector<std::string>& paths, const BundleLimits& limits = {},
                  const CancelFn& cancelled = {});

// Builds a source from text held in memory (a pasted snippet, standard input).
Source sourceFromText(std::string name, std::string text);

// Fills `lineStarts`. Kept separate so the indexer can run it on a worker thread.
void indexLines(Source& source);

} // namespace rl
