// `rankline report` as users run it: golden HTML, Markdown and JSON for the sample incident, the
// PDF checked through poppler (pages, text, no raster images), and a hostile bundle whose lines
// carry markup, Markdown control characters, addresses and fake secrets.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace
{
const QString kTime = QStringLiteral("2025-06-12T15:00:00Z");

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QString& exe, const QStringList& args, const QByteArray& input = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("RANKLINE_REPORT_TIME"), kTime);
    p.setProcessEnvironment(env);
    p.start(exe, args);
    if (!input.isNull()) {
        p.write(input);
        p.closeWriteChannel();
    }
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

Run rankline(const QStringList& args, const QByteArray& input = {})
{
    return run(QStringLiteral(RANKLINE_EXE), args, input);
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Versions of Rankline and the libraries vary by build and machine, not by what the report says.
QString normalized(QString s)
{
    s.replace(QRegularExpression(QStringLiteral("Components: [^\\n]*")), QStringLiteral("Components: …"));
    s.replace(QRegularExpression(QStringLiteral("\"components\": \\[[^\\]]*\\]")),
              QStringLiteral("\"components\": []"));
    s.replace(QStringLiteral("Rankline " RANKLINE_VERSION), QStringLiteral("Rankline @VERSION@"));
    s.replace(QStringLiteral("\"rankline_version\": \"" RANKLINE_VERSION "\""),
              QStringLiteral("\"rankline_version\": \"@VERSION@\""));
    return s;
}

// Every tag in `html` is one of `allowed`, and none carries an event handler or a script URL.
void checkTags(const QString& html, const QStringList& allowed)
{
    static const QRegularExpression tag(QStringLiteral("<(/?)([A-Za-z!][A-Za-z0-9]*)([^>]*)>"));
    for (auto it = tag.globalMatch(html); it.hasNext();) {
        auto m = it.next();
        const QString name = m.captured(2).toLower();
        QVERIFY2(allowed.contains(name),
                 qPrintable(QStringLiteral("unexpected tag <%1> in %2").arg(name, m.captured(0))));
        const QString attrs = m.captured(3);
        QVERIFY2(!attrs.contains(QRegularExpression(QStringLiteral("\\son[a-z]+\\s*="),
                                                    QRegularExpression::CaseInsensitiveOption)),
                 qPrintable(m.captured(0)));
        QVERIFY2(!attrs.contains(QLatin1String("javascript:"), Qt::CaseInsensitive),
                 qPrintable(m.captured(0)));
    }
}

QString tool(const char* name)
{
    return QStandardPaths::findExecutable(QString::fromLatin1(name));
}
} // namespace

class TestReportExport : public QObject
{
    Q_OBJECT
    const QString sample = QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4");
    QTemporaryDir m_dir;
    QString m_hostile;

    // Lines a hostile or careless bundle may hold: markup, Markdown syntax, addresses, secrets.
    void writeHostileBundle()
    {
        m_hostile = m_dir.filePath(QStringLiteral("hostile"));
        QDir().mkpath(m_hostile + QStringLiteral("/node-7"));
        QDir().mkpath(m_hostile + QStringLiteral("/node-8"));
        auto write = [](const QString& path, const QByteArray& text) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write(
            m_hostile + QStringLiteral("/node-7/rank0.log"),
            "node-7:4242:4242 [0] NCCL INFO Bootstrap : Using eth0:192.168.17.42<0>\n"
            "node-7:4242:4242 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0x2 - Init "
            "START\n"
            "2025-06-12 14:03:10,000 INFO train.py:1 env HF_TOKEN=hf_FAKEfakeFAKEfakeFAKEfake0123456789 "
            "WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567 "
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
            "2025-06-12 14:03:10,001 INFO train.py:2 pulling "
            "https://alice:hunter2pass@registry.corp.internal/v2/ "
            "into /home/alice/job\n"
            "2025-06-12 14:03:10,002 INFO train.py:3 <script>alert('pwned')</script></table><img src=x "
            "onerror=alert(1)> **bold** _it_ [click](javascript:alert(1)) | a | b | `tick` ```fence``` # h1 "
            "@admin $x$ ~~gone~~ &amp;\n"
            "node-7:4242:4300 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
            "192.168.17.43<45763> "
            "failed : Software caused connection abort </td><script>x()</script>\n"
            "node-7:4242:4300 [0] NCCL INFO misc/socket.cc:564 -> 2\n"
            "2025-06-12 14:03:11,000 INFO train.py:4 Authorization: Bearer "
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl\n");
        write(m_hostile + QStringLiteral("/node-8/rank1.log"),
              "node-8:5151:5151 [1] NCCL INFO Bootstrap : Using eth0:192.168.17.43<0>\n"
              "node-8:5151:5151 [1] NCCL INFO comm 0x1 rank 1 nranks 2 cudaDev 1 busId 2000 commId 0x2 - "
              "Init START\n"
              "node-8:5151:5160 [1] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote "
              "peer "
              "node-7.corp.internal<51874>\n"
              "2025-06-12 14:03:12,000 INFO train.py:9 peer fe80::966d:ae03:a2:8cf0%ib1 user "
              "AKIAIOSFODNN7EXAMPLE\n");
        // A file name with Markdown and HTML in it reaches tables and code spans.
        write(m_hostile + QStringLiteral("/we*ird_[x]|y <b>`.log"), "plain line from 10.9.8.7 on node-8\n");
    }

    const QStringList kLeaks = {QStringLiteral("node-7"),
                                QStringLiteral("node-8"),
                                QStringLiteral("192.168.17"),
                                QStringLiteral("10.9.8.7"),
                                QStringLiteral("fe80::966d"),
                                QStringLiteral("hf_FAKE"),
                                QStringLiteral("0123456789abcdef0123456789abcdef01234567"),
                                QStringLiteral("wJalrXUtnFEMI"),
                                QStringLiteral("AKIAIOSFODNN7EXAMPLE"),
                                QStringLiteral("hunter2pass"),
                                QStringLiteral("eyJhbGci"),
                                QStringLiteral("alice"),
                                QStringLiteral("corp.internal")};

    void checkNoLeak(const QString& what, const QString& text)
    {
        for (const auto& leak : kLeaks)
            QVERIFY2(!text.contains(leak, Qt::CaseInsensitive),
                     qPrintable(QStringLiteral("%1 leaks %2").arg(what, leak)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeHostileBundle();
    }

    void golden_data()
    {
        QTest::addColumn<QString>("ext");
        QTest::newRow("html") << QStringLiteral("html");
        QTest::newRow("markdown") << QStringLiteral("md");
        QTest::newRow("json") << QStringLiteral("json");
    }

    // Regenerate with tests/update-golden.sh after an intended change, and review the diff.
    void golden()
    {
        QFETCH(QString, ext);
        const QString out = m_dir.filePath(QStringLiteral("sample-report.") + ext);
        Run r = rankline(
            {QStringLiteral("report"), sample, QStringLiteral("--no-local-nccl"), QStringLiteral("-o"), out});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString actual = normalized(QString::fromUtf8(readFile(out)));
        const QString golden = normalized(QString::fromUtf8(
            readFile(QStringLiteral(RANKLINE_TEST_DATA_DIR "/golden/sample-report.") + ext)));
        QVERIFY2(!golden.isEmpty(), "golden file missing: run tests/update-golden.sh");
        if (actual != golden) {
            const QString keep = QStringLiteral(RANKLINE_BUILD_DIR "/sample-report.actual.") + ext;
            QFile::remove(keep);
            QFile::copy(out, keep);
            QFAIL(qPrintable(
                QStringLiteral("%1 differs from tests/data/golden/sample-report.%2 (actual kept at %1); "
                               "if intended, run tests/update-golden.sh")
                    .arg(keep, ext)));
        }
    }

    void formatFromOptionAndStdout()
    {
        Run r = rankline({QStringLiteral("report"), sample, QStringLiteral("--no-local-nccl"),
                          QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"),
                          QStringLiteral("-")});
        QCOMPARE(r.code, 0);
        json j = json::parse(r.out.toStdString());
        QCOMPARE(j["report"]["exported_at"].get<std::string>(), kTime.toStdString());
        QCOMPARE(j["initiating"]["rank"].get<int>(), 5);
    }

    void usageAndWriteErrors()
    {
        QCOMPARE(rankline({QStringLiteral("report"), sample}).code, 2); // no -o
        Run ext = rankline({QStringLiteral("report"), sample, QStringLiteral("-o"),
                            m_dir.filePath(QStringLiteral("x.docx"))});
        QCOMPARE(ext.code, 2);
        QVERIFY(ext.err.contains("x.docx"));
        Run pdfOut = rankline({QStringLiteral("report"), sample, QStringLiteral("-o"), QStringLiteral("-"),
                               QStringLiteral("--format"), QStringLiteral("pdf")});
        QCOMPARE(pdfOut.code, 2);
        // One message: the file, the cause, what to do.
        Run denied = rankline({QStringLiteral("report"), sample, QStringLiteral("--no-local-nccl"),
                               QStringLiteral("-o"), QStringLiteral("/nonexistent-dir/r.html")});
        QCOMPARE(denied.code, 1);
        QVERIFY(denied.err.contains("/nonexistent-dir/r.html"));
        QVERIFY(denied.err.contains("cannot be written"));
        QVERIFY(denied.err.contains("choose a folder"));
    }

    // A traceback piped in (kubectl logs pod | rankline report - -o ...).
    void standardInput()
    {
        const QString out = m_dir.filePath(QStringLiteral("stdin.md"));
        Run r = rankline(
            {QStringLiteral("report"), QStringLiteral("-"), QStringLiteral("--no-local-nccl"),
             QStringLiteral("-o"), out},
            "`socketStartConnect: Connect to 10.45.234.83<47527> failed : Software caused connection "
            "abort`\n");
        QCOMPARE(r.code, 0);
        const QString md = QString::fromUtf8(readFile(out));
        QVERIFY(md.contains(QStringLiteral("nccl-socket-connect-abort")));
        QVERIFY(!md.contains(QStringLiteral("10.45.234.83")));
        QVERIFY(md.contains(QStringLiteral("ip-1")));
    }

    void pdf_data()
    {
        QTest::addColumn<QString>("paper");
        QTest::addColumn<QString>("size");
        QTest::newRow("A4") << QStringLiteral("a4") << QStringLiteral("595 x 842 pts (A4)");
        QTest::newRow("Letter") << QStringLiteral("letter") << QStringLiteral("612 x 792 pts (letter)");
    }

    void pdf()
    {
        QFETCH(QString, paper);
        QFETCH(QString, size);
        if (tool("pdfinfo").isEmpty() || tool("pdftotext").isEmpty() || tool("pdftoppm").isEmpty())
            QSKIP("poppler-utils (pdfinfo, pdftotext, pdftoppm) not installed");
        const QString out = m_dir.filePath(QStringLiteral("sample-%1.pdf").arg(paper));
        // No display, no platform set: the command must pick the offscreen platform itself.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("RANKLINE_REPORT_TIME"), kTime);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(RANKLINE_EXE),
                {QStringLiteral("report"), sample, QStringLiteral("--no-local-nccl"),
                 QStringLiteral("--paper"), paper, QStringLiteral("-o"), out});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());

        Run info = run(tool("pdfinfo"), {out});
        QVERIFY(info.out.contains(size.toUtf8()));
        auto pages =
            QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(QString::fromUtf8(info.out));
        QVERIFY(pages.hasMatch());
        const int n = pages.captured(1).toInt();
        QVERIFY2(n >= 3 && n <= 8, qPrintable(QStringLiteral("%1 pages").arg(n)));

        Run text = run(tool("pdftotext"), {out, QStringLiteral("-")});
        const QString t = QString::fromUtf8(text.out);
        for (const char* s :
             {"NCCL connect failure masked as 'Software caused connection abort'", "Initiating event",
              "earliest-connect-failure, aborted-retry", "Context from rank 5 (host-2:39962)",
              "Timeline around the failure", "first attempt (not logged)", "Confirmation checklist",
              "Root cause", "Fix", "Verify", "Prevention", "NCCL versions", "2.18.3", "reference clock",
              "Bundle inventory", "3643845462e07f9af49c0d95eac8312825e9dafcd7a96afd5420c59fc7471c89",
              "page 1 of"})
            QVERIFY2(t.contains(QLatin1String(s)), s);
        for (const char* leak : {"gpu-a", "gpu-b", "10.0.0.11"})
            QVERIFY2(!t.contains(QLatin1String(leak)), leak);

        // The timeline is vector: the PDF holds no raster image at all.
        if (!tool("pdfimages").isEmpty()) {
            Run images = run(tool("pdfimages"), {QStringLiteral("-list"), out});
            QCOMPARE(images.out.trimmed().split('\n').size(), 2); // the two header lines only
        }
        // And every page renders.
        const QString prefix = m_dir.filePath(QStringLiteral("page-") + paper);
        Run png = run(tool("pdftoppm"),
                      {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("30"), out, prefix});
        QCOMPARE(png.code, 0);
        QCOMPARE(
            QDir(m_dir.path()).entryList({QStringLiteral("page-") + paper + QStringLiteral("*.png")}).size(),
            n);
    }

    // A bundle of many files: the inventory is printed in stretches of 100 rows, each with its
    // header, and no file is lost between them.
    void pdfLongInventory()
    {
        if (tool("pdftotext").isEmpty())
            QSKIP("poppler-utils (pdftotext) not installed");
        QTemporaryDir bundle;
        QVERIFY(bundle.isValid());
        for (int r = 0; r < 230; ++r) {
            QFile f(bundle.filePath(QStringLiteral("rank%1.log").arg(r, 3, 10, QLatin1Char('0'))));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.write(QStringLiteral("2025-06-12 10:00:00,000 INFO train.py:5 [rank%1] step 1\n")
                                .arg(r)
                                .toUtf8()) > 0);
        }
        const QString out = m_dir.filePath(QStringLiteral("many-files.pdf"));
        Run made = rankline({QStringLiteral("report"), bundle.path(), QStringLiteral("--no-local-nccl"),
                             QStringLiteral("-o"), out});
        QVERIFY2(made.code == 0, made.err.constData());
        const QString t = QString::fromUtf8(run(tool("pdftotext"), {out, QStringLiteral("-")}).out);
        for (int r = 0; r < 230; ++r) {
            const QString name = QStringLiteral("rank%1.log").arg(r, 3, 10, QLatin1Char('0'));
            QVERIFY2(t.contains(name), qPrintable(name));
        }
        const qsizetype inventory = t.indexOf(QStringLiteral("Bundle inventory"));
        QVERIFY(inventory >= 0);
        QCOMPARE(t.mid(inventory).count(QStringLiteral("SHA-256\n")), 3); // rows 1–100, 101–200, 201–230
        // Each file's hash on its own row, wherever a page breaks the table.
        const QString laid = QString::fromUtf8(
            run(tool("pdftotext"), {QStringLiteral("-layout"), out, QStringLiteral("-")}).out);
        QCOMPARE(laid.count(QRegularExpression(
                     QStringLiteral("rank\\d{3}\\.log +\\d+ +1 +(\\d+ +)?[0-9a-f]{64}\n"))),
                 230);
    }

    // Flight Recorder dumps in the PDF: the version row, and the dumps in the inventory with their
    // hashes. With two more logs beside the fixture, a page break falls inside the inventory where
    // (with this machine's fonts) a row whose cells' fonts differ was split, its hash left on the
    // page before: no row is split.
    void pdfFlightRecorder()
    {
        if (tool("pdftotext").isEmpty())
            QSKIP("poppler-utils (pdftotext) not installed");
        QTemporaryDir bundle;
        QVERIFY(bundle.isValid());
        const QDir fixture(QStringLiteral(RANKLINE_TEST_DATA_DIR "/flight-recorder/connect-abort-hang"));
        for (const QString& name : fixture.entryList(QDir::Files))
            QVERIFY(QFile::copy(fixture.filePath(name), bundle.filePath(name)));
        for (int r = 4; r < 6; ++r) {
            QFile f(bundle.filePath(QStringLiteral("extra%1.log").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(
                f.write(QStringLiteral("[rank%1]:[I1206 21:30:01.102331000 ProcessGroupNCCL.cpp:2213] x\n")
                            .arg(r)
                            .toUtf8()) > 0);
        }
        const QString out = m_dir.filePath(QStringLiteral("flight.pdf"));
        Run made = rankline({QStringLiteral("report"), bundle.path(), QStringLiteral("--no-local-nccl"),
                             QStringLiteral("-o"), out});
        QVERIFY2(made.code == 0, made.err.constData());
        const QString t = QString::fromUtf8(
            run(tool("pdftotext"), {QStringLiteral("-layout"), out, QStringLiteral("-")}).out);
        QVERIFY2(t.contains(QRegularExpression(
                     QStringLiteral("Flight Recorder +2\\.21\\.5 +0–3 +nccl_trace_rank_0"))),
                 qPrintable(t));
        QVERIFY(t.contains(QStringLiteral("the Flight Recorder dumps say the job ran NCCL 2.21.5")));
        QCOMPARE(t.count(QRegularExpression(
                     QStringLiteral("\n\f? *(rank|extra)\\d\\.log +\\d+ +\\d +\\d +[0-9a-f]{64}\n"))),
                 6);
        QCOMPARE(t.count(QRegularExpression(
                     QStringLiteral("\n\f? *nccl_trace_rank_\\d +1752 +\\d +[0-9a-f]{64}\n"))),
                 4);
    }

    // Nothing from the hostile lines runs, renders as markup, or leaks, in any format.
    void hostileBundle()
    {
        QMap<QString, QString> outputs;
        for (const char* ext : {"html", "md", "json", "pdf"}) {
            if (QLatin1String(ext) == QLatin1String("pdf") && tool("pdftotext").isEmpty())
                continue;
            const QString out = m_dir.filePath(QStringLiteral("hostile.") + QLatin1String(ext));
            Run r = rankline({QStringLiteral("report"), m_hostile, QStringLiteral("--no-local-nccl"),
                              QStringLiteral("-o"), out});
            QVERIFY2(r.code == 0, r.err.constData());
            outputs[QLatin1String(ext)] =
                QLatin1String(ext) == QLatin1String("pdf")
                    ? QString::fromUtf8(run(tool("pdftotext"), {out, QStringLiteral("-")}).out)
                    : QString::fromUtf8(readFile(out));
        }
        for (auto it = outputs.cbegin(); it != outputs.cend(); ++it)
            checkNoLeak(it.key(), it.value());

        // The finding survives redaction and still reads.
        const QString html = outputs[QStringLiteral("html")];
        QVERIFY(html.contains(QStringLiteral("nccl-socket-connect-abort")));
        QVERIFY(html.contains(QStringLiteral("rank 0 (host-1:4242)")));
        QVERIFY(html.contains(QStringLiteral("secret-1")));

        // HTML: the log's markup is text; every tag is one the report writes itself.
        QVERIFY(html.contains(
            QStringLiteral("&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;&lt;/table&gt;")));
        QVERIFY(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
        checkTags(html, {QStringLiteral("!doctype"), QStringLiteral("html"),   QStringLiteral("head"),
                         QStringLiteral("meta"),     QStringLiteral("title"),  QStringLiteral("style"),
                         QStringLiteral("body"),     QStringLiteral("main"),   QStringLiteral("header"),
                         QStringLiteral("section"),  QStringLiteral("footer"), QStringLiteral("h1"),
                         QStringLiteral("h2"),       QStringLiteral("h3"),     QStringLiteral("p"),
                         QStringLiteral("dl"),       QStringLiteral("dt"),     QStringLiteral("dd"),
                         QStringLiteral("span"),     QStringLiteral("div"),    QStringLiteral("pre"),
                         QStringLiteral("code"),     QStringLiteral("table"),  QStringLiteral("thead"),
                         QStringLiteral("tbody"),    QStringLiteral("tr"),     QStringLiteral("th"),
                         QStringLiteral("td"),       QStringLiteral("ul"),     QStringLiteral("ol"),
                         QStringLiteral("li"),       QStringLiteral("figure"), QStringLiteral("figcaption"),
                         QStringLiteral("svg"),      QStringLiteral("rect"),   QStringLiteral("text"),
                         QStringLiteral("line"),     QStringLiteral("path"),   QStringLiteral("polygon"),
                         QStringLiteral("circle")});
        QCOMPARE(html.count(QStringLiteral("<table")), html.count(QStringLiteral("</table>")));

        // Markdown: rendered the way GitHub does (raw HTML allowed), the log stays text.
        if (tool("cmark-gfm").isEmpty())
            QSKIP("cmark-gfm not installed: the rendered-Markdown checks are skipped");
        Run rendered = run(tool("cmark-gfm"),
                           {QStringLiteral("--unsafe"), QStringLiteral("-e"), QStringLiteral("table"),
                            QStringLiteral("-e"), QStringLiteral("autolink"), QStringLiteral("-e"),
                            QStringLiteral("strikethrough"), QStringLiteral("-e"), QStringLiteral("tasklist"),
                            m_dir.filePath(QStringLiteral("hostile.md"))});
        QCOMPARE(rendered.code, 0);
        const QString mdHtml = QString::fromUtf8(rendered.out);
        QVERIFY(mdHtml.contains(QStringLiteral("&lt;script&gt;alert('pwned')&lt;/script&gt;&lt;/table&gt;")));
        QVERIFY(mdHtml.contains(QStringLiteral("we*ird_[x]|y &lt;b&gt;`.log")));
        checkTags(mdHtml, {QStringLiteral("h1"),    QStringLiteral("h2"),         QStringLiteral("h3"),
                           QStringLiteral("p"),     QStringLiteral("blockquote"), QStringLiteral("strong"),
                           QStringLiteral("em"),    QStringLiteral("code"),       QStringLiteral("pre"),
                           QStringLiteral("table"), QStringLiteral("thead"),      QStringLiteral("tbody"),
                           QStringLiteral("tr"),    QStringLiteral("th"),         QStringLiteral("td"),
                           QStringLiteral("ul"),    QStringLiteral("ol"),         QStringLiteral("li"),
                           QStringLiteral("a"),     QStringLiteral("hr"),         QStringLiteral("input"),
                           QStringLiteral("br")});
        // Links only where the report makes them (its references), never from log text.
        for (auto it = QRegularExpression(QStringLiteral("<a href=\"([^\"]*)\"")).globalMatch(mdHtml);
             it.hasNext();)
            QVERIFY(it.next().captured(1).startsWith(QStringLiteral("https://")));
    }

    // Without redaction the text is as logged and the legend says what the redacted copy calls it;
    // secrets are never repeated whole in the legend.
    void unredactedLegend()
    {
        const QString out = m_dir.filePath(QStringLiteral("hostile-plain.md"));
        Run r = rankline({QStringLiteral("report"), m_hostile, QStringLiteral("--no-local-nccl"),
                          QStringLiteral("--no-redact"), QStringLiteral("-o"), out});
        QCOMPARE(r.code, 0);
        const QString md = QString::fromUtf8(readFile(out));
        QVERIFY(md.contains(QStringLiteral("node-7")));
        QVERIFY(md.contains(QStringLiteral("## Pseudonym legend")));
        QVERIFY(md.contains(QStringLiteral("| `host-1` | host | `node-7` |")));
        const QString legend = md.mid(md.indexOf(QStringLiteral("## Pseudonym legend")));
        QVERIFY(!legend.contains(QStringLiteral("hf_FAKEfakeFAKEfakeFAKEfake0123456789")));
        QVERIFY(legend.contains(QStringLiteral("characters)")));
    }
};

QTEST_GUILESS_MAIN(TestReportExport)
#include "tst_reportexport.moc"
