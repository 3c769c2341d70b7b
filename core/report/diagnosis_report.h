#pragma once
// The diagnosis as JSON (the `diagnose --json` contract) and as plain text for terminals.
// Field names here are a contract with users' scripts: extend, never rename.

#include <string>

#include "analysis.h"

namespace rl
{

constexpr int kDiagnosisSchemaVersion = 1;

std::string diagnosisJson(const Analysis& analysis, int indent = 2);
std::string diagnosisText(const Analysis& analysis);

// Path shown for a line's file: relative to the opened folder, or the file's name.
std::string displayFile(const Analysis& analysis, LineRef where);

} // namespace rl
