#pragma once
// RE2 search over the lines a log view shows. Like filterRows(), a pure function over the immutable
// Analysis that the window runs off the UI thread; the view then only highlights the rows it paints.

#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/analysisindex.h"

namespace re2
{
class RE2;
}

namespace rl
{

// A compiled pattern, shared between the search job and the views that highlight it.
class SearchPattern
{
public:
    // Empty text gives an invalid pattern with an empty error.
    static std::shared_ptr<const SearchPattern> compile(const QString& text, bool caseSensitive);
    ~SearchPattern();

    bool ok() const;
    QString error() const { return m_error; }
    QString text() const { return m_text; }
    bool caseSensitive() const { return m_caseSensitive; }
    bool matches(std::string_view line) const;
    // The same pattern for a whole buffer of lines: never across a newline, ^ at line starts. Null
    // when it cannot be run that way (it mentions $ or \r, which the CR of a CRLF line would upset).
    const re2::RE2* bufferPattern() const { return m_bufferRe.get(); }
    // Matches in `line` as (start, length) in UTF-16 units of QString::fromUtf8(line), left to right.
    std::vector<std::pair<int, int>> spans(std::string_view line) const;

private:
    SearchPattern() = default;
    std::unique_ptr<re2::RE2> m_re;
    std::unique_ptr<re2::RE2> m_bufferRe;
    QString m_error;
    QString m_text;
    bool m_caseSensitive = false;
};

// Positions in `rows` (view rows) whose line matches, ascending; `rows` null means the merged order
// itself. Splits the work over `threads` workers. When most lines are shown, each source's whole
// buffer is searched at once (as the scanner does) and matches are mapped to lines; otherwise each
// shown line is matched on its own. nullopt when cancelled.
std::optional<std::vector<std::uint32_t>>
searchRows(const AnalysisIndex& index, const std::vector<std::uint32_t>* rows, const SearchPattern& pattern,
           const std::function<bool()>& cancelled = {}, unsigned threads = 0);

} // namespace rl
