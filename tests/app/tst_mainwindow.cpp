// The real window, offscreen: open the sample, read the finding panel, follow evidence links, click
// the timeline, drop a folder. A screenshot lands in the build folder for people to look at.
#include <QDir>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QUrl>

#include "models/logmodel.h"
#include "timeline/timelinewidget.h"
#include "window/findingpanel.h"
#include "window/mainwindow.h"

using namespace rl;

class TestMainWindow : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    LineRef sampleLine(const MainWindow& w, const QString& file, int oneBasedLine)
    {
        const Analysis& a = w.currentIndex()->analysis();
        for (const auto& s : a.sources)
            if (QString::fromStdString(s.displayPath) == file)
                return {s.id, static_cast<std::uint32_t>(oneBasedLine - 1)};
        qFatal("no such file in the sample");
    }

    int currentRow(const MainWindow& w) { return w.logView()->selectionModel()->currentIndex().row(); }

private slots:
    void initTestCase()
    {
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
        QVERIFY(enc.ok());
        m_enc = std::make_shared<const Encyclopedia>(std::move(*enc));
        QDir().mkpath(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots"));
    }

    void welcomeThenSample()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.currentIndex());
        auto* button = w.findChild<QPushButton*>(QStringLiteral("openSampleButton"));
        QVERIFY(button && button->isVisible());
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/welcome.png"));

        QSignalSpy ready(&w, &MainWindow::analysisReady);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(ready.wait(20000));
        QVERIFY(w.currentIndex());

        // Finding panel: the entry, the rank, the evaluated checklist, root cause, fix, versions.
        const QString text = w.findingPanel()->toPlainText();
        for (const char* s :
             {"INITIATING", "Software caused connection abort", "rank 5 (gpu-b", "first attempt was refused",
              "Confirmation checklist", "confirmed", "Root cause", "Fix", "NCCL versions", "2.18.3",
              "earliest-connect-failure", "aborted-retry", "observed"})
            QVERIFY2(text.contains(QLatin1String(s)), s);

        // The abort line is selected and highlighted; collateral rows are tinted too.
        LineRef abort = sampleLine(w, QStringLiteral("gpu-b/rank5.log"), 26);
        const int abortRow = w.currentIndex()->rowOf(abort);
        QCOMPARE(currentRow(w), abortRow);
        QAbstractItemModel* model = w.logView()->model();
        QCOMPARE(model->index(abortRow, 0).data(LogModel::EvidenceLabelRole).toString(),
                 QStringLiteral("earliest-connect-failure"));
        QVERIFY(model->index(abortRow, 0).data(Qt::BackgroundRole).isValid());
        LineRef collateral = sampleLine(w, QStringLiteral("gpu-b/rank4.log"), 36);
        QVERIFY(model->index(w.currentIndex()->rowOf(collateral), 0).data(Qt::BackgroundRole).isValid());
        LineRef plain = sampleLine(w, QStringLiteral("gpu-a/rank0.log"), 2);
        QVERIFY(!model->index(w.currentIndex()->rowOf(plain), 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(model->index(abortRow, LogModel::TextColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("misc/socket.cc:483")));

        QTest::qWait(100);
        QVERIFY(w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/mainwindow-sample.png")));

        // An evidence link selects its line in the log view and in the timeline.
        LineRef proxy = sampleLine(w, QStringLiteral("gpu-b/rank5.log"), 34);
        emit w.findingPanel()->anchorClicked(QUrl(FindingPanel::lineLink(proxy)));
        QCOMPARE(currentRow(w), w.currentIndex()->rowOf(proxy));
        QVERIFY(w.timeline()->selectedLine() && *w.timeline()->selectedLine() == proxy);

        // Clicking the abort's mark on the timeline selects its line again.
        auto pos = w.timeline()->markPosition(abort);
        QVERIFY(pos);
        QTest::mouseClick(w.timeline()->viewport(), Qt::LeftButton, {}, pos->toPoint());
        QCOMPARE(currentRow(w), abortRow);
    }

    void dropAFolder()
    {
        MainWindow w(m_enc);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        QMimeData mime;
        mime.setUrls(
            {QUrl::fromLocalFile(QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"))});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(ready.wait(20000));
        QCOMPARE(w.currentIndex()->analysis().processes.size(), std::size_t{8});
    }

    void nothingReadableSaysWhy()
    {
        MainWindow w(m_enc);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openPaths({QStringLiteral("/nonexistent/bundle")});
        QVERIFY(failed.wait(20000));
        const QString msg = failed.takeFirst().at(0).toString();
        QVERIFY(msg.contains(QStringLiteral("/nonexistent/bundle")));
        QVERIFY(msg.contains(QStringLiteral("no such file")));
    }

    // Log text is shown as text, never as markup.
    void logTextIsEscapedInThePanel()
    {
        auto enc = m_enc;
        Bundle b;
        b.sources.push_back(sourceFromText("x.log", "<img src=x> h:1:2 [0] misc/socket.cc:483 NCCL WARN "
                                                    "socketStartConnect: Connect to 10.0.0.1<1> failed : "
                                                    "Software caused connection abort\n"));
        b.sources[0].id = SourceId(0);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyze(std::move(b), enc, o);
        QString html = FindingPanel::renderHtml(*a);
        QVERIFY(!html.contains(QStringLiteral("<img src=x>")));
        QVERIFY(html.contains(QStringLiteral("&lt;img src=x&gt;")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
