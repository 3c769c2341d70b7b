#include "report/diagnosis_report.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_set>

#include "identity/environment_scan.h"

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

// Appends `j` as json::dump prints it `depth` levels deep in a document: every line after the first
// moves right by depth * indent (a dump holds line breaks only between its elements; strings have
// theirs escaped).
void appendDump(std::string& out, const json& j, int indent, std::size_t depth)
{
    // File names, host names and captures come from the logs too: never let one invalid byte throw.
    const std::string s = j.dump(indent, ' ', false, json::error_handler_t::replace);
    if (indent < 0) {
        out += s;
        return;
    }
    const std::string pad(depth * static_cast<std::size_t>(indent), ' ');
    std::size_t from = 0;
    for (std::size_t nl; (nl = s.find('\n', from)) != std::string::npos; from = nl + 1) {
        out.append(s, from, nl + 1 - from);
        out += pad;
    }
    out.append(s, from, std::string::npos);
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

json hypothesesJson(const Analysis& a, const std::vector<Hypothesis>& hs)
{
    json out = json::array();
    for (const auto& h : hs) {
        json j{{"text", h.text}, {"decider", h.decider}};
        j["entry"] = h.entry >= 0 ? json(a.entry(h.entry).id) : json(nullptr);
        if (h.line) {
            j["file"] = a.source(h.line->source).displayPath;
            j["line"] = h.line->line + 1;
        }
        out.push_back(j);
    }
    return out;
}

// Values shown by several ranks, in first-seen order, each with its processes.
struct ValueGroup {
    std::string value;
    std::vector<ProcessId> processes;
};

template <typename Get> std::vector<ValueGroup> groupBy(const Analysis& a, Get get)
{
    std::vector<ValueGroup> out;
    for (const auto& p : a.processes) {
        if (p.id.value >= a.environment.ranks.size())
            continue;
        std::string v = get(a.environment.ranks[p.id.value]);
        if (v.empty())
            continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const ValueGroup& g) { return g.value == v; });
        if (it == out.end())
            out.push_back({v, {p.id}});
        else
            it->processes.push_back(p.id);
    }
    return out;
}

json rankList(const Analysis& a, const std::vector<ProcessId>& processes)
{
    json ranks = json::array();
    for (auto pid : processes)
        ranks.push_back(rankJson(a.process(pid)));
    return ranks;
}

json hostList(const Analysis& a, const std::vector<ProcessId>& processes)
{
    json hosts = json::array();
    std::unordered_set<std::string_view> seen; // a flag can name thousands of processes
    for (auto pid : processes) {
        const std::string& h = a.process(pid).host;
        if (!h.empty() && seen.insert(h).second)
            hosts.push_back(h);
    }
    return hosts;
}

json rangeJson(const VersionRange& r)
{
    auto end = [](const Version& v, bool low) -> json {
        if ((low && v == Version{0, 0, 0}) || (!low && v == Version{999, 0, 0}))
            return nullptr;
        if (v.patch == 999)
            return std::to_string(v.major) + "." + std::to_string(v.minor) + ".x";
        return v.toString();
    };
    return {{"from", end(r.from, true)}, {"to", end(r.to, false)}};
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
        jf["hypotheses"] = hypothesesJson(a, f.hypotheses);
        json suspects = json::array();
        for (const auto& su : f.suspects) {
            const Process& sp = a.process(su.process);
            suspects.push_back({{"rank", rankJson(sp)}, {"host", sp.host}, {"reason", su.reason}});
        }
        jf["suspects"] = suspects;
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

    root["hypotheses"] = hypothesesJson(a, a.hypotheses);

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
    json mismatch = json::array();
    for (const auto& g : a.nccl.mismatch) {
        json jg{{"version", g.version ? json(g.version->toString()) : json(nullptr)},
                {"range", rangeJson(g.range)},
                {"display", g.display},
                {"basis", g.basis},
                {"ranks", rankList(a, g.processes)},
                {"hosts", hostList(a, g.processes)}};
        if (g.where.source.valid()) {
            jg["file"] = displayFile(a, g.where);
            jg["line"] = g.where.line + 1;
        }
        mismatch.push_back(jg);
    }
    nccl["mismatch"] = mismatch;
    nccl["mismatch_note"] = a.nccl.mismatchNote.empty() ? json(nullptr) : json(a.nccl.mismatchNote);
    root["nccl"] = nccl;

    // One entry per process: thousands on a large job, most of the document. Each is printed as soon
    // as it is built rather than kept as a tree until the end (the whole tree took several times the
    // memory of its text).
    std::string ranks;
    std::map<std::string, std::string> clueRules; // clue id -> why its form implies its range
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
        if (p.id.value < a.environment.ranks.size()) {
            const RankEnvironment& re = a.environment.ranks[p.id.value];
            if (re.ncclVersion && !p.ncclVersion)
                jr["nccl_version"] = re.ncclVersion->toString();
            if (!re.ncclVersionSource.empty())
                jr["nccl_version_source"] = re.ncclVersionSource;
            if (re.ncclRange)
                jr["nccl_version_range"] = rangeJson(*re.ncclRange);
            if (!re.ncclRangeDisplay.empty())
                jr["nccl_version_range_display"] = re.ncclRangeDisplay;
            // The clues matter where no line states the version, or where one contradicts it.
            const bool contradicted =
                std::any_of(re.clues.begin(), re.clues.end(), [](const VersionClue& c) { return !c.agrees; });
            if (!re.clues.empty() && (!re.ncclVersion || contradicted)) {
                // The rule's wording is given once, under environment.clue_rules.
                json clues = json::array();
                for (const auto& c : re.clues) {
                    json jc{
                        {"id", c.id},         {"range", rangeJson(c.range)},     {"display", c.display},
                        {"agrees", c.agrees}, {"file", displayFile(a, c.where)}, {"line", c.where.line + 1}};
                    auto [it, added] = clueRules.emplace(c.id, c.basis);
                    if (!added && it->second != c.basis)
                        jc["basis"] = c.basis;
                    clues.push_back(jc);
                }
                jr["nccl_version_clues"] = clues;
            }
            if (!re.ncclCuda.empty())
                jr["nccl_cuda"] = re.ncclCuda;
            if (!re.cudaDriver.empty()) {
                jr["cuda_driver"] = re.cudaDriver;
                jr["cuda_driver_code"] = re.cudaDriverCode;
            }
            if (!re.torchVersion.empty())
                jr["torch_version"] = re.torchVersion;
            if (!re.torchCuda.empty())
                jr["torch_cuda"] = re.torchCuda;
            if (!re.addresses.empty()) {
                json ifs = json::array();
                for (const auto& ad : re.addresses)
                    ifs.push_back({{"interface", ad.interface},
                                   {"address", ad.address},
                                   {"via", ad.via},
                                   {"file", displayFile(a, ad.where)},
                                   {"line", ad.where.line + 1}});
                jr["interfaces"] = ifs;
            }
            if (!re.flags.empty())
                jr["environment_flags"] = re.flags;
        }
        if (!ranks.empty())
            ranks += ',';
        if (indent >= 0)
            ranks += '\n' + std::string(2 * static_cast<std::size_t>(indent), ' ');
        appendDump(ranks, jr, indent, 2);
    }
    if (indent >= 0 && !ranks.empty())
        ranks += '\n' + std::string(static_cast<std::size_t>(indent), ' ');
    ranks = '[' + ranks + ']';
    root["ranks"] = nullptr; // its place among the keys; its text is the one printed above

    json environment;
    {
        auto versionList = [&](auto get) {
            json out = json::array();
            for (const auto& g : groupBy(a, get))
                out.push_back({{"version", g.value}, {"ranks", rankList(a, g.processes)}});
            return out;
        };
        json versions;
        // A rank known only by the form of its lines shows a range instead of a version.
        json ncclVersions = json::array();
        for (const auto& g : groupBy(a, [](const RankEnvironment& r) {
                 return r.ncclVersion ? r.ncclVersion->toString()
                        : r.ncclRange ? "range " + r.ncclRangeDisplay
                                      : std::string{};
             })) {
            const bool range = g.value.rfind("range ", 0) == 0;
            ncclVersions.push_back({{"version", range ? json(nullptr) : json(g.value)},
                                    {"range", range ? json(g.value.substr(6)) : json(nullptr)},
                                    {"ranks", rankList(a, g.processes)}});
        }
        versions["nccl"] = ncclVersions;
        versions["nccl_cuda"] = versionList([](const RankEnvironment& r) { return r.ncclCuda; });
        versions["cuda_driver"] = versionList([](const RankEnvironment& r) { return r.cudaDriver; });
        versions["torch"] = versionList([](const RankEnvironment& r) { return r.torchVersion; });
        versions["torch_cuda"] = versionList([](const RankEnvironment& r) { return r.torchCuda; });
        environment["versions"] = versions;
    }
    json settings = json::array();
    for (const auto& st : a.environment.settings)
        settings.push_back({{"name", st.name},
                            {"value", st.value},
                            {"how", st.how},
                            {"ranks", rankList(a, st.processes)},
                            {"file", displayFile(a, st.where)},
                            {"line", st.where.line + 1}});
    environment["settings"] = settings;
    json interfaces = json::array();
    {
        struct Use {
            std::string interface, address;
            std::vector<std::string> via;
            std::vector<ProcessId> processes;
        };
        std::vector<Use> uses;
        // (interface, address) -> its index in uses: one use per host or rank on a large job
        std::map<std::pair<std::string_view, std::string_view>, std::size_t> useIndex;
        for (const auto& p : a.processes) {
            if (p.id.value >= a.environment.ranks.size())
                continue;
            for (const auto& ad : a.environment.ranks[p.id.value].addresses) {
                auto [at, added] = useIndex.emplace(
                    std::make_pair(std::string_view(ad.interface), std::string_view(ad.address)),
                    uses.size());
                if (added)
                    uses.push_back({ad.interface, ad.address, {}, {}});
                auto it = uses.begin() + static_cast<std::ptrdiff_t>(at->second);
                if (std::find(it->via.begin(), it->via.end(), ad.via) == it->via.end())
                    it->via.push_back(ad.via);
                // Processes come in id order: p is the last one listed or not listed yet.
                if (it->processes.empty() || it->processes.back() != p.id)
                    it->processes.push_back(p.id);
            }
        }
        for (const auto& u : uses) {
            const std::string subnet = assumedSubnet(u.address);
            interfaces.push_back({{"interface", u.interface},
                                  {"address", u.address},
                                  {"subnet", subnet.empty() ? json(nullptr) : json(subnet)},
                                  {"via", u.via},
                                  {"ranks", rankList(a, u.processes)},
                                  {"hosts", hostList(a, u.processes)}});
        }
    }
    environment["interfaces"] = interfaces;
    json flags = json::array();
    for (const auto& f : a.environment.flags) {
        json jf{{"kind", f.kind},
                {"severity", f.severity},
                {"detail", f.detail},
                {"ranks", rankList(a, f.processes)},
                {"hosts", hostList(a, f.processes)}};
        if (!f.interface.empty())
            jf["interface"] = f.interface;
        if (!f.address.empty())
            jf["address"] = f.address;
        if (f.where) {
            jf["file"] = displayFile(a, *f.where);
            jf["line"] = f.where->line + 1;
        }
        flags.push_back(jf);
    }
    environment["flags"] = flags;
    environment["subnet_note"] = a.environment.subnetNote;
    environment["clue_rules"] = clueRules;
    root["environment"] = environment;

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
    // The root object as json::dump prints it (keys in order), with the ranks' text in their place.
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : root.items()) {
        out += first ? "" : ",";
        first = false;
        if (indent >= 0)
            out += '\n' + std::string(static_cast<std::size_t>(indent), ' ');
        out += json(key).dump();
        out += indent >= 0 ? ": " : ":";
        if (key == "ranks")
            out += ranks;
        else
            appendDump(out, value, indent, 1);
    }
    out += indent >= 0 ? "\n}" : "}";
    return out;
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
    const auto& hyps = init ? init->hypotheses : a.hypotheses;
    if (!hyps.empty()) {
        o << "\n" << (init ? "Competing explanations:\n" : "What the logs suggest:\n");
        for (const auto& h : hyps) {
            o << "  - " << h.text;
            if (h.line)
                o << "  (" << displayFile(a, *h.line) << ":" << h.line->line + 1 << ")";
            o << "\n      would decide: " << h.decider << "\n";
        }
    }
    for (const auto& f : a.findings)
        for (const auto& su : f.suspects)
            o << "  suspect " << a.process(su.process).label() << ": " << su.reason << "\n";
    o << "\nNCCL: " << a.nccl.verdict << "\n";
    if (a.nccl.local && !a.nccl.local->found)
        o << "  local libnccl.so.2: not found (" << a.nccl.local->error << ")\n";
    if (!a.nccl.mismatchNote.empty() && a.nccl.verdict.find(a.nccl.mismatchNote) == std::string::npos)
        o << "  " << a.nccl.mismatchNote << "\n";
    {
        std::vector<std::string> lines;
        auto versions = [&](const char* what, auto get) {
            auto groups = groupBy(a, get);
            if (groups.empty())
                return;
            std::string l = std::string(what) + " ";
            for (std::size_t i = 0; i < groups.size(); ++i)
                l += (i ? "; " : "") + groups[i].value + " (" + describeProcesses(a, groups[i].processes) +
                     ")";
            lines.push_back(l);
        };
        versions("NCCL", [](const RankEnvironment& r) {
            return r.ncclVersion                ? r.ncclVersion->toString()
                   : r.ncclRangeDisplay.empty() ? std::string{}
                                                : r.ncclRangeDisplay + " (from the form of its log lines)";
        });
        versions("NCCL built with CUDA", [](const RankEnvironment& r) { return r.ncclCuda; });
        versions("CUDA driver", [](const RankEnvironment& r) { return r.cudaDriver; });
        versions("PyTorch", [](const RankEnvironment& r) { return r.torchVersion; });
        versions("PyTorch's CUDA", [](const RankEnvironment& r) { return r.torchCuda; });
        {
            std::vector<std::pair<std::string, std::vector<ProcessId>>> uses;
            for (const auto& p : a.processes)
                if (p.id.value < a.environment.ranks.size())
                    for (const auto& ad : a.environment.ranks[p.id.value].addresses) {
                        std::string k = ad.interface + " " + ad.address;
                        auto it = std::find_if(uses.begin(), uses.end(),
                                               [&](const auto& u) { return u.first == k; });
                        if (it == uses.end())
                            uses.push_back({k, {p.id}});
                        else if (std::find(it->second.begin(), it->second.end(), p.id) == it->second.end())
                            it->second.push_back(p.id);
                    }
            if (!uses.empty()) {
                std::string l = "Interfaces ";
                for (std::size_t i = 0; i < uses.size(); ++i)
                    l += (i ? "; " : "") + uses[i].first + " (" + describeProcesses(a, uses[i].second) + ")";
                lines.push_back(l);
            }
        }
        for (const auto& st : a.environment.settings)
            lines.push_back(st.name + "=" + st.value + " (" + st.how + "; " +
                            describeProcesses(a, st.processes) + ")");
        for (const auto& f : a.environment.flags)
            lines.push_back("[" + f.severity + "] " + f.kind + ": " + f.detail);
        if (!lines.empty()) {
            o << "\nEnvironment:\n";
            for (const auto& l : lines)
                o << "  " << l << "\n";
        }
    }
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
