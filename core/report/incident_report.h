#pragma once
// The incident report: what someone else needs to understand a failure without the logs. Built
// once from an Analysis as plain data, redacted in one pass (one pseudonym per original across the
// whole report), then written as HTML, Markdown or JSON here and as PDF by the app.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis.h"
#include "report/redactor.h"
#include "report/timeline_picture.h"

namespace rl
{

// Version of the `report` object in the JSON export (docs/report-schema.md).
constexpr int kReportSchemaVersion = 1;

struct ReportOptions {
    bool redact = true;
    // ISO 8601 UTC ("2025-06-12T15:04:05Z"). Empty: $RANKLINE_REPORT_TIME, else now.
    std::string exportTime;
    std::string ranklineVersion;
    // Versions of the libraries the front end runs on (Qt), shown with the core's own.
    std::vector<std::pair<std::string, std::string>> components;
    int contextLines = 4; // before and after the initiating line, from its process
    TimelineLayout timeline;
};

struct ReportLine {
    std::string file;           // display path
    std::uint32_t line = 0;     // 1-based
    std::uint32_t lastLine = 0; // a run of consecutive lines with one label ends here (0: one line)
    std::string who;            // "rank 5 (gpu-b:39962)"
    std::string time;           // "14:03:17.412", "~14:03:17.697" when inferred, or empty
    std::string text;           // lines of a run joined by '\n'
    std::string label;          // evidence label, or empty
    std::string note;
    bool emphasis = false; // the initiating line in the context block
};

struct ReportCollateral {
    std::string entry;
    std::string title;
    std::string summary;
    std::size_t processCount = 0;
    std::string ranks; // "0–3, 6"
    std::vector<std::string> hosts;
    std::vector<std::string> kinds; // the symptoms observed
    std::string pointsAt;           // label of the process its reports name, or empty
    std::string pointsAtNote;
    bool pointsAtInitiator = false;
    ReportLine first;
};

struct ReportCheck {
    std::string id;
    std::string status; // confirmed / contradicted / not-evidenced
    std::string text;
    std::string detail;
    std::string where; // "file:line" or empty
};

// Another explanation of the failure than the initiating finding's, and what would decide between
// them: another finding the logs show, or a failure an excerpt only hints at (Finding::hypotheses,
// less the finding's own unconfirmed checklist items, which the checklist says).
struct ReportAlternative {
    std::string text;
    std::string decider;
    std::string where; // "file:line" or empty
};

struct ReportNcclRow {
    std::string version;
    std::string ranks;
    std::string where;
};

struct ReportNcclHint {
    std::string range;
    std::string basis;
    std::string where;
};

struct ReportClock {
    std::string host;
    std::int64_t offsetUs = 0;
    std::string note;
};

struct ReportFile {
    std::string path;
    std::uint64_t size = 0;
    std::uint64_t lines = 0;
    std::string sha256;
    std::string processes; // ranks found in it
};

struct ReportSkipped {
    std::string file;
    std::string reason;
};

struct ReportReference {
    std::string title;
    std::string url;
};

// "gpu-b/rank5.log:27" or "gpu-b/rank5.log:27–32".
std::string lineRange(const ReportLine& l);

struct IncidentReport {
    int schemaVersion = kReportSchemaVersion;
    std::string ranklineVersion;
    std::string exportedAt;
    bool redacted = true;
    std::string title;   // the headline
    std::string verdict; // one paragraph

    bool hasInitiating = false;
    bool hasFinding = false; // false: nothing recognised (the guidance fields are empty)
    std::string entry;
    std::string entryTitle;
    std::string role;
    double confidence = 0;
    std::string who;
    std::string where;
    std::string time;
    std::string summary;
    std::string quickAnswer;
    std::string connectVerdict;
    std::vector<ReportLine> evidence;
    std::vector<ReportLine> context;
    std::vector<ReportCollateral> collateral;
    std::size_t collateralProcesses = 0;
    TimelinePicture timeline;
    std::vector<ReportCheck> checklist;
    std::vector<ReportAlternative> alternatives;
    std::string rootCause;
    std::vector<std::string> fixSteps;
    std::string verify;
    std::vector<std::string> prevention;
    std::vector<ReportReference> references;

    std::vector<ReportNcclRow> ncclLogs;
    std::vector<ReportNcclRow> ncclDumps; // Flight Recorder dumps' comm_lib_version; `where` their files
    std::vector<ReportNcclHint> ncclHints;
    std::string ncclLocal; // "2.28.9 (/usr/lib/…/libnccl.so.2)", "not found: …" or "not probed"
    std::optional<bool> fixApplies;
    std::string ncclVerdict;

    std::string clockStatement;
    std::vector<ReportClock> clocks;

    std::vector<ReportFile> files;
    std::vector<ReportFile> dumps; // Flight Recorder dumps: no lines; `processes` their rank
    std::vector<ReportSkipped> skipped;
    std::uint64_t totalBytes = 0;
    std::uint64_t totalLines = 0;
    std::size_t processCount = 0;
    std::size_t hostCount = 0;

    std::vector<std::pair<std::string, std::string>> components;
    // Which pseudonym stands for what: filled only when the export is not redacted, so a private
    // copy can be read next to a redacted one.
    std::vector<Pseudonym> legend;
};

// Builds the report; `redactor` receives every log-derived string (and keeps the pseudonyms, so
// the JSON writer can redact the diagnosis with the same names).
IncidentReport buildReport(const Analysis& analysis, const ReportOptions& options, Redactor& redactor);
IncidentReport buildReport(const Analysis& analysis, const ReportOptions& options);

// Log text as valid UTF-8 without control characters (tabs kept), cut at `maxBytes`.
std::string cleanLogText(std::string_view s, std::size_t maxBytes = 2000);
// The current time, or $RANKLINE_REPORT_TIME when set, as ISO 8601 UTC.
std::string reportTime();
// "0–3, 6, 9" for ranks; processes without a rank are counted apart.
std::string rankList(const Analysis& analysis, const std::vector<ProcessId>& processes);
// Versions of the libraries the core links (RE2, nlohmann/json, libarchive, zlib).
std::vector<std::pair<std::string, std::string>> coreComponents();

} // namespace rl
