// The `rankline` binary. The headless commands (diagnose, probe, encyclopedia) run here without Qt:
// mapping Qt's libraries costs about 13 MiB of resident memory and 30 ms before the first line is
// read, more than a small bundle's whole analysis, on the login nodes and in the scripts where
// these commands run. The window and `report` (whose PDF is painted with QPainter) live in the Qt
// module beside it, loaded only for them: one program for users, `rankline`, either way.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

#include "analysis.h"
#include "cli/cli.h"
#include "gui_main.h"

#if RANKLINE_MIMALLOC
#include <mimalloc.h>
#endif

namespace
{

// A bundle of thousands of small logs is read with a descriptor held per file, within a share of
// the soft limit (util/mapped_file.h, SmallFile; mapped beyond it). Desktop sessions often set the
// soft limit to 1024 under a hard limit hundreds of times higher: raise it, as a program that
// never uses select() may.
void raiseDescriptorLimit()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
        return;
    rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, rlim_t{1} << 20);
    ::setrlimit(RLIMIT_NOFILE, &rl);
}

// The headless commands make and free hundreds of thousands of small records (per rank, per line
// that matters) on every core, then exit. The binary's allocator is mimalloc (linked in
// app/CMakeLists.txt), whose free lists are per thread and per page: with glibc malloc, whose arenas
// lock and coalesce, and after tuning its thresholds and huge pages for this, allocation was a
// seventh of diagnosing 10,000 small files. Measured by alternating runs (docs/performance-history.md):
// 10,000 small files 8 to 11 % less wall time, the large-file bundles unchanged.
// From the analysis on, memory a stage frees goes back to the system at once rather than 25 ms
// later (mimalloc's default; reuseBetweenStages below keeps it 5 ms between some stages): the
// stages after the scan allocate on the main thread, and what the scan's threads freed would
// otherwise still be resident beside it (67 MiB at the peak on those files, over the 40 % of their
// bytes the project allows, and 62 with this, for a few per cent of the gain). Until then the
// default stands: loading the encyclopedia (a JSON document per entry, hundreds of regexes
// compiled and checked) and reading a folder of many files free and allocate again at once, and
// each page given back was faulted in anew. What they left free goes back when the analysis
// starts, so the peak is as before: 10,000 small files 20–35 ms faster and 64 × 4 MiB 13–20 ms
// (medians of alternating runs, two sets), peak RSS unchanged within 0.3 MiB. The window and the
// other commands keep the defaults.
void useMemoryForSpeed()
{
#if RANKLINE_MIMALLOC
    mi_option_set(mi_option_decommit_delay, 0);
    mi_collect(true);
#endif
}

// The stages after the scan that build every rank's records (identity and events, the clock, the
// environment) each free much of what the one before built and allocate as much again on the main
// thread: the clock stage frees the scans' per-source results, and the environment's records of
// ten thousand ranks are as large. Purged at once, each page they reuse is faulted in anew, which
// costs 10 µs or more a page on some virtual machines (README, Performance). Through the identity
// and clock stages freed memory is kept 5 ms for the next allocations (twelve alternating rounds on
// 10,000 small files when it was kept through the environment too: 0.600 -> 0.560 s; 10 and 25 ms
// gained no more and kept more). The run's peak is in the environment stage, where every rank's
// record is allocated while the events, hits and environment lines are all held (VmHWM on those
// files as each stage ends: scan 57.0, identity 60.2, clock 61.4, environment 64.4-65.3 MiB with
// the delay kept through it, over the 40 % line of 64.3): from that stage on, freed memory is
// purged at once, and the peak is 60.3-62.5 MiB. That stage takes 29 -> 60 ms (its allocations
// fault their pages anew), within the runs' spread of the whole: alternating runs, 0.691 -> 0.668
// and 0.769 -> 0.762 s (medians of 5 and 8). The 64-file bundle, whose stages after the scan take
// milliseconds, is unchanged.
void reuseBetweenStages(std::string_view stage)
{
#if RANKLINE_MIMALLOC
    if (stage == "index, parse, scan")
        mi_option_set(mi_option_decommit_delay, 5);
    else if (stage == "clock alignment")
        mi_option_set(mi_option_decommit_delay, 0);
#else
    (void)stage;
#endif
}

// The module sits beside the binary in a build tree, and in rankline's library folder once
// installed (packaging/CMakeLists.txt).
int runQtModule(int argc, char** argv)
{
    std::string dir = rl::executableDir();
    if (dir.empty())
        dir = ".";
    const std::vector<std::string> candidates = {dir + "/" RANKLINE_GUI_MODULE,
                                                 dir + "/" RANKLINE_GUI_MODULE_INSTALLED};
    std::string problem;
    for (const auto& path : candidates) {
        if (::access(path.c_str(), F_OK) != 0)
            continue;
        void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!module) {
            problem = path + " did not load: " + ::dlerror();
            break;
        }
        using Entry = int (*)(int, char**);
        auto entry = reinterpret_cast<Entry>(::dlsym(module, RANKLINE_GUI_ENTRY));
        if (!entry) {
            problem = path + " is not rankline's Qt module (no " RANKLINE_GUI_ENTRY ")";
            break;
        }
        return entry(argc, argv);
    }
    if (problem.empty())
        problem = "it is not installed (looked for " + candidates[0] + " and " + candidates[1] + ")";
    std::fprintf(stderr,
                 "rankline: the window and `rankline report` need rankline's Qt module, and %s.\n"
                 "The headless commands (diagnose, probe, encyclopedia) work without it; reinstall "
                 "rankline (or build the rankline_gui target) for the rest.\n",
                 problem.c_str());
    return 3;
}

} // namespace

int main(int argc, char** argv)
{
    raiseDescriptorLimit();
    const std::vector<std::string> args(argv, argv + argc);
    if (rl::cli::isHeadless(args)) {
        rl::cli::Hooks hooks;
        hooks.beforeAnalysis = useMemoryForSpeed;
        hooks.afterStage = reuseBetweenStages;
        return rl::cli::run(args, hooks);
    }
    return runQtModule(argc, argv);
}
