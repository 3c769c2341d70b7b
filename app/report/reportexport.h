#pragma once
// Exporting an incident report to a file, shared by `rankline report` and File ▸ Export Report….
// HTML, Markdown and JSON come from core/; the PDF is painted here (QPdfWriter + QPainter, vector
// timeline), which needs a QGuiApplication.

#include <QString>

#include <optional>

#include "analysis.h"
#include "report/report_writers.h"
#include "util/expected.h"

class QPainter;
class QRectF;

namespace rl
{

enum class PaperSize { A4, Letter };

struct ExportRequest {
    QString path;
    ReportFormat format = ReportFormat::Html;
    bool redact = true;
    PaperSize paper = PaperSize::A4;
    QString exportTime; // ISO 8601; empty: $RANKLINE_REPORT_TIME or now
};

// Rankline, Qt and the core's libraries, for About boxes and report footers.
std::vector<std::pair<std::string, std::string>> componentVersions();

// Builds the report and writes it atomically; the error names the file, the cause and what to do.
std::optional<Error> exportReport(const Analysis& analysis, const ExportRequest& request);

// The report in `format` as bytes (not for PDF).
QByteArray renderReport(const Analysis& analysis, const ExportRequest& request);

// Writes an already built report as PDF.
std::optional<Error> writeReportPdf(const IncidentReport& report, const QString& path, PaperSize paper);

// Paints the timeline picture into `target`, scaled to its width (vector operations only).
void paintTimeline(QPainter& painter, const TimelinePicture& picture, const QRectF& target);

} // namespace rl
