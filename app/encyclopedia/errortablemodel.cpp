#include "encyclopedia/errortablemodel.h"

#include <QFont>
#include <QRegularExpression>

#include <algorithm>

#include "encyclopedia/entrytext.h"

namespace rl
{

namespace
{

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// A tooltip is rich text only when we say so: every part is escaped and wrapped in our own <p>, so
// a '<b>' in a log sample stays text (a plain tooltip starting with a tag would be rendered).
QString richTip(const QStringList& parts)
{
    QString h;
    for (const QString& p : parts)
        if (!p.isEmpty())
            h += QStringLiteral("<p>") + p.toHtmlEscaped() + QStringLiteral("</p>");
    return h;
}

} // namespace

ErrorTableModel::ErrorTableModel(std::shared_ptr<const Encyclopedia> encyclopedia, QObject* parent)
    : QAbstractTableModel(parent), m_enc(std::move(encyclopedia))
{
    for (std::size_t e = 0; e < m_enc->entries.size(); ++e) {
        const Entry& entry = m_enc->entries[e];
        const auto primaries = std::count_if(entry.symptoms.begin(), entry.symptoms.end(),
                                             [](const Symptom& s) { return s.primary; });
        for (std::size_t s = 0; s < entry.symptoms.size(); ++s) {
            const Symptom& sym = entry.symptoms[s];
            if (!sym.primary)
                continue;
            Row r;
            r.entry = static_cast<int>(e);
            r.symptom = static_cast<int>(s);
            r.message = q(sym.signal);
            // With one message family the entry's quick answer says what it really indicates; with
            // several, each symptom's own explanation tells them apart.
            r.indicates = shortForm(primaries == 1 ? entry.quickAnswer : sym.why, 240);
            r.layer = layerName(entry.category);
            r.category = q(entry.category);
            r.layerRank = layerRank(entry.category);
            r.cause = shortForm(entry.rootCause, 160);
            r.entryTitle = q(entry.title);
            m_rows.push_back(std::move(r));
        }
    }
    std::stable_sort(m_rows.begin(), m_rows.end(), [this](const Row& a, const Row& b) {
        if (a.layerRank != b.layerRank)
            return a.layerRank < b.layerRank;
        return a.entryTitle < b.entryTitle;
    });
    for (const Row& r : m_rows) {
        const Entry& entry = m_enc->entries[static_cast<std::size_t>(r.entry)];
        const Symptom& sym = entry.symptoms[static_cast<std::size_t>(r.symptom)];
        QString text = r.message + QLatin1Char('\n') + r.indicates + QLatin1Char('\n') + r.layer +
                       QLatin1Char('\n') + r.cause + QLatin1Char('\n') + r.entryTitle + QLatin1Char('\n') +
                       q(entry.id) + QLatin1Char('\n') + q(sym.why) + QLatin1Char('\n') + q(entry.rootCause);
        for (const auto& sample : sym.samples)
            text += QLatin1Char('\n') + q(sample);
        m_search.push_back(text.toLower());
    }
}

int ErrorTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ErrorTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ErrorTableModel::toolTip(const Row& r, int column) const
{
    const Entry& entry = m_enc->entries[static_cast<std::size_t>(r.entry)];
    const Symptom& sym = entry.symptoms[static_cast<std::size_t>(r.symptom)];
    switch (column) {
    case MessageColumn: {
        QStringList parts{r.message};
        for (const auto& fp : sym.fingerprints)
            parts << QStringLiteral("pattern: ") + q(fp.pattern);
        if (!sym.samples.empty())
            parts << QStringLiteral("e.g. ") + q(sym.samples.front());
        return richTip(parts);
    }
    case IndicatesColumn:
        return richTip({q(sym.why), q(entry.quickAnswer)});
    case LayerColumn:
        return richTip({r.layer + QStringLiteral(" (") + r.category + QLatin1Char(')')});
    case CauseColumn:
        return richTip({q(entry.rootCause)});
    case EntryColumn:
        return richTip({r.entryTitle, q(entry.id)});
    default:
        return {};
    }
}

QVariant ErrorTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= rowCount() || index.column() < 0 ||
        index.column() >= ColumnCount)
        return {};
    const Row& r = row(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case MessageColumn:
            return r.message;
        case IndicatesColumn:
            return r.indicates;
        case LayerColumn:
            return r.layer;
        case CauseColumn:
            return r.cause;
        case EntryColumn:
            return q(m_enc->entries[static_cast<std::size_t>(r.entry)].id);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return int(Qt::AlignLeft | Qt::AlignTop);
    case Qt::FontRole:
        if (index.column() == MessageColumn) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        return toolTip(r, index.column());
    case EntryIdRole:
        return q(m_enc->entries[static_cast<std::size_t>(r.entry)].id);
    case SortRole:
        if (index.column() == LayerColumn)
            return r.layerRank * 10000 + index.row();
        return data(index, Qt::DisplayRole).toString().toLower();
    case SearchTextRole:
        return m_search[static_cast<std::size_t>(index.row())];
    default:
        return {};
    }
}

QVariant ErrorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MessageColumn:
        return tr("Message");
    case IndicatesColumn:
        return tr("What it really indicates");
    case LayerColumn:
        return tr("Layer");
    case CauseColumn:
        return tr("Usual cause");
    case EntryColumn:
        return tr("Entry");
    default:
        return {};
    }
}

ErrorTableFilter::ErrorTableFilter(const EntrySearch* search, QObject* parent)
    : QSortFilterProxyModel(parent), m_search(search)
{
    setSortRole(ErrorTableModel::SortRole);
}

void ErrorTableFilter::setText(const QString& text)
{
    m_words = text.toLower().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    m_matched = m_search ? m_search->fingerprintMatches(text) : std::vector<SymptomRef>{};
    m_entriesMatchedElsewhere.clear();
    bool primaryMatched = false;
    for (const SymptomRef& r : m_matched) {
        const bool primary = m_search->encyclopedia()
                                 .entries[static_cast<std::size_t>(r.entry)]
                                 .symptoms[static_cast<std::size_t>(r.symptom)]
                                 .primary;
        primaryMatched = primaryMatched || primary;
        if (!primary)
            m_entriesMatchedElsewhere.push_back(r.entry);
    }
    // A line that is a message family of its own shows that row only; a trail or context line
    // shows the rows of the entries it belongs to.
    if (primaryMatched)
        m_entriesMatchedElsewhere.clear();
    invalidateFilter();
}

void ErrorTableFilter::setLayer(const QString& category)
{
    m_layer = category;
    invalidateFilter();
}

bool ErrorTableFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (sourceParent.isValid())
        return false;
    const auto* model = static_cast<const ErrorTableModel*>(sourceModel());
    const ErrorTableModel::Row& r = model->row(sourceRow);
    if (!m_layer.isEmpty() && r.category != m_layer)
        return false;
    if (m_words.isEmpty())
        return true;
    // A pasted line: the rows whose fingerprints match it.
    if (std::find(m_matched.begin(), m_matched.end(), SymptomRef{r.entry, r.symptom}) != m_matched.end() ||
        std::find(m_entriesMatchedElsewhere.begin(), m_entriesMatchedElsewhere.end(), r.entry) !=
            m_entriesMatchedElsewhere.end())
        return true;
    const QString text = model->index(sourceRow, 0).data(ErrorTableModel::SearchTextRole).toString();
    return std::all_of(m_words.begin(), m_words.end(), [&](const QString& w) { return text.contains(w); });
}

} // namespace rl
