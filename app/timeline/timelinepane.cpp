#include "timeline/timelinepane.h"

#include <QAction>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QToolBar>
#include <QVBoxLayout>

#include "timeline/markglyphs.h"
#include "timeline/timelineoverview.h"
#include "timeline/zoomcontrol.h"

namespace rl
{

namespace
{
const MarkKind kLegendKinds[] = {MarkKind::ConnectFailure, MarkKind::Abort, MarkKind::Watchdog,
                                 MarkKind::Traceback,      MarkKind::Exit,  MarkKind::Warn,
                                 MarkKind::Error};
const MarkTier kLegendTiers[] = {MarkTier::Evidence, MarkTier::Collateral, MarkTier::Error, MarkTier::Warn,
                                 MarkTier::Other};
constexpr double kItemGap = 16;
} // namespace

TimelineLegend::TimelineLegend(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize TimelineLegend::sizeHint() const
{
    return {600, fontMetrics().height() + 8};
}

void TimelineLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.window());
    const double cy = height() / 2.0;
    double x = 10;
    auto item = [&](MarkKind k, MarkTier t, const QString& text) {
        GlyphAtlas::paint(p, QPointF(x + 5, cy), k, t, 4.0);
        p.setPen(pal.color(QPalette::Text));
        const double w = p.fontMetrics().horizontalAdvance(text);
        p.drawText(QRectF(x + 14, 0, w + 2, height()), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += 14 + w + kItemGap;
    };
    p.setPen(pal.color(QPalette::PlaceholderText));
    QString shapes = tr("Shape:");
    p.drawText(QRectF(x, 0, 60, height()), Qt::AlignVCenter | Qt::AlignLeft, shapes);
    x += p.fontMetrics().horizontalAdvance(shapes) + 8;
    for (MarkKind k : kLegendKinds)
        item(k, MarkTier::Other, kindName(k));
    x += 10;
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(QPointF(x - kItemGap / 2, 4), QPointF(x - kItemGap / 2, height() - 4));
    p.setPen(pal.color(QPalette::PlaceholderText));
    QString colours = tr("Colour:");
    p.drawText(QRectF(x, 0, 60, height()), Qt::AlignVCenter | Qt::AlignLeft, colours);
    x += p.fontMetrics().horizontalAdvance(colours) + 8;
    for (MarkTier t : kLegendTiers)
        item(MarkKind::Other, t, tierName(t));
}

TimelinePane::TimelinePane(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_timeline = new TimelineWidget(this);
    ZoomControl* zoom = m_timeline->zoomControl();
    m_bar = new QToolBar(this);
    m_bar->setIconSize(QSize(16, 16));
    m_bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    QAction* toFailure =
        m_bar->addAction(tr("Zoom to failure"), m_timeline, &TimelineWidget::zoomToInitiating);
    toFailure->setToolTip(tr("Show the initiating event and what followed it (F)"));
    m_bar->addAction(zoom->backAction());
    m_bar->addAction(zoom->zoomInAction());
    m_bar->addAction(zoom->zoomOutAction());
    m_bar->addAction(zoom->fitAction());
    m_bar->addSeparator();
    m_bar->addAction(tr("Collapse hosts"), m_timeline, [this] { m_timeline->setAllHostsCollapsed(true); });
    m_bar->addAction(tr("Expand hosts"), m_timeline, [this] { m_timeline->setAllHostsCollapsed(false); });
    auto* hint =
        new QLabel(tr("  wheel: zoom · drag: pan · drag on the axis or Shift+drag: zoom to a range · "
                      "Ctrl+click: pick a second event · right-click: clocks"),
                   m_bar);
    hint->setStyleSheet(QStringLiteral("color: palette(mid)"));
    m_bar->addWidget(hint);
    m_overview = new TimelineOverview(zoom, this);
    auto* legend = new TimelineLegend(this);
    layout->addWidget(m_bar);
    layout->addWidget(m_timeline, 1);
    layout->addWidget(m_overview);
    layout->addWidget(legend);
}

void TimelinePane::setIndex(std::shared_ptr<const AnalysisIndex> index, TimelineWidget::ViewOnNewIndex view)
{
    m_timeline->setIndex(index, view);
    std::optional<std::int64_t> reference;
    if (index && index->hasTime())
        if (const Finding* f = index->analysis().initiatingFinding())
            reference = index->axisPos(f->anchor);
    m_overview->setModel(m_timeline->model(), reference);
}

void TimelinePane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The overview's strip lines up with the lane area above it.
    m_overview->setMargins(m_timeline->labelWidth(),
                           m_timeline->rightMargin() + m_timeline->verticalScrollBar()->sizeHint().width());
}

} // namespace rl
