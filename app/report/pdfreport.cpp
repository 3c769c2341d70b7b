// The PDF export: the report as Qt rich text laid out on A4 or Letter pages, with the timeline
// painted by a text object straight into the page, so it stays vector (Qt's PDF engine would
// re-encode a raster picture as JPEG).
#include <QAbstractTextDocumentLayout>
#include <QFont>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextObjectInterface>

#include <cmath>

#include "report/reportexport.h"

namespace rl
{

namespace
{

constexpr int kTimelineObject = QTextFormat::UserObject + 1;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}
QString e(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QFont pictureFont(double pixelSize, bool bold = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(static_cast<int>(std::lround(pixelSize)));
    f.setBold(bold);
    f.setHintingPreference(QFont::PreferNoHinting);
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}

// Lays out the timeline object at the text width, keeping the picture's aspect ratio.
class TimelineObject final : public QObject, public QTextObjectInterface
{
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    explicit TimelineObject(const TimelinePicture& pic, QObject* parent) : QObject(parent), m_pic(pic) {}

    QSizeF intrinsicSize(QTextDocument* doc, int, const QTextFormat&) override
    {
        double w = doc->textWidth() - 2 * doc->documentMargin() - 4;
        return {w, w * m_pic.height / m_pic.width};
    }
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat&) override
    {
        paintTimeline(*painter, m_pic, rect);
    }

private:
    const TimelinePicture& m_pic;
};

QString statusCell(const std::string& status)
{
    if (status == "confirmed")
        return QStringLiteral("<span style='color:#1a7f37'>&#10004;&nbsp;confirmed</span>");
    if (status == "contradicted")
        return QStringLiteral("<span style='color:#b42318'>&#10008;&nbsp;contradicted</span>");
    return QStringLiteral("<span style='color:#5b6474'>?&nbsp;not&nbsp;evidenced</span>");
}

QString prose(const std::string& s)
{
    return QString::fromStdString(htmlProse(s));
}

QString logBlock(const std::string& text)
{
    return QStringLiteral(
               "<table width='100%' cellpadding='4' cellspacing='0' style='background-color:#f3f4f6'>"
               "<tr><td><span class='log'>%1</span></td></tr></table>")
        .arg(e(text).replace(QLatin1Char('\n'), QStringLiteral("<br>")));
}

QString evidence(const ReportLine& l)
{
    QString h = QStringLiteral("<p class='ev'><b>%1</b> &nbsp;<span class='mono'>%2%3</span> &nbsp;<span "
                               "class='muted'>%4%5</span></p>")
                    .arg(e(l.label.empty() ? "line" : l.label), e(lineRange(l)))
                    .arg(QString())
                    .arg(e(l.who), l.time.empty() ? QString() : QStringLiteral(" · ") + e(l.time));
    h += logBlock(l.text);
    if (!l.note.empty())
        h += QStringLiteral("<p class='note'>%1</p>").arg(e(l.note));
    return h;
}

QString tableHead(std::initializer_list<const char*> cols)
{
    QString h = QStringLiteral("<table width='100%' cellpadding='3' cellspacing='0' class='grid'><tr>");
    for (const char* c : cols)
        h += QStringLiteral("<th align='left'>%1</th>").arg(QString::fromUtf8(c));
    return h + QStringLiteral("</tr>");
}

// A table of many rows as tables of at most kRowsPerTable, each with the header again: Qt lays a
// text table out in time that grows with the square of its rows (a 10,000-file inventory took most
// of a 274-page export's 18 s), and a header on each printed stretch helps the reader too.
QString chunkedTable(std::initializer_list<const char*> cols, const QStringList& rows)
{
    constexpr qsizetype kRowsPerTable = 100;
    QString h;
    for (qsizetype i = 0; i < rows.size(); i += kRowsPerTable) {
        h += tableHead(cols);
        for (qsizetype j = i; j < rows.size() && j < i + kRowsPerTable; ++j)
            h += rows[j];
        h += QStringLiteral("</table>");
    }
    if (rows.isEmpty())
        h += tableHead(cols) + QStringLiteral("</table>");
    return h;
}

// Qt's rich text understands a subset of HTML and CSS; this is the report in that subset.
QString richText(const IncidentReport& r)
{
    QString h;
    h += QStringLiteral(
        "<style>"
        "h1{font-size:17pt; margin-top:2px; margin-bottom:4px}"
        "h2{font-size:12.5pt; margin-top:16px; margin-bottom:4px; color:#1d2330}"
        "h3{font-size:10.5pt; margin-top:10px; margin-bottom:3px}"
        "p{margin-top:3px; margin-bottom:3px}"
        ".kicker{color:#b42318; font-weight:bold; font-size:8pt}"
        ".muted{color:#5b6474}.note{color:#5b6474; font-size:8.5pt}"
        ".mono{font-family:'DejaVu Sans Mono'; font-size:8.5pt}"
        ".log{font-family:'DejaVu Sans Mono'; font-size:8pt; white-space:pre-wrap}"
        ".ev{margin-top:6px}"
        "th{color:#5b6474; font-weight:normal; font-size:8.5pt; border-bottom:1px solid #c8ccd2}"
        "td{font-size:9pt; border-bottom:1px solid #e3e6ea}"
        ".hash{font-family:'DejaVu Sans Mono'; font-size:7pt}"
        "code{font-family:'DejaVu Sans Mono'; font-size:8.5pt; background-color:#f3f4f6}"
        "</style>");
    h += QStringLiteral("<p class='kicker'>RANKLINE INCIDENT REPORT · %1</p><h1>%2</h1>")
             .arg(r.redacted ? QStringLiteral("REDACTED") : QStringLiteral("NOT REDACTED"), e(r.title));
    h += QStringLiteral(
             "<p class='muted'>Exported %1 by Rankline %2 · %3 files, %4 lines, %5 processes on %6 hosts"
             "%7</p>")
             .arg(e(r.exportedAt), e(r.ranklineVersion))
             .arg(r.files.size())
             .arg(r.totalLines)
             .arg(r.processCount)
             .arg(r.hostCount)
             .arg(r.redacted
                      ? QStringLiteral(
                            " · host names, addresses, user names and secrets replaced by pseudonyms")
                      : QStringLiteral(" · contains host names, addresses and anything else the logs hold"));
    h +=
        QStringLiteral("<table width='100%' cellpadding='8' cellspacing='0' style='background-color:#fff3f2; "
                       "margin-top:8px'><tr><td style='border-left:4px solid #b42318'>%1</td></tr></table>")
            .arg(e(r.verdict));

    if (r.hasFinding) {
        h += QStringLiteral("<h2>%1</h2><table cellpadding='1' cellspacing='0'>")
                 .arg(r.hasInitiating ? QStringLiteral("Initiating event")
                                      : QStringLiteral("Strongest finding"));
        auto fact = [&](const char* k, const QString& v) {
            h += QStringLiteral("<tr><td class='muted' style='border-bottom:none; padding-right:12px'>%1</td>"
                                "<td style='border-bottom:none'>%2</td></tr>")
                     .arg(QString::fromUtf8(k), v);
        };
        fact("Entry", e(r.entryTitle) + QStringLiteral(" <span class='mono'>[%1]</span>").arg(e(r.entry)));
        fact("Process", e(r.who));
        fact("Where", QStringLiteral("<span class='mono'>%1</span>").arg(e(r.where)));
        if (!r.time.empty())
            fact("Time", e(r.time) + QStringLiteral(" (as logged, UTC)"));
        fact("Role", QStringLiteral("%1, confidence %2").arg(e(r.role)).arg(r.confidence, 0, 'f', 2));
        if (!r.connectVerdict.empty())
            fact("First attempt", e(r.connectVerdict));
        h += QStringLiteral("</table><p>%1</p><p>%2</p><h3>Evidence</h3>")
                 .arg(e(r.summary), prose(r.quickAnswer));
        for (const auto& l : r.evidence)
            h += evidence(l);
        h += QStringLiteral("<h3>Context from %1</h3>").arg(e(r.who));
        h += QStringLiteral(
            "<table width='100%' cellpadding='1' cellspacing='0' style='background-color:#f3f4f6'>");
        for (const auto& l : r.context)
            h += QStringLiteral("<tr><td width='36' align='right' class='mono' style='border-bottom:none; "
                                "color:#5b6474'>%1</td><td style='border-bottom:none%3'><span "
                                "class='log'>%2</span></td></tr>")
                     .arg(l.line)
                     .arg(e(l.text), l.emphasis ? QStringLiteral("; background-color:#fde2e0") : QString());
        h += QStringLiteral("</table>");
    }

    h += QStringLiteral("<h2>Collateral</h2>");
    if (r.collateral.empty()) {
        h += QStringLiteral("<p>No collateral reports recognised.</p>");
    } else {
        h += QStringLiteral("<p>%1 other %2 reported failures that follow from the initiating one.</p>")
                 .arg(r.collateralProcesses)
                 .arg(r.collateralProcesses == 1 ? QStringLiteral("process") : QStringLiteral("processes"));
        h += tableHead({"What", "Processes", "Ranks", "Hosts", "Symptoms seen", "Points at"});
        for (const auto& c : r.collateral) {
            QStringList hosts, kinds;
            for (const auto& x : c.hosts)
                hosts << q(x);
            for (const auto& x : c.kinds)
                kinds << q(x);
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                     .arg(e(c.title))
                     .arg(c.processCount)
                     .arg(e(c.ranks), hosts.join(QStringLiteral(", ")).toHtmlEscaped(),
                          kinds.join(QStringLiteral("; ")).toHtmlEscaped(),
                          e(c.pointsAt.empty() ? c.pointsAtNote : c.pointsAt));
        }
        h += QStringLiteral("</table>");
        for (const auto& c : r.collateral)
            h += QStringLiteral("<h3>%1</h3><p>%2</p>").arg(e(c.title), e(c.summary)) + evidence(c.first);
    }

    h += QStringLiteral(
             "<h2>Timeline around the failure</h2><p>[[rankline-timeline]]</p><p class='note'>%1</p>")
             .arg(e(r.timeline.caption));

    if (r.hasFinding) {
        h += QStringLiteral(
            "<h2>Confirmation checklist</h2><table width='100%' cellpadding='3' cellspacing='0'>");
        for (const auto& c : r.checklist)
            h +=
                QStringLiteral(
                    "<tr><td width='118'>%1</td><td>%2<br><span class='note'>%3%4</span></td></tr>")
                    .arg(statusCell(c.status), prose(c.text), e(c.detail),
                         c.where.empty() ? QString()
                                         : QStringLiteral(" <span class='mono'>(%1)</span>").arg(e(c.where)));
        h += QStringLiteral("</table>");
        if (!r.alternatives.empty()) {
            h += QStringLiteral("<h2>Competing explanations</h2><ul>");
            for (const auto& x : r.alternatives)
                h += QStringLiteral("<li>%1%2<br><span class='note'>Would decide: %3</span></li>")
                         .arg(e(x.text),
                              x.where.empty()
                                  ? QString()
                                  : QStringLiteral(" <span class='mono'>(%1)</span>").arg(e(x.where)),
                              e(x.decider));
            h += QStringLiteral("</ul>");
        }
        h += QStringLiteral("<h2>Root cause</h2><p>%1</p><h2>Fix</h2><ol>").arg(prose(r.rootCause));
        for (const auto& s : r.fixSteps)
            h += QStringLiteral("<li>%1</li>").arg(prose(s));
        h += QStringLiteral("</ol>");
        if (!r.verify.empty())
            h += QStringLiteral("<h3>Verify</h3>") + logBlock(r.verify);
        if (!r.prevention.empty()) {
            h += QStringLiteral("<h3>Prevention</h3><ul>");
            for (const auto& s : r.prevention)
                h += QStringLiteral("<li>%1</li>").arg(prose(s));
            h += QStringLiteral("</ul>");
        }
        if (!r.references.empty()) {
            h += QStringLiteral("<h3>References</h3><ul>");
            for (const auto& ref : r.references)
                h += QStringLiteral("<li>%1 — <span class='mono'>%2</span></li>")
                         .arg(e(ref.title), e(ref.url));
            h += QStringLiteral("</ul>");
        }
    }

    h += QStringLiteral("<h2>NCCL versions</h2><p>%1</p>").arg(e(r.ncclVerdict));
    h += tableHead({"Source", "Version", "Ranks", "Where"});
    for (const auto& v : r.ncclLogs)
        h += QStringLiteral("<tr><td>logs</td><td>%1</td><td>%2</td><td class='mono'>%3</td></tr>")
                 .arg(e(v.version), e(v.ranks), e(v.where));
    for (const auto& v : r.ncclDumps)
        h += QStringLiteral("<tr><td>Flight Recorder</td><td>%1</td><td>%2</td><td class='mono'>%3</td></tr>")
                 .arg(e(v.version), e(v.ranks), e(v.where));
    for (const auto& v : r.ncclHints)
        h += QStringLiteral("<tr><td>inferred</td><td>%1</td><td>%2</td><td class='mono'>%3</td></tr>")
                 .arg(e(v.range), e(v.basis), e(v.where));
    if (r.ncclLogs.empty() && r.ncclDumps.empty() && r.ncclHints.empty())
        h += QStringLiteral("<tr><td>logs</td><td colspan='3'>no version in the logs</td></tr>");
    h +=
        QStringLiteral("<tr><td>this machine</td><td colspan='3'>%1</td></tr></table><p>Fix applies: %2</p>")
            .arg(e(r.ncclLocal), r.fixApplies ? (*r.fixApplies ? QStringLiteral("yes") : QStringLiteral("no"))
                                              : QStringLiteral("cannot tell from these logs"));

    h += QStringLiteral("<h2>Clock offsets</h2><p>%1</p>").arg(e(r.clockStatement));
    {
        QStringList rows;
        for (const auto& c : r.clocks)
            rows << QStringLiteral("<tr><td>%1</td><td>%2 µs</td><td>%3</td></tr>")
                        .arg(e(c.host))
                        .arg(c.offsetUs)
                        .arg(e(c.note));
        h += chunkedTable({"Host", "Offset applied", ""}, rows);
    }

    h += QStringLiteral(
             "<h2>Bundle inventory</h2><p>%1 files, %2 bytes, %3 lines. SHA-256 of each file's content "
             "as read (decompressed for .gz and archive members).</p>")
             .arg(r.files.size())
             .arg(r.totalBytes)
             .arg(r.totalLines);
    {
        // Every cell of a row in one font: Qt breaks a table's cells across pages line by line, so a
        // row whose cells' lines differ in height can leave its hash on one page and its file name
        // on the next.
        QStringList rows;
        for (const auto& f : r.files)
            rows << QStringLiteral("<tr><td class='hash'>%1</td><td class='hash' align='right'>%2</td><td "
                                   "class='hash' align='right'>%3</td><td class='hash'>%4</td><td "
                                   "class='hash'>%5</td></tr>")
                        .arg(e(f.path))
                        .arg(f.size)
                        .arg(f.lines)
                        .arg(e(f.processes), e(f.sha256));
        h += chunkedTable({"File", "Bytes", "Lines", "Ranks", "SHA-256"}, rows);
    }
    if (!r.dumps.empty()) {
        QStringList rows;
        for (const auto& f : r.dumps)
            rows << QStringLiteral("<tr><td class='hash'>%1</td><td class='hash' align='right'>%2</td><td "
                                   "class='hash'>%3</td><td class='hash'>%4</td></tr>")
                        .arg(e(f.path))
                        .arg(f.size)
                        .arg(e(f.processes), e(f.sha256));
        h += QStringLiteral("<h3>Flight Recorder dumps</h3>") +
             chunkedTable({"File", "Bytes", "Rank", "SHA-256"}, rows);
    }
    h += QStringLiteral("<h3>Skipped</h3>");
    if (r.skipped.empty()) {
        h += QStringLiteral("<p>Nothing was skipped.</p>");
    } else {
        h += tableHead({"File", "Why"});
        for (const auto& s : r.skipped)
            h += QStringLiteral("<tr><td class='mono'>%1</td><td>%2</td></tr>").arg(e(s.file), e(s.reason));
        h += QStringLiteral("</table>");
    }

    if (!r.redacted && !r.legend.empty()) {
        h += QStringLiteral(
            "<h2>Pseudonym legend</h2><p>This copy is not redacted. A redacted export of the same "
            "bundle uses these names:</p>");
        QStringList rows;
        for (const auto& p : r.legend)
            rows << QStringLiteral("<tr><td class='mono'>%1</td><td>%2</td><td class='mono'>%3</td></tr>")
                        .arg(e(p.pseudonym), QString::fromLatin1(pseudonymKindName(p.kind)),
                             e(p.kind == PseudonymKind::Secret ? maskSecret(p.original) : p.original));
        h += chunkedTable({"Pseudonym", "Kind", "Stands for"}, rows);
    }
    QStringList comps;
    for (const auto& [name, version] : r.components)
        comps << q(name) + QLatin1Char(' ') + q(version);
    h += QStringLiteral(
             "<p class='note' style='margin-top:18px'>Made by Rankline %1 on %2, offline: nothing was "
             "uploaded. Components: %3.</p>")
             .arg(e(r.ranklineVersion), e(r.exportedAt), comps.join(QStringLiteral(", ")).toHtmlEscaped());
    return h;
}

// Where the start of what follows a heading ends: the bottom of the first lines of a paragraph
// (a line pushed to the next page, such as the timeline, counts where it is drawn), or a little
// into a table.
double startOfNext(QTextDocument& doc, const QTextBlock& b, double pageH)
{
    QTextFrame* f = QTextCursor(b).currentFrame();
    if (!f || f == doc.rootFrame()) {
        const QTextLayout* l = b.layout();
        if (!l || l->lineCount() == 0)
            return doc.documentLayout()->blockBoundingRect(b).bottom();
        return l->position().y() + l->lineAt(std::min(2, l->lineCount() - 1)).rect().bottom();
    }
    while (f->parentFrame() && f->parentFrame() != doc.rootFrame())
        f = f->parentFrame();
    QRectF r = doc.documentLayout()->frameBoundingRect(f);
    return r.top() + std::min(r.height(), pageH * 0.06);
}

// Qt's rich text has no keep-with-next: a heading whose next block starts on the following page
// gets a page break before it instead.
void keepHeadingsWithNext(QTextDocument& doc)
{
    const double pageH = doc.pageSize().height();
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0 || !b.next().isValid() ||
            QTextCursor(b).currentFrame() != doc.rootFrame())
            continue;
        (void)doc.documentLayout()->documentSize(); // lays out whatever is still pending
        const double head = doc.documentLayout()->blockBoundingRect(b).top();
        const double next = startOfNext(doc, b.next(), pageH);
        if (std::floor(head / pageH) != std::floor((next - 1) / pageH)) {
            QTextBlockFormat fmt = b.blockFormat();
            fmt.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            QTextCursor(b).setBlockFormat(fmt);
        }
    }
}

} // namespace

void paintTimeline(QPainter& p, const TimelinePicture& pic, const QRectF& target)
{
    if (pic.width <= 0)
        return;
    p.save();
    p.translate(target.topLeft());
    const double s = target.width() / pic.width;
    p.scale(s, s);
    p.setRenderHint(QPainter::Antialiasing, true);
    const double fs = pic.fontSize;
    const QColor text(0x1d, 0x23, 0x30), muted(0x5b, 0x64, 0x74);
    p.fillRect(QRectF(0, 0, pic.width, pic.height), Qt::white);
    p.setPen(QPen(QColor(0xd9, 0xdd, 0xe3), 0.8));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(0, 0, pic.width, pic.height));
    auto baseline = [&](double cy) { return cy + fs * 0.35; };
    auto drawText = [&](double x, double cy, const std::string& str, bool right = false) {
        QString t = QString::fromStdString(str);
        if (right)
            x -= p.fontMetrics().horizontalAdvance(t);
        p.drawText(QPointF(x, baseline(cy)), t);
    };
    if (pic.empty) {
        p.setFont(pictureFont(fs));
        p.setPen(muted);
        drawText(8, pic.height / 2, pic.caption);
        p.restore();
        return;
    }
    for (const auto& lane : pic.lanes) {
        double cy = lane.y + pic.laneHeight / 2;
        if (lane.header) {
            p.fillRect(QRectF(0, lane.y, pic.width, pic.laneHeight), QColor(0xee, 0xf1, 0xf5));
            p.setFont(pictureFont(fs, true));
            p.setPen(text);
            drawText(6, cy, lane.label);
            continue;
        }
        if (lane.initiating)
            p.fillRect(QRectF(0, lane.y, pic.width, pic.laneHeight), QColor(0xfd, 0xe8, 0xe8));
        p.setFont(pictureFont(fs));
        p.setPen(text);
        drawText(18, cy, lane.label);
        QPen dots(QColor(0xb8, 0xbe, 0xc8), 0.8, Qt::CustomDashLine);
        dots.setDashPattern({1.25, 2.5});
        p.setPen(dots);
        p.drawLine(QPointF(pic.plotLeft, cy), QPointF(pic.plotRight, cy));
    }
    p.setFont(pictureFont(fs));
    p.setPen(muted);
    drawText(6, pic.plotTop / 2, pic.axisTitle);
    for (const auto& t : pic.ticks) {
        QPen pen(t.zero ? QColor(0xc8, 0x14, 0x1e) : QColor(0xc8, 0xcc, 0xd2), t.zero ? 1.0 : 0.8,
                 t.zero ? Qt::DashLine : Qt::SolidLine);
        p.setPen(pen);
        p.drawLine(QPointF(t.x, pic.plotTop - 5), QPointF(t.x, pic.plotBottom));
        p.setPen(t.zero ? QColor(0xb4, 0x23, 0x18) : text);
        drawText(t.x + 3, pic.plotTop / 2, t.label);
    }
    for (const auto& a : pic.arrows) {
        QColor c(QString::fromLatin1(markColor(a.kind)));
        if (a.dashed)
            c.setAlphaF(0.75);
        QPen pen(c, a.dashed ? 1.2 : 2.0, a.dashed ? Qt::CustomDashLine : Qt::SolidLine);
        if (a.dashed)
            pen.setDashPattern({4.0 / 1.2, 3.0 / 1.2});
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        QPainterPath path(QPointF(a.from.x, a.from.y));
        path.cubicTo(QPointF(a.c1.x, a.c1.y), QPointF(a.c2.x, a.c2.y), QPointF(a.to.x, a.to.y));
        p.drawPath(path);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawPolygon(QPolygonF({QPointF(a.head[0].x, a.head[0].y), QPointF(a.head[1].x, a.head[1].y),
                                 QPointF(a.head[2].x, a.head[2].y)}));
    }
    auto mark = [&](double x, double y, double r, PictureMarkKind kind, bool diamond) {
        QColor c(QString::fromLatin1(markColor(kind)));
        if (kind == PictureMarkKind::Unlogged) {
            p.setPen(QPen(c, 1.6));
            p.setBrush(Qt::white);
            p.drawEllipse(QPointF(x, y), r, r);
        } else if (diamond) {
            double d = r + 1;
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawPolygon(
                QPolygonF({QPointF(x, y - d), QPointF(x + d, y), QPointF(x, y + d), QPointF(x - d, y)}));
        } else {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawEllipse(QPointF(x, y), r, r);
        }
    };
    for (const auto& m : pic.marks)
        mark(m.x, m.y, m.r, m.kind, m.diamond);
    for (const auto& l : pic.labels) {
        p.setPen(l.kind == PictureMarkKind::Collateral ? QColor(0xa1, 0x5c, 0x00) : QColor(0x96, 0x14, 0x1e));
        drawText(l.x, l.y, l.text, l.align == TimelinePicture::Align::Right);
    }
    for (const auto& g : pic.legend) {
        mark(g.x, g.y, 4, g.kind, g.diamond);
        p.setPen(text);
        drawText(g.x + 9, g.y, g.text);
    }
    p.restore();
}

std::optional<Error> writeReportPdf(const IncidentReport& r, const QString& path, PaperSize paper)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{path.toStdString(), "cannot be written: " + file.errorString().toStdString(),
                     "choose a folder you can write to"};
    {
        QPdfWriter writer(&file);
        writer.setResolution(300);
        writer.setPageSize(QPageSize(paper == PaperSize::A4 ? QPageSize::A4 : QPageSize::Letter));
        writer.setPageMargins(QMarginsF(16, 14, 16, 16), QPageLayout::Millimeter);
        writer.setTitle(QStringLiteral("Incident report: %1").arg(q(r.title)));
        writer.setCreator(QStringLiteral("Rankline %1").arg(q(r.ranklineVersion)));

        QPainter painter;
        if (!painter.begin(&writer))
            return Error{path.toStdString(), "the PDF could not be started",
                         "check free disk space and try again"};
        const QRect page = writer.pageLayout().paintRectPixels(writer.resolution());
        const double footer = writer.resolution() * 0.30; // inches of room for the page footer

        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&writer);
        QFont base(QStringLiteral("DejaVu Sans"));
        base.setPointSizeF(9.5);
        // Without shaping Latin text gets no "fi" ligatures, so text copied from the PDF (and
        // pdftotext) reads as written.
        base.setStyleStrategy(QFont::PreferNoShaping);
        doc.setDefaultFont(base);
        QTextOption wrap;
        wrap.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        doc.setDefaultTextOption(wrap);
        doc.setDocumentMargin(0);
        auto* timeline = new TimelineObject(r.timeline, &doc);
        doc.documentLayout()->registerHandler(kTimelineObject, timeline);
        doc.setHtml(richText(r));
        // Put the picture where the placeholder paragraph stands, before the page size is set: an
        // object inserted into an already paginated document left the blocks after it unlaid.
        QTextCursor at = doc.find(QStringLiteral("[[rankline-timeline]]"));
        if (!at.isNull()) {
            QTextCharFormat obj;
            obj.setObjectType(kTimelineObject);
            at.insertText(QString(QChar::ObjectReplacementCharacter), obj);
        }
        doc.setPageSize(QSizeF(page.width(), page.height() - footer));
        keepHeadingsWithNext(doc);

        const int pages = doc.pageCount();
        const double pageH = doc.pageSize().height();
        QFont small(QStringLiteral("DejaVu Sans"));
        small.setPointSizeF(7.5);
        for (int i = 0; i < pages; ++i) {
            if (i > 0)
                writer.newPage();
            painter.save();
            painter.translate(0, -pageH * i);
            QAbstractTextDocumentLayout::PaintContext ctx;
            ctx.clip = QRectF(0, pageH * i, page.width(), pageH);
            painter.setClipRect(ctx.clip);
            doc.documentLayout()->draw(&painter, ctx);
            painter.restore();
            painter.setFont(small);
            painter.setPen(QColor(0x5b, 0x64, 0x74));
            QRectF foot(0, page.height() - footer * 0.6, page.width(), footer * 0.6);
            painter.drawText(
                foot, Qt::AlignLeft | Qt::AlignBottom,
                QStringLiteral("Rankline incident report%1 · %2")
                    .arg(r.redacted ? QStringLiteral(" (redacted)") : QString(), q(r.exportedAt)));
            painter.drawText(foot, Qt::AlignRight | Qt::AlignBottom,
                             QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
        }
        if (!painter.end())
            return Error{path.toStdString(), "the PDF could not be finished",
                         "check free disk space and try again"};
    }
    if (!file.commit())
        return Error{path.toStdString(), "cannot be written: " + file.errorString().toStdString(),
                     "choose a folder you can write to"};
    return std::nullopt;
}

} // namespace rl

#include "pdfreport.moc"
