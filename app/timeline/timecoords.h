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
