#pragma once
// Encyclopedia entries as people read them: the layer names of the categories, short forms of long
// prose, the HTML of an entry page, and the rankline: links between entries. Every piece of entry
// text goes through toHtmlEscaped(): samples are real log lines and may contain markup.

#include <QString>
#include <QUrl>

#include <optional>
#include <string>

#include "encyclopedia/encyclopedia.h"

namespace rl
{

// The categories in the order the browser lists them.
const std::vector<std::string>& categoryOrder();
// "socket-bootstrap" -> "Socket / bootstrap"; an unknown category is shown as written.
QString layerName(const std::string& category);
// Position in categoryOrder(), unknown categories last.
int layerRank(const std::string& category);

// The first sentence of `text`, with the next ones added while it stays shorter than `minChars`;
// cut at a word and ended with "…" when longer than `maxChars`. Plain text in, plain text out.
QString leadSentences(const std::string& text, int minChars = 60, int maxChars = 240);
// A table-cell form of `text`: its lead sentence; when longer than `maxChars`, without its
// parentheticals, then cut at a clause (";") or a word.
QString shortForm(const std::string& text, int maxChars);

// Entry prose as HTML: escaped, with `backticked` spans shown as code.
QString proseHtml(const std::string& text);

// rankline:entry/<id> opens an entry; rankline:copy/<n> copies the entry's n-th reference.
QString entryLink(const std::string& id);
std::optional<QString> parseEntryLink(const QUrl& url);
std::optional<int> parseCopyLink(const QUrl& url);

// The whole entry as HTML for a QTextBrowser. `encyclopedia` resolves related ids to titles.
QString entryHtml(const Entry& entry, const Encyclopedia& encyclopedia);

// The browser's first page: how to search, and every entry by layer with the lead of its answer.
// Links: rankline:entry/<id>, and rankline:errors for the side-by-side table.
QString overviewHtml(const Encyclopedia& encyclopedia);

// Shared style sheet of the entry page and the finding panel.
QString pageStyle();

} // namespace rl
