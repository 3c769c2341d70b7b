#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "report/diagnosis_report.h"
#include "report/report_writers.h"

using nlohmann::json;

namespace rl
{

namespace
{

// Geometry rounded to 0.1 unit: stable output, and no false precision.
double r1(double v)
{
    return std::round(v * 10) / 10;
}

json lineJson(const ReportLine& l)
{
    json j{{"file", l.file}, {"line", l.line}, {"process", l.who}, {"text", l.text}};
    if (l.lastLine > l.line)
        j["last_line"] = l.lastLine;
    j["time"] = l.time.empty() ? json(nullptr) : json(l.time);
    if (!l.label.empty())
        j["label"] = l.label;
    if (!l.note.empty())
        j["note"] = l.note;
    if (l.emphasis)
        j["initiating"] = true;
    return j;
}

json pictureJson(const TimelinePicture& p)
{
    json j;
    j["width"] = r1(p.width);
    j["height"] = r1(p.height);
    j["has_time"] = p.hasTime;
    j["axis_title"] = p.axisTitle;
    j["caption"] = p.caption;
    j["plot"] = {{"left", r1(p.plotLeft)},
                 {"right", r1(p.plotRight)},
                 {"top", r1(p.plotTop)},
                 {"bottom", r1(p.plotBottom)}};
    j["omitted_processes"] = p.omitted;
    json lanes = json::array();
    for (const auto& l : p.lanes)
        lanes.push_back(
            {{"y", r1(l.y)}, {"label", l.label}, {"host_header", l.header}, {"initiating", l.initiating}});
    j["lanes"] = lanes;
    json ticks = json::array();
    for (const auto& t : p.ticks)
        ticks.push_back({{"x", r1(t.x)}, {"label", t.label}});
    j["ticks"] = ticks;
    json marks = json::array();
    for (const auto& m : p.marks)
        marks.push_back({{"x", r1(m.x)}, {"y", r1(m.y)}, {"kind", markKindName(m.kind)}});
    j["marks"] = marks;
    json arrows = json::array();
    for (const auto& a : p.arrows)
        arrows.push_back({{"from", {r1(a.from.x), r1(a.from.y)}},
                          {"to", {r1(a.to.x), r1(a.to.y)}},
                          {"kind", markKindName(a.kind)},
                          {"dashed", a.dashed}});
    j["arrows"] = arrows;
    json labels = json::array();
    for (const auto& l : p.labels)
        labels.push_back({{"x", r1(l.x)}, {"y", r1(l.y)}, {"text", l.text}});
    j["labels"] = labels;
    return j;
}

void redactStrings(json& j, Redactor& r)
{
    if (j.is_string()) {
        j = r.apply(j.get<std::string>());
    } else if (j.is_array() || j.is_object()) {
        for (auto& v : j)
            redactStrings(v, r);
    }
}

} // namespace

std::string reportJson(const IncidentReport& r, const Analysis& a, Redactor& redactor)
{
    json root = json::parse(diagnosisJson(a, -1));
    if (r.redacted)
        redactStrings(root, redactor);

    json rep;
    rep["schema"] = "rankline-incident-report";
    rep["schema_version"] = r.schemaVersion;
    rep["rankline_version"] = r.ranklineVersion;
    rep["exported_at"] = r.exportedAt;
    rep["redacted"] = r.redacted;
    rep["title"] = r.title;
    rep["verdict"] = r.verdict;
    if (r.hasFinding) {
        json f;
        f["entry"] = r.entry;
        f["title"] = r.entryTitle;
        f["role"] = r.role;
        f["confidence"] = r.confidence;
        f["process"] = r.who;
        f["where"] = r.where;
        f["time"] = r.time.empty() ? json(nullptr) : json(r.time);
        f["summary"] = r.summary;
        if (!r.connectVerdict.empty())
            f["connect_failure"] = r.connectVerdict;
        json ev = json::array();
        for (const auto& l : r.evidence)
            ev.push_back(lineJson(l));
        f["evidence"] = ev;
        json ctx = json::array();
        for (const auto& l : r.context)
            ctx.push_back(lineJson(l));
        f["context"] = ctx;
        rep[r.hasInitiating ? "initiating" : "strongest_finding"] = f;
        if (!r.hasInitiating)
            rep["initiating"] = nullptr;
    } else {
        rep["initiating"] = nullptr;
    }
    json col = json::array();
    for (const auto& c : r.collateral)
        col.push_back({{"entry", c.entry},
                       {"title", c.title},
                       {"summary", c.summary},
                       {"processes", c.processCount},
                       {"ranks", c.ranks},
                       {"hosts", c.hosts},
                       {"symptoms", c.kinds},
                       {"points_at", c.pointsAt.empty() ? json(nullptr) : json(c.pointsAt)},
                       {"points_at_note", c.pointsAtNote},
                       {"points_at_initiating", c.pointsAtInitiator},
                       {"first", lineJson(c.first)}});
    rep["collateral"] = {{"processes", r.collateralProcesses}, {"findings", col}};
    rep["timeline"] = pictureJson(r.timeline);
    json cl = json::array();
    for (const auto& c : r.checklist) {
        json jc{{"id", c.id}, {"status", c.status}, {"text", c.text}, {"detail", c.detail}};
        jc["where"] = c.where.empty() ? json(nullptr) : json(c.where);
        cl.push_back(jc);
    }
    rep["checklist"] = cl;
    json alternatives = json::array();
    for (const auto& x : r.alternatives)
        alternatives.push_back({{"text", x.text},
                                {"decider", x.decider},
                                {"where", x.where.empty() ? json(nullptr) : json(x.where)}});
    rep["alternatives"] = alternatives;
    json refs = json::array();
    for (const auto& x : r.references)
        refs.push_back({{"title", x.title}, {"url", x.url}});
    rep["guidance"] = {{"root_cause", r.rootCause},
                       {"fix", r.fixSteps},
                       {"verify", r.verify},
                       {"prevention", r.prevention},
                       {"references", refs}};
    json logs = json::array();
    for (const auto& v : r.ncclLogs)
        logs.push_back({{"version", v.version}, {"ranks", v.ranks}, {"where", v.where}});
    json dumps = json::array();
    for (const auto& v : r.ncclDumps)
        dumps.push_back({{"version", v.version}, {"ranks", v.ranks}, {"where", v.where}});
    json hints = json::array();
    for (const auto& h : r.ncclHints)
        hints.push_back({{"range", h.range}, {"basis", h.basis}, {"where", h.where}});
    rep["nccl"] = {{"logs", logs},
                   {"flight_recorder", dumps},
                   {"hints", hints},
                   {"local", r.ncclLocal},
                   {"fix_applies", r.fixApplies ? json(*r.fixApplies) : json(nullptr)},
                   {"verdict", r.ncclVerdict}};
    json clocks = json::array();
    for (const auto& c : r.clocks)
        clocks.push_back({{"host", c.host}, {"offset_us", c.offsetUs}, {"note", c.note}});
    rep["clocks"] = {{"statement", r.clockStatement}, {"corrected", false}, {"hosts", clocks}};
    json files = json::array();
    for (const auto& f : r.files)
        files.push_back({{"path", f.path},
                         {"bytes", f.size},
                         {"lines", f.lines},
                         {"sha256", f.sha256},
                         {"ranks", f.processes}});
    json dumpFiles = json::array();
    for (const auto& f : r.dumps)
        dumpFiles.push_back(
            {{"path", f.path},
             {"bytes", f.size},
             {"sha256", f.sha256},
             {"rank", f.processes.empty() ? json(nullptr) : json(std::atoi(f.processes.c_str()))}});
    json skipped = json::array();
    for (const auto& s : r.skipped)
        skipped.push_back({{"file", s.file}, {"reason", s.reason}});
    rep["inventory"] = {{"files", files},
                        {"flight_recorder", dumpFiles},
                        {"skipped", skipped},
                        {"bytes", r.totalBytes},
                        {"lines", r.totalLines}};
    json comps = json::array();
    for (const auto& [name, version] : r.components)
        comps.push_back({{"name", name}, {"version", version}});
    rep["components"] = comps;
    if (!r.redacted) {
        json legend = json::array();
        for (const auto& p : r.legend)
            legend.push_back(
                {{"pseudonym", p.pseudonym},
                 {"kind", pseudonymKindName(p.kind)},
                 {"original", p.kind == PseudonymKind::Secret ? maskSecret(p.original) : p.original}});
        rep["legend"] = legend;
    }
    root["report"] = rep;
    return root.dump(2) + "\n";
}

} // namespace rl
