// The timeline widget on the sample incident, offscreen: marks where the model says, clicks select
// lines, wheel and keys zoom through the one ZoomControl, a drag on the axis zooms to that range,
// hosts fold, the overview moves the range, tooltips carry the line text.
#include <QAction>
#include <QFile>
#include <QNativeGestureEvent>
#include <QPointingDevice>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include "shipped_encyclopedia.h"
#include "timeline/timelineoverview.h"
#include "timeline/timelinepane.h"
#include "timeline/timelinewidget.h"
#include "timeline/zoomcontrol.h"

using namespace rl;

class TestTimelineWidget : public QObject
{
    Q_OBJECT
    std::shared_ptr<const AnalysisIndex> m_index;

    LineRef line(const char* file, int oneBased) const
    {
        for (const auto& s : m_index->analysis().sources)
            if (s.displayPath == file)
                return {s.id, static_cast<std::uint32_t>(oneBased - 1)};
        qFatal("no such file %s", file);
    }

private slots:
    void initTestCase()
    {
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        const auto enc = test::shippedEncyclopedia();
        QVERIFY(enc);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}, enc, o);
        m_index = std::make_shared<const AnalysisIndex>(a);
    }

    // Slurm's per-task .err files carry no stamps; their .out files do. Each .err traceback is
    // drawn at its own rank's last stamped line (rank 2's OOM after it began building its model,
    // the others' barrier timeouts after they started waiting), not at the start of the run, and
    // its tooltip says so. The JSON keeps their times unknown.
    void unstampedFilesDrawnAtTheirProcesssLastStamp()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto index = std::make_shared<const AnalysisIndex>(
            analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/slurm-tasks"}, test::shippedEncyclopedia(), o));
        const Analysis& a = index->analysis();
        auto at = [&](const char* file, int oneBased) {
            for (const auto& s : a.sources)
                if (s.displayPath == file)
                    return LineRef{s.id, static_cast<std::uint32_t>(oneBased - 1)};
            qFatal("no such file %s", file);
        };
        const LineRef oom = at("train-88123-2.err", 6);
        QVERIFY(!a.info(oom).time.known());
        QVERIFY(index->drawnAtLastStamped(oom));
        const LineRef built =
            at("train-88123-2.out", 2); // "[2026-11-20 09:00:02,870] ... building the model"
        QVERIFY(a.info(built).time.known());
        QCOMPARE(index->axisPos(oom), index->axisPos(built));
        QVERIFY(index->axisPos(oom) > a.span.lo);
        const LineRef timeout = at("train-88123-0.err", 6);
        QVERIFY(index->axisPos(timeout) > index->axisPos(oom)); // rank 0 waited past rank 2's failure

        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(index);
        w.fitAll();
        const auto pos = w.markPosition(oom);
        QVERIFY(pos);
        QVERIFY(pos->x() > w.labelWidth() + 20); // not at the left edge, where the run starts
        const QPoint p = pos->toPoint();
        QHelpEvent help(QEvent::ToolTip, p, w.viewport()->mapToGlobal(p));
        QApplication::sendEvent(w.viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("no timestamp in its file")),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    // A mark's tooltip gives the line's time as its stamp was printed (a job console's minute),
    // not the middle of the minute where the axis draws it.
    void tooltipSaysTheTimeAsStamped()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath(QStringLiteral("rank1.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("2025-02-18 12:54 h:77:88 [1] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                "10.0.0.2<45763> failed : Software caused connection abort\n");
        f.close();
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto index = std::make_shared<const AnalysisIndex>(
            analyzePaths({dir.path().toStdString()}, test::shippedEncyclopedia(), o));
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(index);
        const auto pos = w.markPosition(LineRef{SourceId(0), 0});
        QVERIFY(pos);
        QHelpEvent help(QEvent::ToolTip, pos->toPoint(), w.viewport()->mapToGlobal(pos->toPoint()));
        QApplication::sendEvent(w.viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("2025-02-18 12:54 ")) &&
                     !QToolTip::text().contains(QStringLiteral("12:54:30")),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    void opensOnTheFailure()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(m_index);
        const TimeRange r = w.zoomControl()->range();
        const std::int64_t abort = m_index->axisPos(line("gpu-b/rank5.log", 26));
        QVERIFY(r.start < abort && abort < r.end);
        QVERIFY(r.duration() < w.zoomControl()->fullRange().duration());
        // The abort's mark is on rank 5's lane, inside the lane area.
        auto pos = w.markPosition(line("gpu-b/rank5.log", 26));
        QVERIFY(pos);
        QVERIFY(pos->x() > w.labelWidth() && pos->x() < w.viewport()->width());
        const int row = w.layout().rowAt(pos->y() - w.axisHeight() + w.verticalScrollBar()->value());
        QCOMPARE(w.layout().row(row).kind, LaneRow::Lane);
        QCOMPARE(w.model()->lane(w.layout().row(row).index).label, QStringLiteral("rank 5"));
    }

    void clickSelectsAndTooltipShowsText()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(m_index);
        QSignalSpy activated(&w, &TimelineWidget::lineActivated);
        const LineRef abort = line("gpu-b/rank5.log", 26);
        const QPoint at = w.markPosition(abort)->toPoint();
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().at(0).value<LineRef>(), abort);
        QCOMPARE(*w.selectedLine(), abort);

        QHelpEvent help(QEvent::ToolTip, at, w.viewport()->mapToGlobal(at));
        QApplication::sendEvent(w.viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY(QToolTip::text().contains(QStringLiteral("Software caused connection abort")));
        QVERIFY(QToolTip::text().contains(QStringLiteral("aborted-retry")));
        QVERIFY(QToolTip::text().contains(QStringLiteral("gpu-b/rank5.log:26")));

        // Ctrl+click picks a second event without moving the selection.
        const LineRef other = line("gpu-b/rank4.log", 36);
        w.setSelectedLine(other); // brings it into view
        w.setSelectedLine(abort);
        QTest::mouseClick(w.viewport(), Qt::LeftButton, Qt::ControlModifier,
                          w.markPosition(other)->toPoint());
        QCOMPARE(*w.selectedLine(), abort);
        QVERIFY(w.pairedLine() && *w.pairedLine() == other);
        QCOMPARE(activated.count(), 1);

        // Double-click on a mark zooms in around it; on empty space, out to the whole run.
        const TimeRange before = w.zoomControl()->range();
        QTest::mouseDClick(w.viewport(), Qt::LeftButton, {}, w.markPosition(abort)->toPoint());
        QVERIFY(w.zoomControl()->range().duration() < before.duration());
        const std::int64_t t = m_index->axisPos(abort);
        QVERIFY(w.zoomControl()->range().start <= t && t <= w.zoomControl()->range().end);
        QTest::mouseDClick(w.viewport(), Qt::LeftButton, {}, QPoint(w.viewport()->width() - 20, 60));
        QCOMPARE(w.zoomControl()->range(), w.zoomControl()->fullRange());
    }

    void wheelZoomsAroundTheCursor()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(m_index);
        w.fitAll();
        const QPointF at(w.labelWidth() + 300, 150);
        const std::int64_t under = w.coords().toTime(at.x() - w.labelWidth());
        const std::int64_t before = w.zoomControl()->range().duration();
        QWheelEvent in(at, w.viewport()->mapToGlobal(at), {}, {0, 240}, Qt::NoButton, {}, Qt::NoScrollPhase,
                       false);
        QApplication::sendEvent(w.viewport(), &in);
        QVERIFY(w.zoomControl()->range().duration() < before);
        QVERIFY(std::abs(w.coords().toX(under) - (at.x() - w.labelWidth())) < 1.5);
        // Over the rank names the wheel scrolls the lanes instead.
        const TimeRange r = w.zoomControl()->range();
        const QPointF labels(20, 150);
        QWheelEvent scroll(labels, w.viewport()->mapToGlobal(labels), {}, {0, -120}, Qt::NoButton, {},
                           Qt::NoScrollPhase, false);
        QApplication::sendEvent(w.viewport(), &scroll);
        QCOMPARE(w.zoomControl()->range(), r);
    }

    void pinchZooms()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(m_index);
        w.fitAll();
        const std::int64_t before = w.zoomControl()->range().duration();
        const QPointF at(w.labelWidth() + 200, 150);
        QNativeGestureEvent pinch(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2, at, at,
                                  w.viewport()->mapToGlobal(at), 0.5, {});
        QApplication::sendEvent(w.viewport(), &pinch);
        const std::int64_t after = w.zoomControl()->range().duration();
        QVERIFY(std::abs(static_cast<double>(after) / static_cast<double>(before) - 1 / 1.5) < 0.01);
    }

    void zoomToAFinding()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        w.setIndex(m_index);
        const Analysis& a = m_index->analysis();
        for (std::size_t i = 0; i < a.findings.size(); ++i) {
            w.zoomToFinding(static_cast<int>(i));
            const TimeRange r = w.zoomControl()->range();
            for (const auto& e : a.findings[i].evidence) {
                const std::int64_t t = m_index->axisPos(e.where);
                QVERIFY2(r.start <= t && t <= r.end, qPrintable(QStringLiteral("finding %1").arg(i)));
            }
        }
        w.zoomToFinding(-1); // ignored
        w.zoomToFinding(999);
    }

    void dragOnTheAxisZoomsToTheRange()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(m_index);
        w.fitAll();
        const TimeCoords c = w.coords();
        const QPoint from(static_cast<int>(w.labelWidth()) + 200, 10),
            to(static_cast<int>(w.labelWidth()) + 400, 10);
        QTest::mousePress(w.viewport(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, to, w.viewport()->mapToGlobal(to), Qt::NoButton, Qt::LeftButton,
                         {});
        QApplication::sendEvent(w.viewport(), &move);
        QTest::mouseRelease(w.viewport(), Qt::LeftButton, {}, to);
        const TimeRange r = w.zoomControl()->range();
        QVERIFY(std::abs(r.start - c.toTime(200)) <= c.duration() / 1000);
        QVERIFY(std::abs(r.end - c.toTime(400)) <= c.duration() / 1000);
        // Backspace goes back to the whole run.
        QTest::keyClick(&w, Qt::Key_Backspace);
        QCOMPARE(w.zoomControl()->range(), w.zoomControl()->fullRange());
        // Keys zoom in and out through the same owner.
        QTest::keyClick(&w, Qt::Key_Plus);
        QVERIFY(std::abs(w.zoomControl()->range().duration() - w.zoomControl()->fullRange().duration() / 2) <=
                1);
        QTest::keyClick(&w, Qt::Key_Home);
        QCOMPARE(w.zoomControl()->range(), w.zoomControl()->fullRange());
    }

    void dragPansTime()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(m_index);
        const TimeRange before = w.zoomControl()->range();
        const QPoint from(static_cast<int>(w.labelWidth()) + 400, 120),
            to(static_cast<int>(w.labelWidth()) + 300, 120);
        QTest::mousePress(w.viewport(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, to, w.viewport()->mapToGlobal(to), Qt::NoButton, Qt::LeftButton,
                         {});
        QApplication::sendEvent(w.viewport(), &move);
        QTest::mouseRelease(w.viewport(), Qt::LeftButton, {}, to);
        const TimeRange after = w.zoomControl()->range();
        QCOMPARE(after.duration(), before.duration());
        QVERIFY(after.start > before.start); // dragged left: later times come into view
    }

    void hostsFold()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setIndex(m_index);
        QCOMPARE(w.layout().rowCount(), 10); // 2 hosts + 8 ranks
        // Clicking a host's name folds it; its ranks' marks move to its header row.
        const LaneRow host1 = w.layout().row(w.layout().rowOfHost(1));
        const double y = w.axisHeight() + host1.centerY() - w.verticalScrollBar()->value();
        QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, QPoint(30, static_cast<int>(y)));
        QVERIFY(w.isHostCollapsed(1));
        QCOMPARE(w.layout().rowCount(), 6);
        auto pos = w.markPosition(line("gpu-b/rank5.log", 26));
        QVERIFY(pos);
        const int row = w.layout().rowAt(pos->y() - w.axisHeight() + w.verticalScrollBar()->value());
        QCOMPARE(w.layout().row(row).kind, LaneRow::Host);
        w.setAllHostsCollapsed(false);
        QCOMPARE(w.layout().rowCount(), 10);
    }

    void keepsTheViewAcrossAReanalysis()
    {
        TimelineWidget w;
        w.resize(1000, 400);
        w.show();
        w.setIndex(m_index);
        w.zoomControl()->setRange({m_index->analysis().span.lo, m_index->analysis().span.lo + 5000000});
        w.setHostCollapsed(0, true);
        w.setSelectedLine(line("gpu-a/rank0.log", 39));
        const TimeRange r = w.zoomControl()->range();
        w.setIndex(m_index, TimelineWidget::ViewOnNewIndex::Keep);
        QCOMPARE(w.zoomControl()->range(), r);
        QVERIFY(w.isHostCollapsed(0));
        QVERIFY(w.selectedLine());
        w.setIndex(m_index);
        QVERIFY(!w.isHostCollapsed(0));
        QVERIFY(!w.selectedLine());
    }

    void overviewMovesTheRange()
    {
        TimelinePane pane;
        pane.resize(1000, 420);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.setIndex(m_index);
        TimelineOverview* o = pane.overview();
        QVERIFY(!o->density().counts.empty());
        std::uint64_t total = 0;
        for (auto n : o->density().counts)
            total += n;
        QCOMPARE(total, static_cast<std::uint64_t>(pane.timeline()->model()->markCount()));
        ZoomControl* z = pane.timeline()->zoomControl();
        z->setRange({z->fullRange().start, z->fullRange().start + z->fullRange().duration() / 10});
        // A click in the middle of the strip centres the visible range on the middle of the run.
        TimelineWidget* t = pane.timeline();
        const int stripRight =
            o->width() - static_cast<int>(t->rightMargin()) - t->verticalScrollBar()->sizeHint().width();
        const QPoint mid((static_cast<int>(t->labelWidth()) + stripRight) / 2, o->height() / 2);
        QTest::mouseClick(o, Qt::LeftButton, {}, mid);
        const TimeRange r = z->range();
        QCOMPARE(r.duration(), z->fullRange().duration() / 10);
        const std::int64_t centre = r.start + r.duration() / 2;
        const std::int64_t fullMid = z->fullRange().start + z->fullRange().duration() / 2;
        QVERIFY2(std::abs(centre - fullMid) < z->fullRange().duration() / 50,
                 qPrintable(QStringLiteral("%1 vs %2").arg(centre).arg(fullMid)));
    }

    void manyLanesWithoutAnAnalysis()
    {
        // The benchmark's path: a model built by hand, no text behind it; painting must not need one.
        auto m = std::make_shared<TimelineModel>();
        for (int h = 0; h < 32; ++h) {
            const int host = m->addHost(QStringLiteral("node-%1").arg(h));
            for (int g = 0; g < 8; ++g) {
                const int lane = m->addLane(host, QStringLiteral("rank %1").arg(h * 8 + g));
                for (int i = 0; i < 500; ++i) {
                    TimelineMark mk;
                    mk.pos = static_cast<std::int64_t>(i) * 1000003 % 600000000;
                    mk.event = static_cast<std::uint32_t>(i);
                    mk.tier = i % 97 == 0 ? MarkTier::Error : MarkTier::Warn;
                    m->laneTrack(lane).add(mk);
                }
            }
        }
        m->setSpan(0, 600000000, true);
        m->finish();
        TimelineWidget w;
        w.resize(1200, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setModel(m);
        QImage img(w.size(), QImage::Format_ARGB32_Premultiplied);
        w.render(&img);
        QVERIFY(w.geometryCache().builds() > 0);
        // Scrolling back to rows already built repaints them from the cache.
        QVERIFY(w.verticalScrollBar()->maximum() > 0); // 256 lanes do not fit
        w.verticalScrollBar()->setValue(300);
        w.render(&img);
        const std::size_t builds = w.geometryCache().builds();
        w.verticalScrollBar()->setValue(0);
        w.render(&img);
        w.verticalScrollBar()->setValue(300);
        w.render(&img);
        QCOMPARE(w.geometryCache().builds(), builds);
        QHelpEvent help(QEvent::ToolTip, QPoint(600, 100), w.viewport()->mapToGlobal(QPoint(600, 100)));
        QApplication::sendEvent(w.viewport(), &help); // no analysis: no crash, no text
    }

    // Of many hosts, only those where a finding has evidence or a collateral report stay when asked:
    // a host whose marks are all plain WARNs and errors goes, header and lanes.
    void onlyHostsWithFindings()
    {
        auto build = [](const std::vector<MarkTier>& tierOfHost) {
            auto m = std::make_shared<TimelineModel>();
            for (std::size_t h = 0; h < tierOfHost.size(); ++h) {
                const int host = m->addHost(QStringLiteral("node-%1").arg(h));
                for (int g = 0; g < 2; ++g) {
                    const int lane = m->addLane(host, QStringLiteral("rank %1").arg(h * 2 + g));
                    TimelineMark mk;
                    mk.pos = 1000 * static_cast<std::int64_t>(h + 1);
                    mk.tier = g == 0 ? tierOfHost[h] : MarkTier::Warn;
                    m->laneTrack(lane).add(mk);
                }
            }
            m->setSpan(0, 100000, true);
            m->finish();
            return m;
        };
        TimelinePane pane;
        pane.resize(1000, 420);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        TimelineWidget* w = pane.timeline();
        QAction* only = pane.onlyFindingsAction();
        QVERIFY(only);
        w->setModel(build({MarkTier::Collateral, MarkTier::Error, MarkTier::Evidence, MarkTier::Warn}));
        QCOMPARE(w->quietHostCount(), 2);
        QVERIFY(only->isEnabled());
        QCOMPARE(w->layout().rowCount(), 12); // 4 hosts + 8 ranks
        only->trigger();
        QVERIFY(w->quietHostsHidden());
        QCOMPARE(w->hiddenHostCount(), 2);
        QCOMPARE(w->layout().rowCount(), 6);
        QCOMPARE(w->layout().rowOfHost(1), -1);
        QCOMPARE(w->layout().rowOfLane(2), -1); // node-1's first rank
        QCOMPARE(w->layout().rowOfHost(2), 3);
        QVERIFY2(only->text().contains(QStringLiteral("2 hidden")), qPrintable(only->text()));
        // Folding still works on what is shown, and the setting holds for the next analysis.
        w->setHostCollapsed(2, true);
        QCOMPARE(w->layout().rowCount(), 4);
        w->setModel(build({MarkTier::Warn, MarkTier::Evidence, MarkTier::Warn}));
        QVERIFY(only->isChecked());
        QCOMPARE(w->hiddenHostCount(), 2);
        QCOMPARE(w->layout().rowCount(), 3);
        // No host has a finding's marks: nothing to keep, so nothing is left out.
        w->setModel(build({MarkTier::Warn, MarkTier::Error}));
        QCOMPARE(w->quietHostCount(), 0);
        QCOMPARE(w->hiddenHostCount(), 0);
        QCOMPARE(w->layout().rowCount(), 6);
        QVERIFY(!only->isEnabled());
        QCOMPARE(only->text(), QStringLiteral("Only hosts with findings"));
        only->setChecked(false);
        QVERIFY(!w->quietHostsHidden());
        // The sample incident: both hosts hold findings' marks.
        w->setIndex(m_index);
        QCOMPARE(w->quietHostCount(), 0);
    }
};

QTEST_MAIN(TestTimelineWidget)
#include "tst_timelinewidget.moc"
