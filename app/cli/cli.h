#pragma once

#include <QStringList>

namespace rl::cli
{

// True when argv names a headless sub-command (diagnose, probe, report).
bool isSubcommand(const QStringList& args);
// Runs the sub-command on a QCoreApplication; returns the process exit status.
int run(const QStringList& args);

} // namespace rl::cli
