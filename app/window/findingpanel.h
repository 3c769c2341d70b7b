#pragma once
// The explanation of a finding: evidence, the checklist judged against it, competing hypotheses
// (other candidate findings and the checklist's open questions, with what would decide them),
// symptoms, root cause, fix, related entries and NCCL versions. Every line reference is a link that
// selects the line; every entry name is a link that opens it in the encyclopedia.

#include <QTextBrowser>

#include <memory>

#include "models/analysisindex.h"

namespace rl
{

class FindingPanel final : public QTextBrowser
{
    Q_OBJECT
public:
    explicit FindingPanel(QWidget* parent = nullptr);
    void setIndex(std::shared_ptr<const AnalysisIndex> index);
    // The HTML shown; log text in it is always escaped.
    static QString renderHtml(const Analysis& analysis);
    static QString lineLink(LineRef where);
    static std::optional<LineRef> parseLink(const QUrl& url);

signals:
    void lineActivated(rl::LineRef where);
    void entryActivated(const QString& entryId);
};

} // namespace rl
