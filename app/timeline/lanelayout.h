#pragma once
// The vertical layout of the timeline: a header row per host, then a row per lane of an expanded host.
// Pure arithmetic over row heights, tested with data tables. y is in content coordinates (0 = top of
// the first row, before scrolling).

#include <algorithm>
#include <vector>

namespace rl
{

struct LaneRow {
    enum Kind { Host, Lane };
    Kind kind = Host;
    int index = 0; // host index for Host rows, lane index for Lane rows
    double top = 0;
    double height = 0;
    double bottom() const { return top + height; }
    double centerY() const { return top + height / 2; }
};

class LaneLayout
{
public:
    // `lanesOfHost[h]` lists host h's lanes in order; `collapsed[h]` hides them behind the header;
    // `hidden[h]` leaves the host out altogether, header and lanes (rowOfHost and rowOfLane say -1).
    void build(const std::vector<std::vector<int>>& lanesOfHost, const std::vector<bool>& collapsed,
               double hostHeight, double laneHeight, const std::vector<bool>& hidden = {})
    {
        m_rows.clear();
        m_rowOfLane.clear();
        m_rowOfHost.assign(lanesOfHost.size(), -1);
        double y = 0;
        for (std::size_t h = 0; h < lanesOfHost.size(); ++h) {
            if (h < hidden.size() && hidden[h])
                continue;
            m_rowOfHost[h] = static_cast<int>(m_rows.size());
            m_rows.push_back({LaneRow::Host, static_cast<int>(h), y, hostHeight});
            y += hostHeight;
            if (h < collapsed.size() && collapsed[h])
                continue;
            for (int lane : lanesOfHost[h]) {
                if (lane >= static_cast<int>(m_rowOfLane.size()))
                    m_rowOfLane.resize(static_cast<std::size_t>(lane) + 1, -1);
                m_rowOfLane[static_cast<std::size_t>(lane)] = static_cast<int>(m_rows.size());
                m_rows.push_back({LaneRow::Lane, lane, y, laneHeight});
                y += laneHeight;
            }
        }
        m_height = y;
    }

    const std::vector<LaneRow>& rows() const { return m_rows; }
    const LaneRow& row(int i) const { return m_rows[static_cast<std::size_t>(i)]; }
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    double contentHeight() const { return m_height; }

    // The row containing y, or -1 above the first row, below the last, or when there are no rows.
    int rowAt(double y) const
    {
        if (m_rows.empty() || y < 0 || y >= m_height)
            return -1;
        auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y,
                                   [](double v, const LaneRow& r) { return v < r.top; });
        return static_cast<int>(it - m_rows.begin()) - 1;
    }
    // Rows that intersect [y0, y1): first and one-past-last; an empty range when none do.
    std::pair<int, int> rowsIn(double y0, double y1) const
    {
        if (m_rows.empty() || y1 <= 0 || y0 >= m_height || y1 <= y0)
            return {0, 0};
        const int first = std::max(0, rowAt(std::max(y0, 0.0)));
        const int last = y1 >= m_height ? rowCount() - 1 : rowAt(y1 - 1e-9);
        return {first, last + 1};
    }
    // Row of a lane, or -1 when the lane is hidden in a collapsed host (or unknown).
    int rowOfLane(int lane) const
    {
        return lane >= 0 && lane < static_cast<int>(m_rowOfLane.size())
                   ? m_rowOfLane[static_cast<std::size_t>(lane)]
                   : -1;
    }
    int rowOfHost(int host) const
    {
        return host >= 0 && host < static_cast<int>(m_rowOfHost.size())
                   ? m_rowOfHost[static_cast<std::size_t>(host)]
                   : -1;
    }

private:
    std::vector<LaneRow> m_rows;
    std::vector<int> m_rowOfLane;
    std::vector<int> m_rowOfHost;
    double m_height = 0;
};

} // namespace rl
