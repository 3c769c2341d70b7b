#pragma once
// Finding an entry from what a user has at hand: words ("econnaborted", "watchdog") or a log line
// pasted whole. A pasted line is run through the entries' own fingerprints, the same regexes the
// engine scans bundles with, so a real line finds its entry even when no word of it is a keyword.

#include <QString>

#include <memory>
#include <vector>

#include "encyclopedia/encyclopedia.h"

namespace rl
{

class Scanner;

struct EntryMatch {
    int entry = -1;
    int score = 0;
    QString reason; // plain text: why it matched ("the line matches “…”", "tag ECONNABORTED")
};

struct SymptomRef {
    int entry = -1;
    int symptom = -1;
    bool operator==(const SymptomRef&) const = default;
};

class EntrySearch
{
public:
    explicit EntrySearch(std::shared_ptr<const Encyclopedia> encyclopedia);
    ~EntrySearch();
    EntrySearch(const EntrySearch&) = delete;
    EntrySearch& operator=(const EntrySearch&) = delete;

    // Best first; an empty query matches nothing. Searched: fingerprints (each line of the query),
    // then title, id, tags, symptom signals, quick answer and sample lines, every word required.
    // When no entry has every word, entries with most of the words of a longer query are returned.
    std::vector<EntryMatch> search(const QString& query) const;
    // The symptoms whose fingerprints match some line of `text`.
    std::vector<SymptomRef> fingerprintMatches(const QString& text) const;

    const Encyclopedia& encyclopedia() const { return *m_enc; }

private:
    struct Field {
        QString text; // lower case
        int weight = 0;
        QString what;
    };
    std::shared_ptr<const Encyclopedia> m_enc;
    std::unique_ptr<Scanner> m_scanner;
    std::vector<std::vector<Field>> m_fields; // per entry
};

} // namespace rl
