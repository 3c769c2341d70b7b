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

std::vector<TimelineLegend::Item> TimelineLegend::items() const
{
    std::vector<Item> out;
    out.push_back({true, MarkKind::Other, MarkTier::Other, tr("Shape:")});
    for (MarkKind k : kLegendKinds)
        out.push_back({false, k, MarkTier::Other, kindName(k)});
    out.push_back({true, MarkKind::Other, MarkTier::Other, tr("Colour:")});
    for (MarkTier t : kLegendTiers)
        out.push_back({false, MarkKind::Other, t, tierName(t)});
    return out;
}

// Items flow left to right and wrap, a title never ending a line.
std::vector<QPointF> TimelineLegend::layoutItems(int width, int* lines) const
{
    const QFontMetrics fm = fontMetrics();
    const double lineH = fm.height() + 6;
    std::vector<QPointF> pos;
    double x = 10, y = 0;
    int n = 1;
    const auto all = items();
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Item& it = all[i];
        double w = (it.title ? 0 : 14) + fm.horizontalAdvance(it.text) + (it.title ? 8 : kItemGap);
        if (it.title && i + 1 < all.size())
            w += 14 + fm.horizontalAdvance(all[i + 1].text); // keep the title with its first item
        if (x > 10 && x + w > width - 6) {
            x = 10;
            y += lineH;
            ++n;
        }
        pos.push_back(QPointF(x, y));
        x += (it.title ? 0 : 14) + fm.horizontalAdvance(it.text) + (it.title ? 8 : kItemGap);
    }
    if (lines)
        *lines = n;
    return pos;
}

QSize TimelineLegend::sizeHint() const
{
    return {600, fontMetrics().height() + 8};
}

void TimelineLegend::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    int lines = 1;
    layoutItems(width(), &lines);
    setFixedHeight(lines * (fontMetrics().height() + 6) + 2);
}

void TimelineLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.window());
    const double lineH = fontMetrics().height() + 6;
    const auto all = items();
    const auto pos = layoutItems(width(), nullptr);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Item& it = all[i];
        const QPointF at = pos[i];
        const double w = p.fontMetrics().horizontalAdvance(it.text);
        if (it.title) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRectF(at.x(), at.y(), w + 2, lineH), Qt::AlignVCenter | Qt::AlignLeft, it.text);
            continue;
        }
        GlyphAtlas::paint(p, QPointF(at.x() + 5, at.y() + lineH / 2), it.kind, it.tier, 4.0);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(at.x() + 14, at.y(), w + 2, lineH), Qt::AlignVCenter | Qt::AlignLeft, it.text);
    }
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
    m_onlyFindings = m_bar->addAction(tr("Only hosts with findings"));
    m_onlyFindings->setObjectName(QStringLiteral("actionOnlyHostsWithFindings"));
    m_onlyFindings->setCheckable(true);
    connect(m_onlyFindings, &QAction::toggled, m_timeline, &TimelineWidget::setQuietHostsHidden);
    // The count of hosts left out, in the button's text while they are; why not, when it cannot.
    auto describe = [this] {
        const int quiet = m_timeline->quietHostCount();
        const int hidden = m_timeline->hiddenHostCount();
        const int hosts = m_timeline->model() ? static_cast<int>(m_timeline->model()->hosts().size()) : 0;
        m_onlyFindings->setEnabled(quiet > 0);
        m_onlyFindings->setText(hidden > 0 ? tr("Only hosts with findings (%n hidden)", nullptr, hidden)
                                           : tr("Only hosts with findings"));
        m_onlyFindings->setToolTip(
            quiet > 0
                ? tr("Leave out the %1 of %2 hosts where no finding has evidence or a collateral report")
                      .arg(quiet)
                      .arg(hosts)
                : tr("Every host has a finding's evidence or a collateral report, or none has"));
        m_onlyFindings->setChecked(m_timeline->quietHostsHidden());
    };
    connect(m_timeline, &TimelineWidget::hiddenHostsChanged, this, describe);
    describe();
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
