#pragma once
// NCCL versions implied by the form of a log line when no version line says it: which releases
// print that prefix, that message, at that source line. Every rule is a fact from
// shared/docs/nccl-log-formats.md (§1.1, §2.3, §2.5, §3, §4.2, §5.1, Parser implications C.3);
// "x" in a display means every patch release of that minor.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "identity/environment.h"

namespace rl
{

// What one line says about the NCCL version. Compact, because the scan keeps one per rank and
// form until ranks are known: the rule's id and wording are literals, and only a wording that
// quotes the line (an API name, WARN line numbers) is a string of its own.
struct LineClue {
    const char* id = "";
    VersionRange range;
    const char* staticBasis = nullptr; // the rule's wording, or null when `ownBasis` holds it
    std::string ownBasis;

    std::string basis() const { return std::string(basisView()); }
    std::string_view basisView() const { return staticBasis ? std::string_view(staticBasis) : ownBasis; }
    std::string display() const; // rangeDisplay(range)
};

// Clues from one line (an NCCL INFO/WARN line, or NCCL's text repeated bare, e.g. after
// PyTorch's "Last error:"). WARNs of external net plugins (files other than NCCL's *.cc/*.h) say
// nothing about NCCL's own version and give none.
std::vector<LineClue> versionCluesOfLine(std::string_view line);

// The connect-abort WARN at misc/socket.cc:<warnLine> followed by the trail misc/socket.cc:<trailLine>
// (the table in nccl-log-formats §2.3, checked on every 2.16–2.23 tag).
std::optional<LineClue> connectAbortClue(int warnLine, int trailLine);
// The NCCL releases whose src/proxy.cc prints the "[Proxy Service R] Failed to execute operation"
// WARN at line `fileLine` (v2.12.7 to v2.30.4), or nullopt for a line none of them prints it at.
std::optional<VersionRange> proxyWarnFamily(int fileLine);

// Exactly `v`, from the "Mismatched NCCL version detected" WARN's version code.
LineClue exactVersionClue(const Version& v, const std::string& basis);

// Intersection; nullopt when the ranges do not overlap.
std::optional<VersionRange> intersect(const VersionRange& a, const VersionRange& b);
bool overlaps(const VersionRange& a, const VersionRange& b);
// "2.18.3", "≥ 2.24.3", "≤ 2.23.4", "2.16.2–2.28.x".
std::string rangeDisplay(const VersionRange& r);

} // namespace rl
