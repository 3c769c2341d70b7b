#pragma once

#include <QMainWindow>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "analysis.h"
#include "models/analysisindex.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QStandardItemModel;
class QTableView;
class QTreeView;

namespace rl
{

class Bookmarks;
class FindingPanel;
class LogPane;
class TimelinePane;
class TimelineWidget;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(std::shared_ptr<const Encyclopedia> encyclopedia, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading in the background; a newer call supersedes an older one.
    void openPaths(const QStringList& paths);
    void openPaths(const QStringList& paths, const AnalyzeOptions& options);
    // Runs the analysis of the open bundle again with `options` (the user's clock offsets and pins),
    // from the sources already read; the timeline and the log keep their view.
    void reanalyze(const AnalyzeOptions& options);
    const AnalyzeOptions& options() const { return m_options; }
    void openSample();
    std::shared_ptr<const AnalysisIndex> currentIndex() const { return m_index; }
    QTableView* logView() const;
    FindingPanel* findingPanel() const { return m_findings; }
    TimelineWidget* timeline() const { return m_timeline; }
    LogPane* logPane() const { return m_logPane; }
    Bookmarks* bookmarks() const { return m_bookmarks; }
    static QString samplePath();

public slots:
    void selectLine(rl::LineRef where);
    void cancelLoading();

signals:
    void analysisReady();
    void loadFailed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
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

    std::shared_ptr<const Encyclopedia> m_encyclopedia;
    std::shared_ptr<const AnalysisIndex> m_index;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_jobId = 0;
    AnalyzeOptions m_options;
    QStringList m_paths;

    QStackedWidget* m_stack = nullptr;
    TimelineWidget* m_timeline = nullptr;
    TimelinePane* m_timelinePane = nullptr;
    LogPane* m_logPane = nullptr;
    Bookmarks* m_bookmarks = nullptr;
    QTreeView* m_rankView = nullptr;
    QStandardItemModel* m_rankModel = nullptr;
    FindingPanel* m_findings = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace rl
