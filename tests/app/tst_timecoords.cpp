#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestTimeCoords)
#include "tst_timecoords.moc"
