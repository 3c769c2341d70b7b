#pragma once
// Level of detail for one row of marks, computed apart from drawing and cached on what changes it.
//
// Rules (each keeps the picture honest when zoomed in and bounded when zoomed out):
//  - only the marks in the visible window (plus a glyph's margin) are visited, and when a pixel spans
//    many marks, only the track's summary level is (MarkTrack::window);
//  - of the marks that land in one pixel column, the one that outranks the others stands for it;
//  - occupied columns closer than `mergeGap` merge into one run, a thin bar in the colour most of
//    its columns have: many sub-pixel events read as one busy stretch, not as noise;
//  - a run up to `shortRun` pixels wide shows its top mark as a glyph (the shaped mark); a longer
//    run shows glyphs only for its errors (three spacings apart), collateral and evidence;
//  - glyphs are at least `glyphSpacing` pixels apart; within that distance the higher tier takes
//    the place, so evidence is never hidden behind a WARN.
// Zoomed in far enough that marks are `glyphSpacing` apart, every mark gets its own glyph.

#include <cstdint>
#include <vector>

#include "timeline/timecoords.h"
#include "timeline/timelinemodel.h"

namespace rl
{

struct MarkRun {
    float x0 = 0; // left edge of the first column
    float x1 = 0; // right edge of the last column
    MarkTier tier = MarkTier::Other;
};

struct MarkGlyph {
    float x = 0; // centre
    MarkKind kind = MarkKind::Other;
    MarkTier tier = MarkTier::Other;
    std::uint32_t event = 0;
    std::int64_t pos = 0;
};

struct RowGeometry {
    std::vector<MarkRun> runs;
    std::vector<MarkGlyph> glyphs;
    std::size_t visited = 0; // marks looked at to build it (for tests and the frame-time readout)
};

struct GeometryRules {
    double glyphSpacing = 7;
    double mergeGap = 3;
    double shortRun = 12;
    double margin = 6; // pixels beyond each edge whose marks still reach into view
};

// x is relative to the lane area's left edge, as TimeCoords::toX.
RowGeometry buildRowGeometry(const MarkTrack& track, const TimeCoords& coords,
                             const GeometryRules& rules = {});

// Geometry per row, kept until the range or the width changes (or invalidate() is called because the
// model or the layout did). Scrolling, hovering and selecting repaint from it without rebuilding.
class GeometryCache
{
public:
    // `key` names the track: any small non-negative integer, stable until invalidate().
    const RowGeometry& row(int key, const MarkTrack& track, const TimeCoords& coords);
    void invalidate();
    std::size_t builds() const { return m_builds; }

private:
    std::int64_t m_start = 0;
    std::int64_t m_end = 0;
    double m_width = -1;
    std::vector<RowGeometry> m_rows;
    std::vector<bool> m_valid;
    std::size_t m_builds = 0;
};

} // namespace rl
