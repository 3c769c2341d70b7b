// The real window, offscreen: open the sample, read the finding panel, follow evidence links, click
// the timeline, drop a folder. A screenshot lands in the build folder for people to look at.
#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUrl>

#include "models/bookmarks.h"
#include "models/logfiltermodel.h"
#include "models/logmodel.h"
#include "shipped_encyclopedia.h"
#include "timeline/timelinewidget.h"
#include "window/findingpanel.h"
#include "window/logpane.h"
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
        QStandardPaths::setTestModeEnabled(true); // the window keeps settings: not in the user's ~/.config
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
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
        // The text column leaves out the stamp the time column shows; View > Show Line Prefixes
        // brings it back, and is remembered.
        const QModelIndex plainText = model->index(w.currentIndex()->rowOf(plain), LogModel::TextColumn);
        auto* prefixes = w.findChild<QAction*>(QStringLiteral("actionShowPrefixes"));
        QVERIFY(prefixes && prefixes->isCheckable());
        const bool before = prefixes->isChecked();
        if (before)
            prefixes->trigger();
        QVERIFY(plainText.data().toString().startsWith(QStringLiteral("INFO train.py:41 [rank0] torch")));
        prefixes->trigger();
        QVERIFY(plainText.data().toString().startsWith(QStringLiteral("2025-06-12 14:03:10,355 INFO")));
        QCOMPARE(QSettings(QStringLiteral("Rankline"), QStringLiteral("Rankline"))
                     .value(QStringLiteral("view/showPrefixes"))
                     .toBool(),
                 true);
        if (!before)
            prefixes->trigger();

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

    // One node's folder of a two-node job: the panel opens with the ranks it lacks, the status bar
    // counts them. The whole sample shows neither.
    void partialBundleSaysSo()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto part = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4/gpu-a"}, m_enc, o);
        QVERIFY(part);
        const QString html = FindingPanel::renderHtml(*part);
        QVERIFY(html.contains(QStringLiteral("<p class='partial'>")));
        QVERIFY(html.contains(QStringLiteral("ranks 4–7 have no lines here")));
        auto whole = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}, m_enc, o);
        QVERIFY(!FindingPanel::renderHtml(*whole).contains(QStringLiteral("class='partial'")));

        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4/gpu-a")});
        QVERIFY(ready.wait(20000));
        bool counted = false;
        for (auto* label : w.statusBar()->findChildren<QLabel*>())
            counted |= label->text().contains(QStringLiteral("logs of 4 of 8 ranks")) &&
                       label->toolTip().contains(QStringLiteral("ranks 4–7 have no lines here"));
        QVERIFY(counted);
    }

    // Flight Recorder dumps: their sentence tops the finding panel and the status bar counts them,
    // also where the bundle holds no log beside them (a window, not "Nothing could be read"); the
    // re-analysis the clock settings start keeps them.
    void flightRecorderDumpsAreShown()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/flight-recorder/rank-behind"}, m_enc, o);
        QVERIFY(a);
        const QString html = FindingPanel::renderHtml(*a);
        QVERIFY(html.contains(QStringLiteral("<p class='flight'>")));
        QVERIFY(html.contains(QStringLiteral("which rank 2 never entered")));
        // Dumps without logs: said so, not "no known failure recognised" in zero lines.
        auto dumpsOnly = analyzePaths({RANKLINE_TEST_DATA_DIR "/flight-recorder/mismatch"}, m_enc, o);
        QVERIFY(dumpsOnly);
        const QString only = FindingPanel::renderHtml(*dumpsOnly);
        QVERIFY(only.contains(QStringLiteral("<h2>Flight Recorder dumps, no logs</h2>")));
        QVERIFY(!only.contains(QStringLiteral("No known failure recognised")));

        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        // The rank the hang waits for is marked in the rank list, with why in its tooltip.
        w.openPaths({QStringLiteral(RANKLINE_TEST_DATA_DIR "/flight-recorder/rank-behind")});
        QVERIFY(ready.wait(20000));
        auto* view = w.findChild<QTreeView*>(QStringLiteral("rankList"));
        QVERIFY(view);
        QStringList marked;
        QString tip;
        const QAbstractItemModel* model = view->model();
        for (int h = 0; h < model->rowCount(); ++h)
            for (int r = 0; r < model->rowCount(model->index(h, 0)); ++r) {
                const QModelIndex i = model->index(r, 0, model->index(h, 0));
                marked << i.data().toString();
                if (i.data().toString().startsWith(QStringLiteral("rank 2 ")))
                    tip = i.data(Qt::ToolTipRole).toString();
            }
        QVERIFY2(marked.contains(QStringLiteral("rank 2 ▲ suspect")),
                 qPrintable(marked.join(QLatin1Char('|'))));
        QVERIFY(marked.contains(QStringLiteral("rank 0 ● collateral")));
        QVERIFY2(tip.contains(QStringLiteral("Suspected: every reporting rank waits at SeqNum 42")),
                 qPrintable(tip));
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/rank-list-suspect.png"));

        w.openPaths({QStringLiteral(RANKLINE_TEST_DATA_DIR "/flight-recorder/mismatch")});
        QVERIFY(ready.wait(20000));
        auto counted = [&w] {
            for (auto* label : w.statusBar()->findChildren<QLabel*>())
                if (label->text().contains(QStringLiteral("4 Flight Recorder dumps")) &&
                    label->toolTip().contains(QStringLiteral("a collective mismatch")))
                    return true;
            return false;
        };
        QVERIFY(counted());
        AnalyzeOptions again;
        again.probeLocalNccl = false;
        again.clockOverrides.push_back({"gpu-a", 1000});
        w.reanalyze(again);
        QVERIFY(ready.wait(20000));
        QVERIFY(counted());
    }

    // The NCCL versions table names the version the dumps give, where no log line names one.
    void flightRecorderVersionInThePanel()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({QStringLiteral(RANKLINE_TEST_DATA_DIR "/flight-recorder/connect-abort-hang")});
        QVERIFY(ready.wait(20000));
        auto* panel = w.findChild<FindingPanel*>();
        QVERIFY(panel);
        const QString html = panel->toHtml();
        QVERIFY2(html.contains(QStringLiteral("Flight Recorder: ")) &&
                     html.contains(QStringLiteral("ranks 0–3")),
                 qPrintable(html));
        QVERIFY(panel->toPlainText().contains(QStringLiteral(
            "No version line in the logs; the Flight Recorder dumps say the job ran NCCL 2.21.5")));
        panel->scrollToAnchor(QStringLiteral("versions"));
        QVERIFY(w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/flight-recorder-version.png")));
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
    // Every model the window shows passes QAbstractItemModelTester while the log is filtered,
    // searched and bookmarked; the timeline follows the log's current line.
    void logPaneFiltersSearchesAndBookmarks()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAbstractItemModelTester logTester(w.logView()->model(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openSample();
        QVERIFY(ready.wait(20000));
        auto* ranks = w.findChild<QTreeView*>();
        QVERIFY(ranks);
        QAbstractItemModelTester rankTester(ranks->model(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);

        const Analysis& a = w.currentIndex()->analysis();
        const LineRef abort = sampleLine(w, QStringLiteral("gpu-b/rank5.log"), 26);
        LogPane* pane = w.logPane();
        QAbstractItemModel* m = w.logView()->model();
        LogFilter f;
        f.scope = LogFilter::Scope::Process;
        f.process = a.info(abort).process;
        pane->setFilter(f);
        QVERIFY(m->rowCount() > 10 && m->rowCount() < static_cast<int>(a.totalLines));
        for (int r = 0; r < m->rowCount(); ++r) {
            const QPoint ref = m->index(r, 0).data(LogModel::LineRefRole).toPoint();
            QCOMPARE(
                a.info({SourceId(static_cast<std::uint32_t>(ref.x())), static_cast<std::uint32_t>(ref.y())})
                    .process,
                f.process);
        }
        // The abort stayed current through the filter.
        QVERIFY(pane->currentLine() && *pane->currentLine() == abort);

        // Search: typed, counted, next selects the match and the timeline follows.
        pane->searchField()->setText(QStringLiteral("NCCL WARN"));
        QTRY_VERIFY(pane->filterModel()->matches().size() >= 2);
        pane->findNext();
        const LineRef found = *pane->currentLine();
        QVERIFY(QString::fromUtf8(a.text(found).data(), static_cast<qsizetype>(a.text(found).size()))
                    .contains(QStringLiteral("NCCL WARN")));
        QVERIFY(found != abort);
        QVERIFY(w.timeline()->selectedLine() && *w.timeline()->selectedLine() == found);
        pane->findPrevious();
        QCOMPARE(*pane->currentLine(), abort);

        // Bookmarks.
        pane->toggleBookmark();
        QVERIFY(w.bookmarks()->contains(abort));
        pane->view()->setFocus();
        QTest::keyClick(pane->view(), Qt::Key_B, Qt::ControlModifier);
        QVERIFY(!w.bookmarks()->contains(abort));
        w.bookmarks()->toggle(abort);

        // A line the filter hides: the nearest shown line is selected, and the status bar says so.
        QSignalSpy said(pane, &LogPane::message);
        w.selectLine(sampleLine(w, QStringLiteral("gpu-a/rank0.log"), 39));
        QCOMPARE(said.count(), 1);

        // ±3 lines of context from rank 5 around the abort, then everything again.
        pane->showContext(abort, 3);
        QCOMPARE(m->rowCount(), 7);
        QCOMPARE(*pane->currentLine(), abort);
        pane->clearFilters();
        QCOMPARE(m->rowCount(), static_cast<int>(a.totalLines));
        QVERIFY(w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/mainwindow-search.png")));
    }

    // A clock offset typed for a host, or two events pinned as simultaneous, re-run the diagnosis;
    // the view is kept, and a result overtaken by a newer request is never shown.
    void clockOverridesRerunTheDiagnosis()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openSample();
        QVERIFY(ready.wait(20000));
        const LineRef abort = sampleLine(w, QStringLiteral("gpu-b/rank5.log"), 26);
        auto hostClock = [&](const char* host) {
            for (const auto& h : w.currentIndex()->analysis().clock.hosts)
                if (h.host == host)
                    return h;
            return HostClock{};
        };

        emit w.timeline()->clockOffsetRequested(QStringLiteral("gpu-b"), 2500000);
        QVERIFY(ready.wait(20000));
        QCOMPARE(hostClock("gpu-b").offsetUs, std::int64_t{2500000});
        QVERIFY(hostClock("gpu-b").userSet);
        QCOMPARE(w.options().clockOverrides.size(), std::size_t{1});
        QCOMPARE(*w.logPane()->currentLine(), abort);
        QCOMPARE(w.timeline()->model()->host(1).clockOffsetUs, std::int64_t{2500000});
        QVERIFY(w.timeline()->model()->host(1).clockUserSet);

        // Two requests in a row: only the second result is shown.
        const int before = static_cast<int>(ready.count());
        emit w.timeline()->clockOffsetRequested(QStringLiteral("gpu-b"), 1000000);
        emit w.timeline()->clockOffsetRequested(QStringLiteral("gpu-b"), 3000000);
        QVERIFY(ready.wait(20000));
        QTest::qWait(300);
        QCOMPARE(static_cast<int>(ready.count()), before + 1);
        QCOMPARE(hostClock("gpu-b").offsetUs, std::int64_t{3000000});
        QCOMPARE(w.options().clockOverrides.size(), std::size_t{1});

        // Back to the estimate.
        emit w.timeline()->clockOffsetCleared(QStringLiteral("gpu-b"));
        QVERIFY(ready.wait(20000));
        QVERIFY(!hostClock("gpu-b").userSet);
        QVERIFY(w.options().clockOverrides.empty());

        // Two events on different hosts pinned as simultaneous.
        const LineRef watchdog = sampleLine(w, QStringLiteral("gpu-a/rank0.log"), 39);
        emit w.timeline()->pinRequested(watchdog, abort);
        QVERIFY(ready.wait(20000));
        QCOMPARE(w.options().pinnedLines.size(), std::size_t{1});
        bool pinned = false;
        for (const auto& h : w.currentIndex()->analysis().clock.hosts)
            for (const auto& b : h.basis)
                pinned |= b.find("pinned") != std::string::npos;
        QVERIFY(pinned);
        const TimeInterval ta = w.currentIndex()->analysis().info(watchdog).time;
        const TimeInterval tb = w.currentIndex()->analysis().info(abort).time;
        QVERIFY(ta.knownLo() && tb.knownLo());
        QVERIFY2(std::abs(ta.lo - tb.lo) < 1000000, qPrintable(QString::number(ta.lo - tb.lo)));

        emit w.timeline()->clockSettingsCleared();
        QVERIFY(ready.wait(20000));
        QVERIFY(w.options().pinnedLines.empty() && w.options().clockOverrides.empty());
    }

    // The rank list says who each process is, by which witness, and where witnesses disagreed.
    void rankListShowsIdentityAndConflicts()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/conflicts")});
        QVERIFY(ready.wait(20000));
        auto* view = w.findChild<QTreeView*>(QStringLiteral("rankList"));
        QVERIFY(view);
        const QAbstractItemModel* m = view->model();
        QCOMPARE(m->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Local"));
        QCOMPARE(m->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Identified by"));
        QVERIFY(!view->isColumnHidden(1)); // a path named a local rank
        // host rows, each with its rank row
        QMap<QString, QModelIndex> rankRow;
        for (int h = 0; h < m->rowCount(); ++h) {
            const QModelIndex host = m->index(h, 0);
            for (int r = 0; r < m->rowCount(host); ++r)
                rankRow[m->index(r, 0, host).data().toString()] = m->index(r, 0, host);
        }
        QVERIFY2(rankRow.contains(QStringLiteral("rank 5")),
                 qPrintable(rankRow.keys().join(QLatin1Char(','))));
        QVERIFY(rankRow.contains(QStringLiteral("rank 6")));
        const QModelIndex five = rankRow[QStringLiteral("rank 5")];
        QCOMPARE(five.siblingAtColumn(3).data().toString(), QStringLiteral("nccl-init ⚠"));
        QVERIFY(five.siblingAtColumn(3)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("file name rank3.log says rank 3; kept rank 5 from nccl-init")));
        const QModelIndex six = rankRow[QStringLiteral("rank 6")];
        QCOMPARE(six.siblingAtColumn(1).data().toString(), QStringLiteral("1")); // local rank, from the path
        QCOMPARE(six.siblingAtColumn(2).data().toString(), QStringLiteral("6006"));
        QVERIFY(
            six.siblingAtColumn(0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Rank 6 of 8")));
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/rank-list-conflicts.png"));
    }

    // nccl-tests' -g 4: a process each node, a rank each GPU. The rank list says the ranks each
    // process holds and, in its tooltip, each GPU's; the log's Rank column the rank of the GPU
    // whose thread printed the line.
    void oneProcessDrivingSeveralGpus()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/nccl-tests-g4")});
        QVERIFY(ready.wait(20000));
        auto* view = w.findChild<QTreeView*>(QStringLiteral("rankList"));
        QVERIFY(view);
        const QAbstractItemModel* m = view->model();
        QStringList rows;
        QString tip;
        for (int h = 0; h < m->rowCount(); ++h)
            for (int r = 0; r < m->rowCount(m->index(h, 0)); ++r) {
                const QModelIndex i = m->index(r, 0, m->index(h, 0));
                rows << i.data().toString();
                if (i.data().toString().startsWith(QStringLiteral("ranks 0–3")))
                    tip = i.data(Qt::ToolTipRole).toString();
            }
        QVERIFY2(rows.contains(QStringLiteral("ranks 0–3 ◆ initiating")),
                 qPrintable(rows.join(QLatin1Char('|'))));
        QVERIFY2(rows.contains(QStringLiteral("ranks 4–7 ● collateral")),
                 qPrintable(rows.join(QLatin1Char('|'))));
        QVERIFY2(tip.contains(QStringLiteral("One process driving 4 GPUs of a job of 8 ranks")) &&
                     tip.contains(QStringLiteral("GPU 2: rank 2")),
                 qPrintable(tip));
        // The connect abort (node-a.log:37) is GPU 2's line: rank 2, not the process's first rank.
        const QAbstractItemModel* log = w.logView()->model();
        bool found = false;
        for (int r = 0; r < log->rowCount() && !found; ++r)
            if (log->index(r, LogModel::SourceColumn).data().toString() == QStringLiteral("node-a.log:37")) {
                found = true;
                QCOMPARE(log->index(r, LogModel::RankColumn).data().toString(), QStringLiteral("2"));
            }
        QVERIFY(found);
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/rank-list-several-gpus.png"));
    }

    // A process of three GPUs whose lines say no rank (WARNs, no Init line): the list says its GPUs
    // in a label short enough that the PID stays in view beside it, the role after it, and the
    // tooltip says the whole.
    void rankListKeepsThePidInViewBesideALongLabel()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/one-process-gpus-unknown")});
        QVERIFY(ready.wait(20000));
        auto* view = w.findChild<QTreeView*>(QStringLiteral("rankList"));
        QVERIFY(view);
        const QAbstractItemModel* m = view->model();
        QCOMPARE(m->rowCount(), 1);
        const QModelIndex host = m->index(0, 0);
        QCOMPARE(m->rowCount(host), 1);
        const QModelIndex rank = m->index(0, 0, host);
        QCOMPARE(rank.data().toString(), QStringLiteral("? (GPUs 2, 5, 7) ◆ initiating"));
        const QString tip = rank.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(QStringLiteral("? (GPUs 2, 5, 7) ◆ initiating\n")) &&
                     tip.contains(QStringLiteral("One process driving GPUs 2, 5, 7")),
                 qPrintable(tip));
        QCOMPARE(m->index(0, 2, host).data().toString(), QStringLiteral("7310"));
        // The PID column (2; 1, the local rank, is hidden here) ends inside the list.
        QVERIFY(view->isColumnHidden(1));
        const int pidRight = view->columnViewportPosition(2) + view->columnWidth(2);
        QVERIFY2(
            pidRight <= view->viewport()->width(),
            qPrintable(
                QStringLiteral("PID column ends at %1 of %2").arg(pidRight).arg(view->viewport()->width())));
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/rank-list-gpus-unknown.png"));
    }

    // A process driving two GPUs whose proxy WARN names the rank of one (GPU 2): the list says that
    // rank, and its tooltip which GPU holds it and that no line says the other's.
    void rankListSaysWhichGpuTheRankIsOn()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath(QStringLiteral("run.log")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("gpu-box:7310:7402 [2] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
                "10.1.4.21<40231> failed : Software caused connection abort\n"
                "gpu-box:7310:7402 [2] NCCL INFO misc/socket.cc:564 -> 2\n"
                "gpu-box:7310:7402 [2] proxy.cc:1519 NCCL WARN [Proxy Service 6] Failed to execute operation "
                "Connect from rank 6, retcode 2\n"
                "gpu-box:7310:7405 [5] NCCL INFO Channel 00/0 : 7[5] -> 6[2] via P2P/IPC\n");
        f.close();
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({dir.path()});
        QVERIFY(ready.wait(20000));
        auto* view = w.findChild<QTreeView*>(QStringLiteral("rankList"));
        QVERIFY(view);
        const QAbstractItemModel* m = view->model();
        const QModelIndex rank = m->index(0, 0, m->index(0, 0));
        QCOMPARE(rank.data().toString(), QStringLiteral("rank 6 ◆ initiating"));
        const QString tip = rank.data(Qt::ToolTipRole).toString();
        QVERIFY2(
            tip.contains(QStringLiteral("One process driving GPUs 2, 5 (its lines' NCCL prefixes); GPU 2 is "
                                        "rank 6, and no line says the other GPUs' ranks")),
            qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Identified by: nccl-proxy")), qPrintable(tip));
    }

    // The rank list follows the selected line: on opening, the initiating rank (far down a list of
    // three hundred, where it was left out of view at rank 0 before); then the rank of a line
    // chosen in the log.
    void rankListFollowsTheSelectedLine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 300; ++r) {
            QByteArray text = QStringLiteral("h%1:%2:%3 [0] NCCL INFO Bootstrap : Using eth0:10.0.%1.%4<0>\n")
                                  .arg(r / 8)
                                  .arg(100 + r)
                                  .arg(200 + r)
                                  .arg(r % 8 + 1)
                                  .toUtf8();
            if (r == 250)
                text += "h31:350:450 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                        "10.0.0.1<43567> failed : Software caused connection abort\n";
            QVERIFY(
                appendTo(dir.filePath(QStringLiteral("rank%1.log").arg(r, 3, 10, QLatin1Char('0'))), text));
        }
        MainWindow w(m_enc);
        QVERIFY(shown(w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({dir.path()});
        QVERIFY(ready.wait(20000));
        QVERIFY(w.currentIndex()->analysis().initiatingFinding());
        auto* view = w.findChild<QTreeView*>(QStringLiteral("rankList"));
        QVERIFY(view);
        auto shownRank = [view] {
            const QModelIndex current = view->currentIndex();
            QVERIFY2(view->viewport()->rect().contains(view->visualRect(current)),
                     "the current rank is out of view");
            QVERIFY(view->selectionModel()->isSelected(current));
        };
        QCOMPARE(view->currentIndex().siblingAtColumn(0).data().toString(),
                 QStringLiteral("rank 250 ◆ initiating"));
        shownRank();

        // A line of rank 3's, as the log pane reports a click.
        const Analysis& a = w.currentIndex()->analysis();
        std::optional<LineRef> three;
        for (std::size_t s = 0; s < a.sources.size() && !three; ++s)
            if (a.sources[s].displayPath == "rank003.log")
                three = LineRef{SourceId(static_cast<std::uint32_t>(s)), 0};
        QVERIFY(three);
        emit w.findChild<LogPane*>()->lineSelected(*three);
        QCOMPARE(view->currentIndex().siblingAtColumn(0).data().toString(), QStringLiteral("rank 3"));
        shownRank();
    }

    // A torchrun tree: the latest attempt by default; the View menu brings the earlier ones in.
    void earlierTorchrunAttemptsOnRequest()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        auto* all = w.findChild<QAction*>(QStringLiteral("actionAllAttempts"));
        QVERIFY(all && all->isCheckable() && !all->isChecked());
        w.openPaths({QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/torchrun")});
        QVERIFY(ready.wait(20000));
        auto attemptZero = [&w] {
            int n = 0;
            for (const auto& s : w.currentIndex()->analysis().sources)
                n += s.displayPath.find("attempt_0/") != std::string::npos;
            return n;
        };
        QCOMPARE(attemptZero(), 0);
        const auto& skipped = w.currentIndex()->analysis().skipped;
        QVERIFY(std::any_of(skipped.begin(), skipped.end(), [](const Skipped& s) {
            return s.reason.find("View > Include Earlier Attempts") != std::string::npos;
        }));
        all->trigger();
        QVERIFY(ready.wait(20000));
        QVERIFY(w.options().allAttempts);
        QCOMPARE(attemptZero(), 1);
        QVERIFY(w.currentIndex()->analysis().skipped.empty());
        bool listed = false;
        const QAbstractItemModel* m = w.findChild<QTreeView*>(QStringLiteral("rankList"))->model();
        for (int h = 0; h < m->rowCount(); ++h)
            for (int r = 0; r < m->rowCount(m->index(h, 0)); ++r)
                listed |=
                    m->index(r, 0, m->index(h, 0)).data().toString().contains(QStringLiteral("(attempt 0)"));
        QVERIFY(listed);
        all->trigger(); // and back
        QVERIFY(ready.wait(20000));
        QCOMPARE(attemptZero(), 0);
    }

    // Thirty ranks fail alike, a finding each (one initiating, 29 context): the finding filter names
    // each one's process, lists twenty of a kind and counts the rest in an item that cannot be chosen.
    void findingFilterWithManyAlikeFindings()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 30; ++r)
            QVERIFY(
                appendTo(dir.filePath(QStringLiteral("rank%1.log").arg(r, 2, 10, QLatin1Char('0'))),
                         QStringLiteral("h%1:%2:%3 [0] misc/socket.cc:586 NCCL WARN socketPollConnect poll() "
                                        "returned 1, no POLLOUT events\n")
                             .arg(r / 8)
                             .arg(100 + r)
                             .arg(200 + r)
                             .toUtf8()));
        MainWindow w(m_enc);
        QVERIFY(shown(w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openPaths({dir.path()});
        QVERIFY(ready.wait(20000));
        QCOMPARE(w.currentIndex()->analysis().findings.size(), std::size_t{30});
        auto* findings = w.findChild<QComboBox*>(QStringLiteral("findingFilter"));
        QVERIFY(findings);
        QCOMPARE(findings->count(), 1 + 1 + 20 + 1); // any, the initiating, twenty context, the count
        QVERIFY(findings->itemText(1).endsWith(QStringLiteral("— rank 0 (h0:100)")));
        QVERIFY(findings->itemText(2).endsWith(QStringLiteral("— rank 1 (h0:101)")));
        const QString more = findings->itemText(22);
        QVERIFY2(more.startsWith(QStringLiteral("… 9 more context findings")), qPrintable(more));
        auto* model = qobject_cast<QStandardItemModel*>(findings->model());
        QVERIFY(model && !model->item(22)->isEnabled() && model->item(21)->isEnabled());
        findings->showPopup();
        QTest::qWait(50);
        QVERIFY(findings->view()->window()->grab().save(
            QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/finding-filter-many.png")));
        findings->hidePopup();
    }

    // A log still being written: a re-analysis sees that a file has grown since it was opened and
    // offers to read it again; reloading (the button, or F5) takes in the new lines and keeps the view.
    void grownFilesOfferReload()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copySample(dir.path()));
        MainWindow w(m_enc);
        QVERIFY(shown(w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        auto* reloadAction = w.findChild<QAction*>(QStringLiteral("actionReload"));
        auto* reloadButton = w.findChild<QPushButton*>(QStringLiteral("reloadButton"));
        QVERIFY(reloadAction && reloadButton);
        QVERIFY(!reloadAction->isEnabled());
        w.openPaths({dir.path()});
        QVERIFY(ready.wait(20000));
        QVERIFY(reloadAction->isEnabled());
        QVERIFY(!reloadButton->isVisible());
        const std::uint64_t linesBefore = w.currentIndex()->analysis().totalLines;
        const std::optional<LineRef> viewed = w.logPane()->currentLine();
        QVERIFY(viewed);

        QVERIFY(appendTo(dir.filePath(QStringLiteral("gpu-a/rank0.log")), kRefusedLine));
        // Any re-analysis of the sources already read looks at their files again.
        emit w.timeline()->clockOffsetRequested(QStringLiteral("gpu-b"), 1000000);
        QVERIFY(ready.wait(20000));
        QCOMPARE(w.currentIndex()->analysis().grown.size(), std::size_t{1});
        QVERIFY(reloadButton->isVisible());
        QVERIFY2(reloadButton->text().contains(QStringLiteral("a file grew")),
                 qPrintable(reloadButton->text()));
        QVERIFY(reloadButton->toolTip().contains(QStringLiteral("gpu-a/rank0.log")));
        QCOMPARE(w.currentIndex()->analysis().totalLines, linesBefore); // as opened
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/grown-files-reload.png"));

        QTest::mouseClick(reloadButton, Qt::LeftButton);
        QVERIFY(ready.wait(20000));
        QVERIFY(!reloadButton->isVisible());
        QVERIFY(w.currentIndex()->analysis().grown.empty());
        QCOMPARE(w.currentIndex()->analysis().totalLines, linesBefore + 1);
        QCOMPARE(*w.logPane()->currentLine(), *viewed);              // the view is kept
        QCOMPARE(w.options().clockOverrides.size(), std::size_t{1}); // and the clock settings

        // F5 reads the files again too.
        QVERIFY(appendTo(dir.filePath(QStringLiteral("gpu-a/rank0.log")), kRefusedLine));
        reloadAction->trigger();
        QVERIFY(ready.wait(20000));
        QCOMPARE(w.currentIndex()->analysis().totalLines, linesBefore + 2);
    }

    // "Only hosts with findings" is a way of looking, kept from one session to the next.
    void onlyHostsWithFindingsIsRemembered()
    {
        auto onlyFindings = [](const MainWindow& w) {
            return w.findChild<QAction*>(QStringLiteral("actionOnlyHostsWithFindings"));
        };
        {
            MainWindow w(m_enc);
            QVERIFY(shown(w));
            QVERIFY(onlyFindings(w));
            QVERIFY(!w.timeline()->quietHostsHidden());
            w.timeline()->setQuietHostsHidden(true);
            QVERIFY(onlyFindings(w)->isChecked());
            w.close();
        }
        {
            MainWindow w(m_enc);
            QVERIFY(w.timeline()->quietHostsHidden());
            QVERIFY(onlyFindings(w)->isChecked());
            onlyFindings(w)->setChecked(false);
            QVERIFY(!w.timeline()->quietHostsHidden());
            w.close();
        }
        MainWindow w(m_enc);
        QVERIFY(!w.timeline()->quietHostsHidden());
    }

private:
    // A line a rank still running writes after the bundle was read.
    static inline const QByteArray kRefusedLine =
        "gpu-a:2311:2390 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect "
        "to 10.10.0.12<37719> failed : Connection refused\n";

    // At the end of `path`, made if missing.
    static bool appendTo(const QString& path, const QByteArray& bytes)
    {
        QFile f(path);
        return f.open(QIODevice::Append) && f.write(bytes) == bytes.size();
    }

    static bool shown(MainWindow& w)
    {
        w.resize(1400, 860);
        w.show();
        return QTest::qWaitForWindowExposed(&w);
    }

    // The sample's files, to be changed by a test.
    static bool copySample(const QString& to)
    {
        const QString sample = QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4");
        QDirIterator it(sample, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString from = it.next();
            const QString copy = QDir(to).filePath(QDir(sample).relativeFilePath(from));
            if (!QDir().mkpath(QFileInfo(copy).path()) || !QFile::copy(from, copy))
                return false;
        }
        return true;
    }

private slots:
    // Files that change after the bundle is shown (a job still running): the window notices on its
    // own and offers a reload, names each file and what became of it, and stops when told to.
    void watchedFilesOfferReload()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copySample(dir.path()));
        MainWindow w(m_enc);
        QVERIFY(shown(w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        auto* watch = w.findChild<QAction*>(QStringLiteral("actionWatchFiles"));
        auto* reloadButton = w.findChild<QPushButton*>(QStringLiteral("reloadButton"));
        QVERIFY(watch && reloadButton);
        watch->setChecked(true);
        w.openPaths({dir.path()});
        QVERIFY(ready.wait(20000));
        const std::uint64_t linesBefore = w.currentIndex()->analysis().totalLines;
        w.checkFilesOnDisk();
        QTest::qWait(300);
        QVERIFY(w.filesChangedOnDisk().empty());
        QVERIFY(!reloadButton->isVisible());

        QVERIFY(appendTo(dir.filePath(QStringLiteral("gpu-a/rank0.log")), kRefusedLine));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("gpu-b/rank7.log"))));
        // A rank that starts writing later, on a node of its own.
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("gpu-c")));
        QVERIFY(appendTo(dir.filePath(QStringLiteral("gpu-c/rank8.log")), kRefusedLine));
        // Unprompted: the first look comes a second after the bundle is shown, then every few.
        QTRY_VERIFY_WITH_TIMEOUT(reloadButton->isVisible(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(w.filesChangedOnDisk().size(), std::size_t{2}, 10000);
        QCOMPARE(w.filesAddedOnDisk(), std::vector<std::string>{"gpu-c/rank8.log"});
        QVERIFY2(reloadButton->text().contains(QStringLiteral("2 files changed since read, a new file")),
                 qPrintable(reloadButton->text()));
        const QString tip = reloadButton->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("gpu-a/rank0.log grew by %1 bytes").arg(kRefusedLine.size())),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("gpu-b/rank7.log was deleted")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("not in the diagnosis:\n• gpu-c/rank8.log")), qPrintable(tip));
        QCOMPARE(w.currentIndex()->analysis().totalLines, linesBefore); // nothing reread unasked
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/watched-files-reload.png"));

        // Off: the offer goes, and no look comes back with it.
        watch->setChecked(false);
        QVERIFY(!reloadButton->isVisible());
        QTest::qWait(1500);
        QVERIFY(!reloadButton->isVisible());
        // On again: looked at at once.
        watch->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(reloadButton->isVisible(), 5000);

        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(ready.wait(20000));
        QVERIFY(!reloadButton->isVisible());
        QVERIFY(w.filesChangedOnDisk().empty());
        QVERIFY(w.filesAddedOnDisk().empty());
        const Analysis& again = w.currentIndex()->analysis();
        // The deleted file is gone from the bundle, the new one in it.
        QCOMPARE(again.sources.size(), std::size_t{8});
        std::uint64_t rank7Lines = 0;
        for (const Source& src : w.currentIndex()->analysis().sources)
            if (src.displayPath == "gpu-b/rank7.log")
                rank7Lines = src.lineCount();
        QCOMPARE(rank7Lines, std::uint64_t{0});
        w.checkFilesOnDisk();
        QTest::qWait(300);
        QVERIFY(!reloadButton->isVisible());
        // Only a new file: the offer says so.
        QVERIFY(QFile(dir.filePath(QStringLiteral("gpu-c/rank9.log"))).open(QIODevice::WriteOnly));
        w.checkFilesOnDisk();
        QTRY_VERIFY_WITH_TIMEOUT(reloadButton->isVisible(), 5000);
        QCOMPARE(reloadButton->text(), QStringLiteral("Reload — a new file in the bundle's folders"));
        w.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/watched-files-new-file.png"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
