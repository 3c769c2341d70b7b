#pragma once
// What the commands share, without Qt: the headless commands (cli.cpp) and `report`, which runs
// in the Qt module (report/reportcommand.cpp).

#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis.h"
#include "bundle/bundle.h"
#include "encyclopedia/encyclopedia.h"
#include "engine/scanner.h"
#include "util/expected.h"

namespace rl::cli
{

// One line on standard error.
void printErr(const std::string& line);

// Loading the encyclopedia (parsing, compiling and self-checking every entry) and building the
// scanner of its fingerprints take as long as diagnosing a small bundle: both are started while
// the bundle is read, and collected with loadEntries.
struct LoadedEntries {
    // Null when it did not load. Its fingerprints' compiled regexes are the scanner's alone
    // (Encyclopedia::releaseCompiledFingerprints): a scanner made from it compiles them anew.
    std::shared_ptr<const Encyclopedia> encyclopedia;
    std::optional<Error> problem;     // why not
    std::unique_ptr<Scanner> scanner; // for analyze(), built from it
};
std::future<LoadedEntries> startLoadingEntries();
// Null, having said why on standard error, when it does not load.
std::shared_ptr<const Encyclopedia> loadEntries(const LoadedEntries& loaded);
std::shared_ptr<const Encyclopedia> loadEntries();

// A progress bar on standard error, only when it is a terminal.
ProgressSink terminalProgress();

// Reads PATHs (and standard input for "-") into one bundle and says on standard error what was
// skipped and why. Returns false, having said so, when nothing could be read.
bool readInputs(const char* command, const std::vector<std::string>& paths, const AnalyzeOptions& options,
                Bundle& bundle);

// Says on standard error the files that only the analysis of what readInputs read skipped (binary
// small files, older torchrun attempts, files that shrank): `alreadySaid` are the reader's skips,
// which readInputs said. Returns false, having said so, when no file was left to diagnose.
bool sayWhatWasSkipped(const char* command, const Analysis& analysis,
                       const std::vector<Skipped>& alreadySaid);

} // namespace rl::cli
