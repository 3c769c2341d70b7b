#pragma once

#include <QMainWindow>
#include <QPersistentModelIndex>
#include <QPointer>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "analysis.h"
#include "models/analysisindex.h"
#include "report/reportexport.h"

class QLabel;
class QMenu;
class QSplitter;
class QToolBar;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QStandardItemModel;
class QTableView;
class QTimer;
class QTreeView;

namespace rl
{

class EncyclopediaBrowser;
class Bookmarks;
class FindingPanel;
class LogPane;
class TimelinePane;
class TimelineWidget;

// Text pasted or dropped onto the window: diagnosed as an in-memory source.
struct Snippet {
    QString name; // "pasted-1.txt": shown as its file, proposed when saving
    QByteArray text;
};

// What a drop or paste does while a bundle is open.
enum class DropChoice { Ask, Add, Replace };

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(std::shared_ptr<const Encyclopedia> encyclopedia, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading in the background; a newer call supersedes an older one.
    void openPaths(const QStringList& paths);
    // Diagnoses a traceback or log excerpt held in memory; `origin` is "pasted" or "dropped".
    void openText(const QString& text, const QString& origin = QStringLiteral("pasted"));
    void openPaths(const QStringList& paths, const AnalyzeOptions& options);
    // Runs the analysis of the open bundle again with `options` (the user's clock offsets and pins),
    // from the sources already read; the timeline and the log keep their view.
    void reanalyze(const AnalyzeOptions& options);
    const AnalyzeOptions& options() const { return m_options; }
    void openSample();
    // Reads the open bundle's files again as they are now (a log still being written has grown
    // since), with the same clock settings and pasted text; the view stays where it was.
    void reload();
    // Looks, off the UI thread, at whether the open bundle's files changed on disk since they were
    // read (a log still being written, rotated, deleted) and whether new ones appeared in its
    // folders (a rank that started writing later), and offers a reload when so. Runs every few
    // seconds while View > Watch Files for Changes is on (and does nothing while it is off).
    void checkFilesOnDisk();
    // What the last look found (empty when nothing changed).
    const std::vector<ChangedSource>& filesChangedOnDisk() const { return m_changedOnDisk; }
    const std::vector<std::string>& filesAddedOnDisk() const { return m_addedOnDisk; }
    // What a drop or paste does while a bundle is open (Ask shows a question).
    void setDropChoice(DropChoice choice) { m_dropChoice = choice; }
    // Writes a report of what is open; the error names the file, the cause and what to do.
    std::optional<Error> exportReportTo(const ExportRequest& request);
    // The same off the UI thread, as File > Export Report does once its dialog is accepted: a PDF
    // of a bundle of ten thousand files takes seconds. reportWritten() says how it went; false when
    // nothing is open or another export is still being written.
    bool startExport(const ExportRequest& request);
    bool isExporting() const { return m_exporting; }
    // Recently opened path sets, newest first (each entry is one or more paths).
    static QList<QStringList> recentPaths();
    const std::vector<Snippet>& snippets() const { return m_snippets; }
    std::shared_ptr<const AnalysisIndex> currentIndex() const { return m_index; }
    QTableView* logView() const;
    FindingPanel* findingPanel() const { return m_findings; }
    TimelineWidget* timeline() const { return m_timeline; }
    LogPane* logPane() const { return m_logPane; }
    Bookmarks* bookmarks() const { return m_bookmarks; }
    static QString samplePath();
    // The encyclopedia window (created on first use), raised on an entry or on the error table.
    EncyclopediaBrowser* showEncyclopedia(const QString& entryId = {});
    EncyclopediaBrowser* showErrorTable();

public slots:
    void selectLine(rl::LineRef where);
    void cancelLoading();
    // Edit ▸ Paste: files or text from the clipboard.
    void paste();
    // File ▸ Export Report…
    void exportReport();

signals:
    void analysisReady();
    void loadFailed(const QString& message);
    // An export started by startExport() ended: `error` is empty when the report was written.
    void reportWritten(const QString& path, const QString& error);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    // Paths and snippets from a drop or paste: added to the open bundle or opened on their own.
    void receive(const QStringList& paths, std::vector<Snippet> snippets);
    void load(const QStringList& paths, std::vector<Snippet> snippets, const AnalyzeOptions& options,
              bool keepView = false);
    QStringList shownInputs() const; // the paths and snippet names of the open bundle
    Snippet makeSnippet(const QString& text, const QString& origin);
    void rememberRecent(const QStringList& paths);
    void rebuildRecentMenu();
    void saveLayout();
    void restoreLayout();
    void saveSnippets();
    void buildMenus();
    QWidget* buildWelcome();
    QWidget* buildInvestigation();
    void showAnalysis(std::shared_ptr<const Analysis> analysis, const QStringList& paths,
                      bool keepView = false);
    using Job = std::function<std::shared_ptr<const Analysis>(const ProgressSink&)>;
    void runJob(const QString& what, const QStringList& paths, Job work, bool keepView);
    void setClockOffset(const QString& host, std::optional<qint64> offsetUs);
    void pinLines(LineRef a, LineRef b);
    void showProgress(const Progress& progress);
    void fillRanks();
    void fitRankColumn();
    // The status bar's reload offer: files that grew while being read, or changed since.
    void updateReloadButton();
    void scheduleFileCheck(int afterMs);
    // Shows the rank that wrote `where` in the rank list, as its current row (no filter changes).
    void showRankOf(rl::LineRef where);

    std::shared_ptr<const Encyclopedia> m_encyclopedia;
    std::shared_ptr<const AnalysisIndex> m_index;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_jobId = 0;
    AnalyzeOptions m_options;

    QStackedWidget* m_stack = nullptr;
    TimelineWidget* m_timeline = nullptr;
    TimelinePane* m_timelinePane = nullptr;
    LogPane* m_logPane = nullptr;
    Bookmarks* m_bookmarks = nullptr;
    QTreeView* m_rankView = nullptr;
    int m_rankColumnNatural = 0; // the rank column's width for its whole labels (fitRankColumn)
    QStandardItemModel* m_rankModel = nullptr;
    // Each process's row in the rank list (by process id): the list follows the selected line.
    std::vector<QPersistentModelIndex> m_rankRows;
    FindingPanel* m_findings = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_reloadButton = nullptr; // shown when files grew while they were read
    QLabel* m_status = nullptr;
    QTimer* m_watchTimer = nullptr;   // the next look at the open bundle's files
    QAction* m_watchAction = nullptr; // View > Watch Files for Changes
    bool m_checkingFiles = false;     // a look is under way off the UI thread
    bool m_exporting = false;         // a report is being written off the UI thread
    std::vector<ChangedSource> m_changedOnDisk;
    std::vector<std::string> m_addedOnDisk; // display paths of files new in the bundle's folders

    QStringList m_paths;             // what the open (or loading) bundle was read from
    std::vector<Snippet> m_snippets; // and the text pasted or dropped into it
    int m_snippetCount = 0;
    DropChoice m_dropChoice = DropChoice::Ask;
    QMenu* m_recentMenu = nullptr;
    QAction* m_saveSnippets = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_reloadAction = nullptr;
    QAction* m_allAttemptsAction = nullptr; // torchrun trees: every attempt, not only the latest
    QSplitter* m_mainSplit = nullptr;
    QSplitter* m_centerSplit = nullptr;
    QToolBar* m_timelineBar = nullptr;
    QPointer<EncyclopediaBrowser> m_browser;
};

} // namespace rl
