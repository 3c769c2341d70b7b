#include <QTest>

#include "timeline/axisformat.h"
#include "timeline/lanelayout.h"
#include "timeline/timecoords.h"

using namespace rl;

class TestTimeCoords : public QObject
{
    Q_OBJECT
private slots:
    void mapping_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("width");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<double>("x");
        QTest::newRow("start") << qint64(1000) << qint64(2000) << 100.0 << qint64(1000) << 0.0;
        QTest::newRow("end") << qint64(1000) << qint64(2000) << 100.0 << qint64(2000) << 100.0;
        QTest::newRow("middle") << qint64(1000) << qint64(2000) << 100.0 << qint64(1500) << 50.0;
        QTest::newRow("before range") << qint64(1000) << qint64(2000) << 100.0 << qint64(0) << -100.0;
        QTest::newRow("after range") << qint64(1000) << qint64(2000) << 100.0 << qint64(3000) << 200.0;
        QTest::newRow("zero width") << qint64(1000) << qint64(2000) << 0.0 << qint64(1500) << 0.0;
        QTest::newRow("negative width") << qint64(1000) << qint64(2000) << -5.0 << qint64(1500) << 0.0;
        QTest::newRow("empty range") << qint64(5) << qint64(5) << 100.0 << qint64(5) << 0.0;
        QTest::newRow("epoch micros") << qint64(1749736996000000) << qint64(1749737596000000) << 1200.0
                                      << qint64(1749737296000000) << 600.0;
    }
    void mapping()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, width);
        QFETCH(qint64, t);
        QFETCH(double, x);
        TimeCoords c(start, end, width);
        QCOMPARE(c.toX(t), x);
    }

    void roundTrip_data()
    {
        QTest::addColumn<double>("x");
        QTest::newRow("0") << 0.0;
        QTest::newRow("17.5") << 17.5;
        QTest::newRow("799") << 799.0;
    }
    void roundTrip()
    {
        QFETCH(double, x);
        TimeCoords c(1749736996000000, 1749737596000000, 800);
        // One pixel is 750 ms here; the round trip must land within a microsecond-per-pixel step.
        QVERIFY(std::abs(c.toX(c.toTime(x)) - x) < 1e-3);
    }

    void zoomKeepsAnchorFixed()
    {
        TimeCoords c(0, 1000000, 1000);
        std::int64_t under = c.toTime(250);
        TimeCoords z = c.zoomed(0.5, 250);
        QCOMPARE(z.duration(), std::int64_t{500000});
        QVERIFY(std::abs(z.toX(under) - 250) < 1.0);
    }

    void zoomStopsAtMinimum()
    {
        TimeCoords c(0, 10000, 1000);
        QCOMPARE(c.zoomed(1e-9, 500, 1000).duration(), std::int64_t{1000});
    }

    void pan()
    {
        TimeCoords c(0, 1000, 100);
        TimeCoords p = c.panned(10);
        QCOMPARE(p.start(), std::int64_t{100});
        QCOMPARE(p.end(), std::int64_t{1100});
    }

    void ticks_data()
    {
        QTest::addColumn<qint64>("duration");
        QTest::addColumn<double>("width");
        QTest::addColumn<qint64>("step");
        QTest::newRow("10 min over 1000px, 100px apart") << qint64(600000000) << 1000.0 << qint64(100000000);
        QTest::newRow("1 s over 1000px") << qint64(1000000) << 1000.0 << qint64(100000);
        QTest::newRow("3 s over 1000px") << qint64(3000000) << 1000.0 << qint64(500000);
    }
    void ticks()
    {
        QFETCH(qint64, duration);
        QFETCH(double, width);
        QFETCH(qint64, step);
        QCOMPARE(tickStep(TimeCoords(0, duration, width), 100), step);
    }
    void clamp_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<qint64>("wantStart");
        QTest::addColumn<qint64>("wantEnd");
        // The run spans [1000, 2000); the narrowest view is 10.
        QTest::newRow("inside") << qint64(1200) << qint64(1300) << qint64(1200) << qint64(1300);
        QTest::newRow("whole run") << qint64(1000) << qint64(2000) << qint64(1000) << qint64(2000);
        QTest::newRow("wider than the run") << qint64(0) << qint64(5000) << qint64(1000) << qint64(2000);
        QTest::newRow("panned past the start") << qint64(900) << qint64(1000) << qint64(1000) << qint64(1100);
        QTest::newRow("panned past the end") << qint64(1950) << qint64(2050) << qint64(1900) << qint64(2000);
        QTest::newRow("entirely after the run")
            << qint64(9000) << qint64(9100) << qint64(1900) << qint64(2000);
        QTest::newRow("too narrow grows around its middle")
            << qint64(1500) << qint64(1502) << qint64(1496) << qint64(1506);
        QTest::newRow("empty") << qint64(1500) << qint64(1500) << qint64(1495) << qint64(1505);
        QTest::newRow("reversed") << qint64(1600) << qint64(1500) << qint64(1545) << qint64(1555);
    }
    void clamp()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(qint64, wantStart);
        QFETCH(qint64, wantEnd);
        const TimeRange r = clampRange({start, end}, {1000, 2000}, 10);
        QCOMPARE(r.start, wantStart);
        QCOMPARE(r.end, wantEnd);
    }

    void clampDegenerateRun()
    {
        // A run of one instant still gives a usable range, never one of zero length.
        const TimeRange r = clampRange({5, 5}, {7, 7}, 1000);
        QCOMPARE(r.start, std::int64_t{7});
        QCOMPARE(r.end, std::int64_t{8});
    }

    void zoomRangeKeepsAnchor_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<qint64>("anchor");
        QTest::newRow("in at a quarter") << 0.5 << qint64(250);
        QTest::newRow("out at the middle") << 2.0 << qint64(500);
        QTest::newRow("in at the start") << 0.1 << qint64(0);
        QTest::newRow("in at the end") << 0.1 << qint64(1000);
    }
    void zoomRangeKeepsAnchor()
    {
        QFETCH(double, factor);
        QFETCH(qint64, anchor);
        const TimeRange r{0, 1000};
        const TimeRange z = zoomRange(r, factor, anchor);
        QCOMPARE(z.duration(), static_cast<std::int64_t>(1000 * factor));
        const double before = static_cast<double>(anchor - r.start) / static_cast<double>(r.duration());
        const double after = static_cast<double>(anchor - z.start) / static_cast<double>(z.duration());
        QVERIFY2(std::abs(before - after) < 0.01,
                 qPrintable(QStringLiteral("%1 vs %2").arg(before).arg(after)));
    }

    void clockTicks_data()
    {
        QTest::addColumn<qint64>("duration");
        QTest::addColumn<double>("width");
        QTest::addColumn<qint64>("step");
        // At least 100 px apart, on steps a clock reader expects.
        QTest::newRow("10 min over 1000px: 1 min") << qint64(600000000) << 1000.0 << qint64(60000000);
        QTest::newRow("2 min over 1000px: 15 s") << qint64(120000000) << 1000.0 << qint64(15000000);
        QTest::newRow("1 s over 1000px: 100 ms") << qint64(1000000) << 1000.0 << qint64(100000);
        QTest::newRow("3 s over 1000px: 500 ms") << qint64(3000000) << 1000.0 << qint64(500000);
        QTest::newRow("40 us over 1000px: 5 us") << qint64(40) << 1000.0 << qint64(5);
        QTest::newRow("a day over 1000px: 6 h") << qint64(86400000000) << 1000.0 << qint64(21600000000);
        QTest::newRow("a year over 1000px: beyond the table")
            << qint64(31536000000000) << 1000.0 << qint64(86400000000) * 50;
        QTest::newRow("zero width: the whole range") << qint64(5000) << 0.0 << qint64(5000);
    }
    void clockTicks()
    {
        QFETCH(qint64, duration);
        QFETCH(double, width);
        QFETCH(qint64, step);
        QCOMPARE(clockTickStep(TimeCoords(0, duration, width), 100), step);
    }

    void firstTicks_data()
    {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<qint64>("first");
        QTest::newRow("on a tick") << qint64(10) << qint64(5) << qint64(10);
        QTest::newRow("between") << qint64(11) << qint64(5) << qint64(15);
        QTest::newRow("negative between") << qint64(-11) << qint64(5) << qint64(-10);
        QTest::newRow("negative on a tick") << qint64(-10) << qint64(5) << qint64(-10);
        QTest::newRow("zero") << qint64(0) << qint64(7) << qint64(0);
    }
    void firstTicks()
    {
        QFETCH(qint64, t);
        QFETCH(qint64, step);
        QFETCH(qint64, first);
        QCOMPARE(firstTick(t, step), first);
        // A merged-order axis has no line before the first: its ticks start at row 0 or later.
        QCOMPARE(firstLineTick(t, step), t < 0 ? qint64(0) : first);
    }

    void offsets_data()
    {
        QTest::addColumn<qint64>("us");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << qint64(1000000) << QStringLiteral("0");
        QTest::newRow("seconds") << qint64(2000000) << qint64(1000000) << QStringLiteral("+2 s");
        QTest::newRow("negative seconds")
            << qint64(-1000000) << qint64(1000000) << QStringLiteral("\u22121 s");
        QTest::newRow("half seconds") << qint64(1500000) << qint64(500000) << QStringLiteral("+1.5 s");
        QTest::newRow("tenths") << qint64(1500000) << qint64(1500000) << QStringLiteral("+1.5 s");
        QTest::newRow("milliseconds") << qint64(250000) << qint64(50000) << QStringLiteral("+250 ms");
        QTest::newRow("fractional ms") << qint64(2500) << qint64(500) << QStringLiteral("+2.5 ms");
        QTest::newRow("microseconds") << qint64(-20) << qint64(10) << QStringLiteral("\u221220 µs");
        QTest::newRow("minutes") << qint64(120000000) << qint64(60000000) << QStringLiteral("+2 min");
        QTest::newRow("minutes and seconds")
            << qint64(150000000) << qint64(60000000) << QStringLiteral("+2 min 30 s");
        QTest::newRow("far out, fine steps")
            << qint64(75250000) << qint64(50000) << QStringLiteral("+75.25 s");
        QTest::newRow("hours") << qint64(3900000000) << qint64(300000000) << QStringLiteral("+1 h 5 min");
    }
    void offsets()
    {
        QFETCH(qint64, us);
        QFETCH(qint64, step);
        QFETCH(QString, text);
        QCOMPARE(formatOffset(us, step), text);
    }

    void clock_data()
    {
        QTest::addColumn<qint64>("us");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("text");
        const qint64 t = 1749737000000000; // 2025-06-12 14:03:20 UTC
        QTest::newRow("whole seconds") << t << qint64(1000000) << QStringLiteral("14:03:20");
        QTest::newRow("milliseconds") << t + 250000 << qint64(50000) << QStringLiteral("14:03:20.250");
        QTest::newRow("microseconds") << t + 250120 << qint64(20) << QStringLiteral("14:03:20.250120");
        QTest::newRow("before 1970") << qint64(-1500) << qint64(500) << QStringLiteral("23:59:59.998500");
    }
    void clock()
    {
        QFETCH(qint64, us);
        QFETCH(qint64, step);
        QFETCH(QString, text);
        QCOMPARE(formatClock(us, step), text);
    }

    void laneRows_data()
    {
        QTest::addColumn<QList<bool>>("collapsed");
        QTest::addColumn<double>("y");
        QTest::addColumn<int>("row");
        // Two hosts: host 0 with lanes 0 1 2, host 1 with lanes 3 4; headers 20 px, lanes 10 px.
        QTest::newRow("first header") << QList<bool>{false, false} << 0.0 << 0;
        QTest::newRow("first lane") << QList<bool>{false, false} << 20.0 << 1;
        QTest::newRow("last lane of host 0") << QList<bool>{false, false} << 49.9 << 3;
        QTest::newRow("second header") << QList<bool>{false, false} << 50.0 << 4;
        QTest::newRow("last lane") << QList<bool>{false, false} << 89.0 << 6;
        QTest::newRow("beyond all rows") << QList<bool>{false, false} << 90.0 << -1;
        QTest::newRow("negative y") << QList<bool>{false, false} << -1.0 << -1;
        QTest::newRow("host 0 collapsed: second header") << QList<bool>{true, false} << 20.0 << 1;
        QTest::newRow("both collapsed: beyond") << QList<bool>{true, true} << 40.0 << -1;
    }
    void laneRows()
    {
        QFETCH(QList<bool>, collapsed);
        QFETCH(double, y);
        QFETCH(int, row);
        LaneLayout l;
        l.build({{0, 1, 2}, {3, 4}}, std::vector<bool>(collapsed.begin(), collapsed.end()), 20, 10);
        QCOMPARE(l.rowAt(y), row);
    }

    void laneLayoutLookups()
    {
        LaneLayout l;
        l.build({{0, 1, 2}, {3, 4}}, {true, false}, 20, 10);
        QCOMPARE(l.rowCount(), 4);
        QCOMPARE(l.contentHeight(), 60.0);
        QCOMPARE(l.rowOfLane(1), -1); // folded into host 0's header
        QCOMPARE(l.rowOfLane(3), 2);
        QCOMPARE(l.rowOfHost(1), 1);
        QCOMPARE(l.rowOfLane(99), -1);
        QCOMPARE(l.rowsIn(25, 45), std::make_pair(1, 3));
        QCOMPARE(l.rowsIn(-100, 1000), std::make_pair(0, 4));
        QCOMPARE(l.rowsIn(60, 100), std::make_pair(0, 0));
        // A hidden host has no rows at all; the hosts after it move up.
        LaneLayout hiding;
        hiding.build({{0, 1}, {2}, {3, 4}}, {false, false, true}, 20, 10, {true, false, false});
        QCOMPARE(hiding.rowCount(), 3); // host 1 and its lane, host 2 folded
        QCOMPARE(hiding.rowOfHost(0), -1);
        QCOMPARE(hiding.rowOfLane(0), -1);
        QCOMPARE(hiding.rowOfHost(1), 0);
        QCOMPARE(hiding.rowOfLane(2), 1);
        QCOMPARE(hiding.rowOfHost(2), 2);
        QCOMPARE(hiding.row(2).top, 30.0);
        QCOMPARE(hiding.contentHeight(), 50.0);
        LaneLayout empty;
        empty.build({}, {}, 20, 10);
        QCOMPARE(empty.rowAt(0), -1);
        QCOMPARE(empty.rowsIn(0, 100), std::make_pair(0, 0));
    }
};

QTEST_GUILESS_MAIN(TestTimeCoords)
#include "tst_timecoords.moc"
