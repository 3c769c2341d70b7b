#include "timeline/markglyphs.h"

#include <QObject>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace rl
{

QColor tierColor(MarkTier tier)
{
    switch (tier) {
    case MarkTier::Evidence:
        return {200, 20, 30};
    case MarkTier::Collateral:
        return {230, 140, 0};
    case MarkTier::Error:
        return {140, 60, 170};
    case MarkTier::Warn:
        return {196, 160, 0};
    case MarkTier::Other:
        break;
    }
    return {110, 130, 165};
}

QString tierName(MarkTier tier)
{
    switch (tier) {
    case MarkTier::Evidence:
        return QObject::tr("initiating evidence");
    case MarkTier::Collateral:
        return QObject::tr("collateral");
    case MarkTier::Error:
        return QObject::tr("error");
    case MarkTier::Warn:
        return QObject::tr("warning");
    case MarkTier::Other:
        break;
    }
    return QObject::tr("other");
}

QString kindName(MarkKind kind)
{
    switch (kind) {
    case MarkKind::ConnectFailure:
        return QObject::tr("connect failure");
    case MarkKind::Abort:
        return QObject::tr("abort");
    case MarkKind::Warn:
        return QObject::tr("WARN");
    case MarkKind::Error:
        return QObject::tr("error");
    case MarkKind::Watchdog:
        return QObject::tr("watchdog");
    case MarkKind::Traceback:
        return QObject::tr("traceback");
    case MarkKind::Exit:
        return QObject::tr("exit");
    case MarkKind::Other:
        break;
    }
    return QObject::tr("other");
}

double glyphRadius(MarkTier tier, double laneHeight)
{
    const double base = std::clamp(laneHeight * 0.24, 3.0, 4.5);
    switch (tier) {
    case MarkTier::Evidence:
        return base + 2;
    case MarkTier::Collateral:
        return base + 0.5;
    default:
        return base;
    }
}

void GlyphAtlas::paint(QPainter& p, QPointF c, MarkKind kind, MarkTier tier, double r)
{
    const QColor fill = tierColor(tier);
    // Evidence gets a dark rim so it stands out of a crowd of its own colour.
    const QPen rim = tier == MarkTier::Evidence ? QPen(fill.darker(170), 1.2) : QPen(fill.darker(125), 0.8);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(rim);
    p.setBrush(fill);
    const double x = c.x(), y = c.y();
    switch (kind) {
    case MarkKind::ConnectFailure:
        p.drawPolygon(QPolygonF(
            {QPointF(x, y - r - 1), QPointF(x + r + 1, y), QPointF(x, y + r + 1), QPointF(x - r - 1, y)}));
        break;
    case MarkKind::Abort: {
        // A bold cross: the connection that was cut.
        const double k = r * 0.95;
        p.setPen(QPen(fill.darker(tier == MarkTier::Evidence ? 130 : 110), std::max(2.4, r * 0.7),
                      Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(x - k, y - k), QPointF(x + k, y + k));
        p.drawLine(QPointF(x - k, y + k), QPointF(x + k, y - k));
        break;
    }
    case MarkKind::Warn:
        p.drawPolygon(QPolygonF(
            {QPointF(x, y - r - 0.5), QPointF(x + r + 0.5, y + r * 0.8), QPointF(x - r - 0.5, y + r * 0.8)}));
        break;
    case MarkKind::Watchdog:
        // A clock face: ring and hand.
        p.setBrush(Qt::white);
        p.setPen(QPen(fill, 1.8));
        p.drawEllipse(c, r, r);
        p.drawLine(c, QPointF(x, y - r * 0.65));
        p.drawLine(c, QPointF(x + r * 0.5, y));
        break;
    case MarkKind::Traceback:
        p.drawRect(QRectF(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7));
        break;
    case MarkKind::Exit:
        // The end of a process: a tall bar.
        p.drawRect(QRectF(x - r * 0.45, y - r * 1.35, r * 0.9, r * 2.7));
        break;
    case MarkKind::Error:
    case MarkKind::Other:
        p.drawEllipse(c, r, r);
        break;
    }
    p.restore();
}

const QPixmap& GlyphAtlas::sprite(MarkKind kind, MarkTier tier, double laneHeight, qreal dpr)
{
    if (laneHeight != m_laneHeight || dpr != m_dpr) {
        for (auto& row : m_sprites)
            for (auto& s : row)
                s = QPixmap();
        m_laneHeight = laneHeight;
        m_dpr = dpr;
    }
    QPixmap& s = m_sprites[static_cast<int>(kind)][static_cast<int>(tier)];
    if (s.isNull()) {
        const double r = glyphRadius(tier, laneHeight);
        const int side = static_cast<int>(std::ceil(2 * r * 1.45 + 4));
        s = QPixmap(static_cast<int>(std::ceil(side * dpr)), static_cast<int>(std::ceil(side * dpr)));
        s.setDevicePixelRatio(dpr);
        s.fill(Qt::transparent);
        QPainter p(&s);
        paint(p, QPointF(side / 2.0, side / 2.0), kind, tier, r);
    }
    return s;
}

} // namespace rl
