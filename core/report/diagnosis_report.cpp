#include "report/diagnosis_report.h"

#include <ctime>
#include <nlohmann/json.hpp>
#include <sstream>

using nlohmann::json;

namespace rl
{

namespace
{

// Log text may be any bytes; JSON needs UTF-8, so invalid sequences become U+FFFD.
std::string validUtf8(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
        if (ok && c < 0x20 && c != '\t') {
            out += ' ';
            ++i;
            continue;
        }
        if (ok) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

// A line can be a gigabyte (a progress bar that never printed a line break): quote its start,
// and say so, as the window does.
std::string quoted(std::string_view line)
{
    constexpr std::size_t kMaxQuoted = 4000;
    if (line.size() <= kMaxQuoted)
        return validUtf8(line);
    return validUtf8(line.substr(0, kMaxQuoted)) + " … [line cut at " + std::to_string(kMaxQuoted) + " of " +
           std::to_string(line.size()) + " bytes]";
}

json rankJson(const Process& p)
{
    return p.rank ? json(*p.rank) : json(nullptr);
}

std::string isoTime(std::int64_t us)
{
    std::time_t t = static_cast<std::time_t>(us / 1000000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    char frac[12];
    std::snprintf(frac, sizeof frac, ".%03d", static_cast<int>((us % 1000000) / 1000));
    return std::string(buf) + frac;
}

json timeJson(const TimeInterval& t)
{
    json j;
    j["lo"] = t.knownLo() ? json(isoTime(t.lo)) : json(nullptr);
    j["hi"] = t.knownHi() ? json(isoTime(t.hi)) : json(nullptr);
    return j;
}

} // namespace

std::string displayFile(const Analysis& a, LineRef where)
{
    return a.source(where.source).displayPath;
}

std::string diagnosisJson(const Analysis& a, int indent)
{
    json root;
    root["schema_version"] = kDiagnosisSchemaVersion;
    root["tool"] = "rankline";
    root["tool_version"] = RANKLINE_VERSION;

    json findings = json::array();
    for (const auto& f : a.findings) {
        const Entry& e = a.entry(f.entry);
        const Process& p = a.process(f.process);
        json jf;
        jf["entry"] = e.id;
        jf["title"] = e.title;
        jf["role"] = roleName(f.role);
        jf["confidence"] = f.confidence;
        jf["rank"] = rankJson(p);
        jf["host"] = p.host.empty() ? json(nullptr) : json(p.host);
        jf["pid"] = p.pid >= 0 ? json(p.pid) : json(nullptr);
        jf["summary"] = f.summary;
        jf["file"] = displayFile(a, f.anchor);
        jf["line"] = f.anchor.line + 1;
        jf["time"] = timeJson(f.time);
        if (!f.connectVerdict.empty())
            jf["connect_failure"] = f.connectVerdict;
        json ranks = json::array();
        for (auto pid : f.processes)
            ranks.push_back(rankJson(a.process(pid)));
        jf["ranks"] = ranks;
        if (f.pointsAt) {
            const Process& t = a.process(*f.pointsAt);
            jf["points_at"] = {{"rank", rankJson(t)}, {"host", t.host}, {"note", f.pointsAtNote}};
        } else if (!f.pointsAtNote.empty()) {
            jf["points_at"] = {{"rank", nullptr}, {"host", nullptr}, {"note", f.pointsAtNote}};
        }
        json ev = json::array();
        for (const auto& x : f.evidence) {
            json je{{"file", displayFile(a, x.where)},        {"line", x.where.line + 1},
                    {"text", quoted(a.text(x.where))},        {"label", x.label},
                    {"rank", rankJson(a.process(x.process))}, {"host", a.process(x.process).host}};
            if (!x.note.empty())
                je["note"] = x.note;
            ev.push_back(je);
        }
        jf["evidence"] = ev;
        json cl = json::array();
        for (const auto& c : f.checklist) {
            json jc{
                {"id", c.id}, {"text", c.text}, {"status", checkStatusName(c.status)}, {"detail", c.detail}};
            if (c.line) {
                jc["file"] = displayFile(a, *c.line);
                jc["line"] = c.line->line + 1;
            }
            cl.push_back(jc);
        }
        jf["checklist"] = cl;
        json sy = json::array();
        for (const auto& s : f.symptoms) {
            json js{{"id", s.id}, {"signal", s.signal}, {"observed", s.observed}};
            if (s.line) {
                js["file"] = displayFile(a, *s.line);
                js["line"] = s.line->line + 1;
            }
            sy.push_back(js);
        }
        jf["symptoms"] = sy;
        findings.push_back(jf);
    }
    root["findings"] = findings;

    if (const Finding* f = a.initiatingFinding()) {
        const Process& p = a.process(f->process);
        root["initiating"] = {{"entry", a.entry(f->entry).id},
                              {"rank", rankJson(p)},
                              {"host", p.host.empty() ? json(nullptr) : json(p.host)},
                              {"file", displayFile(a, f->anchor)},
                              {"line", f->anchor.line + 1}};
    } else {
        root["initiating"] = nullptr;
    }

    json logs = json::array();
    for (const auto& lv : a.nccl.logs) {
        json ranks = json::array();
        for (auto pid : lv.processes)
            ranks.push_back(rankJson(a.process(pid)));
        logs.push_back({{"version", lv.version.toString()}, {"ranks", ranks}});
    }
    json hints = json::array();
    for (const auto& h : a.nccl.hints)
        hints.push_back({{"from", h.range.from.toString()},
                         {"to", h.range.to.toString()},
                         {"basis", h.basis},
                         {"file", displayFile(a, h.where)},
                         {"line", h.where.line + 1}});
    json nccl;
    nccl["logs"] = logs;
    nccl["hints"] = hints;
    if (a.nccl.local && a.nccl.local->found)
        nccl["local"] = {{"version", a.nccl.local->version.toString()}, {"path", a.nccl.local->path}};
    else
        nccl["local"] = nullptr;
    nccl["fix_applies"] = a.nccl.fixApplies ? json(*a.nccl.fixApplies) : json(nullptr);
    nccl["verdict"] = a.nccl.verdict;
    root["nccl"] = nccl;

    json ranks = json::array();
    for (const auto& p : a.processes) {
        json files = json::array();
        for (auto s : p.sources)
            files.push_back(a.source(s).displayPath);
        json jr{{"rank", rankJson(p)},
                {"host", p.host.empty() ? json(nullptr) : json(p.host)},
                {"pid", p.pid >= 0 ? json(p.pid) : json(nullptr)},
                {"files", files},
                {"identity_source", p.identitySource.empty() ? json(nullptr) : json(p.identitySource)}};
        if (!p.address.empty())
            jr["address"] = p.address;
        if (p.localRank)
            jr["local_rank"] = *p.localRank;
        if (p.attempt)
            jr["attempt"] = *p.attempt;
        if (!p.identityConflicts.empty())
            jr["identity_conflicts"] = p.identityConflicts;
        if (p.ncclVersion)
            jr["nccl_version"] = p.ncclVersion->toString();
        ranks.push_back(jr);
    }
    root["ranks"] = ranks;

    json clock;
    json hostClocks = json::array();
    for (const auto& h : a.clock.hosts) {
        json basis = json::array();
        for (const auto& b : h.basis)
            basis.push_back(b);
        if (h.reference)
            basis.push_back("reference clock");
        if (h.userSet)
            basis.push_back("set by the user");
        hostClocks.push_back({{"host", h.host},
                              {"offset_ms", static_cast<double>(h.offsetUs) / 1000.0},
                              {"lo_ms", h.loUs ? json(static_cast<double>(*h.loUs) / 1000.0) : json(nullptr)},
                              {"hi_ms", h.hiUs ? json(static_cast<double>(*h.hiUs) / 1000.0) : json(nullptr)},
                              {"basis", basis}});
    }
    clock["hosts"] = hostClocks;
    clock["feasible"] = a.clock.feasible;
    clock["constraints"] = a.clock.constraintCount;
    json conflicts = json::array();
    for (const auto& c : a.clock.conflicts)
        conflicts.push_back(c);
    clock["conflicts"] = conflicts;
    if (!a.clock.feasible)
        clock["note"] =
            "the ordering constraints in these logs contradict each other; no clock correction was applied";
    json unordered = json::array();
    for (const auto& [x, y] : a.unordered)
        unordered.push_back(
            {{"a", {{"file", displayFile(a, x)}, {"line", x.line + 1}}},
             {"b", {{"file", displayFile(a, y)}, {"line", y.line + 1}}},
             {"note", "these two lines' aligned times overlap: the logs cannot say which came first"}});
    clock["unordered"] = unordered;
    root["clock"] = clock;

    json skipped = json::array();
    for (const auto& s : a.skipped)
        skipped.push_back({{"file", s.file}, {"reason", s.reason}});
    root["skipped"] = skipped;
    root["stats"] = {{"files", a.sources.size()},
                     {"bytes", a.totalBytes},
                     {"lines", a.totalLines},
                     {"events", a.events.size()}};
    // File names, host names and captures come from the logs too: never let one invalid byte throw.
    return root.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string diagnosisText(const Analysis& a)
{
    std::ostringstream o;
    o << "Rankline " RANKLINE_VERSION " diagnosis: " << a.sources.size() << " file(s), " << a.totalLines
      << " lines, " << a.processes.size() << " process(es)\n\n";
    const Finding* init = a.initiatingFinding();
    if (init) {
        const Entry& e = a.entry(init->entry);
        o << "INITIATING  " << e.title << "  [" << e.id << "]  confidence " << init->confidence << "\n";
        o << "  " << init->summary << "\n";
        o << "  at " << displayFile(a, init->anchor) << ":" << init->anchor.line + 1 << "\n\n";
        o << "  Evidence:\n";
        for (const auto& x : init->evidence) {
            o << "    " << x.label << "  " << displayFile(a, x.where) << ":" << x.where.line + 1 << "\n";
            o << "      " << quoted(a.text(x.where)) << "\n";
            if (!x.note.empty())
                o << "      (" << x.note << ")\n";
        }
        o << "\n  Checklist:\n";
        for (const auto& c : init->checklist) {
            const char* mark = c.status == CheckStatus::Confirmed      ? "[x]"
                               : c.status == CheckStatus::Contradicted ? "[!]"
                                                                       : "[ ]";
            o << "    " << mark << " " << c.text << "\n        " << c.detail;
            if (c.line)
                o << "  (" << displayFile(a, *c.line) << ":" << c.line->line + 1 << ")";
            o << "\n";
        }
        o << "\n  Root cause: " << e.rootCause << "\n\n  Fix:\n";
        int n = 1;
        for (const auto& s : e.fixSteps)
            o << "    " << n++ << ". " << s << "\n";
        if (!e.verify.empty())
            o << "  Verify: " << e.verify << "\n";
    } else {
        o << "No initiating failure identified.\n";
    }
    bool header = false;
    for (const auto& f : a.findings) {
        if (&f == init)
            continue;
        if (!header) {
            o << "\nOther findings:\n";
            header = true;
        }
        o << "  " << roleName(f.role) << "  " << a.entry(f.entry).id << "  " << f.summary << "\n";
    }
    o << "\nNCCL: " << a.nccl.verdict << "\n";
    if (a.nccl.local && !a.nccl.local->found)
        o << "  local libnccl.so.2: not found (" << a.nccl.local->error << ")\n";
    o << "\nRanks:\n";
    for (const auto& p : a.processes) {
        o << "  " << p.label();
        if (!p.identitySource.empty())
            o << "  via " << p.identitySource;
        o << "  files:";
        for (auto s : p.sources)
            o << " " << a.source(s).displayPath;
        o << "\n";
    }
    if (!a.skipped.empty()) {
        o << "\nSkipped:\n";
        for (const auto& s : a.skipped)
            o << "  " << s.file << ": " << s.reason << "\n";
    }
    return o.str();
}

} // namespace rl
