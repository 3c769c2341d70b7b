#pragma once
// Which lines of the merged log to show. A filter is a value; filterRows() turns it into the merged
// rows that pass, in order, as one index vector (four bytes a shown line). It is a pure function over
// the immutable Analysis, so the window runs it on a worker thread for big bundles.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/analysisindex.h"

namespace rl
{

struct LogFilter {
    enum class Scope { All, Host, Process };
    Scope scope = Scope::All;
    std::string host;             // Scope::Host
    ProcessId process;            // Scope::Process
    Level minLevel = Level::None; // above None: lines without a level are hidden, unless they are
                                  // events of that severity (a traceback's first line)
    bool eventsOnly = false;      // only lines the timeline marks
    std::uint32_t subsystems = 0; // bit (1 << NcclSubsystem) per subsystem shown; 0: no restriction
    int finding = -1;             // index into Analysis::findings: its evidence and symptom lines
    std::optional<std::vector<LineRef>> onlyLines; // e.g. the bookmarks
    // "±N lines of context from this rank": the N lines before and after `contextOf` in its own file
    // that belong to the same process. Overrides every other restriction.
    std::optional<LineRef> contextOf;
    int contextLines = 0;

    bool isIdentity() const
    {
        return scope == Scope::All && minLevel == Level::None && !eventsOnly && subsystems == 0 &&
               finding < 0 && !onlyLines && !contextOf;
    }
    bool operator==(const LogFilter&) const = default;
};

// The merged rows that pass, ascending; nullopt when `cancelled` said stop. An identity filter gives
// every row (callers avoid that case: they show the merged order directly).
std::optional<std::vector<std::uint32_t>> filterRows(const AnalysisIndex& index, const LogFilter& filter,
                                                     const std::function<bool()>& cancelled = {});

} // namespace rl
