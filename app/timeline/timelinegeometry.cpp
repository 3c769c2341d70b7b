#include "timeline/timelinegeometry.h"

#include <cmath>

namespace rl
{

RowGeometry buildRowGeometry(const MarkTrack& track, const TimeCoords& coords, const GeometryRules& rules)
{
    RowGeometry g;
    if (track.empty() || coords.width() <= 0)
        return g;
    // Multiply instead of divide in the loop.
    const double scale = coords.width() / static_cast<double>(coords.duration());
    const double unitsPerPixel = 1.0 / scale;
    const auto marginUnits = static_cast<std::int64_t>(std::ceil(rules.margin * unitsPerPixel));
    const auto marks = track.window(coords.start() - marginUnits, coords.end() + marginUnits, unitsPerPixel);
    g.visited = marks.size();

    auto place = [&](const TimelineMark& m, double column) {
        const auto x0 = static_cast<float>(column);
        if (!g.runs.empty() && column - g.runs.back().x1 <= rules.mergeGap) {
            g.runs.back().x1 = x0 + 1;
            g.runs.back().tier = std::max(g.runs.back().tier, m.tier);
        } else {
            g.runs.push_back({x0, x0 + 1, m.tier});
        }
        const float cx = x0 + 0.5f;
        if (!g.glyphs.empty() && cx - g.glyphs.back().x < rules.glyphSpacing) {
            MarkGlyph& last = g.glyphs.back();
            if (m.tier > last.tier)
                last = {cx, m.kind, m.tier, m.event, m.pos};
            return;
        }
        g.glyphs.push_back({cx, m.kind, m.tier, m.event, m.pos});
    };

    const TimelineMark* pending = nullptr;
    double pendingColumn = 0;
    for (const TimelineMark& m : marks) {
        const double column = std::floor(static_cast<double>(m.pos - coords.start()) * scale);
        if (pending && column == pendingColumn) {
            if (m.outranks(*pending))
                pending = &m;
            continue;
        }
        if (pending)
            place(*pending, pendingColumn);
        pending = &m;
        pendingColumn = column;
    }
    if (pending)
        place(*pending, pendingColumn);
    return g;
}

const RowGeometry& GeometryCache::row(int key, const MarkTrack& track, const TimeCoords& coords)
{
    if (coords.start() != m_start || coords.end() != m_end || coords.width() != m_width) {
        invalidate();
        m_start = coords.start();
        m_end = coords.end();
        m_width = coords.width();
    }
    const auto k = static_cast<std::size_t>(key);
    if (k >= m_rows.size()) {
        m_rows.resize(k + 1);
        m_valid.resize(k + 1, false);
    }
    if (!m_valid[k]) {
        m_rows[k] = buildRowGeometry(track, coords);
        m_valid[k] = true;
        ++m_builds;
    }
    return m_rows[k];
}

void GeometryCache::invalidate()
{
    std::fill(m_valid.begin(), m_valid.end(), false);
    m_width = -1;
}

} // namespace rl
