// The encyclopedia browser with no bundle open (list, search by a pasted log line, entry pages,
// links, the "NCCL errors side by side" table) and the finding panel's competing hypotheses and
// entry links on the sample incident. Screenshots land in the build folder for people to look at.
#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>

#include <set>

#include "encyclopedia/entrysearch.h"
#include "encyclopedia/entrytext.h"
#include "encyclopedia/errortablemodel.h"
#include "models/logmodel.h"
#include "shipped_encyclopedia.h"
#include "window/encyclopediabrowser.h"
#include "window/findingpanel.h"
#include "window/mainwindow.h"

using namespace rl;

namespace
{

const QString kShots = QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/");

// True when `html` renders to a document with no image and shows the markup as text.
bool rendersAsText(const QString& html)
{
    QTextDocument doc;
    doc.setHtml(html);
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat())
                return false;
    return doc.toPlainText().contains(QStringLiteral("<img src=x>"));
}

// Clicks the link whose visible text is `text` in `browser`, as a user would.
bool clickLink(QTextBrowser* browser, const QString& text)
{
    QTextCursor c = browser->document()->find(text);
    if (c.isNull() || !c.charFormat().isAnchor())
        return false;
    QTextCursor mid = c;
    mid.setPosition(c.selectionStart() + 1);
    browser->setTextCursor(mid);
    browser->ensureCursorVisible();
    const QPoint p = browser->cursorRect(mid).center();
    QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, p);
    return true;
}

} // namespace

class TestEncyclopediaBrowser : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    // The finding panel's text for a one-file bundle holding `log`.
    QString panelText(const std::string& log)
    {
        Bundle bundle;
        bundle.sources.push_back(sourceFromText("x.log", log));
        bundle.sources[0].id = SourceId(0);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyze(std::move(bundle), m_enc, o);
        QTextDocument doc;
        doc.setHtml(FindingPanel::renderHtml(*a));
        return doc.toPlainText();
    }

    // An entry whose every text field carries markup, as a hostile or careless entry could.
    std::shared_ptr<const Encyclopedia> hostile()
    {
        auto enc = loadEncyclopedia(RANKLINE_TEST_DATA_DIR "/encyclopedia-hostile");
        if (!enc)
            qFatal("hostile entry: %s", enc.error().message().c_str());
        return std::make_shared<const Encyclopedia>(std::move(*enc));
    }

private slots:
    void initTestCase()
    {
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
        QDir().mkpath(kShots);
    }

    void listsEveryEntryByLayer()
    {
        EncyclopediaBrowser b(m_enc);
        std::set<QString> listed, known;
        for (const QString& id : b.listedEntries())
            QVERIFY2(listed.insert(id).second, qPrintable(id));
        for (const Entry& e : m_enc->entries)
            known.insert(QString::fromStdString(e.id));
        QCOMPARE(listed, known);
        QCOMPARE(listed.size(), std::size_t{49});
        // The first page is the overview: every entry, linked.
        QVERIFY(b.currentEntry().isEmpty());
        const QString overview = b.page()->toHtml();
        for (const QString& id : known)
            QVERIFY2(overview.contains(QStringLiteral("href=\"rankline:entry/") + id + QLatin1Char('"')),
                     qPrintable(id));
        // Top-level items are the layers, every entry sits under its own.
        std::set<std::string> categories;
        for (const Entry& e : m_enc->entries)
            categories.insert(e.category);
        QCOMPARE(b.entryList()->topLevelItemCount(), static_cast<int>(categories.size()));
        for (int i = 0; i < b.entryList()->topLevelItemCount(); ++i) {
            QTreeWidgetItem* group = b.entryList()->topLevelItem(i);
            for (int c = 0; c < group->childCount(); ++c) {
                const Entry* e =
                    m_enc->find(group->child(c)->data(0, Qt::UserRole + 1).toString().toStdString());
                QVERIFY(e);
                QVERIFY(group->text(0).startsWith(layerName(e->category)));
            }
        }
    }

    void searchFindsTheEntryOfALogLine_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("first");
        QTest::newRow("pasted abort line")
            << "socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort"
            << "nccl-socket-connect-abort";
        QTest::newRow("abort with NCCL prefix")
            << "gpu-b:39962:40075 [1] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
               "10.0.0.11<45763> failed : Software caused connection abort"
            << "nccl-socket-connect-abort";
        QTest::newRow("watchdog line from the sample")
            << "[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: "
               "WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
               "600338 milliseconds before timing out."
            << "torch-watchdog-timeout";
        QTest::newRow("two lines, one known")
            << "some unrelated text\nNCCL WARN Duplicate GPU detected : rank 1 "
               "and rank 0 both on CUDA device 1000"
            << "nccl-duplicate-gpu";
        QTest::newRow("a word of the title") << "watchdog"
                                             << "torch-watchdog-timeout";
        QTest::newRow("an id") << "nccl-shm-exhausted"
                               << "nccl-shm-exhausted";
    }

    void searchFindsTheEntryOfALogLine()
    {
        QFETCH(QString, query);
        QFETCH(QString, first);
        EncyclopediaBrowser b(m_enc);
        b.search(query);
        const QStringList listed = b.listedEntries();
        QVERIFY2(!listed.isEmpty(), qPrintable(query));
        QCOMPARE(listed.front(), first);
        // The best match is shown at once, and says why it matched.
        QCOMPARE(b.currentEntry(), first);
        QVERIFY(b.page()->toPlainText().contains(QStringLiteral("Found by your search")));
    }

    // Every real sample line of every entry finds its entry.
    void everySampleFindsItsEntry()
    {
        EntrySearch search(m_enc);
        for (const Entry& e : m_enc->entries)
            for (const Symptom& s : e.symptoms)
                for (const std::string& sample : s.samples) {
                    const auto matches = search.search(QString::fromStdString(sample));
                    const bool found = std::any_of(matches.begin(), matches.end(), [&](const EntryMatch& m) {
                        return m_enc->entries[static_cast<std::size_t>(m.entry)].id == e.id;
                    });
                    QVERIFY2(found, (e.id + ": " + sample).c_str());
                }
    }

    void searchByWordsAndBack()
    {
        EncyclopediaBrowser b(m_enc);
        b.search(QStringLiteral("ECONNABORTED"));
        QVERIFY(b.listedEntries().contains(QStringLiteral("nccl-socket-connect-abort")));
        b.search(QStringLiteral("zzqx qxvw jjkq"));
        QVERIFY(b.listedEntries().isEmpty());
        b.search(QString());
        QCOMPARE(b.listedEntries().size(), 49);
    }

    void relatedLinksNavigate()
    {
        EncyclopediaBrowser b(m_enc);
        b.resize(1280, 840);
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        QVERIFY(b.showEntry(QStringLiteral("nccl-socket-connect-abort")));
        QVERIFY(!b.showEntry(QStringLiteral("no-such-entry")));
        QCOMPARE(b.currentEntry(), QStringLiteral("nccl-socket-connect-abort"));
        const Entry* related = m_enc->find("nccl-peer-connection-lost");
        QVERIFY(related);

        QSignalSpy shown(&b, &EncyclopediaBrowser::entryShown);
        QVERIFY(clickLink(b.page(), QString::fromStdString(related->title)));
        QCOMPARE(b.currentEntry(), QStringLiteral("nccl-peer-connection-lost"));
        QCOMPARE(shown.size(), 1);
        // The list follows, and history goes back and forth.
        QCOMPARE(b.entryList()->currentItem()->data(0, Qt::UserRole + 1).toString(),
                 QStringLiteral("nccl-peer-connection-lost"));
        b.back();
        QCOMPARE(b.currentEntry(), QStringLiteral("nccl-socket-connect-abort"));
        b.forward();
        QCOMPARE(b.currentEntry(), QStringLiteral("nccl-peer-connection-lost"));
        b.showOverview();
        QVERIFY(b.currentEntry().isEmpty());
        b.back();
        QCOMPARE(b.currentEntry(), QStringLiteral("nccl-peer-connection-lost"));
        b.showOverview();
        emit b.page()->anchorClicked(QUrl(QStringLiteral("rankline:errors")));
        QCOMPARE(b.tabs()->currentIndex(), int(EncyclopediaBrowser::ErrorTableTab));
        b.tabs()->setCurrentIndex(EncyclopediaBrowser::EntriesTab);

        // Picking an entry in the list shows it.
        QTreeWidgetItem* item = nullptr;
        for (QTreeWidgetItemIterator it(b.entryList()); *it; ++it)
            if ((*it)->data(0, Qt::UserRole + 1).toString() == QLatin1String("host-oom-kill"))
                item = *it;
        QVERIFY(item);
        b.entryList()->setCurrentItem(item);
        QCOMPARE(b.currentEntry(), QStringLiteral("host-oom-kill"));
    }

    // Every field is on the page, and nothing on it leaves the program: references copy.
    void entryPageShowsEveryFieldAndOpensNothing()
    {
        EncyclopediaBrowser b(m_enc);
        const Entry* e = m_enc->find("nccl-socket-connect-abort");
        QVERIFY(b.showEntry(QString::fromStdString(e->id)));
        const QString text = b.page()->toPlainText();
        for (const QString& s :
             {QString::fromStdString(e->title), QStringLiteral("Quick answer"), QStringLiteral("Mechanism"),
              QStringLiteral("What you'll observe"), QString::fromStdString(e->symptoms[0].signal),
              QString::fromStdString(e->symptoms[0].samples[0]), QStringLiteral("2.16.2–2.23.4"),
              QStringLiteral("2.24.3"), QString::fromStdString(e->confirm[0].text),
              QStringLiteral("Root cause"), QString::fromStdString(e->fixSteps[0]),
              QString::fromStdString(e->verify), QString::fromStdString(e->prevention[0]),
              QString::fromStdString(e->examples[0].stack), QString::fromStdString(e->faq[0].q),
              QString::fromStdString(e->references[0].url)})
            QVERIFY2(text.contains(QString(s).remove(QLatin1Char('`'))),
                     qPrintable(s)); // `x` is shown as code

        const QString html = b.page()->toHtml();
        static const QRegularExpression href(QStringLiteral("href=\"([^\"]*)\""));
        int links = 0;
        for (auto it = href.globalMatch(html); it.hasNext(); ++links) {
            const QString target = it.next().captured(1);
            QVERIFY2(target.startsWith(QLatin1String("rankline:")) || target.startsWith(QLatin1Char('#')),
                     qPrintable(target));
        }
        QVERIFY(links > 10);

        emit b.page()->anchorClicked(QUrl(QStringLiteral("rankline:copy/0")));
        QCOMPARE(QGuiApplication::clipboard()->text(), QString::fromStdString(e->references[0].url));
        emit b.page()->anchorClicked(QUrl(QStringLiteral("https://example.invalid/")));
        QCOMPARE(b.currentEntry(), QString::fromStdString(e->id));
    }

    void errorTableModel()
    {
        ErrorTableModel model(m_enc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        int primaries = 0;
        for (const Entry& e : m_enc->entries)
            for (const Symptom& s : e.symptoms)
                primaries += s.primary;
        QCOMPARE(model.rowCount(), primaries);
        QCOMPARE(model.columnCount(), int(ErrorTableModel::ColumnCount));
        std::set<QString> layers;
        for (int r = 0; r < model.rowCount(); ++r) {
            for (int c = 0; c < model.columnCount(); ++c)
                QVERIFY(!model.index(r, c).data().toString().isEmpty());
            layers.insert(model.index(r, ErrorTableModel::LayerColumn).data().toString());
        }
        QCOMPARE(layers,
                 (std::set<QString>{QStringLiteral("Socket / bootstrap"), QStringLiteral("Network transport"),
                                    QStringLiteral("Host / GPU"), QStringLiteral("Configuration / version"),
                                    QStringLiteral("PyTorch / launcher")}));

        EntrySearch search(m_enc);
        ErrorTableFilter filter(&search);
        filter.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.sort(ErrorTableModel::LayerColumn);
        filter.sort(ErrorTableModel::MessageColumn, Qt::DescendingOrder);
        filter.setText(
            QStringLiteral("socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused "
                           "connection abort"));
        QCOMPARE(filter.rowCount(), 1);
        QCOMPARE(filter.index(0, 0).data(ErrorTableModel::EntryIdRole).toString(),
                 QStringLiteral("nccl-socket-connect-abort"));
        filter.setText(QStringLiteral("watchdog"));
        QVERIFY(filter.rowCount() >= 1);
        filter.setText({});
        filter.setLayer(QStringLiteral("host-gpu"));
        QVERIFY(filter.rowCount() > 0);
        for (int r = 0; r < filter.rowCount(); ++r)
            QCOMPARE(filter.index(r, ErrorTableModel::LayerColumn).data().toString(),
                     QStringLiteral("Host / GPU"));
        filter.setLayer({});
        QCOMPARE(filter.rowCount(), primaries);
    }

    void errorTableInTheBrowser()
    {
        EncyclopediaBrowser b(m_enc);
        b.resize(1280, 840);
        b.showErrorTable();
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        QCOMPARE(b.tabs()->currentIndex(), int(EncyclopediaBrowser::ErrorTableTab));
        // Sorted by layer: socket and bootstrap first.
        QCOMPARE(b.errorTable()->model()->index(0, ErrorTableModel::LayerColumn).data().toString(),
                 QStringLiteral("Socket / bootstrap"));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-errors-side-by-side.png")));

        b.errorFilterBox()->setText(
            QStringLiteral("misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
                           "10.0.0.2<45763> failed : Software caused connection abort"));
        QCOMPARE(b.errorTable()->model()->rowCount(), 1);
        b.errorTable()->setCurrentIndex(b.errorTable()->model()->index(0, 0));
        QVERIFY(b.errorDetail()->toPlainText().contains(QStringLiteral("What it really indicates")));
        QVERIFY(b.errorDetail()->toPlainText().contains(QStringLiteral("10.0.0.2<45763>")));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-errors-filtered.png")));
        emit b.errorTable()->activated(b.errorTable()->model()->index(0, 0));
        QCOMPARE(b.tabs()->currentIndex(), int(EncyclopediaBrowser::EntriesTab));
        QCOMPARE(b.currentEntry(), QStringLiteral("nccl-socket-connect-abort"));
    }

    // A fallback symptom says so in its entry's page, and what that means; others do not.
    void fallbackSymptomsAreMarked()
    {
        QTextDocument doc;
        doc.setHtml(entryHtml(*m_enc->find("nccl-connect-failed-silent"), *m_enc));
        QCOMPARE(doc.toPlainText().count(
                     QStringLiteral("(makes the finding where no line in the bundle states a failure")),
                 2);
        doc.setHtml(entryHtml(*m_enc->find("nccl-socket-connect-abort"), *m_enc));
        QVERIFY(!doc.toPlainText().contains(QStringLiteral("fallback")));

        EncyclopediaBrowser b(m_enc);
        b.resize(1280, 840);
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        QVERIFY(b.showEntry(QStringLiteral("nccl-connect-failed-silent")));
        b.page()->scrollToAnchor(QStringLiteral("symptoms"));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-fallback-symptom.png")));
    }

    // Entry text and log text are shown as text, never as markup, in every widget.
    void markupIsNeverRendered()
    {
        auto enc = hostile();
        const QString html = entryHtml(enc->entries[0], *enc);
        QVERIFY(!html.contains(QStringLiteral("<img src=x>")));
        QVERIFY(rendersAsText(html));

        EncyclopediaBrowser b(enc);
        b.showEntry(QStringLiteral("hostile-entry"));
        QVERIFY(b.page()->toPlainText().contains(QStringLiteral("<img src=x> boom")));
        QVERIFY(!b.page()->toHtml().contains(QStringLiteral("<img")));
        for (QTreeWidgetItemIterator it(b.entryList()); *it; ++it) {
            QVERIFY(!(*it)->toolTip(0).contains(QStringLiteral("<img")));
            QCOMPARE((*it)->data(0, Qt::DisplayRole).toString().contains(QStringLiteral("<img")),
                     (*it)->parent() != nullptr); // the title, as plain text
        }
        b.search(QStringLiteral("<img src=x> boom"));
        QCOMPARE(b.listedEntries(), QStringList{QStringLiteral("hostile-entry")});
        QVERIFY(!b.page()->toHtml().contains(QStringLiteral("<img")));

        ErrorTableModel model(enc);
        for (int c = 0; c < model.columnCount(); ++c) {
            const QString tip = model.index(0, c).data(Qt::ToolTipRole).toString();
            QVERIFY(!tip.contains(QStringLiteral("<img")));
            QVERIFY(tip.isEmpty() || Qt::mightBeRichText(tip)); // escaped rich text, shown as text
        }
        b.showErrorTable();
        b.errorTable()->setCurrentIndex(b.errorTable()->model()->index(0, 0));
        QVERIFY(b.errorDetail()->toPlainText().contains(QStringLiteral("<img src=x> boom")));
        QVERIFY(!b.errorDetail()->toHtml().contains(QStringLiteral("<img")));

        // Log text in the finding panel and in the log view's tooltip.
        Bundle bundle;
        bundle.sources.push_back(sourceFromText("x.log",
                                                "<img src=x> h:1:2 [0] misc/socket.cc:483 NCCL WARN "
                                                "socketStartConnect: Connect to 10.0.0.1<1> failed : "
                                                "Software caused connection abort\n"));
        bundle.sources[0].id = SourceId(0);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyze(std::move(bundle), m_enc, o);
        QVERIFY(rendersAsText(FindingPanel::renderHtml(*a)));
        LogModel logModel;
        logModel.setIndex(std::make_shared<const AnalysisIndex>(a));
        const QString tip = logModel.index(0, LogModel::TextColumn).data(Qt::ToolTipRole).toString();
        QVERIFY(!tip.contains(QStringLiteral("<img")));
        QVERIFY(rendersAsText(tip));
    }

    // Without an initiating finding the panel says what the logs still suggest; with nothing
    // recognised at all, it says that instead. A trail-only finding says no line states the error.
    void panelWithoutAStatedFailure_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("notShown");
        QTest::newRow("a store read that waited")
            << QByteArray(
                   "torch.distributed.DistBackendError: [4] is setting up NCCL communicator and retrieving "
                   "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got "
                   "error: Socket Timeout\n")
            << "What the logs suggest"
            << "No known failure recognised";
        // A suggestion links the entry it would be (ray#31828's vanished worker: host-oom-kill).
        QTest::newRow("a suggestion names its entry")
            << QByteArray(
                   "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR "
                   "Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of "
                   "file. There are some potential root causes.\n")
            << "Rank killed by the host OOM killer"
            << "No known failure recognised";
        QTest::newRow("nothing known")
            << QByteArray("h:1:2 [0] NCCL INFO cudaDriverVersion 12020\n") << "No known failure recognised"
            << "What the logs suggest";
        QTest::newRow("trail alone")
            << QByteArray(
                   "h:1:2 [0] NCCL INFO misc/socket.cc:564 -> 2\nh:1:2 [0] NCCL INFO bootstrap.cc:270 -> 2\n")
            << "Inferred from a return-code trail"
            << "What the logs suggest";
    }
    void panelWithoutAStatedFailure()
    {
        QFETCH(QByteArray, log);
        QFETCH(QString, shown);
        QFETCH(QString, notShown);
        const QString text = panelText(log.toStdString());
        QVERIFY2(text.contains(shown), qPrintable(text));
        QVERIFY2(!text.contains(notShown), qPrintable(text));
    }

    // With no timestamps and no version, the checklist leaves questions open: each is shown with the
    // alternative it stands for and what would decide it, once.
    void openQuestionsSayWhatWouldDecide()
    {
        const QString text =
            panelText("h:1:2 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
                      "10.0.0.1<1> failed : Software caused connection abort\n");
        QVERIFY(text.contains(QStringLiteral("Competing hypotheses")));
        QVERIFY(text.contains(QStringLiteral("Open questions on this finding")));
        QVERIFY(text.contains(QStringLiteral("What would decide it:")));
        const Entry* e = m_enc->find("nccl-socket-connect-abort");
        const ConfirmItem* fast = nullptr;
        for (const auto& c : e->confirm)
            if (c.id == "failed-fast")
                fast = &c;
        QVERIFY(fast);
        QCOMPARE(text.count(QString::fromStdString(fast->ifUnknown)), 1);
        QVERIFY(text.contains(QString::fromStdString(fast->why)));
    }

    void reachableWithNoBundleOpen()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.currentIndex());
        auto* button = w.findChild<QPushButton*>(QStringLiteral("encyclopediaButton"));
        QVERIFY(button && button->isVisible());
        QTest::qWait(50);
        QVERIFY(w.grab().save(kShots + QStringLiteral("welcome-with-encyclopedia.png")));
        QTest::mouseClick(button, Qt::LeftButton);
        auto* browser = w.findChild<EncyclopediaBrowser*>();
        QVERIFY(browser && browser->isVisible());
        browser->close();
        QVERIFY(!browser->isVisible());
        auto* action = w.findChild<QAction*>(QStringLiteral("encyclopediaAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
        action->trigger();
        QVERIFY(browser->isVisible());
        QCOMPARE(w.findChildren<EncyclopediaBrowser*>().size(), 1);
        QCOMPARE(w.showErrorTable(), browser);
        QCOMPARE(browser->tabs()->currentIndex(), int(EncyclopediaBrowser::ErrorTableTab));
    }

    void screenshotsOfTheBrowser()
    {
        EncyclopediaBrowser b(m_enc);
        b.resize(1280, 840);
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-overview.png")));
        b.showEntry(QStringLiteral("nccl-socket-connect-abort"));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-entry.png")));
        b.page()->scrollToAnchor(QStringLiteral("symptoms"));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-entry-symptoms.png")));
        // A range of behaviour lists the bug of some releases inside it, with its fix.
        b.showEntry(QStringLiteral("nccl-cuda-failure"));
        b.page()->scrollToAnchor(QStringLiteral("affected"));
        QTest::qWait(50);
        QVERIFY2(b.page()->toPlainText().contains(
                     QStringLiteral("bug: 'invalid argument' at transport.cc:153/154/173/174")),
                 qPrintable(b.page()->toPlainText().left(2000)));
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-known-bug.png")));
        b.page()->scrollToAnchor(QStringLiteral("examples"));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-entry-examples.png")));
        b.search(QStringLiteral("socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused "
                                "connection abort"));
        QTest::qWait(50);
        QVERIFY(b.grab().save(kShots + QStringLiteral("encyclopedia-search.png")));
    }

    // On the sample: competing hypotheses name the proxy-connect candidate and what speaks against
    // it; related entries open the browser on that entry.
    void findingPanelOnTheSample()
    {
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openSample();
        QVERIFY(ready.wait(20000));

        FindingPanel* panel = w.findingPanel();
        const QString text = panel->toPlainText();
        const Entry* proxy = m_enc->find("nccl-proxy-connect-failure");
        for (const QString& s :
             {QStringLiteral("Confirmation checklist"), QStringLiteral("6 confirmed · 0 contradicted"),
              QStringLiteral("Competing hypotheses"), QString::fromStdString(proxy->title),
              QStringLiteral("Against it:"), QStringLiteral("Not chosen:"),
              QStringLiteral("its checklist leaves no alternative open"), QStringLiteral("Related entries"),
              QString::fromStdString(m_enc->find("nccl-peer-connection-lost")->title),
              QStringLiteral("Collateral")})
            QVERIFY2(text.contains(s), qPrintable(s));
        QVERIFY(QTest::qWaitFor([&] { return panel->isVisible(); }));
        QVERIFY(w.grab().save(kShots + QStringLiteral("mainwindow-sample-panel.png")));

        // The whole panel at a readable width, for people to look at.
        FindingPanel tall;
        tall.resize(520, 800);
        tall.setIndex(w.currentIndex());
        tall.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tall));
        tall.resize(520, static_cast<int>(tall.document()->size().height()) + 20);
        QTest::qWait(20);
        const QImage full = tall.grab().toImage();
        for (int y = 0, n = 1; y < full.height(); y += 1000, ++n)
            QVERIFY(full.copy(0, y, full.width(), std::min(1000, full.height() - y))
                        .save(kShots + QStringLiteral("finding-panel-%1.png").arg(n)));
        tall.hide();

        QSignalSpy entry(panel, &FindingPanel::entryActivated);
        emit panel->anchorClicked(QUrl(entryLink("torch-watchdog-timeout")));
        QCOMPARE(entry.size(), 1);
        auto* browser = w.findChild<EncyclopediaBrowser*>();
        QVERIFY(browser && browser->isVisible());
        QCOMPARE(browser->currentEntry(), QStringLiteral("torch-watchdog-timeout"));
        // Line links still select lines.
        QSignalSpy line(panel, &FindingPanel::lineActivated);
        emit panel->anchorClicked(QUrl(FindingPanel::lineLink({SourceId(0), 0})));
        QCOMPARE(line.size(), 1);
    }
};

QTEST_MAIN(TestEncyclopediaBrowser)
#include "tst_encbrowser.moc"
