#include "encyclopedia/entrytext.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace rl
{

namespace
{

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

// Prose: escaped, then `backticked` spans shown as code. Escaping first keeps any markup in the
// entry inert; the only tags added are ours.
QString prose(const std::string& s)
{
    QString out = esc(s);
    static const QRegularExpression tick(QStringLiteral("`([^`\\n]+)`"));
    out.replace(tick, QStringLiteral("<code>\\1</code>"));
    return out;
}

// A real log line or command: escaped, monospace, wrapped where needed, never interpreted.
QString mono(const std::string& s, const char* cls = "sample")
{
    return QStringLiteral("<div class='%1'>%2</div>").arg(QLatin1String(cls), esc(s));
}

QString section(const QString& title, const QString& id)
{
    return QStringLiteral("<h3><a name='%1'></a>%2</h3>").arg(id, title);
}

QString list(const std::vector<std::string>& items, bool ordered = false)
{
    if (items.empty())
        return {};
    QString h = ordered ? QStringLiteral("<ol>") : QStringLiteral("<ul>");
    for (const auto& s : items)
        h += QStringLiteral("<li>%1</li>").arg(prose(s));
    h += ordered ? QStringLiteral("</ol>") : QStringLiteral("</ul>");
    return h;
}

QString phaseName(Phase p)
{
    switch (p) {
    case Phase::Connect:
        return QStringLiteral("connect");
    case Phase::Failure:
        return QStringLiteral("failure");
    case Phase::Trail:
        return QStringLiteral("trail");
    case Phase::Collateral:
        return QStringLiteral("collateral");
    case Phase::Context:
        return QStringLiteral("context");
    }
    return {};
}

QString versionRange(const VersionRange& r)
{
    // The loader stores an open upper bound ("to": null) as 999.0.0.
    if (r.to.major >= 999)
        return QStringLiteral("%1 and later").arg(QString::fromStdString(r.from.toString()));
    return QString::fromStdString(r.toString());
}

} // namespace

const std::vector<std::string>& categoryOrder()
{
    static const std::vector<std::string> order{"socket-bootstrap", "network-transport", "host-gpu",
                                                "config-version", "pytorch-launcher"};
    return order;
}

QString layerName(const std::string& category)
{
    if (category == "socket-bootstrap")
        return QStringLiteral("Socket / bootstrap");
    if (category == "network-transport")
        return QStringLiteral("Network transport");
    if (category == "host-gpu")
        return QStringLiteral("Host / GPU");
    if (category == "config-version")
        return QStringLiteral("Configuration / version");
    if (category == "pytorch-launcher")
        return QStringLiteral("PyTorch / launcher");
    return QString::fromStdString(category);
}

int layerRank(const std::string& category)
{
    const auto& order = categoryOrder();
    auto it = std::find(order.begin(), order.end(), category);
    return static_cast<int>(it - order.begin());
}

QString leadSentences(const std::string& text, int minChars, int maxChars)
{
    const QString s = QString::fromStdString(text).simplified();
    // A sentence ends at ". " before a capital letter or an opening quote; "e.g. " and version
    // numbers ("2.18.3") do not end one.
    static const QRegularExpression end(
        QStringLiteral("(?<!\\be\\.g|\\bi\\.e|\\bvs|\\betc)\\.\\s+(?=[A-Z'\"(])"));
    qsizetype cut = s.size();
    for (auto it = end.globalMatch(s); it.hasNext();) {
        const auto m = it.next();
        if (m.capturedStart() + 1 >= minChars) {
            cut = m.capturedStart() + 1;
            break;
        }
    }
    QString lead = s.left(cut);
    if (lead.size() > maxChars) {
        qsizetype space = lead.lastIndexOf(QLatin1Char(' '), maxChars);
        lead = lead.left(space > maxChars / 2 ? space : maxChars);
        while (lead.endsWith(QLatin1Char(',')) || lead.endsWith(QLatin1Char(';')) ||
               lead.endsWith(QLatin1Char(':')))
            lead.chop(1);
        lead += QStringLiteral(" …");
    }
    return lead;
}

QString shortForm(const std::string& text, int maxChars)
{
    QString lead = leadSentences(text, 60, 100000);
    if (lead.size() <= maxChars)
        return lead;
    // Parentheticals carry detail (examples, versions, errno names) that the full text keeps.
    // A parenthetical opens after a space; "poll()" and "f(x)" are names and stay.
    QString flat;
    int depth = 0;
    for (qsizetype i = 0; i < lead.size(); ++i) {
        const QChar c = lead[i];
        if (c == QLatin1Char('(') && (depth > 0 || i == 0 || lead[i - 1].isSpace()))
            ++depth;
        else if (c == QLatin1Char(')') && depth > 0)
            --depth;
        else if (depth == 0)
            flat += c;
    }
    flat = flat.simplified();
    flat.replace(QStringLiteral(" ,"), QStringLiteral(","));
    flat.replace(QStringLiteral(" ;"), QStringLiteral(";"));
    flat.replace(QStringLiteral(" ."), QStringLiteral("."));
    flat.replace(QStringLiteral(" :"), QStringLiteral(":"));
    if (flat.size() <= maxChars)
        return flat;
    const qsizetype clause = flat.lastIndexOf(QLatin1Char(';'), maxChars);
    if (clause >= maxChars / 3)
        return flat.left(clause) + QLatin1Char('.');
    return leadSentences(flat.toStdString(), 1, maxChars);
}

QString proseHtml(const std::string& text)
{
    return prose(text);
}

QString entryLink(const std::string& id)
{
    return QStringLiteral("rankline:entry/") + QString::fromStdString(id);
}

std::optional<QString> parseEntryLink(const QUrl& url)
{
    if (url.scheme() != QLatin1String("rankline"))
        return std::nullopt;
    const QString path = url.path();
    if (!path.startsWith(QLatin1String("entry/")))
        return std::nullopt;
    QString id = path.mid(6);
    if (id.isEmpty())
        return std::nullopt;
    return id;
}

std::optional<int> parseCopyLink(const QUrl& url)
{
    if (url.scheme() != QLatin1String("rankline") || !url.path().startsWith(QLatin1String("copy/")))
        return std::nullopt;
    bool ok = false;
    int n = url.path().mid(5).toInt(&ok);
    return ok ? std::optional<int>(n) : std::nullopt;
}

QString pageStyle()
{
    return QStringLiteral(
        "<style>"
        "h2{margin:2px 0 6px 0} h3{margin:16px 0 4px 0;color:#333} h4{margin:10px 0 2px 0}"
        "p{margin:3px 0 5px 0} li{margin-bottom:3px}"
        ".small{color:#555} .tag{color:#555;background:#eef0f3}"
        ".quick{background:#eef5ff} .why{color:#444}"
        ".sample{font-family:monospace;white-space:pre-wrap;background:#f4f4f4;margin:5px 0 5px 14px}"
        ".code{font-family:monospace;white-space:pre-wrap;background:#f4f4f4;margin:2px 0 4px 0}"
        ".ev{font-family:monospace;white-space:pre-wrap;background:#f6f6f6}"
        ".re{font-family:monospace;white-space:pre-wrap;color:#6a3d00}"
        "code{font-family:monospace;background:#f4f4f4}"
        "td{padding:2px 6px 2px 0;vertical-align:top} th{text-align:left;padding:2px 8px 2px 0}"
        ".badge{color:white;background:#b42318} .badge2{color:white;background:#6b7280}"
        ".partial{background:#fff4e5;color:#5c3b00}"
        ".flight{background:#e8f0fe;color:#17325c}"
        "</style>");
}

QString overviewHtml(const Encyclopedia& enc)
{
    std::vector<const Entry*> sorted;
    for (const Entry& e : enc.entries)
        sorted.push_back(&e);
    std::stable_sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) {
        const int ra = layerRank(a->category), rb = layerRank(b->category);
        return ra != rb ? ra < rb : a->title < b->title;
    });
    QString h = pageStyle();
    h +=
        QStringLiteral("<h2>Encyclopedia</h2><p>%1 failures Rankline recognises in logs. Type words into the "
                       "search box, or paste a log line: it is matched against the same fingerprints "
                       "Rankline scans bundles with. <a href=\"rankline:errors\">NCCL errors side by "
                       "side</a> compares the messages: what each really indicates, its layer and its usual "
                       "cause.</p>")
            .arg(enc.entries.size());
    std::string category;
    for (const Entry* e : sorted) {
        if (e->category != category) {
            if (!category.empty())
                h += QStringLiteral("</ul>");
            category = e->category;
            h += QStringLiteral("<h3>%1</h3><ul>").arg(layerName(category).toHtmlEscaped());
        }
        h += QStringLiteral("<li><a href=\"%1\">%2</a><br><span class='small'>%3</span></li>")
                 .arg(entryLink(e->id).toHtmlEscaped(), esc(e->title),
                      shortForm(e->quickAnswer, 220).toHtmlEscaped());
    }
    if (!category.empty())
        h += QStringLiteral("</ul>");
    return h;
}

QString entryHtml(const Entry& e, const Encyclopedia& enc)
{
    QString h = pageStyle();
    h += QStringLiteral("<p class='small'>%1 &nbsp;·&nbsp; <code>%2</code> &nbsp;·&nbsp; usually %3%4</p>")
             .arg(layerName(e.category).toHtmlEscaped(), esc(e.id),
                  e.usualRole.empty() ? QStringLiteral("?") : esc(e.usualRole),
                  e.canInitiate ? QString() : QStringLiteral(" (never the first event)"));
    h += QStringLiteral("<h2>%1</h2>").arg(esc(e.title));
    if (!e.tags.empty()) {
        QStringList tags;
        for (const auto& t : e.tags)
            tags << QStringLiteral("<span class='tag'>&nbsp;%1&nbsp;</span>").arg(esc(t));
        h += QStringLiteral("<p>%1</p>").arg(tags.join(QStringLiteral(" ")));
    }
    QStringList jumps;
    auto jump = [&jumps](bool present, const char* anchor, const QString& name) {
        if (present)
            jumps << QStringLiteral("<a href=\"#%1\">%2</a>").arg(QLatin1String(anchor), name);
    };
    jump(!e.mechanism.empty(), "mechanism", QStringLiteral("Mechanism"));
    jump(!e.symptoms.empty(), "symptoms", QStringLiteral("Symptoms"));
    jump(!e.affectedVersions.empty() || !e.affectedComponents.empty(), "affected",
         QStringLiteral("Affected"));
    jump(!e.confirm.empty(), "confirm", QStringLiteral("Checklist"));
    jump(true, "root-cause", QStringLiteral("Root cause"));
    jump(!e.fixSteps.empty(), "fix", QStringLiteral("Fix"));
    jump(!e.examples.empty(), "examples", QStringLiteral("Examples"));
    jump(!e.faq.empty(), "faq", QStringLiteral("FAQ"));
    jump(!e.related.empty(), "related", QStringLiteral("Related"));
    jump(!e.references.empty(), "references", QStringLiteral("References"));
    h += QStringLiteral("<p class='small'>%1</p>").arg(jumps.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    h += QStringLiteral("<table width='100%' cellpadding='8' class='quick'><tr><td><b>Quick answer.</b> "
                        "%1</td></tr></table>")
             .arg(prose(e.quickAnswer));

    if (!e.mechanism.empty()) {
        h += section(QStringLiteral("Mechanism"), QStringLiteral("mechanism"));
        for (const QString& para : QString::fromStdString(e.mechanism).split(QStringLiteral("\n\n")))
            h += QStringLiteral("<p>%1</p>").arg(prose(para.toStdString()));
    }
    if (!e.observations.empty())
        h += section(QStringLiteral("What you'll observe"), QStringLiteral("observations")) +
             list(e.observations);

    if (!e.symptoms.empty()) {
        h += section(QStringLiteral("Symptoms in the logs"), QStringLiteral("symptoms"));
        for (const auto& s : e.symptoms) {
            QString badges = QStringLiteral("<span class='small'>%1</span>").arg(phaseName(s.phase));
            if (s.primary)
                badges += QStringLiteral(" <span class='badge'>&nbsp;primary&nbsp;</span>");
            if (s.fallback)
                badges += QStringLiteral(" <span class='badge'>&nbsp;fallback&nbsp;</span> <span "
                                         "class='small'>(makes the finding where no line in the bundle "
                                         "states a failure, from the top of its trail)</span>");
            if (!s.label.empty())
                badges +=
                    QStringLiteral(" <span class='small'>label <code>%1</code></span>").arg(esc(s.label));
            h += QStringLiteral("<h4>%1 &nbsp;%2</h4>").arg(esc(s.signal), badges);
            h += QStringLiteral("<p class='why'>%1</p>").arg(prose(s.why));
            for (const auto& fp : s.fingerprints)
                h += QStringLiteral("<p class='small'>pattern: <span class='re'>%1</span></p>")
                         .arg(esc(fp.pattern));
            h += QStringLiteral(
                "<p class='small'>example lines, as the software prints them (host names, pids "
                "and addresses may be stand-ins):</p>");
            for (const auto& sample : s.samples)
                h += mono(sample);
        }
    }

    if (!e.affectedComponents.empty() || !e.affectedVersions.empty() || !e.affectedSystems.empty()) {
        h += section(QStringLiteral("Affected"), QStringLiteral("affected"));
        h += list(e.affectedComponents);
        if (!e.affectedVersions.empty()) {
            h += QStringLiteral(
                "<table><tr><th>component</th><th>versions</th><th>fixed in</th><th></th></tr>");
            for (const auto& v : e.affectedVersions) {
                h += QStringLiteral(
                         "<tr><td><b>%1</b></td><td>%2</td><td>%3</td><td class='small'>%4</td></tr>")
                         .arg(esc(v.component), versionRange(v.range).toHtmlEscaped(),
                              v.fixedIn ? esc(v.fixedIn->toString()) : QStringLiteral("no fix"),
                              prose(v.note));
                // A bug of some releases inside the behaviour, with its own fix.
                for (const auto& b : v.bugs)
                    h += QStringLiteral(
                             "<tr><td></td><td>%1</td><td>%2</td><td class='small'>bug: %3</td></tr>")
                             .arg(versionRange(b.range).toHtmlEscaped(), esc(b.fixedIn.toString()),
                                  prose(b.what));
            }
            h += QStringLiteral("</table>");
        }
        if (!e.affectedSystems.empty())
            h += QStringLiteral("<p><b>Systems:</b> %1</p>").arg(prose(e.affectedSystems));
    }

    if (!e.confirm.empty()) {
        h += section(QStringLiteral("Confirmation checklist"), QStringLiteral("confirm"));
        h += QStringLiteral("<ol>");
        for (const auto& c : e.confirm)
            h += QStringLiteral("<li><b>%1</b><br><span class='why'>%2</span><br>"
                                "<span class='small'><i>If the logs do not say:</i> %3</span></li>")
                     .arg(prose(c.text), prose(c.why), prose(c.ifUnknown));
        h += QStringLiteral("</ol>");
    }

    h += section(QStringLiteral("Root cause"), QStringLiteral("root-cause"));
    h += QStringLiteral("<p>%1</p>").arg(prose(e.rootCause));
    if (!e.fixSteps.empty() || !e.verify.empty()) {
        h += section(QStringLiteral("Fix"), QStringLiteral("fix")) + list(e.fixSteps, true);
        if (!e.verify.empty())
            h += QStringLiteral("<p><b>Verify:</b></p>") + mono(e.verify, "code");
    }
    if (!e.prevention.empty())
        h += section(QStringLiteral("Prevention"), QStringLiteral("prevention")) + list(e.prevention);

    if (!e.examples.empty()) {
        h += section(QStringLiteral("Examples by stack"), QStringLiteral("examples"));
        for (const auto& x : e.examples) {
            h += QStringLiteral("<h4>%1</h4>").arg(esc(x.stack));
            h += mono(x.snippet, "code");
            h += QStringLiteral("<p class='why'>%1</p>").arg(prose(x.why));
        }
    }
    if (!e.faq.empty()) {
        h += section(QStringLiteral("FAQ"), QStringLiteral("faq"));
        for (const auto& f : e.faq)
            h += QStringLiteral("<p><b>%1</b><br>%2</p>").arg(prose(f.q), prose(f.a));
    }
    if (!e.related.empty()) {
        h += section(QStringLiteral("Related entries"), QStringLiteral("related")) + QStringLiteral("<ul>");
        for (const auto& id : e.related) {
            const Entry* r = enc.find(id);
            h += QStringLiteral("<li><a href=\"%1\">%2</a> <span class='small'>%3</span></li>")
                     .arg(entryLink(id).toHtmlEscaped(), r ? esc(r->title) : esc(id),
                          r ? layerName(r->category).toHtmlEscaped() : QString());
        }
        h += QStringLiteral("</ul>");
    }
    if (!e.references.empty()) {
        // Rankline opens no network connection: a reference is text; clicking its address copies it.
        h += section(QStringLiteral("References"), QStringLiteral("references")) +
             QStringLiteral("<p class='small'>Click an address to copy it; Rankline opens nothing itself.</p>"
                            "<ol>");
        for (std::size_t i = 0; i < e.references.size(); ++i)
            h += QStringLiteral("<li>%1<br><a href=\"rankline:copy/%2\"><span class='re'>%3</span></a></li>")
                     .arg(prose(e.references[i].title), QString::number(i), esc(e.references[i].url));
        h += QStringLiteral("</ol>");
    }
    return h;
}

} // namespace rl
