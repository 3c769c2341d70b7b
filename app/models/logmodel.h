#pragma once
// Every line of the bundle in merged chronological order. Text is read from the source's memory
// map when a row is painted, so the model holds no copy of the log.

#include <QAbstractTableModel>

#include <memory>

#include "models/analysisindex.h"

namespace rl
{

class LogModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, RankColumn, HostColumn, LevelColumn, SourceColumn, TextColumn, ColumnCount };
    enum Roles { LineRefRole = Qt::UserRole + 1, EvidenceLabelRole };

    explicit LogModel(QObject* parent = nullptr);

    void setIndex(std::shared_ptr<const AnalysisIndex> index);
    LineRef lineAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const AnalysisIndex> m_index;
};

} // namespace rl
