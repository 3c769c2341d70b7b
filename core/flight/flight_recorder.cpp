#include "flight/flight_recorder.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "bundle/pickle.h"
#include "util/rank_runs.h"
#include "util/sha256.h"
#include "util/strings.h"

namespace rl
{

namespace
{

using nlohmann::json;

// A number as the pickle (an int) or the JSON dump (a decimal string) holds it; -1 where neither.
std::int64_t numberOf(const json& v)
{
    if (v.is_number_integer())
        return v.get<std::int64_t>();
    if (v.is_number_float())
        return static_cast<std::int64_t>(v.get<double>());
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        char* end = nullptr;
        const long long n = std::strtoll(s.c_str(), &end, 10);
        if (end != s.c_str() && *end == '\0')
            return n;
    }
    return -1;
}

std::string textOf(const json& v)
{
    return v.is_string() ? v.get<std::string>() : std::string{};
}

// pg_config's "ranks": the string c10d writes ("[0, 1, 2, 3]"), or a list.
std::vector<int> ranksOf(const json& v)
{
    std::vector<int> out;
    if (v.is_array()) {
        for (const auto& r : v)
            if (r.is_number_integer())
                out.push_back(r.get<int>());
    } else if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        for (std::size_t i = 0; i < s.size();) {
            if (std::isdigit(static_cast<unsigned char>(s[i]))) {
                std::size_t j = i;
                while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
                    ++j;
                if (j - i <= 9)
                    out.push_back(std::stoi(s.substr(i, j - i)));
                i = j;
            } else {
                ++i;
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

const json* member(const json& o, const char* key)
{
    if (!o.is_object())
        return nullptr;
    auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

// The innermost frame outside PyTorch's own files: the program's line that called the collective.
FlightCallSite callSite(const json& entry)
{
    const json* frames = member(entry, "frames");
    if (!frames || !frames->is_array())
        return {};
    for (const json& f : *frames) {
        if (!f.is_object())
            continue;
        const json* file = member(f, "filename");
        if (!file || !file->is_string())
            continue;
        const std::string& path = file->get_ref<const std::string&>();
        // torch's own Python files (distributed_c10d.py, c10d_logger.py, nn/parallel/...), and
        // the interpreter's frozen modules.
        if (path.empty() || path.find("/torch/") != std::string::npos || path.starts_with("<"))
            continue;
        FlightCallSite s;
        s.file = path;
        if (const json* line = member(f, "line"))
            s.line = numberOf(*line);
        if (const json* name = member(f, "name"))
            s.function = textOf(*name);
        return s;
    }
    return {};
}

} // namespace

std::string FlightGroupView::opAt(std::int64_t seq) const
{
    for (const auto& [s, op] : ops)
        if (s == seq)
            return op;
    return {};
}

FlightCallSite FlightGroupView::siteAt(std::int64_t seq) const
{
    for (const auto& [s, site] : sites)
        if (s == seq)
            return site;
    return {};
}

namespace
{

// "<path>:88 in train_step"
std::string siteText(std::string_view path, const FlightCallSite& s)
{
    return std::string(path) + ":" + std::to_string(s.line) + (s.function.empty() ? "" : " in " + s.function);
}

} // namespace

std::string FlightCallSite::text() const
{
    return siteText(file, *this);
}

std::string FlightCallSite::brief() const
{
    return siteText(std::string_view(file).substr(file.find_last_of('/') + 1), *this);
}

std::vector<int> FlightGroupVerdict::behind() const
{
    std::vector<int> r;
    for (const auto& [rank, last] : behindLast)
        r.push_back(rank);
    return r;
}

std::optional<int> flightDumpRank(std::string_view display)
{
    std::string_view name = display.substr(display.find_last_of('/') + 1);
    // "nccl_trace_rank_3.pkl", "rank_3.json": the number before an extension counts too.
    const auto [begin, end] = lastDigitRun(name);
    if (begin == end || end - begin > 7)
        return std::nullopt;
    return std::stoi(std::string(name.substr(begin, end - begin)));
}

Expected<FlightDump> readFlightDump(std::string_view bytes, const std::string& display)
{
    json root;
    const std::size_t first = bytes.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && bytes[first] == '{') {
        // The recorder's JSON form (dump_json; TORCH_NCCL_... handlers that ask for JSON).
        root = json::parse(bytes.begin(), bytes.end(), nullptr, false);
        if (root.is_discarded())
            return Error{display, "a Flight Recorder dump in JSON that does not parse",
                         "the file was cut short while being written; the other ranks' dumps are still read"};
    } else {
        auto p = readPickle(bytes, display);
        if (!p)
            return Error{display, "a Flight Recorder dump that does not read: " + p.error().cause,
                         "the file was cut short while being written, or it is another pickle; the other "
                         "ranks' dumps are still read"};
        root = std::move(*p);
    }
    if (!root.is_object() || !member(root, "version"))
        return Error{display, "a pickle that is no Flight Recorder dump (no \"version\" at its top)",
                     "name a folder of nccl_trace_rank_N files as PyTorch writes them"};
    FlightDump d;
    d.file = display;
    d.rank = flightDumpRank(display);
    d.bytes = bytes.size();
    d.sha256 = sha256Hex(bytes);
    d.version = textOf(root["version"]);
    for (const char* k : {"comm_lib_version", "nccl_version"})
        if (const json* v = member(root, k); v && v->is_string() && !v->get_ref<const std::string&>().empty())
            d.commLibVersion = v->get<std::string>();

    std::map<std::string, FlightGroupView> groups; // by name
    auto group = [&groups](const std::string& name) -> FlightGroupView& {
        FlightGroupView& g = groups[name];
        g.name = name;
        return g;
    };
    if (const json* config = member(root, "pg_config"); config && config->is_object())
        for (const auto& [name, info] : config->items()) {
            FlightGroupView& g = group(name);
            if (info.is_object()) {
                if (const json* desc = member(info, "desc"))
                    g.desc = textOf(*desc);
                if (const json* ranks = member(info, "ranks"))
                    g.ranks = ranksOf(*ranks);
            } else {
                g.ranks = ranksOf(info);
            }
        }
    // Entries: per group, the sequence numbers seen in each state, and the operations.
    std::map<std::int64_t, std::string> nameOfId; // pg_id -> group name
    std::map<std::string, std::map<std::int64_t, std::string>> opsOf;
    std::map<std::string, std::map<std::int64_t, FlightCallSite>> sitesOf;
    std::map<std::string, std::array<std::int64_t, 3>> fromEntries; // enqueued, started, completed
    if (const json* entries = member(root, "entries"); entries && entries->is_array()) {
        d.entries = entries->size();
        for (const json& e : *entries) {
            if (!e.is_object())
                continue;
            std::string name, desc;
            if (const json* pg = member(e, "process_group"); pg && pg->is_array() && !pg->empty()) {
                name = textOf((*pg)[0]);
                if (pg->size() > 1)
                    desc = textOf((*pg)[1]);
            }
            const std::int64_t pgId = member(e, "pg_id") ? numberOf(e["pg_id"]) : -1;
            if (name.empty() && pgId >= 0)
                name = std::to_string(pgId);
            if (name.empty())
                continue;
            if (pgId >= 0)
                nameOfId.emplace(pgId, name);
            FlightGroupView& g = group(name);
            if (g.desc.empty())
                g.desc = desc;
            const std::string state = member(e, "state") ? textOf(e["state"]) : std::string{};
            const json* p2p = member(e, "is_p2p");
            if (p2p && p2p->is_boolean() && p2p->get<bool>()) {
                // The first send or receive not completed (entries are in the order recorded).
                if (state != "completed" && g.pendingP2p.empty()) {
                    g.pendingP2p = member(e, "profiling_name") ? textOf(e["profiling_name"]) : std::string{};
                    if (g.pendingP2p.empty())
                        g.pendingP2p = "a point-to-point operation";
                    g.pendingP2pState = state;
                }
                continue;
            }
            const std::int64_t seq = member(e, "collective_seq_id") ? numberOf(e["collective_seq_id"]) : -1;
            if (seq < 0)
                continue;
            auto [it, added] = fromEntries.try_emplace(name, std::array<std::int64_t, 3>{-1, -1, -1});
            auto& last = it->second;
            last[0] = std::max(last[0], seq);
            if (state == "started" || state == "completed")
                last[1] = std::max(last[1], seq);
            if (state == "completed")
                last[2] = std::max(last[2], seq);
            auto& ops = opsOf[name];
            ops[seq] = member(e, "profiling_name") ? textOf(e["profiling_name"]) : std::string{};
            if (ops.size() > FlightGroupView::kKeptOps)
                ops.erase(ops.begin());
            auto& sites = sitesOf[name];
            if (FlightCallSite site = callSite(e); !site.empty())
                sites[seq] = std::move(site);
            while (!sites.empty() && sites.begin()->first < ops.begin()->first)
                sites.erase(sites.begin());
        }
    }
    for (auto& [name, last] : fromEntries) {
        FlightGroupView& g = group(name);
        g.lastEnqueued = last[0];
        g.lastStarted = last[1];
        g.lastCompleted = last[2];
    }
    // pg_status (format 2.3 on) counts every collective, also those the ring buffer has dropped.
    if (const json* status = member(root, "pg_status"); status && status->is_object())
        for (const auto& [id, s] : status->items()) {
            if (!s.is_object())
                continue;
            const std::int64_t pgId = numberOf(json(id));
            auto named = nameOfId.find(pgId);
            const std::string name = named != nameOfId.end() ? named->second : id;
            FlightGroupView& g = group(name);
            if (const json* v = member(s, "last_enqueued_collective"))
                g.lastEnqueued = numberOf(*v);
            if (const json* v = member(s, "last_started_collective"))
                g.lastStarted = numberOf(*v);
            if (const json* v = member(s, "last_completed_collective"))
                g.lastCompleted = numberOf(*v);
        }
    for (auto& [name, g] : groups) {
        if (auto ops = opsOf.find(name); ops != opsOf.end())
            g.ops.assign(ops->second.begin(), ops->second.end());
        if (auto sites = sitesOf.find(name); sites != sitesOf.end())
            g.sites.assign(sites->second.begin(), sites->second.end());
        d.groups.push_back(std::move(g));
    }
    return d;
}

FlightRecorder summarizeFlight(std::vector<FlightDump> dumps)
{
    FlightRecorder f;
    std::sort(dumps.begin(), dumps.end(),
              [](const FlightDump& a, const FlightDump& b) { return a.file < b.file; });
    f.dumps = std::move(dumps);
    // Per group name: each ranked dump's view of it. Two dumps naming one rank (a copy, or two
    // runs' dumps side by side): the first by file name is kept.
    std::map<std::string, std::map<int, const FlightGroupView*>> views;
    std::map<std::string, std::set<int>> members;
    std::map<std::string, std::string> descs;
    std::map<int, const std::string*> compared; // rank -> its dump's file
    for (const FlightDump& d : f.dumps) {
        if (!d.rank)
            continue;
        if (auto [it, added] = compared.try_emplace(*d.rank, &d.file); !added) {
            f.notCompared.push_back({d.file, *d.rank, *it->second});
            continue;
        }
        for (const FlightGroupView& g : d.groups) {
            views[g.name].try_emplace(*d.rank, &g);
            members[g.name].insert(g.ranks.begin(), g.ranks.end());
            if (descs[g.name].empty())
                descs[g.name] = g.desc;
        }
    }
    for (const auto& [name, byRank] : views) {
        if (byRank.size() < 2)
            continue;
        FlightGroupVerdict v;
        v.name = name;
        v.desc = descs[name];
        const std::set<int>& m = members[name];
        v.ranks.assign(m.begin(), m.end());
        if (v.ranks.empty())
            for (const auto& [rank, g] : byRank)
                v.ranks.push_back(rank);
        for (int r : v.ranks)
            if (!byRank.count(r))
                v.withoutDump.push_back(r);
        std::int64_t maxEnqueued = -1, minCompleted = INT64_MAX;
        for (const auto& [rank, g] : byRank) {
            maxEnqueued = std::max(maxEnqueued, g->lastEnqueued);
            minCompleted = std::min(minCompleted, g->lastCompleted);
        }
        if (maxEnqueued <= minCompleted) {
            // No collective pending: a send or receive may be (pipeline stages wait on each other).
            for (const auto& [rank, g] : byRank)
                if (!g->pendingP2p.empty()) {
                    v.waiting.push_back(rank);
                    v.ops.emplace_back(rank, g->pendingP2p);
                }
            if (v.waiting.empty()) {
                ++f.groupsComplete;
                continue;
            }
            v.kind = FlightGroupVerdict::Kind::PointToPoint;
            v.awaited = maxEnqueued;
            f.verdicts.push_back(std::move(v));
            continue;
        }
        v.awaited = minCompleted < 0 ? 0 : minCompleted + 1;
        // Sequence numbers start at 0 or 1 by PyTorch version: the first one a rank recorded past
        // every rank's completed count is the one waited in.
        std::int64_t first = INT64_MAX;
        for (const auto& [rank, g] : byRank)
            for (const auto& [seq, op] : g->ops)
                if (seq > minCompleted)
                    first = std::min(first, seq);
        if (first != INT64_MAX)
            v.awaited = first;
        std::map<std::string, std::vector<int>> opRanks;
        for (const auto& [rank, g] : byRank) {
            if (g->lastEnqueued < v.awaited) {
                v.behindLast.emplace_back(rank, g->lastEnqueued);
            } else if (g->lastCompleted < v.awaited) {
                v.waiting.push_back(rank);
            }
            const std::string op = g->opAt(v.awaited);
            if (!op.empty()) {
                opRanks[op].push_back(rank);
                v.ops.emplace_back(rank, op);
                if (v.awaitedOp.empty())
                    v.awaitedOp = op;
            }
        }
        if (opRanks.size() > 1) {
            v.kind = FlightGroupVerdict::Kind::Mismatch;
            // The operation most ranks enqueued names the collective.
            auto most = std::max_element(opRanks.begin(), opRanks.end(), [](const auto& a, const auto& b) {
                return a.second.size() < b.second.size();
            });
            v.awaitedOp = most->first;
        } else {
            v.ops.clear();
            v.kind =
                v.behindLast.empty() ? FlightGroupVerdict::Kind::Stalled : FlightGroupVerdict::Kind::Behind;
        }
        for (const auto& [rank, g] : byRank) {
            const std::int64_t seq = g->lastEnqueued < v.awaited ? g->lastEnqueued : v.awaited;
            if (FlightCallSite site = g->siteAt(seq); !site.empty())
                v.sites.push_back({rank, seq, g->opAt(seq), std::move(site)});
        }
        f.verdicts.push_back(std::move(v));
    }
    // A rank that stayed away, then a mismatch, then a stall; within each, the larger group (a
    // rank behind in the default group says more than in a pair).
    auto order = [](FlightGroupVerdict::Kind k) {
        switch (k) {
        case FlightGroupVerdict::Kind::Behind:
            return 0;
        case FlightGroupVerdict::Kind::Mismatch:
            return 1;
        case FlightGroupVerdict::Kind::Stalled:
            return 2;
        case FlightGroupVerdict::Kind::PointToPoint:
            return 3;
        }
        return 4;
    };
    std::stable_sort(f.verdicts.begin(), f.verdicts.end(), [&](const auto& a, const auto& b) {
        if (order(a.kind) != order(b.kind))
            return order(a.kind) < order(b.kind);
        return a.ranks.size() > b.ranks.size();
    });
    return f;
}

const char* flightVerdictKindName(FlightGroupVerdict::Kind k)
{
    switch (k) {
    case FlightGroupVerdict::Kind::Behind:
        return "behind";
    case FlightGroupVerdict::Kind::Mismatch:
        return "mismatch";
    case FlightGroupVerdict::Kind::Stalled:
        return "stalled";
    case FlightGroupVerdict::Kind::PointToPoint:
        return "point-to-point";
    }
    return "";
}

std::string flightSentence(const FlightRecorder& f)
{
    if (f.verdicts.empty())
        return {};
    const FlightGroupVerdict& v = f.verdicts.front();
    const std::string group = "process group " + v.name + (v.desc.empty() ? "" : " (" + v.desc + ")");
    // Where the given ranks called collective `seq`, when their stacks agree ("" otherwise).
    auto siteOf = [&v](std::int64_t seq, const std::vector<int>& who) {
        const FlightCallSite* one = nullptr;
        for (const auto& s : v.sites)
            if (s.seq == seq && std::find(who.begin(), who.end(), s.rank) != who.end()) {
                if (one && !(*one == s.site))
                    return std::string{};
                one = &s.site;
            }
        return one ? one->brief() : std::string{};
    };
    const std::vector<int> inside = v.waiting.empty() ? v.ranks : v.waiting;
    const std::string calledAt = siteOf(v.awaited, inside);
    const std::string op = v.awaitedOp.empty() && calledAt.empty()
                               ? ""
                               : " (" + v.awaitedOp + (v.awaitedOp.empty() || calledAt.empty() ? "" : ", ") +
                                     (calledAt.empty() ? "" : "called at " + calledAt) + ")";
    const std::string awaited = "collective #" + std::to_string(v.awaited) + op;
    auto ranks = [](const std::vector<int>& r) {
        return (r.size() == 1 ? "rank " : "ranks ") + rankRuns(r, 8);
    };
    std::string s = "Flight Recorder (" + std::to_string(f.dumps.size()) + " dump" +
                    (f.dumps.size() == 1 ? "" : "s") + "): ";
    switch (v.kind) {
    case FlightGroupVerdict::Kind::Behind: {
        std::string last;
        if (v.behindLast.size() == 1) {
            const auto& [rank, seq] = v.behindLast.front();
            const std::string at = siteOf(seq, {rank});
            last = " (its last was #" + std::to_string(seq) + (at.empty() ? "" : ", called at " + at) + ")";
        }
        s += "in " + group + ", " + ranks(v.waiting.empty() ? v.ranks : v.waiting) + " wait in " + awaited +
             ", which " + ranks(v.behind()) + " never entered" + last + ": " +
             (v.behindLast.size() == 1 ? "that rank is" : "those ranks are") + " the one" +
             (v.behindLast.size() == 1 ? "" : "s") + " the others wait for.";
        break;
    }
    case FlightGroupVerdict::Kind::Mismatch: {
        std::map<std::string, std::vector<int>> byOp;
        for (const auto& [rank, o] : v.ops)
            byOp[o].push_back(rank);
        std::string list;
        for (const auto& [o, rs] : byOp) {
            const std::string at = siteOf(v.awaited, rs);
            list += (list.empty() ? "" : ", ") + ranks(rs) + " " + o + (at.empty() ? "" : " at " + at);
        }
        s += "at collective #" + std::to_string(v.awaited) + " of " + group +
             " the ranks enqueued different operations (" + list +
             "): a collective mismatch, each side waits for a partner that never comes.";
        break;
    }
    case FlightGroupVerdict::Kind::PointToPoint: {
        std::string list;
        for (const auto& [rank, o] : v.ops)
            list += (list.empty() ? "" : ", ") + std::string("rank ") + std::to_string(rank) + " " + o;
        s += "in " + group + " every collective completed, but " + ranks(v.waiting) +
             " wait in a send or receive (" + list +
             "): a pipeline stage whose partner never sent or received; the partner's own log says why.";
        break;
    }
    case FlightGroupVerdict::Kind::Stalled:
        s += "every rank of " + group + " with a dump entered " + awaited +
             " and none completed it: the hang is inside the collective (NCCL, the network, a GPU), "
             "not a rank that stayed away.";
        break;
    }
    if (!v.withoutDump.empty())
        s += " No dump of " + ranks(v.withoutDump) +
             " of the group is here: " + (v.withoutDump.size() == 1 ? "it" : "they") + " may be behind too.";
    return s;
}

} // namespace rl
