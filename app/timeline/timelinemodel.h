#pragma once
// What the timeline draws, as flat arrays built once per Analysis: one track of marks per rank (lane)
// and one per host (its ranks merged, drawn when the host is collapsed). Each track also keeps coarser
// summaries, so a frame never walks many more marks than it has pixels however many events there are.
// No widgets here: the benchmark and the tests build models by hand.

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "util/strong_id.h"

namespace rl
{

class AnalysisIndex;
struct Analysis;
struct Event;

// What happened, drawn as the mark's shape.
enum class MarkKind : std::uint8_t { Other, Warn, Error, ConnectFailure, Abort, Watchdog, Traceback, Exit };
constexpr int kMarkKindCount = 8;
// How much it matters, drawn as the mark's colour. A crowded pixel shows its highest tier.
enum class MarkTier : std::uint8_t { Other, Warn, Error, Collateral, Evidence };
constexpr int kMarkTierCount = 5;

struct TimelineMark {
    std::int64_t pos = 0;    // axis position: microseconds, or the merged row when there is no time
    std::uint32_t event = 0; // index into Analysis::events
    MarkKind kind = MarkKind::Other;
    MarkTier tier = MarkTier::Other;

    // The mark that represents a pixel or a bucket: the higher tier, then the earlier one.
    bool outranks(const TimelineMark& o) const
    {
        return tier != o.tier ? tier > o.tier : pos < o.pos || (pos == o.pos && event < o.event);
    }
};

// One row's marks, sorted by position, with level-of-detail summaries: level k keeps, of each bucket
// of `bucket(k)` axis units, only the mark that outranks the others (at its real position). Buckets
// double per level; a level that does not shrink the one below by a quarter is not kept, so the
// summaries together hold at most three times the marks (far less in practice).
class MarkTrack
{
public:
    void add(const TimelineMark& m) { m_marks.push_back(m); }
    void reserve(std::size_t n) { m_marks.reserve(n); }
    // Replaces the marks with ones already in order (finish() then only checks the order).
    void assignSorted(std::vector<TimelineMark> marks) { m_marks = std::move(marks); }
    // Sorts the marks and builds the summaries; call once after the last add().
    void finish();

    const std::vector<TimelineMark>& marks() const { return m_marks; }
    std::size_t size() const { return m_marks.size(); }
    bool empty() const { return m_marks.empty(); }
    std::size_t levelCount() const { return m_levels.size(); }
    std::int64_t bucket(std::size_t level) const { return m_levels[level].bucket; }

    // The marks to draw over [start, end] when one pixel spans `unitsPerPixel`: the raw marks when
    // zoomed in, else the coarsest summary whose bucket is at most a pixel, which gives fewer than two
    // marks a pixel. A bucket spans at most one pixel boundary, so the mark that outranks a pixel's
    // others is kept unless a higher one in the same bucket took the pixel next door.
    std::span<const TimelineMark> window(std::int64_t start, std::int64_t end, double unitsPerPixel) const;
    // Raw marks in [start, end].
    std::span<const TimelineMark> range(std::int64_t start, std::int64_t end) const;

private:
    struct Level {
        std::int64_t bucket = 1;
        std::vector<TimelineMark> marks;
    };
    std::vector<TimelineMark> m_marks;
    std::vector<Level> m_levels;
};

struct TimelineLane {
    ProcessId process;
    QString label; // "rank 5", "pid 1234", or a file name
    int host = 0;
    MarkTrack track;
};

struct TimelineHost {
    QString name;
    std::vector<int> lanes; // in rank order
    MarkTrack track;        // every lane's marks: drawn when the host is collapsed
    std::int64_t clockOffsetUs = 0;
    bool clockUserSet = false;
};

class TimelineModel
{
public:
    // Lanes for every process, grouped by host (hosts in order of their lowest rank, unnamed host last),
    // marks for every event of the analysis.
    static std::shared_ptr<const TimelineModel> fromIndex(const AnalysisIndex& index);
    // The shape an event is drawn with: from its encyclopedia entry and symptom, its evidence label
    // and its kind.
    static MarkKind kindOf(const Analysis& a, const Event& e, const QStringList& evidenceLabels);

    // Building by hand (tests, benchmark): add hosts and lanes, add marks to lane tracks, then finish().
    int addHost(const QString& name);
    int addLane(int host, const QString& label, ProcessId process = {});
    MarkTrack& laneTrack(int lane) { return m_lanes[static_cast<std::size_t>(lane)].track; }
    void setSpan(std::int64_t start, std::int64_t end, bool hasTime);
    // Sorts every track, fills the host tracks from their lanes and builds the summaries.
    void finish();

    const std::vector<TimelineHost>& hosts() const { return m_hosts; }
    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    const TimelineHost& host(int i) const { return m_hosts[static_cast<std::size_t>(i)]; }
    const TimelineLane& lane(int i) const { return m_lanes[static_cast<std::size_t>(i)]; }
    // The lane of a process, or -1.
    int laneOf(ProcessId p) const;
    std::int64_t spanStart() const { return m_start; }
    std::int64_t spanEnd() const { return m_end; }
    bool hasTime() const { return m_hasTime; }
    std::size_t markCount() const;

private:
    std::vector<TimelineHost> m_hosts;
    std::vector<TimelineLane> m_lanes;
    std::vector<int> m_laneOfProcess;
    std::int64_t m_start = 0;
    std::int64_t m_end = 1;
    bool m_hasTime = false;
};

} // namespace rl
