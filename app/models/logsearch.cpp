#include "models/logsearch.h"

#include <algorithm>
#include <atomic>
#include <re2/re2.h>
#include <thread>

namespace rl
{

namespace
{
constexpr std::size_t kCancelCheck = 1 << 14;
}

SearchPattern::~SearchPattern() = default;

std::shared_ptr<const SearchPattern> SearchPattern::compile(const QString& text, bool caseSensitive)
{
    std::shared_ptr<SearchPattern> p(new SearchPattern);
    p->m_text = text;
    p->m_caseSensitive = caseSensitive;
    if (text.isEmpty())
        return p;
    RE2::Options o;
    o.set_case_sensitive(caseSensitive);
    o.set_log_errors(false);
    const std::string utf8 = text.toStdString();
    auto re = std::make_unique<RE2>(utf8, o);
    if (!re->ok()) {
        p->m_error = QString::fromStdString(re->error());
        return p;
    }
    p->m_re = std::move(re);
    if (!text.contains(QLatin1Char('$')) && !text.contains(QStringLiteral("\\r"))) {
        RE2::Options b = o;
        b.set_never_nl(true);
        auto whole = std::make_unique<RE2>("(?m)" + utf8, b);
        if (whole->ok())
            p->m_bufferRe = std::move(whole);
    }
    return p;
}

bool SearchPattern::ok() const
{
    return m_re != nullptr;
}

bool SearchPattern::matches(std::string_view line) const
{
    return m_re && RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), *m_re);
}

std::vector<std::pair<int, int>> SearchPattern::spans(std::string_view line) const
{
    std::vector<std::pair<int, int>> out;
    if (!m_re)
        return out;
    re2::StringPiece text(line.data(), line.size());
    re2::StringPiece m;
    std::size_t pos = 0;
    int utf16Before = 0;
    std::size_t bytesCounted = 0;
    auto utf16Upto = [&](std::size_t byte) {
        // Count UTF-16 units incrementally: the spans come left to right.
        utf16Before += static_cast<int>(
            QString::fromUtf8(line.data() + bytesCounted, static_cast<qsizetype>(byte - bytesCounted))
                .size());
        bytesCounted = byte;
        return utf16Before;
    };
    while (pos <= line.size() && out.size() < 512) {
        if (!m_re->Match(text, pos, line.size(), RE2::UNANCHORED, &m, 1))
            break;
        const auto start = static_cast<std::size_t>(m.data() - line.data());
        const int s16 = utf16Upto(start);
        const int e16 = utf16Upto(start + m.size());
        if (m.empty()) {
            pos = start + 1; // an empty match: step on, show nothing
            continue;
        }
        out.push_back({s16, e16 - s16});
        pos = start + m.size();
    }
    return out;
}

namespace
{

// Lines of one source that match, as a bitmap: the buffer is searched from match to match, and each
// match's line is marked once.
bool markSource(const Source& src, const re2::RE2& re, std::vector<bool>& hit,
                const std::function<bool()>& cancelled)
{
    const std::string_view text = src.text();
    hit.assign(src.lineCount(), false);
    re2::StringPiece all(text.data(), text.size());
    re2::StringPiece m;
    std::size_t pos = 0;
    std::size_t checks = 0;
    while (pos < text.size() && re.Match(all, pos, text.size(), RE2::UNANCHORED, &m, 1)) {
        if (++checks % 4096 == 0 && cancelled && cancelled())
            return false;
        const auto start = static_cast<std::size_t>(m.data() - text.data());
        const std::size_t line = src.lineStarts.lineOf(start);
        if (line < hit.size())
            hit[line] = true;
        // On to the next line: one mark a line is enough.
        const std::size_t eol = text.find('\n', start + std::max<std::size_t>(m.size(), 1) - 1);
        if (eol == std::string_view::npos)
            break;
        pos = eol + 1;
    }
    return true;
}

} // namespace

std::optional<std::vector<std::uint32_t>> searchRows(const AnalysisIndex& index,
                                                     const std::vector<std::uint32_t>* rows,
                                                     const SearchPattern& pattern,
                                                     const std::function<bool()>& cancelled, unsigned threads)
{
    if (!pattern.ok())
        return std::vector<std::uint32_t>{};
    const Analysis& a = index.analysis();
    const std::size_t n = rows ? rows->size() : a.merged.size();
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    std::atomic<bool> stopped{false};
    auto isCancelled = [&] { return stopped.load() || (cancelled && cancelled()); };

    // Most lines shown: search whole buffers, one source per task, then read the bitmaps in row order.
    if (pattern.bufferPattern() && n * 4 >= a.merged.size()) {
        std::vector<std::vector<bool>> hits(a.sources.size());
        std::atomic<std::size_t> next{0};
        auto work = [&] {
            for (std::size_t s; (s = next.fetch_add(1)) < a.sources.size();)
                if (isCancelled() ||
                    !markSource(a.sources[s], *pattern.bufferPattern(), hits[s], cancelled)) {
                    stopped = true;
                    return;
                }
        };
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < std::min<std::size_t>(threads, a.sources.size()); ++t)
            pool.emplace_back(work);
        work();
        for (auto& th : pool)
            th.join();
        if (stopped)
            return std::nullopt;
        std::vector<std::uint32_t> out;
        for (std::size_t i = 0; i < n; ++i) {
            const LineRef r = a.merged[rows ? (*rows)[i] : static_cast<std::uint32_t>(i)];
            const auto& h = hits[r.source.value];
            if (r.line < h.size() && h[r.line])
                out.push_back(static_cast<std::uint32_t>(i));
        }
        return out;
    }

    // Few lines shown: match each on its own.
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, n / 50000)));
    std::vector<std::vector<std::uint32_t>> parts(threads);
    auto work = [&](unsigned t) {
        const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
        for (std::size_t i = lo; i < hi; ++i) {
            if ((i - lo) % kCancelCheck == 0 && isCancelled()) {
                stopped = true;
                return;
            }
            const std::uint32_t row = rows ? (*rows)[i] : static_cast<std::uint32_t>(i);
            if (pattern.matches(a.text(a.merged[row])))
                parts[t].push_back(static_cast<std::uint32_t>(i));
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool)
        th.join();
    if (stopped)
        return std::nullopt;
    std::vector<std::uint32_t> out;
    for (auto& p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

} // namespace rl
