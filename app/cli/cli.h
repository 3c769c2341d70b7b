#pragma once

#include <QStringList>

namespace rl::cli
{

// True when argv names a headless sub-command (diagnose, probe, report).
bool isSubcommand(const QStringList& args);
// True when the sub-command paints (a PDF report): it then needs a QGuiApplication.
bool needsGui(const QStringList& args);
// Runs the sub-command on a QCoreApplication; returns the process exit status.
int run(const QStringList& args);

} // namespace rl::cli
