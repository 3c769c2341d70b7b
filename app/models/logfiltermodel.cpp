#include "models/logfiltermodel.h"

#include <QPoint>
#include <QPointer>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "models/logmodel.h"

namespace rl
{

LogFilterModel::LogFilterModel(QObject* parent) : QAbstractProxyModel(parent) {}

LogFilterModel::~LogFilterModel()
{
    if (m_filterCancel)
        *m_filterCancel = true;
    if (m_searchCancel)
        *m_searchCancel = true;
}

void LogFilterModel::setSourceModel(QAbstractItemModel* model)
{
    Q_ASSERT(!model || qobject_cast<LogModel*>(model));
    if (sourceModel())
        disconnect(sourceModel(), nullptr, this, nullptr);
    beginResetModel();
    QAbstractProxyModel::setSourceModel(model);
    m_rows.reset();
    m_matches.clear();
    endResetModel();
    if (!model)
        return;
    // A new analysis: nothing of the old filter result or matches applies to it.
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        if (m_filterCancel)
            *m_filterCancel = true;
        if (m_searchCancel)
            *m_searchCancel = true;
        ++m_filterJob;
        ++m_searchJob;
        beginResetModel();
    });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_rows.reset();
        m_matches.clear();
        m_currentMatch = -1;
        m_filter = {};
        m_pattern.reset();
        endResetModel();
        if (m_filterRunning || m_searchRunning) {
            m_filterRunning = m_searchRunning = false;
            emit busyChanged(false);
        }
    });
    connect(model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& tl, const QModelIndex& br, const QList<int>& roles) {
                if (!m_rows) {
                    emit dataChanged(index(tl.row(), tl.column()), index(br.row(), br.column()), roles);
                    return;
                }
                // Rows in between may be filtered out: announce the shown ones that fall in range.
                auto lo =
                    std::lower_bound(m_rows->begin(), m_rows->end(), static_cast<std::uint32_t>(tl.row()));
                auto hi = std::upper_bound(lo, m_rows->end(), static_cast<std::uint32_t>(br.row()));
                if (lo != hi)
                    emit dataChanged(index(static_cast<int>(lo - m_rows->begin()), tl.column()),
                                     index(static_cast<int>(hi - m_rows->begin()) - 1, br.column()), roles);
            });
}

LogModel* LogFilterModel::logModel() const
{
    return static_cast<LogModel*>(sourceModel());
}

std::uint32_t LogFilterModel::mergedRow(int row) const
{
    return m_rows ? (*m_rows)[static_cast<std::size_t>(row)] : static_cast<std::uint32_t>(row);
}

void LogFilterModel::setFilter(const LogFilter& filter)
{
    m_filter = filter;
    if (m_filterCancel)
        *m_filterCancel = true;
    const quint64 job = ++m_filterJob;
    auto index = logModel() ? logModel()->analysisIndex() : nullptr;
    const bool sync = !index || filter.isIdentity() || index->analysis().merged.size() <= m_syncLimit;
    if (sync && m_filterRunning) {
        m_filterRunning = false;
        emit busyChanged(busy());
    }
    if (!index || filter.isIdentity()) {
        applyRows(nullptr);
        return;
    }
    if (index->analysis().merged.size() <= m_syncLimit) {
        auto rows = filterRows(*index, filter);
        applyRows(std::make_shared<const std::vector<std::uint32_t>>(std::move(*rows)));
        return;
    }
    m_filterCancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_filterCancel;
    if (!m_filterRunning) {
        m_filterRunning = true;
        emit busyChanged(true);
    }
    QPointer<LogFilterModel> self(this);
    (void)QtConcurrent::run([self, job, cancel, index, filter] {
        auto rows = filterRows(*index, filter, [cancel] { return cancel->load(); });
        if (!rows || !self)
            return;
        auto shared = std::make_shared<const std::vector<std::uint32_t>>(std::move(*rows));
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, index, shared] {
                if (!self || job != self->m_filterJob || !self->logModel() ||
                    self->logModel()->analysisIndex() != index)
                    return;
                self->m_filterRunning = false;
                self->applyRows(shared);
                if (!self->busy())
                    emit self->busyChanged(false);
            },
            Qt::QueuedConnection);
    });
}

void LogFilterModel::applyRows(Rows rows)
{
    Q_ASSERT(QThread::currentThread() == thread());
    beginResetModel();
    m_rows = std::move(rows);
    m_matches.clear();
    m_currentMatch = -1;
    endResetModel();
    emit filterApplied(rowCount());
    if (m_pattern && m_pattern->ok())
        startSearch();
}

void LogFilterModel::setSearch(const QString& pattern, bool caseSensitive)
{
    if (m_pattern && m_pattern->text() == pattern && m_pattern->caseSensitive() == caseSensitive)
        return;
    m_pattern = pattern.isEmpty() ? nullptr : SearchPattern::compile(pattern, caseSensitive);
    if (!m_pattern || !m_pattern->ok()) {
        if (m_searchCancel)
            *m_searchCancel = true;
        ++m_searchJob;
        if (m_searchRunning) {
            m_searchRunning = false;
            emit busyChanged(busy());
        }
        finishSearch({});
        return;
    }
    startSearch();
}

void LogFilterModel::startSearch()
{
    if (m_searchCancel)
        *m_searchCancel = true;
    const quint64 job = ++m_searchJob;
    auto index = logModel() ? logModel()->analysisIndex() : nullptr;
    if (!index) {
        finishSearch({});
        return;
    }
    const std::size_t n = m_rows ? m_rows->size() : index->analysis().merged.size();
    if (n <= m_syncLimit && m_searchRunning) {
        m_searchRunning = false;
        emit busyChanged(busy());
    }
    if (n <= m_syncLimit) {
        finishSearch(std::move(*searchRows(*index, m_rows.get(), *m_pattern, {}, 1)));
        return;
    }
    m_searchCancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_searchCancel;
    if (!m_searchRunning) {
        m_searchRunning = true;
        emit busyChanged(true);
    }
    QPointer<LogFilterModel> self(this);
    (void)QtConcurrent::run([self, job, cancel, index, rows = m_rows, pattern = m_pattern] {
        auto found = searchRows(*index, rows.get(), *pattern, [cancel] { return cancel->load(); });
        if (!found || !self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, rows, m = std::move(*found)]() mutable {
                if (!self || job != self->m_searchJob || rows != self->m_rows)
                    return;
                self->m_searchRunning = false;
                self->finishSearch(std::move(m));
                if (!self->busy())
                    emit self->busyChanged(false);
            },
            Qt::QueuedConnection);
    });
}

void LogFilterModel::finishSearch(std::vector<std::uint32_t> matches)
{
    m_matches = std::move(matches);
    m_currentMatch = -1;
    // Highlights change on every painted row.
    if (rowCount() > 0)
        emit dataChanged(index(0, LogModel::TextColumn), index(rowCount() - 1, LogModel::TextColumn),
                         {LogModel::MatchSpansRole});
    emit searchFinished(static_cast<int>(m_matches.size()), m_pattern ? m_pattern->error() : QString());
}

int LogFilterModel::nextMatch(int row, bool forward) const
{
    if (m_matches.empty())
        return -1;
    const auto r = static_cast<std::uint32_t>(std::max(row, -1));
    if (forward) {
        auto it = row < 0 ? m_matches.begin() : std::upper_bound(m_matches.begin(), m_matches.end(), r);
        return static_cast<int>(it == m_matches.end() ? m_matches.front() : *it);
    }
    auto it = row < 0 ? m_matches.end() : std::lower_bound(m_matches.begin(), m_matches.end(), r);
    return static_cast<int>(it == m_matches.begin() ? m_matches.back() : *std::prev(it));
}

int LogFilterModel::matchNumber(int row) const
{
    if (row < 0)
        return -1;
    auto it = std::lower_bound(m_matches.begin(), m_matches.end(), static_cast<std::uint32_t>(row));
    return it != m_matches.end() && *it == static_cast<std::uint32_t>(row)
               ? static_cast<int>(it - m_matches.begin())
               : -1;
}

void LogFilterModel::setCurrentMatch(int row)
{
    const int old = m_currentMatch;
    m_currentMatch = row;
    for (int r : {old, row})
        if (r >= 0 && r < rowCount())
            emit dataChanged(index(r, LogModel::TextColumn), index(r, LogModel::TextColumn));
}

LineRef LogFilterModel::lineAt(int row) const
{
    return logModel()->lineAt(static_cast<int>(mergedRow(row)));
}

int LogFilterModel::rowOf(LineRef where) const
{
    auto idx = logModel() ? logModel()->analysisIndex() : nullptr;
    if (!idx)
        return -1;
    const auto merged = static_cast<std::uint32_t>(idx->rowOf(where));
    if (!m_rows)
        return static_cast<int>(merged);
    auto it = std::lower_bound(m_rows->begin(), m_rows->end(), merged);
    return it != m_rows->end() && *it == merged ? static_cast<int>(it - m_rows->begin()) : -1;
}

int LogFilterModel::nearestRowOf(LineRef where) const
{
    auto idx = logModel() ? logModel()->analysisIndex() : nullptr;
    if (!idx || rowCount() == 0)
        return -1;
    const auto merged = static_cast<std::uint32_t>(idx->rowOf(where));
    if (!m_rows)
        return static_cast<int>(merged);
    auto it = std::lower_bound(m_rows->begin(), m_rows->end(), merged);
    if (it == m_rows->end())
        --it;
    return static_cast<int>(it - m_rows->begin());
}

QModelIndex LogFilterModel::index(int row, int column, const QModelIndex& parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex LogFilterModel::parent(const QModelIndex&) const
{
    return {};
}

QModelIndex LogFilterModel::sibling(int row, int column, const QModelIndex&) const
{
    return index(row, column);
}

bool LogFilterModel::hasChildren(const QModelIndex& parent) const
{
    return !parent.isValid() && rowCount() > 0;
}

int LogFilterModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return m_rows ? static_cast<int>(m_rows->size()) : sourceModel()->rowCount();
}

int LogFilterModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

QModelIndex LogFilterModel::mapToSource(const QModelIndex& proxy) const
{
    if (!proxy.isValid() || !sourceModel())
        return {};
    return sourceModel()->index(static_cast<int>(mergedRow(proxy.row())), proxy.column());
}

QModelIndex LogFilterModel::mapFromSource(const QModelIndex& source) const
{
    if (!source.isValid())
        return {};
    if (!m_rows)
        return index(source.row(), source.column());
    auto it = std::lower_bound(m_rows->begin(), m_rows->end(), static_cast<std::uint32_t>(source.row()));
    if (it == m_rows->end() || *it != static_cast<std::uint32_t>(source.row()))
        return {};
    return index(static_cast<int>(it - m_rows->begin()), source.column());
}

QVariant LogFilterModel::data(const QModelIndex& idx, int role) const
{
    if (!idx.isValid() || !sourceModel())
        return {};
    if (role == LogModel::MatchSpansRole) {
        if (!m_pattern || !m_pattern->ok() || idx.column() != LogModel::TextColumn)
            return {};
        const QByteArray text = sourceModel()->data(mapToSource(idx), Qt::DisplayRole).toString().toUtf8();
        QVariantList spans;
        for (auto [start, length] :
             m_pattern->spans(std::string_view(text.constData(), static_cast<std::size_t>(text.size()))))
            spans.push_back(QPoint(start, length));
        return spans;
    }
    return sourceModel()->data(mapToSource(idx), role);
}

QVariant LogFilterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Straight through: the default maps a section via row 0, which is absent when nothing passes.
    return sourceModel() ? sourceModel()->headerData(section, orientation, role) : QVariant();
}

} // namespace rl
