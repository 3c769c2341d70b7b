#include "encyclopedia/entrysearch.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <map>

#include "encyclopedia/entrytext.h"
#include "engine/scanner.h"

namespace rl
{

namespace
{
constexpr int kPrimaryFingerprint = 1000;
constexpr int kOtherFingerprint = 600;
constexpr std::size_t kIdField = 1; // each entry's fields: its title first, then its id
} // namespace

EntrySearch::EntrySearch(std::shared_ptr<const Encyclopedia> encyclopedia)
    : m_enc(std::move(encyclopedia)), m_scanner(std::make_unique<Scanner>(*m_enc))
{
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    for (const Entry& e : m_enc->entries) {
        std::vector<Field> f;
        f.push_back({q(e.title).toLower(), 50, QStringLiteral("title")});
        f.push_back({q(e.id).toLower(), 40, QStringLiteral("id")});
        for (const auto& t : e.tags)
            f.push_back({q(t).toLower(), 35, QStringLiteral("tag ") + q(t)});
        for (const auto& s : e.symptoms)
            f.push_back({q(s.signal).toLower(), 25, QStringLiteral("symptom “%1”").arg(q(s.signal))});
        f.push_back({q(e.quickAnswer).toLower(), 10, QStringLiteral("quick answer")});
        for (const auto& s : e.symptoms)
            for (const auto& sample : s.samples)
                f.push_back({q(sample).toLower(), 8, QStringLiteral("a sample line")});
        f.push_back({layerName(e.category).toLower(), 5, QStringLiteral("layer")});
        m_fields.push_back(std::move(f));
    }
}

EntrySearch::~EntrySearch() = default;

std::vector<SymptomRef> EntrySearch::fingerprintMatches(const QString& text) const
{
    std::vector<SymptomRef> out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        const std::string l = line.trimmed().toStdString();
        if (l.empty())
            continue;
        std::vector<ScanHit> hits;
        m_scanner->matchLine(l, 0, hits);
        for (const ScanHit& h : hits) {
            const ScanPattern& p = m_scanner->patterns()[static_cast<std::size_t>(h.pattern)];
            SymptomRef r{p.entry, p.symptom};
            if (p.entry >= 0 && std::find(out.begin(), out.end(), r) == out.end())
                out.push_back(r);
        }
    }
    return out;
}

std::vector<EntryMatch> EntrySearch::search(const QString& query) const
{
    std::map<int, EntryMatch> found;
    auto offer = [&found](EntryMatch m) {
        auto it = found.find(m.entry);
        if (it == found.end())
            found.emplace(m.entry, std::move(m));
        else if (m.score > it->second.score)
            it->second = std::move(m);
    };

    for (const SymptomRef& r : fingerprintMatches(query)) {
        const Symptom& s =
            m_enc->entries[static_cast<std::size_t>(r.entry)].symptoms[static_cast<std::size_t>(r.symptom)];
        offer({r.entry, s.primary ? kPrimaryFingerprint : kOtherFingerprint,
               QStringLiteral("the line matches the fingerprint of “%1”")
                   .arg(QString::fromStdString(s.signal))});
    }

    const QStringList words =
        query.toLower().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    if (!words.isEmpty()) {
        std::vector<EntryMatch> partial;
        bool anyComplete = false;
        for (std::size_t e = 0; e < m_fields.size(); ++e) {
            int score = 0, hits = 0, considered = 0;
            QStringList reasons;
            for (const QString& w : words) {
                const Field* best = nullptr;
                for (const Field& f : m_fields[e])
                    if ((!best || f.weight > best->weight) && f.text.contains(w))
                        best = &f;
                if (w.size() >= 3)
                    ++considered;
                if (!best)
                    continue;
                score += best->weight;
                // Between entries whose titles both hold the word, the one named after it comes
                // first: "watchdog" is the watchdog timeout's, not the heartbeat monitor's that
                // reports a stuck watchdog.
                if (best->what != QLatin1String("id") && m_fields[e][kIdField].text.contains(w))
                    score += 5;
                if (w.size() >= 3)
                    ++hits;
                if (!reasons.contains(best->what) && reasons.size() < 3)
                    reasons << best->what;
            }
            const bool complete = score > 0 && std::all_of(words.begin(), words.end(), [&](const QString& w) {
                                      return std::any_of(m_fields[e].begin(), m_fields[e].end(),
                                                         [&](const Field& f) { return f.text.contains(w); });
                                  });
            if (complete) {
                anyComplete = true;
                offer({static_cast<int>(e), score, reasons.join(QStringLiteral(" · "))});
            } else if (considered >= 3 && hits * 10 >= considered * 6) {
                partial.push_back({static_cast<int>(e), hits * 100 / considered,
                                   QStringLiteral("%1 of %2 words").arg(hits).arg(considered)});
            }
        }
        // A long query that no entry matches completely (a paraphrased or cut log line): the
        // entries sharing most of its words, below every complete match.
        if (!anyComplete && found.empty())
            for (auto& m : partial)
                offer(std::move(m));
    }

    std::vector<EntryMatch> out;
    for (auto& [e, m] : found)
        out.push_back(std::move(m));
    std::sort(out.begin(), out.end(), [this](const EntryMatch& a, const EntryMatch& b) {
        if (a.score != b.score)
            return a.score > b.score;
        const Entry& x = m_enc->entries[static_cast<std::size_t>(a.entry)];
        const Entry& y = m_enc->entries[static_cast<std::size_t>(b.entry)];
        const int rx = layerRank(x.category), ry = layerRank(y.category);
        return rx != ry ? rx < ry : x.title < y.title;
    });
    return out;
}

} // namespace rl
