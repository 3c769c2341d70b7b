#pragma once
// Lookups the views share over one immutable Analysis: the merged row of a line, the display time of
// an event, and which lines are a finding's evidence.

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

#include "analysis.h"

namespace rl
{

class AnalysisIndex
{
public:
    explicit AnalysisIndex(std::shared_ptr<const Analysis> analysis);

    const Analysis& analysis() const { return *m_analysis; }
    std::shared_ptr<const Analysis> shared() const { return m_analysis; }
    // Row of `where` in Analysis::merged.
    int rowOf(LineRef where) const { return m_rows[where.source.value][where.line]; }
    // True when the bundle has timestamps; otherwise the timeline orders by merged row.
    bool hasTime() const { return m_hasTime; }
    // Position on the timeline's axis: microseconds (Analysis::axisTime: a line of a file with no
    // stamps at its process's last stamped line), or the merged row when there is no time.
    std::int64_t axisPos(LineRef where) const;
    // Whether axisPos(where) is that stand-in (its process's last stamped line) for a time the
    // line does not have.
    bool drawnAtLastStamped(LineRef where) const;
    // Label of the evidence line in the initiating finding ("aborted-retry"), or empty.
    QString evidenceLabel(LineRef where) const;
    // Every label the initiating finding gives the line (one line can be two pieces of evidence).
    QStringList evidenceLabels(LineRef where) const;
    bool isCollateral(LineRef where) const;

    // To the millisecond, or only as far as a stamp of `resolutionUs` says: a stamp to the second
    // shows "14:03:17", to the minute "12:54" (zeros after them would claim a precision it lacks).
    static QString formatTime(std::int64_t us, bool withDate = false, std::int64_t resolutionUs = 1);

private:
    std::shared_ptr<const Analysis> m_analysis;
    std::vector<std::vector<int>> m_rows;
    bool m_hasTime = false;
    std::map<LineRef, QString> m_evidence;
    std::map<LineRef, QStringList> m_evidenceAll;
    std::map<LineRef, bool> m_collateral;
};

} // namespace rl
