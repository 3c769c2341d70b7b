#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>

#include "models/bookmarks.h"
#include "models/logmodel.h"
#include "report/diagnosis_report.h"
#include "timeline/timelinepane.h"
#include "timeline/timelinewidget.h"
#include "util/rank_runs.h"
#include "util/untrusted.h"
#include "window/encyclopediabrowser.h"
#include "window/exportdialog.h"
#include "window/findingpanel.h"
#include "window/logpane.h"

namespace rl
{

namespace
{
enum RankRoles { ProcessRole = Qt::UserRole + 1 };
constexpr int kMaxRecent = 8;

// Explicit names, so the file is ~/.config/Rankline/Rankline.conf however the app was set up.
// How soon after a bundle is shown its files are first looked at again, and how often after that.
constexpr int kFirstFileCheckMs = 1000;
constexpr int kFileCheckMs = 3000;

QSettings settings()
{
    return QSettings(QStringLiteral("Rankline"), QStringLiteral("Rankline"));
}

// Calls back whenever the watched widget is resized (the event goes on to it).
class ResizeWatcher : public QObject
{
public:
    ResizeWatcher(QObject* parent, std::function<void()> resized)
        : QObject(parent), m_resized(std::move(resized))
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize)
            m_resized();
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_resized;
};
} // namespace

MainWindow::MainWindow(std::shared_ptr<const Encyclopedia> encyclopedia, QWidget* parent)
    : QMainWindow(parent), m_encyclopedia(std::move(encyclopedia))
{
    setWindowTitle(tr("Rankline"));
    setAcceptDrops(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(buildWelcome());
    m_stack->addWidget(buildInvestigation());
    setCentralWidget(m_stack);
    buildMenus();

    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText); // it shows paths from the bundle
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(180);
    m_progress->hide();
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    m_reloadButton = new QPushButton(this);
    m_reloadButton->setObjectName(QStringLiteral("reloadButton"));
    m_reloadButton->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    m_reloadButton->hide();
    connect(m_reloadButton, &QPushButton::clicked, this, &MainWindow::reload);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_reloadButton);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_watchTimer = new QTimer(this);
    m_watchTimer->setSingleShot(true);
    connect(m_watchTimer, &QTimer::timeout, this, &MainWindow::checkFilesOnDisk);
    resize(1400, 860);
    restoreLayout();
}

MainWindow::~MainWindow()
{
    if (m_cancel)
        *m_cancel = true;
}

QString MainWindow::samplePath()
{
    return QString::fromStdString(resourcesDir()) + QStringLiteral("/samples/connect-abort-2x4");
}

void MainWindow::buildMenus()
{
    // Every action is in a menu and has a shortcut; the timeline's tool bar reuses the View ones.
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open &Folder…"), this, [this] {
        QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of logs"));
        if (!dir.isEmpty())
            openPaths({dir});
    });
    openFolder->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    QAction* openFiles = file->addAction(tr("Open F&iles…"), this, [this] {
        QStringList files = QFileDialog::getOpenFileNames(this, tr("Open log files or archives"));
        if (!files.isEmpty())
            openPaths(files);
    });
    openFiles->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    QAction* sample = file->addAction(tr("Open &Sample Incident"), this, &MainWindow::openSample);
    sample->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    m_reloadAction = file->addAction(tr("&Reload"), this, &MainWindow::reload);
    m_reloadAction->setObjectName(QStringLiteral("actionReload"));
    m_reloadAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_reloadAction->setStatusTip(tr("Read the open files again as they are now"));
    m_reloadAction->setEnabled(false);
    file->addSeparator();
    m_saveSnippets = file->addAction(tr("Save &Pasted Text As…"), this, &MainWindow::saveSnippets);
    m_saveSnippets->setShortcut(QKeySequence::Save);
    m_saveSnippets->setEnabled(false);
    m_exportAction = file->addAction(tr("&Export Report…"), this, &MainWindow::exportReport);
    m_exportAction->setObjectName(QStringLiteral("actionExportReport"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setEnabled(false);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q)); // QKeySequence::Quit is empty on some platforms

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* pasteAction = edit->addAction(tr("&Paste Log or Traceback"), this, &MainWindow::paste);
    pasteAction->setObjectName(QStringLiteral("actionPaste"));
    pasteAction->setShortcut(QKeySequence::Paste);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* toFailure =
        view->addAction(tr("Zoom to &Failure"), this, [this] { m_timeline->zoomToInitiating(); });
    toFailure->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F)); // Ctrl+F searches the log
    QAction* fit = view->addAction(tr("&Fit Whole Run"), this, [this] { m_timeline->fitAll(); });
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* zin = view->addAction(tr("Zoom &In"), this, [this] { m_timeline->zoomBy(0.5); });
    zin->setShortcut(QKeySequence::ZoomIn);
    QAction* zout = view->addAction(tr("Zoom &Out"), this, [this] { m_timeline->zoomBy(2.0); });
    zout->setShortcut(QKeySequence::ZoomOut);
    if (m_timelineBar) {
        m_timelineBar->insertActions(m_timelineBar->actions().value(0), {toFailure, fit, zin, zout});
    }
    view->addSeparator();
    // Collectors and launchers put a stamp, a pod or a rank before every line; the table's columns
    // say the same, and the text column is easier read without them.
    QAction* prefixes = view->addAction(tr("Show Line &Prefixes"));
    prefixes->setObjectName(QStringLiteral("actionShowPrefixes"));
    prefixes->setCheckable(true);
    prefixes->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    prefixes->setChecked(settings().value(QStringLiteral("view/showPrefixes"), false).toBool());
    m_logPane->logModel()->setShowPrefixes(prefixes->isChecked());
    connect(prefixes, &QAction::toggled, this, [this](bool on) {
        settings().setValue(QStringLiteral("view/showPrefixes"), on);
        m_logPane->logModel()->setShowPrefixes(on);
    });
    // A torchrun --log-dir tree holds one attempt per restart; the latest is the run that failed last
    // and is diagnosed alone unless this is on. Reading the files again is what it takes: the older
    // attempts' files were never scanned.
    m_allAttemptsAction = view->addAction(tr("Include Earlier &Attempts"));
    m_allAttemptsAction->setObjectName(QStringLiteral("actionAllAttempts"));
    m_allAttemptsAction->setCheckable(true);
    m_allAttemptsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    connect(m_allAttemptsAction, &QAction::toggled, this, [this](bool on) {
        if (m_options.allAttempts == on)
            return;
        AnalyzeOptions o = m_options;
        o.allAttempts = on;
        if (m_index && !m_paths.isEmpty()) {
            const QStringList paths = m_paths;
            load(paths, m_snippets, o);
        } else {
            m_options = o;
        }
    });

    // Logs of a job still running keep growing after they were read: a look every few seconds (a
    // stat per file, off the UI thread) offers a reload rather than showing a stale picture unsaid.
    m_watchAction = view->addAction(tr("&Watch Files for Changes"));
    m_watchAction->setObjectName(QStringLiteral("actionWatchFiles"));
    m_watchAction->setCheckable(true);
    m_watchAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    m_watchAction->setChecked(settings().value(QStringLiteral("view/watchFiles"), true).toBool());
    connect(m_watchAction, &QAction::toggled, this, [this](bool on) {
        settings().setValue(QStringLiteral("view/watchFiles"), on);
        if (on) {
            scheduleFileCheck(0);
        } else {
            m_watchTimer->stop();
            m_changedOnDisk.clear();
            m_addedOnDisk.clear();
            updateReloadButton();
        }
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* encyclopedia = help->addAction(tr("&Encyclopedia…"), this, [this] { showEncyclopedia(); });
    encyclopedia->setObjectName(QStringLiteral("encyclopediaAction"));
    encyclopedia->setShortcut(QKeySequence::HelpContents);
    QAction* errorTable =
        help->addAction(tr("NCCL Errors &Side by Side…"), this, &MainWindow::showErrorTable);
    errorTable->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Rankline"), this, [this] {
        NcclProbeResult r = probeNccl();
        QString rows;
        for (const auto& [name, version] : componentVersions())
            rows += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                        .arg(QString::fromStdString(name).toHtmlEscaped(),
                             QString::fromStdString(version).toHtmlEscaped());
        rows +=
            QStringLiteral("<tr><td>NCCL on this machine</td><td>%1</td></tr>")
                .arg(r.found
                         ? QString::fromStdString(r.version.toString() + " (" + r.path + ")").toHtmlEscaped()
                         : tr("not found"));
        QMessageBox::about(
            this, tr("About Rankline"),
            tr("<h3>Rankline %1</h3><p>Offline investigator for failed distributed-training jobs.</p>"
               "<p>Nothing you open leaves this machine: Rankline opens no network connection.</p>"
               "<table cellspacing='0' cellpadding='2'>%2</table>")
                .arg(QStringLiteral(RANKLINE_VERSION), rows));
    });
    // F1 opens the encyclopedia (the help people need most); About gets Ctrl+F1.
    about->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F1));
}

QWidget* MainWindow::buildWelcome()
{
    auto* w = new QWidget(this);
    auto* outer = new QVBoxLayout(w);
    outer->addStretch(2);
    auto* title = new QLabel(tr("<h1>Rankline</h1>"), w);
    title->setAlignment(Qt::AlignCenter);
    auto* text = new QLabel(
        tr("Open the logs of a failed multi-GPU job: every rank on one time axis,<br>"
           "the failure that started it separated from the collateral, and what to do about it.<br>"
           "Everything stays on this machine."),
        w);
    text->setAlignment(Qt::AlignCenter);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* sample = new QPushButton(tr("Open sample incident"), w);
    sample->setObjectName(QStringLiteral("openSampleButton"));
    sample->setDefault(true);
    connect(sample, &QPushButton::clicked, this, &MainWindow::openSample);
    auto* folder = new QPushButton(tr("Open folder…"), w);
    connect(folder, &QPushButton::clicked, this, [this] {
        QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of logs"));
        if (!dir.isEmpty())
            openPaths({dir});
    });
    auto* files = new QPushButton(tr("Open files…"), w);
    connect(files, &QPushButton::clicked, this, [this] {
        QStringList f = QFileDialog::getOpenFileNames(this, tr("Open log files or archives"));
        if (!f.isEmpty())
            openPaths(f);
    });
    auto* encyclopedia = new QPushButton(tr("Browse encyclopedia"), w);
    encyclopedia->setObjectName(QStringLiteral("encyclopediaButton"));
    encyclopedia->setToolTip(tr("Every failure Rankline knows, searchable by a log line (F1)"));
    connect(encyclopedia, &QPushButton::clicked, this, [this] { showEncyclopedia(); });
    buttons->addWidget(sample);
    buttons->addWidget(folder);
    buttons->addWidget(files);
    buttons->addWidget(encyclopedia);
    buttons->addStretch(1);
    auto* drop = new QLabel(tr("…or drop folders, files, archives or a copied traceback onto this window "
                               "(Ctrl+V pastes one)."),
                            w);
    drop->setAlignment(Qt::AlignCenter);
    drop->setStyleSheet(QStringLiteral("color: palette(mid)"));
    outer->addWidget(title);
    outer->addWidget(text);
    outer->addSpacing(16);
    outer->addLayout(buttons);
    outer->addSpacing(8);
    outer->addWidget(drop);
    outer->addStretch(3);
    return w;
}

QWidget* MainWindow::buildInvestigation()
{
    auto* split = new QSplitter(Qt::Horizontal, this);
    m_mainSplit = split;

    m_rankModel = new QStandardItemModel(this);
    m_rankView = new QTreeView(split);
    m_rankView->setObjectName(QStringLiteral("rankList"));
    m_rankView->setModel(m_rankModel);
    m_rankView->setRootIsDecorated(true);
    m_rankView->setUniformRowHeights(true);
    m_rankView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_rankView->viewport()->installEventFilter(new ResizeWatcher(m_rankView, [this] { fitRankColumn(); }));
    connect(m_rankView, &QTreeView::activated, this, [this](const QModelIndex& idx) {
        QVariant v = idx.siblingAtColumn(0).data(ProcessRole);
        if (!v.isValid() || !m_index)
            return;
        // Jump to the process's first event, or its first line.
        ProcessId pid(v.toUInt());
        for (const auto& e : m_index->analysis().events)
            if (e.process == pid) {
                selectLine(e.where);
                return;
            }
    });

    auto* center = new QSplitter(Qt::Vertical, split);
    m_centerSplit = center;
    m_bookmarks = new Bookmarks(this);
    m_timelinePane = new TimelinePane(center);
    m_timeline = m_timelinePane->timeline();
    m_timeline->setBookmarks(m_bookmarks);
    connect(m_timeline, &TimelineWidget::lineActivated, this, &MainWindow::selectLine);
    connect(m_timeline, &TimelineWidget::bookmarkToggled, m_bookmarks, &Bookmarks::toggle);
    connect(m_timeline, &TimelineWidget::clockOffsetRequested, this,
            [this](const QString& host, qint64 us) { setClockOffset(host, us); });
    connect(m_timeline, &TimelineWidget::clockOffsetCleared, this,
            [this](const QString& host) { setClockOffset(host, std::nullopt); });
    connect(m_timeline, &TimelineWidget::pinRequested, this, &MainWindow::pinLines);
    connect(m_timeline, &TimelineWidget::clockSettingsCleared, this, [this] {
        AnalyzeOptions o = m_options;
        o.clockOverrides.clear();
        o.pinnedLines.clear();
        reanalyze(o);
    });

    m_logPane = new LogPane(m_bookmarks, center);
    connect(m_logPane, &LogPane::lineSelected, m_timeline, &TimelineWidget::setSelectedLine);
    connect(m_logPane, &LogPane::lineSelected, this, &MainWindow::showRankOf);
    connect(m_logPane, &LogPane::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 6000); });
    center->addWidget(m_timelinePane);
    center->addWidget(m_logPane);
    center->setStretchFactor(0, 2);
    center->setStretchFactor(1, 3);

    m_findings = new FindingPanel(split);
    connect(m_findings, &FindingPanel::lineActivated, this, &MainWindow::selectLine);
    connect(m_findings, &FindingPanel::entryActivated, this,
            [this](const QString& id) { showEncyclopedia(id); });

    split->addWidget(m_rankView);
    split->addWidget(center);
    split->addWidget(m_findings);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);
    split->setSizes({250, 760, 390}); // the timeline and the log get the room
    return split;
}

EncyclopediaBrowser* MainWindow::showEncyclopedia(const QString& entryId)
{
    if (!m_browser)
        m_browser = new EncyclopediaBrowser(m_encyclopedia, this);
    if (!entryId.isEmpty())
        m_browser->showEntry(entryId);
    m_browser->show();
    m_browser->raise();
    m_browser->activateWindow();
    return m_browser;
}

EncyclopediaBrowser* MainWindow::showErrorTable()
{
    EncyclopediaBrowser* b = showEncyclopedia();
    b->showErrorTable();
    return b;
}

void MainWindow::openSample()
{
    openPaths({samplePath()});
}

void MainWindow::openPaths(const QStringList& paths)
{
    AnalyzeOptions o;
    o.allAttempts = m_allAttemptsAction->isChecked(); // a choice of view, kept across bundles
    if (!paths.isEmpty())
        load(paths, {}, o);
}

void MainWindow::openPaths(const QStringList& paths, const AnalyzeOptions& options)
{
    if (!paths.isEmpty())
        load(paths, {}, options);
}

void MainWindow::openText(const QString& text, const QString& origin)
{
    if (!text.trimmed().isEmpty())
        load({}, {makeSnippet(text, origin)}, AnalyzeOptions{});
}

Snippet MainWindow::makeSnippet(const QString& text, const QString& origin)
{
    return {QStringLiteral("%1-%2.txt").arg(origin).arg(++m_snippetCount), text.toUtf8()};
}

QStringList MainWindow::shownInputs() const
{
    QStringList shown = m_paths;
    for (const auto& sn : m_snippets)
        shown << sn.name;
    return shown;
}

void MainWindow::reload()
{
    if (!m_index || m_paths.isEmpty())
        return;
    const QStringList paths = m_paths;
    load(paths, m_snippets, m_options, true);
}

void MainWindow::load(const QStringList& paths, std::vector<Snippet> snippets, const AnalyzeOptions& options,
                      bool keepView)
{
    if (paths.isEmpty() && snippets.empty())
        return;
    m_paths = paths;
    m_snippets = std::move(snippets);
    m_options = options;
    std::vector<std::string> p;
    for (const auto& s : paths)
        p.push_back(QFileInfo(s).absoluteFilePath().toStdString());
    std::vector<std::pair<std::string, std::string>> texts;
    for (const auto& sn : m_snippets)
        texts.emplace_back(sn.name.toStdString(), sn.text.toStdString());
    auto enc = m_encyclopedia;
    const QStringList shown = shownInputs();
    runJob(
        tr("Reading %1…").arg(shown.join(QStringLiteral(", "))), shown,
        [enc, p, texts, options](const ProgressSink& sink) -> std::shared_ptr<const Analysis> {
            Bundle bundle = p.empty() ? Bundle{} : readBundle(p, options.limits, sink.cancelled);
            for (const auto& [name, text] : texts)
                bundle.sources.push_back(sourceFromText(name, text));
            for (std::size_t i = 0; i < bundle.sources.size(); ++i)
                bundle.sources[i].id = SourceId(static_cast<std::uint32_t>(i));
            return sink.isCancelled() ? nullptr : analyze(std::move(bundle), enc, options, sink);
        },
        keepView);
}

void MainWindow::reanalyze(const AnalyzeOptions& options)
{
    if (!m_index)
        return;
    m_options = options;
    // The sources already read (their buffers are shared, not copied) go through the pipeline again.
    auto analysis = m_index->shared();
    auto enc = m_encyclopedia;
    runJob(
        tr("Re-running the diagnosis with your clock settings…"), shownInputs(),
        [analysis, enc, options](const ProgressSink& sink) {
            Bundle b;
            b.sources = analysis->sources;
            b.skipped = analysis->skipped;
            b.flightRead = analysis->flight.dumps;
            return analyze(std::move(b), enc, options, sink);
        },
        true);
}

void MainWindow::setClockOffset(const QString& host, std::optional<qint64> offsetUs)
{
    AnalyzeOptions o = m_options;
    const std::string h = host.toStdString();
    std::erase_if(o.clockOverrides, [&](const ClockOverride& c) { return c.host == h; });
    if (offsetUs)
        o.clockOverrides.push_back({h, *offsetUs});
    reanalyze(o);
}

void MainWindow::pinLines(LineRef a, LineRef b)
{
    AnalyzeOptions o = m_options;
    // A line takes part in one pin at most: the newest word wins.
    std::erase_if(o.pinnedLines, [&](const std::pair<LineRef, LineRef>& p) {
        return p.first == a || p.second == a || p.first == b || p.second == b;
    });
    o.pinnedLines.push_back({a, b});
    m_timeline->clearPairedLine();
    reanalyze(o);
}

void MainWindow::runJob(const QString& what, const QStringList& paths, Job work, bool keepView)
{
    if (m_cancel)
        *m_cancel = true; // the previous job's result will be dropped
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 job = ++m_jobId;
    m_status->setText(what);
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancelButton->show();

    auto cancel = m_cancel;
    QPointer<MainWindow> self(this);
    // The analysis runs off the UI thread; its immutable result comes back queued and is dropped if
    // a newer job started meanwhile.
    (void)QtConcurrent::run([self, job, cancel, work = std::move(work), paths, keepView]() {
        ProgressSink sink;
        sink.cancelled = [cancel] { return cancel->load(); };
        sink.interval = std::chrono::milliseconds(50); // each report is an event for the UI thread
        // Called on worker threads: hand each update to the UI thread, which drops stale jobs.
        sink.report = [self, job](const Progress& pr) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, job, pr] {
                    if (self && job == self->m_jobId)
                        self->showProgress(pr);
                },
                Qt::QueuedConnection);
        };
        std::shared_ptr<const Analysis> result = work(sink);
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, result, paths, keepView] {
                if (!self || job != self->m_jobId)
                    return;
                self->showAnalysis(result, paths, keepView);
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::showProgress(const Progress& pr)
{
    if (pr.bytesTotal > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(pr.bytesDone * 1000 / pr.bytesTotal));
    }
    m_status->setText(pr.stage == "diagnosing"
                          ? tr("Diagnosing %1 files, %2 lines…").arg(pr.filesTotal).arg(pr.lines)
                          : tr("Reading %1 of %2 files · %3 of %4 MB · %5 lines")
                                .arg(pr.filesDone)
                                .arg(pr.filesTotal)
                                .arg(pr.bytesDone >> 20)
                                .arg(pr.bytesTotal >> 20)
                                .arg(pr.lines));
}

void MainWindow::receive(const QStringList& paths, std::vector<Snippet> snippets)
{
    if (paths.isEmpty() && snippets.empty())
        return;
    DropChoice choice = m_index ? m_dropChoice : DropChoice::Replace;
    if (choice == DropChoice::Ask) {
        QMessageBox box(QMessageBox::Question, tr("Add to the open bundle?"),
                        tr("A bundle is open. Add what you dropped or pasted to it, or open it on its own?"),
                        QMessageBox::Cancel, this);
        QPushButton* add = box.addButton(tr("&Add to This Bundle"), QMessageBox::AcceptRole);
        QPushButton* alone = box.addButton(tr("&Open on Its Own"), QMessageBox::RejectRole);
        box.setDefaultButton(add);
        box.exec();
        if (box.clickedButton() == add)
            choice = DropChoice::Add;
        else if (box.clickedButton() == alone)
            choice = DropChoice::Replace;
        else
            return;
    }
    if (choice == DropChoice::Add) {
        QStringList allPaths = m_paths;
        for (const auto& path : paths)
            if (!allPaths.contains(path))
                allPaths << path;
        std::vector<Snippet> all = m_snippets;
        for (auto& sn : snippets)
            all.push_back(std::move(sn));
        load(allPaths, std::move(all), m_options);
        return;
    }
    load(paths, std::move(snippets), AnalyzeOptions{});
}

void MainWindow::paste()
{
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    QStringList paths;
    if (mime && mime->hasUrls())
        for (const QUrl& u : mime->urls())
            if (u.isLocalFile())
                paths << u.toLocalFile();
    if (!paths.isEmpty()) {
        receive(paths, {});
        return;
    }
    const QString text = mime && mime->hasText() ? mime->text() : QString();
    if (text.trimmed().isEmpty()) {
        m_status->setText(
            tr("Nothing to paste: the clipboard holds no text and no files. Copy a traceback or a "
               "log excerpt, then paste again."));
        return;
    }
    receive({}, {makeSnippet(text, QStringLiteral("pasted"))});
}

void MainWindow::saveSnippets()
{
    if (m_snippets.empty())
        return;
    QString dir = settings().value(QStringLiteral("paths/saveDir"), QDir::homePath()).toString();
    QStringList written;
    auto write = [&](const QString& path, const QByteArray& bytes) {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
            QMessageBox::warning(
                this, tr("Cannot save"),
                tr("%1 cannot be written: %2. Choose a folder you can write to.").arg(path, f.errorString()));
            return false;
        }
        written << path;
        return true;
    };
    if (m_snippets.size() == 1) {
        QString path = QFileDialog::getSaveFileName(this, tr("Save pasted text"),
                                                    dir + QLatin1Char('/') + m_snippets.front().name);
        if (path.isEmpty() || !write(path, m_snippets.front().text))
            return;
    } else {
        QString target =
            QFileDialog::getExistingDirectory(this, tr("Save the pasted texts into a folder"), dir);
        if (target.isEmpty())
            return;
        for (const auto& sn : m_snippets)
            if (!write(target + QLatin1Char('/') + sn.name, sn.text))
                return;
    }
    settings().setValue(QStringLiteral("paths/saveDir"), QFileInfo(written.front()).absolutePath());
    m_status->setText(tr("Saved %1.").arg(written.join(QStringLiteral(", "))));
}

std::optional<Error> MainWindow::exportReportTo(const ExportRequest& request)
{
    if (!m_index)
        return Error{request.path.toStdString(), "there is nothing to report yet",
                     "open a bundle or paste a log first"};
    return rl::exportReport(m_index->analysis(), request);
}

void MainWindow::exportReport()
{
    if (!m_index)
        return;
    QSettings s = settings();
    QString dir = s.value(QStringLiteral("paths/exportDir"), QDir::homePath()).toString();
    QString base = windowTitle().section(QStringLiteral(" — "), 0, 0);
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    ExportDialog dialog(dir + QLatin1Char('/') + base + QStringLiteral("-report.html"), this);
    ExportRequest last;
    last.path = dialog.request().path;
    last.format = reportFormatFromName(s.value(QStringLiteral("export/format")).toString().toStdString())
                      .value_or(ReportFormat::Html);
    last.paper = s.value(QStringLiteral("export/paper")).toString() == QLatin1String("letter")
                     ? PaperSize::Letter
                     : PaperSize::A4;
    last.redact = true; // always offered on: a private copy is a deliberate choice each time
    dialog.setRequest(last);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ExportRequest req = dialog.request();
    if (!startExport(req))
        return;
    // The dialog's choices are kept once the report is written. Exports run one at a time, so the
    // next reportWritten is this one's.
    connect(
        this, &MainWindow::reportWritten, this,
        [this, req](const QString&, const QString& error) {
            if (!error.isEmpty()) {
                QMessageBox::warning(this, tr("Report not written"), error);
                return;
            }
            QSettings done = settings();
            done.setValue(QStringLiteral("paths/exportDir"), QFileInfo(req.path).absolutePath());
            done.setValue(QStringLiteral("export/format"), QString::fromLatin1(reportFormatName(req.format)));
            done.setValue(QStringLiteral("export/paper"),
                          req.paper == PaperSize::Letter ? QStringLiteral("letter") : QStringLiteral("a4"));
        },
        Qt::SingleShotConnection);
}

bool MainWindow::startExport(const ExportRequest& request)
{
    if (!m_index || m_exporting)
        return false;
    m_exporting = true;
    m_exportAction->setEnabled(false);
    m_status->setText(tr("Writing the report to %1…").arg(request.path));
    // The analysis is an immutable snapshot, kept alive here for as long as the report needs it.
    const std::shared_ptr<const Analysis> analysis = m_index->shared();
    QPointer<MainWindow> self(this);
    (void)QtConcurrent::run([self, analysis, request] {
        const std::optional<Error> err = rl::exportReport(*analysis, request);
        const QString error = err ? QString::fromStdString(err->message()) : QString();
        QMetaObject::invokeMethod(
            qApp,
            [self, request, error] {
                if (!self)
                    return;
                self->m_exporting = false;
                self->m_exportAction->setEnabled(self->m_index != nullptr);
                self->m_status->setText(
                    error.isEmpty()
                        ? tr("Report written to %1%2.")
                              .arg(request.path, request.redact ? tr(" (redacted)") : tr(" (not redacted)"))
                        : tr("Report not written: %1").arg(error));
                emit self->reportWritten(request.path, error);
            },
            Qt::QueuedConnection);
    });
    return true;
}

QList<QStringList> MainWindow::recentPaths()
{
    QList<QStringList> out;
    for (const QString& entry : settings().value(QStringLiteral("recent/paths")).toStringList())
        out << entry.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return out;
}

void MainWindow::rememberRecent(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    QStringList abs;
    for (const auto& p : paths)
        abs << QFileInfo(p).absoluteFilePath();
    QStringList entries = settings().value(QStringLiteral("recent/paths")).toStringList();
    const QString entry = abs.join(QLatin1Char('\n'));
    entries.removeAll(entry);
    entries.prepend(entry);
    while (entries.size() > kMaxRecent)
        entries.removeLast();
    settings().setValue(QStringLiteral("recent/paths"), entries);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QList<QStringList> recent = recentPaths();
    int n = 0;
    for (const QStringList& paths : recent) {
        ++n;
        QString label = paths.size() == 1
                            ? paths.front()
                            : tr("%1 and %n more", nullptr, paths.size() - 1).arg(paths.front());
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(n).arg(label), this,
                                             [this, paths] { openPaths(paths); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | static_cast<Qt::Key>(Qt::Key_0 + n)));
        a->setToolTip(paths.join(QLatin1Char('\n')));
    }
    m_recentMenu->setEnabled(n > 0);
}

void MainWindow::saveLayout()
{
    QSettings s = settings();
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/mainSplitter"), m_mainSplit->saveState());
    s.setValue(QStringLiteral("window/centerSplitter"), m_centerSplit->saveState());
    s.setValue(QStringLiteral("timeline/onlyHostsWithFindings"),
               m_timelinePane->timeline()->quietHostsHidden());
}

void MainWindow::restoreLayout()
{
    QSettings s = settings();
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    m_mainSplit->restoreState(s.value(QStringLiteral("window/mainSplitter")).toByteArray());
    m_centerSplit->restoreState(s.value(QStringLiteral("window/centerSplitter")).toByteArray());
    m_timelinePane->timeline()->setQuietHostsHidden(
        s.value(QStringLiteral("timeline/onlyHostsWithFindings"), false).toBool());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

void MainWindow::cancelLoading()
{
    if (m_cancel)
        *m_cancel = true;
    ++m_jobId;
    m_progress->hide();
    m_cancelButton->hide();
    m_status->setText(tr("Loading cancelled."));
    scheduleFileCheck(kFileCheckMs); // the bundle still shown is watched again
}

void MainWindow::showAnalysis(std::shared_ptr<const Analysis> analysis, const QStringList& paths,
                              bool keepView)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_progress->hide();
    m_cancelButton->hide();
    if (!analysis) {
        m_status->setText(tr("Loading cancelled."));
        return;
    }
    // Flight Recorder dumps without a log beside them are still a diagnosis (the finding panel's).
    if (analysis->sources.empty() && analysis->flight.empty()) {
        QString why;
        constexpr std::size_t kNamed = 20; // a folder of 50,000 empty files must not make a 50,000-line box
        for (std::size_t i = 0; i < analysis->skipped.size() && i < kNamed; ++i)
            why += QStringLiteral("\n• %1: %2")
                       .arg(QString::fromStdString(analysis->skipped[i].file),
                            QString::fromStdString(analysis->skipped[i].reason));
        if (analysis->skipped.size() > kNamed)
            why += tr("\n… and %1 more").arg(analysis->skipped.size() - kNamed);
        QString msg = tr("Nothing could be read from %1.%2").arg(paths.join(QStringLiteral(", ")), why);
        m_status->setText(tr("Nothing could be read."));
        emit loadFailed(msg);
        if (isVisible())
            plainWarning(this, tr("Nothing to read"), msg); // names from the bundle, literally
        return;
    }
    const std::optional<LineRef> keptLine = keepView ? m_logPane->currentLine() : std::nullopt;
    if (!keepView)
        m_bookmarks->clear();
    m_paths = paths;
    m_index = std::make_shared<const AnalysisIndex>(analysis);
    m_logPane->setIndex(m_index, keepView);
    m_timelinePane->setIndex(m_index, keepView ? TimelineWidget::ViewOnNewIndex::Keep
                                               : TimelineWidget::ViewOnNewIndex::Reset);
    m_findings->setIndex(m_index);
    fillRanks();
    m_stack->setCurrentIndex(1);
    m_exportAction->setEnabled(!m_exporting);
    m_saveSnippets->setEnabled(!m_snippets.empty());
    m_reloadAction->setEnabled(!m_paths.isEmpty());
    m_changedOnDisk.clear();
    m_addedOnDisk.clear();
    updateReloadButton();
    scheduleFileCheck(kFirstFileCheckMs);
    rememberRecent(m_paths);
    QString title =
        paths.size() == 1 ? QFileInfo(paths.front()).fileName() : tr("%1 paths").arg(paths.size());
    setWindowTitle(tr("%1 — Rankline").arg(title));
    // "1 file", not "1 files": bundles of one file are common (a pasted excerpt).
    auto count = [](std::size_t n, const QString& one, const QString& many) {
        return n == 1 ? QStringLiteral("1 ") + one : QString::number(n) + QLatin1Char(' ') + many;
    };
    const Coverage& coverage = analysis->coverage;
    m_status->setText(
        tr("%1 · %2 · %3%4%5%6")
            .arg(count(analysis->sources.size(), tr("file"), tr("files")))
            .arg(count(analysis->totalLines, tr("line"), tr("lines")))
            .arg(count(analysis->processes.size(), tr("process"), tr("processes")))
            .arg(coverage.complete()
                     ? QString()
                     : tr(" · logs of %1 of %2 ranks").arg(coverage.ranksWithLogs()).arg(coverage.worldRanks))
            .arg(analysis->flight.empty()
                     ? QString()
                     : QStringLiteral(" · ") + count(analysis->flight.dumps.size(),
                                                     tr("Flight Recorder dump"), tr("Flight Recorder dumps")))
            // The files that grew are named by the reload button.
            .arg(analysis->skipped.size() == analysis->grown.size()
                     ? QString()
                     : tr(" · %1 skipped").arg(analysis->skipped.size() - analysis->grown.size())));
    {
        std::string tip = coverageSentence(*analysis);
        if (const std::string fr = flightSentence(analysis->flight); !fr.empty())
            tip += (tip.empty() ? "" : "\n") + fr;
        m_status->setToolTip(QString::fromStdString(tip));
    }
    if (keptLine)
        selectLine(*keptLine);
    else if (const Finding* f = analysis->initiatingFinding())
        selectLine(f->anchor);
    emit analysisReady();
}

void MainWindow::updateReloadButton()
{
    const Analysis* a = m_index ? &m_index->analysis() : nullptr;
    if (!a || (a->grown.empty() && m_changedOnDisk.empty() && m_addedOnDisk.empty())) {
        m_reloadButton->hide();
        return;
    }
    // The files as a look found them now, when it found changes (a file that grew while being read
    // is among them if it still has); else those that grew while being read: a log still being
    // written, diagnosed as it was when opened, and said so where it shows.
    const bool sinceRead = !m_changedOnDisk.empty() || !m_addedOnDisk.empty();
    const int changed = static_cast<int>(sinceRead ? m_changedOnDisk.size() : a->grown.size());
    const int added = static_cast<int>(m_addedOnDisk.size());
    auto named = [&](std::size_t i) {
        if (!sinceRead)
            return a->source(a->grown[i]).displayPath;
        const ChangedSource& c = m_changedOnDisk[i];
        const Source& src = a->source(c.source);
        return src.displayPath + ' ' + describeChange(c.change, src.size);
    };
    if (!sinceRead)
        m_reloadButton->setText(changed == 1 ? tr("Reload — a file grew while being read")
                                             : tr("Reload — %1 files grew while being read").arg(changed));
    else if (added == 0)
        m_reloadButton->setText(changed == 1
                                    ? tr("Reload — a file changed since it was read")
                                    : tr("Reload — %1 files changed since they were read").arg(changed));
    else if (changed == 0)
        m_reloadButton->setText(added == 1 ? tr("Reload — a new file in the bundle's folders")
                                           : tr("Reload — %1 new files in the bundle's folders").arg(added));
    else
        m_reloadButton->setText(
            tr("Reload — %1 since read, %2")
                .arg(changed == 1 ? tr("a file changed") : tr("%1 files changed").arg(changed),
                     added == 1 ? tr("a new file") : tr("%1 new files").arg(added)));
    constexpr int kNamed = 10;
    // Up to kNamed names under `heading`, then how many more.
    auto list = [](QString heading, int n, const auto& name) {
        for (int i = 0; i < n && i < kNamed; ++i)
            heading += QStringLiteral("\n• ") + QString::fromStdString(name(static_cast<std::size_t>(i)));
        if (n > kNamed)
            heading += tr("\n… and %1 more").arg(n - kNamed);
        return heading;
    };
    QStringList parts;
    if (changed > 0)
        parts << list(sinceRead ? tr("The diagnosis shows these files as they were when read:")
                                : tr("Diagnosed as they were when opened:"),
                      changed, named);
    if (added > 0)
        parts << list(tr("New in the bundle's folders since it was read, not in the diagnosis:"), added,
                      [this](std::size_t i) { return m_addedOnDisk[i]; });
    m_reloadButton->setToolTip(parts.join(QStringLiteral("\n")) +
                               tr("\nReload (F5) reads the bundle again as it is now."));
    m_reloadButton->show();
}

void MainWindow::scheduleFileCheck(int afterMs)
{
    if (m_watchAction && m_watchAction->isChecked() && m_index && !m_paths.isEmpty())
        m_watchTimer->start(afterMs);
}

void MainWindow::checkFilesOnDisk()
{
    // Not while a bundle is being read (its result replaces this one), nor twice at once, nor when
    // watching is off.
    if (!m_index || m_checkingFiles || m_progress->isVisible() || !m_watchAction->isChecked())
        return;
    m_checkingFiles = true;
    const std::shared_ptr<const Analysis> analysis = m_index->shared();
    std::vector<std::string> paths;
    for (const QString& p : std::as_const(m_paths))
        paths.push_back(p.toStdString());
    QPointer<MainWindow> self(this);
    (void)QtConcurrent::run([self, analysis, paths = std::move(paths)] {
        QElapsedTimer took;
        took.start();
        // The analysis is an immutable snapshot: reading its sources here is safe while the window
        // shows it; a newer one makes this result moot (dropped below).
        const CancelFn gone = [self] { return self.isNull(); };
        std::vector<ChangedSource> changed = sourcesChangedOnDisk(analysis->sources, gone);
        std::vector<std::string> added = filesAddedSince(paths, analysis->sources, analysis->skipped, gone);
        const qint64 ms = took.elapsed();
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, analysis, changed = std::move(changed), added = std::move(added), ms]() mutable {
                if (!self)
                    return;
                self->m_checkingFiles = false;
                // A newer bundle, or watching turned off while this look was under way: moot.
                if (!self->m_index || self->m_index->shared() != analysis ||
                    !self->m_watchAction->isChecked())
                    return;
                self->m_changedOnDisk = std::move(changed);
                self->m_addedOnDisk = std::move(added);
                self->updateReloadButton();
                // Seldom enough that a bundle of many files costs next to nothing between looks.
                self->scheduleFileCheck(std::max<int>(kFileCheckMs, static_cast<int>(ms) * 50));
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::fillRanks()
{
    m_rankModel->clear();
    m_rankRows.clear();
    m_rankModel->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Local"), tr("PID"), tr("Identified by"), tr("Files")});
    const Analysis& a = m_index->analysis();
    std::map<std::string, QStandardItem*> hosts;
    const Finding* init = a.initiatingFinding();
    // Which processes a collateral finding names, once: per process and finding it was quadratic
    // in the ranks on bundles where one finding names thousands.
    std::vector<char> collateral(a.processes.size(), 0);
    for (const auto& f : a.findings)
        if (f.role == Role::Collateral)
            for (const ProcessId p : f.processes)
                if (p.value < collateral.size())
                    collateral[p.value] = 1;
    // A rank a finding suspects (the one a hang waits for, by the watchdogs' lines): the lead of a
    // hang, so marked ahead of the collateral it also is.
    std::vector<const Suspect*> suspect(a.processes.size(), nullptr);
    for (const auto& f : a.findings)
        for (const Suspect& s : f.suspects)
            if (s.process.value < suspect.size() && !suspect[s.process.value])
                suspect[s.process.value] = &s;
    constexpr int kColumns = 5;
    for (const auto& p : a.processes) {
        QStandardItem*& host = hosts[p.host];
        if (!host) {
            host = new QStandardItem(p.host.empty() ? tr("(host unknown)") : QString::fromStdString(p.host));
            QFont bold = host->font();
            bold.setBold(true);
            host->setFont(bold);
            QList<QStandardItem*> row{host};
            for (int c = 1; c < kColumns; ++c)
                row << new QStandardItem;
            m_rankModel->appendRow(row);
        }
        QStringList files;
        for (auto s : p.sources)
            files << QString::fromStdString(a.source(s).displayPath);
        // A process driving several GPUs: a rank on each ("ranks 0–3"), or its GPUs where no Init
        // line said their ranks.
        auto* rank = new QStandardItem(
            p.deviceRanks.size() > 1           ? tr("ranks %1").arg(QString::fromStdString(p.rankText()))
            : p.rank                           ? tr("rank %1").arg(*p.rank)
            : p.identitySource == "kernel-log" ? tr("kernel log")
            // "?" as the log's Rank column says it: "unknown (GPUs 3, 4, 6) ◆ initiating" pushed
            // the PID and the witness out of the narrow list; the tooltip says it in words.
            : p.severalDevices() ? tr("? (GPUs %1)").arg(QString::fromStdString(rankRuns(p.deviceList())))
                                 : tr("unknown"));
        rank->setData(p.id.value, ProcessRole);
        if (p.attempt)
            rank->setText(rank->text() + tr(" (attempt %1)").arg(*p.attempt));
        if (init && init->process == p.id) {
            rank->setText(rank->text() + tr(" ◆ initiating"));
            rank->setForeground(QColor(180, 20, 30));
        } else if (suspect[p.id.value]) {
            rank->setText(rank->text() + tr(" ▲ suspect"));
            rank->setForeground(QColor(140, 40, 150));
        } else if (collateral[p.id.value]) {
            rank->setText(rank->text() + tr(" ● collateral"));
            rank->setForeground(QColor(190, 110, 0));
        }
        // Why this process is who it is, and where the witnesses disagreed (kept: the stronger).
        auto* why = new QStandardItem(QString::fromStdString(p.identitySource));
        QString tip = tr("Host %1, PID %2")
                          .arg(p.host.empty() ? tr("unknown") : QString::fromStdString(p.host))
                          .arg(p.pid >= 0 ? QString::number(p.pid) : tr("unknown"));
        if (p.deviceRanks.size() > 1) {
            // One process driving several GPUs: each GPU's rank.
            QStringList each;
            for (const auto& [device, r] : p.deviceRanks)
                each << tr("GPU %1: rank %2").arg(device).arg(r);
            tip += tr("\nOne process driving %1 GPUs%2\n  %3")
                       .arg(p.deviceList().size())
                       .arg(p.nranks > 0 ? tr(" of a job of %1 ranks").arg(p.nranks) : QString())
                       .arg(each.join(QStringLiteral("\n  ")));
        } else if (p.rank) {
            tip += p.nranks > 0 ? tr("\nRank %1 of %2").arg(*p.rank).arg(p.nranks)
                                : tr("\nRank %1").arg(*p.rank);
        }
        if (p.severalDevices() && p.deviceRanks.size() < 2)
            tip += tr("\nOne process driving GPUs %1 (its lines' NCCL prefixes); %2")
                       .arg(QString::fromStdString(rankRuns(p.deviceList())))
                       .arg(p.deviceRanks.empty()
                                ? tr("no line says each GPU's rank")
                                : tr("GPU %1 is rank %2, and no line says the other GPUs' ranks")
                                      .arg(p.deviceRanks.front().first)
                                      .arg(p.deviceRanks.front().second));
        if (p.localRank)
            tip += tr("\nLocal rank %1").arg(*p.localRank);
        if (!p.address.empty())
            tip += tr("\nAddress %1 (%2)")
                       .arg(QString::fromStdString(p.address), QString::fromStdString(p.interface));
        if (!p.identitySource.empty())
            tip += tr("\nIdentified by: %1").arg(QString::fromStdString(p.identitySource));
        if (!p.identityConflicts.empty()) {
            // The mark fits the narrow list; the tooltip says what disagreed.
            why->setText(why->text() + QStringLiteral(" ⚠"));
            why->setForeground(QColor(170, 90, 0));
            tip += tr("\nWitnesses that disagreed:");
            for (const auto& c : p.identityConflicts)
                tip += QStringLiteral("\n• ") + QString::fromStdString(c);
        }
        if (const Suspect* s = suspect[p.id.value])
            tip += tr("\nSuspected: %1").arg(QString::fromStdString(s->reason()));
        QList<QStandardItem*> row{rank,
                                  new QStandardItem(p.localRank ? QString::number(*p.localRank) : QString()),
                                  new QStandardItem(p.pid >= 0 ? QString::number(p.pid) : QString()), why,
                                  new QStandardItem(files.join(QStringLiteral(", ")))};
        // Led by the rank's label, which the column may elide.
        tip.prepend(rank->text() + QLatin1Char('\n'));
        for (auto* item : row)
            item->setToolTip(tip);
        host->appendRow(row);
        if (m_rankRows.size() <= p.id.value)
            m_rankRows.resize(p.id.value + 1);
        m_rankRows[p.id.value] = rank->index();
    }
    // Local ranks come from paths (gpu2.log, torchrun trees); most bundles name none.
    m_rankView->setColumnHidden(1, std::none_of(a.processes.begin(), a.processes.end(),
                                                [](const Process& p) { return p.localRank.has_value(); }));
    m_rankView->expandAll();
    for (int c = 0; c < kColumns - 1; ++c)
        m_rankView->resizeColumnToContents(c);
    m_rankColumnNatural = m_rankView->columnWidth(0);
    fitRankColumn();
}

// The rank column leaves the local rank and the PID in view beside a long label (a role, an
// attempt), elided, its whole text in the tooltip. Again as the list is resized: when the rank list
// is filled the window's splitter may not have given it its width yet.
void MainWindow::fitRankColumn()
{
    if (m_rankModel->rowCount() == 0)
        return;
    int room = m_rankView->viewport()->width() - m_rankView->columnWidth(2);
    if (!m_rankView->isColumnHidden(1))
        room -= m_rankView->columnWidth(1);
    m_rankView->setColumnWidth(0, std::min(m_rankColumnNatural, std::max(room, 120)));
}

void MainWindow::selectLine(LineRef where)
{
    if (!m_index)
        return;
    m_logPane->selectLine(where);
    m_timeline->setSelectedLine(where);
    showRankOf(where);
}

void MainWindow::showRankOf(LineRef where)
{
    if (!m_index)
        return;
    // On ten thousand ranks the initiating one is far down the list: without this the list stayed
    // at rank 0 while the timeline and the log showed rank 409.
    const Analysis& a = m_index->analysis();
    if (where.source.value >= a.lines.size() || where.line >= a.lines[where.source.value].size())
        return;
    const ProcessId p = a.lines[where.source.value].process(where.line);
    if (p.value >= m_rankRows.size() || !m_rankRows[p.value].isValid())
        return;
    const QModelIndex row = m_rankRows[p.value];
    m_rankView->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
    // Centred when it has to scroll (the initiating rank in the middle of its neighbours), left
    // where it is when already in view (a click in the log does not make the list jump).
    if (!m_rankView->viewport()->rect().contains(m_rankView->visualRect(row)))
        m_rankView->scrollTo(row, QAbstractItemView::PositionAtCenter);
}

QTableView* MainWindow::logView() const
{
    return m_logPane->view();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QMimeData* mime = event->mimeData();
    QStringList paths;
    bool remote = false;
    for (const QUrl& u : mime->urls()) {
        if (u.isLocalFile())
            paths << u.toLocalFile();
        else
            remote = true;
    }
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        receive(paths, {});
        return;
    }
    QString text = mime->hasText() ? mime->text() : QString();
    // A path dragged as text from a terminal opens that path.
    const QString trimmed = text.trimmed();
    if (!trimmed.isEmpty() && !trimmed.contains(QLatin1Char('\n')) && QFileInfo::exists(trimmed)) {
        event->acceptProposedAction();
        receive({trimmed}, {});
        return;
    }
    if (remote && text.trimmed().isEmpty()) {
        m_status->setText(
            tr("Only local files can be opened: Rankline downloads nothing. Save the file first, "
               "then drop it here."));
        return;
    }
    if (trimmed.isEmpty())
        return;
    event->acceptProposedAction();
    receive({}, {makeSnippet(text, QStringLiteral("dropped"))});
}

} // namespace rl
