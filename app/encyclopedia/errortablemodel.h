#pragma once
// "NCCL errors side by side": one row per error message family, that is per primary symptom of an
// entry, with what the message really indicates, the layer it comes from and the usual cause. The
// text is the entries' own (signals, 'why', quick answer, root cause), shortened to its lead
// sentences; tooltips and the browser's detail pane carry the full text.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>
#include <vector>

#include "encyclopedia/encyclopedia.h"
#include "encyclopedia/entrysearch.h"

namespace rl
{

class ErrorTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { MessageColumn, IndicatesColumn, LayerColumn, CauseColumn, EntryColumn, ColumnCount };
    enum Roles {
        EntryIdRole = Qt::UserRole + 1, // QString, every column
        SortRole,                       // the layer column sorts in layer order, the others by text
        SearchTextRole,                 // lower-case text the filter searches
    };
    struct Row {
        int entry = -1;
        int symptom = -1;
        QString message;
        QString indicates;
        QString layer;
        QString cause;
        QString entryTitle;
        int layerRank = 0;
        QString category;
    };

    explicit ErrorTableModel(std::shared_ptr<const Encyclopedia> encyclopedia, QObject* parent = nullptr);

    const Row& row(int r) const { return m_rows[static_cast<std::size_t>(r)]; }
    const Encyclopedia& encyclopedia() const { return *m_enc; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString toolTip(const Row& r, int column) const;

    std::shared_ptr<const Encyclopedia> m_enc;
    std::vector<Row> m_rows;
    std::vector<QString> m_search; // per row
};

// Filters the table by words (every word somewhere in the row, full 'why' and samples included),
// by a pasted log line (rows whose fingerprints match it), and by layer.
class ErrorTableFilter final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    ErrorTableFilter(const EntrySearch* search, QObject* parent = nullptr);
    void setText(const QString& text);
    void setLayer(const QString& category); // empty: every layer
    QString layer() const { return m_layer; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    const EntrySearch* m_search;
    QStringList m_words;
    std::vector<SymptomRef> m_matched;
    std::vector<int> m_entriesMatchedElsewhere; // entries matched through a non-primary symptom
    QString m_layer;
};

} // namespace rl
