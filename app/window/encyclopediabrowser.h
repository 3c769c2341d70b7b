#pragma once
// The encyclopedia on its own, no bundle needed: entries grouped by layer with a search box that
// also takes a pasted log line, a readable page per entry, and "NCCL errors side by side", a table
// of message families. Links between entries navigate; references are text (Rankline opens no
// network connection: clicking one copies its address).

#include <QModelIndex>
#include <QWidget>

#include <memory>
#include <vector>

#include "encyclopedia/encyclopedia.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;
class QUrl;

namespace rl
{

class EntrySearch;
class ErrorTableFilter;
class ErrorTableModel;

class EncyclopediaBrowser final : public QWidget
{
    Q_OBJECT
public:
    enum Tab { EntriesTab, ErrorTableTab };

    explicit EncyclopediaBrowser(std::shared_ptr<const Encyclopedia> encyclopedia, QWidget* parent = nullptr);
    ~EncyclopediaBrowser() override;

    // Shows an entry on the entries tab; false when there is no such id.
    bool showEntry(const QString& id);
    void showErrorTable();
    // The first page: how to search, and every entry by layer.
    void showOverview();
    // Types `query` into the search box: the list shows the matches, best first, and the best one.
    void search(const QString& query);
    QString currentEntry() const { return m_current; } // empty on the overview page
    // Entry ids in the order the list shows them.
    QStringList listedEntries() const;

    QTabWidget* tabs() const { return m_tabs; }
    QLineEdit* searchBox() const { return m_search; }
    QTreeWidget* entryList() const { return m_list; }
    QTextBrowser* page() const { return m_page; }
    QTableView* errorTable() const { return m_table; }
    ErrorTableModel* errorModel() const { return m_model; }
    ErrorTableFilter* errorFilter() const { return m_filter; }
    QLineEdit* errorFilterBox() const { return m_tableFilter; }
    QTextBrowser* errorDetail() const { return m_detail; }

public slots:
    void back();
    void forward();

signals:
    void entryShown(const QString& id);

private:
    QWidget* buildEntriesTab();
    QWidget* buildErrorTableTab();
    void fillList(const QString& query);
    void render(const QString& id, bool record);
    void linkClicked(const QUrl& url);
    void showDetail(const QModelIndex& proxyIndex);
    void updateTableCount();
    void updateHistoryButtons();

    std::shared_ptr<const Encyclopedia> m_enc;
    std::unique_ptr<EntrySearch> m_searcher;
    QString m_current;
    QString m_matchReason; // why the shown entry matched the search, if it did
    std::vector<QString> m_back;
    std::vector<QString> m_forward;
    bool m_filling = false;

    QTabWidget* m_tabs = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_listCount = nullptr;
    QTreeWidget* m_list = nullptr;
    QToolButton* m_backButton = nullptr;
    QToolButton* m_forwardButton = nullptr;
    QLabel* m_pageStatus = nullptr;
    QTextBrowser* m_page = nullptr;

    ErrorTableModel* m_model = nullptr;
    ErrorTableFilter* m_filter = nullptr;
    QLineEdit* m_tableFilter = nullptr;
    QComboBox* m_layer = nullptr;
    QLabel* m_tableCount = nullptr;
    QTableView* m_table = nullptr;
    QTextBrowser* m_detail = nullptr;
};

} // namespace rl
