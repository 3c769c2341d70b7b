#pragma once
// How marks look: a shape per kind, a colour per tier, prerendered as small sprites so a frame blits
// pixmaps instead of building thousands of antialiased paths.

#include <QColor>
#include <QPixmap>
#include <QString>

#include "timeline/timelinemodel.h"

namespace rl
{

QColor tierColor(MarkTier tier);
QString tierName(MarkTier tier);
QString kindName(MarkKind kind);
// The glyph's radius in device-independent pixels for a lane of `laneHeight`.
double glyphRadius(MarkTier tier, double laneHeight);

// Sprites for one lane height and device pixel ratio; built on first use.
class GlyphAtlas
{
public:
    const QPixmap& sprite(MarkKind kind, MarkTier tier, double laneHeight, qreal dpr);
    // Paints one glyph directly (the legend and tests use it).
    static void paint(QPainter& p, QPointF centre, MarkKind kind, MarkTier tier, double radius);

private:
    double m_laneHeight = -1;
    qreal m_dpr = 0;
    QPixmap m_sprites[kMarkKindCount][kMarkTierCount];
};

} // namespace rl
