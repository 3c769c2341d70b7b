#include "window/findingpanel.h"

#include <QUrl>

#include <map>

namespace rl
{

namespace
{

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}
QString escView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(std::min<std::size_t>(s.size(), 2000)))
        .toHtmlEscaped();
}

QString where(const Analysis& a, LineRef r)
{
    return QStringLiteral("<a href=\"%1\">%2:%3</a>")
        .arg(FindingPanel::lineLink(r), esc(a.source(r.source).displayPath), QString::number(r.line + 1));
}

QString statusIcon(CheckStatus s)
{
    switch (s) {
    case CheckStatus::Confirmed:
        return QStringLiteral("<span style='color:#1a7f37'>&#10004;&nbsp;confirmed</span>");
    case CheckStatus::Contradicted:
        return QStringLiteral("<span style='color:#b42318'>&#10008;&nbsp;contradicted</span>");
    case CheckStatus::NotEvidenced:
        return QStringLiteral("<span style='color:#777'>?&nbsp;not&nbsp;evidenced</span>");
    }
    return {};
}

} // namespace

FindingPanel::FindingPanel(QWidget* parent) : QTextBrowser(parent)
{
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (auto r = parseLink(url))
            emit lineActivated(*r);
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
    QString h;
    h += QStringLiteral(
        "<style>h2{margin:2px 0 4px 0} h3{margin:12px 0 4px 0;color:#333} "
        ".small{color:#555} .ev{font-family:monospace;white-space:pre-wrap;background:#f6f6f6} "
        "td{padding:2px 6px 2px 0;vertical-align:top} .badge{color:white;background:#b42318;padding:1px 4px}"
        "</style>");
    const Finding* f = a.initiatingFinding();
    if (!f && !a.findings.empty())
        f = &a.findings.front();
    if (!f) {
        h += QStringLiteral("<h2>No known failure recognised</h2><p>None of the %1 encyclopedia entries "
                            "matched the %2 lines "
                            "read. Look at the merged log for the first WARN or traceback.</p>")
                 .arg(a.encyclopedia->entries.size())
                 .arg(a.totalLines);
    } else {
        const Entry& e = a.entry(f->entry);
        h += QStringLiteral("<p><span class='badge'>%1</span> &nbsp;confidence %2 &nbsp;·&nbsp; <span "
                            "class='small'>%3</span></p>")
                 .arg(QString::fromLatin1(roleName(f->role)).toUpper())
                 .arg(f->confidence, 0, 'f', 2)
                 .arg(esc(e.id));
        h += QStringLiteral("<h2>%1</h2>").arg(esc(e.title));
        h += QStringLiteral("<p><b>%1</b></p>").arg(esc(f->summary));
        h += QStringLiteral("<p>%1</p>").arg(esc(e.quickAnswer));

        h += QStringLiteral("<h3>Evidence</h3>");
        for (const auto& x : f->evidence) {
            h +=
                QStringLiteral(
                    "<p style='margin:6px 0 1px 0'><b>%1</b> &nbsp;%2 &nbsp;<span class='small'>%3</span></p>"
                    "<div class='ev'>%4</div>")
                    .arg(esc(x.label), where(a, x.where), esc(a.process(x.process).label()),
                         escView(a.text(x.where)));
            if (!x.note.empty())
                h += QStringLiteral("<div class='small'>%1</div>").arg(esc(x.note));
        }

        h += QStringLiteral("<h3>Symptoms</h3><table>");
        for (const auto& s : f->symptoms) {
            h += QStringLiteral("<tr><td>%1</td><td><b>%2</b> %3<br><span class='small'>%4</span></td></tr>")
                     .arg(s.observed ? QStringLiteral("<span style='color:#1a7f37'>observed</span>")
                                     : QStringLiteral("<span style='color:#777'>not&nbsp;observed</span>"),
                          esc(s.signal), s.line ? where(a, *s.line) : QString(), esc(s.why));
        }
        h += QStringLiteral("</table>");

        h += QStringLiteral("<h3>Confirmation checklist</h3><table>");
        for (const auto& c : f->checklist) {
            h += QStringLiteral("<tr><td>%1</td><td>%2<br><span class='small'>%3 %4</span></td></tr>")
                     .arg(statusIcon(c.status), esc(c.text), esc(c.detail),
                          c.line ? where(a, *c.line) : QString());
        }
        h += QStringLiteral("</table>");

        h += QStringLiteral("<h3>Root cause</h3><p>%1</p>").arg(esc(e.rootCause));
        h += QStringLiteral("<h3>Fix</h3><ol>");
        for (const auto& s : e.fixSteps)
            h += QStringLiteral("<li>%1</li>").arg(esc(s));
        h += QStringLiteral("</ol>");
        if (!e.verify.empty())
            h += QStringLiteral("<p>Verify: <code>%1</code></p>").arg(esc(e.verify));
        if (!e.prevention.empty()) {
            h += QStringLiteral("<h3>Prevention</h3><ul>");
            for (const auto& s : e.prevention)
                h += QStringLiteral("<li>%1</li>").arg(esc(s));
            h += QStringLiteral("</ul>");
        }
    }

    h += QStringLiteral("<h3>NCCL versions</h3><p>%1</p><table>").arg(esc(a.nccl.verdict));
    for (const auto& lv : a.nccl.logs) {
        QStringList ranks;
        for (auto pid : lv.processes)
            ranks << QString::fromStdString(a.process(pid).label());
        h += QStringLiteral("<tr><td>logs: <b>%1</b></td><td>%2 %3</td></tr>")
                 .arg(esc(lv.version.toString()), ranks.join(QStringLiteral(", ")).toHtmlEscaped(),
                      where(a, lv.firstLine));
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
        if (&o == f)
            continue;
        if (!header) {
            h += QStringLiteral("<h3>Other findings</h3><ul>");
            header = true;
        }
        h += QStringLiteral("<li><b>%1</b> (%2): %3 %4</li>")
                 .arg(esc(a.entry(o.entry).title), QString::fromLatin1(roleName(o.role)), esc(o.summary),
                      where(a, o.anchor));
    }
    if (header)
        h += QStringLiteral("</ul>");
    if (!a.skipped.empty()) {
        // A bundle can skip tens of thousands of files, and a rich-text list costs time quadratic
        // in its length: name the first ones, count the rest by reason.
        constexpr std::size_t kListed = 50;
        h += QStringLiteral("<h3>Skipped files</h3><ul>");
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
