// The one owner of the visible range: clamping, one announcement per change, history, actions.
#include <QAction>
#include <QSignalSpy>
#include <QTest>

#include "timeline/zoomcontrol.h"

using namespace rl;

class TestZoomControl : public QObject
{
    Q_OBJECT
private slots:
    void fullRangeIsShownFirst()
    {
        ZoomControl z;
        QSignalSpy changed(&z, &ZoomControl::rangeChanged);
        z.setFullRange({1000, 2000}, 10);
        QCOMPARE(z.range(), (TimeRange{1000, 2000}));
        QCOMPARE(changed.count(), 1);
        QVERIFY(!z.zoomOutAction()->isEnabled());
        QVERIFY(z.zoomInAction()->isEnabled());
        QVERIFY(!z.canGoBack());
    }

    void changesAreClampedAndAnnouncedOnce()
    {
        ZoomControl z;
        z.setFullRange({0, 1000}, 10);
        QSignalSpy changed(&z, &ZoomControl::rangeChanged);
        z.setRange({100, 200});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().at(0).value<TimeRange>(), (TimeRange{100, 200}));
        z.setRange({100, 200}); // no change, no signal
        QCOMPARE(changed.count(), 1);
        z.pan(-500); // stops at the start
        QCOMPARE(z.range(), (TimeRange{0, 100}));
        z.zoom(1e-6, 50); // stops at the narrowest
        QCOMPARE(z.range().duration(), std::int64_t{10});
        QVERIFY(!z.zoomInAction()->isEnabled());
        z.zoom(1e6, 50); // stops at the whole run
        QCOMPARE(z.range(), (TimeRange{0, 1000}));
        QCOMPARE(changed.count(), 4);
    }

    void zoomKeepsTheAnchor()
    {
        ZoomControl z;
        z.setFullRange({0, 1000000}, 10);
        z.zoom(0.5, 250000);
        QCOMPARE(z.range(), (TimeRange{125000, 625000}));
    }

    void backReturnsThroughJumpsOnly()
    {
        ZoomControl z;
        z.setFullRange({0, 1000}, 10);
        z.zoomTo({100, 300});
        z.setRange({120, 320}); // a pan: not remembered
        z.zoomTo({150, 160});
        QVERIFY(z.backAction()->isEnabled());
        z.back();
        QCOMPARE(z.range(), (TimeRange{120, 320}));
        z.back();
        QCOMPARE(z.range(), (TimeRange{0, 1000}));
        QVERIFY(!z.canGoBack());
        QVERIFY(!z.backAction()->isEnabled());
        z.back(); // nothing to go back to: harmless
        QCOMPARE(z.range(), (TimeRange{0, 1000}));
    }

    void actionsDriveTheRange()
    {
        ZoomControl z;
        z.setFullRange({0, 1000}, 10);
        z.zoomInAction()->trigger();
        QCOMPARE(z.range(), (TimeRange{250, 750}));
        z.zoomOutAction()->trigger();
        QCOMPARE(z.range(), (TimeRange{0, 1000}));
        z.zoomTo({10, 20});
        z.fitAction()->trigger();
        QCOMPARE(z.range(), (TimeRange{0, 1000}));
        z.backAction()->trigger();
        QCOMPARE(z.range(), (TimeRange{10, 20}));
    }

    void newRunForgetsHistory()
    {
        ZoomControl z;
        z.setFullRange({0, 1000}, 10);
        z.zoomTo({10, 20});
        z.setFullRange({5000, 6000}, 10);
        QVERIFY(!z.canGoBack());
        QCOMPARE(z.range(), (TimeRange{5000, 6000}));
    }
};

QTEST_MAIN(TestZoomControl) // QAction needs a GUI application
#include "tst_zoomcontrol.moc"
