#include "cli/common.h"

#include <cstdio>
#include <iostream>
#include <iterator>
#include <map>
#include <unistd.h>

namespace rl::cli
{

void printErr(const std::string& line)
{
    std::fprintf(stderr, "%s\n", line.c_str());
}

namespace
{

// The last word when no log was read: what was skipped has been said above, each with its cause.
std::string nothingRead(bool nothingSkipped)
{
    return nothingSkipped ? ": nothing could be read from the given paths"
                          : ": no log could be read: every file given was skipped, for the reasons above";
}

// The shipped encyclopedia, or why it did not load; `withScanner`: with its fingerprints' scanner,
// built before the encyclopedia is shared so that the scanner alone holds their compiled regexes
// (only the scanner matches fingerprints, and it lets go of them once every line is scanned: 1.1
// MiB of peak RSS on ten thousand small files).
LoadedEntries loadShippedEntries(bool withScanner)
{
    LoadedEntries out;
    Expected<Encyclopedia> loaded = loadEncyclopedia(resourcesDir() + "/encyclopedia");
    if (!loaded) {
        out.problem = loaded.error();
        return out;
    }
    if (withScanner) {
        out.scanner = std::make_unique<Scanner>(*loaded);
        loaded->releaseCompiledFingerprints();
    }
    out.encyclopedia = std::make_shared<const Encyclopedia>(std::move(*loaded));
    return out;
}

} // namespace

std::future<LoadedEntries> startLoadingEntries()
{
    // The scanner here rather than in analyze(): reading ten thousand small files keeps every core
    // busy and this thread takes its share of them, while a few large files are read at once and
    // the analysis would wait for the scanner either way.
    return std::async(std::launch::async, [] { return loadShippedEntries(true); });
}

std::shared_ptr<const Encyclopedia> loadEntries(const LoadedEntries& loaded)
{
    if (!loaded.encyclopedia) {
        printErr("rankline: cannot load the encyclopedia: " +
                 (loaded.problem ? loaded.problem->message() : std::string("unknown error")));
        return nullptr;
    }
    return loaded.encyclopedia;
}

std::shared_ptr<const Encyclopedia> loadEntries()
{
    return loadEntries(loadShippedEntries(false));
}

ProgressSink terminalProgress()
{
    ProgressSink sink;
    sink.interval = std::chrono::milliseconds(100); // a terminal line redrawn ten times a second
    if (::isatty(STDERR_FILENO)) {
        sink.report = [](const Progress& pr) {
            if (pr.stage == "done") {
                std::fprintf(stderr, "\r%78s\r", "");
                std::fflush(stderr);
                return;
            }
            int pct = pr.bytesTotal ? static_cast<int>(pr.bytesDone * 100 / pr.bytesTotal) : 100;
            std::string bar(static_cast<std::size_t>(pct / 4), '#');
            std::fprintf(stderr, "\r%-10s [%-25s] %3d%%  %llu/%llu files  %llu MB  %llu lines",
                         pr.stage.c_str(), bar.c_str(), pct, static_cast<unsigned long long>(pr.filesDone),
                         static_cast<unsigned long long>(pr.filesTotal),
                         static_cast<unsigned long long>(pr.bytesDone >> 20),
                         static_cast<unsigned long long>(pr.lines));
            std::fflush(stderr);
        };
    }
    return sink;
}

bool readInputs(const char* command, const std::vector<std::string>& paths, const AnalyzeOptions& options,
                Bundle& bundle)
{
    std::vector<std::string> files;
    bool stdinRead = false;
    for (const auto& path : paths) {
        if (path != "-") {
            files.push_back(path);
            continue;
        }
        // Once: a second `-` would find the stream at its end and add an empty source.
        if (stdinRead) {
            bundle.skipped.push_back({"<stdin>", "the standard input, named twice: read once"});
            continue;
        }
        stdinRead = true;
        // Nothing piped in: the read below waits for typing, which looks like a hang unless said.
        if (::isatty(STDIN_FILENO))
            printErr(std::string(command) + ": reading a log from the terminal; end it with Ctrl-D");
        std::string bytes((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        if (bytes.empty()) {
            bundle.skipped.push_back({"<stdin>", "the standard input was empty: nothing to read"});
            continue;
        }
        // A compressed log or an archive piped in (`tar cz logs | rankline diagnose -`) is opened
        // as the file would be; before, its bytes were read as text.
        Bundle piped = readBytes("<stdin>", std::move(bytes), options.limits);
        for (auto& s : piped.skipped)
            bundle.skipped.push_back(std::move(s));
        for (auto& s : piped.sources)
            bundle.sources.push_back(std::move(s));
        for (auto& d : piped.flightDumps)
            bundle.flightDumps.push_back(std::move(d));
    }
    if (!files.empty()) {
        Bundle read = readBundle(files, options.limits);
        // Where a source stands among the skipped files (Source::skippedBefore) counts those of the
        // standard input said before them.
        for (auto& s : read.sources)
            s.skippedBefore += bundle.skipped.size();
        if (bundle.sources.empty())
            bundle.sources = std::move(read.sources);
        else
            for (auto& s : read.sources)
                bundle.sources.push_back(std::move(s));
        for (auto& s : read.skipped)
            bundle.skipped.push_back(std::move(s));
        for (auto& d : read.flightDumps)
            bundle.flightDumps.push_back(std::move(d));
    }
    for (std::size_t i = 0; i < bundle.sources.size(); ++i)
        bundle.sources[i].id = SourceId(static_cast<std::uint32_t>(i));
    // Said now, not after an analysis that may take minutes on a large bundle.
    for (const auto& s : bundle.skipped)
        printErr("rankline: skipped " + s.file + ": " + s.reason);
    // Flight Recorder dumps alone are evidence enough to diagnose a hang.
    if (bundle.sources.empty() && bundle.flightDumps.empty()) {
        printErr(std::string(command) + nothingRead(bundle.skipped.empty()));
        return false;
    }
    return true;
}

bool sayWhatWasSkipped(const char* command, const Analysis& analysis, const std::vector<Skipped>& alreadySaid)
{
    // The analysis keeps the reader's skips and puts its own among them (a binary file where
    // reading order puts it): each of the reader's is passed over once.
    std::map<std::pair<std::string_view, std::string_view>, std::size_t> said;
    for (const auto& s : alreadySaid)
        ++said[{s.file, s.reason}];
    for (const auto& s : analysis.skipped) {
        auto it = said.find({s.file, s.reason});
        if (it != said.end() && it->second > 0) {
            --it->second;
            continue;
        }
        // A file that changed while it was read (grew, shrank) was diagnosed all the same.
        printErr((readInPart(s.reason) ? "rankline: " : "rankline: skipped ") + s.file + ": " + s.reason);
    }
    if (analysis.sources.empty() && analysis.flight.empty()) {
        printErr(std::string(command) + nothingRead(analysis.skipped.empty()));
        return false;
    }
    return true;
}

} // namespace rl::cli
