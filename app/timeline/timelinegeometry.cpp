#include "timeline/timelinegeometry.h"

#include <array>
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

    // Pass 1: one mark per occupied pixel column, the one that outranks the others.
    struct Column {
        double x;
        const TimelineMark* mark;
    };
    std::vector<Column> columns;
    for (const TimelineMark& m : marks) {
        const double column = std::floor(static_cast<double>(m.pos - coords.start()) * scale);
        if (!columns.empty() && columns.back().x == column) {
            if (m.outranks(*columns.back().mark))
                columns.back().mark = &m;
            continue;
        }
        columns.push_back({column, &m});
    }

    // Pass 2: runs of nearby columns, and glyphs. A short run shows its top mark as a glyph; a long
    // run (a dense stretch) is a bar, with glyphs only for its errors, collateral and evidence, so
    // hundreds of WARNs read as one busy stretch rather than a picket fence.
    auto glyph = [&](const TimelineMark& m, double column, double spacing) {
        const auto cx = static_cast<float>(column + 0.5);
        if (!g.glyphs.empty() && cx - g.glyphs.back().x < spacing) {
            if (m.tier > g.glyphs.back().tier)
                g.glyphs.back() = {cx, m.kind, m.tier, m.event, m.pos};
            return;
        }
        g.glyphs.push_back({cx, m.kind, m.tier, m.event, m.pos});
    };
    std::size_t first = 0;
    auto closeRun = [&](std::size_t end) {
        const Column* top = &columns[first];
        std::array<std::size_t, kMarkTierCount> perTier{};
        for (std::size_t i = first; i < end; ++i) {
            ++perTier[static_cast<std::size_t>(columns[i].mark->tier)];
            if (columns[i].mark->outranks(*top->mark))
                top = &columns[i];
        }
        // The bar takes the colour most of its columns have (ties: the higher tier), so one
        // collateral report at the end of twenty minutes of WARNs does not colour them all.
        std::size_t common = 0;
        for (std::size_t t = 1; t < perTier.size(); ++t)
            if (perTier[t] >= perTier[common])
                common = t;
        const auto x0 = static_cast<float>(columns[first].x);
        const auto x1 = static_cast<float>(columns[end - 1].x + 1);
        g.runs.push_back({x0, x1, static_cast<MarkTier>(common)});
        if (x1 - x0 <= rules.shortRun) {
            glyph(*top->mark, top->x, rules.glyphSpacing);
            return;
        }
        // In a dense stretch errors are spaced wider than collateral and evidence: a rank printing
        // errors all along reads as a few crosses on a bar, not as a fence.
        for (std::size_t i = first; i < end; ++i) {
            const MarkTier t = columns[i].mark->tier;
            if (t >= MarkTier::Error)
                glyph(*columns[i].mark, columns[i].x,
                      t >= MarkTier::Collateral ? rules.glyphSpacing : rules.glyphSpacing * 3);
        }
    };
    for (std::size_t i = 1; i < columns.size(); ++i) {
        if (columns[i].x - (columns[i - 1].x + 1) > rules.mergeGap) {
            closeRun(i);
            first = i;
        }
    }
    if (!columns.empty())
        closeRun(columns.size());
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
