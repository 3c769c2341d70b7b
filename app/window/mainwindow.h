#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <atomic>
#include <memory>

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

class EncyclopediaBrowser;
class FindingPanel;
class LogModel;
class TimelineWidget;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(std::shared_ptr<const Encyclopedia> encyclopedia, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading in the background; a newer call supersedes an older one.
    void openPaths(const QStringList& paths);
    void openSample();
    std::shared_ptr<const AnalysisIndex> currentIndex() const { return m_index; }
    QTableView* logView() const { return m_logView; }
    FindingPanel* findingPanel() const { return m_findings; }
    TimelineWidget* timeline() const { return m_timeline; }
    static QString samplePath();
    // The encyclopedia window (created on first use), raised on an entry or on the error table.
    EncyclopediaBrowser* showEncyclopedia(const QString& entryId = {});
    EncyclopediaBrowser* showErrorTable();

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
    void showAnalysis(std::shared_ptr<const Analysis> analysis, const QStringList& paths);
    void showProgress(const Progress& progress);
    void fillRanks();

    std::shared_ptr<const Encyclopedia> m_encyclopedia;
    std::shared_ptr<const AnalysisIndex> m_index;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_jobId = 0;

    QStackedWidget* m_stack = nullptr;
    TimelineWidget* m_timeline = nullptr;
    QTableView* m_logView = nullptr;
    LogModel* m_logModel = nullptr;
    QTreeView* m_rankView = nullptr;
    QStandardItemModel* m_rankModel = nullptr;
    FindingPanel* m_findings = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QLabel* m_status = nullptr;
    QPointer<EncyclopediaBrowser> m_browser;
};

} // namespace rl
