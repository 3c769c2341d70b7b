#include "timeline/timelinewidget.h"

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QGestureEvent>
#include <QHelpEvent>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLoggingCategory>
#include <QMenu>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPinchGesture>
#include <QScrollBar>
#include <QTextDocument>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <bit>
#include <cmath>

#include "models/bookmarks.h"
#include "timeline/axisformat.h"
#include "timeline/zoomcontrol.h"

// QT_LOGGING_RULES="rankline.timeline.frametime.debug=true" prints what each frame cost.
Q_LOGGING_CATEGORY(lcFrameTime, "rankline.timeline.frametime", QtWarningMsg)
#include "util/untrusted.h"

namespace rl
{

namespace
{

// Lanes shrink when there are many ranks, so a 256-rank job still shows dozens of lanes at once.
constexpr int kCompactLaneCount = 48;
// A press must move this far before it becomes a pan or a range (a click otherwise).
constexpr double kDragThreshold = 4;
// Hover and click reach marks within this many pixels.
constexpr double kHitRadius = 6;

QString ellipsize(std::string_view s, int max = 220)
{
    QString q = QString::fromUtf8(s.data(), static_cast<qsizetype>(std::min<std::size_t>(s.size(), 4096)));
    if (q.size() > max)
        q = q.left(max) + QStringLiteral(" …");
    return q;
}

QString ranksText(std::size_t n)
{
    return n == 1 ? TimelineWidget::tr("1 rank") : TimelineWidget::tr("%1 ranks").arg(n);
}

QString secondsText(std::int64_t us)
{
    return QStringLiteral("%1%2 s")
        .arg(us >= 0 ? QStringLiteral("+") : QString())
        .arg(static_cast<double>(us) / 1e6, 0, 'f', 3);
}

} // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QAbstractScrollArea(parent)
{
    qRegisterMetaType<rl::TimeRange>();
    m_zoom = new ZoomControl(this);
    connect(m_zoom, &ZoomControl::rangeChanged, viewport(), [this] { viewport()->update(); });
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The scroll bar is always there so that collapsing hosts never changes the lane area's width
    // (which would rescale the time axis under the user's eyes).
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setFrameShape(QFrame::NoFrame);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    viewport()->grabGesture(Qt::PinchGesture);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Timeline"));
    verticalScrollBar()->setSingleStep(19);
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setIndex(std::shared_ptr<const AnalysisIndex> index, ViewOnNewIndex view)
{
    auto model = index ? TimelineModel::fromIndex(*index) : nullptr;
    setModel(std::move(model), std::move(index), view);
}

void TimelineWidget::setModel(std::shared_ptr<const TimelineModel> model,
                              std::shared_ptr<const AnalysisIndex> index, ViewOnNewIndex view)
{
    // Keep collapsed hosts by name across a re-analysis.
    std::vector<QString> collapsedNames;
    if (view == ViewOnNewIndex::Keep && m_model)
        for (std::size_t h = 0; h < m_collapsed.size() && h < m_model->hosts().size(); ++h)
            if (m_collapsed[h])
                collapsedNames.push_back(m_model->hosts()[h].name);
    const TimeRange keptRange = m_zoom->range();
    const bool keep = view == ViewOnNewIndex::Keep && m_model;

    m_model = std::move(model);
    m_index = std::move(index);
    m_cache.invalidate();
    m_collapsed.assign(m_model ? m_model->hosts().size() : 0, false);
    if (m_model)
        for (std::size_t h = 0; h < m_model->hosts().size(); ++h)
            m_collapsed[h] = std::find(collapsedNames.begin(), collapsedNames.end(),
                                       m_model->hosts()[h].name) != collapsedNames.end();
    m_compact = m_model && m_model->lanes().size() > kCompactLaneCount;
    m_quiet.assign(m_collapsed.size(), false);
    if (m_model) {
        for (std::size_t h = 0; h < m_model->hosts().size(); ++h) {
            const auto& marks = m_model->hosts()[h].track.marks();
            m_quiet[h] = std::none_of(marks.begin(), marks.end(),
                                      [](const TimelineMark& m) { return m.tier >= MarkTier::Collateral; });
        }
        if (std::all_of(m_quiet.begin(), m_quiet.end(), [](bool q) { return q; }))
            m_quiet.assign(m_quiet.size(), false);
    }
    if (!keep) {
        m_selected.reset();
        m_paired.reset();
    }
    rebuildLayout();
    emit hiddenHostsChanged(); // which hosts could be left out is the new model's
    if (!m_model) {
        m_zoom->setFullRange({0, 1}, 1);
        viewport()->update();
        return;
    }
    // The whole run with a little room at both ends, so edge marks are not cut in half.
    const std::int64_t span = m_model->spanEnd() - m_model->spanStart();
    const std::int64_t pad = std::max<std::int64_t>(span / 40, m_model->hasTime() ? 1000 : 1);
    m_zoom->setFullRange({m_model->spanStart() - pad, m_model->spanEnd() + pad}, m_model->hasTime() ? 20 : 4);
    if (keep)
        m_zoom->setRange(keptRange);
    else if (m_index && m_index->analysis().initiatingFinding())
        zoomToInitiating();
    viewport()->update();
}

void TimelineWidget::setBookmarks(Bookmarks* bookmarks)
{
    if (m_bookmarks)
        disconnect(m_bookmarks, nullptr, this, nullptr);
    m_bookmarks = bookmarks;
    if (bookmarks) {
        connect(bookmarks, &Bookmarks::changed, this, [this] { viewport()->update(); });
        connect(bookmarks, &Bookmarks::reset, this, [this] { viewport()->update(); });
    }
    viewport()->update();
}

void TimelineWidget::rebuildLayout()
{
    std::vector<std::vector<int>> lanesOfHost;
    if (m_model)
        for (const auto& h : m_model->hosts())
            lanesOfHost.push_back(h.lanes);
    m_layout.build(lanesOfHost, m_collapsed, hostHeight(), laneHeight(),
                   m_hideQuiet ? m_quiet : std::vector<bool>{});
    updateScrollBar();
    viewport()->update();
}

void TimelineWidget::setQuietHostsHidden(bool hidden)
{
    if (hidden == m_hideQuiet)
        return;
    m_hideQuiet = hidden;
    rebuildLayout();
    emit hiddenHostsChanged();
}

int TimelineWidget::hiddenHostCount() const
{
    return m_hideQuiet ? quietHostCount() : 0;
}

int TimelineWidget::quietHostCount() const
{
    return static_cast<int>(std::count(m_quiet.begin(), m_quiet.end(), true));
}

void TimelineWidget::updateScrollBar()
{
    const double visible = std::max(0.0, viewport()->height() - axisHeight());
    QScrollBar* bar = verticalScrollBar();
    bar->setPageStep(static_cast<int>(visible));
    bar->setSingleStep(static_cast<int>(laneHeight()));
    bar->setRange(0, std::max(0, static_cast<int>(std::ceil(m_layout.contentHeight() + 8 - visible))));
}

bool TimelineWidget::isHostCollapsed(int host) const
{
    return host >= 0 && static_cast<std::size_t>(host) < m_collapsed.size() &&
           m_collapsed[static_cast<std::size_t>(host)];
}

void TimelineWidget::setHostCollapsed(int host, bool collapsed)
{
    if (host < 0 || static_cast<std::size_t>(host) >= m_collapsed.size())
        return;
    m_collapsed[static_cast<std::size_t>(host)] = collapsed;
    rebuildLayout();
}

void TimelineWidget::setAllHostsCollapsed(bool collapsed)
{
    std::fill(m_collapsed.begin(), m_collapsed.end(), collapsed);
    rebuildLayout();
}

TimeCoords TimelineWidget::coords() const
{
    const TimeRange r = m_zoom->range();
    return TimeCoords(r.start, r.end, viewport()->width() - labelWidth() - rightMargin());
}

double TimelineWidget::scrollY() const
{
    return verticalScrollBar()->value();
}

int TimelineWidget::rowAtViewportY(double y) const
{
    if (y < axisHeight())
        return -1;
    return m_layout.rowAt(y - axisHeight() + scrollY());
}

const MarkTrack* TimelineWidget::trackOfRow(const LaneRow& row) const
{
    if (!m_model)
        return nullptr;
    if (row.kind == LaneRow::Lane)
        return &m_model->lane(row.index).track;
    // An expanded host's header stays empty; its lanes show the marks.
    return isHostCollapsed(row.index) ? &m_model->host(row.index).track : nullptr;
}

int TimelineWidget::cacheKey(const LaneRow& row) const
{
    return row.kind == LaneRow::Lane ? row.index : static_cast<int>(m_model->lanes().size()) + row.index;
}

int TimelineWidget::rowShowing(ProcessId process) const
{
    if (!m_model)
        return -1;
    const int lane = m_model->laneOf(process);
    if (lane < 0)
        return -1;
    const int row = m_layout.rowOfLane(lane);
    return row >= 0 ? row : m_layout.rowOfHost(m_model->lane(lane).host);
}

std::int64_t TimelineWidget::axisPos(LineRef where) const
{
    return m_index ? m_index->axisPos(where) : 0;
}

std::int64_t TimelineWidget::referencePos() const
{
    const Finding* f = m_index ? m_index->analysis().initiatingFinding() : nullptr;
    return f ? m_index->axisPos(f->anchor) : 0;
}

LineRef TimelineWidget::lineOfEvent(std::uint32_t event) const
{
    return m_index ? m_index->analysis().events[event].where : LineRef{};
}

std::optional<QPointF> TimelineWidget::markPosition(LineRef where) const
{
    if (!m_index)
        return std::nullopt;
    const int row = rowShowing(m_index->analysis().info(where).process);
    if (row < 0)
        return std::nullopt;
    return QPointF(xOf(axisPos(where), coords()),
                   rowTopInViewport(m_layout.row(row)) + m_layout.row(row).height / 2);
}

void TimelineWidget::ensureRowVisible(int row)
{
    if (row < 0)
        return;
    const LaneRow& r = m_layout.row(row);
    const double visible = viewport()->height() - axisHeight();
    // Out of view: bring it to a third of the way down, where its host's header and neighbours show.
    if (r.top < scrollY() || r.bottom() > scrollY() + visible)
        verticalScrollBar()->setValue(static_cast<int>(r.top - visible / 3));
}

void TimelineWidget::fitAll()
{
    m_zoom->fitAll();
}

void TimelineWidget::zoomToInitiating()
{
    const Finding* f = m_index ? m_index->analysis().initiatingFinding() : nullptr;
    if (!f) {
        fitAll();
        return;
    }
    std::int64_t lo = m_index->axisPos(f->anchor), hi = lo;
    for (const auto& e : f->evidence) {
        lo = std::min(lo, m_index->axisPos(e.where));
        hi = std::max(hi, m_index->axisPos(e.where));
    }
    if (f->connectPhaseStart)
        lo = std::min(lo, m_index->axisPos(*f->connectPhaseStart));
    // Leave room for the first collateral reports, which follow within about a second.
    const std::int64_t span = std::max<std::int64_t>(hi - lo, m_index->hasTime() ? 1000000 : 20);
    m_zoom->zoomTo({lo - span * 2, hi + span * 2});
    ensureRowVisible(rowShowing(f->process));
}

void TimelineWidget::zoomToFinding(int finding)
{
    if (!m_index || finding < 0 || static_cast<std::size_t>(finding) >= m_index->analysis().findings.size())
        return;
    const Analysis& a = m_index->analysis();
    const Finding& f = a.findings[static_cast<std::size_t>(finding)];
    if (a.initiating && static_cast<std::size_t>(finding) == *a.initiating) {
        zoomToInitiating();
        return;
    }
    std::int64_t lo = m_index->axisPos(f.anchor), hi = lo;
    for (const auto& e : f.evidence) {
        lo = std::min(lo, m_index->axisPos(e.where));
        hi = std::max(hi, m_index->axisPos(e.where));
    }
    const std::int64_t pad = std::max<std::int64_t>((hi - lo) / 4, m_index->hasTime() ? 1000000 : 20);
    m_zoom->zoomTo({lo - pad, hi + pad});
    ensureRowVisible(rowShowing(f.process));
}

void TimelineWidget::zoomBy(double factor)
{
    const TimeRange r = m_zoom->range();
    m_zoom->zoom(factor, r.start + r.duration() / 2);
}

void TimelineWidget::zoomBack()
{
    m_zoom->back();
}

void TimelineWidget::setSelectedLine(LineRef where)
{
    m_selected = where;
    if (m_index) {
        const std::int64_t pos = m_index->axisPos(where);
        const TimeRange r = m_zoom->range();
        if (pos < r.start || pos > r.end)
            m_zoom->setRange({pos - r.duration() / 2, pos - r.duration() / 2 + r.duration()});
        ensureRowVisible(rowShowing(m_index->analysis().info(where).process));
    }
    viewport()->update();
}

void TimelineWidget::setPairedLine(LineRef where)
{
    m_paired = where;
    viewport()->update();
}

void TimelineWidget::clearPairedLine()
{
    m_paired.reset();
    viewport()->update();
}

void TimelineWidget::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBar();
}

void TimelineWidget::scrollContentsBy(int, int)
{
    viewport()->update();
}

TimelineWidget::Hit TimelineWidget::hitTest(QPointF pos) const
{
    Hit hit;
    if (!m_model || pos.x() < labelWidth() - kHitRadius)
        return hit;
    hit.row = rowAtViewportY(pos.y());
    if (hit.row < 0)
        return hit;
    hit.track = trackOfRow(m_layout.row(hit.row));
    if (!hit.track)
        return hit;
    // lower_bound on time, then the nearest mark within a few pixels; marks that share a pixel are
    // told apart by tier, then by time, so a click is stable.
    const TimeCoords c = coords();
    const double upp = static_cast<double>(c.duration()) / std::max(1.0, c.width());
    const auto reach = static_cast<std::int64_t>(std::ceil(kHitRadius * upp));
    const std::int64_t t = c.toTime(pos.x() - labelWidth());
    const auto near = hit.track->range(t - reach, t + reach);
    double bestDx = 1e9;
    for (const TimelineMark& m : near) {
        const double dx = std::round(std::abs(xOf(m.pos, c) - pos.x()));
        if (!hit.mark || dx < bestDx || (dx == bestDx && m.outranks(*hit.mark))) {
            hit.mark = &m;
            bestDx = dx;
        }
    }
    hit.crowd = hit.mark ? static_cast<int>(near.size()) - 1 : 0;
    return hit;
}

// ---- painting --------------------------------------------------------------------------------

void TimelineWidget::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    const std::size_t buildsBefore = m_cache.builds();
    QPainter p(viewport());
    const QPalette pal = palette();
    p.fillRect(viewport()->rect(), pal.base());
    if (!m_model || m_layout.rowCount() == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter, tr("No events to show"));
        return;
    }
    const TimeCoords c = coords();
    const auto rows = m_layout.rowsIn(scrollY(), scrollY() + viewport()->height() - axisHeight());

    p.save();
    p.setClipRect(QRectF(0, axisHeight(), viewport()->width(), viewport()->height() - axisHeight()));
    paintRows(p, c, rows);
    paintMarks(p, c, rows);
    paintArrows(p, c);
    paintOverlays(p, c);
    p.restore();
    paintAxis(p, c);
    qCDebug(lcFrameTime) << "frame" << timer.nsecsElapsed() / 1e6 << "ms," << (rows.second - rows.first)
                         << "rows," << (m_cache.builds() - buildsBefore) << "rebuilt";
}

void TimelineWidget::paintRows(QPainter& p, const TimeCoords& c, std::pair<int, int> rows)
{
    const QPalette pal = palette();
    const double left = labelWidth();
    const double right = viewport()->width() - rightMargin();
    const Finding* init = m_index ? m_index->analysis().initiatingFinding() : nullptr;
    const int initLane = init ? m_model->laneOf(init->process) : -1;
    QFont labelFont = font();
    if (m_compact)
        labelFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
    QFont headerFont = labelFont;
    headerFont.setBold(true);
    const QColor stripe = pal.color(QPalette::AlternateBase);
    const QColor headerBg = pal.color(QPalette::Window);

    // Row backgrounds.
    for (int i = rows.first; i < rows.second; ++i) {
        const LaneRow& row = m_layout.row(i);
        const double y = rowTopInViewport(row);
        const QRectF band(0, y, viewport()->width(), row.height);
        if (row.kind == LaneRow::Host) {
            // A folded host that holds the initiating rank keeps its tint.
            const bool holdsInit =
                initLane >= 0 && isHostCollapsed(row.index) && m_model->lane(initLane).host == row.index;
            p.fillRect(band, holdsInit ? QColor(255, 226, 226) : headerBg);
            p.fillRect(QRectF(0, y, viewport()->width(), 1), pal.color(QPalette::Mid));
        } else if (row.index == initLane) {
            p.fillRect(band, QColor(255, 232, 232));
        } else if ((i & 1) == 0) {
            p.fillRect(QRectF(left, y, viewport()->width() - left, row.height), stripe);
        }
    }

    // Grid: one line per relative tick (or per clock tick without an initiating event).
    const std::int64_t step = m_model->hasTime() ? clockTickStep(c, 110) : tickStep(c, 110);
    const std::int64_t ref = init && m_model->hasTime() ? referencePos() : 0;
    p.setPen(QPen(pal.color(QPalette::Midlight), 0));
    // In merged order the grid follows the axis's ticks, which start at the first line.
    const std::int64_t first =
        m_model->hasTime() ? ref + firstTick(c.start() - ref, step) : firstLineTick(c.start(), step);
    for (std::int64_t t = first; t <= c.end(); t += step) {
        const double x = xOf(t, c);
        if (x >= left && x <= right)
            p.drawLine(QPointF(x, axisHeight()), QPointF(x, viewport()->height()));
    }
    if (init && m_model->hasTime()) {
        const double x = xOf(ref, c);
        if (x >= left && x <= right) {
            p.setPen(QPen(QColor(200, 20, 30, 150), 1, Qt::DashLine));
            p.drawLine(QPointF(x, axisHeight()), QPointF(x, viewport()->height()));
        }
    }

    // Labels column.
    p.fillRect(QRectF(0, axisHeight(), left - 4, viewport()->height()), pal.window());
    for (int i = rows.first; i < rows.second; ++i) {
        const LaneRow& row = m_layout.row(i);
        const double y = rowTopInViewport(row);
        if (row.kind == LaneRow::Host) {
            const TimelineHost& h = m_model->host(row.index);
            p.fillRect(QRectF(0, y, left - 4, row.height), headerBg.darker(104));
            p.setFont(headerFont);
            p.setPen(pal.color(QPalette::Text));
            const bool collapsed = isHostCollapsed(row.index);
            QString text = (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + h.name;
            QString meta = hostRanks(h);
            const QRectF r(6, y, left - 14, row.height);
            p.drawText(r, Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(text, Qt::ElideRight, static_cast<int>(r.width() * 0.62)));
            p.setFont(labelFont);
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(r, Qt::AlignVCenter | Qt::AlignRight, meta);
            // The host's clock correction, when there is one, right of the header in the lane area.
            if (h.clockOffsetUs != 0 || h.clockUserSet) {
                const QString clock = h.clockUserSet
                                          ? tr("clock %1 (set by you)").arg(secondsText(h.clockOffsetUs))
                                          : tr("clock %1 (estimated)").arg(secondsText(h.clockOffsetUs));
                p.setPen(h.clockUserSet ? QColor(30, 90, 170) : pal.color(QPalette::PlaceholderText));
                p.drawText(QRectF(left + 6, y, right - left - 12, row.height),
                           Qt::AlignVCenter | Qt::AlignRight, clock);
            }
        } else {
            const TimelineLane& l = m_model->lane(row.index);
            p.setFont(labelFont);
            p.setPen(row.index == initLane ? QColor(170, 20, 30) : pal.color(QPalette::Text));
            QString text = l.label;
            if (row.index == initLane)
                text += QStringLiteral("  ◆");
            p.drawText(QRectF(22, y, left - 30, row.height), Qt::AlignVCenter | Qt::AlignLeft, text);
        }
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(QPointF(left - 4, axisHeight()), QPointF(left - 4, viewport()->height()));
}

void TimelineWidget::paintMarks(QPainter& p, const TimeCoords& c, std::pair<int, int> rows)
{
    const double left = labelWidth();
    const double right = viewport()->width() - rightMargin();
    p.save();
    p.setClipRect(
        QRectF(left - 3, axisHeight(), right - left + rightMargin(), viewport()->height() - axisHeight()));
    p.setRenderHint(QPainter::Antialiasing, false); // straight boxes only
    // Runs first, batched by tier: one fill call per colour for the whole frame.
    std::vector<QRectF> runs[kMarkTierCount];
    for (int i = rows.first; i < rows.second; ++i) {
        const LaneRow& row = m_layout.row(i);
        const MarkTrack* track = trackOfRow(row);
        if (!track)
            continue;
        const RowGeometry& g = m_cache.row(cacheKey(row), *track, c);
        const double cy = rowTopInViewport(row) + row.height / 2;
        const double h = m_compact ? 4 : 5;
        for (const MarkRun& r : g.runs)
            runs[static_cast<int>(r.tier)].push_back(
                QRectF(left + r.x0, cy - h / 2, std::max(1.0f, r.x1 - r.x0), h));
    }
    for (int t = 0; t < kMarkTierCount; ++t) {
        if (runs[t].empty())
            continue;
        QColor col = tierColor(static_cast<MarkTier>(t));
        col.setAlpha(150);
        p.setPen(Qt::NoPen);
        p.setBrush(col);
        p.drawRects(runs[t].data(), static_cast<int>(runs[t].size()));
    }
    // Glyphs: one batched blit per sprite, lower tiers first so evidence is drawn on top.
    const qreal dpr = viewport()->devicePixelRatioF();
    std::vector<QPainter::PixmapFragment> batch[kMarkTierCount][kMarkKindCount];
    for (int i = rows.first; i < rows.second; ++i) {
        const LaneRow& row = m_layout.row(i);
        const MarkTrack* track = trackOfRow(row);
        if (!track)
            continue;
        const RowGeometry& g = m_cache.row(cacheKey(row), *track, c);
        const double cy = rowTopInViewport(row) + row.height / 2;
        for (const MarkGlyph& gl : g.glyphs)
            batch[static_cast<int>(gl.tier)][static_cast<int>(gl.kind)].push_back(
                QPainter::PixmapFragment::create(QPointF(left + gl.x, cy), {}, 1 / dpr, 1 / dpr));
    }
    for (int tier = 0; tier < kMarkTierCount; ++tier)
        for (int kind = 0; kind < kMarkKindCount; ++kind) {
            auto& frags = batch[tier][kind];
            if (frags.empty())
                continue;
            const QPixmap& sprite =
                m_atlas.sprite(static_cast<MarkKind>(kind), static_cast<MarkTier>(tier), laneHeight(), dpr);
            for (auto& f : frags) {
                f.sourceLeft = 0;
                f.sourceTop = 0;
                f.width = sprite.width();
                f.height = sprite.height();
            }
            p.drawPixmapFragments(frags.data(), static_cast<int>(frags.size()), sprite);
        }
    p.restore();
}

void TimelineWidget::paintArrows(QPainter& p, const TimeCoords& c)
{
    const Finding* init = m_index ? m_index->analysis().initiatingFinding() : nullptr;
    if (!init)
        return;
    const Analysis& a = m_index->analysis();
    const double left = labelWidth();
    const double right = viewport()->width() - rightMargin();
    p.save();
    p.setClipRect(
        QRectF(left, axisHeight(), right - left + rightMargin(), viewport()->height() - axisHeight()));
    p.setRenderHint(QPainter::Antialiasing, true);
    auto centreOf = [&](ProcessId process) -> double {
        const int row = rowShowing(process);
        return row < 0 ? -1 : rowTopInViewport(m_layout.row(row)) + m_layout.row(row).height / 2;
    };
    // Collateral arrows are one-pixel cosmetic strokes, translucent rather than dashed: the raster
    // engine draws those on its fast path, where dozens of wide or dashed antialiased curves would
    // cost more than the rest of the frame.
    auto arrow = [&](QPointF from, QPointF to, QColor col, bool thin) {
        QPen pen(col, thin ? 1.0 : 2.0);
        pen.setCosmetic(thin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        QPainterPath path(from);
        const double dy = to.y() - from.y();
        if (std::abs(dy) < 1)
            path.lineTo(to);
        else
            path.cubicTo(QPointF(from.x() + (to.x() - from.x()) * 0.5, from.y()),
                         QPointF(from.x() + (to.x() - from.x()) * 0.5, to.y()), to);
        p.drawPath(path);
        const double ang =
            std::abs(dy) >= 1 ? (to.x() >= from.x() ? 0 : M_PI) : std::atan2(dy, to.x() - from.x());
        const QPointF tip = to - QPointF(std::cos(ang) * 6, std::sin(ang) * 6);
        p.setPen(Qt::NoPen);
        p.setBrush(col);
        p.drawPolygon(QPolygonF({to, tip + QPointF(std::sin(ang) * 4, -std::cos(ang) * 4),
                                 tip - QPointF(std::sin(ang) * 4, -std::cos(ang) * 4)}));
    };
    const double cy = centreOf(init->process);
    if (cy < 0) {
        p.restore();
        return;
    }
    const QColor red(200, 20, 30);
    const QPointF abortPt(xOf(axisPos(init->anchor), c), cy);
    std::optional<LineRef> earliest;
    for (const auto& e : init->evidence)
        if (e.label == "earliest-connect-failure")
            earliest = e.where;
    if (earliest && *earliest != init->anchor) {
        const double ey = centreOf(a.info(*earliest).process);
        if (ey >= 0)
            arrow(QPointF(xOf(axisPos(*earliest), c), ey), abortPt, red, false);
    } else if (init->connectPhaseStart && m_model->hasTime()) {
        // The first attempt is not in the logs: draw where it must lie, hollow.
        const QPointF start(xOf(a.info(*init->connectPhaseStart).time.lo, c), cy);
        if (abortPt.x() - start.x() > 14) {
            arrow(start + QPointF(5, 0), abortPt - QPointF(8, 0), red, false);
            p.setPen(QPen(red, 1.6));
            p.setBrush(palette().base());
            p.drawEllipse(start, 4.5, 4.5);
            p.setPen(QColor(150, 20, 30));
            p.drawText(QRectF(start.x() - 240, cy - laneHeight() / 2 - 1, 232, laneHeight()),
                       Qt::AlignRight | Qt::AlignVCenter, tr("first attempt (not logged)"));
        }
    }
    // Collateral reports that point at the initiating process.
    int drawn = 0;
    int later = 0;
    const double top = axisHeight(), bottom = viewport()->height();
    std::vector<QPoint> targets; // several reports folded into one row get one arrow
    targets.reserve(64);
    for (const auto& f : a.findings) {
        if (f.role != Role::Collateral || !f.pointsAt || *f.pointsAt != init->process)
            continue;
        for (const auto& e : f.evidence) {
            const double ey = centreOf(e.process);
            if (ey < top || ey > bottom)
                continue;
            const QPointF to(xOf(axisPos(e.where), c) - 6, ey);
            if (to.x() > right) {
                ++later;
                continue;
            }
            if (to.x() - abortPt.x() < 4 || to.x() < left || abortPt.x() > right || drawn >= 64)
                continue;
            const QPoint key(static_cast<int>(to.x() / 4), static_cast<int>(to.y()));
            if (std::find(targets.begin(), targets.end(), key) != targets.end())
                continue;
            targets.push_back(key);
            ++drawn;
            arrow(abortPt + QPointF(7, 0), to, QColor(230, 140, 0, 150), true);
        }
    }
    if (later > 0 && abortPt.x() <= right) {
        p.setPen(QColor(190, 110, 0));
        p.drawText(
            QRectF(right - 300, cy - laneHeight() / 2, 296, laneHeight()), Qt::AlignRight | Qt::AlignVCenter,
            later == 1 ? tr("1 collateral report later →") : tr("%1 collateral reports later →").arg(later));
    }
    p.restore();
}

void TimelineWidget::paintOverlays(QPainter& p, const TimeCoords& c)
{
    const QPalette pal = palette();
    const double left = labelWidth();
    const double right = viewport()->width() - rightMargin();
    p.save();
    p.setClipRect(QRectF(left - 8, axisHeight(), right - left + rightMargin() + 8,
                         viewport()->height() - axisHeight()));
    p.setRenderHint(QPainter::Antialiasing, true);
    auto centre = [&](LineRef where) -> std::optional<QPointF> { return markPosition(where); };

    // Bookmarks: a small flag over the mark's row.
    if (m_bookmarks && m_index) {
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(30, 110, 220));
        for (LineRef b : m_bookmarks->lines()) {
            auto pt = centre(b);
            if (!pt || pt->x() < left || pt->x() > right)
                continue;
            const double y = pt->y() - laneHeight() / 2 + 1;
            p.drawPolygon(
                QPolygonF({QPointF(pt->x(), y), QPointF(pt->x() + 6, y + 2.5), QPointF(pt->x(), y + 5)}));
            p.fillRect(QRectF(pt->x() - 0.6, y, 1.2, laneHeight() - 2), QColor(30, 110, 220));
        }
    }

    // The pair picked for "Pin as simultaneous".
    if (m_paired && m_selected) {
        auto a = centre(*m_selected), b = centre(*m_paired);
        p.setPen(QPen(QColor(30, 90, 170), 1.4, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        if (b)
            p.drawEllipse(*b, 9, 9);
        if (a && b)
            p.drawLine(*a, *b);
    }

    // Selection: a vertical line across the lanes and a ring on the mark. A line without its own
    // timestamp is drawn at the middle of the interval it must lie in; the interval is shown too.
    if (m_selected && m_index) {
        const double x = xOf(axisPos(*m_selected), c);
        const TimeInterval t = m_index->analysis().info(*m_selected).time;
        const auto pt = centre(*m_selected);
        if (pt && m_index->hasTime() && t.knownLo() && t.knownHi() && xOf(t.hi, c) - xOf(t.lo, c) > 6) {
            const double x0 = xOf(t.lo, c), x1 = xOf(t.hi, c), y = pt->y() + laneHeight() / 2 - 2;
            QColor col = pal.color(QPalette::Highlight);
            col.setAlpha(160);
            p.setPen(QPen(col, 1.5));
            p.drawLine(QPointF(x0, y), QPointF(x1, y));
            p.drawLine(QPointF(x0, y - 3), QPointF(x0, y + 1));
            p.drawLine(QPointF(x1, y - 3), QPointF(x1, y + 1));
        }
        p.setPen(QPen(pal.color(QPalette::Highlight), 1.5));
        p.drawLine(QPointF(x, axisHeight()), QPointF(x, viewport()->height()));
        if (pt) {
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(*pt, 9, 9);
        }
    }

    // The range being dragged out.
    if (m_drag == Drag::Range) {
        const double x0 = std::clamp(std::min(m_pressPos.x(), m_hover.x()), left, right);
        const double x1 = std::clamp(std::max(m_pressPos.x(), m_hover.x()), left, right);
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlpha(40);
        p.fillRect(QRectF(x0, axisHeight(), x1 - x0, viewport()->height()), fill);
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.drawLine(QPointF(x0, axisHeight()), QPointF(x0, viewport()->height()));
        p.drawLine(QPointF(x1, axisHeight()), QPointF(x1, viewport()->height()));
    }
    p.restore();
}

void TimelineWidget::paintAxis(QPainter& p, const TimeCoords& c)
{
    const QPalette pal = palette();
    const double left = labelWidth();
    const double right = viewport()->width() - rightMargin();
    const double h = axisHeight();
    p.fillRect(QRectF(0, 0, viewport()->width(), h), pal.window());
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(QPointF(0, h - 0.5), QPointF(viewport()->width(), h - 0.5));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.92);
    p.setFont(small);
    const double rowH = (h - 4) / 2;
    // A tick label that would be cut by the right edge is left out rather than shown in part.
    auto label = [&](QPointF at, const QString& text) {
        const double w = p.fontMetrics().horizontalAdvance(text);
        if (at.x() + w <= viewport()->width() - 2)
            p.drawText(QRectF(at.x(), at.y(), w + 2, rowH), Qt::AlignLeft | Qt::AlignVCenter, text);
    };
    const Finding* init = m_index ? m_index->analysis().initiatingFinding() : nullptr;
    const bool relative = init && m_model->hasTime();

    if (!m_model->hasTime()) {
        const std::int64_t step = tickStep(c, 110);
        p.setPen(pal.color(QPalette::Text));
        for (std::int64_t t = firstLineTick(c.start(), step); t <= c.end(); t += step) {
            const double x = xOf(t, c);
            if (x < left || x > right)
                continue;
            p.drawLine(QPointF(x, h - 6), QPointF(x, h));
            label(QPointF(x + 3, 2), tr("line %1").arg(t + 1));
        }
        p.drawText(QRectF(6, 2, left - 10, rowH), Qt::AlignLeft | Qt::AlignVCenter, tr("merged order"));
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRectF(6, 2 + rowH, left - 10, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("(no timestamps)"));
        return;
    }
    // Row 1: clock time at round clock ticks.
    const std::int64_t step = clockTickStep(c, 110);
    p.setPen(pal.color(QPalette::Text));
    for (std::int64_t t = firstTick(c.start(), step); t <= c.end(); t += step) {
        const double x = xOf(t, c);
        if (x < left || x > right)
            continue;
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(QPointF(x, 2), QPointF(x, 2 + rowH));
        p.setPen(pal.color(QPalette::Text));
        label(QPointF(x + 3, 2), formatClock(t, step));
    }
    const QDateTime day = QDateTime::fromMSecsSinceEpoch(c.start() / 1000, Qt::UTC);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(6, 2, left - 10, rowH), Qt::AlignLeft | Qt::AlignVCenter,
               day.toString(QStringLiteral("yyyy-MM-dd")) + tr(" (aligned)"));
    // Row 2: time relative to the initiating event, at round offsets from it.
    if (relative) {
        const std::int64_t ref = referencePos();
        const std::int64_t rstep = clockTickStep(c, 90);
        for (std::int64_t t = ref + firstTick(c.start() - ref, rstep); t <= c.end(); t += rstep) {
            const double x = xOf(t, c);
            if (x < left || x > right)
                continue;
            const bool zero = t == ref;
            p.setPen(zero ? QColor(200, 20, 30) : pal.color(QPalette::Mid));
            p.drawLine(QPointF(x, 2 + rowH), QPointF(x, h));
            p.setPen(zero ? QColor(170, 20, 30) : pal.color(QPalette::PlaceholderText));
            label(QPointF(x + 3, 2 + rowH), zero ? tr("0  initiating event") : formatOffset(t - ref, rstep));
        }
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRectF(6, 2 + rowH, left - 10, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("from initiating event"));
    }
}

// ---- interaction -----------------------------------------------------------------------------

QString TimelineWidget::tooltipFor(const Hit& hit) const
{
    const LineRef where = lineOfEvent(hit.mark->event);
    const Analysis& a = m_index->analysis();
    const LineInfo li = a.info(where);
    QString when;
    if (li.time.known() && m_index->hasTime()) {
        // As the log shows the line's time: a console's minute as "12:54", not the middle of it
        // where the axis draws the mark; an unstamped line's with "~".
        when = (li.timeSource == TimeSource::Inferred ? QStringLiteral("~") : QString()) +
               AnalysisIndex::formatTime(shownInstant(li), true, shownResolution(li));
        if (a.initiatingFinding())
            when += QStringLiteral("  (%1)").arg(secondsText(axisPos(where) - referencePos()));
    } else if (m_index->hasTime()) {
        when = m_index->drawnAtLastStamped(where)
                   ? tr("no timestamp in its file: drawn at its process's last stamped line")
                   : tr("no timestamp: drawn at the start of the run");
    }
    QString text = QStringLiteral("<b>%1</b> · %2<br>%3:%4")
                       .arg(kindName(hit.mark->kind).toHtmlEscaped(),
                            QString::fromStdString(a.labelAt(where)).toHtmlEscaped(),
                            QString::fromStdString(a.source(where.source).displayPath).toHtmlEscaped())
                       .arg(where.line + 1);
    if (!when.isEmpty())
        text += QStringLiteral(" · ") + when;
    text += QStringLiteral("<br><span style='font-family:monospace'>%1</span>")
                .arg(ellipsize(a.text(where)).toHtmlEscaped());
    const QStringList labels = m_index->evidenceLabels(where);
    if (!labels.isEmpty())
        text += QStringLiteral("<br><b style='color:#c8141e'>[%1]</b>")
                    .arg(labels.join(QStringLiteral(", ")).toHtmlEscaped());
    if (hit.crowd > 0)
        text += QStringLiteral("<br><i>%1</i>")
                    .arg((hit.crowd == 1
                              ? tr("and 1 more event within a few pixels — zoom in to tell them apart")
                              : tr("and %1 more events within a few pixels — zoom in to tell them apart")
                                    .arg(hit.crowd)));
    return text;
}

QString TimelineWidget::hostRanks(const TimelineHost& h) const
{
    std::size_t n = 0;
    for (int l : h.lanes) {
        const ProcessId pid = m_model->lane(l).process;
        const bool known = m_index && pid.valid() && pid.value < m_index->analysis().processes.size();
        const Process* p = known ? &m_index->analysis().process(pid) : nullptr;
        n += p && p->severalDevices() ? static_cast<std::size_t>(std::popcount(p->devices)) : 1;
    }
    return ranksText(n);
}

QString TimelineWidget::hostTooltip(int host) const
{
    const TimelineHost& h = m_model->host(host);
    QString text = QStringLiteral("<b>%1</b> · %2").arg(h.name.toHtmlEscaped(), hostRanks(h));
    if (m_index && m_index->hasTime()) {
        for (const auto& hc : m_index->analysis().clock.hosts) {
            if (QString::fromStdString(hc.host) != h.name)
                continue;
            text += QStringLiteral("<br>") +
                    (hc.userSet ? tr("Clock shifted by %1, as you set it.").arg(secondsText(hc.offsetUs))
                     : hc.reference
                         ? tr("Reference clock.")
                         : tr("Clock shifted by %1, estimated from the logs.").arg(secondsText(hc.offsetUs)));
            for (std::size_t i = 0; i < hc.basis.size() && i < 3; ++i)
                text += QStringLiteral("<br>· %1").arg(QString::fromStdString(hc.basis[i]).toHtmlEscaped());
        }
        text += QStringLiteral("<br><i>%1</i>").arg(tr("Right-click to set this host's clock offset."));
    }
    text += QStringLiteral("<br><i>%1</i>")
                .arg(isHostCollapsed(host) ? tr("Click to show its ranks.")
                                           : tr("Click to fold its ranks into one row."));
    return text;
}

bool TimelineWidget::viewportEvent(QEvent* event)
{
    switch (event->type()) {
    case QEvent::ToolTip: {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAtViewportY(help->pos().y());
        if (row >= 0 && m_layout.row(row).kind == LaneRow::Host && help->pos().x() < labelWidth()) {
            QToolTip::showText(help->globalPos(), hostTooltip(m_layout.row(row).index), viewport());
            return true;
        }
        const Hit hit = hitTest(help->pos());
        if (hit.mark && m_index)
            QToolTip::showText(help->globalPos(), tooltipFor(hit), viewport());
        else
            QToolTip::hideText();
        return true;
    }
    case QEvent::NativeGesture: {
        // Touchpad pinch (macOS, Wayland): value is the relative change of scale.
        auto* g = static_cast<QNativeGestureEvent*>(event);
        if (g->gestureType() == Qt::ZoomNativeGesture) {
            const TimeCoords c = coords();
            m_zoom->zoom(1.0 / (1.0 + g->value()), c.toTime(g->position().x() - labelWidth()));
            return true;
        }
        break;
    }
    case QEvent::Gesture: {
        // Touchscreen pinch.
        auto* ge = static_cast<QGestureEvent*>(event);
        if (auto* pinch = static_cast<QPinchGesture*>(ge->gesture(Qt::PinchGesture))) {
            if (pinch->changeFlags() & QPinchGesture::ScaleFactorChanged) {
                const TimeCoords c = coords();
                const QPointF at = viewport()->mapFromGlobal(pinch->centerPoint().toPoint());
                m_zoom->zoom(1.0 / std::max(0.05, pinch->scaleFactor()), c.toTime(at.x() - labelWidth()));
            }
            ge->accept(pinch);
            return true;
        }
        break;
    }
    default:
        break;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineWidget::wheelEvent(QWheelEvent* event)
{
    const QPointF pos = event->position();
    const QPoint angle = event->angleDelta();
    const TimeCoords c = coords();
    // Over the labels the wheel scrolls the lanes; over the lanes it zooms around the cursor.
    // Shift+wheel and a horizontal wheel pan; Alt+wheel scrolls the lanes from anywhere.
    if (pos.x() < labelWidth() || (event->modifiers() & Qt::AltModifier)) {
        const int dy = angle.y() != 0 ? angle.y() : angle.x();
        verticalScrollBar()->setValue(verticalScrollBar()->value() -
                                      dy * static_cast<int>(laneHeight()) * 3 / 120);
        event->accept();
        return;
    }
    if (std::abs(angle.x()) > std::abs(angle.y()) || (event->modifiers() & Qt::ShiftModifier)) {
        const int d = std::abs(angle.x()) > std::abs(angle.y()) ? angle.x() : angle.y();
        m_zoom->pan(static_cast<std::int64_t>(-d / 120.0 * static_cast<double>(c.duration()) / 10));
        event->accept();
        return;
    }
    if (angle.y() == 0)
        return;
    m_zoom->zoom(std::pow(0.8, angle.y() / 120.0), c.toTime(pos.x() - labelWidth()));
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_pressPos = event->position();
    m_pressRange = m_zoom->range();
    m_pressScroll = verticalScrollBar()->value();
    // On the axis, or with Shift, a drag picks a range to zoom to; elsewhere it pans.
    m_drag = Drag::Pending;
    if ((m_pressPos.y() < axisHeight() || (event->modifiers() & Qt::ShiftModifier)) &&
        m_pressPos.x() >= labelWidth())
        m_drag = Drag::Range;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event)
{
    m_hover = event->position();
    if (m_drag == Drag::None) {
        viewport()->setCursor(m_hover.y() < axisHeight() && m_hover.x() >= labelWidth() ? Qt::IBeamCursor
                                                                                        : Qt::ArrowCursor);
        return;
    }
    const QPointF d = event->position() - m_pressPos;
    if (m_drag == Drag::Pending && std::hypot(d.x(), d.y()) > kDragThreshold)
        m_drag = Drag::Pan;
    if (m_drag == Drag::Pan) {
        viewport()->setCursor(Qt::ClosedHandCursor);
        const TimeCoords c(m_pressRange.start, m_pressRange.end, coords().width());
        const TimeCoords moved = c.panned(-d.x());
        m_zoom->setRange({moved.start(), moved.end()});
        verticalScrollBar()->setValue(m_pressScroll - static_cast<int>(d.y()));
    }
    viewport()->update();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    viewport()->setCursor(Qt::ArrowCursor);
    if (event->button() != Qt::LeftButton)
        return;
    const QPointF pos = event->position();
    if (drag == Drag::Range) {
        viewport()->update();
        if (std::abs(pos.x() - m_pressPos.x()) > kDragThreshold) {
            const TimeCoords c = coords();
            const double x0 = std::min(pos.x(), m_pressPos.x()) - labelWidth();
            const double x1 = std::max(pos.x(), m_pressPos.x()) - labelWidth();
            m_zoom->zoomTo({c.toTime(std::max(0.0, x0)), c.toTime(std::min(c.width(), x1))});
            return;
        }
        if (pos.y() < axisHeight())
            return;
    }
    if (drag == Drag::Pan)
        return;
    const int row = rowAtViewportY(pos.y());
    if (row >= 0 && m_layout.row(row).kind == LaneRow::Host && pos.x() < labelWidth()) {
        setHostCollapsed(m_layout.row(row).index, !isHostCollapsed(m_layout.row(row).index));
        return;
    }
    const Hit hit = hitTest(pos);
    if (!hit.mark || !m_index) {
        if (row >= 0 && m_layout.row(row).kind == LaneRow::Host)
            setHostCollapsed(m_layout.row(row).index, !isHostCollapsed(m_layout.row(row).index));
        return;
    }
    const LineRef where = lineOfEvent(hit.mark->event);
    if (event->modifiers() & Qt::ControlModifier) {
        // The second event of a pair to pin as simultaneous.
        setPairedLine(where);
        return;
    }
    m_selected = where;
    viewport()->update();
    emit lineActivated(where);
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    // On a mark: zoom in around it; on the axis or empty lane space: the whole run. (A host's name
    // folds on each click, so a double-click there does nothing more.)
    if (pos.x() >= labelWidth()) {
        if (const Hit hit = hitTest(pos); hit.mark && pos.y() >= axisHeight()) {
            const TimeRange r = m_zoom->range();
            m_zoom->zoomTo(zoomRange(r, 0.25, hit.mark->pos));
            return;
        }
        fitAll();
    }
}

void TimelineWidget::keyPressEvent(QKeyEvent* event)
{
    const TimeRange r = m_zoom->range();
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(0.5);
        break;
    case Qt::Key_Minus:
        zoomBy(2.0);
        break;
    case Qt::Key_Left:
        m_zoom->pan(-r.duration() / 8);
        break;
    case Qt::Key_Right:
        m_zoom->pan(r.duration() / 8);
        break;
    case Qt::Key_Up:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
        break;
    case Qt::Key_Down:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        break;
    case Qt::Key_PageUp:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub);
        break;
    case Qt::Key_PageDown:
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepAdd);
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        fitAll();
        break;
    case Qt::Key_F:
        zoomToInitiating();
        break;
    case Qt::Key_Backspace:
        zoomBack();
        break;
    case Qt::Key_Escape:
        if (m_drag == Drag::Range) {
            m_drag = Drag::None;
            viewport()->update();
        } else {
            clearPairedLine();
        }
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

void TimelineWidget::askClockOffset(int host)
{
    const TimelineHost& h = m_model->host(host);
    bool ok = false;
    const double seconds = QInputDialog::getDouble(
        this, tr("Clock offset for %1").arg(h.name),
        tr("Seconds to add to every time logged on %1 to put it on the reference clock.\n"
           "This overrides the estimate; the diagnosis is re-run with it.")
            .arg(h.name),
        static_cast<double>(h.clockOffsetUs) / 1e6, -1e7, 1e7, 6, &ok);
    if (ok)
        emit clockOffsetRequested(h.name, static_cast<qint64>(std::llround(seconds * 1e6)));
}

void TimelineWidget::contextMenuEvent(QContextMenuEvent* event)
{
    if (!m_model)
        return;
    QMenu menu(this);
    const QPoint pos = event->pos(); // viewport coordinates, as for every QAbstractScrollArea handler
    const int row = rowAtViewportY(pos.y());
    const Hit hit = hitTest(pos);
    int host = -1;
    if (row >= 0)
        host = m_layout.row(row).kind == LaneRow::Host ? m_layout.row(row).index
                                                       : m_model->lane(m_layout.row(row).index).host;

    if (hit.mark && m_index) {
        const LineRef where = lineOfEvent(hit.mark->event);
        const Analysis& a = m_index->analysis();
        const QString what = QStringLiteral("%1:%2")
                                 .arg(QString::fromStdString(a.source(where.source).displayPath))
                                 .arg(where.line + 1);
        menu.addAction(tr("Show %1 in the log").arg(what), this, [this, where] {
            m_selected = where;
            viewport()->update();
            emit lineActivated(where);
        });
        menu.addAction(m_bookmarks && m_bookmarks->contains(where) ? tr("Remove bookmark")
                                                                   : tr("Bookmark this line"),
                       this, [this, where] { emit bookmarkToggled(where); });
        const auto other = m_paired && *m_paired != where ? m_paired : m_selected;
        if (other && *other != where && m_index->hasTime()) {
            const std::string& h1 = a.process(a.info(*other).process).host;
            const std::string& h2 = a.process(a.info(where).process).host;
            const QString otherWhat = QStringLiteral("%1:%2")
                                          .arg(QString::fromStdString(a.source(other->source).displayPath))
                                          .arg(other->line + 1);
            QAction* pin = menu.addAction(tr("Pin as simultaneous with %1").arg(otherWhat), this,
                                          [this, a1 = *other, where] { emit pinRequested(a1, where); });
            if (h1 == h2) {
                pin->setEnabled(false);
                pin->setText(tr("Pin as simultaneous (pick an event on another host: Ctrl+click)"));
            }
        } else if (m_index->hasTime()) {
            QAction* pin =
                menu.addAction(tr("Pin as simultaneous… (select one event, Ctrl+click the other)"));
            pin->setEnabled(false);
        }
        menu.addSeparator();
    }
    if (host >= 0) {
        const TimelineHost& h = m_model->host(host);
        if (m_index && m_index->hasTime()) {
            menu.addAction(tr("Set clock offset for %1…").arg(h.name), this,
                           [this, host] { askClockOffset(host); });
            if (h.clockUserSet)
                menu.addAction(tr("Use the estimated clock for %1").arg(h.name), this,
                               [this, name = h.name] { emit clockOffsetCleared(name); });
        }
        menu.addAction(isHostCollapsed(host) ? tr("Expand %1").arg(h.name) : tr("Collapse %1").arg(h.name),
                       this, [this, host] { setHostCollapsed(host, !isHostCollapsed(host)); });
    }
    menu.addAction(tr("Collapse all hosts"), this, [this] { setAllHostsCollapsed(true); });
    menu.addAction(tr("Expand all hosts"), this, [this] { setAllHostsCollapsed(false); });
    if (quietHostCount() > 0) {
        QAction* onlyFindings = menu.addAction(tr("Only hosts with findings"), this,
                                               [this](bool on) { setQuietHostsHidden(on); });
        onlyFindings->setCheckable(true);
        onlyFindings->setChecked(m_hideQuiet);
    }
    menu.addSeparator();
    if (m_index && m_index->analysis().initiatingFinding())
        menu.addAction(tr("Zoom to failure"), this, &TimelineWidget::zoomToInitiating);
    if (m_index && !m_index->analysis().findings.empty()) {
        QMenu* findings = menu.addMenu(tr("Zoom to finding"));
        const Analysis& a = m_index->analysis();
        for (std::size_t i = 0; i < a.findings.size() && i < 20; ++i) {
            const Finding& f = a.findings[i];
            findings->addAction(QStringLiteral("%1: %2 (%3)")
                                    .arg(QString::fromLatin1(roleName(f.role)),
                                         QString::fromStdString(a.entry(f.entry).title),
                                         QString::fromStdString(a.process(f.process).label())),
                                this, [this, i] { zoomToFinding(static_cast<int>(i)); });
        }
    }
    menu.addAction(m_zoom->fitAction());
    menu.addAction(m_zoom->backAction());
    if (m_index && m_index->hasTime()) {
        bool userClock = false;
        for (const auto& hc : m_index->analysis().clock.hosts) {
            userClock |= hc.userSet;
            for (const auto& b : hc.basis)
                userClock |= b.find("pinned") != std::string::npos;
        }
        menu.addSeparator();
        QAction* clear = menu.addAction(tr("Forget my clock settings (offsets and pins)"), this,
                                        [this] { emit clockSettingsCleared(); });
        clear->setEnabled(userClock);
    }
    menu.exec(event->globalPos());
}

} // namespace rl
