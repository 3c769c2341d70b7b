#pragma once
// The commands that run without Qt: diagnose, probe, encyclopedia, --help, --version. `report` and
// the window live in the Qt module the binary loads for them (app/main.cpp).

#include <string>
#include <string_view>
#include <vector>

namespace rl::cli
{

// What the binary around the commands does between their stages (app/main.cpp sets its
// allocator's policy there). Null members do nothing.
struct Hooks {
    // diagnose: once the bundle is read and the encyclopedia loaded, before the analysis starts.
    void (*beforeAnalysis)() = nullptr;
    // diagnose: as each stage of the analysis ends (AnalyzeOptions::afterStage).
    void (*afterStage)(std::string_view stage) = nullptr;
};

// True when args (argv as given) name one of the commands above.
bool isHeadless(const std::vector<std::string>& args);
// Runs it; returns the process exit status.
int run(const std::vector<std::string>& args, const Hooks& hooks = {});

} // namespace rl::cli
