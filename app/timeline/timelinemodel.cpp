#include "timeline/timelinemodel.h"

#include <QObject>

#include <algorithm>
#include <optional>

#include "models/analysisindex.h"

namespace rl
{

namespace
{

bool contains(const std::string& s, const char* what)
{
    return s.find(what) != std::string::npos;
}

auto byPos = [](const TimelineMark& m, std::int64_t v) { return m.pos < v; };
auto markBefore = [](const TimelineMark& a, const TimelineMark& b) {
    return a.pos != b.pos ? a.pos < b.pos : a.event < b.event;
};
auto posBefore = [](std::int64_t v, const TimelineMark& m) { return v < m.pos; };

} // namespace

void MarkTrack::finish()
{
    if (!std::is_sorted(m_marks.begin(), m_marks.end(), markBefore))
        std::sort(m_marks.begin(), m_marks.end(), markBefore);
    m_marks.shrink_to_fit();
    m_levels.clear();
    // Few marks are drawn directly at every zoom.
    if (m_marks.size() < 256)
        return;
    const std::int64_t origin = m_marks.front().pos;
    const std::int64_t span = m_marks.back().pos - origin + 1;
    // Buckets finer than a quarter of the mean gap would keep nearly every mark.
    std::int64_t bucket = std::max<std::int64_t>(1, span / static_cast<std::int64_t>(4 * m_marks.size()));
    m_levels.reserve(32); // `below` points into it: no reallocation
    const std::vector<TimelineMark>* below = &m_marks;
    std::vector<TimelineMark> next;
    while (below->size() > 1 && bucket <= span) {
        next.clear();
        std::int64_t current = -1;
        for (const TimelineMark& m : *below) {
            const std::int64_t b = (m.pos - origin) / bucket;
            if (b != current) {
                next.push_back(m);
                current = b;
            } else if (m.outranks(next.back())) {
                next.back() = m;
            }
        }
        // Keep a level only when it saves real work over the one below it.
        const std::size_t kept = m_levels.empty() ? m_marks.size() : m_levels.back().marks.size();
        if (next.size() * 4 <= kept * 3) {
            next.shrink_to_fit();
            m_levels.push_back({bucket, next});
            below = &m_levels.back().marks;
        }
        bucket *= 2;
    }
}

std::span<const TimelineMark> MarkTrack::window(std::int64_t start, std::int64_t end,
                                                double unitsPerPixel) const
{
    const std::vector<TimelineMark>* v = &m_marks;
    for (const Level& l : m_levels) {
        if (static_cast<double>(l.bucket) > unitsPerPixel)
            break;
        v = &l.marks;
    }
    auto b = std::lower_bound(v->begin(), v->end(), start, byPos);
    auto e = std::upper_bound(b, v->end(), end, posBefore);
    return {b, e};
}

std::span<const TimelineMark> MarkTrack::range(std::int64_t start, std::int64_t end) const
{
    auto b = std::lower_bound(m_marks.begin(), m_marks.end(), start, byPos);
    auto e = std::upper_bound(b, m_marks.end(), end, posBefore);
    return {b, e};
}

int TimelineModel::addHost(const QString& name)
{
    TimelineHost h;
    h.name = name;
    m_hosts.push_back(std::move(h));
    return static_cast<int>(m_hosts.size()) - 1;
}

int TimelineModel::addLane(int host, const QString& label, ProcessId process)
{
    TimelineLane l;
    l.process = process;
    l.label = label;
    l.host = host;
    m_lanes.push_back(std::move(l));
    const int lane = static_cast<int>(m_lanes.size()) - 1;
    m_hosts[static_cast<std::size_t>(host)].lanes.push_back(lane);
    if (process.valid()) {
        if (m_laneOfProcess.size() <= process.value)
            m_laneOfProcess.resize(process.value + 1, -1);
        m_laneOfProcess[process.value] = lane;
    }
    return lane;
}

void TimelineModel::setSpan(std::int64_t start, std::int64_t end, bool hasTime)
{
    m_start = start;
    m_end = std::max(end, start + 1);
    m_hasTime = hasTime;
}

void TimelineModel::finish()
{
    for (auto& l : m_lanes)
        l.track.finish();
    // A host's track merges its lanes' sorted tracks: pairwise merges, no full sort.
    for (auto& h : m_hosts) {
        std::vector<TimelineMark> all;
        std::vector<std::size_t> bounds{0};
        std::size_t n = 0;
        for (int l : h.lanes)
            n += m_lanes[static_cast<std::size_t>(l)].track.size();
        all.reserve(n);
        for (int l : h.lanes) {
            const auto& marks = m_lanes[static_cast<std::size_t>(l)].track.marks();
            all.insert(all.end(), marks.begin(), marks.end());
            bounds.push_back(all.size());
        }
        for (std::size_t width = 1; width + 1 < bounds.size(); width *= 2)
            for (std::size_t i = 0; i + width < bounds.size() - 1; i += 2 * width) {
                const std::size_t mid = bounds[i + width];
                const std::size_t end = bounds[std::min(i + 2 * width, bounds.size() - 1)];
                std::inplace_merge(all.begin() + static_cast<std::ptrdiff_t>(bounds[i]),
                                   all.begin() + static_cast<std::ptrdiff_t>(mid),
                                   all.begin() + static_cast<std::ptrdiff_t>(end), markBefore);
            }
        h.track = {};
        h.track.assignSorted(std::move(all));
        h.track.finish();
    }
}

int TimelineModel::laneOf(ProcessId p) const
{
    return p.valid() && p.value < m_laneOfProcess.size() ? m_laneOfProcess[p.value] : -1;
}

std::size_t TimelineModel::markCount() const
{
    std::size_t n = 0;
    for (const auto& l : m_lanes)
        n += l.track.size();
    return n;
}

MarkKind TimelineModel::kindOf(const Analysis& a, const Event& e, const QStringList& evidenceLabels)
{
    // The retry's abort is the story's hinge; when NCCL logged no earlier attempt the same line is
    // also the earliest connect failure, and the unlogged attempt is drawn apart (hollow).
    if (evidenceLabels.contains(QLatin1String("aborted-retry")))
        return MarkKind::Abort;
    if (evidenceLabels.contains(QLatin1String("earliest-connect-failure")))
        return MarkKind::ConnectFailure;
    if (e.kind == EventKind::Traceback || e.kind == EventKind::Exception)
        return MarkKind::Traceback;
    if (e.kind == EventKind::Symptom && e.entry >= 0 && a.encyclopedia) {
        const Entry& entry = a.entry(e.entry);
        const Symptom* s = e.symptom >= 0 && static_cast<std::size_t>(e.symptom) < entry.symptoms.size()
                               ? &entry.symptoms[static_cast<std::size_t>(e.symptom)]
                               : nullptr;
        const std::string sid = s ? s->id : std::string();
        // The connect that aborted (not Slurm's "Job step aborted", a teardown).
        if (contains(sid, "abort") && s->phase == Phase::Connect)
            return MarkKind::Abort;
        if (s && s->phase == Phase::Connect)
            return MarkKind::ConnectFailure;
        if (contains(entry.id, "watchdog") || contains(sid, "watchdog"))
            return MarkKind::Watchdog;
        if (contains(sid, "exitcode") || contains(sid, "sigkill") || contains(sid, "signal") ||
            contains(sid, "child-failed") || contains(sid, "oom-kill") || contains(sid, "killed"))
            return MarkKind::Exit;
    }
    if (e.level == Level::Warn)
        return MarkKind::Warn;
    if (e.level == Level::Error || e.level == Level::Fatal || e.kind == EventKind::Error)
        return MarkKind::Error;
    return MarkKind::Other;
}

std::shared_ptr<const TimelineModel> TimelineModel::fromIndex(const AnalysisIndex& index)
{
    auto model = std::make_shared<TimelineModel>();
    const Analysis& a = index.analysis();
    // Hosts in order of their first (lowest-ranked) process; processes without a host go last.
    std::vector<std::string> hosts;
    for (const auto& p : a.processes)
        if (std::find(hosts.begin(), hosts.end(), p.host) == hosts.end())
            hosts.push_back(p.host);
    std::stable_partition(hosts.begin(), hosts.end(), [](const std::string& h) { return !h.empty(); });
    // Whether the processes that have an attempt have more than one between them.
    std::optional<int> oneAttempt;
    bool severalAttempts = false;
    for (const auto& p : a.processes)
        if (p.attempt) {
            severalAttempts = severalAttempts || (oneAttempt && *oneAttempt != *p.attempt);
            oneAttempt = p.attempt;
        }
    for (const auto& h : hosts) {
        const int hi = model->addHost(h.empty() ? QObject::tr("(host unknown)") : QString::fromStdString(h));
        for (const auto& hc : a.clock.hosts)
            if (hc.host == h) {
                model->m_hosts.back().clockOffsetUs = hc.offsetUs;
                model->m_hosts.back().clockUserSet = hc.userSet;
            }
        for (const auto& p : a.processes) {
            if (p.host != h)
                continue;
            // A process known by neither rank nor pid: its local rank where its path gives one (a
            // torchrun worker folder), before the path itself, which a narrow lane cuts short.
            QString label =
                p.deviceRanks.size() > 1 ? QObject::tr("ranks %1").arg(QString::fromStdString(p.rankText()))
                : p.rank                 ? QObject::tr("rank %1").arg(*p.rank)
                : p.pid >= 0             ? QObject::tr("pid %1").arg(p.pid)
                : p.localRank
                    ? QObject::tr("local rank %1").arg(*p.localRank)
                    : QString::fromStdString(p.sources.empty() ? std::string("?")
                                                               : a.source(p.sources.front()).displayPath);
            // A rank's runs side by side (earlier attempts included, or a job's runs in one
            // stream) are told apart as in the rank list; with one attempt shown it says nothing.
            if (p.attempt && severalAttempts)
                label += QObject::tr(" (attempt %1)").arg(*p.attempt);
            model->addLane(hi, label, p.id);
        }
    }
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const Event& e = a.events[i];
        const int lane = model->laneOf(e.process);
        if (lane < 0)
            continue;
        const QStringList labels = index.evidenceLabels(e.where);
        TimelineMark m;
        m.pos = index.axisPos(e.where);
        m.event = static_cast<std::uint32_t>(i);
        m.kind = kindOf(a, e, labels);
        if (!labels.isEmpty())
            m.tier = MarkTier::Evidence;
        else if (index.isCollateral(e.where))
            m.tier = MarkTier::Collateral;
        else if (e.level == Level::Error || e.level == Level::Fatal || m.kind == MarkKind::Traceback ||
                 m.kind == MarkKind::Exit || m.kind == MarkKind::Abort || m.kind == MarkKind::Watchdog ||
                 m.kind == MarkKind::ConnectFailure || m.kind == MarkKind::Error)
            m.tier = MarkTier::Error;
        else if (e.level == Level::Warn)
            m.tier = MarkTier::Warn;
        model->laneTrack(lane).add(m);
    }
    if (index.hasTime())
        model->setSpan(a.span.lo, a.span.hi, true);
    else
        model->setSpan(0, std::max<std::int64_t>(1, static_cast<std::int64_t>(a.merged.size())), false);
    model->finish();
    return model;
}

} // namespace rl
