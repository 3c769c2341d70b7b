#include "models/analysisindex.h"

#include <QDateTime>

namespace rl
{

AnalysisIndex::AnalysisIndex(std::shared_ptr<const Analysis> analysis) : m_analysis(std::move(analysis))
{
    const Analysis& a = *m_analysis;
    m_rows.resize(a.sources.size());
    for (std::size_t s = 0; s < a.sources.size(); ++s)
        m_rows[s].resize(a.lines[s].size());
    std::size_t row = 0;
    for (LineRef r : a.merged)
        m_rows[r.source.value][r.line] = static_cast<int>(row++);
    m_hasTime = a.span.knownLo() && a.span.knownHi() && a.span.hi > a.span.lo;
    if (const Finding* f = a.initiatingFinding())
        for (const auto& e : f->evidence) {
            if (!m_evidence.count(e.where))
                m_evidence[e.where] = QString::fromStdString(e.label);
            m_evidenceAll[e.where] << QString::fromStdString(e.label);
        }
    for (const auto& f : a.findings)
        if (f.role == Role::Collateral)
            for (const auto& e : f.evidence)
                m_collateral[e.where] = true;
}

std::int64_t AnalysisIndex::axisPos(LineRef where) const
{
    if (!m_hasTime)
        return rowOf(where);
    return m_analysis->axisTime(where);
}

bool AnalysisIndex::drawnAtLastStamped(LineRef where) const
{
    bool standIn = false;
    if (m_hasTime)
        m_analysis->axisTime(where, &standIn);
    return standIn;
}

QString AnalysisIndex::evidenceLabel(LineRef where) const
{
    auto it = m_evidence.find(where);
    return it == m_evidence.end() ? QString() : it->second;
}

QStringList AnalysisIndex::evidenceLabels(LineRef where) const
{
    auto it = m_evidenceAll.find(where);
    return it == m_evidenceAll.end() ? QStringList() : it->second;
}

bool AnalysisIndex::isCollateral(LineRef where) const
{
    return m_collateral.count(where) > 0;
}

QString AnalysisIndex::formatTime(std::int64_t us, bool withDate, std::int64_t resolutionUs)
{
    QDateTime dt = QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC);
    const QString time = resolutionUs >= 60'000'000  ? QStringLiteral("HH:mm")
                         : resolutionUs >= 1'000'000 ? QStringLiteral("HH:mm:ss")
                                                     : QStringLiteral("HH:mm:ss.zzz");
    return dt.toString(withDate ? QStringLiteral("yyyy-MM-dd ") + time : time);
}

} // namespace rl
