#pragma once
// The merged log view with its filter bar and search bar: every rank in aligned order, or one rank or
// one host; filters by severity, NCCL subsystem, finding, events and bookmarks; RE2 search with
// highlighted matches, next/previous and a count; bookmarks; ±N lines of context from one rank.

#include <QWidget>

#include <memory>
#include <optional>

#include "models/analysisindex.h"
#include "models/logfilter.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;
class QToolButton;

namespace rl
{

class Bookmarks;
class LogFilterModel;
class LogModel;

class LogPane final : public QWidget
{
    Q_OBJECT
public:
    explicit LogPane(Bookmarks* bookmarks, QWidget* parent = nullptr);

    // A new analysis. Keep holds the filter and search (a re-analysis of the same bundle).
    void setIndex(std::shared_ptr<const AnalysisIndex> index, bool keepFilter = false);
    QTableView* view() const { return m_view; }
    LogModel* logModel() const { return m_model; }
    LogFilterModel* filterModel() const { return m_filter; }
    QLineEdit* searchField() const { return m_search; }
    std::optional<LineRef> currentLine() const;

    void setFilter(const LogFilter& filter);
    LogFilter filter() const;

public slots:
    // Selects the line's row; when the filter hides it, the nearest shown row, and says so.
    void selectLine(rl::LineRef where);
    void findNext();
    void findPrevious();
    void toggleBookmark();
    void nextBookmark();
    void previousBookmark();
    // Only the lines of `where`'s rank around it: ±n in its own file.
    void showContext(rl::LineRef where, int n);
    void clearFilters();

signals:
    // The user moved the current row (keyboard, click, search, bookmarks).
    void lineSelected(rl::LineRef where);
    void message(const QString& text);

private:
    void buildFilterBar(QWidget* bar);
    void fillFilterChoices();
    void applyFilterFromControls(std::optional<LineRef> keep = std::nullopt);
    void updateSearchStatus();
    void goToRow(int row);
    void showContextMenu(const QPoint& pos);

    std::shared_ptr<const AnalysisIndex> m_index;
    Bookmarks* m_bookmarks;
    LogModel* m_model = nullptr;
    LogFilterModel* m_filter = nullptr;
    QTableView* m_view = nullptr;

    QComboBox* m_scope = nullptr;
    QComboBox* m_level = nullptr;
    QToolButton* m_subsys = nullptr;
    QComboBox* m_finding = nullptr;
    QCheckBox* m_eventsOnly = nullptr;
    QCheckBox* m_bookmarksOnly = nullptr;
    QLineEdit* m_search = nullptr;
    QToolButton* m_case = nullptr;
    QLabel* m_searchStatus = nullptr;
    QWidget* m_contextBar = nullptr;
    QLabel* m_contextLabel = nullptr;
    QSpinBox* m_contextLines = nullptr;
    std::uint32_t m_subsysMask = 0;
    std::optional<LineRef> m_context;
    std::optional<LineRef> m_keep; // the line to keep current across a filter change
    bool m_updating = false;
};

} // namespace rl
