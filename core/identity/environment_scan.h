#pragma once
// Fills Analysis::environment and the NCCL version disagreement (Analysis::nccl.mismatch) from
// the scanner's built-in hits and the events, once processes are known (see analysis.cpp).

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/scanner.h"
#include "identity/version_clues.h"
#include "util/strong_id.h"

namespace rl
{

struct Analysis;

// What a built-in line's text says beyond the scanner's captures. Read by the scan while it holds
// the line's text (readEnvironmentLine), applied to its rank by collectEnvironment once processes
// are known: reading it there would read every file a second time.
struct EnvironmentLine {
    struct Setting {
        std::string name, value;
        const char* how; // "set by environment", "set", "printed"
    };
    std::vector<Setting> settings;                           // NcclSetting
    std::vector<std::pair<std::string, std::string>> listed; // (interface, address) listed on the line
    std::vector<LineClue> clues;                             // NCCL versions the line's form implies
    std::optional<std::string> cuda;                         // "+cudaX.Y" / "CUDA X.Y" on a version line
    bool empty() const { return settings.empty() && listed.empty() && clues.empty() && !cuda; }
};

struct EnvironmentHit {
    LineRef where;
    Builtin builtin = Builtin::None;
    Captures captures;
    std::unique_ptr<EnvironmentLine> text; // null when the text says nothing more
};

// The built-in patterns whose hits collectEnvironment reads.
bool isEnvironmentBuiltin(Builtin b);
// Those of them that tell something by their captures alone; the others only through the text the
// scan read (EnvironmentLine), so a hit of theirs without one need not be passed on.
bool environmentReadsCaptures(Builtin b);
// The text of a line that matched `builtin`; null when it says nothing beyond the captures.
std::unique_ptr<EnvironmentLine> readEnvironmentLine(Builtin builtin, std::string_view text);

// `workers`: threads for reading the lines' text (source by source).
void collectEnvironment(Analysis& analysis, std::vector<EnvironmentHit> hits, unsigned workers);

// Why an interface or address is suspicious: loopback, docker, veth, link-local (any of them).
std::vector<std::string> addressKinds(const std::string& interface, const std::string& address);
// The subnet an address is compared by: "10.0.0.0/24" for IPv4, the first four groups + "::/64"
// for IPv6; empty for loopback, link-local and anything unparsable.
std::string assumedSubnet(const std::string& address);
// "ranks 0–3, 5 on gpu-a, gpu-b" for people.
std::string describeProcesses(const Analysis& analysis, const std::vector<ProcessId>& processes);

} // namespace rl
