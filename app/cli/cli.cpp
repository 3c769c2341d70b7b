#include "cli/cli.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <re2/re2.h>
#include <thread>

#include "cli/args.h"
#include "cli/common.h"
#include "probe/local_facts.h"
#include "probe/nccl_probe.h"
#include "probe/socket_retry.h"
#include "report/diagnosis_report.h"
#include "report/probe_report.h"

namespace rl::cli
{

namespace
{

// From how many files on the output's closing of descriptors is worth a thread.
constexpr std::size_t kCloseAheadFiles = 256;

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// "HOST=SECONDS"; false when SECONDS is not a number.
bool parseClockOffset(const std::string& v, ClockOverride& out)
{
    const std::size_t eq = v.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= v.size())
        return false;
    const std::string number = v.substr(eq + 1);
    char* end = nullptr;
    const double seconds = std::strtod(number.c_str(), &end);
    while (end && (*end == ' ' || *end == '\t'))
        ++end;
    if (!end || end == number.c_str() || *end != '\0')
        return false;
    out = {v.substr(0, eq), static_cast<std::int64_t>(seconds * 1e6)};
    return true;
}

int diagnose(const std::vector<std::string>& args, const Hooks& hooks)
{
    ArgParser p("Diagnose a failed distributed-training job from its logs.");
    p.addPositional("diagnose", "the sub-command");
    p.addPositional(
        "paths",
        "Log files, folders or archives; - reads standard input (a log, or a compressed log or archive).",
        "PATH...");
    p.addOption({{"json"}, "Print one JSON object on stdout.", {}, {}});
    p.addOption({{"no-local-nccl"}, "Do not look for this machine's libnccl.so.2.", {}, {}});
    p.addOption({{"nccl-lib"}, "Probe this NCCL library instead of libnccl.so.2.", "path", {}});
    p.addOption(
        {{"all-attempts"}, "torchrun log trees: diagnose every attempt, not only the latest.", {}, {}});
    p.addOption({{"clock-offset"},
                 "Shift HOST's clock by SECONDS (repeatable); overrides the estimate.",
                 "HOST=SECONDS",
                 {}});
    p.addOption({{"timings"}, "Print the wall time of each stage on standard error.", {}, {}});
    if (auto done = p.process(args))
        return *done;
    const std::vector<std::string> paths(p.positionals().begin() + 1, p.positionals().end());
    if (paths.empty()) {
        printErr("rankline diagnose: no PATH given\nusage: rankline diagnose PATH... [--json]");
        return 2;
    }
    auto loading = startLoadingEntries();
    AnalyzeOptions opts;
    opts.probeLocalNccl = !p.isSet("no-local-nccl");
    if (p.isSet("nccl-lib"))
        opts.ncclLibrary = p.value("nccl-lib");
    opts.allAttempts = p.isSet("all-attempts");
    opts.mergedOrder = false; // neither the JSON nor the text lists lines in merged order
    for (const std::string& v : p.values("clock-offset")) {
        ClockOverride o;
        if (!parseClockOffset(v, o)) {
            printErr("rankline diagnose: --clock-offset wants HOST=SECONDS, got '" + v + "'");
            return 2;
        }
        opts.clockOverrides.push_back(std::move(o));
    }

    auto start = std::chrono::steady_clock::now();
    double cpuStart = processCpuSeconds();
    Bundle bundle;
    const bool readable = readInputs("rankline diagnose", paths, opts, bundle);
    LoadedEntries loaded = loading.get();
    auto enc = loadEntries(loaded);
    if (!enc)
        return 3;
    if (!readable)
        return 1;
    const double readSeconds = secondsSince(start);
    const double readCpu = processCpuSeconds() - cpuStart;
    const std::vector<Skipped> said = bundle.skipped;
    if (hooks.beforeAnalysis)
        hooks.beforeAnalysis();
    if (hooks.afterStage)
        opts.afterStage = hooks.afterStage;
    auto analysis = analyze(std::move(bundle), enc, std::move(loaded.scanner), opts, terminalProgress());
    if (!sayWhatWasSkipped("rankline diagnose", *analysis, said))
        return 1;
    start = std::chrono::steady_clock::now();
    cpuStart = processCpuSeconds();
    // Each small file of the bundle is held open (util/mapped_file.h): ten thousand descriptors,
    // which the kernel would close one by one as the program exits, 10 to 20 ms on one core here.
    // Those of the files the output does not quote are closed on another core while it is written.
    std::thread closer;
    if (analysis->sources.size() >= kCloseAheadFiles)
        closer = std::thread([&a = *analysis, quoted = sourcesQuoted(*analysis)] {
            for (std::size_t s = 0; s < a.sources.size(); ++s)
                if (!quoted[s] && a.sources[s].buffer)
                    a.sources[s].buffer->closeFile();
        });
    if (p.isSet("json")) {
        // Streamed: the document can be tens of megabytes, and held whole it would be the largest
        // thing in memory at the end of the run.
        writeDiagnosisJson(
            *analysis, [](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
        std::fputc('\n', stdout);
    } else {
        const std::string out = diagnosisText(*analysis);
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    if (closer.joinable())
        closer.join();
    if (p.isSet("timings")) {
        std::vector<StageTime> stages{{"read the bundle, load the encyclopedia", readSeconds}};
        stages.front().cpuSeconds = readCpu;
        stages.insert(stages.end(), analysis->timings.begin(), analysis->timings.end());
        stages.push_back({"output", secondsSince(start)});
        stages.back().cpuSeconds = processCpuSeconds() - cpuStart;
        double total = 0, totalCpu = 0;
        for (const auto& st : stages) {
            if (st.anonBytes + st.fileBytes > 0)
                std::fprintf(stderr,
                             "%9.3f s  %-36s cpu %6.3f s  resident after: %6.1f MiB heap, %6.1f MiB mapped\n",
                             st.seconds, st.stage.c_str(), st.cpuSeconds,
                             static_cast<double>(st.anonBytes) / 1048576.0,
                             static_cast<double>(st.fileBytes) / 1048576.0);
            else
                std::fprintf(stderr, "%9.3f s  %-36s cpu %6.3f s\n", st.seconds, st.stage.c_str(),
                             st.cpuSeconds);
            total += st.seconds;
            totalCpu += st.cpuSeconds;
        }
        std::fprintf(stderr, "%9.3f s  total (%llu bytes, %llu lines; cpu %.3f s)\n", total,
                     static_cast<unsigned long long>(analysis->totalBytes),
                     static_cast<unsigned long long>(analysis->totalLines), totalCpu);
    }
    // Everything is written. Tearing down the analysis (millions of small allocations, thousands
    // of mappings) only to exit takes longer than reading a small bundle: let the kernel reclaim
    // it, as compilers do. Nothing else is pending (no files open for writing, no threads).
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        return 1;
    std::fflush(stderr);
    std::_Exit(0);
}

int probe(const std::vector<std::string>& args)
{
    ArgParser p("Print this machine's NCCL libraries (every one found, with its version and how it was "
                "found), the kernel and the CUDA driver; --socket-retry also reproduces the "
                "connect-retry behaviour of this kernel on 127.0.0.1.");
    p.addPositional("probe", "the sub-command");
    p.addOption({{"nccl-lib"}, "Library path or soname to load.", "path", "libnccl.so.2"});
    p.addOption({{"json"}, "Print JSON.", {}, {}});
    p.addOption({{"socket-retry"},
                 "Also connect to a refusing port on 127.0.0.1, retry on the same socket as NCCL "
                 "2.16-2.23 do and on a fresh one as 2.24.3 does, and report the errno of each.",
                 {},
                 {}});
    if (auto done = p.process(args))
        return *done;
    const std::string library = p.value("nccl-lib");
    DiscoveryOptions opts;
    if (library.find('/') != std::string::npos)
        opts.explicitPaths.push_back(library);
    // Every library is loaded in a child process, so what one load leaves behind never answers for
    // the next (probe/isolated.h).
    const LocalFacts facts = gatherLocalFacts(opts);
    const NcclProbeResult r = probeNcclIsolated(library);
    std::optional<SocketRetryReport> retry;
    if (p.isSet("socket-retry"))
        retry = reproduceSocketRetry();
    const SocketRetryReport* rp = retry ? &*retry : nullptr;
    const std::string out = p.isSet("json") ? probeJson(facts, r, rp) + "\n" : probeText(facts, r, rp);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return retry && !retry->ran ? 1 : 0;
}

int encyclopedia(const std::vector<std::string>& args)
{
    ArgParser p("Load and self-check encyclopedia entries: every fingerprint compiles, matches each of "
                "its samples, and every related id exists.");
    p.addPositional("encyclopedia", "the sub-command");
    p.addPositional("dir", "Folder of <id>.json entries (default: the installed one).", "[DIR]");
    p.addOption({{"list"}, "List the entries.", {}, {}});
    p.addOption(
        {{"export-patterns"}, "Print every fingerprint regex, one per line (usable with rg -f).", {}, {}});
    if (auto done = p.process(args))
        return *done;
    const auto& pos = p.positionals();
    const std::string dir = pos.size() > 1 ? pos[1] : resourcesDir() + "/encyclopedia";
    auto enc = loadEncyclopedia(dir);
    if (!enc) {
        printErr("rankline encyclopedia: " + enc.error().message());
        return 1;
    }
    if (p.isSet("export-patterns")) {
        // rg joins its patterns into one regex, where repeated group names clash: names only matter
        // to Rankline, so export plain groups.
        static const RE2 named(R"(\(\?P<[A-Za-z_][A-Za-z0-9_]*>)");
        for (const auto& e : enc->entries)
            for (const auto& s : e.symptoms)
                for (const auto& f : s.fingerprints) {
                    std::string pattern = f.pattern;
                    RE2::GlobalReplace(&pattern, named, "(");
                    std::printf("%s\n", pattern.c_str());
                }
        return 0;
    }
    std::size_t symptoms = 0, samples = 0;
    for (const auto& e : enc->entries) {
        symptoms += e.symptoms.size();
        for (const auto& s : e.symptoms)
            samples += s.samples.size();
        if (p.isSet("list"))
            std::printf("%-32s %-18s %s\n", e.id.c_str(), e.category.c_str(), e.title.c_str());
    }
    std::printf("%zu entries, %zu symptoms, %zu samples: all fingerprints compile and match their samples\n",
                enc->entries.size(), symptoms, samples);
    return 0;
}

} // namespace

bool isHeadless(const std::vector<std::string>& args)
{
    if (args.size() < 2)
        return false;
    const std::string& c = args[1];
    return c == "diagnose" || c == "probe" || c == "encyclopedia" || c == "--help" || c == "-h" ||
           c == "--version" || c == "-v";
}

int run(const std::vector<std::string>& args, const Hooks& hooks)
{
    const std::string& c = args.at(1);
    if (c == "diagnose")
        return diagnose(args, hooks);
    if (c == "probe")
        return probe(args);
    if (c == "encyclopedia")
        return encyclopedia(args);
    if (c == "--version" || c == "-v") {
        std::printf("rankline %s\n", RANKLINE_VERSION);
        return 0;
    }
    // Kept in step with packaging/rankline.1.in by tests/packaging (every command and option here
    // and in each command's --help must appear in the man page).
    std::printf("Usage: rankline [--sample] [--screenshot FILE] [PATH...]\n"
                "       rankline diagnose PATH... [--json] [--no-local-nccl] [--nccl-lib LIB]\n"
                "                       [--all-attempts] [--clock-offset HOST=SECONDS]\n"
                "       rankline report PATH... -o OUT.{html,pdf,md,json} [--format F] [--no-redact]\n"
                "                       [--paper a4|letter] [--time T]\n"
                "       rankline probe [--json] [--nccl-lib LIB] [--socket-retry]\n"
                "       rankline encyclopedia [DIR] [--list] [--export-patterns]\n"
                "       rankline COMMAND --help\n"
                "       rankline -h | --help | -v | --version\n"
                "\n"
                "Without a command, Rankline opens its window (on the PATHs if given; --sample opens\n"
                "the bundled sample incident; --screenshot saves a picture of the window and quits).\n"
                "\n"
                "Commands:\n"
                "  diagnose      explain a failed job from its logs: folders, files, .gz logs, archives;\n"
                "                - reads standard input\n"
                "  report        export an incident report (HTML, PDF, Markdown, JSON), redacted by default\n"
                "  probe         this machine's NCCL libraries, kernel and CUDA driver; --socket-retry\n"
                "                shows what this kernel does with a retried connect (127.0.0.1 only)\n"
                "  encyclopedia  self-check, list or export the encyclopedia entries\n"
                "\n"
                "See rankline(1).\n");
    return 0;
}

} // namespace rl::cli
