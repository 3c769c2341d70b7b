#include "window/logpane.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>
#include <string_view>
#include <unordered_map>

#include "models/bookmarks.h"
#include "models/logfiltermodel.h"
#include "models/logmodel.h"
#include "models/ncclsubsystem.h"

namespace rl
{

namespace
{

enum ScopeKind { ScopeAll, ScopeHost, ScopeProcess };
constexpr int kDefaultContext = 20;

// Paints the text column with the search matches highlighted (the current match stronger).
class MatchDelegate final : public QStyledItemDelegate
{
public:
    explicit MatchDelegate(LogFilterModel* model, QObject* parent)
        : QStyledItemDelegate(parent), m_model(model)
    {
    }

    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const QVariantList spans = index.data(LogModel::MatchSpansRole).toList();
        if (spans.isEmpty()) {
            QStyledItemDelegate::paint(p, option, index);
            return;
        }
        QStyleOptionViewItem o = option;
        initStyleOption(&o, index);
        const QString text = o.text;
        o.text.clear();
        const QWidget* w = o.widget;
        QStyle* style = w ? w->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &o, p, w);
        const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &o, w);
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, w) + 1;
        p->save();
        p->setClipRect(textRect);
        p->setFont(o.font);
        const QFontMetricsF fm(o.font);
        const bool current = m_model->currentMatch() == index.row();
        const double x0 = textRect.left() + margin;
        for (const QVariant& v : spans) {
            const QPoint s = v.toPoint();
            if (s.x() >= text.size())
                break;
            const double x = x0 + fm.horizontalAdvance(text.left(s.x()));
            const double width = fm.horizontalAdvance(text.mid(s.x(), s.y()));
            p->fillRect(QRectF(x, textRect.top() + 1, width, textRect.height() - 2),
                        current ? QColor(255, 150, 50) : QColor(255, 228, 90));
        }
        p->setPen((o.state & QStyle::State_Selected) && !current ? o.palette.color(QPalette::HighlightedText)
                                                                 : o.palette.color(QPalette::Text));
        p->drawText(textRect.adjusted(margin, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
        p->restore();
    }

private:
    LogFilterModel* m_model;
};

QString subsystemTitle(std::uint32_t mask)
{
    if (mask == 0)
        return QObject::tr("NCCL: any line");
    QStringList names;
    for (int s = 1; s < kNcclSubsystemCount; ++s)
        if (mask & (1u << s))
            names << QString::fromLatin1(ncclSubsystemName(static_cast<NcclSubsystem>(s)));
    return QObject::tr("NCCL: %1").arg(names.join(QStringLiteral(", ")));
}

} // namespace

LogPane::LogPane(Bookmarks* bookmarks, QWidget* parent) : QWidget(parent), m_bookmarks(bookmarks)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* bar = new QWidget(this);
    buildFilterBar(bar);
    layout->addWidget(bar);

    m_contextBar = new QWidget(this);
    auto* cl = new QHBoxLayout(m_contextBar);
    cl->setContentsMargins(6, 2, 6, 2);
    m_contextLabel = new QLabel(m_contextBar);
    m_contextLines = new QSpinBox(m_contextBar);
    m_contextLines->setRange(1, 100000);
    m_contextLines->setValue(kDefaultContext);
    m_contextLines->setPrefix(QStringLiteral("±"));
    m_contextLines->setSuffix(tr(" lines"));
    auto* back = new QPushButton(tr("Back to all lines"), m_contextBar);
    cl->addWidget(m_contextLabel, 1);
    cl->addWidget(m_contextLines);
    cl->addWidget(back);
    m_contextBar->setStyleSheet(QStringLiteral("background: #e8f0ff"));
    m_contextBar->hide();
    connect(back, &QPushButton::clicked, this, &LogPane::clearFilters);
    connect(m_contextLines, &QSpinBox::valueChanged, this, [this](int n) {
        if (m_context)
            showContext(*m_context, n);
    });
    layout->addWidget(m_contextBar);

    m_model = new LogModel(this);
    m_model->setBookmarks(bookmarks);
    m_filter = new LogFilterModel(this);
    m_filter->setSourceModel(m_model);
    m_view = new QTableView(this);
    m_view->setModel(m_filter);
    m_view->setItemDelegateForColumn(LogModel::TextColumn, new MatchDelegate(m_filter, m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->verticalHeader()->hide();
    // Fixed row heights keep scrolling through millions of rows constant-time.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &LogPane::showContextMenu);
    layout->addWidget(m_view, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) {
                if (!cur.isValid() || m_updating)
                    return;
                const LineRef where = m_filter->lineAt(cur.row());
                m_keep = where;
                if (m_filter->matchNumber(cur.row()) >= 0)
                    m_filter->setCurrentMatch(cur.row());
                updateSearchStatus();
                emit lineSelected(where);
            });
    connect(m_filter, &LogFilterModel::filterApplied, this, [this](int rows) {
        // The current line stays current when it is still shown, else its nearest neighbour.
        if (m_keep && rows > 0) {
            const int row = m_filter->nearestRowOf(*m_keep);
            m_updating = true;
            const QModelIndex idx = m_filter->index(row, LogModel::TextColumn);
            m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                               QItemSelectionModel::Rows);
            m_view->scrollTo(idx, QAbstractItemView::PositionAtCenter);
            m_updating = false;
            // The timeline follows the line the log now shows as current.
            emit lineSelected(m_filter->lineAt(row));
        }
        updateSearchStatus();
    });
    connect(m_filter, &LogFilterModel::searchFinished, this, [this] { updateSearchStatus(); });
    connect(m_filter, &LogFilterModel::busyChanged, this, [this] { updateSearchStatus(); });

    auto addShortcut = [this](const QKeySequence& keys, auto slot) {
        auto* a = new QAction(this);
        a->setShortcut(keys);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
    };
    addShortcut(QKeySequence::FindNext, &LogPane::findNext);
    addShortcut(QKeySequence::FindPrevious, &LogPane::findPrevious);
    addShortcut(QKeySequence(Qt::CTRL | Qt::Key_B), &LogPane::toggleBookmark);
    addShortcut(QKeySequence(Qt::Key_F2), &LogPane::nextBookmark);
    addShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F2), &LogPane::previousBookmark);
    // Ctrl+F goes to the search field even when the focus is elsewhere in the window.
    auto* find = new QAction(this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WindowShortcut);
    connect(find, &QAction::triggered, this, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    addAction(find);
}

void LogPane::buildFilterBar(QWidget* bar)
{
    auto* rows = new QVBoxLayout(bar);
    rows->setContentsMargins(4, 2, 4, 0);
    rows->setSpacing(2);
    auto* top = new QHBoxLayout;
    top->setSpacing(6);
    m_scope = new QComboBox(bar);
    m_scope->setToolTip(tr("All ranks in aligned order, one host, or one rank"));
    m_scope->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scope->setMinimumContentsLength(14);
    m_level = new QComboBox(bar);
    m_level->addItem(tr("Every level"), static_cast<int>(Level::None));
    m_level->addItem(tr("INFO and above"), static_cast<int>(Level::Info));
    m_level->addItem(tr("WARN and above"), static_cast<int>(Level::Warn));
    m_level->addItem(tr("ERROR and above"), static_cast<int>(Level::Error));
    m_level->setToolTip(tr("Severity; above 'Every level' lines without a level are hidden too"));
    m_subsys = new QToolButton(bar);
    m_subsys->setPopupMode(QToolButton::InstantPopup);
    m_subsys->setText(subsystemTitle(0));
    m_subsys->setToolTip(tr("NCCL subsystem, inferred from the message and the source file it names"));
    auto* menu = new QMenu(m_subsys);
    menu->addAction(tr("Any line"), this, [this] {
        m_subsysMask = 0;
        for (QAction* a : m_subsys->menu()->actions())
            a->setChecked(false);
        m_subsys->setText(subsystemTitle(0));
        applyFilterFromControls();
    });
    menu->addSeparator();
    for (int s = 1; s < kNcclSubsystemCount; ++s) {
        QAction* a = menu->addAction(QString::fromLatin1(ncclSubsystemName(static_cast<NcclSubsystem>(s))));
        a->setCheckable(true);
        connect(a, &QAction::toggled, this, [this, s](bool on) {
            if (on)
                m_subsysMask |= 1u << s;
            else
                m_subsysMask &= ~(1u << s);
            m_subsys->setText(subsystemTitle(m_subsysMask));
            applyFilterFromControls();
        });
    }
    m_subsys->setMenu(menu);
    m_finding = new QComboBox(bar);
    m_finding->setObjectName(QStringLiteral("findingFilter"));
    m_finding->setToolTip(tr("Only a finding's evidence and the lines of its symptoms"));
    m_finding->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_finding->setMinimumContentsLength(14);
    m_eventsOnly = new QCheckBox(tr("Events only"), bar);
    m_eventsOnly->setToolTip(tr("Only the lines the timeline marks"));
    m_bookmarksOnly = new QCheckBox(tr("Bookmarks"), bar);
    m_bookmarksOnly->setToolTip(tr("Only bookmarked lines (Ctrl+B bookmarks the current line; F2 / Shift+F2 "
                                   "go to the next / previous)"));
    auto* clear = new QToolButton(bar);
    clear->setText(tr("Clear filters"));
    connect(clear, &QToolButton::clicked, this, &LogPane::clearFilters);
    top->addWidget(m_scope);
    top->addWidget(m_level);
    top->addWidget(m_subsys);
    top->addWidget(m_finding);
    top->addWidget(m_eventsOnly);
    top->addWidget(m_bookmarksOnly);
    top->addWidget(clear);
    top->addStretch(1);
    rows->addLayout(top);

    auto* bottom = new QHBoxLayout;
    bottom->setSpacing(6);
    m_search = new QLineEdit(bar);
    m_search->setPlaceholderText(tr("Search the shown lines (RE2 regular expression)   Ctrl+F"));
    m_search->setClearButtonEnabled(true);
    m_case = new QToolButton(bar);
    m_case->setText(QStringLiteral("Aa"));
    m_case->setCheckable(true);
    m_case->setToolTip(tr("Match case"));
    auto* prev = new QToolButton(bar);
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    auto* next = new QToolButton(bar);
    next->setText(QStringLiteral("▼"));
    next->setToolTip(tr("Next match (F3, Enter)"));
    m_searchStatus = new QLabel(bar);
    m_searchStatus->setMinimumWidth(180);
    bottom->addWidget(m_search, 1);
    bottom->addWidget(m_case);
    bottom->addWidget(prev);
    bottom->addWidget(next);
    bottom->addWidget(m_searchStatus);
    rows->addLayout(bottom);

    // Typing pauses briefly before a search over millions of lines starts.
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(180);
    connect(m_search, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    auto runSearch = [this] { m_filter->setSearch(m_search->text(), m_case->isChecked()); };
    connect(debounce, &QTimer::timeout, this, runSearch);
    connect(m_case, &QToolButton::toggled, this, runSearch);
    connect(m_search, &QLineEdit::returnPressed, this, [this, debounce, runSearch] {
        if (debounce->isActive()) {
            debounce->stop();
            runSearch();
        }
        findNext();
    });
    connect(prev, &QToolButton::clicked, this, &LogPane::findPrevious);
    connect(next, &QToolButton::clicked, this, &LogPane::findNext);

    for (QComboBox* c : {m_scope, m_level, m_finding})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { applyFilterFromControls(); });
    for (QCheckBox* c : {m_eventsOnly, m_bookmarksOnly})
        connect(c, &QCheckBox::toggled, this, [this] { applyFilterFromControls(); });
    if (m_bookmarks)
        connect(m_bookmarks, &Bookmarks::changed, this, [this] {
            if (m_bookmarksOnly->isChecked())
                applyFilterFromControls();
        });
}

void LogPane::fillFilterChoices()
{
    m_updating = true;
    m_scope->clear();
    m_finding->clear();
    m_scope->addItem(tr("All ranks"), QVariantList{ScopeAll, 0});
    m_finding->addItem(tr("Any finding"), -1);
    if (m_index) {
        const Analysis& a = m_index->analysis();
        // Hosts in order of first appearance, with their rank counts (a map: thousands of hosts).
        std::vector<std::string_view> hosts;
        std::unordered_map<std::string_view, int> ranksOn;
        for (const auto& p : a.processes)
            if (!p.host.empty() && ranksOn[p.host]++ == 0)
                hosts.push_back(p.host);
        for (const auto h : hosts) {
            const int n = ranksOn[h];
            const QString name = QString::fromUtf8(h.data(), static_cast<qsizetype>(h.size()));
            m_scope->addItem(n == 1 ? tr("Host %1 (1 rank)").arg(name)
                                    : tr("Host %1 (%2 ranks)").arg(name).arg(n),
                             QVariantList{ScopeHost, name});
        }
        for (const auto& p : a.processes)
            m_scope->addItem(QStringLiteral("   ") + QString::fromStdString(p.label()),
                             QVariantList{ScopeProcess, p.id.value});
        // A finding per process when thousands of ranks fail alike: each item names its process, and
        // past kListed of one entry and role the rest are counted (the rank filter reaches them).
        constexpr int kListed = 20;
        std::map<std::pair<int, Role>, int> listed, total;
        for (const auto& f : a.findings)
            ++total[{f.entry, f.role}];
        for (std::size_t i = 0; i < a.findings.size(); ++i) {
            const Finding& f = a.findings[i];
            const int n = ++listed[{f.entry, f.role}];
            const QString title = QString::fromStdString(a.entry(f.entry).title);
            if (n <= kListed)
                m_finding->addItem(QStringLiteral("%1: %2 — %3")
                                       .arg(QString::fromLatin1(roleName(f.role)), title,
                                            QString::fromStdString(a.process(f.process).label())),
                                   static_cast<int>(i));
            if (n == kListed + 1) {
                const int more = total[{f.entry, f.role}] - kListed;
                m_finding->addItem(tr("… %1 more %2 findings: %3 (choose their ranks in the rank filter)")
                                       .arg(more)
                                       .arg(QString::fromLatin1(roleName(f.role)), title),
                                   -2);
                auto* model = qobject_cast<QStandardItemModel*>(m_finding->model());
                if (model)
                    model->item(m_finding->count() - 1)->setEnabled(false);
            }
        }
    }
    m_level->setCurrentIndex(0);
    m_eventsOnly->setChecked(false);
    m_bookmarksOnly->setChecked(false);
    m_subsysMask = 0;
    for (QAction* act : m_subsys->menu()->actions())
        act->setChecked(false);
    m_subsys->setText(subsystemTitle(0));
    m_updating = false;
}

void LogPane::setIndex(std::shared_ptr<const AnalysisIndex> index, bool keepFilter)
{
    const LogFilter kept = filter();
    const QString search = m_search->text();
    const auto keptLine = m_keep;
    m_index = std::move(index);
    m_context.reset();
    m_contextBar->hide();
    m_keep.reset();
    m_model->setIndex(m_index);
    fillFilterChoices();
    // Widths from what the columns can hold, not from the first screenful (which may lack an
    // ERROR or the longest file name).
    const QFontMetrics fm = m_view->fontMetrics();
    const int pad = 18;
    m_view->setColumnWidth(LogModel::TimeColumn,
                           fm.horizontalAdvance(QStringLiteral("~00:00:00.000")) + pad + 12);
    int rankW = fm.horizontalAdvance(QStringLiteral("Rank")),
        hostW = fm.horizontalAdvance(QStringLiteral("Host"));
    int fileW = fm.horizontalAdvance(QStringLiteral("File:line"));
    if (m_index) {
        const Analysis& a = m_index->analysis();
        for (const auto& p : a.processes) {
            rankW = std::max(rankW,
                             fm.horizontalAdvance(p.rank ? QString::number(*p.rank) : QStringLiteral("?")));
            hostW = std::max(hostW, fm.horizontalAdvance(QString::fromStdString(p.host)));
        }
        for (std::size_t i = 0; i < a.sources.size() && i < 4096; ++i)
            fileW =
                std::max(fileW, fm.horizontalAdvance(QString::fromStdString(a.sources[i].displayPath) +
                                                     QStringLiteral(":%1").arg(a.sources[i].lineCount())));
    }
    m_view->setColumnWidth(LogModel::RankColumn, rankW + pad);
    m_view->setColumnWidth(LogModel::HostColumn, std::min(hostW, 220) + pad);
    m_view->setColumnWidth(LogModel::LevelColumn, fm.horizontalAdvance(QStringLiteral("ERROR")) + pad);
    m_view->setColumnWidth(LogModel::SourceColumn, std::min(fileW, 360) + pad);
    if (keepFilter) {
        m_keep = keptLine;
        setFilter(kept);
        m_filter->setSearch(search, m_case->isChecked());
    } else {
        m_search->clear();
    }
    updateSearchStatus();
}

LogFilter LogPane::filter() const
{
    if (m_context) {
        LogFilter f;
        f.contextOf = m_context;
        f.contextLines = m_contextLines->value();
        return f;
    }
    LogFilter f;
    const QVariantList scope = m_scope->currentData().toList();
    if (scope.size() == 2 && scope[0].toInt() == ScopeHost) {
        f.scope = LogFilter::Scope::Host;
        f.host = scope[1].toString().toStdString();
    } else if (scope.size() == 2 && scope[0].toInt() == ScopeProcess) {
        f.scope = LogFilter::Scope::Process;
        f.process = ProcessId(scope[1].toUInt());
    }
    f.minLevel = static_cast<Level>(m_level->currentData().toInt());
    f.subsystems = m_subsysMask;
    f.finding = m_finding->currentData().isValid() ? m_finding->currentData().toInt() : -1;
    f.eventsOnly = m_eventsOnly->isChecked();
    if (m_bookmarksOnly->isChecked() && m_bookmarks)
        f.onlyLines = m_bookmarks->lines();
    return f;
}

void LogPane::setFilter(const LogFilter& f)
{
    m_updating = true;
    m_context = f.contextOf;
    if (f.contextOf)
        m_contextLines->setValue(f.contextLines);
    int scope = 0;
    for (int i = 0; i < m_scope->count(); ++i) {
        const QVariantList d = m_scope->itemData(i).toList();
        if ((f.scope == LogFilter::Scope::Host && d[0].toInt() == ScopeHost &&
             d[1].toString().toStdString() == f.host) ||
            (f.scope == LogFilter::Scope::Process && d[0].toInt() == ScopeProcess &&
             d[1].toUInt() == f.process.value))
            scope = i;
    }
    m_scope->setCurrentIndex(scope);
    m_level->setCurrentIndex(std::max(0, m_level->findData(static_cast<int>(f.minLevel))));
    m_finding->setCurrentIndex(std::max(0, m_finding->findData(f.finding)));
    m_eventsOnly->setChecked(f.eventsOnly);
    m_bookmarksOnly->setChecked(f.onlyLines.has_value());
    m_subsysMask = f.subsystems;
    const auto acts = m_subsys->menu()->actions();
    for (int s = 1, a = 2; s < kNcclSubsystemCount && a < acts.size(); ++s, ++a)
        acts[a]->setChecked(f.subsystems & (1u << s));
    m_subsysMask = f.subsystems; // the toggled() handlers above rebuilt it the same way
    m_subsys->setText(subsystemTitle(m_subsysMask));
    m_updating = false;
    applyFilterFromControls();
}

void LogPane::applyFilterFromControls(std::optional<LineRef> keep)
{
    if (m_updating)
        return;
    // The line to keep current: the one asked for, else the current one.
    if (keep)
        m_keep = keep;
    else if (auto cur = currentLine())
        m_keep = cur;
    const LogFilter f = filter();
    m_contextBar->setVisible(f.contextOf.has_value());
    if (f.contextOf && m_index) {
        const Analysis& a = m_index->analysis();
        m_contextLabel->setText(
            tr("Context from %1 around %2:%3")
                .arg(QString::fromStdString(a.process(a.info(*f.contextOf).process).label()),
                     QString::fromStdString(a.source(f.contextOf->source).displayPath))
                .arg(f.contextOf->line + 1));
    }
    m_filter->setFilter(f);
    updateSearchStatus();
}

void LogPane::clearFilters()
{
    m_context.reset();
    setFilter(LogFilter{});
}

void LogPane::showContext(LineRef where, int n)
{
    m_context = where;
    m_updating = true;
    m_contextLines->setValue(n);
    m_updating = false;
    applyFilterFromControls(where);
}

std::optional<LineRef> LogPane::currentLine() const
{
    const QModelIndex cur = m_view->selectionModel()->currentIndex();
    if (!cur.isValid() || !m_index)
        return std::nullopt;
    return m_filter->lineAt(cur.row());
}

void LogPane::goToRow(int row)
{
    if (row < 0 || row >= m_filter->rowCount())
        return;
    const QModelIndex idx = m_filter->index(row, LogModel::TextColumn);
    m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                       QItemSelectionModel::Rows);
    m_view->scrollTo(idx, QAbstractItemView::PositionAtCenter);
}

void LogPane::selectLine(LineRef where)
{
    if (!m_index)
        return;
    m_keep = where;
    int row = m_filter->rowOf(where);
    if (row < 0) {
        row = m_filter->nearestRowOf(where);
        emit message(tr("That line is hidden by the log filter; the nearest shown line is selected."));
    }
    if (row < 0)
        return;
    m_updating = true; // the caller already knows; no echo back
    goToRow(row);
    m_updating = false;
    if (m_filter->matchNumber(row) >= 0)
        m_filter->setCurrentMatch(row);
    updateSearchStatus();
}

void LogPane::findNext()
{
    const QModelIndex cur = m_view->selectionModel()->currentIndex();
    const int row = m_filter->nextMatch(cur.isValid() ? cur.row() : -1, true);
    if (row < 0)
        return;
    m_filter->setCurrentMatch(row);
    goToRow(row);
}

void LogPane::findPrevious()
{
    const QModelIndex cur = m_view->selectionModel()->currentIndex();
    const int row = m_filter->nextMatch(cur.isValid() ? cur.row() : -1, false);
    if (row < 0)
        return;
    m_filter->setCurrentMatch(row);
    goToRow(row);
}

void LogPane::updateSearchStatus()
{
    if (m_filter->busy()) {
        m_searchStatus->setText(tr("working…"));
        return;
    }
    const auto pattern = m_filter->searchPattern();
    if (!pattern) {
        m_searchStatus->setText(m_filter->isFiltered() ? tr("%L1 lines shown").arg(m_filter->rowCount())
                                                       : QString());
        return;
    }
    if (!pattern->ok()) {
        m_searchStatus->setText(
            QStringLiteral("<span style='color:#b00'>%1</span>").arg(pattern->error().toHtmlEscaped()));
        return;
    }
    const int n = static_cast<int>(m_filter->matches().size());
    const int at = m_filter->matchNumber(m_filter->currentMatch());
    if (n == 0)
        m_searchStatus->setText(tr("no match"));
    else if (at >= 0)
        m_searchStatus->setText(tr("match %L1 of %L2").arg(at + 1).arg(n));
    else
        m_searchStatus->setText(n == 1 ? tr("1 match") : tr("%L1 matches").arg(n));
}

void LogPane::toggleBookmark()
{
    if (auto cur = currentLine(); cur && m_bookmarks)
        m_bookmarks->toggle(*cur);
}

void LogPane::nextBookmark()
{
    if (!m_bookmarks || m_bookmarks->empty() || !m_index)
        return;
    const QModelIndex cur = m_view->selectionModel()->currentIndex();
    const int from = cur.isValid() ? cur.row() : -1;
    int best = -1, first = -1;
    for (LineRef b : m_bookmarks->lines()) {
        const int row = m_filter->rowOf(b);
        if (row < 0)
            continue;
        if (first < 0 || row < first)
            first = row;
        if (row > from && (best < 0 || row < best))
            best = row;
    }
    goToRow(best >= 0 ? best : first);
}

void LogPane::previousBookmark()
{
    if (!m_bookmarks || m_bookmarks->empty() || !m_index)
        return;
    const QModelIndex cur = m_view->selectionModel()->currentIndex();
    const int from = cur.isValid() ? cur.row() : m_filter->rowCount();
    int best = -1, last = -1;
    for (LineRef b : m_bookmarks->lines()) {
        const int row = m_filter->rowOf(b);
        if (row < 0)
            continue;
        last = std::max(last, row);
        if (row < from)
            best = std::max(best, row);
    }
    goToRow(best >= 0 ? best : last);
}

void LogPane::showContextMenu(const QPoint& pos)
{
    const QModelIndex idx = m_view->indexAt(pos);
    if (!idx.isValid() || !m_index)
        return;
    const LineRef where = m_filter->lineAt(idx.row());
    const Analysis& a = m_index->analysis();
    const Process& p = a.process(a.info(where).process);
    QMenu menu(this);
    menu.addAction(m_bookmarks && m_bookmarks->contains(where) ? tr("Remove bookmark")
                                                               : tr("Bookmark this line"),
                   this, [this, where] {
                       if (m_bookmarks)
                           m_bookmarks->toggle(where);
                   });
    const int n = m_contextLines->value();
    menu.addAction(tr("Show ±%1 lines of context from %2").arg(n).arg(QString::fromStdString(p.label())),
                   this, [this, where, n] { showContext(where, n); });
    menu.addAction(tr("Only %1").arg(QString::fromStdString(p.label())), this, [this, pid = p.id] {
        LogFilter f;
        f.scope = LogFilter::Scope::Process;
        f.process = pid;
        m_context.reset();
        setFilter(f);
    });
    if (!p.host.empty())
        menu.addAction(tr("Only host %1").arg(QString::fromStdString(p.host)), this, [this, host = p.host] {
            LogFilter f;
            f.scope = LogFilter::Scope::Host;
            f.host = host;
            m_context.reset();
            setFilter(f);
        });
    if (!filter().isIdentity())
        menu.addAction(tr("Clear filters"), this, &LogPane::clearFilters);
    menu.addSeparator();
    menu.addAction(tr("Copy line"), this, [text = a.text(where)] {
        QApplication::clipboard()->setText(
            QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
    });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace rl
