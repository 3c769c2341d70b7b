#pragma once
// Every line of the bundle in merged chronological order. Text is read from the source's memory
// map when a row is painted, so the model holds no copy of the log.

#include <QAbstractTableModel>
#include <QPointer>

#include <memory>

#include "models/analysisindex.h"

namespace rl
{

class Bookmarks;

class LogModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, RankColumn, HostColumn, LevelColumn, SourceColumn, TextColumn, ColumnCount };
    enum Roles { LineRefRole = Qt::UserRole + 1, EvidenceLabelRole, BookmarkRole, MatchSpansRole };

    explicit LogModel(QObject* parent = nullptr);

    void setIndex(std::shared_ptr<const AnalysisIndex> index);
    std::shared_ptr<const AnalysisIndex> analysisIndex() const { return m_index; }
    LineRef lineAt(int row) const;
    // Bookmarked lines get a flag in the time column and a tint; the model follows their changes.
    void setBookmarks(Bookmarks* bookmarks);
    // Whether the text column shows each line whole, or without what a collector or launcher put
    // before it (a stamp, "[pod/…] ", "3: ", "[1,3]<stdout>:"): the time, rank and host columns
    // already say it. The tooltip and "Copy line" keep the whole line either way.
    void setShowPrefixes(bool show);
    bool showPrefixes() const { return m_showPrefixes; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const AnalysisIndex> m_index;
    QPointer<Bookmarks> m_bookmarks;
    bool m_showPrefixes = false;
};

} // namespace rl
