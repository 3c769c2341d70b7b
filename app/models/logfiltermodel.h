#pragma once
// The log as a view shows it: a LogModel seen through a filter (an index vector of merged rows, none
// when nothing is filtered) with the matches of a search. Filtering and searching millions of lines
// run on a worker thread; the result replaces the old one in one reset, and a result that arrives
// after a newer request, or for another analysis, is dropped.

#include <QAbstractProxyModel>

#include <atomic>
#include <memory>
#include <vector>

#include "models/logfilter.h"
#include "models/logsearch.h"

namespace rl
{

class LogModel;

class LogFilterModel final : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit LogFilterModel(QObject* parent = nullptr);
    ~LogFilterModel() override;

    // Must be a LogModel.
    void setSourceModel(QAbstractItemModel* model) override;
    LogModel* logModel() const;

    // Bundles up to this many lines are filtered and searched on the calling thread (instantly).
    void setSynchronousLimit(std::size_t lines) { m_syncLimit = lines; }

    void setFilter(const LogFilter& filter);
    const LogFilter& filter() const { return m_filter; }
    bool isFiltered() const { return m_rows != nullptr; }

    // An empty pattern clears the search.
    void setSearch(const QString& pattern, bool caseSensitive = false);
    std::shared_ptr<const SearchPattern> searchPattern() const { return m_pattern; }
    const std::vector<std::uint32_t>& matches() const { return m_matches; }
    // The match after (or before) `row`, wrapping around; -1 when there is none.
    int nextMatch(int row, bool forward) const;
    // 0-based position of `row` among the matches, or -1.
    int matchNumber(int row) const;
    void setCurrentMatch(int row);
    int currentMatch() const { return m_currentMatch; }

    bool busy() const { return m_filterRunning || m_searchRunning; }

    LineRef lineAt(int row) const;
    // The row showing `where`, or -1 when the filter hides it.
    int rowOf(LineRef where) const;
    // The row of `where`, or of the closest line after it that is shown (before it at the end).
    int nearestRowOf(LineRef where) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex& idx) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex& proxy) const override;
    QModelIndex mapFromSource(const QModelIndex& source) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    void filterApplied(int rows);
    void searchFinished(int matches, const QString& error);
    void busyChanged(bool busy);

private:
    using Rows = std::shared_ptr<const std::vector<std::uint32_t>>;
    void applyRows(Rows rows);
    void startSearch();
    void finishSearch(std::vector<std::uint32_t> matches);
    std::uint32_t mergedRow(int row) const;

    LogFilter m_filter;
    Rows m_rows; // null: every merged row, in order
    std::shared_ptr<const SearchPattern> m_pattern;
    std::vector<std::uint32_t> m_matches;
    int m_currentMatch = -1;
    std::size_t m_syncLimit = 200000;
    quint64 m_filterJob = 0;
    quint64 m_searchJob = 0;
    std::shared_ptr<std::atomic<bool>> m_filterCancel;
    std::shared_ptr<std::atomic<bool>> m_searchCancel;
    bool m_filterRunning = false;
    bool m_searchRunning = false;
};

} // namespace rl
