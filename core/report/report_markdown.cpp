#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "report/report_writers.h"
#include "util/strings.h"

namespace rl
{

namespace
{

// Text that GitHub must show as text: no emphasis, links, HTML, math, mentions (@name), issue
// references (#12) or table breaks. Newlines become spaces. `lineStart`: the text begins a line,
// where "-", "+", "1." and the like would start a list.
std::string mdText(std::string_view s, bool lineStart = false)
{
    std::string out;
    out.reserve(s.size() + 8);
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '\n':
        case '\r':
            out += ' ';
            break;
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '#':
        case '~':
        case '@':
        case '!':
        case '$':
            out += '\\';
            out += c;
            break;
        case '-':
        case '+':
        case '=':
        case ':':
            // Only special at the start of a line (lists, headings, tables).
            if (lineStart && out.empty())
                out += '\\';
            out += c;
            break;
        case '.':
        case ')':
            // "1." / "1)" at the start would begin an ordered list.
            if (lineStart && !out.empty() && std::all_of(out.begin(), out.end(), [](char d) {
                    return std::isdigit(static_cast<unsigned char>(d));
                }))
                out += '\\';
            out += c;
            break;
        default:
            out += c;
        }
    }
    return out;
}

// Rankline's own prose: `code` spans are kept (they mark commands), the rest is escaped.
std::string mdProse(std::string_view s, bool lineStart = false)
{
    if (std::count(s.begin(), s.end(), '`') % 2 != 0)
        return mdText(s, lineStart);
    std::string out;
    bool code = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i < s.size() && s[i] != '`')
            continue;
        std::string_view part = s.substr(start, i - start);
        if (code)
            out += "`" + std::string(part) + "`";
        else
            out += mdText(part, lineStart && start == 0);
        code = !code;
        start = i + 1;
    }
    return out;
}

std::size_t longestRun(std::string_view s, char c)
{
    std::size_t best = 0, run = 0;
    for (char x : s) {
        run = x == c ? run + 1 : 0;
        best = std::max(best, run);
    }
    return best;
}

// An inline code span that survives any content; in a table cell pipes are escaped too.
std::string mdCode(std::string_view s, bool inTable = false)
{
    std::string body;
    for (char c : s) {
        if (c == '\n' || c == '\r')
            body += ' ';
        else if (c == '|' && inTable)
            body += "\\|";
        else
            body += c;
    }
    std::string fence(longestRun(body, '`') + 1, '`');
    bool pad = !body.empty() && (body.front() == '`' || body.back() == '`' || body.front() == ' ');
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

// A fenced block whose fence is longer than any backtick run inside.
std::string mdBlock(const std::string& body, const char* info = "text")
{
    std::string fence(std::max<std::size_t>(3, longestRun(body, '`') + 1), '`');
    return fence + info + "\n" + body + (body.empty() || body.back() == '\n' ? "" : "\n") + fence + "\n";
}

std::string cell(std::string_view s)
{
    return mdText(s);
}

std::string fixed2(double v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

void evidence(std::ostringstream& o, const ReportLine& l)
{
    o << "**" << mdText(l.label.empty() ? "line" : l.label) << "** · " << mdCode(lineRange(l)) << " · "
      << mdText(l.who);
    if (!l.time.empty())
        o << " · " << mdText(l.time);
    o << "\n\n" << mdBlock(l.text);
    if (!l.note.empty())
        o << "\n_" << mdText(l.note) << "_\n";
    o << "\n";
}

// The timeline picture as text: one row per lane, a column per character.
std::string textTimeline(const TimelinePicture& p)
{
    if (p.empty)
        return p.caption + "\n";
    constexpr int kCols = 64;
    const int labelW = 20;
    auto col = [&](double x) {
        return std::clamp(
            static_cast<int>(std::lround((x - p.plotLeft) / (p.plotRight - p.plotLeft) * (kCols - 1))), 0,
            kCols - 1);
    };
    auto pad = [](std::string s, std::size_t w) {
        std::size_t n = 0;
        for (unsigned char c : s)
            n += (c & 0xC0) != 0x80;
        if (n < w)
            s.append(w - n, ' ');
        return s;
    };
    // Tick labels on one row, left-aligned at their column, skipped where they would collide.
    int next = 0;
    std::string tickLine = pad(p.axisTitle, labelW);
    int at = 0;
    for (const auto& t : p.ticks) {
        int c = col(t.x);
        if (c < next)
            continue;
        tickLine += std::string(static_cast<std::size_t>(c - at), ' ') + t.label;
        int len = 0;
        for (unsigned char ch : t.label)
            len += (ch & 0xC0) != 0x80;
        at = c + len;
        next = at + 2;
    }
    std::string out = tickLine + "\n";
    for (const auto& lane : p.lanes) {
        if (lane.header) {
            out += lane.label + "\n";
            continue;
        }
        double cy = lane.y + p.laneHeight / 2;
        std::vector<std::string> row(kCols, "\u00b7");
        std::vector<int> weight(kCols, 0);
        for (const auto& m : p.marks) {
            if (std::abs(m.y - cy) > 0.5)
                continue;
            static const char* glyph[] = {"\u25c6", "\u25cf", "\u2716", "\u25b2", "o", "\u25cb"};
            static const int w[] = {6, 5, 4, 3, 2, 1};
            int c = col(m.x);
            int k = static_cast<int>(m.kind);
            if (w[k] > weight[static_cast<std::size_t>(c)]) {
                weight[static_cast<std::size_t>(c)] = w[k];
                row[static_cast<std::size_t>(c)] = glyph[k];
            }
        }
        std::string line = pad("  " + lane.label, labelW);
        for (const auto& g : row)
            line += g;
        for (const auto& l : p.labels)
            if (std::abs(l.y - cy) < 0.5 && l.kind == PictureMarkKind::Collateral)
                line += "  " + l.text;
        out += line + "\n";
    }
    out += "\n\u25c6 initiating evidence  \u25cf collateral  \u2716 error / traceback  \u25b2 WARN  o other "
           "event";
    if (std::any_of(p.marks.begin(), p.marks.end(),
                    [](const auto& m) { return m.kind == PictureMarkKind::Unlogged; }))
        out += "  \u25cb first attempt (not logged)";
    return out + "\n";
}

} // namespace

std::string reportMarkdown(const IncidentReport& r)
{
    std::ostringstream o;
    o << "# Incident report: " << mdText(r.title) << "\n\n";
    o << "Rankline " << mdText(r.ranklineVersion) << " · exported " << mdText(r.exportedAt) << " · "
      << r.files.size() << " files, " << r.totalLines << " lines, " << r.processCount << " processes on "
      << r.hostCount << " hosts · "
      << (r.redacted ? "**redacted**: host names, addresses, user names and secrets replaced by pseudonyms"
                     : "**not redacted**")
      << "\n\n";
    o << "> **Verdict.** " << mdText(r.verdict) << "\n\n";

    if (r.hasFinding) {
        o << "## " << (r.hasInitiating ? "Initiating event" : "Strongest finding")
          << "\n\n| | |\n|---|---|\n";
        o << "| Entry | " << cell(r.entryTitle) << " " << mdCode(r.entry, true) << " |\n";
        o << "| Process | " << cell(r.who) << " |\n";
        o << "| Where | " << mdCode(r.where, true) << " |\n";
        if (!r.time.empty())
            o << "| Time | " << cell(r.time) << " (as logged, UTC) |\n";
        o << "| Role | " << cell(r.role) << ", confidence " << fixed2(r.confidence) << " |\n";
        if (!r.connectVerdict.empty())
            o << "| First attempt | " << cell(r.connectVerdict) << " |\n";
        o << "\n"
          << mdText(r.summary, true) << "\n\n"
          << mdProse(r.quickAnswer, true) << "\n\n### Evidence\n\n";
        for (const auto& l : r.evidence)
            evidence(o, l);
        o << "### Context from " << mdText(r.who) << "\n\n";
        std::string ctx;
        for (const auto& l : r.context) {
            char num[16];
            std::snprintf(num, sizeof num, "%6u", l.line);
            ctx += (l.emphasis ? "> " : "  ") + std::string(num) + "  " + l.text + "\n";
        }
        o << mdBlock(ctx);
        if (!r.context.empty())
            o << "\n"
              << mdCode(r.context.front().file) << ", this process's lines around the initiating one (marked "
              << mdCode(">") << "; blank lines left out).\n\n";
    }

    o << "## Collateral\n\n";
    if (r.collateral.empty()) {
        o << "No collateral reports recognised.\n\n";
    } else {
        o << r.collateralProcesses << " other process" << (r.collateralProcesses == 1 ? "" : "es")
          << " reported failures that follow from the initiating one.\n\n"
             "| What | Processes | Ranks | Hosts | Symptoms seen | Points at |\n|---|--:|---|---|---|---|\n";
        for (const auto& c : r.collateral) {
            const std::string hosts = joined(c.hosts), kinds = joined(c.kinds, "; ");
            o << "| " << cell(c.title) << " | " << c.processCount << " | " << cell(c.ranks) << " | "
              << cell(hosts) << " | " << cell(kinds) << " | "
              << cell(c.pointsAt.empty() ? c.pointsAtNote : c.pointsAt) << " |\n";
        }
        o << "\n";
        for (const auto& c : r.collateral) {
            o << "### " << mdText(c.title) << "\n\n" << mdText(c.summary, true) << "\n\n";
            evidence(o, c.first);
        }
    }

    o << "## Timeline around the failure\n\n"
      << mdBlock(textTimeline(r.timeline)) << "\n"
      << mdText(r.timeline.caption, true)
      << " The HTML and PDF exports draw this picture as vector graphics.\n\n";

    if (r.hasFinding) {
        o << "## Confirmation checklist\n\n";
        for (const auto& c : r.checklist) {
            o << "- [" << (c.status == "confirmed" ? "x" : " ") << "] **" << mdText(c.status)
              << "**: " << mdProse(c.text) << "  \n  " << mdText(c.detail);
            if (!c.where.empty())
                o << " (" << mdCode(c.where) << ")";
            o << "\n";
        }
        if (!r.alternatives.empty()) {
            o << "\n## Competing explanations\n\n";
            for (const auto& x : r.alternatives) {
                o << "- " << mdText(x.text);
                if (!x.where.empty())
                    o << " (" << mdCode(x.where) << ")";
                o << "  \n  Would decide: " << mdText(x.decider) << "\n";
            }
        }
        o << "\n## Root cause\n\n" << mdProse(r.rootCause, true) << "\n\n## Fix\n\n";
        int n = 1;
        for (const auto& s : r.fixSteps)
            o << n++ << ". " << mdProse(s) << "\n";
        if (!r.verify.empty())
            o << "\n### Verify\n\n" << mdBlock(r.verify, "sh");
        if (!r.prevention.empty()) {
            o << "\n### Prevention\n\n";
            for (const auto& s : r.prevention)
                o << "- " << mdProse(s) << "\n";
        }
        if (!r.references.empty()) {
            o << "\n### References\n\n";
            for (const auto& ref : r.references)
                o << "- " << mdText(ref.title) << ": <" << ref.url << ">\n";
        }
        o << "\n";
    }

    o << "## NCCL versions\n\n"
      << mdText(r.ncclVerdict, true) << "\n\n| Source | Version | Ranks | Where |\n|---|---|---|---|\n";
    for (const auto& v : r.ncclLogs)
        o << "| logs | " << cell(v.version) << " | " << cell(v.ranks) << " | " << mdCode(v.where, true)
          << " |\n";
    for (const auto& n : r.ncclDumps)
        o << "| Flight Recorder | " << cell(n.version) << " | " << cell(n.ranks) << " | "
          << mdCode(n.where, true) << " |\n";
    for (const auto& h : r.ncclHints)
        o << "| inferred | " << cell(h.range) << " | " << cell(h.basis) << " | " << mdCode(h.where, true)
          << " |\n";
    if (r.ncclLogs.empty() && r.ncclDumps.empty() && r.ncclHints.empty())
        o << "| logs | no version in the logs | | |\n";
    o << "| this machine | " << cell(r.ncclLocal) << " | | |\n\nFix applies: "
      << (r.fixApplies ? (*r.fixApplies ? "yes" : "no") : "cannot tell from these logs") << "\n\n";

    o << "## Clock offsets\n\n"
      << mdText(r.clockStatement, true) << "\n\n| Host | Offset applied | |\n|---|--:|---|\n";
    for (const auto& c : r.clocks)
        o << "| " << cell(c.host) << " | " << c.offsetUs << " µs | " << cell(c.note) << " |\n";

    o << "\n## Bundle inventory\n\n"
      << r.files.size() << " files, " << r.totalBytes << " bytes, " << r.totalLines
      << " lines. SHA-256 of each file's content as read (decompressed for .gz and archive members).\n\n"
         "| File | Bytes | Lines | Ranks | SHA-256 |\n|---|--:|--:|---|---|\n";
    // A GitHub issue holds 65,536 characters: a large bundle's full inventory goes in the HTML, PDF
    // or JSON export; the Markdown lists the first files and says so.
    constexpr std::size_t kMaxFiles = 100;
    for (std::size_t i = 0; i < r.files.size() && i < kMaxFiles; ++i) {
        const auto& f = r.files[i];
        o << "| " << mdCode(f.path, true) << " | " << f.size << " | " << f.lines << " | " << cell(f.processes)
          << " | " << mdCode(f.sha256, true) << " |\n";
    }
    if (r.files.size() > kMaxFiles)
        o << "\n"
          << r.files.size() - kMaxFiles
          << " more files are listed, with their SHA-256, in the HTML, PDF and JSON exports of this "
             "report.\n";
    if (!r.dumps.empty()) {
        o << "\n### Flight Recorder dumps\n\n| File | Bytes | Rank | SHA-256 |\n|---|--:|---|---|\n";
        for (std::size_t i = 0; i < r.dumps.size() && i < kMaxFiles; ++i) {
            const auto& f = r.dumps[i];
            o << "| " << mdCode(f.path, true) << " | " << f.size << " | " << cell(f.processes) << " | "
              << mdCode(f.sha256, true) << " |\n";
        }
        if (r.dumps.size() > kMaxFiles)
            o << "\n"
              << r.dumps.size() - kMaxFiles
              << " more dumps are listed, with their SHA-256, in the HTML, PDF and JSON exports of this "
                 "report.\n";
    }
    o << "\n### Skipped\n\n";
    if (r.skipped.empty()) {
        o << "Nothing was skipped.\n";
    } else {
        o << "| File | Why |\n|---|---|\n";
        for (const auto& s : r.skipped)
            o << "| " << mdCode(s.file, true) << " | " << cell(s.reason) << " |\n";
    }

    if (!r.redacted && !r.legend.empty()) {
        o << "\n## Pseudonym legend\n\nThis copy is not redacted. A redacted export of the same bundle uses "
             "these "
             "names:\n\n| Pseudonym | Kind | Stands for |\n|---|---|---|\n";
        for (const auto& p : r.legend)
            o << "| " << mdCode(p.pseudonym, true) << " | " << pseudonymKindName(p.kind) << " | "
              << mdCode(p.kind == PseudonymKind::Secret ? maskSecret(p.original) : p.original, true)
              << " |\n";
    }

    o << "\n---\n\nMade by Rankline " << mdText(r.ranklineVersion) << " on " << mdText(r.exportedAt)
      << ", offline: nothing was uploaded. Components: ";
    for (std::size_t i = 0; i < r.components.size(); ++i)
        o << (i ? ", " : "") << mdText(r.components[i].first) << " " << mdText(r.components[i].second);
    o << ".\n";
    return o.str();
}

} // namespace rl
