#pragma once
// Per-host clock offsets from happened-before constraints found in the logs themselves.
//
// Each constraint says one line (on host `before`) happened no later than another (on host `after`).
// With times as intervals [lo, hi) in each host's own clock and offsets x (added to a host's raw
// time to get the reference clock), "A before B" gives  x_A - x_B <= hi_B - lo_A : a difference
// constraint. The feasible offsets of every host are found with shortest paths from and to the
// reference host (Bellman-Ford); each host then gets the offset closest to zero inside its interval
// (the smallest correction). A negative cycle means the constraints contradict each other; that is
// reported with the constraints involved, and no correction is applied.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/strong_id.h"

namespace rl
{

struct ClockConstraint {
    std::string beforeHost;
    std::string afterHost;
    std::int64_t beforeLo = 0; // raw time bounds of the earlier line, in its host's clock
    std::int64_t afterHi = 0;  // raw upper bound of the later line, in its host's clock
    LineRef before;
    LineRef after;
    std::string why;
    // x_before - x_after <= bound
    std::int64_t bound() const { return afterHi - beforeLo; }
};

// The user's word: a host's offset typed in, or two lines that happened at the same moment.
struct ClockOverride {
    std::string host;
    std::int64_t offsetUs = 0;
};
struct PinnedPair {
    std::string hostA, hostB;
    std::int64_t timeA = 0, timeB = 0; // raw times of the two pinned lines
};

struct HostClock {
    std::string host;
    std::int64_t offsetUs = 0;
    std::optional<std::int64_t> loUs; // feasible interval; nullopt = unbounded
    std::optional<std::int64_t> hiUs;
    bool reference = false;
    bool userSet = false;
    std::vector<std::string> basis; // the constraints that bound it
};

struct ClockModel {
    std::vector<HostClock> hosts;
    bool feasible = true;
    std::vector<std::string> conflicts; // when infeasible: the constraints in the cycle
    std::size_t constraintCount = 0;

    std::int64_t offsetOf(const std::string& host) const;
};

ClockModel solveClocks(const std::vector<std::string>& hosts, const std::vector<ClockConstraint>& constraints,
                       const std::vector<ClockOverride>& overrides = {},
                       const std::vector<PinnedPair>& pins = {});

} // namespace rl
