// The everyday desktop flow, offscreen: drop a traceback or paste it, get the finding; drop onto an
// open bundle (add or open anew); Open Recent and the layout survive a restart; every menu action
// has a shortcut; About names the versions; a report is exported from the window.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

#include "shipped_encyclopedia.h"
#include "window/exportdialog.h"
#include "window/findingpanel.h"
#include "window/mainwindow.h"

using namespace rl;

namespace
{
QString realLog(const char* caseDir)
{
    QFile f(QStringLiteral(RANKLINE_REALLOGS_DIR "/%1/log.txt").arg(QLatin1String(caseDir)));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void dropMime(QWidget* target, QMimeData* mime)
{
    QDragEnterEvent enter(QPoint(60, 60), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(60, 60), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
}

const Entry& initiatingEntry(const MainWindow& w)
{
    const Analysis& a = w.currentIndex()->analysis();
    return a.entry(a.initiatingFinding()->entry);
}

QAction* findAction(QWidget* w, const char* name)
{
    return w->findChild<QAction*>(QLatin1String(name));
}

// Runs `check` on the next modal dialog, then closes it.
void onNextModal(std::function<void(QWidget*)> check)
{
    QTimer::singleShot(50, [check] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal)
            return onNextModal(check);
        check(modal);
    });
}
} // namespace

class TestDropAndPaste : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;
    QTemporaryDir m_tmp;

private slots:
    void initTestCase()
    {
        // Settings go to a throw-away place, never to the user's ~/.config.
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("Rankline"), QStringLiteral("Rankline")).clear();
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
        QDir().mkpath(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots"));
        QVERIFY(m_tmp.isValid());
    }

    void cleanupTestCase() { QSettings(QStringLiteral("Rankline"), QStringLiteral("Rankline")).clear(); }

    void dropTraceback_data()
    {
        QTest::addColumn<QString>("caseDir");
        QTest::newRow("004 loopback, launcher-prefixed")
            << QStringLiteral("004-awsome192-swabort-loopback-prefixed");
        QTest::newRow("058 reference thread") << QStringLiteral("058-nccl1515-swabort-reference-thread");
    }

    // Text copied from a real report, dropped onto the welcome screen: the right entry, in seconds.
    void dropTraceback()
    {
        QFETCH(QString, caseDir);
        const QString text = realLog(caseDir.toUtf8().constData());
        if (text.isEmpty())
            QSKIP("real logs not available (RANKLINE_REALLOGS_DIR)");
        MainWindow w(m_enc);
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        QMimeData mime;
        mime.setText(text);
        dropMime(&w, &mime);
        QVERIFY(ready.wait(20000));
        QCOMPARE(QString::fromStdString(initiatingEntry(w).id), QStringLiteral("nccl-socket-connect-abort"));
        const Analysis& a = w.currentIndex()->analysis();
        QCOMPARE(a.sources.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(a.sources[0].displayPath), QStringLiteral("dropped-1.txt"));
        QVERIFY(!a.processes.empty());
        QVERIFY(!a.processes.front().rank.has_value()); // no rank unless a prefix says so
        QCOMPARE(w.snippets().size(), std::size_t{1});
        const QString panel = w.findingPanel()->toPlainText();
        QVERIFY(panel.contains(QStringLiteral("INITIATING")));
        QVERIFY(panel.contains(QStringLiteral("Software caused connection abort")));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("dropped-1.txt")));
        QTest::qWait(50);
        w.grab().save(
            QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/dropped-text-%1.png").arg(caseDir.left(3)));
    }

    void pasteFromClipboard()
    {
        MainWindow w(m_enc);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        QGuiApplication::clipboard()->setText(QStringLiteral(
            "h:1:2 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.1<1> failed "
            ": Software caused connection abort\n"));
        QAction* paste = findAction(&w, "actionPaste");
        QVERIFY(paste);
        QCOMPARE(paste->shortcut(), QKeySequence(QKeySequence::Paste));
        paste->trigger();
        QVERIFY(ready.wait(20000));
        QCOMPARE(QString::fromStdString(initiatingEntry(w).id), QStringLiteral("nccl-socket-connect-abort"));
        QCOMPARE(QString::fromStdString(w.currentIndex()->analysis().sources[0].displayPath),
                 QStringLiteral("pasted-1.txt"));

        // Nothing on the clipboard: a sentence in the status bar, no load.
        QGuiApplication::clipboard()->clear();
        paste->trigger();
        QTest::qWait(50);
        QCOMPARE(ready.size(), 1);
    }

    void dropOntoOpenBundle_data()
    {
        QTest::addColumn<int>("choice");
        QTest::addColumn<int>("sources");
        QTest::newRow("add to it") << static_cast<int>(DropChoice::Add) << 9;
        QTest::newRow("open on its own") << static_cast<int>(DropChoice::Replace) << 1;
    }

    void dropOntoOpenBundle()
    {
        QFETCH(int, choice);
        QFETCH(int, sources);
        MainWindow w(m_enc);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openSample();
        QVERIFY(ready.wait(20000));
        w.setDropChoice(static_cast<DropChoice>(choice));
        QMimeData mime;
        mime.setText(
            QStringLiteral("`socketStartConnect: Connect to 10.45.234.83<47527> failed : Software caused "
                           "connection abort`"));
        dropMime(&w, &mime);
        QVERIFY(ready.wait(20000));
        QCOMPARE(w.currentIndex()->analysis().sources.size(), static_cast<std::size_t>(sources));
    }

    // By default a drop onto an open bundle asks.
    void dropAsks()
    {
        MainWindow w(m_enc);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openSample();
        QVERIFY(ready.wait(20000));
        QString question;
        onNextModal([&question](QWidget* modal) {
            auto* box = qobject_cast<QMessageBox*>(modal);
            QVERIFY(box);
            question = box->text();
            for (auto* b : box->buttons())
                if (b->text().contains(QStringLiteral("Add")))
                    b->click();
        });
        QMimeData mime;
        mime.setText(QStringLiteral("extra line\n"));
        dropMime(&w, &mime);
        QVERIFY(question.contains(QStringLiteral("Add what you dropped or pasted")));
        QVERIFY(ready.wait(20000));
        QCOMPARE(w.currentIndex()->analysis().sources.size(), std::size_t{9});
    }

    void recentAndLayoutSurviveRestart()
    {
        QSettings(QStringLiteral("Rankline"), QStringLiteral("Rankline")).clear();
        {
            MainWindow w(m_enc);
            w.resize(1111, 777);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QSignalSpy ready(&w, &MainWindow::analysisReady);
            w.openSample();
            QVERIFY(ready.wait(20000));
            w.close(); // saves the layout
        }
        const auto recent = MainWindow::recentPaths();
        QCOMPARE(recent.size(), 1);
        QCOMPARE(recent.front(), QStringList{QFileInfo(MainWindow::samplePath()).absoluteFilePath()});

        MainWindow again(m_enc);
        QCOMPARE(again.size(), QSize(1111, 777));
        auto* menu = again.findChild<QMenu*>(QStringLiteral("recentMenu"));
        QVERIFY(menu && menu->isEnabled());
        QCOMPARE(menu->actions().size(), 1);
        QCOMPARE(menu->actions().front()->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_1));
        QSignalSpy ready(&again, &MainWindow::analysisReady);
        menu->actions().front()->trigger();
        QVERIFY(ready.wait(20000));
        QCOMPARE(again.currentIndex()->analysis().processes.size(), std::size_t{8});
    }

    void everyMenuActionHasAShortcut()
    {
        MainWindow w(m_enc);
        std::function<void(QMenu*)> walk = [&](QMenu* menu) {
            for (QAction* a : menu->actions()) {
                if (a->isSeparator())
                    continue;
                if (a->menu()) {
                    walk(a->menu());
                    continue;
                }
                QVERIFY2(!a->shortcut().isEmpty(), qPrintable(a->text()));
            }
        };
        int menus = 0;
        for (QAction* top : w.menuBar()->actions()) {
            QVERIFY(top->menu());
            walk(top->menu());
            ++menus;
        }
        QCOMPARE(menus, 4); // File, Edit, View, Help
        QVERIFY(findAction(&w, "actionExportReport"));
    }

    void aboutNamesTheVersions()
    {
        MainWindow w(m_enc);
        QString text;
        onNextModal([&text](QWidget* modal) {
            auto* box = qobject_cast<QMessageBox*>(modal);
            QVERIFY(box);
            text = box->text();
            box->accept();
        });
        QAction* about = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text().contains(QStringLiteral("About")))
                about = a;
        QVERIFY(about);
        QCOMPARE(about->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F1)); // F1 is the encyclopedia
        about->trigger();
        for (const char* s :
             {RANKLINE_VERSION, "Qt", "RE2", "nlohmann/json", "libarchive", "NCCL on this machine"})
            QVERIFY2(text.contains(QLatin1String(s)), s);
        QVERIFY(text.contains(QLatin1String(qVersion())));
    }

    void exportFromTheWindow()
    {
        MainWindow w(m_enc);
        QCOMPARE(w.exportReportTo({}).has_value(), true); // nothing open yet: said, not crashed
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openSample();
        QVERIFY(ready.wait(20000));
        QVERIFY(findAction(&w, "actionExportReport")->isEnabled());
        for (const char* ext : {"html", "pdf"}) {
            ExportRequest req;
            req.path = m_tmp.filePath(QStringLiteral("window-report.") + QLatin1String(ext));
            req.format = *reportFormatFromName(ext);
            QVERIFY(!w.exportReportTo(req));
            QFile f(req.path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(9);
            QVERIFY(QLatin1String(ext) == QLatin1String("pdf") ? head.startsWith("%PDF")
                                                               : head.startsWith("<!DOCTYPE"));
        }
        ExportRequest bad;
        bad.path = QStringLiteral("/nonexistent-dir/report.md");
        bad.format = ReportFormat::Markdown;
        auto err = w.exportReportTo(bad);
        QVERIFY(err);
        const QString msg = QString::fromStdString(err->message());
        QVERIFY(msg.contains(QStringLiteral("/nonexistent-dir/report.md")));
        QVERIFY(msg.contains(QStringLiteral("cannot be written")));
        QVERIFY(msg.contains(QStringLiteral("choose a folder")));
    }

    // File > Export Report writes off the UI thread: the window says so, takes no second export
    // meanwhile, and says how it went.
    void exportInTheBackground()
    {
        MainWindow w(m_enc);
        QVERIFY(!w.startExport({})); // nothing open
        QSignalSpy ready(&w, &MainWindow::analysisReady);
        w.openSample();
        QVERIFY(ready.wait(20000));
        QAction* action = findAction(&w, "actionExportReport");
        QSignalSpy written(&w, &MainWindow::reportWritten);
        ExportRequest req;
        req.path = m_tmp.filePath(QStringLiteral("background-report.pdf"));
        req.format = ReportFormat::Pdf;
        QVERIFY(w.startExport(req));
        QVERIFY(w.isExporting());
        QVERIFY(!action->isEnabled());
        QVERIFY(!w.startExport(req)); // one at a time
        QVERIFY(written.wait(60000));
        QCOMPARE(written.front().at(0).toString(), req.path);
        QCOMPARE(written.front().at(1).toString(), QString());
        QVERIFY(!w.isExporting());
        QVERIFY(action->isEnabled());
        QFile f(req.path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5).startsWith("%PDF"));
        // A report that cannot be written says why, through the same signal.
        ExportRequest bad;
        bad.path = QStringLiteral("/nonexistent-dir/report.md");
        bad.format = ReportFormat::Markdown;
        QVERIFY(w.startExport(bad));
        QVERIFY(written.wait(60000));
        QCOMPARE(written.size(), 2);
        QVERIFY(written.back().at(1).toString().contains(QStringLiteral("cannot be written")));
        QVERIFY(action->isEnabled());
    }

    // The dialog keeps the extension in step with the format; redaction starts on.
    void exportDialog()
    {
        ExportDialog d(QStringLiteral("/tmp/x/sample-report.html"));
        ExportRequest r = d.request();
        QCOMPARE(r.format, ReportFormat::Html);
        QVERIFY(r.redact);
        auto* format = d.findChild<QComboBox*>();
        QVERIFY(format);
        format->setCurrentIndex(1);
        QCOMPARE(d.request().path, QStringLiteral("/tmp/x/sample-report.pdf"));
        QCOMPARE(d.request().format, ReportFormat::Pdf);
        auto* path = d.findChild<QLineEdit*>(QStringLiteral("exportPath"));
        path->setText(QStringLiteral("/tmp/x/notes.md"));
        emit path->textEdited(path->text());
        QCOMPARE(d.request().format, ReportFormat::Markdown);
        d.findChild<QCheckBox*>(QStringLiteral("exportRedact"))->setChecked(false);
        QVERIFY(!d.request().redact);
        d.resize(d.sizeHint());
        d.grab().save(QStringLiteral(RANKLINE_BUILD_DIR "/screenshots/export-dialog.png"));
    }
};

QTEST_MAIN(TestDropAndPaste)
#include "tst_dropandpaste.moc"
