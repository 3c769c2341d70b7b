#pragma once
// The commands that run without Qt: diagnose, probe, encyclopedia, --help, --version. `report` and
// the window live in the Qt module the binary loads for them (app/main.cpp).

#include <string>
#include <vector>

namespace rl::cli
{

// True when args (argv as given) name one of the commands above.
bool isHeadless(const std::vector<std::string>& args);
// Runs it; returns the process exit status.
int run(const std::vector<std::string>& args);

} // namespace rl::cli
