// Hostile bundles in the window: it must stay usable, not only correct.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

#include "hostile_util.h"
#include "window/findingpanel.h"
#include "window/mainwindow.h"

using namespace rl;

class TestHostileWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        QVERIFY(hostile::encyclopedia());
    }

    // 50,000 skipped files once froze the window for minutes laying out a 50,000-item list.
    void fiftyThousandSkippedFiles()
    {
        hostile::Bundle b;
        QVERIFY(QDir().mkpath(b.path(QStringLiteral("empty"))));
        const QByteArray dir = b.local(QStringLiteral("empty/"));
        for (int i = 0; i < 50000; ++i) {
            int fd = ::open((dir + QByteArray::number(i) + ".log").constData(), O_WRONLY | O_CREAT, 0644);
            QVERIFY(fd >= 0);
            ::close(fd);
        }
        MainWindow w(hostile::encyclopedia());
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        QElapsedTimer t;
        t.start();
        w.openPaths({b.root()});
        QVERIFY(ready.wait(60000));
        qInfo("the window showed the bundle in %lld ms", static_cast<long long>(t.elapsed()));
        QVERIFY(t.elapsed() < 20000);
        QVERIFY(hostile::sampleDiagnosed(w.currentIndex()->analysis()));
        const QString panel = w.findingPanel()->toPlainText();
        QVERIFY(panel.contains(QStringLiteral("49950 more files: empty file: nothing to read")));
        QVERIFY(panel.contains(QStringLiteral("rankline diagnose --json lists every skipped file")));
    }

    // Nothing readable at all: the message names the first files and counts the rest.
    void nothingReadableAmongThousands()
    {
        QTemporaryDir dir;
        const QByteArray path = dir.path().toLocal8Bit() + "/";
        for (int i = 0; i < 5000; ++i) {
            int fd = ::open((path + QByteArray::number(i) + ".log").constData(), O_WRONLY | O_CREAT, 0644);
            QVERIFY(fd >= 0);
            ::close(fd);
        }
        MainWindow w(hostile::encyclopedia());
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openPaths({dir.path()});
        QVERIFY(failed.wait(60000));
        const QString msg = failed.takeFirst().at(0).toString();
        QVERIFY(msg.contains(QStringLiteral("empty file")));
        QVERIFY(msg.contains(QStringLiteral("… and 4980 more")));
        QVERIFY(msg.count(QLatin1Char('\n')) < 30);
    }
};

QTEST_MAIN(TestHostileWindow)
#include "tst_hostile_window.moc"
