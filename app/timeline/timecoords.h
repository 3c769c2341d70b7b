#pragma once
// Time <-> pixel maths for the timeline, kept free of widgets so it can be tested with data tables.
// Times are microseconds (int64); pixels are doubles relative to the lane area's left edge.

#include <algorithm>
#include <cstdint>

namespace rl
{

class TimeCoords
{
public:
    TimeCoords() = default;
    // A zero or negative width, or an empty range, still maps (everything to x = 0).
    TimeCoords(std::int64_t start, std::int64_t end, double width) { set(start, end, width); }

    void set(std::int64_t start, std::int64_t end, double width)
    {
        m_start = start;
        m_end = std::max(end, start + 1); // never divide by zero
        m_width = std::max(width, 0.0);
    }
    std::int64_t start() const { return m_start; }
    std::int64_t end() const { return m_end; }
    std::int64_t duration() const { return m_end - m_start; }
    double width() const { return m_width; }

    double toX(std::int64_t t) const
    {
        return static_cast<double>(t - m_start) * m_width / static_cast<double>(duration());
    }
    std::int64_t toTime(double x) const
    {
        if (m_width <= 0)
            return m_start;
        return m_start + static_cast<std::int64_t>(x * static_cast<double>(duration()) / m_width);
    }
    bool visible(std::int64_t t) const { return t >= m_start && t <= m_end; }

    // Zoom by `factor` (<1 zooms in) keeping the time under pixel `anchorX` fixed. The range never
    // shrinks below `minDuration`.
    TimeCoords zoomed(double factor, double anchorX, std::int64_t minDuration = 1000) const
    {
        std::int64_t anchor = toTime(anchorX);
        auto newDur = static_cast<std::int64_t>(static_cast<double>(duration()) * factor);
        newDur = std::max(newDur, minDuration);
        double frac = m_width > 0 ? std::clamp(anchorX / m_width, 0.0, 1.0) : 0.5;
        auto s = anchor - static_cast<std::int64_t>(frac * static_cast<double>(newDur));
        return TimeCoords(s, s + newDur, m_width);
    }
    // Pan by `dx` pixels (positive moves the view to later times).
    TimeCoords panned(double dx) const
    {
        auto dt = static_cast<std::int64_t>(dx * static_cast<double>(duration()) / std::max(m_width, 1.0));
        return TimeCoords(m_start + dt, m_end + dt, m_width);
    }

private:
    std::int64_t m_start = 0;
    std::int64_t m_end = 1;
    double m_width = 0;
};

// A visible time range [start, end).
struct TimeRange {
    std::int64_t start = 0;
    std::int64_t end = 1;
    std::int64_t duration() const { return end - start; }
    bool operator==(const TimeRange&) const = default;
};

// Zoom `r` by `factor` (<1 zooms in) keeping `anchor` at the same fraction of the range. No clamping.
inline TimeRange zoomRange(TimeRange r, double factor, std::int64_t anchor)
{
    const double d = static_cast<double>(r.duration());
    const double frac = d > 0 ? static_cast<double>(anchor - r.start) / d : 0.5;
    const auto newDur = std::max<std::int64_t>(1, static_cast<std::int64_t>(d * factor));
    const auto s = anchor - static_cast<std::int64_t>(frac * static_cast<double>(newDur));
    return {s, s + newDur};
}

// The range a view may show over a run spanning `full`: at least `minDuration` long, at most the whole
// run, and never panned past either end. A range wider than the run, or a degenerate one, becomes the
// whole run; a too-narrow one grows around its middle.
inline TimeRange clampRange(TimeRange r, TimeRange full, std::int64_t minDuration)
{
    if (full.duration() <= 0)
        full.end = full.start + 1;
    minDuration = std::clamp<std::int64_t>(minDuration, 1, full.duration());
    if (r.duration() >= full.duration())
        return full;
    if (r.duration() < minDuration) {
        const std::int64_t mid = r.start + r.duration() / 2;
        r = {mid - minDuration / 2, mid - minDuration / 2 + minDuration};
    }
    if (r.start < full.start)
        r = {full.start, full.start + r.duration()};
    if (r.end > full.end)
        r = {full.end - r.duration(), full.end};
    return r;
}

// A readable tick step (1, 2, 5 x 10^n microseconds) giving at least `minPixels` between ticks.
inline std::int64_t tickStep(const TimeCoords& c, double minPixels)
{
    if (c.width() <= 0)
        return c.duration();
    double usPerPixel = static_cast<double>(c.duration()) / c.width();
    double want = usPerPixel * minPixels;
    std::int64_t step = 1;
    while (true) {
        for (std::int64_t m : {1, 2, 5}) {
            if (static_cast<double>(step * m) >= want)
                return step * m;
        }
        if (step > (std::int64_t{1} << 56))
            return step;
        step *= 10;
    }
}

} // namespace rl
