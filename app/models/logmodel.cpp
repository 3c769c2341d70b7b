#include "models/logmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <QPainter>
#include <QPixmap>
#include <QTextDocument>

#include "models/bookmarks.h"
#include "parse/line_parser.h"
#include "util/text_kind.h"
#include "util/untrusted.h"

namespace rl
{

namespace
{
// Very long lines are shown cut, with a marker; the full text stays in the file.
constexpr int kMaxShownChars = 4000;
// A tooltip's text before it is made literal (internal to data()).
constexpr int RawToolTipRole = Qt::UserRole + 100;
} // namespace

LogModel::LogModel(QObject* parent) : QAbstractTableModel(parent) {}

void LogModel::setIndex(std::shared_ptr<const AnalysisIndex> index)
{
    beginResetModel();
    m_index = std::move(index);
    endResetModel();
}

void LogModel::setBookmarks(Bookmarks* bookmarks)
{
    if (m_bookmarks)
        disconnect(m_bookmarks, nullptr, this, nullptr);
    m_bookmarks = bookmarks;
    if (!bookmarks)
        return;
    connect(bookmarks, &Bookmarks::changed, this, [this](LineRef where) {
        if (!m_index)
            return;
        const int row = m_index->rowOf(where);
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    });
    connect(bookmarks, &Bookmarks::reset, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

void LogModel::setShowPrefixes(bool show)
{
    if (m_showPrefixes == show)
        return;
    m_showPrefixes = show;
    if (rowCount() > 0)
        emit dataChanged(index(0, TextColumn), index(rowCount() - 1, TextColumn), {Qt::DisplayRole});
}

LineRef LogModel::lineAt(int row) const
{
    return m_index->analysis().merged[static_cast<std::size_t>(row)];
}

int LogModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_index)
        return 0;
    return static_cast<int>(m_index->analysis().merged.size());
}

int LogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LogModel::data(const QModelIndex& index, int role) const
{
    if (!m_index || !index.isValid())
        return {};
    const Analysis& a = m_index->analysis();
    const LineRef ref = lineAt(index.row());
    const LineInfo& li = a.info(ref);
    if (role == LineRefRole)
        return QVariant::fromValue(QPoint(static_cast<int>(ref.source.value), static_cast<int>(ref.line)));
    if (role == EvidenceLabelRole)
        return m_index->evidenceLabel(ref);
    if (role == Qt::ToolTipRole) {
        // Views guess rich text in tooltips: log text and names are shown literally (util/untrusted.h).
        const QVariant raw = data(index, RawToolTipRole);
        return raw.isValid() ? QVariant(plainToolTip(raw.toString())) : raw;
    }
    const bool bookmarked = m_bookmarks && m_bookmarks->contains(ref);
    if (role == BookmarkRole)
        return bookmarked;
    if (role == Qt::DecorationRole && index.column() == TimeColumn && bookmarked) {
        static const QPixmap flag = [] {
            QPixmap pm(10, 12);
            pm.fill(Qt::transparent);
            QPainter p(&pm);
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(30, 110, 220));
            p.drawRect(QRectF(1, 0, 1.4, 12));
            p.drawPolygon(QPolygonF({QPointF(2, 0.5), QPointF(9.5, 3.5), QPointF(2, 6.5)}));
            return pm;
        }();
        return flag;
    }
    if (role == Qt::DisplayRole || role == RawToolTipRole) {
        const Process& p = a.process(li.process);
        switch (index.column()) {
        case TimeColumn: {
            if (!li.time.known())
                return QString();
            const std::int64_t resolution = shownResolution(li);
            const QString t = AnalysisIndex::formatTime(shownInstant(li), false, resolution);
            if (li.timeSource == TimeSource::Parsed && li.time.knownLo() && li.time.knownHi()) {
                if (role == RawToolTipRole && resolution >= 1'000'000)
                    return QStringLiteral("Stamped to the %1: %2")
                        .arg(resolution >= 60'000'000 ? QStringLiteral("minute") : QStringLiteral("second"),
                             AnalysisIndex::formatTime(li.time.lo, true, resolution));
                return t;
            }
            if (li.timeSource == TimeSource::Inferred)
                return role == RawToolTipRole
                           ? QStringLiteral("No timestamp on this line; it lies between %1 and %2")
                                 .arg(li.time.knownLo() ? AnalysisIndex::formatTime(li.time.lo)
                                                        : QStringLiteral("?"),
                                      li.time.knownHi() ? AnalysisIndex::formatTime(li.time.hi)
                                                        : QStringLiteral("?"))
                           : QStringLiteral("~") + t;
            return t;
        }
        case RankColumn:
            // A process driving several GPUs: the rank of the GPU whose thread printed the line.
            if (p.severalDevices()) {
                if (const int d = a.deviceAt(ref); d >= 0) {
                    const std::optional<int> r = p.rankOnDevice(d);
                    return r ? QVariant(*r) : QVariant(QStringLiteral("?"));
                }
                if (p.deviceRanks.size() > 1)
                    return QString::fromStdString(p.rankText());
            }
            return p.rank ? QVariant(*p.rank) : QVariant(QStringLiteral("?"));
        case HostColumn:
            return QString::fromStdString(p.host);
        case LevelColumn:
            return QString::fromLatin1(levelName(li.level));
        case SourceColumn:
            // One multi-argument arg(): a '%2' in a file name stays as it is.
            return QStringLiteral("%1:%2").arg(QString::fromStdString(a.source(ref.source).displayPath),
                                               QString::number(ref.line + 1));
        case TextColumn: {
            std::string_view line = a.text(ref);
            const std::size_t whole = line.size();
            // The body as the scan read it: after a collector's stamp and a launcher's prefix (a
            // line that is nothing else is a blank line of its writer's). The tooltip is the line
            // as written.
            if (!m_showPrefixes && role == Qt::DisplayRole)
                line = parseLine(line).body;
            // A crash's zeros show as "[N NUL bytes]", not as a row of empty boxes hiding the text;
            // a progress bar's redraws as a terminal leaves them, not ahead of the line glued to them.
            std::string marked;
            const std::string_view t = shownLine(line, marked);
            QString s = QString::fromUtf8(
                t.data(), static_cast<qsizetype>(std::min<std::size_t>(t.size(), kMaxShownChars)));
            if (t.size() > kMaxShownChars)
                s += QStringLiteral(" … [line cut at %1 of %2 bytes]").arg(kMaxShownChars).arg(whole);
            return s;
        }
        default:
            return {};
        }
    }
    if (role == Qt::BackgroundRole) {
        if (bookmarked)
            return QBrush(QColor(220, 234, 255));
        QString label = m_index->evidenceLabel(ref);
        if (label == QLatin1String("aborted-retry") || label == QLatin1String("earliest-connect-failure"))
            return QBrush(QColor(255, 205, 205));
        if (!label.isEmpty())
            return QBrush(QColor(255, 232, 225));
        if (m_index->isCollateral(ref))
            return QBrush(QColor(255, 243, 214));
        return {};
    }
    if (role == Qt::ForegroundRole) {
        if (li.level == Level::Warn)
            return QBrush(QColor(150, 90, 0));
        if (li.level == Level::Error || li.level == Level::Fatal)
            return QBrush(QColor(170, 20, 20));
        if (index.column() != TextColumn)
            return QBrush(QColor(90, 90, 90));
        return {};
    }
    if (role == Qt::FontRole && index.column() == TextColumn) {
        static const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return mono;
    }
    return {};
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case RankColumn:
        return tr("Rank");
    case HostColumn:
        return tr("Host");
    case LevelColumn:
        return tr("Level");
    case SourceColumn:
        return tr("File:line");
    case TextColumn:
        return tr("Text");
    default:
        return {};
    }
}

} // namespace rl
