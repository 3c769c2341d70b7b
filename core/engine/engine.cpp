#include "engine/engine.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "identity/environment_scan.h"
#include "util/rank_runs.h"
#include "util/strings.h"

namespace rl
{

std::optional<VersionRange> connectAbortFamily(int warnLine, int trailLine)
{
    // Line numbers of the socketStartConnect WARN and of the NCCLCHECK trail right after it, per
    // release family (see shared docs, nccl-log-formats §2.3).
    struct Row {
        int warn, trail;
        VersionRange range;
    };
    static const Row rows[] = {
        {480, 554, {{2, 16, 2}, {2, 16, 2}}}, {480, 561, {{2, 16, 5}, {2, 18, 1}}},
        {483, 564, {{2, 18, 3}, {2, 18, 6}}}, {484, 565, {{2, 19, 3}, {2, 19, 4}}},
        {484, 567, {{2, 20, 3}, {2, 22, 3}}}, {485, 569, {{2, 23, 4}, {2, 23, 4}}},
    };
    for (const auto& r : rows)
        if (r.warn == warnLine && r.trail == trailLine)
            return r.range;
    return std::nullopt;
}

namespace
{

constexpr std::int64_t kSecond = 1000000;

std::string seconds(std::int64_t us)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(us) / 1e6);
    return buf;
}

std::string captureIn(const Hit& h, const char* name)
{
    std::string_view v = h.captures.get(name);
    // A capture that runs to the line's end would take Ray's "[repeated Nx across cluster]" with it
    // (27 characters at least: a shorter capture holds none).
    if (v.size() >= 27)
        if (const auto r = rayRepeatIn(v))
            v = v.substr(0, r->at);
    return std::string(v);
}

// Values as a sentence lists them: "0", "0 and 3", "1, 5 and 7"; numbers in order, with a run of
// three or more written "0–3"; other values in the order given. At most `most` items, then "and
// others": a box of a thousand ranks is not spelled out in a summary, and the scan keeps only the
// first few hits of each pattern per process, so how many more there are is not known here.
std::string listValues(std::vector<std::string> values, std::size_t most = 8)
{
    const bool numbers = std::all_of(values.begin(), values.end(), [](const std::string& v) {
        return !v.empty() && v.size() < 10 &&
               std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
    });
    std::vector<std::string> items;
    if (numbers) {
        std::vector<long> n;
        for (const auto& v : values)
            n.push_back(std::stol(v));
        std::sort(n.begin(), n.end());
        n.erase(std::unique(n.begin(), n.end()), n.end());
        for (std::size_t i = 0; i < n.size();) {
            std::size_t j = i;
            while (j + 1 < n.size() && n[j + 1] == n[j] + 1)
                ++j;
            if (j - i >= 2) {
                items.push_back(std::to_string(n[i]) + "–" + std::to_string(n[j]));
            } else {
                for (std::size_t k = i; k <= j; ++k)
                    items.push_back(std::to_string(n[k]));
            }
            i = j + 1;
        }
    } else {
        for (auto& v : values)
            if (std::find(items.begin(), items.end(), v) == items.end())
                items.push_back(std::move(v));
    }
    if (items.size() > most) {
        items.resize(most);
        items.emplace_back("others");
    }
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += i + 1 == items.size() ? " and " : ", ";
        out += items[i];
    }
    return out;
}

// "gpu004.ds-a4-r02.abc.com" names host "gpu004" as NCCL prints it (short name).
std::string shortHost(std::string h)
{
    auto dot = h.find('.');
    if (dot != std::string::npos && !std::isdigit(static_cast<unsigned char>(h[0])))
        h.resize(dot);
    return h;
}

// A collective the reporting ranks of one process group all wait in: its sequence number, and the
// group as progressGroup() keys it ("" where the lines name none).
struct AwaitedCollective {
    long long seq = -1;
    std::string group;
};

class Builder
{
public:
    Builder(Analysis& a, const std::vector<Hit>& hits) : m_a(a), m_hits(hits)
    {
        for (const auto& h : hits) {
            m_bySymptom[{h.entry, h.symptom}].hits.push_back(&h);
            // Only lines that can make a finding are looked at: reading the line before every
            // context hit would map every file of the bundle again.
            const Symptom& s = symptom(h);
            if (s.primary || s.fallback)
                if (const auto header = quotingException(h.where))
                    m_quotedBy.emplace(h.where, *header);
        }
        for (const auto& sl : a.lines)
            for (std::uint32_t i = 0; i < sl.size(); ++i)
                if (sl.level(i) == Level::Info)
                    ++m_ncclInfoLike;
    }

    void run();

private:
    LineInfo info(LineRef r) const { return m_a.info(r); }
    const Entry& entry(int e) const { return m_a.entry(e); }
    const Symptom& symptom(const Hit& h) const
    {
        return entry(h.entry).symptoms[static_cast<std::size_t>(h.symptom)];
    }
    // Where a line stands in the order of events. A framework's exception prints NCCL's last
    // error after its own summary ("invalid usage ... Last error: Duplicate GPU detected ..."),
    // although NCCL recorded that error before the framework raised: such a quoted line stands
    // just before the exception's first line, not after it.
    struct Place {
        std::int64_t time;
        LineRef at;
        int quoted; // 0: quoted before `at`; 1: the line itself
        LineRef self;
        auto operator<=>(const Place&) const = default;
    };
    Place place(LineRef x) const
    {
        const std::optional<LineRef> quoting = quotedBy(x);
        const LineRef at = quoting.value_or(x);
        return {m_a.orderUs(at), at, quoting ? 0 : 1, x};
    }
    bool earlier(LineRef x, LineRef y) const { return place(x) < place(y); }
    // The first line of the framework exception that quotes `line` as NCCL's last error, if it
    // does: the line before it (of the same process) ends "Last error:".
    std::optional<LineRef> quotingException(LineRef line) const;
    std::optional<LineRef> quotedBy(LineRef line) const
    {
        // Most bundles quote nothing, and earlier() asks for every comparison of a sort.
        if (m_quotedBy.empty())
            return std::nullopt;
        const auto q = m_quotedBy.find(line);
        return q == m_quotedBy.end() ? std::nullopt : std::optional<LineRef>(q->second);
    }

    std::vector<const Hit*> hitsOf(int e, const std::string& symptomId,
                                   const std::set<ProcessId>* procs) const;
    // Where nothing was recognised: the first few distinct NCCL WARNs and exception lines.
    // `besideFindings`: some lines were recognised (consequences only); those lines are not listed,
    // and the text a framework quotes under 'Last error:' is read too.
    std::vector<Hypothesis> unrecognisedErrors(bool besideFindings = false) const;
    // The hits of any of the symptoms, earliest first.
    std::vector<const Hit*> hitsOfAny(int e, const std::vector<std::string>& symptomIds,
                                      const std::set<ProcessId>* procs) const
    {
        if (symptomIds.size() == 1)
            return hitsOf(e, symptomIds.front(), procs);
        std::vector<const Hit*> all;
        for (const auto& id : symptomIds) {
            const auto hs = hitsOf(e, id, procs);
            all.insert(all.end(), hs.begin(), hs.end());
        }
        std::sort(all.begin(), all.end(),
                  [this](const Hit* x, const Hit* y) { return earlier(x->where, y->where); });
        return all;
    }
    std::vector<ProcessId> processesAt(const std::string& address) const;
    void addTrail(Finding& f, LineRef anchor);
    bool opensTrail(LineRef line) const;
    void collateralTarget(Finding& f, const Hit& hit);
    void evaluate(Finding& f);
    void summarize(Finding& f);
    std::string gpuCandidatesAt(LineRef where) const;
    // Where no line states the process's NCCL version, the range the form of its lines leaves
    // (RankEnvironment::ncclRange), when both ends are known; else nullopt.
    std::optional<VersionRange> lineFormRange(ProcessId p) const
    {
        if (!p.valid() || p.value >= m_a.environment.ranks.size())
            return std::nullopt;
        const auto& r = m_a.environment.ranks[p.value].ncclRange;
        return r && r->bounded() ? r : std::nullopt;
    }
    void versionVerdict();
    void versionMismatch(std::vector<Finding>& findings);
    void collectiveProgress();
    void watchdogSuspects(Finding*& owner, std::vector<AwaitedCollective>& awaited);
    void flightAgreement(Finding& owner, const AwaitedCollective& awaited);
    void lateWatchdogs();
    void rayFolds();
    void elasticBoxVsLogs();
    void hypotheses();

    Analysis& m_a;
    const std::vector<Hit>& m_hits;
    // Each finding's anchoring hit, by (line, entry): two entries' findings can anchor on one line
    // (a framework's exception quoting NCCL's 'Last error:' is one entry's report and another's
    // cause), and each reads its own hit's captures.
    std::map<std::pair<LineRef, int>, const Hit*> m_anchorHit;
    const Hit* anchorHit(const Finding& f) const
    {
        const auto it = m_anchorHit.find({f.anchor, f.entry});
        return it == m_anchorHit.end() ? nullptr : it->second;
    }
    // The entry of the finding versionMismatch made, or -1: it has no line of the entry's own.
    int m_mixedVersions = -1;
    // (entry, symptom) -> its hits. Every question below asks for a symptom's hits in time order,
    // on one process or on all; a job with thousands of ranks asked it per finding, sorting every
    // time (2,000 ranks of one silent connect: 1.7 s of findings). So the first question of each
    // kind builds an order that the later ones share: all hits by time (keys taken once: a time is
    // a search in the line's stamps), or by process, which only needs each line's process (a
    // bundle's few findings ask about one process each, and their symptoms' hits can be tens of
    // thousands). Symptoms nobody asks about, most of a bundle's hits, are never ordered.
    struct SymptomHits {
        std::vector<const Hit*> hits;   // as scanned
        std::vector<const Hit*> byTime; // earlier()'s order, once asked
        // By process, each one's in scan order: one process's hits are a range of it (no
        // container per process, of which a job can have ten thousand). Once asked.
        std::vector<std::pair<std::uint32_t, const Hit*>> byProcess;
    };
    mutable std::map<std::pair<int, int>, SymptomHits> m_bySymptom;
    // Per entry: its earliest connect-phase hit (or null), and its first hit that names a pid and an
    // exit code (a launcher's summary), each found once.
    std::map<int, const Hit*> m_earliestConnect;
    std::map<int, const Hit*> m_exitReport;
    // (entry, checklist item) -> how many processes show its symptoms, and the earliest of their
    // hits (SignalOnRanks).
    struct OnRanks {
        std::size_t ranks = 0, processes = 0; // a process driving several GPUs: a rank per GPU
        const Hit* first = nullptr;
    };
    std::map<std::pair<int, std::string>, OnRanks> m_onRanks;
    std::uint64_t m_ncclInfoLike = 0;
    // Finding-capable lines quoted under an exception's "Last error:" -> the exception's first line.
    std::map<LineRef, LineRef> m_quotedBy;
};

std::vector<const Hit*> Builder::hitsOf(int e, const std::string& symptomId,
                                        const std::set<ProcessId>* procs) const
{
    const Entry& en = entry(e);
    const auto si = std::find_if(en.symptoms.begin(), en.symptoms.end(),
                                 [&](const Symptom& s) { return s.id == symptomId; });
    if (si == en.symptoms.end())
        return {};
    auto it = m_bySymptom.find({e, static_cast<int>(si - en.symptoms.begin())});
    if (it == m_bySymptom.end())
        return {};
    SymptomHits& sh = it->second;
    if (!procs) {
        if (sh.byTime.empty()) {
            struct Keyed {
                Place place;
                const Hit* hit;
            };
            std::vector<Keyed> keyed;
            keyed.reserve(sh.hits.size());
            for (const Hit* h : sh.hits)
                keyed.push_back({place(h->where), h});
            std::sort(keyed.begin(), keyed.end(),
                      [](const Keyed& x, const Keyed& y) { return x.place < y.place; });
            sh.byTime.reserve(keyed.size());
            for (const Keyed& k : keyed)
                sh.byTime.push_back(k.hit);
        }
        return sh.byTime;
    }
    if (sh.byProcess.empty()) {
        sh.byProcess.reserve(sh.hits.size());
        for (const Hit* h : sh.hits)
            sh.byProcess.push_back({m_a.lines[h->where.source.value].process(h->where.line).value, h});
        std::stable_sort(sh.byProcess.begin(), sh.byProcess.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
    }
    std::vector<const Hit*> out;
    for (ProcessId p : *procs) {
        auto lo = std::lower_bound(sh.byProcess.begin(), sh.byProcess.end(), p.value,
                                   [](const auto& x, std::uint32_t v) { return x.first < v; });
        for (; lo != sh.byProcess.end() && lo->first == p.value; ++lo)
            out.push_back(lo->second);
    }
    std::sort(out.begin(), out.end(),
              [this](const Hit* x, const Hit* y) { return earlier(x->where, y->where); });
    return out;
}

std::vector<ProcessId> Builder::processesAt(const std::string& address) const
{
    std::vector<ProcessId> out;
    if (address.empty())
        return out;
    std::string host = shortHost(address);
    for (const auto& p : m_a.processes)
        if ((!p.address.empty() && p.address == address) || (!p.host.empty() && p.host == host))
            out.push_back(p.id);
    return out;
}

void Builder::addTrail(Finding& f, LineRef anchor)
{
    // NCCLCHECK back-trace: the `-> N` lines the same thread printed right after the WARN. The
    // first names the failing file; the code can change along the chain, so keep them all.
    const Source& src = m_a.source(anchor.source);
    const LineInfo a = info(anchor);
    const ParsedLine anchorLine = parseLine(src.line(anchor.line));
    const std::int64_t anchorTid = anchorLine.nccl ? anchorLine.nccl->tid : -1;
    bool first = true;
    // A finding inferred from a trail is anchored on the trail's first step, which is then the
    // line that names the failed call.
    if (anchorLine.nccl && anchorLine.trail) {
        f.evidence.push_back({anchor, a.process, "return-code-trail",
                              "first return-code line: names the call that failed (code " +
                                  std::to_string(anchorLine.trail->code) + ")"});
        first = false;
    }
    for (std::uint32_t i = anchor.line + 1; i < src.lineCount() && i < anchor.line + 400; ++i) {
        if (m_a.lines[anchor.source.value].process(i) != a.process)
            continue;
        ParsedLine p = parseLine(src.line(i));
        if (!p.nccl || p.nccl->tid != anchorTid)
            continue;
        if (!p.trail)
            break;
        f.evidence.push_back({{anchor.source, i},
                              a.process,
                              "return-code-trail",
                              first ? "first return-code line: names the call that failed (code " +
                                          std::to_string(p.trail->code) + ")"
                                    : std::string{}});
        if (first && p.nccl && a.level == Level::Warn) {
            ParsedLine w = parseLine(src.line(anchor.line));
            if (w.nccl && w.nccl->file == "misc/socket.cc" && p.trail->file == "misc/socket.cc")
                if (auto r = connectAbortFamily(w.nccl->fileLine, p.trail->fileLine))
                    m_a.nccl.hints.push_back(
                        {*r,
                         "socketStartConnect WARN at misc/socket.cc:" + std::to_string(w.nccl->fileLine) +
                             " followed by misc/socket.cc:" + std::to_string(p.trail->fileLine) +
                             " is printed only by NCCL " + r->toString(),
                         anchor});
        }
        first = false;
    }
}

std::optional<LineRef> Builder::quotingException(LineRef line) const
{
    // PyTorch's "NCCL error in: <file>:<line>, <result> ..., NCCL version X", then
    // "<ncclResult>: <description>", then "Last error:" and NCCL's text; each line carries the
    // rank's launcher prefix, and another rank's output may interleave in a combined stream.
    const Source& src = m_a.source(line.source);
    const SourceLines& lines = m_a.lines[line.source.value];
    const ProcessId process = lines.process(line.line);
    auto previous = [&](std::uint32_t from) -> std::optional<std::uint32_t> {
        for (std::uint32_t i = from; i-- > 0 && from - i <= 8;)
            if (lines.process(i) == process)
                return i;
        return std::nullopt;
    };
    auto body = [&](std::uint32_t i) {
        std::string_view b = parseLine(src.line(i)).body;
        while (!b.empty() && (b.back() == ' ' || b.back() == '\t'))
            b.remove_suffix(1);
        return b;
    };
    const auto label = previous(line.line);
    constexpr std::string_view kLastError = "Last error:";
    if (!label || !body(*label).ends_with(kLastError))
        return std::nullopt;
    // The exception's first line is a few lines up; without one, the label stands for it.
    std::uint32_t first = *label;
    for (auto i = previous(*label); i && *label - *i <= 6; i = previous(*i))
        if (const std::string_view b = body(*i); b.find("NCCL error") != std::string_view::npos ||
                                                 b.find("NCCL Error") != std::string_view::npos) {
            first = *i;
            break;
        }
    return LineRef{line.source, first};
}

bool Builder::opensTrail(LineRef line) const
{
    // A '-> N' line opens its trail when the thread's NCCL line before it is neither a WARN (whose
    // back-trace it would be) nor another step of the trail. The same bound as addTrail's: a
    // back-trace follows its WARN within a few lines of other threads' output.
    const Source& src = m_a.source(line.source);
    const ParsedLine self = parseLine(src.line(line.line));
    if (!self.nccl || !self.trail)
        return false;
    const SourceLines& lines = m_a.lines[line.source.value];
    const ProcessId process = lines.process(line.line);
    for (std::uint32_t i = line.line; i-- > 0 && line.line - i <= 400;) {
        if (lines.process(i) != process)
            continue;
        const ParsedLine p = parseLine(src.line(i));
        if (!p.nccl || p.nccl->tid != self.nccl->tid)
            continue;
        return !p.trail && p.nccl->level != Level::Warn;
    }
    return true;
}

void Builder::collateralTarget(Finding& f, const Hit& hit)
{
    const Finding* init = m_a.initiatingFinding();
    std::string peer = captureIn(hit, "peer");
    if (peer.empty())
        peer = captureIn(hit, "addr");
    if (!peer.empty()) {
        auto targets = processesAt(peer);
        if (init && std::find(targets.begin(), targets.end(), init->process) != targets.end()) {
            f.pointsAt = init->process;
            f.pointsAtNote = "names " + peer + ", the host of the initiating " + m_a.labelAt(init->anchor);
        } else if (targets.size() == 1 && targets[0] == f.process) {
            // The reporter's own host, where the bundle knows no other process: the other end is
            // one whose log is missing, or a thread of the reporter itself (NCCL's proxy threads
            // talk to their ranks over sockets too): the reporter is no suspect of its own report.
            f.pointsAtNote =
                "names " + peer +
                ", the reporting process's own host, where no other process's log "
                "is in the bundle: the other end is another process on that host, or one of this "
                "process's own threads (NCCL's proxy)";
        } else if (targets.size() == 1) {
            f.pointsAt = targets[0];
            f.pointsAtNote = "names " + peer + ", the host of " + m_a.process(targets[0]).label();
        } else if (!targets.empty()) {
            f.pointsAtNote = "names " + peer + ", shared by " + std::to_string(targets.size()) + " processes";
        } else {
            f.pointsAtNote = "names " + peer + ", which no log in the bundle identifies";
        }
        return;
    }
    if (init) {
        f.pointsAt = init->process;
        // Only a report that provably precedes the failure (its whole interval ends before the
        // failure's begins) contradicts the causal story.
        bool provablyBefore =
            f.time.knownHi() && info(init->anchor).time.knownLo() && f.time.hi < info(init->anchor).time.lo;
        f.pointsAtNote = provablyBefore
                             ? "its raw clock puts it before the initiating failure; check clock offsets"
                             : "a symptom whose cause is elsewhere: it follows the initiating failure on " +
                                   m_a.labelAt(init->anchor);
    }
}

void Builder::evaluate(Finding& f)
{
    const Entry& e = entry(f.entry);
    std::set<ProcessId> procs(f.processes.begin(), f.processes.end());
    const Process& proc = m_a.process(f.process);
    for (const auto& item : e.confirm) {
        ChecklistResult r;
        r.id = item.id;
        r.text = item.text;
        const Evaluator& ev = item.evaluator;
        switch (ev.kind) {
        case Evaluator::Kind::SignalPresent: {
            const auto hs = hitsOfAny(f.entry, ev.symptoms, &procs);
            if (!hs.empty()) {
                r.status = CheckStatus::Confirmed;
                r.line = hs.front()->where;
                r.detail = "seen on " + m_a.labelAt(hs.front()->where);
            } else {
                r.detail = item.ifUnknown;
            }
            break;
        }
        case Evaluator::Kind::SignalAbsent: {
            const auto hs = hitsOfAny(f.entry, ev.symptoms, nullptr);
            if (!hs.empty()) {
                r.status = CheckStatus::Contradicted;
                r.line = hs.front()->where;
                r.detail = "present on " + m_a.labelAt(hs.front()->where);
            } else if (m_ncclInfoLike > 0) {
                r.status = CheckStatus::Confirmed;
                r.detail = "no such line in " + std::to_string(m_a.sources.size()) + " files with " +
                           std::to_string(m_ncclInfoLike) + " INFO lines";
            } else {
                r.detail = "the logs have no INFO lines, so absence proves nothing; " + item.ifUnknown;
            }
            break;
        }
        case Evaluator::Kind::VersionInRange: {
            std::optional<Version> v = proc.ncclVersion;
            std::optional<LineRef> where = proc.ncclVersionLine;
            std::string basis = "this rank's log";
            if (!v && m_a.nccl.logs.size() == 1) {
                v = m_a.nccl.logs[0].version;
                where = m_a.nccl.logs[0].firstLine;
                basis = "the bundle (one version everywhere)";
            }
            // No log line names it: this rank's Flight Recorder dump, or all the dumps when they
            // agree (they have no line to point at).
            if (!v && m_a.nccl.logs.empty() && !m_a.nccl.dumps.empty()) {
                for (const auto& dv : m_a.nccl.dumps)
                    if (proc.rank && std::binary_search(dv.ranks.begin(), dv.ranks.end(), *proc.rank)) {
                        v = dv.version;
                        basis = "this rank's Flight Recorder dump";
                    }
                if (!v && m_a.nccl.dumps.size() == 1) {
                    v = m_a.nccl.dumps[0].version;
                    basis = "the Flight Recorder dumps (one version in all)";
                }
            }
            if (v) {
                bool in = ev.range.contains(*v);
                r.status = in ? CheckStatus::Confirmed : CheckStatus::Contradicted;
                r.line = where;
                r.detail = "NCCL " + v->toString() + " from " + basis +
                           (in ? " is within " : " is outside ") + ev.range.toString();
            } else if (!m_a.nccl.hints.empty()) {
                const auto& h = m_a.nccl.hints.front();
                bool in = ev.range.contains(h.range.from) && ev.range.contains(h.range.to);
                r.status = in ? CheckStatus::Confirmed : CheckStatus::NotEvidenced;
                r.line = h.where;
                r.detail = h.basis;
            } else if (const std::optional<VersionRange> form = lineFormRange(proc.id)) {
                // The form of the rank's own lines (Init line forms, the proxy WARN's source line),
                // as the NCCL verdict reads it.
                const VersionRange& fr = *form;
                const bool in = ev.range.contains(fr.from) && ev.range.contains(fr.to);
                const bool outside = fr.to < ev.range.from || ev.range.to < fr.from;
                r.status = in        ? CheckStatus::Confirmed
                           : outside ? CheckStatus::Contradicted
                                     : CheckStatus::NotEvidenced;
                for (const VersionClue& c : m_a.environment.ranks[proc.id.value].clues)
                    if (c.agrees && !r.line)
                        r.line = c.where;
                r.detail = "the form of this rank's lines puts NCCL at " + fr.toString() +
                           (in        ? ", within "
                            : outside ? ", outside "
                                      : ", partly inside ") +
                           ev.range.toString();
            } else {
                r.detail = item.ifUnknown;
            }
            break;
        }
        case Evaluator::Kind::ConnectFailedFast: {
            // The connect began after this process's previous logged line, so the time from that
            // line to the failure bounds how long the connect can have taken.
            const TimeInterval t = info(f.anchor).time;
            std::optional<LineRef> prev;
            for (std::uint32_t i = f.anchor.line; i-- > 0;) {
                const LineInfo li = m_a.lines[f.anchor.source.value].info(i);
                bool blank =
                    m_a.text({f.anchor.source, i}).find_first_not_of(" \t\r") == std::string_view::npos;
                if (li.process == f.process && li.time.knownLo() && !blank) {
                    prev = LineRef{f.anchor.source, i};
                    break;
                }
            }
            auto maxUs = static_cast<std::int64_t>(ev.maxSeconds * 1e6);
            f.connectPhaseStart = prev;
            if (prev && t.knownHi()) {
                std::int64_t bound = t.hi - info(*prev).time.lo;
                std::int64_t least = t.knownLo() ? t.lo - info(*prev).time.hi : 0;
                if (bound <= maxUs) {
                    r.status = CheckStatus::Confirmed;
                    r.line = prev;
                    r.detail =
                        "the connect phase lasted at most " + seconds(bound) +
                        " (from this rank's previous logged line to the next timestamp after the failure); "
                        "a timed-out connect takes minutes, so the first attempt was refused";
                    f.connectVerdict = "refused";
                } else if (least >= 60 * kSecond) {
                    r.status = CheckStatus::Contradicted;
                    r.line = prev;
                    r.detail =
                        "at least " + seconds(least) +
                        " passed with no output before the failure: consistent with a connect that timed "
                        "out (packets dropped), not a refusal";
                    f.connectVerdict = "timed-out";
                } else {
                    r.detail = "the timestamps around the failure span " + seconds(bound) +
                               ", too wide to tell a refusal from a timeout; " + item.ifUnknown;
                    f.connectVerdict = "undecided";
                }
            } else {
                r.detail = "no timestamps around the failure; " + item.ifUnknown;
                f.connectVerdict = "undecided";
            }
            break;
        }
        case Evaluator::Kind::SignalOnRanks: {
            // The same for every finding of the entry: counted once.
            auto [known, added] = m_onRanks.try_emplace({f.entry, item.id});
            if (added) {
                // A process driving several GPUs (nccl-tests' -g) prints the failure on the thread
                // of each: each GPU's is a rank's.
                // A line without a device prefix is one of the process's ranks, not another.
                std::map<ProcessId, std::set<int>> devicesOf;
                const Hit* first = nullptr;
                for (const auto& id : ev.symptoms)
                    for (const Hit* h : hitsOf(f.entry, id, nullptr)) {
                        std::set<int>& devices = devicesOf[info(h->where).process];
                        if (const int d = m_a.deviceAt(h->where); d >= 0)
                            devices.insert(d);
                        if (!first || earlier(h->where, first->where))
                            first = h;
                    }
                std::size_t ranks = 0;
                for (const auto& [p, devices] : devicesOf)
                    ranks += std::max<std::size_t>(1, devices.size());
                known->second = {ranks, devicesOf.size(), first};
            }
            const OnRanks& on = known->second;
            if (on.first)
                r.line = on.first->where;
            const std::string where =
                on.ranks == on.processes
                    ? std::to_string(on.ranks) + (on.ranks == 1 ? " process" : " processes")
                    : std::to_string(on.ranks) + " ranks (the GPUs of " + std::to_string(on.processes) +
                          (on.processes == 1 ? " process" : " processes") + ")";
            if (static_cast<int>(on.ranks) >= ev.minRanks) {
                r.status = CheckStatus::Confirmed;
                r.detail = "seen on " + where;
            } else {
                r.detail = (on.ranks == 0
                                ? std::string("not seen")
                                : "seen on " + (on.ranks == 1 ? std::string("1 process") : where) + " only") +
                           "; " + item.ifUnknown;
            }
            break;
        }
        case Evaluator::Kind::CollateralPointsAtInitiator: {
            if (f.role != Role::Initiating) {
                r.detail = "evaluated for the initiating finding only";
                break;
            }
            std::set<ProcessId> pointingAt, pointingElsewhere;
            for (const auto& other : m_a.findings) {
                if (other.role != Role::Collateral)
                    continue;
                if (other.pointsAt && *other.pointsAt == f.process) {
                    if (!r.line)
                        r.line = other.anchor;
                    pointingAt.insert(other.processes.begin(), other.processes.end());
                } else if (other.pointsAt) {
                    pointingElsewhere.insert(other.processes.begin(), other.processes.end());
                }
            }
            const int pointing = static_cast<int>(pointingAt.size());
            const int elsewhere = static_cast<int>(pointingElsewhere.size());
            if (pointing > 0) {
                r.status = CheckStatus::Confirmed;
                r.detail = "collateral reports from " + std::to_string(pointing) +
                           " other process(es) point at " + proc.label();
            } else if (elsewhere > 0) {
                r.status = CheckStatus::Contradicted;
                r.detail = "collateral reports point at another process";
            } else {
                r.detail = item.ifUnknown;
            }
            break;
        }
        }
        f.checklist.push_back(std::move(r));
    }

    for (const auto& s : e.symptoms) {
        SymptomResult sr;
        sr.id = s.id;
        sr.signal = s.signal;
        sr.why = s.why;
        auto hs = hitsOf(f.entry, s.id, &procs);
        if (!hs.empty()) {
            sr.observed = true;
            sr.line = hs.front()->where;
        }
        f.symptoms.push_back(std::move(sr));
    }

    double c = 0.5;
    for (const auto& r : f.checklist) {
        if (r.status == CheckStatus::Confirmed)
            c += 0.1;
        else if (r.status == CheckStatus::Contradicted)
            c -= 0.25;
    }
    if (f.role == Role::Initiating)
        c += 0.05;
    // A trail says which call failed, not how: the logs hold no line that states the error.
    if (f.inferredFromTrail)
        c -= 0.15;
    f.confidence = std::round(std::clamp(c, 0.05, 0.99) * 100.0) / 100.0;
}

// How many lines after its first a multi-line record (a box, an exception's text) may run on.
constexpr std::uint32_t kRecordLines = 12;

// A kernel log's line about a GPU that several ranks ran on (Analysis::gpuCandidates): "the rank on
// GPU 0000:3b:00.0 (rank 1 (node-a:4101) or rank 3 (node-b:4103))", the process a finding on it
// names in place of "unknown rank". Empty for any other line.
std::string Builder::gpuCandidatesAt(LineRef where) const
{
    const auto& all = m_a.gpuCandidates;
    const auto it = std::lower_bound(all.begin(), all.end(), where,
                                     [](const Analysis::GpuCandidates& g, LineRef w) { return g.where < w; });
    if (it == all.end() || it->where != where || it->processes.empty())
        return {};
    constexpr std::size_t kNamed = 3;
    std::vector<std::string> named;
    for (std::size_t i = 0; i < it->processes.size() && i < kNamed; ++i)
        named.push_back(m_a.process(it->processes[i]).label());
    std::string s = "the rank on GPU " + pciBusId(it->bus) + " (";
    for (std::size_t i = 0; i < named.size(); ++i)
        s += (i == 0                                                    ? ""
              : i + 1 == named.size() && it->processes.size() <= kNamed ? " or "
                                                                        : ", ") +
             named[i];
    if (it->processes.size() > kNamed)
        s += " or " + std::to_string(it->processes.size() - kNamed) + " more";
    return s + ": the driver's line does not say which)";
}

namespace
{

// " and 2 other processes" after the first of `n` processes; nothing for one.
std::string andOthers(std::size_t n)
{
    return n <= 1   ? std::string{}
           : n == 2 ? std::string(" and 1 other process")
                    : " and " + std::to_string(n - 1) + " other processes";
}

} // namespace

void Builder::summarize(Finding& f)
{
    const Entry& e = entry(f.entry);
    const Process& p = m_a.process(f.process);
    const Hit* h = anchorHit(f);
    if (!e.summary.empty()) {
        auto value = [&](const std::string& name) -> std::string {
            if (name == "process") {
                if (!p.rank && p.identitySource == "kernel-log")
                    if (std::string gpu = gpuCandidatesAt(f.anchor); !gpu.empty())
                        return gpu;
                return m_a.labelAt(f.anchor);
            }
            if (name == "host")
                return p.host.empty() ? "an unknown host" : p.host;
            if (name == "rank") {
                const std::optional<int> r = m_a.rankAt(f.anchor);
                return r ? std::to_string(*r) : "?";
            }
            if (name == "count")
                return std::to_string(f.processes.size());
            // "{processes}": who showed it, the first and how many more ("rank 4 (host-2:39961) and
            // 2 other processes"), where "3 process(es), first ..." read oddly for one.
            if (name == "processes")
                return m_a.labelAt(f.anchor) + andOthers(f.processes.size());
            // "{all:NAME}": every value the entry's lines of the finding's processes capture as
            // NAME (the ranks a torchelastic box lists, one "rank :" line each).
            // "{quoted:NAME}": the same, each value in quotes (texts that hold spaces and commas,
            // which "a, b and c" would run together).
            const Placeholder ph = placeholderOf(name);
            const bool quoted = ph.form == Placeholder::Form::Quoted;
            if (quoted || ph.form == Placeholder::Form::All) {
                const std::string capture(ph.name);
                std::vector<ProcessId> processes = f.processes;
                std::sort(processes.begin(), processes.end());
                std::vector<std::string> values;
                for (const Hit& x : m_hits)
                    if (x.entry == f.entry &&
                        std::binary_search(processes.begin(), processes.end(), info(x.where).process))
                        if (std::string v = captureIn(x, capture.c_str()); !v.empty())
                            values.push_back(quoted ? "'" + v + "'" : std::move(v));
                return values.empty() ? "?" : listValues(std::move(values));
            }
            // "{meaning:NAME}": what the anchor line's value of NAME means, as the entry lists it
            // ("?" for a value it does not list, which leaves out the [[...]] part around it).
            if (ph.form == Placeholder::Form::Meaning) {
                const std::string capture(ph.name);
                const auto values = e.meanings.find(capture);
                const std::string v = h ? captureIn(*h, capture.c_str()) : std::string{};
                if (values == e.meanings.end() || v.empty())
                    return "?";
                const auto meaning = values->second.find(v);
                return meaning == values->second.end() ? "?" : meaning->second;
            }
            // "{pci:NAME}": a bus id as NCCL prints it ("CUDA device 1000", compact hex) written as
            // the kernel and nvidia-smi write it ("0000:01:00.0"), which a reader can look up.
            if (ph.form == Placeholder::Form::Pci) {
                const std::string v = h ? captureIn(*h, std::string(ph.name).c_str()) : std::string{};
                if (v.empty() || v.size() > 15 ||
                    v.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
                    return "?";
                return pciBusId(std::stoull(v, nullptr, 16));
            }
            if (name == "connect_verdict")
                return f.connectVerdict == "refused"     ? "its first attempt was refused"
                       : f.connectVerdict == "timed-out" ? "its first attempt most likely timed out"
                                                         : "its first attempt was refused or timed out";
            if (name == "target") {
                std::string addr = h ? captureIn(*h, "addr") : std::string{};
                if (addr.empty())
                    addr = h ? captureIn(*h, "peer") : std::string{};
                if (addr.empty())
                    return "a peer";
                std::string port = h ? captureIn(*h, "port") : std::string{};
                std::string t = port.empty() ? addr : addr + " port " + port;
                auto targets = processesAt(addr);
                if (!targets.empty() && m_a.process(targets[0]).host != addr)
                    t += " (host " + m_a.process(targets[0]).host + ")";
                return t;
            }
            std::string v = h ? captureIn(*h, name.c_str()) : std::string{};
            // A record spread over lines (torchelastic's box: the exception, then "rank :",
            // "exitcode :" lines) names on a later line what its first does not: the entry's next
            // lines of the same process, within the record, are asked too.
            if (v.empty() && h) {
                const ProcessId proc = info(f.anchor).process;
                auto it = std::lower_bound(m_hits.begin(), m_hits.end(), f.anchor,
                                           [](const Hit& x, LineRef r) { return x.where < r; });
                for (; v.empty() && it != m_hits.end() && it->where.source == f.anchor.source &&
                       it->where.line <= f.anchor.line + kRecordLines;
                     ++it)
                    if (it->entry == f.entry && info(it->where).process == proc)
                        v = captureIn(*it, name.c_str());
            }
            return v.empty() ? "?" : v;
        };
        // "{name|default}": the default stands where the anchor line has no such capture (a
        // fingerprint of the entry that does not capture it), instead of "?". "[[...]]": a part of
        // the sentence that is left out whole where one of its placeholders has no value (a
        // line cut short that names the collective but not its timeout).
        auto fill = [&value](std::string_view tmpl, bool& missing) {
            std::string out;
            for (std::size_t i = 0; i < tmpl.size(); ++i) {
                const std::size_t close = tmpl[i] == '{' ? tmpl.find('}', i) : std::string_view::npos;
                if (close == std::string_view::npos) {
                    out += tmpl[i];
                    continue;
                }
                const std::string field(tmpl.substr(i + 1, close - i - 1));
                const std::size_t bar = field.find('|');
                std::string v = value(field.substr(0, bar));
                if (bar != std::string::npos && (v.empty() || v == "?"))
                    v = field.substr(bar + 1);
                missing = missing || v.empty() || v == "?";
                out += v;
                i = close;
            }
            return out;
        };
        std::string out;
        const std::string_view tmpl = e.summary;
        for (std::size_t i = 0; i < tmpl.size();) {
            const std::size_t open = tmpl.find("[[", i);
            const std::size_t close = open == std::string_view::npos ? open : tmpl.find("]]", open + 2);
            bool missing = false;
            if (close == std::string_view::npos) {
                out += fill(tmpl.substr(i), missing);
                break;
            }
            out += fill(tmpl.substr(i, open - i), missing);
            missing = false;
            std::string part = fill(tmpl.substr(open + 2, close - open - 2), missing);
            if (!missing)
                out += part;
            i = close + 2;
        }
        if (!out.empty())
            out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
        // Collateral: what its reports point at (the initiating process, a peer outside the
        // bundle), which no template knows.
        if (f.role == Role::Collateral && !f.pointsAtNote.empty() &&
            out.find(f.pointsAtNote) == std::string::npos) {
            out.erase(out.find_last_not_of('.') + 1);
            out += "; " + f.pointsAtNote + ".";
        }
        f.summary = out;
        return;
    }
    if (f.role == Role::Collateral) {
        f.summary = e.title + " on " + m_a.labelAt(f.anchor) + andOthers(f.processes.size());
        if (!f.pointsAtNote.empty())
            f.summary += "; " + f.pointsAtNote;
        f.summary += ".";
        return;
    }
    f.summary = e.title + " on " + m_a.labelAt(f.anchor) + ".";
}

// Ranks whose version lines name different NCCL releases (identity/environment_scan) where NCCL
// did not say so itself: it checks from 2.23.4 on, and older releases fail later and elsewhere
// (a truncated bootstrap message, a hang), or not at all. A finding of the version-mismatch entry,
// so that its explanation and checklist come with it, as context: a disagreement is a condition of
// the whole run, not an event that starts a cascade, and the logs' own failures keep their roles.
// Only versions that lines state count here; a rank placed by the form of its lines alone is in
// the note, not in a finding.
void Builder::versionMismatch(std::vector<Finding>& findings)
{
    std::vector<const VersionGroup*> stated;
    for (const auto& g : m_a.nccl.mismatch)
        if (g.version)
            stated.push_back(&g);
    const Entry* e = m_a.encyclopedia->find("nccl-version-mismatch");
    if (stated.size() < 2 || !e)
        return;
    const int ei = static_cast<int>(e - m_a.encyclopedia->entries.data());
    if (std::any_of(findings.begin(), findings.end(), [ei](const Finding& f) { return f.entry == ei; }))
        return; // NCCL's own "Mismatched NCCL version detected" made one
    Finding f;
    f.entry = ei;
    f.role = Role::Context;
    // Groups are largest first: the anchor is the first line of the first group that disagrees
    // with the largest.
    f.anchor = stated[1]->where;
    f.process = info(f.anchor).process;
    f.time = info(f.anchor).time;
    for (const VersionGroup* g : stated) {
        f.processes.insert(f.processes.end(), g->processes.begin(), g->processes.end());
        f.evidence.push_back(
            {g->where, info(g->where).process, "nccl-version",
             "NCCL " + g->display + " on " + std::to_string(g->processes.size()) + " process(es)"});
    }
    std::sort(f.processes.begin(), f.processes.end());
    findings.push_back(std::move(f));
    m_mixedVersions = ei;
}

void Builder::versionVerdict()
{
    NcclVersions& n = m_a.nccl;
    // Dumps that name a version no log line shows: from another run, or the logs name another
    // library than the one PyTorch loaded. Said whatever the failure.
    std::vector<int> otherRanks;
    std::string others;
    if (!n.logs.empty())
        for (const auto& dv : n.dumps)
            if (std::none_of(n.logs.begin(), n.logs.end(),
                             [&](const LogVersion& lv) { return lv.version == dv.version; })) {
                others += (others.empty() ? "" : ", ") + dv.version.toString();
                otherRanks.insert(otherRanks.end(), dv.ranks.begin(), dv.ranks.end());
            }
    n.dumpNote = others.empty()
                     ? std::string{}
                     : "The Flight Recorder dumps" +
                           (otherRanks.empty() ? std::string{} : " of ranks " + rankRuns(otherRanks, 8)) +
                           " name NCCL " + others +
                           ", which no log line shows: check that they come from this run.";
    // The versions the logs name; where none does, those the Flight Recorder dumps name (PyTorch
    // asks the NCCL it loaded, ncclGetVersion): an exact version, better evidence than the range
    // the WARN's line numbers leave.
    const bool fromDumps = n.logs.empty() && !n.dumps.empty();
    std::vector<Version> versions;
    if (fromDumps)
        for (const auto& dv : n.dumps)
            versions.push_back(dv.version);
    else
        for (const auto& lv : n.logs)
            versions.push_back(lv.version);
    std::string listed;
    for (const auto& v : versions)
        listed += (listed.empty() ? "" : ", ") + v.toString();
    const Finding* init = m_a.initiatingFinding();
    const AffectedVersions* range = init ? entry(init->entry).affected("nccl") : nullptr;
    if (!range) {
        n.releaseVerdict = init ? "The initiating failure does not depend on the NCCL version."
                                : "No initiating failure was identified, so no NCCL fix is assessed.";
        // Still, which NCCL ran, where only the dumps say (the next failure's fix will ask).
        if (!init && fromDumps)
            n.releaseVerdict += " The Flight Recorder dumps say the job ran NCCL " + listed + ".";
        return;
    }
    // Behaviour with a bug of some releases inside it: where the bug's symptom is on the finding's
    // processes, that bug's range and fix are the ones to weigh (the 'invalid argument' of 2.18.1 to
    // 2.18.5 at transport.cc:154 is a Cuda failure like any other, and an upgrade fixes it).
    const KnownBug* bug = nullptr;
    if (!range->fixedIn) {
        const std::set<ProcessId> procs(init->processes.begin(), init->processes.end());
        for (const KnownBug& b : range->bugs)
            if (!hitsOfAny(init->entry, {b.symptom}, &procs).empty()) {
                bug = &b;
                break;
            }
    }
    const std::string ranNccl =
        fromDumps ? "No version line in the logs; the Flight Recorder dumps say the job ran NCCL " + listed
                  : "The job ran NCCL " + listed;
    // Without a version line, what the form of the failing rank's own lines leaves open (its
    // environment's range: Init line forms, the proxy WARN's source line, ...), where it says
    // something (both ends known).
    const std::optional<VersionRange> form = lineFormRange(init->process);
    const std::string formSaid =
        form ? "No version line in the logs; the form of the failing rank's lines puts NCCL at " +
                   form->toString()
             : std::string{};
    if (!range->fixedIn && !bug) {
        // Behaviour, not a bug of some releases (a refused connect, a full /dev/shm): the range
        // says which releases were checked to print it, and no upgrade is a fix. "Inside the
        // affected range" would read as a version problem.
        n.fixApplies = false;
        const std::string ran =
            !versions.empty()  ? ranNccl + ". "
            : !n.hints.empty() ? "No version line in the logs; the WARN's source line numbers pin NCCL " +
                                     n.hints[0].range.toString() + ". "
            : form ? formSaid + ". "
                   : std::string{};
        n.releaseVerdict = ran + "NCCL " + range->range.toString() +
                           " report this failure this way: it is not a bug of some releases, and no NCCL "
                           "upgrade fixes it.";
        return;
    }
    const VersionRange affected = bug ? bug->range : range->range;
    const Version fixedIn = bug ? bug->fixedIn : *range->fixedIn;
    const std::string fixed = fixedIn.toString();
    const std::string ifFixed = bug ? bug->ifFixed : range->ifFixed;
    // The bug named first: the rest of the verdict weighs its range, not the entry's.
    n.releaseVerdict =
        bug ? bug->what + " is a bug of NCCL " + affected.toString() + ", fixed in " + fixed + ". "
            : std::string{};
    const bool anyFixed =
        std::any_of(versions.begin(), versions.end(), [&](const Version& v) { return v >= fixedIn; });
    const bool allAffected =
        !versions.empty() &&
        std::all_of(versions.begin(), versions.end(), [&](const Version& v) { return affected.contains(v); });
    if (allAffected) {
        n.fixApplies = true;
        n.releaseVerdict += ranNccl + ", inside the affected range " + affected.toString() +
                            "; upgrading to NCCL " + fixed + " or later applies the fix.";
    } else if (anyFixed) {
        n.fixApplies = false;
        n.releaseVerdict +=
            ranNccl + ", which already has the " + fixed + " fix: " +
            (ifFixed.empty() ? "this failure is not the bug it fixed; look for another cause." : ifFixed);
    } else if (!versions.empty()) {
        n.fixApplies = false;
        n.releaseVerdict += ranNccl + ", outside the affected range " + affected.toString() + ".";
    } else if (!n.hints.empty() && affected.contains(n.hints[0].range.from) &&
               affected.contains(n.hints[0].range.to)) {
        n.fixApplies = true;
        n.releaseVerdict += "No version line in the logs, but the WARN's source line numbers pin NCCL " +
                            n.hints[0].range.toString() + "; upgrading to " + fixed + " applies the fix.";
    } else if (form && affected.contains(form->from) && affected.contains(form->to)) {
        n.fixApplies = true;
        n.releaseVerdict += formSaid + ", inside the affected range " + affected.toString() +
                            "; upgrading to NCCL " + fixed + " or later applies the fix.";
    } else if (form && form->from >= fixedIn) {
        n.fixApplies = false;
        n.releaseVerdict +=
            formSaid + ", which already has the " + fixed + " fix: " +
            (ifFixed.empty() ? "this failure is not the bug it fixed; look for another cause." : ifFixed);
    } else if (form && (form->to < affected.from || affected.to < form->from)) {
        n.fixApplies = false;
        n.releaseVerdict += formSaid + ", outside the affected range " + affected.toString() + ".";
    } else if (form) {
        n.releaseVerdict +=
            formSaid + ", partly inside the affected range " + affected.toString() +
            ": the logs do not say which of those releases ran; rerun with NCCL_DEBUG=INFO (or "
            "print torch.cuda.nccl.version()) to find out.";
    } else {
        n.releaseVerdict +=
            "The logs do not say which NCCL the job ran; rerun with NCCL_DEBUG=INFO (or print "
            "torch.cuda.nccl.version()) to find out.";
    }
    if (n.local && n.local->found) {
        const bool localFixed = n.local->version >= fixedIn;
        n.releaseVerdict += " This machine's libnccl.so.2 is " + n.local->version.toString() +
                            (localFixed ? " (has the fix)." : " (does not have the fix).");
    }
}

void Builder::collectiveProgress()
{
    Finding* owner = nullptr;
    std::vector<AwaitedCollective> awaited;
    watchdogSuspects(owner, awaited);
    if (owner)
        for (const AwaitedCollective& c : awaited)
            flightAgreement(*owner, c);
    lateWatchdogs();
}

namespace
{

// "45 s", "12 min", "7 h 7 min": how long a watchdog was late, as a person says it.
std::string spokenMs(long long ms)
{
    const long long s = ms / 1000;
    if (s < 60)
        return std::to_string(s) + " s";
    const long long min = s / 60;
    if (min < 60)
        return std::to_string(min) + " min";
    return std::to_string(min / 60) + " h" + (min % 60 ? " " + std::to_string(min % 60) + " min" : "");
}

} // namespace

void Builder::lateWatchdogs()
{
    // The watchdog measures "ran for" from the collective's enqueue to the check that found it late,
    // and it checks every outstanding collective about every 100 ms: "ran for" is the timeout plus
    // a second or two (1802212 ms against 1800000 in the real logs). Far more means its thread did
    // not finish a check for that long, which says more about that process than the timeout does.
    constexpr long long kLateMs = 60'000;
    struct Late {
        const Hit* hit;
        long long lateMs;
        long long limitMs;
    };
    // The captures read in place: every hit of the bundle is asked, most have neither.
    auto number = [](std::string_view v, long long& out) {
        return !v.empty() && v.size() <= 15 &&
               std::from_chars(v.data(), v.data() + v.size(), out).ec == std::errc{};
    };
    std::map<ProcessId, Late> lateOf; // per process, its first late report
    for (const auto& h : m_hits) {
        long long ran = 0, limit = 0;
        if (!number(h.captures.get("ran_ms"), ran) || !number(h.captures.get("timeout_ms"), limit))
            continue;
        const long long late = ran - limit;
        if (late < kLateMs)
            continue;
        const ProcessId p = info(h.where).process;
        auto it = lateOf.find(p);
        if (it == lateOf.end() || earlier(h.where, it->second.hit->where))
            lateOf.insert_or_assign(p, Late{&h, late, limit});
    }
    if (lateOf.empty())
        return;
    const Late* first = nullptr;
    long long lo = LLONG_MAX, hi = 0;
    std::vector<std::string> who;
    for (const auto& [p, l] : lateOf) {
        if (!first || earlier(l.hit->where, first->hit->where))
            first = &l;
        lo = std::min(lo, l.lateMs);
        hi = std::max(hi, l.lateMs);
        who.push_back(m_a.process(p).label());
    }
    Finding* owner = nullptr;
    for (auto& f : m_a.findings)
        if (f.entry == first->hit->entry && (!owner || earlier(f.anchor, owner->anchor)))
            owner = &f;
    if (!owner)
        return;
    const Hit& h = *first->hit;
    const std::string seq = captureIn(h, "seq"), optype = captureIn(h, "optype");
    const std::string what = seq.empty() ? std::string("a collective")
                                         : "SeqNum " + seq + (optype.empty() ? "" : " (" + optype + ")");
    const long long limitMs = first->limitMs;
    const bool one = who.size() == 1;
    const std::string late =
        spokenMs(lo) == spokenMs(hi) ? spokenMs(hi) : spokenMs(lo) + " to " + spokenMs(hi);
    owner->hypotheses.push_back(
        {owner->entry,
         (one ? who.front() + "'s watchdog reported " + what
              : listValues(who) + "'s watchdogs reported their collectives, the first " + what + ",") +
             " " + late + " after the " + spokenMs(limitMs) +
             " timeout ran out: a watchdog checks every outstanding collective about every 100 ms, so for "
             "that long " +
             (one ? "its thread" : "their threads") +
             " finished no check. A watchdog is held up by a call that does not return (a CUDA event "
             "query waits for the CUDA context lock while another thread synchronizes, and never returns "
             "on a GPU or driver that hangs), by the Python GIL, or by its whole process being stopped. "
             "The collective was enqueued 'ran for' before the line, not one timeout before it" +
             (!one && hi - lo < kLateMs
                  ? std::string(". These watchdogs were late by the same time within a minute: one event "
                                "held them all and let them go together (the job suspended and resumed: "
                                "Slurm's suspend stops every process with SIGSTOP; or every rank's main "
                                "thread in a device-wide synchronize until the hung collective ended)")
                  : std::string{}),
         h.where,
         std::string(one ? "that host's kernel log" : "those hosts' kernel logs") +
             " (dmesg: GPU Xid errors, hung tasks) for the time in question, a py-spy dump --native of such "
             "a process while it hangs, and whether TORCH_NCCL_ENABLE_MONITORING=0 turned off the heartbeat "
             "monitor, which in newer PyTorch releases ends a process whose watchdog stops for "
             "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC"});
}

namespace
{

// The process group a progress line names: PG GUID, the group's name on every rank (PyTorch 2.4
// on), or in older releases "[PG n Rank r]", a count of the groups this process made, which agrees
// across ranks only where all of them made their groups in one order (kept apart: "local:n").
std::string progressGroup(const std::string& guid, const std::string& local)
{
    return !guid.empty() ? guid : local.empty() ? std::string{} : "local:" + local;
}

std::string groupDisplay(const std::string& key)
{
    return "process group " + (key.starts_with("local:") ? key.substr(6) : key);
}

} // namespace

void Builder::watchdogSuspects(Finding*& owner, std::vector<AwaitedCollective>& awaited)
{
    // Watchdog-style reports name the collective each rank reached (SeqNum). A collective finishes
    // only when every rank of the group issued it, so the rank that never reached it is the suspect:
    // a rank with no report while the others all wait at the same SeqNum, or the reporters at the
    // lowest SeqNum when they differ. With every rank in the logs waiting at the same SeqNum, the
    // culprit is a rank whose log is missing.
    // Sequence numbers count per process group. The watchdog's timeout line names none ("[Rank N]"
    // there may even be another group's rank); the "[PG ...] ... detected by watchdog at work: S"
    // line the same rank prints for the same S does. Where the lines name two or more groups, each
    // group's numbers are compared only with its own.
    struct Reached {
        ProcessId process;
        long long seq;
        std::string group;
        std::string optype;
    };
    std::vector<Reached> reached;
    std::map<std::pair<ProcessId, long long>, std::string> groupAt;
    for (const auto& h : m_hits) {
        if (!symptom(h).progress)
            continue;
        std::string seq = captureIn(h, "seq");
        if (seq.empty())
            continue;
        const ProcessId p = info(h.where).process;
        const long long v = std::atoll(seq.c_str());
        std::string group = progressGroup(captureIn(h, "pg"), captureIn(h, "pg_local"));
        if (!group.empty())
            groupAt.try_emplace({p, v}, group);
        reached.push_back({p, v, std::move(group), captureIn(h, "optype")});
        for (auto& f : m_a.findings)
            if (f.entry == h.entry && (!owner || earlier(f.anchor, owner->anchor)))
                owner = &f;
    }
    if (!owner || reached.empty())
        return;
    std::set<std::string> named;
    for (Reached& r : reached) {
        if (r.group.empty())
            if (auto it = groupAt.find({r.process, r.seq}); it != groupAt.end())
                r.group = it->second;
        if (!r.group.empty())
            named.insert(r.group);
    }
    // One group named (or none): every line is taken to be of it, as the lines of one job's
    // default group usually are.
    const bool oneGroup = named.size() <= 1;
    const std::string theGroup = named.size() == 1 ? *named.begin() : std::string{};
    struct Group {
        std::map<ProcessId, long long> seqOf; // the furthest collective each rank is known to have reached
        std::string optype;
    };
    std::map<std::string, Group> groups;
    for (const Reached& r : reached) {
        Group& g = groups[oneGroup ? theGroup : r.group];
        auto it = g.seqOf.find(r.process);
        if (it == g.seqOf.end() || r.seq > it->second)
            g.seqOf[r.process] = r.seq;
        if (g.optype.empty())
            g.optype = r.optype;
    }
    // The lowest and highest SeqNum one group's reporters reached. Where they differ, the reporters
    // at the lowest are behind: suspects, "of <group> ... in it" where several groups are compared
    // apart (`in`).
    auto markBehind = [&owner](const std::map<ProcessId, long long>& seqOf, const std::string& in) {
        long long lo = LLONG_MAX, hi = LLONG_MIN;
        for (const auto& [p, v] : seqOf) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        if (lo != hi) {
            const std::string stuck = "stuck at SeqNum " + std::to_string(lo) +
                                      (in.empty() ? "" : " of " + in) + " while other ranks reached " +
                                      std::to_string(hi) + (in.empty() ? "" : " in it");
            const auto behind = std::make_shared<const SuspectReason>(
                SuspectReason{stuck + ": it is behind, or running another collective",
                              stuck + ": they are behind, or running another collective"});
            for (const auto& [p, v] : seqOf)
                if (v == lo)
                    owner->suspects.push_back({p, behind});
        }
        return std::pair{lo, hi};
    };
    if (!oneGroup) {
        // Each group on its own: reporters behind the others of their group are suspects. Where a
        // group's reporters agree, which of its members stayed away is not known here: the lines
        // do not list a group's members (the Flight Recorder dumps do).
        std::string agreeing;
        for (const auto& [key, grp] : groups) {
            const std::string in =
                key.empty() ? std::string("a group its lines do not name") : groupDisplay(key);
            const auto [lo, hi] = markBehind(grp.seqOf, in);
            if (lo != hi)
                continue;
            std::vector<int> ranks;
            std::string unranked;
            for (const auto& [p, v] : grp.seqOf)
                if (const std::optional<int>& r = m_a.process(p).rank)
                    ranks.push_back(*r);
                else
                    unranked += (unranked.empty() ? "" : ", ") + m_a.process(p).label();
            if (!key.empty())
                awaited.push_back({lo, key});
            std::sort(ranks.begin(), ranks.end());
            std::string who =
                ranks.empty() ? std::string{} : (ranks.size() == 1 ? "rank " : "ranks ") + rankRuns(ranks, 8);
            if (!unranked.empty())
                who += (who.empty() ? "" : ", ") + unranked;
            agreeing += (agreeing.empty() ? "" : "; ") + in + " at SeqNum " + std::to_string(lo) +
                        (grp.optype.empty() ? "" : " (" + grp.optype + ")") + " on " + who;
        }
        if (owner->suspects.empty() && !agreeing.empty())
            owner->hypotheses.push_back(
                {owner->entry,
                 "the watchdogs fired in " + std::to_string(groups.size()) +
                     " process groups, each at its own collective: " + agreeing +
                     "; sequence numbers count per group, so they are not compared across groups, and "
                     "these lines do not say which members each group waits for",
                 owner->anchor,
                 "the other members' logs, or the Flight Recorder dumps (TORCH_NCCL_DUMP_ON_TIMEOUT=1), "
                 "which list each group's members and what each enqueued"});
        return;
    }
    const Group& g = groups.begin()->second;
    const std::map<ProcessId, long long>& seqOf = g.seqOf;
    const std::string& optype = g.optype;
    // No line names a group, and one process's lines name several collectives: a process's
    // watchdog reports one timed-out collective per group, so these are several groups' lines (or
    // several processes' that print the same "[Rank N]", a rank within each group). Their numbers
    // cannot be compared (NeMo#8441: "[Rank 0]" at 96117 and 96125, "[Rank 7]" at 64088).
    if (named.empty()) {
        std::map<ProcessId, std::set<long long>> seqsOf;
        for (const Reached& r : reached)
            seqsOf[r.process].insert(r.seq);
        for (const auto& [p, seqs] : seqsOf) {
            if (seqs.size() < 2)
                continue;
            std::string listed;
            for (long long v : seqs)
                listed += (listed.empty() ? "" : ", ") + std::to_string(v);
            owner->hypotheses.push_back(
                {owner->entry,
                 m_a.process(p).label() + "'s watchdog lines name SeqNum " + listed +
                     ": a process's watchdog reports one timed-out collective per process group, so "
                     "these lines come from several groups (or from several processes that print the "
                     "same '[Rank N]', a rank within each group), and their sequence numbers are not "
                     "compared to find the rank that fell behind",
                 owner->anchor,
                 "one log per rank, the '[PG ...]' lines newer PyTorch releases print beside each timeout, "
                 "or the Flight Recorder dumps (TORCH_NCCL_DUMP_ON_TIMEOUT=1)"});
            return;
        }
    }
    const auto [lo, hi] = markBehind(seqOf, std::string{});
    if (lo != hi)
        return;
    const std::string at = "SeqNum " + std::to_string(lo) + (optype.empty() ? "" : " (" + optype + ")");
    awaited.push_back({lo, theGroup});
    int maxRank = -1;
    std::set<int> present;
    const auto silent = std::make_shared<const SuspectReason>(
        SuspectReason{"every reporting rank waits at " + at +
                          "; this rank never reported it: it had not reached that collective when the others "
                          "timed out (it died, hung, or was still busy elsewhere)",
                      "every reporting rank waits at " + at +
                          "; these ranks never reported it: they had not reached that collective when the "
                          "others timed out (they died, hung, or were still busy elsewhere)"});
    // A rank whose own watchdog fired without naming the collective ("[Rank 3] To avoid data
    // inconsistency, we are taking the entire process down.", its timeout line not in the logs)
    // reached some collective and failed in it too: nothing says it had not reached this one.
    std::set<ProcessId> failedToo;
    for (const auto& h : m_hits)
        if (h.entry == owner->entry)
            failedToo.insert(info(h.where).process);
    // The initiating failure's rank among those that never reported: its own failure is why the
    // collective never completed, and the silence of the others says nothing more (a job torn down
    // after one rank failed: 4 watchdog reports of 10,000 ranks named 9,996 suspects). That rank
    // is the one suspect.
    if (const Finding* init = m_a.initiatingFinding(); init && owner->role == Role::Collateral &&
                                                       !seqOf.count(init->process) &&
                                                       !failedToo.count(init->process)) {
        owner->suspects.push_back(
            {init->process, std::make_shared<const SuspectReason>(SuspectReason{
                                "every reporting rank waits at " + at +
                                    "; this rank never reported it: it had failed first (the initiating "
                                    "failure, " +
                                    entry(init->entry).id + "), which is why the collective never completed",
                                {}})});
        return;
    }
    for (const auto& p : m_a.processes) {
        if (!p.rank)
            continue;
        present.insert(*p.rank);
        maxRank = std::max(maxRank, *p.rank);
        if (!seqOf.count(p.id) && !failedToo.count(p.id))
            owner->suspects.push_back({p.id, silent});
    }
    if (!owner->suspects.empty())
        return;
    std::string missing;
    for (int r = 0; r <= maxRank; ++r)
        if (!present.count(r))
            missing += (missing.empty() ? "" : ", ") + std::to_string(r);
    owner->hypotheses.push_back(
        {owner->entry,
         "every rank in these logs waits at " + at +
             (missing.empty() ? std::string("; the rank that had not reached it is not among them")
                              : (missing.find(',') == std::string::npos
                                     ? "; rank " + missing + " has no log here, and it"
                                     : "; ranks " + missing + " have no log here, and one of them") +
                                    " probably had not reached it: failed, hung, or still busy elsewhere "
                                    "(saving a checkpoint, evaluating) when the timeout ran out"),
         owner->anchor, "the missing ranks' logs, or TORCH_NCCL_DESYNC_DEBUG=1 on the next run"});
}

void Builder::flightAgreement(Finding& owner, const AwaitedCollective& awaited)
{
    // The watchdogs' lines name the collective the reporting ranks wait in; the dumps say what every
    // rank with a dump last enqueued, the silent ones too. Where both speak of the same collective,
    // say whether they agree on what kept it from finishing.
    std::set<int> suspected;
    for (const Suspect& s : owner.suspects)
        if (const std::optional<int>& r = m_a.process(s.process).rank)
            suspected.insert(*r);
    auto ranks = [](const std::vector<int>& r) {
        return (r.size() == 1 ? "rank " : "ranks ") + rankRuns(r, 8);
    };
    const std::string at = "collective #" + std::to_string(awaited.seq);
    for (const FlightGroupVerdict& v : m_a.flight.verdicts) {
        // Another collective, or another group: a group the lines name by its GUID is the dumps'
        // group of that name; a count of this process's groups ("[PG n ...]") names no dump's.
        if (v.awaited != awaited.seq ||
            (!awaited.group.empty() && !awaited.group.starts_with("local:") && v.name != awaited.group))
            continue;
        std::string text;
        switch (v.kind) {
        case FlightGroupVerdict::Kind::Behind: {
            const std::vector<int> behind = v.behind();
            std::string last;
            for (const auto& [rank, seq] : v.behindLast)
                last += (last.empty() ? "" : ", ") +
                        (v.behindLast.size() == 1 ? "" : "rank " + std::to_string(rank) + " ") + "#" +
                        std::to_string(seq);
            const std::string said =
                ranks(behind) + " never entered " + at + " (last enqueued: " + last + ")";
            if (suspected.empty())
                text = std::string("the Flight Recorder dumps name the ") +
                       (behind.size() == 1 ? "rank" : "ranks") + " the others wait for: " + said;
            else if (std::set<int>(behind.begin(), behind.end()) == suspected)
                text = "the Flight Recorder dumps agree: " + said;
            else
                text = "the Flight Recorder dumps point elsewhere: " + said + ", where the logs suspect " +
                       ranks(std::vector<int>(suspected.begin(), suspected.end()));
            break;
        }
        case FlightGroupVerdict::Kind::Stalled: {
            // Suspects whose own dump shows them inside the collective: they did reach it.
            std::vector<int> entered;
            for (int r : suspected)
                if (std::binary_search(v.ranks.begin(), v.ranks.end(), r) &&
                    std::find(v.withoutDump.begin(), v.withoutDump.end(), r) == v.withoutDump.end())
                    entered.push_back(r);
            text =
                "the Flight Recorder dumps show every rank with a dump inside " + at +
                " and none done with it" +
                (entered.empty()
                     ? std::string{}
                     : ", " + ranks(entered) + " too, which the logs suspect of not reaching it") +
                ": the hang is inside the collective (NCCL, the network, a GPU), not a rank that stayed away";
            break;
        }
        case FlightGroupVerdict::Kind::Mismatch:
            text =
                "the Flight Recorder dumps show the ranks enqueued different operations at " + at +
                ": a collective mismatch (ranks running different code paths), not a rank that stayed away";
            break;
        case FlightGroupVerdict::Kind::PointToPoint:
            continue; // no collective pending: not what the watchdogs name
        }
        owner.hypotheses.push_back({owner.entry, std::move(text), std::nullopt,
                                    "the Flight Recorder dumps (flight_recorder in --json)"});
    }
}

void Builder::rayFolds()
{
    // Ray prints the first of its workers' lines that differ only in words holding digits, and
    // folds the later ones (from any worker, on any host: the NCCL prefix's host and pid are such
    // words) into one line, printed a few seconds later under the tag of the latest of them. A
    // finding quoting such a line stands for processes the log does not name, and that line's
    // place in the stream is when Ray printed the batch, not when the workers wrote it.
    for (auto& f : m_a.findings) {
        std::vector<LineRef> lines{f.anchor};
        for (const Evidence& e : f.evidence)
            lines.push_back(e.where);
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
        std::optional<LineRef> first;
        int folded = 0;
        for (const LineRef r : lines)
            if (const auto rep = rayRepeatIn(m_a.source(r.source).line(r.line)))
                if (!first || earlier(r, *first)) {
                    first = r;
                    folded = rep->count;
                }
        if (!first)
            continue;
        const std::size_t named = f.processes.size();
        f.hypotheses.push_back(
            {f.entry,
             "Ray folded " + std::to_string(folded) + (folded == 1 ? " line" : " lines") +
                 " of its workers into " + m_a.source(first->source).displayPath + ":" +
                 std::to_string(first->line + 1) + " ('[repeated " + std::to_string(folded) +
                 "x across cluster]'): it prints the first of a run of lines that differ only in words "
                 "holding digits and folds the later ones, from any worker on any host, into one line under "
                 "the latest one's tag. So the " +
                 (named == 1 ? std::string("process") : std::to_string(named) + " processes") +
                 " this finding names may not be all that printed it, and a folded line stands where Ray "
                 "printed the batch, seconds after its workers wrote it",
             *first,
             "each worker's own log (the node's /tmp/ray/session_latest/logs/worker-*.out and .err), or "
             "the job run again with RAY_DEDUP_LOGS=0"});
    }
}

void Builder::elasticBoxVsLogs()
{
    // torchrun's "Root Cause (first observed failure)" is the first child whose exit the agent
    // noticed, not necessarily the first to fail; compare it with the ranks' own logs.
    const Finding* init = m_a.initiatingFinding();
    if (!init)
        return;
    const Process& ip = m_a.process(init->process);
    for (auto& f : m_a.findings) {
        if (&f == init)
            continue;
        auto [known, added] = m_exitReport.try_emplace(f.entry, nullptr);
        if (added)
            for (const auto& h : m_hits)
                if (h.entry == f.entry && !captureIn(h, "pid").empty() && !captureIn(h, "code").empty()) {
                    known->second = &h;
                    break;
                }
        if (const Hit* h = known->second) {
            const std::string pid = captureIn(*h, "pid"), code = captureIn(*h, "code");
            if (ip.pid >= 0 && std::to_string(ip.pid) != pid) {
                f.hypotheses.push_back(
                    {f.entry,
                     "the launcher's summary names pid " + pid + " (exit code " + code + "), but " +
                         ip.label() + " failed first in its own log",
                     h->where,
                     "the launcher reports the first exit it observed; the ranks' logs order the "
                     "failures by time"});
            }
        }
    }
}

void Builder::hypotheses()
{
    // The finding versionMismatch made: a condition of the whole run, whose place in time says
    // nothing about cause and consequence.
    auto runsMixedVersions = [this](const Finding& f) { return f.entry == m_mixedVersions; };
    const std::string mixedDecider =
        "ranks that load different NCCL releases may fail anywhere, before or after this line: load "
        "the same release on every rank (one image, one wheel) and see whether the failure returns";
    if (Finding* init = m_a.initiating ? &m_a.findings[*m_a.initiating] : nullptr) {
        const TimeInterval ti = info(init->anchor).time;
        if (init->inferredFromTrail)
            init->hypotheses.push_back(
                {-1,
                 "no line in these logs states the error: this finding rests on a return-code trail "
                 "alone, whose first step names the call that failed",
                 init->anchor,
                 "the same run with NCCL_DEBUG=INFO on every rank and every rank's log; a release that "
                 "logs this failure's errno (see the fix) would state it"});
        for (const auto& f : m_a.findings) {
            if (f.role != Role::Context || &f == init)
                continue;
            const TimeInterval tf = info(f.anchor).time;
            std::string decider;
            const std::optional<LineRef> quoting = quotedBy(init->anchor);
            if (runsMixedVersions(f))
                decider = mixedDecider;
            else if (quoting && f.anchor.source == quoting->source && f.anchor.line >= quoting->line &&
                     f.anchor.line < init->anchor.line)
                decider = "nothing more is needed: this line belongs to the exception that quotes the "
                          "initiating line "
                          "under 'Last error:' (the error NCCL recorded before the framework raised), so it "
                          "reports "
                          "the same failure";
            else if (!ti.known() || !tf.known())
                decider =
                    "neither line carries a timestamp, so the order came from their position in the files; "
                    "timestamps would decide (Python logging on every rank, or "
                    "NCCL_DEBUG_TIMESTAMP_LEVELS=ALL "
                    "with NCCL 2.26 or later)";
            else if (tf.lo < ti.hi && ti.lo < tf.hi)
                decider = "the two lines' times overlap, so the logs cannot order them; finer timestamps "
                          "would decide";
            else
                decider = "it happened later, so it is more likely a consequence than the cause";
            init->hypotheses.push_back({f.entry, f.summary, f.anchor, decider});
        }
        // An excerpt that opens inside a back-trace ("proxy.cc:698 -> 6" with no WARN above it): the
        // failure that trail reports was logged before the excerpt starts, so perhaps before the
        // initiating line (nccl-tests#252: one host's trail opens the paste, the other's WARN
        // follows it).
        for (const LineRef r : m_a.openingTrails) {
            // A trail the finding itself reads (a silent connect failure's, which no WARN began).
            if (r == init->anchor || std::any_of(init->evidence.begin(), init->evidence.end(),
                                                 [&](const Evidence& e) { return e.where == r; }))
                continue;
            const TimeInterval tr = info(r).time;
            const bool sameFile = r.source == init->anchor.source;
            const bool before =
                sameFile ? r.line < init->anchor.line : tr.known() && ti.known() && tr.hi <= ti.lo;
            const bool unordered = !sameFile && (!tr.known() || !ti.known());
            const ParsedLine pl = parseLine(m_a.text(r));
            if ((!before && !unordered) || !pl.trail)
                continue;
            init->hypotheses.push_back(
                {-1,
                 m_a.sources[r.source.value].displayPath + " opens inside a back-trace of " + m_a.labelAt(r) +
                     " ('" + std::string(pl.trail->file) + ":" + std::to_string(pl.trail->fileLine) + " -> " +
                     std::to_string(pl.trail->code) +
                     "', a step of NCCL's return-code trail) without the WARN that began it: the failure it "
                     "reports was logged before the file starts" +
                     (before ? ", so before the initiating line" : ""),
                 r,
                 "the lines before it (that process's whole log): its WARN names that failure, which may be "
                 "the run's first"});
        }
        for (const auto& c : init->checklist)
            if (c.status != CheckStatus::Confirmed && !c.detail.empty())
                init->hypotheses.push_back({-1,
                                            c.status == CheckStatus::Contradicted
                                                ? "contradicted: " + c.text
                                                : "not evidenced: " + c.text,
                                            c.line, c.detail, true});
        return;
    }
    // No initiating failure in the logs: say where it probably is and what would show it.
    for (const auto& f : m_a.findings)
        if (runsMixedVersions(f))
            m_a.hypotheses.push_back({f.entry, f.summary, f.anchor, mixedDecider});
    const std::size_t saidBefore = m_a.hypotheses.size();
    for (const auto& f : m_a.findings) {
        if (f.role != Role::Collateral)
            continue;
        for (const auto& h : f.hypotheses)
            m_a.hypotheses.push_back(h);
        if (!f.pointsAtNote.empty())
            m_a.hypotheses.push_back(
                {f.entry,
                 "the failure started outside these logs: " + entry(f.entry).title + " " + f.pointsAtNote,
                 f.anchor, "add the log of the peer these reports name"});
        for (std::string& text : suspectLines(m_a, f.suspects))
            m_a.hypotheses.push_back({f.entry, std::move(text), std::nullopt,
                                      "that rank's own log, or TORCH_NCCL_DESYNC_DEBUG=1 / "
                                      "TORCH_DISTRIBUTED_DEBUG=DETAIL on the next run"});
    }
    // Where no report above says where the failure is, the collateral findings are still known
    // consequences, not an unknown failure: say so, and where the cause must be. An error the
    // entries do not know (an NCCL WARN, the text under 'Last error:') may be that cause: then it is
    // listed, and the cause is not said to be missing from the logs.
    const bool onlyConsequences = m_a.hypotheses.size() == saidBefore &&
                                  std::any_of(m_a.findings.begin(), m_a.findings.end(),
                                              [](const Finding& f) { return f.role == Role::Collateral; });
    const std::vector<Hypothesis> unknownBeside =
        onlyConsequences ? unrecognisedErrors(true) : std::vector<Hypothesis>{};
    if (m_a.hypotheses.size() == saidBefore)
        for (const auto& f : m_a.findings) {
            if (f.role != Role::Collateral)
                continue;
            std::string summary = f.summary.substr(0, f.summary.find_last_not_of(". ") + 1);
            // Mid-sentence now: "Torchrun's agent" -> "torchrun's agent", but "NCCL" stays.
            if (summary.size() > 1 && std::isupper(static_cast<unsigned char>(summary[0])) &&
                std::islower(static_cast<unsigned char>(summary[1])))
                summary[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(summary[0])));
            m_a.hypotheses.push_back(
                {f.entry,
                 "only consequences were recognised (" + summary +
                     (unknownBeside.empty()
                          ? "); the failure that caused them is not in these lines"
                          : "); what caused them is not a failure Rankline knows: the error "
                            "lines below may name it"),
                 f.anchor,
                 "the first error in the own output of the processes it names, from the start of the run"});
        }
    m_a.hypotheses.insert(m_a.hypotheses.end(), unknownBeside.begin(), unknownBeside.end());
    // Without any finding, lines that do not make one on their own still say where to look: who
    // waited rather than who failed (an entry's collateral symptoms that are not primary) points
    // at the process waited for; a single connect attempt that failed and was retried (connect
    // symptoms that are not primary) at the address it tried, and at whether a later try worked.
    const Encyclopedia& enc = *m_a.encyclopedia;
    for (std::size_t ei = 0; m_a.findings.empty() && ei < enc.entries.size(); ++ei) {
        const int entryIndex = static_cast<int>(ei);
        const Entry& e = enc.entries[ei];
        for (const auto& s : e.symptoms) {
            // Fallbacks had their say above: below a trail's top they are a back-trace.
            if (s.primary || s.fallback ||
                (s.phase != Phase::Collateral && s.phase != Phase::Connect && !s.surface))
                continue;
            const auto hs = hitsOf(entryIndex, s.id, nullptr);
            if (hs.empty())
                continue;
            // Each process once, in the order of its first such line.
            std::vector<ProcessId> procs;
            std::set<ProcessId> seen;
            for (const Hit* h : hs)
                if (const ProcessId p = info(h->where).process; seen.insert(p).second)
                    procs.push_back(p);
            // The address the first such line names is what to check (a wrong MASTER_ADDR shows
            // there), and the reader should not have to open the line to see it.
            std::string named;
            if (const std::string addr = captureIn(*hs.front(), "addr"); !addr.empty()) {
                const std::string port = captureIn(*hs.front(), "port");
                named = " (the first names " + (port.empty() ? addr : addr + ":" + port) + ")";
            }
            m_a.hypotheses.push_back(
                {entryIndex, s.signal + " on " + describeProcesses(m_a, procs) + named + ": " + s.why,
                 hs.front()->where,
                 !s.wouldDecide.empty() ? s.wouldDecide
                 : s.phase == Phase::Connect
                     ? "the rest of this process's output (whether a later attempt connected, or the error "
                       "it gave up with) and the log of the process at the address it tried"
                 : s.surface ? "NCCL's own WARN, which names the failing call and its error: the text after "
                               "'Last error:', or a rerun with NCCL_DEBUG=WARN"
                             : "the log of the process it waited for, from the start of the run"});
        }
    }
    if (!m_a.hypotheses.empty())
        return;
    if (m_a.sources.empty() && !m_a.flight.empty()) {
        // Dumps alone: they say where the ranks stand, not what failed; the logs would.
        m_a.hypotheses.push_back({-1, "the bundle holds Flight Recorder dumps and no log", std::nullopt,
                                  std::string(kFlightLogsWanted) + " beside the dumps"});
        return;
    }
    // Asking for NCCL_DEBUG=INFO where the logs already are at INFO sends the reader round in a
    // circle: NCCL's interface announcements, printed at INFO only, tell.
    const bool ncclInfoOn = std::any_of(m_a.processes.begin(), m_a.processes.end(),
                                        [](const Process& p) { return !p.interface.empty(); });
    const std::vector<Hypothesis> unknown = unrecognisedErrors();
    m_a.hypotheses.push_back(
        {-1, "no known failure was recognised in these logs", std::nullopt,
         !unknown.empty() ? "the error lines below, which no entry knows yet, and every rank's log from the "
                            "start of the run and the launcher's"
         : ncclInfoOn
             ? "these logs are at NCCL_DEBUG=INFO already: read their first NCCL WARN if there is one "
               "(an error no entry knows yet), and add every rank's log from the start of the run "
               "and the launcher's"
             : "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET and include every rank's "
               "log (and the launcher's)"});
    m_a.hypotheses.insert(m_a.hypotheses.end(), unknown.begin(), unknown.end());
}

std::vector<Hypothesis> Builder::unrecognisedErrors(bool besideFindings) const
{
    // Where nothing was recognised, the errors the logs do state are still the best lead, and the
    // reader should not have to dig them out: NCCL's WARN names the failing call and its error,
    // an exception line names what the framework gave up on. The first few distinct ones in time
    // order; a bounded number of lines is read, so a bundle of a million identical WARNs costs
    // no more than a small one.
    constexpr std::size_t kShown = 3;
    constexpr std::size_t kRead = 256;
    constexpr std::size_t kQuoted = 300;
    std::vector<Hypothesis> out;
    std::set<std::string, std::less<>> said;
    // Lines that some entry matched already say what they are (the hits are in line order).
    auto recognised = [this, besideFindings](LineRef where) {
        if (!besideFindings)
            return false;
        const auto it = std::lower_bound(m_hits.begin(), m_hits.end(), where,
                                         [](const Hit& x, LineRef r) { return x.where < r; });
        return it != m_hits.end() && it->where == where;
    };
    enum class Kind { Warn, Quoted, Exception };
    auto offer = [&](LineRef where, ProcessId process, std::string_view what, Kind kind) {
        while (!what.empty() && (what.front() == ' ' || what.front() == '\t'))
            what.remove_prefix(1);
        while (!what.empty() && (what.back() == ' ' || what.back() == '\t'))
            what.remove_suffix(1);
        if (what.empty() || recognised(where))
            return;
        std::string text(what.substr(0, kQuoted));
        if (what.size() > kQuoted)
            text += " …";
        if (!said.insert(text).second)
            return;
        const std::vector<ProcessId> procs{process};
        const char* name = kind == Kind::Warn     ? "an NCCL WARN"
                           : kind == Kind::Quoted ? "NCCL's last error (as the framework quotes it)"
                                                  : "an error";
        out.push_back({-1,
                       std::string(name) + " that no entry recognises, on " + describeProcesses(m_a, procs) +
                           ": '" + text + "'",
                       where,
                       kind != Kind::Exception
                           ? "NCCL's own words name the failing call and its error: the lines of the same "
                             "thread before it, and NCCL's issue tracker for this message"
                           : "the traceback above it, and the first error of every other rank"});
    };
    std::size_t read = 0;
    for (const Event& e : m_a.events) {
        if (out.size() >= kShown || read == kRead)
            break;
        if (e.kind != EventKind::Warn && e.kind != EventKind::Exception)
            continue;
        ++read;
        const std::string_view line = m_a.text(e.where);
        const ParsedLine p = parseLine(line);
        if (p.nccl && p.nccl->level == Level::Warn)
            offer(e.where, e.process, p.nccl->message, Kind::Warn);
        else if (e.kind == EventKind::Exception)
            offer(e.where, e.process, p.body, Kind::Exception);
        else
            continue;
        if (!besideFindings)
            continue;
        // PyTorch's "ncclInternalError: ... / Last error: / <NCCL's message>": the message is the
        // cause the exception only reports, and the one line that says it where NCCL_DEBUG was off.
        const Source& src = m_a.source(e.where.source);
        for (std::uint32_t l = e.where.line + 1; l + 1 < src.lineCount() && l <= e.where.line + 3; ++l) {
            const std::string_view body = parseLine(src.line(l)).body;
            if (body.find("Last error:") == std::string_view::npos)
                continue;
            const LineRef next{e.where.source, l + 1};
            offer(next, m_a.lines[next.source.value].process(next.line), parseLine(src.line(l + 1)).body,
                  Kind::Quoted);
            break;
        }
    }
    if (out.size() > kShown)
        out.resize(kShown);
    return out;
}

void Builder::run()
{
    const Encyclopedia& enc = *m_a.encyclopedia;
    std::vector<Finding> initiating, collateral;
    // Each process's earliest hit of entry `ei` that `counts`. A framework's copy of NCCL's error
    // (under its exception's 'Last error:') yields to NCCL's own line of the same process where
    // nothing dates either: the own line names the source location, and NCCL printed it before
    // the framework raised (NVIDIA/nccl#1029 as posted through pdsh: the traceback came first).
    auto firstHits = [this](std::size_t ei, auto&& counts) {
        std::map<ProcessId, const Hit*> firstByProcess;
        auto undated = [this](LineRef r) { return m_a.orderUs(r) == kTimeUnknownHi; };
        auto before = [&](const Hit& h, const Hit& cur) {
            const bool hQuoted = quotedBy(h.where).has_value(), curQuoted = quotedBy(cur.where).has_value();
            if (hQuoted != curQuoted && undated(h.where) && undated(cur.where))
                return curQuoted;
            return earlier(h.where, cur.where);
        };
        for (const auto& h : m_hits) {
            if (h.entry != static_cast<int>(ei) || !counts(h))
                continue;
            ProcessId p = info(h.where).process;
            auto it = firstByProcess.find(p);
            if (it == firstByProcess.end() || before(h, *it->second))
                firstByProcess[p] = &h;
        }
        return firstByProcess;
    };
    auto makeFinding = [this](std::size_t ei, const Hit& anchor) {
        Finding f;
        f.entry = static_cast<int>(ei);
        f.anchor = anchor.where;
        f.process = info(anchor.where).process;
        f.time = info(anchor.where).time;
        m_anchorHit[{anchor.where, f.entry}] = &anchor;
        return f;
    };
    for (std::size_t ei = 0; ei < enc.entries.size(); ++ei) {
        const Entry& e = enc.entries[ei];
        const auto firstByProcess = firstHits(ei, [this](const Hit& h) { return symptom(h).primary; });
        if (firstByProcess.empty())
            continue;
        if (e.canInitiate) {
            for (const auto& [p, h] : firstByProcess) {
                Finding f = makeFinding(ei, *h);
                f.processes = {p};
                initiating.push_back(std::move(f));
            }
        } else {
            std::vector<const Hit*> firsts;
            for (const auto& [p, h] : firstByProcess)
                firsts.push_back(h);
            std::sort(firsts.begin(), firsts.end(),
                      [this](const Hit* x, const Hit* y) { return earlier(x->where, y->where); });
            Finding f = makeFinding(ei, *firsts.front());
            for (const Hit* h : firsts) {
                f.processes.push_back(info(h->where).process);
                if (f.evidence.size() < 64)
                    f.evidence.push_back({h->where, info(h->where).process, symptom(*h).id, {}});
            }
            f.role = Role::Collateral;
            collateral.push_back(std::move(f));
        }
    }

    // No line in the bundle states a failure that can start a cascade: some releases fail without
    // one (a connect whose errno they never read), and a return-code trail that no WARN precedes
    // is then the only trace. An entry's fallback symptoms stand in for its primary ones, at the
    // top of such a trail only; anywhere else a '-> N' line is the back-trace of a line above it.
    if (initiating.empty())
        for (std::size_t ei = 0; ei < enc.entries.size(); ++ei) {
            if (!enc.entries[ei].canInitiate)
                continue;
            const auto firstByProcess =
                firstHits(ei, [this](const Hit& h) { return symptom(h).fallback && opensTrail(h.where); });
            for (const auto& [p, h] : firstByProcess) {
                Finding f = makeFinding(ei, *h);
                f.processes = {p};
                f.inferredFromTrail = true;
                initiating.push_back(std::move(f));
            }
        }

    // Initiating: the earliest failure that can start a cascade and whose version checks do not
    // rule it out; the others of its kind are context.
    auto versionRuledOut = [&](const Finding& f) {
        const AffectedVersions* r = entry(f.entry).affected("nccl");
        const Process& p = m_a.process(f.process);
        return r && p.ncclVersion && !r->range.contains(*p.ncclVersion);
    };
    // A framework's copy of NCCL's error under 'Last error:', where nothing dates it, yields to a
    // finding of the same entry on the same host made from NCCL's own line: that line names the
    // process and the source line, and the copy says nothing more. Without dates, file names would
    // decide between them (NVIDIA/nccl#1029 as posted in two pieces: the traceback's sorts first).
    std::set<std::pair<int, LineRef>> yieldingEchoes; // (entry, anchor)
    for (const Finding& f : initiating) {
        const std::optional<LineRef> q = quotedBy(f.anchor);
        if (!q || m_a.orderUs(*q) != kTimeUnknownHi)
            continue;
        const std::string& host = m_a.process(f.process).host;
        if (!host.empty() && std::any_of(initiating.begin(), initiating.end(), [&](const Finding& g) {
                return g.entry == f.entry && !quotedBy(g.anchor) && m_a.process(g.process).host == host;
            }))
            yieldingEchoes.insert({f.entry, f.anchor});
    }
    // Where nothing dates them, a finding that an entry found in the same file names among its
    // undated consequences (Entry::undatedConsequences) and that stands before every finding of
    // that entry there is placed right after the first of them: the crash report of one process
    // printed before the transport failure of another that it follows (deepseek-ai/DeepEP#126).
    std::map<LineRef, LineRef> placedAfter; // a finding's anchor -> the cause's anchor
    {
        std::vector<const Finding*> causes;
        for (const Finding& g : initiating)
            if (!entry(g.entry).undatedConsequences.empty() && m_a.orderUs(g.anchor) == kTimeUnknownHi)
                causes.push_back(&g);
        for (const Finding& f : initiating) {
            if (causes.empty())
                break;
            if (m_a.orderUs(f.anchor) != kTimeUnknownHi)
                continue;
            const std::string& id = entry(f.entry).id;
            std::optional<LineRef> first;
            for (const Finding* g : causes) {
                const auto& c = entry(g->entry).undatedConsequences;
                if (g->anchor.source != f.anchor.source || std::find(c.begin(), c.end(), id) == c.end())
                    continue;
                if (!first || g->anchor.line < first->line)
                    first = g->anchor;
            }
            if (first && first->line > f.anchor.line)
                placedAfter[f.anchor] = *first;
        }
    }
    // Failures that the records of torchelastic's boxes in one file quote (one agent's console,
    // one clock) are in torchelastic's order: by the time each record gives, the root cause first
    // among equal times. A box prints its root cause last, and its lines carry only the agent's
    // time. They take each other's places (in their own order by time and line), so the order
    // stays one order.
    std::map<LineRef, LineRef> boxPlace; // a finding's anchor -> the place it takes
    if (!m_a.elasticRecords.empty()) {
        std::map<std::uint32_t, std::vector<std::pair<LineRef, const ElasticRecordLines*>>> inBox;
        for (const Finding& f : initiating)
            if (const ElasticRecordLines* r = m_a.elasticRecordAt(f.anchor))
                inBox[f.anchor.source.value].push_back({f.anchor, r});
        for (auto& [source, quoted] : inBox) {
            std::sort(quoted.begin(), quoted.end());
            quoted.erase(std::unique(quoted.begin(), quoted.end()), quoted.end());
            if (quoted.size() < 2)
                continue;
            std::vector<LineRef> places;
            for (const auto& q : quoted)
                places.push_back(q.first);
            std::sort(places.begin(), places.end(), [this](LineRef x, LineRef y) { return earlier(x, y); });
            std::stable_sort(quoted.begin(), quoted.end(), [](const auto& x, const auto& y) {
                const auto key = [](const ElasticRecordLines& r) {
                    return std::make_tuple(r.timeUs.value_or(std::numeric_limits<std::int64_t>::max()),
                                           !r.rootCause);
                };
                return key(*x.second) < key(*y.second);
            });
            for (std::size_t i = 0; i < quoted.size(); ++i)
                boxPlace[quoted[i].first] = places[i];
        }
    }
    auto placeOf = [&placedAfter, &boxPlace](const Finding& f) {
        if (const auto b = boxPlace.find(f.anchor); b != boxPlace.end())
            return b->second;
        const auto it = placedAfter.find(f.anchor);
        return it == placedAfter.end() ? f.anchor : it->second;
    };
    std::sort(initiating.begin(), initiating.end(), [&](const Finding& x, const Finding& y) {
        bool rx = versionRuledOut(x), ry = versionRuledOut(y);
        if (rx != ry)
            return !rx;
        const bool ex = yieldingEchoes.count({x.entry, x.anchor}) > 0,
                   ey = yieldingEchoes.count({y.entry, y.anchor}) > 0;
        if (ex != ey)
            return !ex;
        if (x.anchor == y.anchor) {
            // Two entries explain one line: the special case goes first.
            const auto& refines = entry(x.entry).refines;
            return std::find(refines.begin(), refines.end(), entry(y.entry).id) != refines.end();
        }
        if (const LineRef px = placeOf(x), py = placeOf(y); px != py)
            return earlier(px, py);
        const bool mx = placedAfter.count(x.anchor) > 0, my = placedAfter.count(y.anchor) > 0;
        if (mx != my)
            return !mx;
        return earlier(x.anchor, y.anchor);
    });
    // An entry that can start a failure but usually ends one (a scheduler's time limit) starts it
    // only where no report of a failure comes before it: after a collective timeout, the time limit
    // is the late end of a hang whose cause is elsewhere.
    auto endsAFailureHere = [&](const Finding& f) {
        return entry(f.entry).usualRole == "collateral" &&
               std::any_of(collateral.begin(), collateral.end(),
                           [&](const Finding& c) { return earlier(c.anchor, f.anchor); });
    };
    for (std::size_t i = 0; i < initiating.size(); ++i)
        initiating[i].role = i == 0 && !versionRuledOut(initiating[i]) && !endsAFailureHere(initiating[i])
                                 ? Role::Initiating
                                 : Role::Context;

    std::vector<Finding> all;
    for (auto& f : initiating)
        all.push_back(std::move(f));
    std::sort(collateral.begin(), collateral.end(),
              [this](const Finding& x, const Finding& y) { return earlier(x.anchor, y.anchor); });
    for (auto& f : collateral)
        all.push_back(std::move(f));
    versionMismatch(all);
    m_a.findings = std::move(all);
    m_a.initiating.reset();
    if (!m_a.findings.empty() && m_a.findings[0].role == Role::Initiating)
        m_a.initiating = 0;

    // Evidence of initiating-type findings: labelled symptom lines, the earliest connect failure in
    // the bundle, and the return-code trail.
    for (auto& f : m_a.findings) {
        if (f.role == Role::Collateral)
            continue;
        const Entry& e = entry(f.entry);
        std::set<ProcessId> procs{f.process};
        auto [known, added] = m_earliestConnect.try_emplace(f.entry, nullptr);
        if (added)
            for (const auto& h : m_hits)
                if (h.entry == f.entry && symptom(h).phase == Phase::Connect &&
                    (!known->second || earlier(h.where, known->second->where)))
                    known->second = &h;
        const Hit* earliestConnect = known->second;
        if (earliestConnect) {
            bool same = earliestConnect->where == f.anchor;
            f.evidence.push_back(
                {earliestConnect->where, info(earliestConnect->where).process, "earliest-connect-failure",
                 same ? (e.earliestNote.empty()
                             ? std::string("no earlier connect failure is logged: this line is "
                                           "the earliest connect failure in the bundle")
                             : e.earliestNote)
                      : std::string("earliest connect-phase failure in the bundle")});
        }
        for (const auto& s : e.symptoms) {
            auto hs = hitsOf(f.entry, s.id, &procs);
            if (hs.empty())
                continue;
            const Hit* chosen = hs.front();
            if (const Hit* own = s.primary ? anchorHit(f) : nullptr)
                chosen = own;
            const std::string label = s.label.empty() ? s.id : s.label;
            if (std::none_of(f.evidence.begin(), f.evidence.end(),
                             [&](const Evidence& x) { return x.where == chosen->where && x.label == label; }))
                f.evidence.push_back({chosen->where, f.process, label, {}});
        }
        addTrail(f, f.anchor);
    }
    // A report on the initiating process itself (its own "unhandled system error" after the abort)
    // is part of the failure, not collateral: move those lines to the initiating finding.
    if (m_a.initiating) {
        const ProcessId initProc = m_a.findings[*m_a.initiating].process;
        std::vector<Evidence> moved;
        for (auto& f : m_a.findings) {
            if (f.role != Role::Collateral)
                continue;
            auto own = std::stable_partition(f.evidence.begin(), f.evidence.end(),
                                             [&](const Evidence& e) { return e.process != initProc; });
            moved.insert(moved.end(), own, f.evidence.end());
            f.evidence.erase(own, f.evidence.end());
            f.processes.erase(std::remove(f.processes.begin(), f.processes.end(), initProc),
                              f.processes.end());
            if (!f.evidence.empty() && f.process == initProc) {
                f.anchor = f.evidence.front().where;
                f.process = f.evidence.front().process;
                f.time = info(f.anchor).time;
                for (const auto& h : m_hits)
                    if (h.where == f.anchor && h.entry == f.entry)
                        m_anchorHit[{f.anchor, f.entry}] = &h;
            }
        }
        std::erase_if(m_a.findings,
                      [](const Finding& f) { return f.role == Role::Collateral && f.evidence.empty(); });
        m_a.initiating = 0; // still first: only collateral findings were removed
        for (auto& e : moved) {
            bool already = std::any_of(m_a.findings[0].evidence.begin(), m_a.findings[0].evidence.end(),
                                       [&](const Evidence& x) { return x.where == e.where; });
            if (!already)
                m_a.findings[0].evidence.push_back(std::move(e));
        }
    }
    for (auto& f : m_a.findings)
        if (f.role == Role::Collateral)
            if (const Hit* hit = anchorHit(f))
                collateralTarget(f, *hit);
    for (auto& f : m_a.findings) {
        evaluate(f);
        summarize(f);
        if (f.entry == m_mixedVersions) // no line of the entry's own to quote
            f.summary = m_a.nccl.mismatchNote;
    }
    versionVerdict();

    collectiveProgress();
    elasticBoxVsLogs();
    hypotheses();
    rayFolds();

    // Say plainly where the aligned clocks cannot order the initiating failure against a report
    // from another host: their intervals overlap.
    if (const Finding* init = m_a.initiatingFinding()) {
        const TimeInterval ti = info(init->anchor).time;
        const std::string& ih = m_a.process(init->process).host;
        for (const auto& f : m_a.findings) {
            if (f.role != Role::Collateral)
                continue;
            // Only reports that name a peer carry blame; a watchdog's order says nothing.
            const Hit* hit = anchorHit(f);
            if (!hit || captureIn(*hit, "peer").empty())
                continue;
            for (const auto& e : f.evidence) {
                const TimeInterval te = info(e.where).time;
                if (m_a.process(e.process).host == ih || !ti.knownLo() || !ti.knownHi() || !te.knownLo() ||
                    !te.knownHi())
                    continue;
                if (te.lo < ti.hi && ti.lo < te.hi && m_a.unordered.size() < 32)
                    m_a.unordered.push_back({init->anchor, e.where});
            }
        }
    }
}

} // namespace

void buildFindings(Analysis& analysis, const std::vector<Hit>& hits)
{
    Builder(analysis, hits).run();
}

std::vector<std::string> suspectLines(const Analysis& a, const std::vector<Suspect>& suspects)
{
    std::vector<std::pair<const Suspect*, std::vector<ProcessId>>> groups;
    std::unordered_map<std::string_view, std::size_t> groupOf;
    for (const Suspect& s : suspects) {
        auto [it, added] = groupOf.try_emplace(s.reason(), groups.size());
        if (added)
            groups.push_back({&s, {}});
        groups[it->second].second.push_back(s.process);
    }
    std::vector<std::string> lines;
    lines.reserve(groups.size());
    for (const auto& [first, processes] : groups)
        lines.push_back(processes.size() == 1 || first->why->many.empty()
                            ? a.process(processes.front()).label() + ": " + first->reason()
                            : describeProcesses(a, processes) + ": " + first->why->many);
    return lines;
}

} // namespace rl
