#pragma once
// Writers for the incident report. HTML is one self-contained file (inline CSS and SVG, no
// scripts, nothing fetched); Markdown pastes into a GitHub issue; JSON extends `diagnose --json`
// with a versioned `report` object (docs/report-schema.md). The PDF is drawn by the app.

#include <optional>
#include <string>
#include <string_view>

#include "report/incident_report.h"

namespace rl
{

enum class ReportFormat { Html, Pdf, Markdown, Json };

// "html", "htm", "pdf", "md", "markdown", "json" (any case), or a file name ending in one.
std::optional<ReportFormat> reportFormatFromName(std::string_view nameOrExtension);
const char* reportFormatName(ReportFormat f);

std::string reportHtml(const IncidentReport& report);
std::string reportMarkdown(const IncidentReport& report);
// The diagnosis JSON (same fields, redacted with `redactor` when the report is) plus "report".
std::string reportJson(const IncidentReport& report, const Analysis& analysis, Redactor& redactor);

// The timeline as an <svg> element (no XML declaration), every text escaped.
std::string timelineSvg(const TimelinePicture& picture);

// Escapes & < > " ' for HTML text and attribute values.
std::string htmlEscape(std::string_view s);
// Rankline's own prose: `code` spans become <code>, everything else is escaped.
std::string htmlProse(std::string_view s);
// A secret shown in a legend: its first characters and its length, never the whole value.
std::string maskSecret(const std::string& s);

} // namespace rl
