#include "timeline/timelineoverview.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

#include "timeline/markglyphs.h"
#include "timeline/zoomcontrol.h"

namespace rl
{

namespace
{
constexpr int kBins = 4096;
}

void DensityBins::build(const TimelineModel& model, TimeRange over, int bins)
{
    range = over;
    counts.assign(static_cast<std::size_t>(bins), 0);
    top.assign(static_cast<std::size_t>(bins), MarkTier::Other);
    const double scale =
        static_cast<double>(bins) / static_cast<double>(std::max<std::int64_t>(1, over.duration()));
    for (const auto& lane : model.lanes())
        for (const TimelineMark& m : lane.track.marks()) {
            const auto b = static_cast<std::int64_t>(static_cast<double>(m.pos - over.start) * scale);
            if (b < 0 || b >= bins)
                continue;
            const auto i = static_cast<std::size_t>(b);
            ++counts[i];
            top[i] = std::max(top[i], m.tier);
        }
}

std::pair<int, int> DensityBins::binsOfColumn(int x, int width) const
{
    const auto n = static_cast<std::int64_t>(counts.size());
    if (width <= 0 || x < 0 || x >= width || n == 0)
        return {0, 0};
    const auto first = static_cast<int>(n * x / width);
    const auto last = static_cast<int>(std::max<std::int64_t>(first + 1, n * (x + 1) / width));
    return {first, last};
}

TimelineOverview::TimelineOverview(ZoomControl* zoom, QWidget* parent) : QWidget(parent), m_zoom(zoom)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("The whole run: drag the window to move, drag elsewhere to pick a range, wheel to zoom"));
    connect(zoom, &ZoomControl::rangeChanged, this, [this] { update(); });
}

void TimelineOverview::setModel(std::shared_ptr<const TimelineModel> model,
                                std::optional<std::int64_t> reference)
{
    m_model = std::move(model);
    m_reference = reference;
    if (m_model)
        m_density.build(*m_model, m_zoom->fullRange(), kBins);
    else
        m_density = {};
    update();
}

void TimelineOverview::setMargins(double left, double right)
{
    m_left = left;
    m_right = right;
    update();
}

TimeCoords TimelineOverview::fullCoords() const
{
    const TimeRange f = m_zoom->fullRange();
    return TimeCoords(f.start, f.end, width() - m_left - m_right);
}

QRectF TimelineOverview::windowRect() const
{
    const TimeCoords c = fullCoords();
    const TimeRange r = m_zoom->range();
    const double x0 = m_left + c.toX(r.start);
    const double x1 = m_left + c.toX(r.end);
    return QRectF(x0, 1, std::max(3.0, x1 - x0), height() - 2);
}

void TimelineOverview::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.window());
    const QRectF strip(m_left, 2, width() - m_left - m_right, height() - 4);
    p.fillRect(strip, pal.base());
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRectF(6, 0, m_left - 10, height()), Qt::AlignVCenter | Qt::AlignLeft, tr("whole run"));
    if (!m_model || m_density.counts.empty())
        return;
    // One bar per pixel column: height by log(count), colour by the highest tier in it.
    const int w = static_cast<int>(strip.width());
    std::uint32_t maxCount = 1;
    for (auto n : m_density.counts)
        maxCount = std::max(maxCount, n);
    const double logMax = std::log1p(static_cast<double>(maxCount));
    for (int x = 0; x < w; ++x) {
        const auto [b0, b1] = m_density.binsOfColumn(x, w);
        std::uint32_t n = 0;
        MarkTier t = MarkTier::Other;
        for (int b = b0; b < b1; ++b) {
            n += m_density.counts[static_cast<std::size_t>(b)];
            t = std::max(t, m_density.top[static_cast<std::size_t>(b)]);
        }
        if (n == 0)
            continue;
        const double h = std::max(2.0, (strip.height() - 2) * std::log1p(static_cast<double>(n)) / logMax);
        p.fillRect(QRectF(strip.left() + x, strip.bottom() - h, 1, h), tierColor(t));
    }
    const TimeCoords c = fullCoords();
    if (m_reference) {
        const double x = m_left + c.toX(*m_reference);
        p.setPen(QPen(QColor(200, 20, 30), 1, Qt::DashLine));
        p.drawLine(QPointF(x, 1), QPointF(x, height() - 1));
    }
    // Dim what is outside the visible range, frame what is inside.
    const QRectF win = windowRect();
    QColor dim = pal.color(QPalette::Window);
    dim.setAlpha(150);
    p.fillRect(QRectF(strip.left(), strip.top(), std::max(0.0, win.left() - strip.left()), strip.height()),
               dim);
    p.fillRect(QRectF(win.right(), strip.top(), std::max(0.0, strip.right() - win.right()), strip.height()),
               dim);
    p.setPen(QPen(pal.color(QPalette::Highlight), 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawRect(win.adjusted(0.5, 0.5, -0.5, -0.5));
    if (m_drag == Drag::Range) {
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlpha(60);
        p.fillRect(QRectF(std::min(m_pressX, m_hoverX), 1, std::abs(m_hoverX - m_pressX), height() - 2),
                   fill);
    }
}

void TimelineOverview::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_model)
        return;
    m_pressX = m_hoverX = event->position().x();
    m_pressRange = m_zoom->range();
    m_drag = windowRect().adjusted(-3, 0, 3, 0).contains(event->position()) ? Drag::Move : Drag::Range;
}

void TimelineOverview::mouseMoveEvent(QMouseEvent* event)
{
    m_hoverX = event->position().x();
    if (m_drag == Drag::None) {
        setCursor(windowRect().contains(event->position()) ? Qt::OpenHandCursor : Qt::IBeamCursor);
        return;
    }
    if (m_drag == Drag::Move) {
        const TimeCoords c = fullCoords();
        const std::int64_t dt = c.toTime(m_hoverX - m_left) - c.toTime(m_pressX - m_left);
        m_zoom->setRange({m_pressRange.start + dt, m_pressRange.end + dt});
    }
    update();
}

void TimelineOverview::mouseReleaseEvent(QMouseEvent* event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag != Drag::Range)
        return;
    const TimeCoords c = fullCoords();
    const double x = event->position().x();
    if (std::abs(x - m_pressX) > 3) {
        m_zoom->zoomTo({c.toTime(std::min(x, m_pressX) - m_left), c.toTime(std::max(x, m_pressX) - m_left)});
    } else {
        // A click centres the visible range there.
        const TimeRange r = m_zoom->range();
        const std::int64_t t = c.toTime(x - m_left);
        m_zoom->zoomTo({t - r.duration() / 2, t - r.duration() / 2 + r.duration()});
    }
    update();
}

void TimelineOverview::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_model)
        return;
    // Around the middle of the visible range: the cursor may be far outside it here.
    const TimeRange r = m_zoom->range();
    m_zoom->zoom(std::pow(0.8, steps), r.start + r.duration() / 2);
    event->accept();
}

} // namespace rl
