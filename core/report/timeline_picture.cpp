#include "report/timeline_picture.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <numbers>
#include <optional>
#include <set>

#include "analysis.h"

namespace rl
{

namespace
{

constexpr std::int64_t kSecond = 1000000;

// DejaVu Sans averages a little over half an em per character; enough to space legend items.
double textWidth(const std::string& s, double fontSize)
{
    std::size_t chars = 0;
    for (unsigned char c : s)
        chars += (c & 0xC0) != 0x80;                     // count code points, not bytes
    return static_cast<double>(chars) * fontSize * 0.62; // generous: capitals ("WARN") run wide
}

std::string dateTime(std::int64_t us)
{
    std::time_t t = static_cast<std::time_t>(us / kSecond);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d ", &tm);
    return buf + clockLabel(us, 1);
}

// Where a line sits on the axis: the middle of its time interval, or its merged row.
class Axis
{
public:
    explicit Axis(const Analysis& a) : m_a(a)
    {
        m_hasTime = a.span.knownLo() && a.span.knownHi() && a.span.hi > a.span.lo;
        if (!m_hasTime) {
            m_rows.resize(a.sources.size());
            for (std::size_t s = 0; s < a.sources.size(); ++s)
                m_rows[s].resize(a.lines[s].size());
            for (std::size_t r = 0; r < a.merged.size(); ++r)
                m_rows[a.merged[r].source.value][a.merged[r].line] = static_cast<std::int64_t>(r);
        }
    }
    bool hasTime() const { return m_hasTime; }
    std::int64_t pos(LineRef where) const
    {
        if (!m_hasTime)
            return m_rows[where.source.value][where.line];
        return m_a.axisTime(where);
    }

private:
    const Analysis& m_a;
    bool m_hasTime = false;
    std::vector<std::vector<std::int64_t>> m_rows;
};

std::string laneLabel(const Analysis& a, const Process& p)
{
    if (p.rank)
        return "rank " + std::to_string(*p.rank);
    if (p.pid >= 0)
        return "pid " + std::to_string(p.pid);
    std::string f = p.sources.empty() ? std::string("?") : a.source(p.sources.front()).displayPath;
    if (f.size() > 18)
        f = "…" + f.substr(f.size() - 16);
    return f;
}

} // namespace

std::string clockLabel(std::int64_t us, std::int64_t resolutionUs)
{
    std::time_t t = static_cast<std::time_t>(us / kSecond);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, resolutionUs >= 60 * kSecond ? "%H:%M" : "%H:%M:%S", &tm);
    if (resolutionUs >= kSecond)
        return buf;
    char frac[8];
    std::snprintf(frac, sizeof frac, ".%03d", static_cast<int>((us % kSecond) / 1000));
    return std::string(buf) + frac;
}

const char* markKindName(PictureMarkKind k)
{
    switch (k) {
    case PictureMarkKind::Initiating:
        return "initiating";
    case PictureMarkKind::Collateral:
        return "collateral";
    case PictureMarkKind::Error:
        return "error";
    case PictureMarkKind::Warn:
        return "warn";
    case PictureMarkKind::Other:
        return "other";
    case PictureMarkKind::Unlogged:
        return "unlogged";
    }
    return "other";
}

std::int64_t niceTimeStep(double minStep)
{
    // Up to a minute 1-2-5 steps read well (20 s, 50 s); beyond, steps follow the clock.
    constexpr std::int64_t kMin = 60 * kSecond, kHourUs = 60 * kMin, kDayUs = 24 * kHourUs;
    static const std::int64_t clockSteps[] = {
        kMin,        2 * kMin,    5 * kMin,    10 * kMin,    15 * kMin,   30 * kMin,  kHourUs,
        2 * kHourUs, 3 * kHourUs, 6 * kHourUs, 12 * kHourUs, kDayUs,      2 * kDayUs, 7 * kDayUs,
        14 * kDayUs, 30 * kDayUs, 90 * kDayUs, 180 * kDayUs, 365 * kDayUs};
    if (minStep <= static_cast<double>(kMin))
        return niceStep(minStep);
    for (std::int64_t s : clockSteps)
        if (static_cast<double>(s) >= minStep)
            return s;
    return niceStep(minStep / static_cast<double>(365 * kDayUs)) * 365 * kDayUs;
}

const char* markColor(PictureMarkKind k)
{
    switch (k) {
    case PictureMarkKind::Initiating:
    case PictureMarkKind::Unlogged:
        return "#c8141e";
    case PictureMarkKind::Collateral:
        return "#e68c00";
    case PictureMarkKind::Error:
        return "#963ca0";
    case PictureMarkKind::Warn:
        return "#c8a000";
    case PictureMarkKind::Other:
        return "#788caa";
    }
    return "#788caa";
}

TimelinePicture::Arrow makeArrow(double x1, double y1, double x2, double y2, PictureMarkKind kind,
                                 bool dashed)
{
    TimelinePicture::Arrow a;
    a.kind = kind;
    a.dashed = dashed;
    a.from = {x1, y1};
    a.to = {x2, y2};
    double midX = x1 + (x2 - x1) * 0.5;
    bool level = std::abs(y2 - y1) < 1;
    a.c1 = level ? a.from : TimelinePicture::Point{midX, y1};
    a.c2 = level ? a.to : TimelinePicture::Point{midX, y2};
    double ang = level ? std::atan2(y2 - y1, x2 - x1) : (x2 >= x1 ? 0.0 : std::numbers::pi);
    double tipX = x2 - std::cos(ang) * 6, tipY = y2 - std::sin(ang) * 6;
    a.head[0] = a.to;
    a.head[1] = {tipX + std::sin(ang) * 4, tipY - std::cos(ang) * 4};
    a.head[2] = {tipX - std::sin(ang) * 4, tipY + std::cos(ang) * 4};
    return a;
}

std::int64_t niceStep(double minStep)
{
    std::int64_t step = 1;
    while (true) {
        for (std::int64_t m : {1, 2, 5})
            if (static_cast<double>(step * m) >= minStep)
                return step * m;
        if (step > (std::int64_t{1} << 56))
            return step;
        step *= 10;
    }
}

std::string relativeTimeLabel(std::int64_t delta, std::int64_t step)
{
    if (delta == 0)
        return "0";
    const char* sign = delta > 0 ? "+" : "\u2212";
    double mag = std::abs(static_cast<double>(delta));
    char buf[48];
    // Long runs read better in the largest unit the step allows.
    constexpr double kMinute = 60e6, kHour = 3600e6, kDay = 86400e6;
    auto whole = [&](double unit, const char* name) {
        double v = mag / unit;
        std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%s%.0f %s" : "%s%.1f %s", sign, v, name);
        return std::string(buf);
    };
    if (static_cast<double>(step) >= kDay)
        return whole(kDay, "d");
    if (static_cast<double>(step) >= kHour)
        return whole(kHour, "h");
    if (static_cast<double>(step) >= 10 * kMinute)
        return whole(kMinute, "min");
    if (step >= kSecond)
        std::snprintf(buf, sizeof buf, "%s%.0f s", sign, mag / 1e6);
    else if (step >= 100000)
        std::snprintf(buf, sizeof buf, "%s%.1f s", sign, mag / 1e6);
    else if (step >= 10000)
        std::snprintf(buf, sizeof buf, "%s%.2f s", sign, mag / 1e6);
    else if (step >= 1000)
        std::snprintf(buf, sizeof buf, "%s%.0f ms", sign, mag / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%s%.0f \u00b5s", sign, mag);
    return buf;
}

TimelinePicture layoutTimeline(const Analysis& a, const TimelineLayout& L)
{
    TimelinePicture pic;
    pic.width = L.width;
    pic.fontSize = L.fontSize;
    pic.laneHeight = L.laneHeight;
    pic.plotLeft = L.labelWidth;
    pic.plotRight = L.width - 16;
    pic.plotTop = L.fontSize + 16;
    const Axis axis(a);
    pic.hasTime = axis.hasTime();
    if (a.events.empty() || a.processes.empty()) {
        pic.height = pic.plotTop;
        pic.caption = "No events to draw.";
        return pic;
    }
    pic.empty = false;

    // The window: the initiating evidence (or the first finding) with room either side for the
    // first collateral reports; the whole run when nothing was found.
    const Finding* init = a.initiatingFinding();
    const Finding* focus = init ? init : a.findings.empty() ? nullptr : &a.findings.front();
    std::int64_t t0, t1, ref = 0;
    if (focus) {
        std::int64_t lo = axis.pos(focus->anchor), hi = lo;
        for (const auto& e : focus->evidence) {
            lo = std::min(lo, axis.pos(e.where));
            hi = std::max(hi, axis.pos(e.where));
        }
        if (focus->connectPhaseStart)
            lo = std::min(lo, axis.pos(*focus->connectPhaseStart));
        std::int64_t span = std::max<std::int64_t>(hi - lo, pic.hasTime ? kSecond : 20);
        t0 = lo - span * 2;
        t1 = hi + span * 2;
        ref = axis.pos(focus->anchor);
    } else {
        t0 = pic.hasTime ? a.span.lo : 0;
        t1 = pic.hasTime ? a.span.hi : static_cast<std::int64_t>(a.merged.size());
        std::int64_t pad = std::max<std::int64_t>((t1 - t0) / 40, 1);
        t0 -= pad;
        t1 += pad;
    }
    t1 = std::max(t1, t0 + 1);
    const double plotW = pic.plotRight - pic.plotLeft;
    auto xOf = [&](std::int64_t t) {
        return pic.plotLeft + static_cast<double>(t - t0) * plotW / static_cast<double>(t1 - t0);
    };
    auto inWindow = [&](std::int64_t t) { return t >= t0 && t <= t1; };

    // Which lines are evidence of the initiating finding, which are collateral reports.
    std::set<LineRef> evidence, collateral;
    if (init)
        for (const auto& e : init->evidence)
            evidence.insert(e.where);
    for (const auto& f : a.findings)
        if (f.role == Role::Collateral)
            for (const auto& e : f.evidence)
                collateral.insert(e.where);

    // Lanes: every process when few; otherwise the initiating one, the collateral reporters, then
    // processes with events in the window, up to maxLanes.
    std::vector<bool> shown(a.processes.size(), a.processes.size() <= L.maxLanes);
    if (a.processes.size() > L.maxLanes) {
        std::size_t count = 0;
        auto take = [&](ProcessId p) {
            if (count < L.maxLanes && p.valid() && !shown[p.value]) {
                shown[p.value] = true;
                ++count;
            }
        };
        if (init)
            take(init->process);
        for (const auto& f : a.findings)
            if (f.role == Role::Collateral)
                for (const auto& e : f.evidence)
                    take(e.process);
        for (const auto& e : a.events)
            if (inWindow(axis.pos(e.where)))
                take(e.process);
    }
    std::vector<std::string> hosts;
    for (const auto& p : a.processes)
        if (std::find(hosts.begin(), hosts.end(), p.host) == hosts.end())
            hosts.push_back(p.host);
    std::stable_partition(hosts.begin(), hosts.end(), [](const std::string& h) { return !h.empty(); });
    std::vector<double> laneCenter(a.processes.size(), -1);
    double y = pic.plotTop;
    for (const auto& h : hosts) {
        std::size_t total = 0, drawn = 0;
        for (const auto& p : a.processes)
            if (p.host == h) {
                ++total;
                drawn += shown[p.id.value];
            }
        if (drawn == 0)
            continue;
        std::string label = h.empty() ? std::string("(host unknown)") : h;
        label += drawn == total ? " \u00b7 " + std::to_string(total)
                                : " \u00b7 " + std::to_string(drawn) + " of " + std::to_string(total);
        pic.lanes.push_back({y, label, true, false});
        y += L.laneHeight;
        for (const auto& p : a.processes) {
            if (p.host != h || !shown[p.id.value])
                continue;
            bool isInit = init && init->process == p.id;
            pic.lanes.push_back({y, laneLabel(a, p), false, isInit});
            laneCenter[p.id.value] = y + L.laneHeight / 2;
            y += L.laneHeight;
        }
    }
    pic.plotBottom = y;
    pic.omitted = static_cast<std::size_t>(std::count(shown.begin(), shown.end(), false));

    // Ticks, relative to the initiating event when there is time.
    if (pic.hasTime) {
        pic.axisTitle = focus ? "time from failure" : "time (as logged)";
        std::int64_t step = niceTimeStep(static_cast<double>(t1 - t0) * L.minTickSpacing / plotW);
        std::int64_t base = focus ? ref : 0;
        std::int64_t k0 =
            static_cast<std::int64_t>(std::ceil(static_cast<double>(t0 - base) / static_cast<double>(step)));
        for (std::int64_t t = base + k0 * step; t <= t1; t += step)
            pic.ticks.push_back(
                {xOf(t),
                 focus ? relativeTimeLabel(t - ref, step) : clockLabel(t, step < kSecond ? 1 : kSecond),
                 focus && t == ref});
    } else {
        pic.axisTitle = "merged order";
        std::int64_t step = niceStep(static_cast<double>(t1 - t0) * L.minTickSpacing / plotW);
        for (std::int64_t t = ((t0 + step - 1) / step) * step; t <= t1; t += step)
            if (t >= 0)
                pic.ticks.push_back({xOf(t), "line " + std::to_string(t + 1), false});
    }

    // A label starts just right of its tick: the last one can run past the picture's edge, where it
    // would be cut off mid-word. Its line stays; the label goes.
    for (auto& t : pic.ticks)
        if (t.x + 3 + textWidth(t.label, L.fontSize) > pic.width)
            t.label.clear();

    // Marks: each lane's events in the window, one per pixel column (the weightiest).
    struct Cand {
        int weight;
        std::int64_t pos;
    };
    std::map<std::pair<std::uint32_t, long>, Cand> columns;
    for (const auto& e : a.events) {
        if (!e.process.valid() || laneCenter[e.process.value] < 0)
            continue;
        std::int64_t pos = axis.pos(e.where);
        if (!inWindow(pos))
            continue;
        int w = 1;
        if (e.level == Level::Warn)
            w = 2;
        if (e.level == Level::Error || e.level == Level::Fatal || e.kind == EventKind::Traceback)
            w = 3;
        if (collateral.count(e.where))
            w = 4;
        if (evidence.count(e.where))
            w = 5;
        auto key = std::make_pair(e.process.value, std::lround(xOf(pos)));
        auto it = columns.find(key);
        if (it == columns.end() || it->second.weight < w)
            columns[key] = {w, pos};
    }
    for (const auto& [key, c] : columns) {
        static const PictureMarkKind kinds[] = {PictureMarkKind::Other,      PictureMarkKind::Other,
                                                PictureMarkKind::Warn,       PictureMarkKind::Error,
                                                PictureMarkKind::Collateral, PictureMarkKind::Initiating};
        double r = c.weight >= 5 ? 5.5 : c.weight >= 4 ? 4 : 3.5;
        pic.marks.push_back({xOf(c.pos), laneCenter[key.first], r, kinds[c.weight], c.weight >= 5});
    }
    // Draw order: least important first, so the initiating evidence sits on top.
    std::stable_sort(pic.marks.begin(), pic.marks.end(), [](const auto& m, const auto& n) {
        return static_cast<int>(m.kind) > static_cast<int>(n.kind);
    });

    // Causal arrows: first attempt -> aborted retry -> collateral reports that point here.
    bool unlogged = false;
    if (init && laneCenter[init->process.value] >= 0) {
        const double cy = laneCenter[init->process.value];
        const double ax = xOf(axis.pos(init->anchor));
        std::optional<LineRef> earliest;
        for (const auto& e : init->evidence)
            if (e.label == "earliest-connect-failure")
                earliest = e.where;
        if (earliest && *earliest != init->anchor) {
            double ey = laneCenter[a.info(*earliest).process.value];
            if (ey >= 0)
                pic.arrows.push_back(
                    makeArrow(xOf(axis.pos(*earliest)), ey, ax - 7, cy, PictureMarkKind::Initiating, false));
        } else if (init->connectPhaseStart && pic.hasTime) {
            // The first attempt is not in the logs: show where it must lie, hollow.
            double sx = xOf(a.info(*init->connectPhaseStart).time.lo);
            if (ax - sx > 14 && sx >= pic.plotLeft) {
                unlogged = true;
                pic.marks.push_back({sx, cy, 4.5, PictureMarkKind::Unlogged, false});
                pic.arrows.push_back(makeArrow(sx + 5, cy, ax - 7, cy, PictureMarkKind::Initiating, false));
                std::string text = "first attempt (not logged)";
                if (sx - 8 - textWidth(text, L.fontSize) >= 4)
                    pic.labels.push_back(
                        {sx - 8, cy, text, TimelinePicture::Align::Right, PictureMarkKind::Unlogged});
            }
        }
        int drawn = 0, later = 0;
        std::int64_t firstLater = 0;
        // One arrow per reporting rank: its earliest report, whichever entry recognised it.
        std::vector<std::pair<std::int64_t, const Evidence*>> reports;
        for (const auto& f : a.findings)
            if (f.role == Role::Collateral && f.pointsAt && *f.pointsAt == init->process)
                for (const auto& e : f.evidence)
                    reports.push_back({axis.pos(e.where), &e});
        std::stable_sort(reports.begin(), reports.end(),
                         [](const auto& r1, const auto& r2) { return r1.first < r2.first; });
        std::vector<bool> reported(a.processes.size(), false);
        {
            for (const auto& [pos0, ep] : reports) {
                const Evidence& e = *ep;
                if (reported[e.process.value])
                    continue;
                reported[e.process.value] = true;
                if (drawn > 48)
                    break;
                double ey = laneCenter[e.process.value];
                std::int64_t pos = pos0;
                if (pos > t1) {
                    if (later++ == 0 || pos < firstLater)
                        firstLater = pos;
                    continue;
                }
                if (ey < 0 || xOf(pos) - ax < 6 || pos < t0)
                    continue;
                ++drawn;
                pic.arrows.push_back(
                    makeArrow(ax + 6, cy, xOf(pos) - 5, ey, PictureMarkKind::Collateral, true));
            }
        }
        if (later > 0) {
            std::string text =
                std::to_string(later) + " more collateral report" + (later == 1 ? "" : "s") + " later";
            if (pic.hasTime)
                text += " (from " + relativeTimeLabel(firstLater - axis.pos(init->anchor), kSecond) + ")";
            text += " \u2192";
            pic.labels.push_back(
                {pic.plotRight, cy, text, TimelinePicture::Align::Right, PictureMarkKind::Collateral});
        }
    }

    // Legend under the lanes.
    double lx = 4, ly = pic.plotBottom + 14;
    struct Item {
        PictureMarkKind kind;
        bool diamond;
        const char* text;
    };
    std::vector<Item> items = {{PictureMarkKind::Initiating, true, "initiating evidence"},
                               {PictureMarkKind::Collateral, false, "collateral"},
                               {PictureMarkKind::Error, false, "error / traceback"},
                               {PictureMarkKind::Warn, false, "WARN"},
                               {PictureMarkKind::Other, false, "other event"}};
    if (unlogged)
        items.push_back({PictureMarkKind::Unlogged, false, "first attempt (not logged)"});
    for (const auto& it : items) {
        double w = 16 + textWidth(it.text, L.fontSize) + 16;
        if (lx + w > pic.width) {
            lx = 4;
            ly += L.fontSize + 8;
        }
        pic.legend.push_back({lx + 5, ly, it.kind, it.diamond, it.text});
        lx += w;
    }
    pic.height = ly + L.fontSize;

    bool standIn = false;
    if (pic.hasTime && focus)
        a.axisTime(focus->anchor, &standIn);
    if (pic.hasTime && focus && standIn) {
        // The failure's line has no stamp (a Slurm task's .err): 0 is its process's last stamped line.
        pic.caption =
            "0 = " + dateTime(ref) + " UTC, the last stamped line of " + a.process(focus->process).label() +
            ": its failure (" + a.source(focus->anchor.source).displayPath + ":" +
            std::to_string(focus->anchor.line + 1) +
            ") is in a file without timestamps, so it and the other lines of such files are drawn at "
            "their process's last stamped line. Each host's own clock; no clock correction applied.";
    } else if (pic.hasTime && focus) {
        // The axis puts a line at the middle of its interval: where that is no logged instant (a
        // console's stamp to the minute, an unstamped line between stamps), the caption says so
        // rather than pass 12:54:30.000 off as what the line says.
        const LineInfo li = a.info(focus->anchor);
        const std::int64_t width = li.time.knownLo() && li.time.knownHi() ? li.time.hi - li.time.lo : 0;
        const std::string label = a.labelAt(focus->anchor);
        const std::string line =
            a.source(focus->anchor.source).displayPath + ":" + std::to_string(focus->anchor.line + 1);
        std::string said;
        if (li.timeSource == TimeSource::Parsed && width >= kSecond)
            said = std::string(", the middle of the ") + (width >= 60 * kSecond ? "minute" : "second") +
                   " stamped on " + label + "'s line at " + line;
        else if (li.timeSource == TimeSource::Inferred && width > 0)
            said = ", the middle of the span its stamped neighbours leave " + label +
                   "'s unstamped line at " + line;
        else if (li.timeSource == TimeSource::Inferred)
            said = std::string(li.time.knownLo() ? ", the stamp before " : ", where the stamp after ends, ") +
                   label + "'s unstamped line at " + line;
        else
            said = ", as logged by " + label + " (" + line + ")";
        pic.caption =
            "0 = " + dateTime(ref) + " UTC" + said + ". Each host's own clock; no clock correction applied.";
    } else if (pic.hasTime) {
        pic.caption = "Times as logged (UTC), each host's own clock; no clock correction applied.";
    } else {
        pic.caption = "The logs carry no timestamps: lines are placed in merged order.";
    }
    if (pic.omitted > 0)
        pic.caption += " " + std::to_string(a.processes.size() - pic.omitted) + " of " +
                       std::to_string(a.processes.size()) +
                       " processes drawn: the initiating one, the collateral reporters and those with events "
                       "in this window.";
    return pic;
}

} // namespace rl
