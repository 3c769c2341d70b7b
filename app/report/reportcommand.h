#pragma once
// `rankline report`: runs in the Qt module, because a PDF is painted with QPainter.

#include <QStringList>

#include <optional>

#include "report/report_writers.h"

namespace rl
{

// The format a `report` command line asks for: --format, else the output's extension.
std::optional<ReportFormat> requestedReportFormat(const QStringList& args, QString* output = nullptr);

// Runs `rankline report ...` (args as argv) on a QCoreApplication, or a QGuiApplication for a PDF;
// returns the exit status.
int runReport(const QStringList& args);

} // namespace rl
