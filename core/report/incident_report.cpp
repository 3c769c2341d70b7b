#include "report/incident_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <zlib.h>

#include "bundle/archive_library.h"
#include "report/diagnosis_report.h"
#include "util/parallel.h"
#include "util/rank_runs.h"
#include "util/sha256.h"
#include "util/text_kind.h"
#include "util/utf8.h"

#ifndef RANKLINE_RE2_VERSION
#define RANKLINE_RE2_VERSION "unknown"
#endif

namespace rl
{

namespace
{

constexpr std::int64_t kSecond = 1000000;

// A line's time as far as it is known. A stamp as printed (shownResolution); an unstamped line
// close to its stamped neighbours as the window's log shows it ("~14:03:17.412"), else the bounds
// themselves: a line between a hang's last stamp and the watchdog's ten minutes later is not
// "~" either of them, nor their middle.
std::string lineTime(const Analysis& a, LineRef r)
{
    const LineInfo& li = a.info(r);
    if (!li.time.known() || li.timeSource == TimeSource::Unknown)
        return {};
    const std::int64_t resolution = shownResolution(li);
    if (li.timeSource == TimeSource::Parsed)
        return clockLabel(shownInstant(li), resolution);
    // The interval ends where the stamp after the line stops covering: [.., 13:04:08) is 13:04:07
    // at the latest, as that stamp was printed.
    const std::int64_t latest = li.time.hi - 1;
    if (!li.time.knownHi())
        return "at or after " + clockLabel(li.time.lo, resolution);
    if (!li.time.knownLo())
        return "at or before " + clockLabel(latest, resolution);
    if (li.time.hi - li.time.lo <= kSecond)
        return "~" + clockLabel(li.time.lo, resolution);
    return "between " + clockLabel(li.time.lo, resolution) + " and " + clockLabel(latest, resolution);
}

std::string where(const Analysis& a, LineRef r)
{
    return displayFile(a, r) + ":" + std::to_string(r.line + 1);
}

ReportLine reportLine(const Analysis& a, LineRef r, std::string label = {}, std::string note = {})
{
    ReportLine l;
    l.file = displayFile(a, r);
    l.line = r.line + 1;
    l.who = a.labelAt(r);
    l.time = lineTime(a, r);
    l.text = cleanLogText(a.text(r));
    l.label = std::move(label);
    l.note = std::move(note);
    return l;
}

std::string fixed2(double v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// Every string that came from the logs or was composed from them. Entry prose (root cause, fix,
// checklist questions) is Rankline's own text and is left alone.
template <typename F> void forEachLogText(IncidentReport& r, F&& f)
{
    auto line = [&](ReportLine& l) {
        f(l.file);
        f(l.who);
        f(l.text);
        f(l.note);
    };
    f(r.title);
    f(r.verdict);
    f(r.who);
    f(r.where);
    f(r.summary);
    for (auto& l : r.evidence)
        line(l);
    for (auto& l : r.context)
        line(l);
    for (auto& c : r.collateral) {
        f(c.summary);
        for (auto& h : c.hosts)
            f(h);
        f(c.pointsAt);
        f(c.pointsAtNote);
        line(c.first);
    }
    for (auto& lane : r.timeline.lanes)
        f(lane.label);
    for (auto& l : r.timeline.labels)
        f(l.text);
    f(r.timeline.caption);
    for (auto& c : r.checklist) {
        f(c.detail);
        f(c.where);
    }
    for (auto& x : r.alternatives) {
        f(x.text);
        f(x.decider);
        f(x.where);
    }
    for (auto& n : r.ncclLogs) {
        f(n.ranks);
        f(n.where);
    }
    for (auto& n : r.ncclDumps) {
        f(n.ranks);
        f(n.where);
    }
    for (auto& h : r.ncclHints) {
        f(h.basis);
        f(h.where);
    }
    f(r.ncclLocal);
    f(r.ncclVerdict);
    for (auto& c : r.clocks) {
        f(c.host);
        f(c.note);
    }
    f(r.clockStatement);
    for (auto* list : {&r.files, &r.dumps})
        for (auto& file : *list) {
            f(file.path);
            f(file.processes);
        }
    for (auto& s : r.skipped) {
        f(s.file);
        f(s.reason);
    }
}

// A summary used as a sentence of its own starts with a capital ("rank 5 …" -> "Rank 5 …").
std::string sentence(std::string s)
{
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z')
        s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

std::string plural(std::size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "libarchive 3.6.2" -> "3.6.2"; loaded for this if no archive was opened (bundle/archive_library.h).
std::string libarchiveVersion()
{
    const ArchiveLibrary* la = archiveLibrary();
    if (!la)
        return "not installed";
    std::string v = la->version_string();
    if (v.starts_with("libarchive "))
        v = v.substr(11);
    return v;
}

} // namespace

std::string lineRange(const ReportLine& l)
{
    std::string s = l.file + ":" + std::to_string(l.line);
    if (l.lastLine > l.line)
        s += "\u2013" + std::to_string(l.lastLine);
    return s;
}

std::string cleanLogText(std::string_view line, std::size_t maxBytes)
{
    // As a terminal shows it, a crash's zeros marked (util/text_kind.h), before the cut so that
    // the text after them is shown too.
    std::string marked;
    std::string_view s = shownLine(line, marked);
    bool cut = s.size() > maxBytes;
    if (cut)
        s = s.substr(0, maxBytes);
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        const auto [len, ok] = utf8SequenceAt(s, i);
        if (!ok) {
            // A multi-byte sequence cut by maxBytes just ends; anything else is shown as U+FFFD.
            if (!(cut && len > 0 && i + len > s.size()))
                out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        if (len == 1 && (c < 0x20 || c == 0x7f))
            out += c == '\t' ? "\t" : " ";
        else
            out.append(s.substr(i, len));
        i += len;
    }
    if (cut)
        out += " …";
    return out;
}

std::string reportTime()
{
    if (const char* env = std::getenv("RANKLINE_REPORT_TIME"); env && *env)
        return env;
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string rankList(const Analysis& a, const std::vector<ProcessId>& processes)
{
    std::vector<int> ranks;
    std::size_t unranked = 0;
    for (auto p : processes) {
        if (a.process(p).rank)
            ranks.push_back(*a.process(p).rank);
        else
            ++unranked;
    }
    std::string s = rankRuns(std::move(ranks));
    if (unranked > 0) {
        if (!s.empty())
            s += " and ";
        s += plural(unranked, "process without a rank", "processes without a rank");
    }
    return s;
}

std::vector<std::pair<std::string, std::string>> coreComponents()
{
    return {{"RE2", RANKLINE_RE2_VERSION},
            {"nlohmann/json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                  std::to_string(NLOHMANN_JSON_VERSION_PATCH)},
            {"libarchive", libarchiveVersion()},
            {"zlib", zlibVersion()}};
}

IncidentReport buildReport(const Analysis& a, const ReportOptions& o)
{
    Redactor r;
    return buildReport(a, o, r);
}

IncidentReport buildReport(const Analysis& a, const ReportOptions& o, Redactor& redactor)
{
    IncidentReport r;
    r.ranklineVersion = o.ranklineVersion;
    r.exportedAt = o.exportTime.empty() ? reportTime() : o.exportTime;
    r.redacted = o.redact;
    r.processCount = a.processes.size();
    r.totalBytes = a.totalBytes;
    r.totalLines = a.totalLines;
    std::vector<std::string> hosts; // in order of first appearance
    {
        std::unordered_set<std::string_view> seen;
        for (const auto& p : a.processes)
            if (!p.host.empty() && seen.insert(p.host).second)
                hosts.push_back(p.host);
    }
    r.hostCount = hosts.size();

    const Finding* init = a.initiatingFinding();
    const Finding* f = init ? init : a.findings.empty() ? nullptr : &a.findings.front();
    r.hasInitiating = init != nullptr;
    r.hasFinding = f != nullptr;
    if (f) {
        const Entry& e = a.entry(f->entry);
        r.entry = e.id;
        r.entryTitle = e.title;
        r.role = roleName(f->role);
        r.confidence = f->confidence;
        r.who = a.labelAt(f->anchor); // by its GPU where the process drives several
        r.where = where(a, f->anchor);
        r.time = lineTime(a, f->anchor);
        r.summary = f->summary;
        r.quickAnswer = e.quickAnswer;
        r.connectVerdict = f->connectVerdict;
        // One entry per line (evidenceByLine): a line that is both the earliest connect failure
        // and the aborted retry is shown once with both labels.
        for (const auto& x : evidenceByLine(f->evidence)) {
            // A return-code trail is one run of lines: shown as one block.
            if (!r.evidence.empty()) {
                ReportLine& last = r.evidence.back();
                std::uint32_t end = last.lastLine ? last.lastLine : last.line;
                if (last.label == x.label && last.file == displayFile(a, x.where) &&
                    x.where.line + 1 == end + 1 && x.note.empty()) {
                    last.lastLine = x.where.line + 1;
                    last.text += "\n" + cleanLogText(a.text(x.where));
                    continue;
                }
            }
            r.evidence.push_back(reportLine(a, x.where, x.label, x.note));
        }

        // Context: the lines of the same process around the initiating line, blank lines skipped.
        const Source& src = a.source(f->anchor.source);
        auto sameProcess = [&](std::uint32_t i) {
            LineRef ref{f->anchor.source, i};
            return a.info(ref).process == f->process && !a.text(ref).empty();
        };
        std::vector<std::uint32_t> before, after;
        for (std::uint32_t i = f->anchor.line;
             i-- > 0 && before.size() < static_cast<std::size_t>(o.contextLines);)
            if (sameProcess(i))
                before.push_back(i);
        for (std::uint32_t i = f->anchor.line + 1;
             i < src.lineCount() && after.size() < static_cast<std::size_t>(o.contextLines); ++i)
            if (sameProcess(i))
                after.push_back(i);
        std::reverse(before.begin(), before.end());
        auto labelOf = [&](LineRef ref) {
            for (const auto& x : f->evidence)
                if (x.where == ref)
                    return x.label;
            return std::string();
        };
        for (auto i : before)
            r.context.push_back(reportLine(a, {f->anchor.source, i}, labelOf({f->anchor.source, i})));
        r.context.push_back(reportLine(a, f->anchor, labelOf(f->anchor)));
        r.context.back().emphasis = true;
        for (auto i : after)
            r.context.push_back(reportLine(a, {f->anchor.source, i}, labelOf({f->anchor.source, i})));

        for (const auto& c : f->checklist)
            r.checklist.push_back({c.id, checkStatusName(c.status), c.text, c.detail,
                                   c.line ? where(a, *c.line) : std::string()});
        // The checklist already says its own unconfirmed items.
        for (const auto& h : f->hypotheses)
            if (!h.fromChecklist)
                r.alternatives.push_back({h.text, h.decider, h.line ? where(a, *h.line) : std::string()});
        r.rootCause = e.rootCause;
        r.fixSteps = e.fixSteps;
        r.verify = e.verify;
        r.prevention = e.prevention;
        for (const auto& ref : e.references)
            r.references.push_back({ref.title, ref.url});
    }

    // Collateral, summarised per entry.
    std::set<ProcessId> collateralProcs;
    for (const auto& c : a.findings) {
        if (c.role != Role::Collateral)
            continue;
        ReportCollateral rc;
        const Entry& e = a.entry(c.entry);
        rc.entry = e.id;
        rc.title = e.title;
        rc.summary = c.summary;
        rc.processCount = c.processes.size();
        rc.ranks = rankList(a, c.processes);
        for (auto pid : c.processes) {
            collateralProcs.insert(pid);
            const std::string& h = a.process(pid).host;
            if (!h.empty() && std::find(rc.hosts.begin(), rc.hosts.end(), h) == rc.hosts.end())
                rc.hosts.push_back(h);
        }
        for (const auto& s : c.symptoms)
            if (s.observed)
                rc.kinds.push_back(s.signal);
        if (c.pointsAt) {
            rc.pointsAt = a.process(*c.pointsAt).label();
            rc.pointsAtInitiator = init && *c.pointsAt == init->process;
        }
        rc.pointsAtNote = c.pointsAtNote;
        rc.first = reportLine(a, c.anchor, "first report");
        r.collateral.push_back(std::move(rc));
    }
    if (init)
        collateralProcs.erase(init->process);
    r.collateralProcesses = collateralProcs.size();

    // Without an initiating failure, the first thing the logs still suggest (Analysis::hypotheses),
    // and what would decide it; nothing when the engine only says it recognised nothing. Where it
    // repeats what the verdict quotes of the strongest finding, only what would show the cause is new.
    std::string suggestion;
    if (!init && a.suggestsSomething()) {
        const Hypothesis& h = a.hypotheses.front();
        // Without its closing full stop, capitalised: the verdict adds its own punctuation.
        auto period = [](const std::string& t) {
            const std::size_t end = t.find_last_not_of(". ");
            return sentence(end == std::string::npos ? std::string{} : t.substr(0, end + 1));
        };
        const std::string summary =
            f ? f->summary.substr(0, f->summary.find_last_not_of('.') + 1) : std::string{};
        const bool repeats =
            f && ((!summary.empty() && h.text.find(summary) != std::string::npos) ||
                  (!f->pointsAtNote.empty() && h.text.find(f->pointsAtNote) != std::string::npos));
        if (repeats)
            suggestion = " What would show the cause: " + period(h.decider) + ".";
        else
            suggestion = " What the logs suggest: " + period(h.text) +
                         (h.line ? " (" + where(a, *h.line) + ")" : std::string{}) +
                         ". What would decide it: " + period(h.decider) + ".";
        if (a.hypotheses.size() > 1)
            suggestion += " The diagnosis lists " +
                          plural(a.hypotheses.size() - 1, "more suggestion", "more suggestions") + ".";
    }

    // The verdict: one paragraph that still reads after redaction (labels carry pseudonyms).
    bool flightSaid = false; // the Flight Recorder's sentence is in it already
    if (init) {
        const Entry& e = a.entry(init->entry);
        r.title = e.title;
        r.verdict = "Initiating failure: " + e.title + " on " + r.who + " at " + r.where + " (confidence " +
                    fixed2(init->confidence) + "). " + sentence(init->summary);
        if (init->inferredFromTrail)
            r.verdict += " No line in the logs states the error: the finding rests on the return-code trail "
                         "at " +
                         r.where + " alone.";
        if (!r.collateral.empty()) {
            std::string parts;
            bool allPoint = true;
            for (const auto& c : r.collateral) {
                if (!parts.empty())
                    parts += ", ";
                parts += c.title + " on " + std::to_string(c.processCount);
                allPoint = allPoint && c.pointsAtInitiator;
            }
            r.verdict += " " + plural(r.collateralProcesses, "other process", "other processes") +
                         " failed as a consequence (" + parts + ")";
            r.verdict += allPoint ? "; their reports point back at " + r.who + "." : ".";
        }
        if (const std::string nccl = a.nccl.verdict(); !nccl.empty())
            r.verdict += " " + nccl;
    } else if (f) {
        r.title = "No initiating failure singled out";
        r.verdict = "Rankline recognised " + plural(a.findings.size(), "finding", "findings") +
                    " but could not single out the event that started the failure. The strongest is " +
                    a.entry(f->entry).title + " (" + roleName(f->role) + ") on " + r.who + " at " + r.where +
                    ": " + f->summary;
        // Less the version disagreement where the finding quoted is that disagreement.
        const std::string& note = a.nccl.mismatchNote;
        const std::string nccl =
            !note.empty() && f->summary == note ? a.nccl.releaseVerdict : a.nccl.verdict();
        if (!nccl.empty())
            r.verdict += " " + nccl;
        r.verdict += suggestion;
    } else if (!suggestion.empty()) {
        r.title = "No failure identified";
        r.verdict = "No encyclopedia entry has a finding in the " + std::to_string(a.totalLines) +
                    " lines read from " + plural(a.sources.size(), "file", "files") + " (" +
                    plural(a.processes.size(), "process", "processes") + ")." + suggestion;
    } else if (a.sources.empty() && !a.flight.empty()) {
        // Dumps alone: what they say leads the verdict; no log was there to match.
        r.title = "Flight Recorder dumps, no logs";
        r.verdict = flightSentence(a.flight);
        r.verdict += (r.verdict.empty() ? "" : " ") + std::string("The bundle holds no log: add ") +
                     kFlightLogsWanted + " to find the failure that started it.";
        flightSaid = true;
    } else {
        r.title = "No known failure recognised";
        r.verdict = "None of the " + std::to_string(a.encyclopedia ? a.encyclopedia->entries.size() : 0) +
                    " encyclopedia entries matched the " + std::to_string(a.totalLines) +
                    " lines read from " + plural(a.sources.size(), "file", "files") + " (" +
                    plural(a.processes.size(), "process", "processes") +
                    "). Look at the merged log for the first WARN, ERROR or traceback.";
    }
    // Whatever was found, a bundle without some of the job's ranks may not hold where it began.
    if (!a.coverage.complete())
        r.verdict += " " + coverageSentence(a);
    if (const std::string fr = flightSentence(a.flight); !fr.empty() && !flightSaid)
        r.verdict += " " + fr;

    r.timeline = layoutTimeline(a, o.timeline);

    for (const auto& lv : a.nccl.logs)
        r.ncclLogs.push_back({lv.version.toString(), rankList(a, lv.processes), where(a, lv.firstLine)});
    for (const auto& dv : a.nccl.dumps) {
        std::string files;
        for (std::size_t i = 0; i < dv.files.size() && i < 4; ++i)
            files += (i ? ", " : "") + dv.files[i];
        if (dv.files.size() > 4)
            files += " and " + std::to_string(dv.files.size() - 4) + " more";
        r.ncclDumps.push_back(
            {dv.text, dv.ranks.empty() ? std::string{"not named"} : rankRuns(dv.ranks, 8), files});
    }
    for (const auto& h : a.nccl.hints)
        r.ncclHints.push_back({h.range.toString(), h.basis, where(a, h.where)});
    if (!a.nccl.local)
        r.ncclLocal = "not probed";
    else if (a.nccl.local->found)
        r.ncclLocal = a.nccl.local->version.toString() + " (" + a.nccl.local->path + ")";
    else
        r.ncclLocal = "no libnccl.so.2 found (" + a.nccl.local->error + ")";
    r.fixApplies = a.nccl.fixApplies;
    r.ncclVerdict = a.nccl.verdict();

    // Clocks: the offsets the diagnosis used, with what bounded each one.
    if (!a.clock.feasible) {
        r.clockStatement =
            "The ordering constraints in these logs contradict each other, so no clock correction "
            "was applied (offsets 0): times are compared as each host logged them.";
    } else {
        bool any = std::any_of(a.clock.hosts.begin(), a.clock.hosts.end(),
                               [](const HostClock& h) { return h.offsetUs != 0; });
        r.clockStatement = std::to_string(a.clock.constraintCount) +
                           " ordering constraint(s) between hosts found in the logs; " +
                           (any ? "the offsets below were applied (smallest correction that satisfies them)."
                                : "none required a correction (offsets 0).");
    }
    std::unordered_map<std::string_view, const HostClock*> clockOf;
    for (const auto& c : a.clock.hosts)
        clockOf[c.host] = &c; // the last one of a name, as the search it replaces found
    for (const auto& h : hosts) {
        const auto known = clockOf.find(h);
        const HostClock* hc = known == clockOf.end() ? nullptr : known->second;
        if (!hc) {
            r.clocks.push_back({h, 0, "no ordering constraint involves this host (offset 0)"});
            continue;
        }
        std::string note = hc->reference ? "reference clock" : hc->userSet ? "set by the user" : "";
        for (const auto& b : hc->basis)
            note += (note.empty() ? "" : "; ") + b;
        if (note.empty())
            note = "unconstrained (offset 0)";
        r.clocks.push_back({h, hc->offsetUs, note});
    }
    if (std::any_of(a.processes.begin(), a.processes.end(), [](const Process& p) { return p.host.empty(); }))
        r.clocks.push_back({"(host unknown)", 0, "no host known, no correction (offset 0)"});

    {
        // Each file's processes from the processes' own lists (a search of every process per file
        // was ten thousand squared on a bundle of ten thousand ranks), and each file's digest on
        // every core: hashing the whole bundle's bytes was most of an export's time.
        std::vector<std::vector<ProcessId>> processesOf(a.sources.size());
        for (const auto& p : a.processes)
            for (SourceId sid : p.sources)
                if (sid.value < processesOf.size() &&
                    (processesOf[sid.value].empty() || processesOf[sid.value].back() != p.id))
                    processesOf[sid.value].push_back(p.id);
        std::vector<std::string> digests(a.sources.size());
        parallelFor(a.sources.size(), threadsOrCores(), [&](std::size_t i) {
            const Source& src = a.sources[i];
            digests[i] = sha256Hex(src.text());
            if (src.buffer)
                src.buffer->dropResident(); // read once more for the digest: given back again
        });
        for (std::size_t i = 0; i < a.sources.size(); ++i) {
            const Source& src = a.sources[i];
            r.files.push_back({src.displayPath, src.text().size(), src.lineCount(), std::move(digests[i]),
                               rankList(a, processesOf[i])});
        }
    }
    for (const FlightDump& d : a.flight.dumps)
        r.dumps.push_back({d.file, d.bytes, 0, d.sha256, d.rank ? std::to_string(*d.rank) : std::string{}});
    for (const auto& s : a.skipped)
        r.skipped.push_back({s.file, s.reason});

    r.components = {{"Rankline", o.ranklineVersion}};
    r.components.insert(r.components.end(), o.components.begin(), o.components.end());
    for (auto& c : coreComponents())
        r.components.push_back(std::move(c));

    // One pass over everything from the logs: the redactor learns, then replaces (or, for an
    // unredacted export, only learns, so the legend says what the redacted copy calls things).
    seedRedactor(redactor, a);
    forEachLogText(r, [&](std::string& s) { redactor.learn(s); });
    forEachLogText(r, [&](std::string& s) {
        std::string red = redactor.apply(s);
        if (o.redact)
            s = std::move(red);
    });
    if (!o.redact)
        r.legend = redactor.legend();
    return r;
}

} // namespace rl
