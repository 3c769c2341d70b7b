#pragma once
// Stage 6: from fingerprint hits to findings — which entry, which rank, initiating or collateral,
// the evidence with its labels, the evaluated checklist, and the NCCL version verdict.

#include <vector>

#include "analysis.h"

namespace rl
{

struct Hit {
    LineRef where;
    int entry = -1;
    int symptom = -1;
    Captures captures;
};

// Fills analysis.findings, analysis.initiating and analysis.nccl.fixApplies/releaseVerdict/hints.
// Needs sources, lines, processes, events and nccl.logs/local already in place.
void buildFindings(Analysis& analysis, const std::vector<Hit>& hits);

// The NCCL release family that prints the connect-abort WARN at misc/socket.cc:<warnLine> followed
// by the trail line misc/socket.cc:<trailLine> (checked on every 2.16–2.23 tag).
std::optional<VersionRange> connectAbortFamily(int warnLine, int trailLine);

// A finding's suspects, those with one reason together (in the order each reason first appears),
// each group said in one line: "rank 2: <reason>", or "ranks 0–408, 410 on gpu-0000 … : <reason
// for many>".
std::vector<std::string> suspectLines(const Analysis& analysis, const std::vector<Suspect>& suspects);

} // namespace rl
