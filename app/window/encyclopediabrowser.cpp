#include "window/encyclopediabrowser.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>
#include <QVBoxLayout>

#include <map>

#include "encyclopedia/entrysearch.h"
#include "encyclopedia/entrytext.h"
#include "encyclopedia/errortablemodel.h"

namespace rl
{

namespace
{
enum ItemRoles { IdRole = Qt::UserRole + 1, ReasonRole };

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

// QTreeView asks its delegate for row heights without a width, so wrapped text would get one line:
// give the delegate the width the item really has.
class WrappingDelegate final : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), m_view(view) {}
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt(option);
        int depth = 1;
        for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
            ++depth;
        // The style wraps only within a valid rectangle, so the height must be positive too.
        opt.rect = QRect(0, 0, std::max(40, m_view->columnWidth(0) - depth * m_view->indentation() - 4), 1);
        return QStyledItemDelegate::sizeHint(opt, index);
    }

private:
    QTreeView* m_view;
};

QTextBrowser* makeBrowser(QWidget* parent)
{
    auto* b = new QTextBrowser(parent);
    // Links are ours to handle: nothing is ever opened outside the program.
    b->setOpenLinks(false);
    b->setOpenExternalLinks(false);
    b->document()->setDocumentMargin(10);
    return b;
}
} // namespace

EncyclopediaBrowser::EncyclopediaBrowser(std::shared_ptr<const Encyclopedia> encyclopedia, QWidget* parent)
    : QWidget(parent, Qt::Window), m_enc(std::move(encyclopedia)),
      m_searcher(std::make_unique<EntrySearch>(m_enc))
{
    setWindowTitle(tr("Encyclopedia — Rankline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(buildEntriesTab(), tr("Entries"));
    m_tabs->addTab(buildErrorTableTab(), tr("NCCL errors side by side"));
    layout->addWidget(m_tabs);

    auto* find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, this, [this] {
        if (m_tabs->currentIndex() == ErrorTableTab) {
            m_tableFilter->setFocus();
            m_tableFilter->selectAll();
        } else {
            m_search->setFocus();
            m_search->selectAll();
        }
    });
    auto* backKey = new QShortcut(QKeySequence::Back, this);
    connect(backKey, &QShortcut::activated, this, &EncyclopediaBrowser::back);
    auto* forwardKey = new QShortcut(QKeySequence::Forward, this);
    connect(forwardKey, &QShortcut::activated, this, &EncyclopediaBrowser::forward);
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);

    fillList({});
    showOverview();
    resize(1280, 840);
}

EncyclopediaBrowser::~EncyclopediaBrowser() = default;

QWidget* EncyclopediaBrowser::buildEntriesTab()
{
    auto* split = new QSplitter(Qt::Horizontal);

    auto* left = new QWidget(split);
    auto* ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    m_search = new QLineEdit(left);
    m_search->setObjectName(QStringLiteral("encyclopediaSearch"));
    m_search->setPlaceholderText(tr("Search words, or paste a log line"));
    m_search->setClearButtonEnabled(true);
    m_listCount = new QLabel(left);
    m_listCount->setTextFormat(Qt::PlainText);
    m_listCount->setWordWrap(true);
    m_listCount->setStyleSheet(QStringLiteral("color: palette(mid)"));
    m_list = new QTreeWidget(left);
    m_list->setHeaderHidden(true);
    m_list->setColumnCount(1);
    // Titles are long and say what the failure is: wrap them rather than cut them.
    m_list->setWordWrap(true);
    m_list->setTextElideMode(Qt::ElideNone);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setIndentation(12);
    m_list->setItemDelegate(new WrappingDelegate(m_list));
    connect(m_list->header(), &QHeaderView::sectionResized, m_list, [this] { m_list->doItemsLayout(); });
    ll->addWidget(m_search);
    ll->addWidget(m_listCount);
    ll->addWidget(m_list, 1);
    connect(m_search, &QLineEdit::textChanged, this, &EncyclopediaBrowser::fillList);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (m_filling || !item)
            return;
        const QString id = item->data(0, IdRole).toString();
        if (!id.isEmpty())
            render(id, true);
    });

    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    m_backButton = new QToolButton(right);
    m_backButton->setArrowType(Qt::LeftArrow);
    m_backButton->setToolTip(tr("Back"));
    m_forwardButton = new QToolButton(right);
    m_forwardButton->setArrowType(Qt::RightArrow);
    m_forwardButton->setToolTip(tr("Forward"));
    auto* home = new QToolButton(right);
    home->setText(tr("Overview"));
    home->setToolTip(tr("Every entry by layer, and how to search"));
    connect(home, &QToolButton::clicked, this, &EncyclopediaBrowser::showOverview);
    connect(m_backButton, &QToolButton::clicked, this, &EncyclopediaBrowser::back);
    connect(m_forwardButton, &QToolButton::clicked, this, &EncyclopediaBrowser::forward);
    m_pageStatus = new QLabel(right);
    m_pageStatus->setTextFormat(Qt::PlainText);
    m_pageStatus->setStyleSheet(QStringLiteral("color: palette(mid)"));
    bar->addWidget(m_backButton);
    bar->addWidget(m_forwardButton);
    bar->addWidget(home);
    bar->addWidget(m_pageStatus, 1);
    m_page = makeBrowser(right);
    m_page->setObjectName(QStringLiteral("entryPage"));
    connect(m_page, &QTextBrowser::anchorClicked, this, &EncyclopediaBrowser::linkClicked);
    rightLayout->addLayout(bar);
    rightLayout->addWidget(m_page, 1);

    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({360, 900});
    updateHistoryButtons();
    return split;
}

QWidget* EncyclopediaBrowser::buildErrorTableTab()
{
    auto* w = new QWidget;
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    m_tableFilter = new QLineEdit(w);
    m_tableFilter->setObjectName(QStringLiteral("errorTableFilter"));
    m_tableFilter->setPlaceholderText(tr("Filter: words, or paste a log line"));
    m_tableFilter->setClearButtonEnabled(true);
    m_layer = new QComboBox(w);
    m_layer->addItem(tr("Every layer"), QString());
    for (const auto& c : categoryOrder())
        m_layer->addItem(layerName(c), QString::fromStdString(c));
    m_tableCount = new QLabel(w);
    m_tableCount->setTextFormat(Qt::PlainText);
    m_tableCount->setStyleSheet(QStringLiteral("color: palette(mid)"));
    bar->addWidget(m_tableFilter, 1);
    bar->addWidget(m_layer);
    bar->addWidget(m_tableCount);
    l->addLayout(bar);

    m_model = new ErrorTableModel(m_enc, this);
    m_filter = new ErrorTableFilter(m_searcher.get(), this);
    m_filter->setSourceModel(m_model);

    auto* split = new QSplitter(Qt::Vertical, w);
    m_table = new QTableView(split);
    m_table->setObjectName(QStringLiteral("errorTable"));
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ErrorTableModel::LayerColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    QHeaderView* h = m_table->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Interactive);
    h->setSectionResizeMode(ErrorTableModel::IndicatesColumn, QHeaderView::Stretch);
    h->setHighlightSections(false);
    h->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->setColumnWidth(ErrorTableModel::MessageColumn, 250);
    m_table->setColumnWidth(ErrorTableModel::LayerColumn, 140);
    m_table->setColumnWidth(ErrorTableModel::CauseColumn, 340);
    m_table->setColumnWidth(ErrorTableModel::EntryColumn, 215);

    m_detail = makeBrowser(split);
    m_detail->setObjectName(QStringLiteral("errorDetail"));
    connect(m_detail, &QTextBrowser::anchorClicked, this, &EncyclopediaBrowser::linkClicked);
    split->addWidget(m_table);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 170});
    l->addWidget(split, 1);

    connect(m_tableFilter, &QLineEdit::textChanged, this, [this](const QString& t) {
        m_filter->setText(t);
        updateTableCount();
    });
    connect(m_layer, &QComboBox::currentIndexChanged, this, [this] {
        m_filter->setLayer(m_layer->currentData().toString());
        updateTableCount();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) { showDetail(cur); });
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex& idx) { showEntry(idx.data(ErrorTableModel::EntryIdRole).toString()); });
    updateTableCount();
    m_table->setCurrentIndex(m_filter->index(0, 0));
    return w;
}

void EncyclopediaBrowser::updateTableCount()
{
    m_tableCount->setText(tr("%1 of %2 messages").arg(m_filter->rowCount()).arg(m_model->rowCount()));
}

void EncyclopediaBrowser::fillList(const QString& query)
{
    m_filling = true;
    m_list->clear();
    QTreeWidgetItem* toSelect = nullptr;
    const QString trimmed = query.trimmed();
    if (trimmed.isEmpty()) {
        std::map<int, QTreeWidgetItem*> groups;
        std::vector<const Entry*> sorted;
        for (const Entry& e : m_enc->entries)
            sorted.push_back(&e);
        std::stable_sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) {
            const int ra = layerRank(a->category), rb = layerRank(b->category);
            return ra != rb ? ra < rb : a->title < b->title;
        });
        for (const Entry* e : sorted) {
            QTreeWidgetItem*& g = groups[layerRank(e->category)];
            if (!g) {
                g = new QTreeWidgetItem(m_list, {layerName(e->category)});
                g->setFlags(Qt::ItemIsEnabled);
                QFont bold = g->font(0);
                bold.setBold(true);
                g->setFont(0, bold);
            }
            auto* item = new QTreeWidgetItem(g, {QString::fromStdString(e->title)});
            item->setData(0, IdRole, QString::fromStdString(e->id));
            item->setToolTip(0, QStringLiteral("<p>%1</p>").arg(esc(e->quickAnswer)));
            if (QString::fromStdString(e->id) == m_current)
                toSelect = item;
        }
        for (auto& [rank, g] : groups)
            g->setText(0, QStringLiteral("%1 (%2)").arg(g->text(0)).arg(g->childCount()));
        m_list->expandAll();
        m_listCount->setText(tr("%1 entries in %2 layers").arg(m_enc->entries.size()).arg(groups.size()));
        m_matchReason.clear();
    } else {
        const auto matches = m_searcher->search(trimmed);
        for (const EntryMatch& m : matches) {
            const Entry& e = m_enc->entries[static_cast<std::size_t>(m.entry)];
            auto* item = new QTreeWidgetItem(m_list, {QString::fromStdString(e.title)});
            item->setData(0, IdRole, QString::fromStdString(e.id));
            item->setData(0, ReasonRole, m.reason);
            item->setToolTip(0, QStringLiteral("<p>%1</p>").arg(esc(e.quickAnswer)));
            // Why it matched, under the title, as plain text.
            auto* why = new QTreeWidgetItem(item, {m.reason});
            why->setFlags(Qt::ItemIsEnabled);
            why->setForeground(0, palette().brush(QPalette::Disabled, QPalette::Text));
            QFont small = why->font(0);
            small.setPointSizeF(small.pointSizeF() * 0.9);
            why->setFont(0, small);
            if (!toSelect)
                toSelect = item;
        }
        m_list->expandAll();
        m_listCount->setText(matches.empty()
                                 ? tr("No entry matches. Use fewer words, or paste one whole log line.")
                             : matches.size() == 1 ? tr("1 match")
                                                   : tr("%1 matches, best first").arg(matches.size()));
    }
    m_filling = false;
    if (toSelect) {
        if (!trimmed.isEmpty()) {
            // The best match is shown at once, without a history step per keystroke.
            m_matchReason = toSelect->data(0, ReasonRole).toString();
            render(toSelect->data(0, IdRole).toString(), false);
        } else {
            m_filling = true;
            m_list->setCurrentItem(toSelect);
            m_filling = false;
        }
    }
}

QStringList EncyclopediaBrowser::listedEntries() const
{
    QStringList ids;
    for (QTreeWidgetItemIterator it(m_list); *it; ++it) {
        const QString id = (*it)->data(0, IdRole).toString();
        if (!id.isEmpty())
            ids << id;
    }
    return ids;
}

bool EncyclopediaBrowser::showEntry(const QString& id)
{
    if (!m_enc->find(id.toStdString()))
        return false;
    m_tabs->setCurrentIndex(EntriesTab);
    m_matchReason.clear();
    render(id, true);
    return true;
}

void EncyclopediaBrowser::showErrorTable()
{
    m_tabs->setCurrentIndex(ErrorTableTab);
}

void EncyclopediaBrowser::showOverview()
{
    m_tabs->setCurrentIndex(EntriesTab);
    m_matchReason.clear();
    render({}, true);
}

void EncyclopediaBrowser::search(const QString& query)
{
    m_tabs->setCurrentIndex(EntriesTab);
    m_search->setText(query);
}

void EncyclopediaBrowser::render(const QString& id, bool record)
{
    // An empty id is the overview page.
    const Entry* e = m_enc->find(id.toStdString());
    if (!e && !id.isEmpty())
        return;
    if (record && m_current != id) {
        m_back.push_back(m_current);
        m_forward.clear();
    }
    m_current = id;
    QString banner;
    if (e && !m_matchReason.isEmpty() && !m_search->text().trimmed().isEmpty())
        banner = QStringLiteral("<p class='small'>Found by your search: %1</p>")
                     .arg(m_matchReason.toHtmlEscaped());
    m_page->setHtml(e ? banner + entryHtml(*e, *m_enc) : overviewHtml(*m_enc));
    m_page->verticalScrollBar()->setValue(0);
    m_pageStatus->clear();

    // Keep the list's selection on the entry shown, without re-entering render().
    m_filling = true;
    QTreeWidgetItem* found = nullptr;
    for (QTreeWidgetItemIterator it(m_list); *it; ++it)
        if ((*it)->data(0, IdRole).toString() == id) {
            found = *it;
            break;
        }
    m_list->setCurrentItem(found);
    if (found)
        m_list->scrollToItem(found);
    m_filling = false;
    updateHistoryButtons();
    emit entryShown(id);
}

void EncyclopediaBrowser::back()
{
    if (m_back.empty())
        return;
    m_forward.push_back(m_current);
    QString id = m_back.back();
    m_back.pop_back();
    m_matchReason.clear();
    render(id, false);
}

void EncyclopediaBrowser::forward()
{
    if (m_forward.empty())
        return;
    m_back.push_back(m_current);
    QString id = m_forward.back();
    m_forward.pop_back();
    m_matchReason.clear();
    render(id, false);
}

void EncyclopediaBrowser::updateHistoryButtons()
{
    m_backButton->setEnabled(!m_back.empty());
    m_forwardButton->setEnabled(!m_forward.empty());
}

void EncyclopediaBrowser::linkClicked(const QUrl& url)
{
    if (auto id = parseEntryLink(url)) {
        showEntry(*id);
        return;
    }
    if (url.scheme() == QLatin1String("rankline") && url.path() == QLatin1String("errors")) {
        showErrorTable();
        return;
    }
    if (auto n = parseCopyLink(url)) {
        const Entry* e = m_enc->find(m_current.toStdString());
        if (e && *n >= 0 && static_cast<std::size_t>(*n) < e->references.size()) {
            const QString address = QString::fromStdString(e->references[static_cast<std::size_t>(*n)].url);
            QApplication::clipboard()->setText(address);
            m_pageStatus->setText(tr("Copied %1").arg(address));
        }
        return;
    }
    if (url.scheme().isEmpty() && url.hasFragment())
        m_page->scrollToAnchor(url.fragment());
    // Anything else (an address typed into an entry's text) is deliberately not opened.
}

void EncyclopediaBrowser::showDetail(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid()) {
        m_detail->clear();
        return;
    }
    const QModelIndex src = m_filter->mapToSource(proxyIndex);
    const ErrorTableModel::Row& r = m_model->row(src.row());
    const Entry& e = m_enc->entries[static_cast<std::size_t>(r.entry)];
    const Symptom& s = e.symptoms[static_cast<std::size_t>(r.symptom)];
    QString h = pageStyle();
    h += QStringLiteral("<h3 style='margin-top:0'>%1</h3><p class='small'>%2 &nbsp;·&nbsp; entry <a "
                        "href=\"%3\">%4</a></p>")
             .arg(esc(s.signal), r.layer.toHtmlEscaped(), entryLink(e.id).toHtmlEscaped(), esc(e.title));
    h += QStringLiteral("<p><b>What it really indicates.</b> %1</p>").arg(esc(s.why));
    h += QStringLiteral("<p><b>The entry's quick answer.</b> %1</p>").arg(esc(e.quickAnswer));
    h += QStringLiteral("<p><b>Usual cause.</b> %1</p>").arg(esc(e.rootCause));
    for (const auto& fp : s.fingerprints)
        h += QStringLiteral("<p class='small'>pattern: <span class='re'>%1</span></p>").arg(esc(fp.pattern));
    h += QStringLiteral("<p class='small'>example lines, as the software prints them (host names, pids "
                        "and addresses may be stand-ins):</p>");
    for (const auto& sample : s.samples)
        h += QStringLiteral("<div class='sample'>%1</div>").arg(esc(sample));
    h += QStringLiteral("<p class='small'>Double-click the row or press Enter to open the entry.</p>");
    m_detail->setHtml(h);
}

} // namespace rl
