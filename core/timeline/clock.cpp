#include "timeline/clock.h"

#include <algorithm>

namespace rl
{

namespace
{

constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max() / 4;

struct Edge {
    std::size_t from, to; // x_to - x_from <= w
    std::int64_t w;
    std::string why;
};

std::string ms(std::int64_t us)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.3f s", static_cast<double>(us) / 1e6);
    return buf;
}

} // namespace

std::int64_t ClockModel::offsetOf(const std::string& host) const
{
    for (const auto& h : hosts)
        if (h.host == host)
            return h.offsetUs;
    return 0;
}

ClockModel solveClocks(const std::vector<std::string>& hosts, const std::vector<ClockConstraint>& constraints,
                       const std::vector<ClockOverride>& overrides, const std::vector<PinnedPair>& pins)
{
    ClockModel model;
    model.constraintCount = constraints.size();
    std::map<std::string, std::size_t> index;
    for (const auto& h : hosts)
        if (!index.count(h)) {
            index[h] = model.hosts.size();
            HostClock hc;
            hc.host = h;
            model.hosts.push_back(std::move(hc));
        }
    if (model.hosts.empty())
        return model;
    const std::size_t n = model.hosts.size();
    // Node n is the reference clock itself; the first host is tied to it unless the user set it.
    std::vector<Edge> edges;
    auto addEq = [&](std::size_t a, std::size_t b, std::int64_t d, const std::string& why) {
        // x_a - x_b == d
        edges.push_back({b, a, d, why});
        edges.push_back({a, b, -d, why});
    };
    for (const auto& c : constraints) {
        auto b = index.find(c.beforeHost), a = index.find(c.afterHost);
        if (b == index.end() || a == index.end() || b->second == a->second)
            continue;
        // x_before - x_after <= bound: an edge after -> before.
        edges.push_back({a->second, b->second, c.bound(), c.why});
    }
    std::vector<bool> userSet(n, false);
    for (const auto& o : overrides) {
        auto it = index.find(o.host);
        if (it == index.end())
            continue;
        userSet[it->second] = true;
        addEq(it->second, n, o.offsetUs, "offset typed in by the user");
    }
    for (const auto& p : pins) {
        auto a = index.find(p.hostA), b = index.find(p.hostB);
        if (a == index.end() || b == index.end() || a->second == b->second)
            continue;
        // Simultaneous: timeA + x_a == timeB + x_b
        addEq(a->second, b->second, p.timeB - p.timeA, "two lines pinned as simultaneous by the user");
    }
    std::size_t ref = 0;
    if (std::none_of(userSet.begin(), userSet.end(), [](bool b) { return b; })) {
        // The reference is the host with the most constraints touching it: its clock moves least.
        std::vector<std::size_t> degree(n, 0);
        for (const auto& e : edges) {
            if (e.from < n)
                ++degree[e.from];
            if (e.to < n)
                ++degree[e.to];
        }
        ref = static_cast<std::size_t>(std::max_element(degree.begin(), degree.end()) - degree.begin());
        addEq(ref, n, 0, "reference clock");
        model.hosts[ref].reference = true;
    }
    const std::size_t nodes = n + 1;

    // Shortest paths from the reference node give upper bounds (x_h <= d(ref, h)); on the reversed
    // graph, lower bounds (x_h >= -d(h, ref)). Bellman-Ford finds negative cycles too.
    auto bellmanFord = [&](bool reversed, std::vector<std::int64_t>& dist,
                           std::vector<int>& via) -> std::optional<std::size_t> {
        dist.assign(nodes, kInf);
        via.assign(nodes, -1);
        dist[n] = 0;
        std::optional<std::size_t> changed;
        for (std::size_t round = 0; round < nodes; ++round) {
            changed.reset();
            for (std::size_t i = 0; i < edges.size(); ++i) {
                const Edge& e = edges[i];
                std::size_t u = reversed ? e.to : e.from, v = reversed ? e.from : e.to;
                if (dist[u] == kInf)
                    continue;
                if (dist[u] + e.w < dist[v]) {
                    dist[v] = dist[u] + e.w;
                    via[v] = static_cast<int>(i);
                    changed = v;
                }
            }
            if (!changed)
                return std::nullopt;
        }
        return changed; // still relaxing after |V| rounds: a negative cycle reaches this node
    };
    std::vector<std::int64_t> up, down;
    std::vector<int> viaUp, viaDown;
    auto cycle = bellmanFord(false, up, viaUp);
    if (!cycle)
        cycle = bellmanFord(true, down, viaDown);
    if (cycle) {
        model.feasible = false;
        // Walk back along the predecessor edges to name the constraints in the cycle.
        const auto& via = viaDown.empty() ? viaUp : viaDown;
        std::size_t v = *cycle;
        for (std::size_t i = 0; i < nodes; ++i)
            v = via[v] >= 0 ? (viaDown.empty() ? edges[static_cast<std::size_t>(via[v])].from
                                               : edges[static_cast<std::size_t>(via[v])].to)
                            : v;
        std::size_t start = v;
        for (std::size_t guard = 0; guard <= edges.size() && via[v] >= 0; ++guard) {
            const Edge& e = edges[static_cast<std::size_t>(via[v])];
            model.conflicts.push_back(e.why);
            v = viaDown.empty() ? e.from : e.to;
            if (v == start)
                break;
        }
        for (auto& h : model.hosts)
            h.offsetUs = 0;
        return model;
    }
    for (std::size_t h = 0; h < n; ++h) {
        HostClock& hc = model.hosts[h];
        hc.userSet = userSet[h];
        if (up[h] != kInf)
            hc.hiUs = up[h];
        if (down[h] != kInf)
            hc.loUs = -down[h];
        std::int64_t lo = hc.loUs.value_or(-kInf), hi = hc.hiUs.value_or(kInf);
        hc.offsetUs = std::clamp<std::int64_t>(0, lo, hi);
        if (h == ref && !hc.userSet)
            continue; // the reference's own bounds say nothing
        if (viaUp[h] >= 0 && hc.hiUs)
            hc.basis.push_back("at most " + ms(*hc.hiUs) + ": " +
                               edges[static_cast<std::size_t>(viaUp[h])].why);
        if (viaDown[h] >= 0 && hc.loUs)
            hc.basis.push_back("at least " + ms(*hc.loUs) + ": " +
                               edges[static_cast<std::size_t>(viaDown[h])].why);
    }
    return model;
}

} // namespace rl
