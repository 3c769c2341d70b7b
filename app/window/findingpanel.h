#pragma once
// The explanation of a finding: symptoms observed or not, the checklist judged against the evidence,
// root cause, fix and NCCL versions. Every line reference is a link that selects the line.

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
};

} // namespace rl
