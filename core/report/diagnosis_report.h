#pragma once
// The diagnosis as JSON (the `diagnose --json` contract) and as plain text for terminals.
// Field names here are a contract with users' scripts: extend, never rename.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis.h"

namespace rl
{

constexpr int kDiagnosisSchemaVersion = 1;

// `threads`: how many write the ranks (0: one per core); the text is the same with any number.
std::string diagnosisJson(const Analysis& analysis, int indent = 2, unsigned threads = 0);
// The same document handed to `sink` in pieces of about `chunkBytes`, in order: for writing a
// diagnosis of thousands of ranks (tens of megabytes) to a file without holding it whole. The
// sink is called once at a time, in document order, but not always from the calling thread.
using JsonSink = std::function<void(std::string_view)>;
void writeDiagnosisJson(const Analysis& analysis, const JsonSink& sink, int indent = 2,
                        std::size_t chunkBytes = std::size_t{1} << 16, unsigned threads = 0);
std::string diagnosisText(const Analysis& analysis);
// Per source, whether the two above quote any of its lines (the findings' evidence): the files of
// the others need not stay open while they are written.
std::vector<char> sourcesQuoted(const Analysis& analysis);

// Appends `text` as a JSON string, exactly as nlohmann's dump (no ASCII escaping, invalid UTF-8
// replaced by U+FFFD) would: the diagnosis is written by hand for speed, but its bytes are dump's.
void appendJsonString(std::string& out, std::string_view text);

// One sentence on how many of the job's ranks the bundle holds logs of (Analysis::coverage), and
// which it lacks; empty where no Init line named the job's size. Text output, reports and window.
std::string coverageSentence(const Analysis& analysis);

// Path shown for a line's file: relative to the opened folder, or the file's name.
std::string displayFile(const Analysis& analysis, LineRef where);

} // namespace rl
