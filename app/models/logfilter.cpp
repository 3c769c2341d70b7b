#include "models/logfilter.h"

#include <algorithm>

#include "models/ncclsubsystem.h"

namespace rl
{

namespace
{
constexpr std::size_t kCancelCheck = 1 << 16;

std::vector<std::uint32_t> rowsOf(const AnalysisIndex& index, const std::vector<LineRef>& lines)
{
    std::vector<std::uint32_t> rows;
    rows.reserve(lines.size());
    const Analysis& a = index.analysis();
    for (LineRef r : lines)
        if (r.source.value < a.sources.size() && r.line < a.lines[r.source.value].size())
            rows.push_back(static_cast<std::uint32_t>(index.rowOf(r)));
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}
} // namespace

std::optional<std::vector<std::uint32_t>> filterRows(const AnalysisIndex& index, const LogFilter& f,
                                                     const std::function<bool()>& cancelled)
{
    const Analysis& a = index.analysis();
    auto stop = [&] { return cancelled && cancelled(); };

    if (f.contextOf) {
        const LineRef c = *f.contextOf;
        std::vector<LineRef> lines;
        if (c.source.value < a.sources.size() && c.line < a.lines[c.source.value].size()) {
            const SourceLines& sl = a.lines[c.source.value];
            const ProcessId p = sl.process(c.line);
            const auto n = static_cast<std::int64_t>(std::max(0, f.contextLines));
            const auto lo = static_cast<std::uint32_t>(std::max<std::int64_t>(0, c.line - n));
            const auto hi = static_cast<std::uint32_t>(
                std::min<std::int64_t>(static_cast<std::int64_t>(sl.size()) - 1, c.line + n));
            for (std::uint32_t l = lo; l <= hi; ++l)
                if (sl.process(l) == p)
                    lines.push_back({c.source, l});
        }
        return rowsOf(index, lines);
    }

    // Restrictions that name their lines give the candidates; the rest are checked per row.
    std::optional<std::vector<std::uint32_t>> candidates;
    auto restrict = [&](std::vector<std::uint32_t> rows) {
        if (!candidates) {
            candidates = std::move(rows);
            return;
        }
        std::vector<std::uint32_t> both;
        std::set_intersection(candidates->begin(), candidates->end(), rows.begin(), rows.end(),
                              std::back_inserter(both));
        candidates = std::move(both);
    };
    if (f.onlyLines)
        restrict(rowsOf(index, *f.onlyLines));
    if (f.eventsOnly) {
        std::vector<LineRef> lines;
        lines.reserve(a.events.size());
        for (const auto& e : a.events)
            lines.push_back(e.where);
        restrict(rowsOf(index, lines));
    }
    if (f.finding >= 0 && static_cast<std::size_t>(f.finding) < a.findings.size()) {
        const Finding& fd = a.findings[static_cast<std::size_t>(f.finding)];
        std::vector<LineRef> lines;
        for (const auto& e : fd.evidence)
            lines.push_back(e.where);
        lines.push_back(fd.anchor);
        for (const auto& e : a.events)
            if (e.entry == fd.entry &&
                std::find(fd.processes.begin(), fd.processes.end(), e.process) != fd.processes.end())
                lines.push_back(e.where);
        restrict(rowsOf(index, lines));
    }

    // Per-process and per-level verdicts, computed once.
    std::vector<bool> processOk(a.processes.size(), true);
    if (f.scope == LogFilter::Scope::Host)
        for (const auto& p : a.processes)
            processOk[p.id.value] = p.host == f.host;
    else if (f.scope == LogFilter::Scope::Process)
        for (const auto& p : a.processes)
            processOk[p.id.value] = p.id == f.process;

    // A traceback's first line has no level of its own but is an error event: severity counts the
    // event's level too.
    std::vector<std::uint32_t> severeEvents;
    if (f.minLevel != Level::None) {
        std::vector<LineRef> lines;
        for (const auto& e : a.events)
            if (e.level >= f.minLevel)
                lines.push_back(e.where);
        severeEvents = rowsOf(index, lines);
    }

    auto pass = [&](std::uint32_t row) {
        const LineRef r = a.merged[row];
        const SourceLines& sl = a.lines[r.source.value];
        const ProcessId p = sl.process(r.line);
        if (p.value < processOk.size() && !processOk[p.value])
            return false;
        if (f.minLevel != Level::None && sl.level(r.line) < f.minLevel &&
            !std::binary_search(severeEvents.begin(), severeEvents.end(), row))
            return false;
        if (f.subsystems != 0) {
            const NcclSubsystem s = ncclSubsystem(a.text(r));
            if (s == NcclSubsystem::None || !(f.subsystems & (1u << static_cast<unsigned>(s))))
                return false;
        }
        return true;
    };

    std::vector<std::uint32_t> out;
    if (candidates) {
        for (std::size_t i = 0; i < candidates->size(); ++i) {
            if (i % kCancelCheck == 0 && stop())
                return std::nullopt;
            if (pass((*candidates)[i]))
                out.push_back((*candidates)[i]);
        }
        return out;
    }
    const auto n = static_cast<std::uint32_t>(a.merged.size());
    for (std::uint32_t row = 0; row < n; ++row) {
        if (row % kCancelCheck == 0 && stop())
            return std::nullopt;
        if (pass(row))
            out.push_back(row);
    }
    out.shrink_to_fit();
    return out;
}

} // namespace rl
