#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
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
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "models/logmodel.h"
#include "timeline/timelinewidget.h"
#include "util/untrusted.h"
#include "window/findingpanel.h"

namespace rl
{

namespace
{
enum RankRoles { ProcessRole = Qt::UserRole + 1 };
}

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
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    resize(1400, 860);
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
    file->addAction(tr("Open &Sample Incident"), this, &MainWindow::openSample);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* toFailure =
        view->addAction(tr("Zoom to &Failure"), this, [this] { m_timeline->zoomToInitiating(); });
    toFailure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    QAction* fit = view->addAction(tr("&Fit Whole Run"), this, [this] { m_timeline->fitAll(); });
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* zin = view->addAction(tr("Zoom &In"), this, [this] { m_timeline->zoomBy(0.5); });
    zin->setShortcut(QKeySequence::ZoomIn);
    QAction* zout = view->addAction(tr("Zoom &Out"), this, [this] { m_timeline->zoomBy(2.0); });
    zout->setShortcut(QKeySequence::ZoomOut);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Rankline"), this, [this] {
        NcclProbeResult r = probeNccl();
        QMessageBox::about(
            this, tr("About Rankline"),
            tr("<h3>Rankline %1</h3><p>Offline investigator for failed distributed-training jobs.</p>"
               "<p>Nothing you open leaves this machine.</p><p>Qt %2<br>Local NCCL: %3</p>")
                .arg(QStringLiteral(RANKLINE_VERSION), QString::fromLatin1(qVersion()),
                     r.found ? QString::fromStdString(r.version.toString() + " (" + r.path + ")")
                             : tr("not found")));
    });
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
    buttons->addWidget(sample);
    buttons->addWidget(folder);
    buttons->addWidget(files);
    buttons->addStretch(1);
    auto* drop = new QLabel(tr("…or drop folders, files or archives onto this window."), w);
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

    m_rankModel = new QStandardItemModel(this);
    m_rankView = new QTreeView(split);
    m_rankView->setModel(m_rankModel);
    m_rankView->setRootIsDecorated(true);
    m_rankView->setUniformRowHeights(true);
    m_rankView->setEditTriggers(QAbstractItemView::NoEditTriggers);
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
    auto* timelineBox = new QWidget(center);
    auto* tl = new QVBoxLayout(timelineBox);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->setSpacing(0);
    auto* bar = new QToolBar(timelineBox);
    bar->setIconSize(QSize(16, 16));
    m_timeline = new TimelineWidget;
    bar->addAction(tr("Zoom to failure"), m_timeline, &TimelineWidget::zoomToInitiating);
    bar->addAction(tr("Fit whole run"), m_timeline, &TimelineWidget::fitAll);
    bar->addAction(tr("Zoom in"), m_timeline, [this] { m_timeline->zoomBy(0.5); });
    bar->addAction(tr("Zoom out"), m_timeline, [this] { m_timeline->zoomBy(2.0); });
    auto* hint = new QLabel(tr("  wheel: zoom · drag: pan · click a mark: show its line"), bar);
    hint->setStyleSheet(QStringLiteral("color: palette(mid)"));
    bar->addWidget(hint);
    auto* scroll = new QScrollArea(timelineBox);
    scroll->setWidget(m_timeline);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    tl->addWidget(bar);
    tl->addWidget(scroll);
    connect(m_timeline, &TimelineWidget::lineActivated, this, &MainWindow::selectLine);

    m_logModel = new LogModel(this);
    m_logView = new QTableView(center);
    m_logView->setModel(m_logModel);
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_logView->setWordWrap(false);
    m_logView->setShowGrid(false);
    m_logView->verticalHeader()->hide();
    m_logView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_logView->horizontalHeader()->setStretchLastSection(true);
    m_logView->horizontalHeader()->setHighlightSections(false);
    connect(m_logView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) {
                if (cur.isValid())
                    m_timeline->setSelectedLine(m_logModel->lineAt(cur.row()));
            });
    center->addWidget(timelineBox);
    center->addWidget(m_logView);
    center->setStretchFactor(0, 2);
    center->setStretchFactor(1, 3);

    m_findings = new FindingPanel(split);
    connect(m_findings, &FindingPanel::lineActivated, this, &MainWindow::selectLine);

    split->addWidget(m_rankView);
    split->addWidget(center);
    split->addWidget(m_findings);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);
    split->setSizes({330, 660, 410});
    return split;
}

void MainWindow::openSample()
{
    openPaths({samplePath()});
}

void MainWindow::openPaths(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    if (m_cancel)
        *m_cancel = true; // the previous job's result will be dropped
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 job = ++m_jobId;
    m_status->setText(tr("Reading %1…").arg(paths.join(QStringLiteral(", "))));
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancelButton->show();

    std::vector<std::string> p;
    for (const auto& s : paths)
        p.push_back(QFileInfo(s).absoluteFilePath().toStdString());
    auto cancel = m_cancel;
    auto enc = m_encyclopedia;
    QPointer<MainWindow> self(this);
    // The analysis runs off the UI thread; its immutable result comes back queued and is dropped if
    // a newer job started meanwhile.
    (void)QtConcurrent::run([self, job, cancel, enc, p, paths]() {
        ProgressSink sink;
        sink.cancelled = [cancel] { return cancel->load(); };
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
        std::shared_ptr<const Analysis> result = analyzePaths(p, enc, {}, sink);
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, result, paths] {
                if (!self || job != self->m_jobId)
                    return;
                self->showAnalysis(result, paths);
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

void MainWindow::cancelLoading()
{
    if (m_cancel)
        *m_cancel = true;
    ++m_jobId;
    m_progress->hide();
    m_cancelButton->hide();
    m_status->setText(tr("Loading cancelled."));
}

void MainWindow::showAnalysis(std::shared_ptr<const Analysis> analysis, const QStringList& paths)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_progress->hide();
    m_cancelButton->hide();
    if (!analysis) {
        m_status->setText(tr("Loading cancelled."));
        return;
    }
    if (analysis->sources.empty()) {
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
    m_index = std::make_shared<const AnalysisIndex>(analysis);
    m_logModel->setIndex(m_index);
    m_logView->resizeColumnsToContents();
    m_logView->setColumnWidth(LogModel::TimeColumn, m_logView->columnWidth(LogModel::TimeColumn) + 8);
    m_timeline->setIndex(m_index);
    m_findings->setIndex(m_index);
    fillRanks();
    m_stack->setCurrentIndex(1);
    QString title =
        paths.size() == 1 ? QFileInfo(paths.front()).fileName() : tr("%1 paths").arg(paths.size());
    setWindowTitle(tr("%1 — Rankline").arg(title));
    m_status->setText(
        tr("%1 files · %2 lines · %3 processes%4")
            .arg(analysis->sources.size())
            .arg(analysis->totalLines)
            .arg(analysis->processes.size())
            .arg(analysis->skipped.empty() ? QString() : tr(" · %1 skipped").arg(analysis->skipped.size())));
    if (const Finding* f = analysis->initiatingFinding())
        selectLine(f->anchor);
    emit analysisReady();
}

void MainWindow::fillRanks()
{
    m_rankModel->clear();
    m_rankModel->setHorizontalHeaderLabels({tr("Rank"), tr("PID"), tr("Identified by"), tr("Files")});
    const Analysis& a = m_index->analysis();
    std::map<std::string, QStandardItem*> hosts;
    const Finding* init = a.initiatingFinding();
    for (const auto& p : a.processes) {
        QStandardItem*& host = hosts[p.host];
        if (!host) {
            host = new QStandardItem(p.host.empty() ? tr("(host unknown)") : QString::fromStdString(p.host));
            QFont bold = host->font();
            bold.setBold(true);
            host->setFont(bold);
            m_rankModel->appendRow({host, new QStandardItem, new QStandardItem, new QStandardItem});
        }
        QStringList files;
        for (auto s : p.sources)
            files << QString::fromStdString(a.source(s).displayPath);
        auto* rank = new QStandardItem(p.rank ? tr("rank %1").arg(*p.rank) : tr("unknown"));
        rank->setData(p.id.value, ProcessRole);
        if (init && init->process == p.id) {
            rank->setText(rank->text() + tr(" ◆ initiating"));
            rank->setForeground(QColor(180, 20, 30));
        } else {
            for (const auto& f : a.findings)
                if (f.role == Role::Collateral &&
                    std::find(f.processes.begin(), f.processes.end(), p.id) != f.processes.end()) {
                    rank->setText(rank->text() + tr(" ● collateral"));
                    rank->setForeground(QColor(190, 110, 0));
                    break;
                }
        }
        host->appendRow({rank, new QStandardItem(p.pid >= 0 ? QString::number(p.pid) : QString()),
                         new QStandardItem(QString::fromStdString(p.identitySource)),
                         new QStandardItem(files.join(QStringLiteral(", ")))});
    }
    m_rankView->expandAll();
    for (int c = 0; c < 3; ++c)
        m_rankView->resizeColumnToContents(c);
}

void MainWindow::selectLine(LineRef where)
{
    if (!m_index)
        return;
    int row = m_index->rowOf(where);
    QModelIndex idx = m_logModel->index(row, LogModel::TextColumn);
    m_logView->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_logView->scrollTo(idx, QAbstractItemView::PositionAtCenter);
    m_timeline->setSelectedLine(where);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& u : event->mimeData()->urls())
        if (u.isLocalFile())
            paths << u.toLocalFile();
    if (!paths.isEmpty()) {
        openPaths(paths);
        event->acceptProposedAction();
    }
}

} // namespace rl
