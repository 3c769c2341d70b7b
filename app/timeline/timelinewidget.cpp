#include "timeline/timelinewidget.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "util/untrusted.h"

namespace rl
{

namespace
{
constexpr double kMarkRadius = 3.5;

QString ellipsize(std::string_view s, int max = 220)
{
    QString q = QString::fromUtf8(s.data(), static_cast<qsizetype>(std::min<std::size_t>(s.size(), 4096)));
    if (q.size() > max)
        q = q.left(max) + QStringLiteral(" …");
    return q;
}
} // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAutoFillBackground(true);
    setAccessibleName(tr("Timeline"));
}

void TimelineWidget::setIndex(std::shared_ptr<const AnalysisIndex> index)
{
    m_index = std::move(index);
    m_selected.reset();
    rebuildLanes();
    if (m_index && m_index->analysis().initiatingFinding())
        zoomToInitiating();
    else
        fitAll();
}

void TimelineWidget::rebuildLanes()
{
    m_lanes.clear();
    if (!m_index)
        return;
    const Analysis& a = m_index->analysis();
    // Hosts in order of their lowest rank; processes without a host go last.
    std::vector<std::string> hosts;
    for (const auto& p : a.processes)
        if (std::find(hosts.begin(), hosts.end(), p.host) == hosts.end())
            hosts.push_back(p.host);
    std::stable_partition(hosts.begin(), hosts.end(), [](const std::string& h) { return !h.empty(); });
    std::vector<std::size_t> laneOfProcess(a.processes.size(), 0);
    for (const auto& h : hosts) {
        Lane header;
        header.hostHeader = true;
        header.host = h.empty() ? tr("(host unknown)") : QString::fromStdString(h);
        int count = 0;
        for (const auto& p : a.processes)
            count += p.host == h;
        header.label = QStringLiteral("%1  ·  %2").arg(header.host).arg(count);
        m_lanes.push_back(header);
        bool collapsed = std::find(m_collapsedHosts.begin(), m_collapsedHosts.end(), header.host) !=
                         m_collapsedHosts.end();
        if (collapsed)
            continue;
        for (const auto& p : a.processes) {
            if (p.host != h)
                continue;
            Lane lane;
            lane.process = p.id;
            lane.host = header.host;
            lane.label = p.rank
                             ? tr("rank %1").arg(*p.rank)
                             : QString::fromStdString(p.pid >= 0 ? "pid " + std::to_string(p.pid)
                                                                 : a.source(p.sources.front()).displayPath);
            laneOfProcess[p.id.value] = m_lanes.size();
            m_lanes.push_back(lane);
        }
    }
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const Event& e = a.events[i];
        std::size_t lane = laneOfProcess[e.process.value];
        if (lane == 0 || m_lanes[lane].hostHeader)
            continue;
        int weight = 1;
        if (e.level == Level::Warn)
            weight = 2;
        if (e.level == Level::Error || e.level == Level::Fatal || e.kind == EventKind::Traceback)
            weight = 3;
        if (m_index->isCollateral(e.where))
            weight = 4;
        if (!m_index->evidenceLabel(e.where).isEmpty())
            weight = 5;
        m_lanes[lane].marks.push_back({m_index->axisPos(e.where), e.where, static_cast<int>(i), weight});
    }
    for (auto& l : m_lanes)
        std::sort(l.marks.begin(), l.marks.end(), [](const Mark& x, const Mark& y) { return x.pos < y.pos; });

    if (m_index->hasTime()) {
        m_fullStart = a.span.lo;
        m_fullEnd = a.span.hi;
    } else {
        m_fullStart = 0;
        m_fullEnd = std::max<std::int64_t>(1, static_cast<std::int64_t>(a.merged.size()));
    }
    setMinimumHeight(static_cast<int>(laneTop() + static_cast<double>(m_lanes.size()) * laneHeight() + 34));
    updateGeometry();
}

void TimelineWidget::setCoords(const TimeCoords& c)
{
    m_coords = c;
    update();
}

void TimelineWidget::fitAll()
{
    std::int64_t pad = std::max<std::int64_t>((m_fullEnd - m_fullStart) / 40, 1);
    setCoords(TimeCoords(m_fullStart - pad, m_fullEnd + pad, width() - laneAreaLeft() - 12));
}

void TimelineWidget::zoomToInitiating()
{
    if (!m_index || !m_index->analysis().initiatingFinding()) {
        fitAll();
        return;
    }
    const Finding* f = m_index->analysis().initiatingFinding();
    std::int64_t lo = m_index->axisPos(f->anchor), hi = lo;
    for (const auto& e : f->evidence) {
        lo = std::min(lo, m_index->axisPos(e.where));
        hi = std::max(hi, m_index->axisPos(e.where));
    }
    if (f->connectPhaseStart)
        lo = std::min(lo, m_index->axisPos(*f->connectPhaseStart));
    // Leave room for the first collateral reports, which follow within about a second.
    std::int64_t span = std::max<std::int64_t>(hi - lo, m_index->hasTime() ? 1000000 : 20);
    setCoords(TimeCoords(lo - span * 2, hi + span * 2, width() - laneAreaLeft() - 12));
}

void TimelineWidget::zoomBy(double factor)
{
    setCoords(m_coords.zoomed(factor, m_coords.width() / 2, m_index && m_index->hasTime() ? 1000 : 2));
}

void TimelineWidget::setSelectedLine(LineRef where)
{
    m_selected = where;
    if (m_index) {
        std::int64_t pos = m_index->axisPos(where);
        if (!m_coords.visible(pos))
            setCoords(
                TimeCoords(pos - m_coords.duration() / 2, pos + m_coords.duration() / 2, m_coords.width()));
    }
    update();
}

void TimelineWidget::resizeEvent(QResizeEvent*)
{
    m_coords.set(m_coords.start(), m_coords.end(), width() - laneAreaLeft() - 12);
}

double TimelineWidget::laneCenterY(ProcessId p) const
{
    for (std::size_t i = 0; i < m_lanes.size(); ++i)
        if (!m_lanes[i].hostHeader && m_lanes[i].process == p)
            return laneTop() + static_cast<double>(i) * laneHeight() + laneHeight() / 2;
    return -1;
}

std::optional<QPointF> TimelineWidget::markPosition(LineRef where) const
{
    if (!m_index)
        return std::nullopt;
    double y = laneCenterY(m_index->analysis().info(where).process);
    if (y < 0)
        return std::nullopt;
    return QPointF(xOf(m_index->axisPos(where)), y);
}

int TimelineWidget::laneAt(double y) const
{
    if (y < laneTop())
        return -1;
    int i = static_cast<int>((y - laneTop()) / laneHeight());
    return i < static_cast<int>(m_lanes.size()) ? i : -1;
}

const TimelineWidget::Mark* TimelineWidget::markAt(QPointF pos) const
{
    int lane = laneAt(pos.y());
    if (lane < 0 || m_lanes[static_cast<std::size_t>(lane)].hostHeader)
        return nullptr;
    const auto& marks = m_lanes[static_cast<std::size_t>(lane)].marks;
    // Nearest mark within a few pixels: lower_bound on time, then look both ways. Marks that share
    // a pixel are told apart by weight, then by order (the earlier line wins), so a click is stable.
    std::int64_t t = m_coords.toTime(pos.x() - laneAreaLeft());
    auto it = std::lower_bound(marks.begin(), marks.end(), t,
                               [](const Mark& m, std::int64_t v) { return m.pos < v; });
    const Mark* best = nullptr;
    auto better = [&](const Mark& m) {
        if (!best)
            return true;
        const int dm = static_cast<int>(std::abs(xOf(m.pos) - pos.x()));
        const int db = static_cast<int>(std::abs(xOf(best->pos) - pos.x()));
        return std::tie(dm, best->weight, m.where) < std::tie(db, m.weight, best->where);
    };
    for (auto j = it; j != marks.end() && xOf(j->pos) - pos.x() < 6; ++j)
        if (better(*j))
            best = &*j;
    for (auto j = it; j != marks.begin();) {
        --j;
        if (pos.x() - xOf(j->pos) >= 6)
            break;
        if (better(*j))
            best = &*j;
    }
    return best;
}

QColor TimelineWidget::colorFor(const Mark& m) const
{
    switch (m.weight) {
    case 5:
        return QColor(200, 20, 30);
    case 4:
        return QColor(230, 140, 0);
    case 3:
        return QColor(150, 60, 160);
    case 2:
        return QColor(200, 160, 0);
    default:
        return QColor(120, 140, 170);
    }
}

void TimelineWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.base());
    if (!m_index || m_lanes.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No events to show"));
        return;
    }
    const Analysis& a = m_index->analysis();
    const double left = laneAreaLeft();
    const double right = width() - 12;

    // Lanes and labels.
    QFont labelFont = font();
    QFont headerFont = font();
    headerFont.setBold(true);
    for (std::size_t i = 0; i < m_lanes.size(); ++i) {
        const Lane& lane = m_lanes[i];
        double y = laneTop() + static_cast<double>(i) * laneHeight();
        QRectF row(0, y, width(), laneHeight());
        if (lane.hostHeader) {
            p.fillRect(row, pal.alternateBase());
            p.setFont(headerFont);
            p.setPen(pal.color(QPalette::Text));
            bool collapsed = std::find(m_collapsedHosts.begin(), m_collapsedHosts.end(), lane.host) !=
                             m_collapsedHosts.end();
            p.drawText(QRectF(6, y, width() - 12, laneHeight()), Qt::AlignVCenter | Qt::AlignLeft,
                       (collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + lane.label);
            continue;
        }
        if (m_index->analysis().initiatingFinding() &&
            m_index->analysis().initiatingFinding()->process == lane.process)
            p.fillRect(row, QColor(255, 235, 235));
        p.setFont(labelFont);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(18, y, left - 24, laneHeight()), Qt::AlignVCenter | Qt::AlignLeft, lane.label);
        p.setPen(QPen(pal.color(QPalette::Mid), 0, Qt::DotLine));
        p.drawLine(QPointF(left, y + laneHeight() / 2), QPointF(right, y + laneHeight() / 2));
    }

    // Axis with ticks.
    p.setFont(labelFont);
    p.setPen(pal.color(QPalette::Text));
    p.fillRect(QRectF(0, 0, width(), laneTop() - 2), pal.window());
    std::int64_t step = tickStep(m_coords, 190);
    std::int64_t first = (m_coords.start() / step) * step;
    const Finding* init = a.initiatingFinding();
    std::int64_t ref = init ? m_index->axisPos(init->anchor) : 0;
    for (std::int64_t t = first; t <= m_coords.end(); t += step) {
        double x = xOf(t);
        if (x < left || x > right)
            continue;
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(QPointF(x, laneTop() - 6), QPointF(x, height()));
        p.setPen(pal.color(QPalette::Text));
        QString label;
        if (m_index->hasTime()) {
            label = AnalysisIndex::formatTime(t);
            if (init) {
                double rel = static_cast<double>(t - ref) / 1e6;
                label += QStringLiteral("  (%1%2 s)")
                             .arg(rel >= 0 ? QStringLiteral("+") : QString())
                             .arg(rel, 0, 'g', 4);
            }
        } else {
            label = tr("line %1").arg(t);
        }
        p.drawText(QRectF(x + 3, 2, 220, laneTop() - 8), Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    p.drawText(QRectF(6, 2, left - 8, laneTop() - 8), Qt::AlignLeft | Qt::AlignVCenter,
               m_index->hasTime() ? tr("time (as logged)") : tr("merged order"));

    p.setClipRect(QRectF(left - kMarkRadius - 1, laneTop(), right - left + 2 * kMarkRadius + 2, height()));
    p.setRenderHint(QPainter::Antialiasing, true);

    // Marks: only the visible window of each lane, and one mark per pixel column (the weightiest).
    for (std::size_t i = 0; i < m_lanes.size(); ++i) {
        const Lane& lane = m_lanes[i];
        if (lane.hostHeader)
            continue;
        double cy = laneTop() + static_cast<double>(i) * laneHeight() + laneHeight() / 2;
        auto begin = std::lower_bound(lane.marks.begin(), lane.marks.end(), m_coords.start(),
                                      [](const Mark& m, std::int64_t v) { return m.pos < v; });
        int lastX = -1;
        const Mark* pending = nullptr;
        auto flush = [&](const Mark* m) {
            if (!m)
                return;
            double x = xOf(m->pos);
            double r = m->weight >= 5 ? kMarkRadius + 2 : m->weight >= 4 ? kMarkRadius + 0.5 : kMarkRadius;
            p.setPen(Qt::NoPen);
            p.setBrush(colorFor(*m));
            if (m->weight >= 5) {
                QPolygonF diamond({QPointF(x, cy - r - 1), QPointF(x + r + 1, cy), QPointF(x, cy + r + 1),
                                   QPointF(x - r - 1, cy)});
                p.drawPolygon(diamond);
            } else {
                p.drawEllipse(QPointF(x, cy), r, r);
            }
        };
        for (auto it = begin; it != lane.marks.end() && it->pos <= m_coords.end(); ++it) {
            int x = static_cast<int>(xOf(it->pos));
            if (x != lastX) {
                flush(pending);
                pending = &*it;
                lastX = x;
            } else if (it->weight > pending->weight) {
                pending = &*it;
            }
        }
        flush(pending);
    }

    // Causal arrows: first attempt -> aborted retry -> collateral reports.
    if (init) {
        auto arrow = [&](QPointF from, QPointF to, QColor c, bool dashed) {
            QPen pen(c, dashed ? 1.2 : 2.0, dashed ? Qt::DashLine : Qt::SolidLine);
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            QPainterPath path(from);
            double dy = to.y() - from.y();
            if (std::abs(dy) < 1) {
                path.lineTo(to);
            } else {
                path.cubicTo(QPointF(from.x() + (to.x() - from.x()) * 0.5, from.y()),
                             QPointF(from.x() + (to.x() - from.x()) * 0.5, to.y()), to);
            }
            p.drawPath(path);
            double ang = std::atan2(to.y() - from.y(), to.x() - from.x());
            if (std::abs(dy) >= 1)
                ang = to.x() >= from.x() ? 0 : M_PI;
            QPointF tip = to - QPointF(std::cos(ang) * 6, std::sin(ang) * 6);
            QPolygonF head({to, tip + QPointF(std::sin(ang) * 4, -std::cos(ang) * 4),
                            tip - QPointF(std::sin(ang) * 4, -std::cos(ang) * 4)});
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawPolygon(head);
        };
        double cy = laneCenterY(init->process);
        QPointF abortPt(xOf(m_index->axisPos(init->anchor)), cy);
        std::optional<LineRef> earliest;
        for (const auto& e : init->evidence)
            if (e.label == "earliest-connect-failure")
                earliest = e.where;
        if (cy >= 0) {
            if (earliest && *earliest != init->anchor) {
                double ey = laneCenterY(a.info(*earliest).process);
                if (ey >= 0)
                    arrow(QPointF(xOf(m_index->axisPos(*earliest)), ey), abortPt, QColor(200, 20, 30), false);
            } else if (init->connectPhaseStart && m_index->hasTime()) {
                // The first attempt is not in the logs: draw where it must lie, hollow.
                QPointF start(xOf(a.info(*init->connectPhaseStart).time.lo), cy);
                if (abortPt.x() - start.x() > 12) {
                    arrow(start + QPointF(5, 0), abortPt - QPointF(7, 0), QColor(200, 20, 30), false);
                    p.setPen(QPen(QColor(200, 20, 30), 1.6));
                    p.setBrush(pal.base());
                    p.drawEllipse(start, 4.5, 4.5);
                    p.setPen(QColor(150, 20, 30));
                    p.drawText(QRectF(start.x() - 240, cy - laneHeight() / 2, 232, laneHeight()),
                               Qt::AlignRight | Qt::AlignVCenter, tr("first attempt (not logged)"));
                }
            }
            int drawn = 0;
            int later = 0; // collateral reports beyond the right edge
            for (const auto& f : a.findings) {
                if (f.role != Role::Collateral || !f.pointsAt || *f.pointsAt != init->process)
                    continue;
                for (const auto& e : f.evidence) {
                    if (drawn++ > 48)
                        break;
                    double ey = laneCenterY(e.process);
                    if (ey < 0)
                        continue;
                    QPointF to(xOf(m_index->axisPos(e.where)) - 5, ey);
                    if (to.x() - abortPt.x() < 4 || to.x() < left || to.x() > right || abortPt.x() > right) {
                        if (to.x() > right)
                            ++later;
                        continue;
                    }
                    arrow(abortPt + QPointF(6, 0), to, QColor(230, 140, 0, 170), true);
                }
            }
            if (later > 0) {
                p.setPen(QColor(190, 110, 0));
                p.drawText(QRectF(right - 260, cy - laneHeight() / 2, 256, laneHeight()),
                           Qt::AlignRight | Qt::AlignVCenter,
                           tr("%n more collateral report(s) later →", nullptr, later));
            }
        }
    }

    // Legend, under the lanes.
    p.setClipping(false);
    {
        double y = laneTop() + static_cast<double>(m_lanes.size()) * laneHeight() + 8;
        double x = 12;
        p.setFont(labelFont);
        const struct {
            int weight;
            QString text;
        } items[] = {{5, tr("initiating evidence")},
                     {4, tr("collateral")},
                     {3, tr("error / traceback")},
                     {2, tr("WARN")},
                     {1, tr("other event")}};
        for (const auto& it : items) {
            Mark m{0, {}, 0, it.weight};
            p.setPen(Qt::NoPen);
            p.setBrush(colorFor(m));
            p.drawEllipse(QPointF(x, y + 7), kMarkRadius + 0.5, kMarkRadius + 0.5);
            p.setPen(pal.color(QPalette::Text));
            QRectF r(x + 8, y, 200, 14);
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, it.text);
            x += 16 + p.fontMetrics().horizontalAdvance(it.text) + 14;
        }
    }

    // Selection marker.
    if (m_selected) {
        double x = xOf(m_index->axisPos(*m_selected));
        double cy = laneCenterY(a.info(*m_selected).process);
        p.setPen(QPen(pal.color(QPalette::Highlight), 1.5));
        p.drawLine(QPointF(x, laneTop()), QPointF(x, height()));
        if (cy >= 0) {
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(QPointF(x, cy), kMarkRadius + 5, kMarkRadius + 5);
        }
    }
}

bool TimelineWidget::event(QEvent* ev)
{
    if (ev->type() == QEvent::ToolTip && m_index) {
        auto* help = static_cast<QHelpEvent*>(ev);
        if (const Mark* m = markAt(help->pos())) {
            const Analysis& a = m_index->analysis();
            const LineInfo& li = a.info(m->where);
            QString label = m_index->evidenceLabel(m->where);
            QString when = li.time.known() && m_index->hasTime()
                               ? AnalysisIndex::formatTime(m_index->axisPos(m->where))
                               : QString();
            QString text = QStringLiteral("%1  %2:%3\n%4%5")
                               .arg(QString::fromStdString(a.process(li.process).label()),
                                    QString::fromStdString(a.source(m->where.source).displayPath),
                                    QString::number(m->where.line + 1),
                                    when.isEmpty() ? QString() : when + QStringLiteral("  "),
                                    ellipsize(a.text(m->where)));
            if (!label.isEmpty())
                text += QStringLiteral("\n[%1]").arg(label);
            QToolTip::showText(help->globalPos(), plainToolTip(text), this); // log text, literally
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(ev);
}

void TimelineWidget::wheelEvent(QWheelEvent* event)
{
    double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    double factor = std::pow(0.8, steps);
    setCoords(m_coords.zoomed(factor, event->position().x() - laneAreaLeft(),
                              m_index && m_index->hasTime() ? 1000 : 2));
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_dragStart = event->position();
    m_dragCoords = m_coords;
    m_dragging = true;
    m_dragMoved = false;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    double dx = event->position().x() - m_dragStart.x();
    if (std::abs(dx) > 3)
        m_dragMoved = true;
    if (m_dragMoved)
        setCoords(m_dragCoords.panned(-dx));
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    m_dragging = false;
    if (m_dragMoved)
        return;
    int lane = laneAt(event->position().y());
    if (lane >= 0 && m_lanes[static_cast<std::size_t>(lane)].hostHeader) {
        const QString host = m_lanes[static_cast<std::size_t>(lane)].host;
        auto it = std::find(m_collapsedHosts.begin(), m_collapsedHosts.end(), host);
        if (it == m_collapsedHosts.end())
            m_collapsedHosts.push_back(host);
        else
            m_collapsedHosts.erase(it);
        rebuildLanes();
        update();
        return;
    }
    if (const Mark* m = markAt(event->position())) {
        m_selected = m->where;
        update();
        emit lineActivated(m->where);
    }
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent*)
{
    fitAll();
}

void TimelineWidget::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(0.5);
        break;
    case Qt::Key_Minus:
        zoomBy(2.0);
        break;
    case Qt::Key_Left:
        setCoords(m_coords.panned(-m_coords.width() / 8));
        break;
    case Qt::Key_Right:
        setCoords(m_coords.panned(m_coords.width() / 8));
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        fitAll();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

} // namespace rl
