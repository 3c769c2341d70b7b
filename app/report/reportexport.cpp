#include "report/reportexport.h"

#include <QSaveFile>

namespace rl
{

namespace
{

ReportOptions optionsFor(const ExportRequest& req)
{
    ReportOptions o;
    o.redact = req.redact;
    o.exportTime = req.exportTime.toStdString();
    o.ranklineVersion = RANKLINE_VERSION;
    o.components = {{"Qt", qVersion()}};
    return o;
}

} // namespace

std::vector<std::pair<std::string, std::string>> componentVersions()
{
    std::vector<std::pair<std::string, std::string>> v = {{"Rankline", RANKLINE_VERSION}, {"Qt", qVersion()}};
    for (auto& c : coreComponents())
        v.push_back(std::move(c));
    return v;
}

QByteArray renderReport(const Analysis& analysis, const ExportRequest& req)
{
    Redactor redactor;
    IncidentReport report = buildReport(analysis, optionsFor(req), redactor);
    std::string out;
    switch (req.format) {
    case ReportFormat::Html:
        out = reportHtml(report);
        break;
    case ReportFormat::Markdown:
        out = reportMarkdown(report);
        break;
    case ReportFormat::Json:
        out = reportJson(report, analysis, redactor);
        break;
    case ReportFormat::Pdf:
        break;
    }
    return QByteArray::fromStdString(out);
}

std::optional<Error> exportReport(const Analysis& analysis, const ExportRequest& req)
{
    if (req.format == ReportFormat::Pdf) {
        ReportOptions o = optionsFor(req);
        o.timeline.width = 760; // narrower than on screen, so its text stays readable on paper
        IncidentReport report = buildReport(analysis, o);
        return writeReportPdf(report, req.path, req.paper);
    }
    QByteArray bytes = renderReport(analysis, req);
    QSaveFile file(req.path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Error{req.path.toStdString(), "cannot be written: " + file.errorString().toStdString(),
                     "choose a folder you can write to"};
    return std::nullopt;
}

} // namespace rl
