#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "report/report_writers.h"
#include "util/strings.h"

namespace rl
{

namespace
{

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.ends_with(".0"))
        s.resize(s.size() - 2);
    return s;
}

std::string fixed2(double v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string statusBadge(const std::string& status)
{
    if (status == "confirmed")
        return "<span class=\"st ok\">&#10004; confirmed</span>";
    if (status == "contradicted")
        return "<span class=\"st bad\">&#10008; contradicted</span>";
    return "<span class=\"st unk\">? not evidenced</span>";
}

const char* kCss = R"(
:root{--fg:#1d2330;--muted:#5b6474;--line:#d9dde3;--soft:#f5f6f8;--red:#b42318;--amber:#a15c00;--green:#1a7f37}
*{box-sizing:border-box}
body{margin:0;background:#fff;color:var(--fg);font:15px/1.5 "DejaVu Sans",system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:1000px;margin:0 auto;padding:28px 32px 40px}
h1{font-size:26px;line-height:1.25;margin:4px 0 6px}
h2{font-size:19px;margin:30px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 6px}
p{margin:6px 0}
.kicker{color:var(--red);font-weight:bold;letter-spacing:.04em;text-transform:uppercase;font-size:12px;margin:0}
.meta{color:var(--muted);font-size:13px}
.verdict{background:#fff5f4;border-left:4px solid var(--red);padding:10px 16px;margin-top:16px}
.verdict p{margin:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
code,pre,.mono{font-family:"DejaVu Sans Mono",ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:8px 10px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
table{border-collapse:collapse;width:100%;margin:6px 0;font-size:13.5px}
th,td{border-bottom:1px solid var(--line);padding:4px 8px 4px 0;text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:normal;font-size:12.5px}
td.num{text-align:right;white-space:nowrap;padding-right:14px}td.nw{white-space:nowrap}
td.hash{font-family:"DejaVu Sans Mono",monospace;font-size:11px;overflow-wrap:anywhere}
.ev .label{font-weight:bold}.ev .loc{color:var(--muted);font-size:12.5px}
.note{color:var(--muted);font-size:13px;margin:0 0 6px}
.ctx{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:6px 0;margin:4px 0;font-family:"DejaVu Sans Mono",ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
.ctx div{display:flex;padding:0 10px}.ctx .tx{white-space:pre-wrap;overflow-wrap:anywhere;min-width:0}
.ctx .ln{color:var(--muted);flex:none;width:3.5em}
.ctx .hit{background:#fde2e0;border-left:3px solid var(--red);padding-left:7px}
.st{white-space:nowrap;font-size:13px}.st.ok{color:var(--green)}.st.bad{color:var(--red)}.st.unk{color:var(--muted)}
ul.checks{list-style:none;padding:0;margin:0}ul.checks li{display:grid;grid-template-columns:8.5em 1fr;gap:10px;padding:5px 0;border-bottom:1px solid var(--line)}
.detail{color:var(--muted);font-size:13px}
figure{margin:8px 0}figure svg{max-width:100%;height:auto;display:block;border:1px solid var(--line);border-radius:4px}
figcaption{color:var(--muted);font-size:13px;margin-top:4px}
footer{margin-top:36px;color:var(--muted);font-size:12.5px;border-top:1px solid var(--line);padding-top:8px}
@media print{main{max-width:none;padding:0}h2{break-after:avoid}figure,tr,li{break-inside:avoid}}
)";

void evidenceTable(std::ostringstream& o, const std::vector<ReportLine>& lines)
{
    for (const auto& l : lines) {
        o << "<div class=\"ev\"><p><span class=\"label\">" << htmlEscape(l.label.empty() ? "line" : l.label)
          << "</span> <span class=\"loc mono\">" << htmlEscape(lineRange(l)) << "</span> <span class=\"loc\">"
          << htmlEscape(l.who) << (l.time.empty() ? "" : " · " + htmlEscape(l.time)) << "</span></p>\n<pre>"
          << htmlEscape(l.text) << "</pre>\n";
        if (!l.note.empty())
            o << "<p class=\"note\">" << htmlEscape(l.note) << "</p>\n";
        o << "</div>\n";
    }
}

} // namespace

std::string htmlEscape(std::string_view s)
{
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string htmlProse(std::string_view s)
{
    if (std::count(s.begin(), s.end(), '`') % 2 != 0)
        return htmlEscape(s);
    std::string out;
    bool code = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i < s.size() && s[i] != '`')
            continue;
        std::string part = htmlEscape(s.substr(start, i - start));
        out += code ? "<code>" + part + "</code>" : part;
        code = !code;
        start = i + 1;
    }
    return out;
}

std::string maskSecret(const std::string& s)
{
    std::size_t keep = s.size() >= 12 ? 4 : 0;
    return s.substr(0, keep) + "… (" + std::to_string(s.size()) + " characters)";
}

std::string timelineSvg(const TimelinePicture& p)
{
    std::ostringstream o;
    const double fs = p.fontSize;
    auto baseline = [&](double centerY) { return num(centerY + fs * 0.35); };
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << num(p.width) << " " << num(p.height)
      << "\" width=\"" << num(p.width) << "\" height=\"" << num(p.height)
      << "\" role=\"img\" aria-label=\"Timeline around the failure\" font-family=\"DejaVu Sans, Verdana, "
         "sans-serif\" "
         "font-size=\""
      << num(fs) << "\">\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << num(p.width) << "\" height=\"" << num(p.height)
      << "\" fill=\"#ffffff\"/>\n";
    if (p.empty) {
        o << "<text x=\"8\" y=\"" << baseline(p.height / 2) << "\" fill=\"#5b6474\">" << htmlEscape(p.caption)
          << "</text>\n</svg>";
        return o.str();
    }
    // Lanes.
    for (const auto& lane : p.lanes) {
        if (lane.header) {
            o << "<rect x=\"0\" y=\"" << num(lane.y) << "\" width=\"" << num(p.width) << "\" height=\""
              << num(p.laneHeight) << "\" fill=\"#eef1f5\"/>\n";
            o << "<text x=\"6\" y=\"" << baseline(lane.y + p.laneHeight / 2)
              << "\" font-weight=\"bold\" fill=\"#1d2330\">" << htmlEscape(lane.label) << "</text>\n";
            continue;
        }
        if (lane.initiating)
            o << "<rect x=\"0\" y=\"" << num(lane.y) << "\" width=\"" << num(p.width) << "\" height=\""
              << num(p.laneHeight) << "\" fill=\"#fde8e8\"/>\n";
        double cy = lane.y + p.laneHeight / 2;
        o << "<text x=\"18\" y=\"" << baseline(cy) << "\" fill=\"#1d2330\">" << htmlEscape(lane.label)
          << "</text>\n";
        o << "<line x1=\"" << num(p.plotLeft) << "\" y1=\"" << num(cy) << "\" x2=\"" << num(p.plotRight)
          << "\" y2=\"" << num(cy)
          << "\" stroke=\"#b8bec8\" stroke-width=\"0.8\" stroke-dasharray=\"1 2\"/>\n";
    }
    // Axis.
    o << "<text x=\"6\" y=\"" << baseline(p.plotTop / 2) << "\" fill=\"#5b6474\">" << htmlEscape(p.axisTitle)
      << "</text>\n";
    for (const auto& t : p.ticks) {
        o << "<line x1=\"" << num(t.x) << "\" y1=\"" << num(p.plotTop - 5) << "\" x2=\"" << num(t.x)
          << "\" y2=\"" << num(p.plotBottom) << "\" stroke=\"" << (t.zero ? "#c8141e" : "#c8ccd2")
          << "\" stroke-width=\"" << (t.zero ? "1" : "0.8") << "\""
          << (t.zero ? " stroke-dasharray=\"3 2\"" : "") << "/>\n";
        o << "<text x=\"" << num(t.x + 3) << "\" y=\"" << baseline(p.plotTop / 2) << "\" fill=\""
          << (t.zero ? "#b42318" : "#1d2330") << "\">" << htmlEscape(t.label) << "</text>\n";
    }
    // Arrows under the marks.
    for (const auto& a : p.arrows) {
        const char* c = markColor(a.kind);
        o << "<path d=\"M" << num(a.from.x) << " " << num(a.from.y) << " C" << num(a.c1.x) << " "
          << num(a.c1.y) << " " << num(a.c2.x) << " " << num(a.c2.y) << " " << num(a.to.x) << " "
          << num(a.to.y) << "\" fill=\"none\" stroke=\"" << c << "\" stroke-width=\""
          << (a.dashed ? "1.2" : "2") << "\""
          << (a.dashed ? " stroke-dasharray=\"4 3\" stroke-opacity=\"0.75\"" : "") << "/>\n";
        o << "<polygon points=\"" << num(a.head[0].x) << "," << num(a.head[0].y) << " " << num(a.head[1].x)
          << "," << num(a.head[1].y) << " " << num(a.head[2].x) << "," << num(a.head[2].y) << "\" fill=\""
          << c << "\"" << (a.dashed ? " fill-opacity=\"0.75\"" : "") << "/>\n";
    }
    auto mark = [&](double x, double y, double r, PictureMarkKind kind, bool diamond) {
        const char* c = markColor(kind);
        if (kind == PictureMarkKind::Unlogged) {
            o << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"" << num(r)
              << "\" fill=\"#ffffff\" stroke=\"" << c << "\" stroke-width=\"1.6\"/>\n";
        } else if (diamond) {
            double d = r + 1;
            o << "<polygon points=\"" << num(x) << "," << num(y - d) << " " << num(x + d) << "," << num(y)
              << " " << num(x) << "," << num(y + d) << " " << num(x - d) << "," << num(y) << "\" fill=\"" << c
              << "\"/>\n";
        } else {
            o << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"" << num(r) << "\" fill=\"" << c
              << "\"/>\n";
        }
    };
    for (const auto& m : p.marks)
        mark(m.x, m.y, m.r, m.kind, m.diamond);
    for (const auto& l : p.labels)
        o << "<text x=\"" << num(l.x) << "\" y=\"" << baseline(l.y) << "\" fill=\""
          << (l.kind == PictureMarkKind::Collateral ? "#a15c00" : "#96141e") << "\""
          << (l.align == TimelinePicture::Align::Right ? " text-anchor=\"end\"" : "") << ">"
          << htmlEscape(l.text) << "</text>\n";
    for (const auto& g : p.legend) {
        mark(g.x, g.y, g.diamond ? 4 : 4, g.kind, g.diamond);
        o << "<text x=\"" << num(g.x + 9) << "\" y=\"" << baseline(g.y) << "\" fill=\"#1d2330\">"
          << htmlEscape(g.text) << "</text>\n";
    }
    o << "</svg>";
    return o.str();
}

std::string reportHtml(const IncidentReport& r)
{
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         // Defence in depth: even if something slipped through escaping, nothing could run or load.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
         "'unsafe-inline'\">\n"
         "<meta name=\"generator\" content=\"Rankline "
      << htmlEscape(r.ranklineVersion) << "\">\n<title>Incident report: " << htmlEscape(r.title)
      << "</title>\n<style>" << kCss << "</style>\n</head>\n<body>\n<main>\n";

    o << "<header>\n<p class=\"kicker\">Rankline incident report"
      << (r.redacted ? " · redacted" : " · not redacted") << "</p>\n<h1>" << htmlEscape(r.title)
      << "</h1>\n<p class=\"meta\">Exported " << htmlEscape(r.exportedAt) << " by Rankline "
      << htmlEscape(r.ranklineVersion) << " · " << r.files.size() << " files, " << r.totalLines << " lines, "
      << r.processCount << " processes on " << r.hostCount << " hosts · "
      << (r.redacted ? "host names, addresses, user names and secrets replaced by pseudonyms"
                     : "NOT redacted: contains host names, addresses and anything else the logs hold")
      << "</p>\n</header>\n";

    o << "<section class=\"verdict\" id=\"verdict\">\n<p>" << htmlEscape(r.verdict) << "</p>\n</section>\n";

    if (r.hasFinding) {
        o << "<section id=\"initiating\">\n<h2>"
          << (r.hasInitiating ? "Initiating event" : "Strongest finding") << "</h2>\n<dl class=\"facts\">\n"
          << "<dt>Entry</dt><dd>" << htmlEscape(r.entryTitle) << " <span class=\"mono\">["
          << htmlEscape(r.entry) << "]</span></dd>\n"
          << "<dt>Process</dt><dd>" << htmlEscape(r.who) << "</dd>\n"
          << "<dt>Where</dt><dd class=\"mono\">" << htmlEscape(r.where) << "</dd>\n";
        if (!r.time.empty())
            o << "<dt>Time</dt><dd>" << htmlEscape(r.time) << " (as logged, UTC)</dd>\n";
        o << "<dt>Role</dt><dd>" << htmlEscape(r.role) << ", confidence " << fixed2(r.confidence)
          << "</dd>\n";
        if (!r.connectVerdict.empty())
            o << "<dt>First attempt</dt><dd>" << htmlEscape(r.connectVerdict) << "</dd>\n";
        o << "</dl>\n<p>" << htmlEscape(r.summary) << "</p>\n<p>" << htmlProse(r.quickAnswer) << "</p>\n";
        o << "<h3>Evidence</h3>\n";
        evidenceTable(o, r.evidence);
        o << "<h3>Context from " << htmlEscape(r.who) << "</h3>\n<div class=\"ctx\">";
        for (const auto& l : r.context)
            o << "<div" << (l.emphasis ? " class=\"hit\"" : "") << "><span class=\"ln\">" << l.line
              << "</span>"
              << "<span class=\"tx\">" << htmlEscape(l.text) << "</span></div>";
        o << "</div>\n<p class=\"note\">"
          << htmlEscape(r.context.empty() ? std::string() : r.context.front().file) << ", lines "
          << (r.context.empty() ? 0 : r.context.front().line) << "–"
          << (r.context.empty() ? 0 : r.context.back().line)
          << " of this process (blank lines left out).</p>\n";
        o << "</section>\n";
    }

    o << "<section id=\"collateral\">\n<h2>Collateral</h2>\n";
    if (r.collateral.empty()) {
        o << "<p>No collateral reports recognised.</p>\n";
    } else {
        o << "<p>" << r.collateralProcesses << " other process" << (r.collateralProcesses == 1 ? "" : "es")
          << " reported failures that follow from the initiating one.</p>\n<table>\n<thead><tr><th>What</th>"
             "<th>Processes</th><th>Ranks</th><th>Hosts</th><th>Symptoms seen</th><th>Points "
             "at</th></tr></thead>\n"
             "<tbody>\n";
        for (const auto& c : r.collateral) {
            const std::string hosts = joined(c.hosts), kinds = joined(c.kinds, "; ");
            o << "<tr><td>" << htmlEscape(c.title) << "</td><td class=\"num\">" << c.processCount
              << "</td><td>" << htmlEscape(c.ranks) << "</td><td class=\"nw\">" << htmlEscape(hosts)
              << "</td><td>" << htmlEscape(kinds) << "</td><td>"
              << htmlEscape(c.pointsAt.empty() ? c.pointsAtNote : c.pointsAt) << "</td></tr>\n";
        }
        o << "</tbody>\n</table>\n";
        for (const auto& c : r.collateral) {
            o << "<h3>" << htmlEscape(c.title) << "</h3>\n<p>" << htmlEscape(c.summary) << "</p>\n";
            evidenceTable(o, {c.first});
        }
    }
    o << "</section>\n";

    o << "<section id=\"timeline\">\n<h2>Timeline around the failure</h2>\n<figure>\n"
      << timelineSvg(r.timeline) << "\n<figcaption>" << htmlEscape(r.timeline.caption)
      << "</figcaption>\n</figure>\n</section>\n";

    if (r.hasFinding) {
        o << "<section id=\"checklist\">\n<h2>Confirmation checklist</h2>\n<ul class=\"checks\">\n";
        for (const auto& c : r.checklist) {
            o << "<li>" << statusBadge(c.status) << "<div>" << htmlProse(c.text) << "<div class=\"detail\">"
              << htmlEscape(c.detail);
            if (!c.where.empty())
                o << " <span class=\"mono\">(" << htmlEscape(c.where) << ")</span>";
            o << "</div></div></li>\n";
        }
        o << "</ul>\n</section>\n";
        if (!r.alternatives.empty()) {
            o << "<section id=\"alternatives\">\n<h2>Competing explanations</h2>\n<ul>\n";
            for (const auto& x : r.alternatives) {
                o << "<li>" << htmlEscape(x.text);
                if (!x.where.empty())
                    o << " <span class=\"mono\">(" << htmlEscape(x.where) << ")</span>";
                o << "<div class=\"detail\">Would decide: " << htmlEscape(x.decider) << "</div></li>\n";
            }
            o << "</ul>\n</section>\n";
        }
        o << "<section id=\"root-cause\">\n<h2>Root cause</h2>\n<p>" << htmlProse(r.rootCause)
          << "</p>\n</section>\n";
        o << "<section id=\"fix\">\n<h2>Fix</h2>\n<ol>\n";
        for (const auto& s : r.fixSteps)
            o << "<li>" << htmlProse(s) << "</li>\n";
        o << "</ol>\n";
        if (!r.verify.empty())
            o << "<h3>Verify</h3>\n<pre><code>" << htmlEscape(r.verify) << "</code></pre>\n";
        if (!r.prevention.empty()) {
            o << "<h3>Prevention</h3>\n<ul>\n";
            for (const auto& s : r.prevention)
                o << "<li>" << htmlProse(s) << "</li>\n";
            o << "</ul>\n";
        }
        if (!r.references.empty()) {
            o << "<h3>References</h3>\n<ul>\n";
            for (const auto& ref : r.references)
                o << "<li>" << htmlEscape(ref.title) << " — <span class=\"mono\">" << htmlEscape(ref.url)
                  << "</span></li>\n";
            o << "</ul>\n";
        }
        o << "</section>\n";
    }

    o << "<section id=\"nccl\">\n<h2>NCCL versions</h2>\n<p>" << htmlEscape(r.ncclVerdict)
      << "</p>\n<table>\n<thead><tr><th>Source</th><th>Version</th><th>Ranks</th><th>Where</th></tr></"
         "thead>\n<tbody>\n";
    for (const auto& n : r.ncclLogs)
        o << "<tr><td>logs</td><td>" << htmlEscape(n.version) << "</td><td>" << htmlEscape(n.ranks)
          << "</td><td class=\"mono\">" << htmlEscape(n.where) << "</td></tr>\n";
    for (const auto& n : r.ncclDumps)
        o << "<tr><td>Flight Recorder</td><td>" << htmlEscape(n.version) << "</td><td>" << htmlEscape(n.ranks)
          << "</td><td class=\"mono\">" << htmlEscape(n.where) << "</td></tr>\n";
    for (const auto& h : r.ncclHints)
        o << "<tr><td>inferred</td><td>" << htmlEscape(h.range) << "</td><td>" << htmlEscape(h.basis)
          << "</td><td class=\"mono\">" << htmlEscape(h.where) << "</td></tr>\n";
    if (r.ncclLogs.empty() && r.ncclDumps.empty() && r.ncclHints.empty())
        o << "<tr><td>logs</td><td colspan=\"3\">no version in the logs</td></tr>\n";
    o << "<tr><td>this machine</td><td colspan=\"3\">" << htmlEscape(r.ncclLocal)
      << "</td></tr>\n</tbody>\n</table>\n";
    o << "<p>Fix applies: " << (r.fixApplies ? (*r.fixApplies ? "yes" : "no") : "cannot tell from these logs")
      << "</p>\n</section>\n";

    o << "<section id=\"clocks\">\n<h2>Clock offsets</h2>\n<p>" << htmlEscape(r.clockStatement)
      << "</p>\n<table>\n<thead><tr><th>Host</th><th>Offset applied</th><th></th></tr></thead>\n<tbody>\n";
    for (const auto& c : r.clocks)
        o << "<tr><td>" << htmlEscape(c.host) << "</td><td>" << c.offsetUs << " µs</td><td>"
          << htmlEscape(c.note) << "</td></tr>\n";
    o << "</tbody>\n</table>\n</section>\n";

    o << "<section id=\"inventory\">\n<h2>Bundle inventory</h2>\n<p>" << r.files.size() << " files, "
      << r.totalBytes << " bytes, " << r.totalLines
      << " lines. SHA-256 of each file's content as read (decompressed for .gz and archive members).</p>\n"
         "<table>\n<thead><tr><th>File</th><th>Bytes</th><th>Lines</th><th>Ranks</th><th>SHA-256</th></tr></"
         "thead>\n"
         "<tbody>\n";
    for (const auto& f : r.files)
        o << "<tr><td class=\"mono\">" << htmlEscape(f.path) << "</td><td class=\"num\">" << f.size
          << "</td><td class=\"num\">" << f.lines << "</td><td>" << htmlEscape(f.processes)
          << "</td><td class=\"hash\">" << f.sha256 << "</td></tr>\n";
    o << "</tbody>\n</table>\n";
    if (!r.dumps.empty()) {
        o << "<h3>Flight Recorder dumps</h3>\n<table>\n<thead><tr><th>File</th><th>Bytes</th><th>Rank</th>"
             "<th>SHA-256</th></tr></thead>\n<tbody>\n";
        for (const auto& f : r.dumps)
            o << "<tr><td class=\"mono\">" << htmlEscape(f.path) << "</td><td class=\"num\">" << f.size
              << "</td><td>" << htmlEscape(f.processes) << "</td><td class=\"hash\">" << f.sha256
              << "</td></tr>\n";
        o << "</tbody>\n</table>\n";
    }
    o << "<h3>Skipped</h3>\n";
    if (r.skipped.empty()) {
        o << "<p>Nothing was skipped.</p>\n";
    } else {
        o << "<table>\n<thead><tr><th>File</th><th>Why</th></tr></thead>\n<tbody>\n";
        for (const auto& s : r.skipped)
            o << "<tr><td class=\"mono\">" << htmlEscape(s.file) << "</td><td>" << htmlEscape(s.reason)
              << "</td></tr>\n";
        o << "</tbody>\n</table>\n";
    }
    o << "</section>\n";

    if (!r.redacted && !r.legend.empty()) {
        o << "<section id=\"legend\">\n<h2>Pseudonym legend</h2>\n<p>This copy is not redacted. A redacted "
             "export of "
             "the same bundle uses these "
             "names:</p>\n<table>\n<thead><tr><th>Pseudonym</th><th>Kind</th><th>Stands "
             "for</th></tr></thead>\n<tbody>\n";
        for (const auto& p : r.legend)
            o << "<tr><td class=\"mono\">" << htmlEscape(p.pseudonym) << "</td><td>"
              << pseudonymKindName(p.kind) << "</td><td class=\"mono\">"
              << htmlEscape(p.kind == PseudonymKind::Secret ? maskSecret(p.original) : p.original)
              << "</td></tr>\n";
        o << "</tbody>\n</table>\n</section>\n";
    }

    o << "<footer>\n<p>Made by Rankline " << htmlEscape(r.ranklineVersion) << " on "
      << htmlEscape(r.exportedAt) << ", offline: nothing was uploaded. Components: ";
    for (std::size_t i = 0; i < r.components.size(); ++i)
        o << (i ? ", " : "") << htmlEscape(r.components[i].first) << " "
          << htmlEscape(r.components[i].second);
    o << ".</p>\n</footer>\n</main>\n</body>\n</html>\n";
    return o.str();
}

std::optional<ReportFormat> reportFormatFromName(std::string_view name)
{
    std::string s(name);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (auto dot = s.rfind('.'); dot != std::string::npos)
        s = s.substr(dot + 1);
    if (s == "html" || s == "htm")
        return ReportFormat::Html;
    if (s == "pdf")
        return ReportFormat::Pdf;
    if (s == "md" || s == "markdown")
        return ReportFormat::Markdown;
    if (s == "json")
        return ReportFormat::Json;
    return std::nullopt;
}

const char* reportFormatName(ReportFormat f)
{
    switch (f) {
    case ReportFormat::Html:
        return "html";
    case ReportFormat::Pdf:
        return "pdf";
    case ReportFormat::Markdown:
        return "md";
    case ReportFormat::Json:
        return "json";
    }
    return "html";
}

} // namespace rl
