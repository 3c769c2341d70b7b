#include "window/findingpanel.h"

#include <QUrl>

#include <algorithm>
#include <map>

#include "encyclopedia/entrytext.h"
#include "report/diagnosis_report.h"
#include "util/rank_runs.h"
#include "util/text_kind.h"

namespace rl
{

namespace
{

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}
QString escView(std::string_view line)
{
    // As in the log view: a crash's zeros as "[N NUL bytes]", a redrawn progress bar as a terminal
    // leaves it (util/text_kind.h).
    std::string marked;
    const std::string_view s = shownLine(line, marked);
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(std::min<std::size_t>(s.size(), 2000)))
        .toHtmlEscaped();
}

QString where(const Analysis& a, LineRef r)
{
    return QStringLiteral("<a href=\"%1\">%2:%3</a>")
        .arg(FindingPanel::lineLink(r), esc(a.source(r.source).displayPath), QString::number(r.line + 1));
}

QString entryAnchor(const Analysis& a, const std::string& id)
{
    const Entry* e = a.encyclopedia ? a.encyclopedia->find(id) : nullptr;
    return QStringLiteral("<a href=\"%1\">%2</a>").arg(entryLink(id).toHtmlEscaped(), esc(e ? e->title : id));
}

struct Mark {
    const char* symbol;
    const char* color;
    const char* word;
};

Mark mark(CheckStatus s)
{
    switch (s) {
    case CheckStatus::Confirmed:
        return {"&#10004;", "#1a7f37", "confirmed"};
    case CheckStatus::Contradicted:
        return {"&#10008;", "#b42318", "contradicted"};
    case CheckStatus::NotEvidenced:
        break;
    }
    return {"?", "#777777", "not evidenced"};
}

QString markCell(CheckStatus s)
{
    const Mark m = mark(s);
    return QStringLiteral("<td width='20' style='color:%1;font-weight:bold'>%2</td>")
        .arg(QLatin1String(m.color), QLatin1String(m.symbol));
}

QString markWord(CheckStatus s)
{
    const Mark m = mark(s);
    return QStringLiteral("<span style='color:%1'>%2</span>")
        .arg(QLatin1String(m.color), QLatin1String(m.word));
}

QString seconds(std::int64_t us)
{
    const double s = static_cast<double>(us) / 1e6;
    if (s < 10)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 1);
    if (s < 120)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 0);
    return QStringLiteral("%1 min").arg(s / 60, 0, 'f', 1);
}

// An undecided answer's detail ends with the item's if_unknown advice; the panel says that advice
// once, under the open questions. Returns the detail without it, and the advice.
std::pair<QString, QString> splitDetail(const Entry& e, const ChecklistResult& c)
{
    QString detail = QString::fromStdString(c.detail);
    const auto item =
        std::find_if(e.confirm.begin(), e.confirm.end(), [&](const ConfirmItem& i) { return i.id == c.id; });
    if (item == e.confirm.end() || item->ifUnknown.empty())
        return {detail, {}};
    const QString decide = QString::fromStdString(item->ifUnknown);
    if (detail.endsWith(decide)) {
        detail.chop(decide.size());
        while (detail.endsWith(QLatin1Char(' ')) || detail.endsWith(QLatin1Char(';')))
            detail.chop(1);
    }
    return {detail, c.status == CheckStatus::Confirmed ? QString() : decide};
}

// The checklist as judged against the logs: a mark, the question, what decided it and its line.
QString checklistHtml(const Analysis& a, const Finding& f)
{
    if (f.checklist.empty())
        return {};
    int counts[3] = {0, 0, 0};
    for (const auto& c : f.checklist)
        ++counts[static_cast<int>(c.status)];
    QString h = QStringLiteral("<h3><a name='checklist'></a>Confirmation checklist</h3>"
                               "<p class='small'>%1 confirmed · %2 contradicted · %3 not evidenced</p>"
                               "<table width='100%' cellspacing='0'>")
                    .arg(counts[static_cast<int>(CheckStatus::Confirmed)])
                    .arg(counts[static_cast<int>(CheckStatus::Contradicted)])
                    .arg(counts[static_cast<int>(CheckStatus::NotEvidenced)]);
    const Entry& e = a.entry(f.entry);
    for (const auto& c : f.checklist) {
        auto [detail, decide] = splitDetail(e, c);
        if (!decide.isEmpty())
            detail += detail.isEmpty() ? QStringLiteral("see the open questions below")
                                       : QStringLiteral("; see the open questions below");
        h += QStringLiteral("<tr>%1<td>%2<br><span class='small'>%3%4 %5</span></td></tr>")
                 .arg(markCell(c.status), esc(c.text), markWord(c.status),
                      detail.isEmpty() ? QString() : QStringLiteral(" — ") + detail.toHtmlEscaped(),
                      c.line ? where(a, *c.line) : QString());
    }
    h += QStringLiteral("</table>");
    return h;
}

// Why the engine put `o` below `f`: a version outside the entry's range, or a later start.
QString notChosenBecause(const Analysis& a, const Finding& f, const Finding& o)
{
    const Entry& oe = a.entry(o.entry);
    const Process& p = a.process(o.process);
    if (const AffectedVersions* r = oe.affected("nccl");
        r && p.ncclVersion && !r->range.contains(*p.ncclVersion))
        return QStringLiteral("NCCL %1 on %2 is outside this entry's range %3.")
            .arg(QString::fromStdString(p.ncclVersion->toString()), QString::fromStdString(p.label()),
                 QString::fromStdString(r->range.toString()))
            .toHtmlEscaped();
    if (f.role != Role::Initiating)
        return {};
    if (o.time.known() && f.time.known() && o.time.mid() > f.time.mid())
        return QStringLiteral("it began %1 after the initiating event.")
            .arg(seconds(o.time.mid() - f.time.mid()));
    return QStringLiteral(
        "it comes after the initiating event in the merged order (the same time, or no time).");
}

// Other findings that could explain the same failure, and the questions on this one that the logs
// left open, each with the alternative it stands for and what would decide it.
QString hypothesesHtml(const Analysis& a, const Finding& f)
{
    const Entry& fe = a.entry(f.entry);
    QString h = QStringLiteral("<h3><a name='hypotheses'></a>Competing hypotheses</h3>"
                               "<p class='small'>Other explanations these logs allow, and what would "
                               "decide between them.</p>");

    std::vector<std::vector<const Finding*>> groups; // other candidates, by entry, best first
    for (const auto& o : a.findings) {
        if (&o == &f || o.role == Role::Collateral)
            continue;
        auto g = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& v) { return v.front()->entry == o.entry; });
        if (g == groups.end())
            groups.push_back({&o});
        else
            g->push_back(&o);
    }
    for (const auto& g : groups) {
        const Finding& o = *g.front();
        if (o.entry == f.entry) {
            h += QStringLiteral("<p><b>The same failure on %1 other process(es)</b><br>").arg(g.size());
            int shown = 0;
            for (const Finding* x : g) {
                if (++shown > 6) {
                    h += QStringLiteral("… and %1 more<br>").arg(g.size() - 6);
                    break;
                }
                const QString why = notChosenBecause(a, f, *x);
                h += QStringLiteral("%1 %2 <span class='small'>%3</span><br>")
                         .arg(esc(a.labelAt(x->anchor)), where(a, x->anchor), why);
            }
            h += QStringLiteral(
                "<span class='small'>If the clocks of these hosts disagree, one of them may have "
                "failed first: compare their logs around the failure.</span></p>");
            continue;
        }
        int confirmed = 0;
        for (const auto& c : o.checklist)
            confirmed += c.status == CheckStatus::Confirmed;
        h += QStringLiteral(
                 "<p style='margin-top:8px'><b>%1</b> &nbsp;<span class='small'>%2 · confidence %3 · "
                 "%4 %5</span><br>%6</p>")
                 .arg(entryAnchor(a, a.entry(o.entry).id), QString::fromLatin1(roleName(o.role)),
                      QString::number(o.confidence, 'f', 2), esc(a.labelAt(o.anchor)), where(a, o.anchor),
                      esc(o.summary));
        QString facts;
        if (const QString why = notChosenBecause(a, f, o); !why.isEmpty())
            facts += QStringLiteral("<i>Not chosen:</i> %1 ").arg(why);
        facts += QStringLiteral("%1 of %2 of its checks confirmed.").arg(confirmed).arg(o.checklist.size());
        if (g.size() > 1)
            facts += QStringLiteral(" Also on %1 more process(es).").arg(g.size() - 1);
        h += QStringLiteral("<p class='small'>%1</p>").arg(facts);
        bool against = false;
        for (const auto& c : o.checklist) {
            if (c.status != CheckStatus::Contradicted)
                continue;
            if (!against)
                h += QStringLiteral(
                    "<p class='small'><i>Against it:</i></p><table width='100%' cellspacing='0'>");
            against = true;
            h += QStringLiteral("<tr>%1<td>%2<br><span class='small'>%3 %4</span></td></tr>")
                     .arg(markCell(c.status), esc(c.text), esc(c.detail),
                          c.line ? where(a, *c.line) : QString());
        }
        if (against)
            h += QStringLiteral("</table>");
    }
    if (groups.empty())
        h += QStringLiteral("<p>No other entry matched as a possible first event.</p>");

    std::vector<const ChecklistResult*> open;
    for (const auto& c : f.checklist)
        if (c.status != CheckStatus::Confirmed)
            open.push_back(&c);
    if (open.empty()) {
        h += QStringLiteral("<p>All %1 checks on <i>%2</i> are confirmed: its checklist leaves no "
                            "alternative open.</p>")
                 .arg(QString::number(f.checklist.size()), esc(fe.title));
        return h;
    }
    h += QStringLiteral(
        "<p style='margin-top:8px'><b>Open questions on this finding</b><br><span class='small'>"
        "Each stands for an alternative the logs did not rule out.</span></p>"
        "<table width='100%' cellspacing='0'>");
    for (const ChecklistResult* c : open) {
        const auto item = std::find_if(fe.confirm.begin(), fe.confirm.end(),
                                       [&](const ConfirmItem& i) { return i.id == c->id; });
        const auto [detail, decide] = splitDetail(fe, *c);
        h += QStringLiteral("<tr>%1<td>%2").arg(markCell(c->status), esc(c->text));
        if (item != fe.confirm.end() && !item->why.empty())
            h += QStringLiteral("<br><span class='why'>%1</span>").arg(proseHtml(item->why));
        h += QStringLiteral("<br><span class='small'>%1%2 %3</span>")
                 .arg(markWord(c->status),
                      detail.isEmpty() ? QString() : QStringLiteral(" — ") + detail.toHtmlEscaped(),
                      c->line ? where(a, *c->line) : QString());
        if (!decide.isEmpty())
            h += QStringLiteral("<br><span class='small'><i>What would decide it:</i> %1</span>")
                     .arg(proseHtml(decide.toStdString()));
        h += QStringLiteral("</td></tr>");
    }
    h += QStringLiteral("</table>");
    return h;
}

// Without an initiating finding, what the engine could still say (Analysis::hypotheses): where the
// failure probably is and what would show it.
QString suggestionsHtml(const Analysis& a)
{
    if (a.initiating || !a.suggestsSomething())
        return {};
    constexpr std::size_t kShown = 20;
    QString h = QStringLiteral("<h3><a name='suggest'></a>What the logs suggest</h3>"
                               "<p class='small'>No line here is a failure that starts a cascade; this is "
                               "where the cause probably is, and what would show it.</p><ul>");
    for (std::size_t i = 0; i < a.hypotheses.size() && i < kShown; ++i) {
        const Hypothesis& x = a.hypotheses[i];
        // The entry it would be, as a link: the suggestion is a lead, and the entry says how to follow it.
        const QString entry =
            x.entry >= 0
                ? QStringLiteral(" <span class='small'>· %1</span>").arg(entryAnchor(a, a.entry(x.entry).id))
                : QString();
        h += QStringLiteral("<li>%1 %2%3<br><span class='small'>Would decide: %4</span></li>")
                 .arg(esc(x.text), x.line ? where(a, *x.line) : QString(), entry, esc(x.decider));
    }
    if (a.hypotheses.size() > kShown)
        h += QStringLiteral("<li>… and %1 more (every one in <tt>--json</tt>: hypotheses)</li>")
                 .arg(a.hypotheses.size() - kShown);
    return h + QStringLiteral("</ul>");
}

} // namespace

FindingPanel::FindingPanel(QWidget* parent) : QTextBrowser(parent)
{
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (auto r = parseLink(url))
            emit lineActivated(*r);
        else if (auto id = parseEntryLink(url))
            emit entryActivated(*id);
        else if (url.scheme().isEmpty() && url.hasFragment())
            scrollToAnchor(url.fragment());
    });
}

QString FindingPanel::lineLink(LineRef where)
{
    return QStringLiteral("rankline:line/%1/%2").arg(where.source.value).arg(where.line);
}

std::optional<LineRef> FindingPanel::parseLink(const QUrl& url)
{
    if (url.scheme() != QLatin1String("rankline"))
        return std::nullopt;
    const QStringList parts = url.path().split(QLatin1Char('/'));
    if (parts.size() != 3 || parts[0] != QLatin1String("line"))
        return std::nullopt;
    bool ok1 = false, ok2 = false;
    LineRef r{SourceId(parts[1].toUInt(&ok1)), parts[2].toUInt(&ok2)};
    if (!ok1 || !ok2)
        return std::nullopt;
    return r;
}

void FindingPanel::setIndex(std::shared_ptr<const AnalysisIndex> index)
{
    setHtml(index ? renderHtml(index->analysis()) : QString());
}

QString FindingPanel::renderHtml(const Analysis& a)
{
    QString h = pageStyle();
    // Above whatever was found: a bundle that lacks some of the job's ranks may not hold its start.
    if (!a.coverage.complete())
        h += QStringLiteral("<p class='partial'>&nbsp;%1&nbsp;</p>").arg(esc(coverageSentence(a)));
    if (const std::string fr = flightSentence(a.flight); !fr.empty())
        h += QStringLiteral("<p class='flight'>&nbsp;%1&nbsp;</p>").arg(esc(fr));
    const Finding* f = a.initiatingFinding();
    if (!f && !a.findings.empty())
        f = &a.findings.front();
    if (!f) {
        if (const QString suggest = suggestionsHtml(a); !suggest.isEmpty())
            h += QStringLiteral("<h2>No failure identified</h2><p>No encyclopedia entry has a finding in the "
                                "%1 read, but some lines say where to look.</p>")
                     .arg(a.totalLines == 1 ? QStringLiteral("one line")
                                            : QStringLiteral("%1 lines").arg(a.totalLines)) +
                 suggest;
        else if (a.sources.empty() && !a.flight.empty())
            h += QStringLiteral(
                     "<h2>Flight Recorder dumps, no logs</h2><p>The bundle holds no log: what the dumps "
                     "say is above. Add %1 to find the failure that started it.</p>")
                     .arg(esc(kFlightLogsWanted));
        else
            h += QStringLiteral(
                     "<h2>No known failure recognised</h2><p>None of the %1 encyclopedia entries "
                     "matched the %2 read. Look at the merged log for the first WARN or traceback.</p>")
                     .arg(a.encyclopedia->entries.size())
                     .arg(a.totalLines == 1 ? QStringLiteral("one line")
                                            : QStringLiteral("%1 lines").arg(a.totalLines));
    } else {
        const Entry& e = a.entry(f->entry);
        h += QStringLiteral("<p><span class='badge'>&nbsp;%1&nbsp;</span> &nbsp;confidence %2 &nbsp;·&nbsp; "
                            "<a href=\"%3\">%4</a></p>")
                 .arg(QString::fromLatin1(roleName(f->role)).toUpper(),
                      QString::number(f->confidence, 'f', 2), entryLink(e.id).toHtmlEscaped(), esc(e.id));
        h += QStringLiteral("<h2>%1</h2>").arg(esc(e.title));
        h += QStringLiteral("<p><b>%1</b></p>").arg(esc(f->summary));
        if (f->inferredFromTrail)
            h +=
                QStringLiteral("<p class='small'><i>Inferred from a return-code trail: no line in these logs "
                               "states the error.</i></p>");
        h += QStringLiteral("<p>%1</p>").arg(proseHtml(e.quickAnswer));
        h += suggestionsHtml(a);

        h += QStringLiteral(
            "<p class='small'><a href=\"#evidence\">Evidence</a> · <a href=\"#checklist\">Checklist</a> · "
            "<a href=\"#hypotheses\">Competing hypotheses</a> · <a href=\"#symptoms\">Symptoms</a> · "
            "<a href=\"#fix\">Fix</a> · <a href=\"#related\">Related</a> · <a href=\"#versions\">NCCL "
            "versions</a></p>");
        h += QStringLiteral("<h3><a name='evidence'></a>Evidence</h3>");
        for (const auto& x : evidenceByLine(f->evidence)) {
            h +=
                QStringLiteral(
                    "<p style='margin:6px 0 1px 0'><b>%1</b> &nbsp;%2 &nbsp;<span class='small'>%3</span></p>"
                    "<div class='ev'>%4</div>")
                    .arg(esc(x.label), where(a, x.where), esc(a.labelAt(x.where)), escView(a.text(x.where)));
            if (!x.note.empty())
                h += QStringLiteral("<div class='small'>%1</div>").arg(esc(x.note));
        }

        h += checklistHtml(a, *f);
        h += hypothesesHtml(a, *f);

        h += QStringLiteral("<h3><a name='symptoms'></a>Symptoms</h3><table>");
        for (const auto& s : f->symptoms) {
            h += QStringLiteral("<tr><td>%1</td><td><b>%2</b> %3<br><span class='small'>%4</span></td></tr>")
                     .arg(s.observed ? QStringLiteral("<span style='color:#1a7f37'>observed</span>")
                                     : QStringLiteral("<span style='color:#777'>not&nbsp;observed</span>"),
                          esc(s.signal), s.line ? where(a, *s.line) : QString(), proseHtml(s.why));
        }
        h += QStringLiteral("</table>");

        h += QStringLiteral("<h3><a name='root-cause'></a>Root cause</h3><p>%1</p>")
                 .arg(proseHtml(e.rootCause));
        h += QStringLiteral("<h3><a name='fix'></a>Fix</h3><ol>");
        for (const auto& s : e.fixSteps)
            h += QStringLiteral("<li>%1</li>").arg(proseHtml(s));
        h += QStringLiteral("</ol>");
        if (!e.verify.empty())
            h += QStringLiteral("<p>Verify:</p><div class='code'>%1</div>").arg(esc(e.verify));
        if (!e.prevention.empty()) {
            h += QStringLiteral("<h3>Prevention</h3><ul>");
            for (const auto& s : e.prevention)
                h += QStringLiteral("<li>%1</li>").arg(proseHtml(s));
            h += QStringLiteral("</ul>");
        }

        h += QStringLiteral("<h3><a name='related'></a>Related entries</h3><ul>");
        h += QStringLiteral(
                 "<li>%1 <span class='small'>(this finding's entry: mechanism, examples, FAQ)</span></li>")
                 .arg(entryAnchor(a, e.id));
        for (const auto& id : e.related)
            h += QStringLiteral("<li>%1</li>").arg(entryAnchor(a, id));
        h += QStringLiteral("</ul>");
    }

    h += QStringLiteral("<h3><a name='versions'></a>NCCL versions</h3><p>%1</p><table>")
             .arg(esc(a.nccl.verdict()));
    for (const auto& lv : a.nccl.logs) {
        QStringList ranks;
        for (auto pid : lv.processes)
            ranks << QString::fromStdString(a.process(pid).label());
        h += QStringLiteral("<tr><td>logs: <b>%1</b></td><td>%2 %3</td></tr>")
                 .arg(esc(lv.version.toString()), ranks.join(QStringLiteral(", ")).toHtmlEscaped(),
                      where(a, lv.firstLine));
    }
    for (const auto& dv : a.nccl.dumps) {
        // The files are in --json and the report; here their count, in a narrow column.
        const QString dumps =
            dv.files.size() == 1 ? esc(dv.files.front()) : QStringLiteral("%1 dumps").arg(dv.files.size());
        h += QStringLiteral("<tr><td>Flight Recorder: <b>%1</b></td><td>%2</td></tr>")
                 .arg(esc(dv.text), dv.ranks.empty()
                                        ? dumps
                                        : esc("ranks " + rankRuns(dv.ranks, 8)) +
                                              QStringLiteral(" <span class='small'>(%1)</span>").arg(dumps));
    }
    for (const auto& hint : a.nccl.hints)
        h += QStringLiteral("<tr><td>inferred: <b>%1</b></td><td>%2 %3</td></tr>")
                 .arg(esc(hint.range.toString()), esc(hint.basis), where(a, hint.where));
    if (a.nccl.local) {
        if (a.nccl.local->found)
            h += QStringLiteral("<tr><td>this machine: <b>%1</b></td><td>%2</td></tr>")
                     .arg(esc(a.nccl.local->version.toString()), esc(a.nccl.local->path));
        else
            h += QStringLiteral("<tr><td>this machine</td><td>no libnccl.so.2 found</td></tr>");
    }
    h += QStringLiteral("</table>");

    bool header = false;
    for (const auto& o : a.findings) {
        if (&o == f || o.role != Role::Collateral)
            continue;
        if (!header) {
            h += QStringLiteral("<h3>Collateral</h3><p class='small'>What other ranks reported because of a "
                                "failure elsewhere.</p><ul>");
            header = true;
        }
        // The summary already names the entry and, usually, what it points at.
        const bool noteSaid = o.pointsAtNote.empty() || o.summary.find(o.pointsAtNote) != std::string::npos;
        h +=
            QStringLiteral("<li>%1 %2 <span class='small'>· <a href=\"%3\">entry</a></span>%4</li>")
                .arg(esc(o.summary), where(a, o.anchor), entryLink(a.entry(o.entry).id).toHtmlEscaped(),
                     noteSaid ? QString()
                              : QStringLiteral("<br><span class='small'>%1</span>").arg(esc(o.pointsAtNote)));
    }
    if (header)
        h += QStringLiteral("</ul>");
    if (!a.skipped.empty()) {
        // A bundle can skip tens of thousands of files, and a rich-text list costs time quadratic
        // in its length: name the first ones, count the rest by reason.
        constexpr std::size_t kListed = 50;
        h += QStringLiteral("<h3>Files skipped or read in part</h3><ul>");
        std::map<std::string, std::size_t> rest;
        for (std::size_t i = 0; i < a.skipped.size(); ++i) {
            const auto& s = a.skipped[i];
            if (i < kListed)
                h += QStringLiteral("<li><b>%1</b>: %2</li>").arg(esc(s.file), esc(s.reason));
            else
                ++rest[s.reason];
        }
        for (const auto& [reason, count] : rest)
            h += QStringLiteral("<li><b>%1 more files</b>: %2</li>").arg(QString::number(count), esc(reason));
        h += QStringLiteral("</ul>");
        if (!rest.empty())
            h += QStringLiteral("<p class='small'>rankline diagnose --json lists every skipped file.</p>");
    }
    return h;
}

} // namespace rl
