#include "report/reportcommand.h"

#include <QCommandLineParser>

#include <cstdio>

#include "cli/common.h"
#include "report/reportexport.h"

namespace rl
{

namespace
{

void printQt(const QString& s)
{
    cli::printErr(s.toLocal8Bit().toStdString());
}

} // namespace

// The format a `report` command line asks for: --format, else the output's extension.
std::optional<ReportFormat> requestedReportFormat(const QStringList& args, QString* output)
{
    QString out, format;
    for (qsizetype i = 2; i < args.size(); ++i) {
        const QString& a = args.at(i);
        if ((a == QLatin1String("-o") || a == QLatin1String("--output")) && i + 1 < args.size())
            out = args.at(++i);
        else if (a.startsWith(QLatin1String("--output=")))
            out = a.mid(9);
        else if (a.startsWith(QLatin1String("-o")) && a.size() > 2)
            out = a.mid(2);
        else if (a == QLatin1String("--format") && i + 1 < args.size())
            format = args.at(++i);
        else if (a.startsWith(QLatin1String("--format=")))
            format = a.mid(9);
    }
    if (output)
        *output = out;
    return reportFormatFromName((format.isEmpty() ? out : format).toStdString());
}

int runReport(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Write an incident report: verdict, initiating event and evidence, collateral, timeline, "
        "checklist, competing explanations, fix, NCCL versions, clocks and the bundle inventory. Host "
        "names, addresses, user names and secrets are replaced by pseudonyms unless --no-redact is given."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("report"), QStringLiteral("the sub-command"));
    p.addPositionalArgument(QStringLiteral("paths"),
                            QStringLiteral("Log files, folders or archives; - reads standard input (a log, "
                                           "or a compressed log or archive)."),
                            QStringLiteral("PATH..."));
    QCommandLineOption out(
        {QStringLiteral("o"), QStringLiteral("output")},
        QStringLiteral("Write to FILE (.html, .pdf, .md or .json); - writes HTML, Markdown or "
                       "JSON to standard output."),
        QStringLiteral("FILE"));
    QCommandLineOption format(QStringLiteral("format"),
                              QStringLiteral("html, pdf, md or json (default: from the file's extension)."),
                              QStringLiteral("FORMAT"));
    QCommandLineOption noRedact(
        QStringLiteral("no-redact"),
        QStringLiteral("Keep host names, addresses, user names and secrets as logged; the "
                       "report then lists the pseudonyms a redacted copy uses."));
    QCommandLineOption paper(QStringLiteral("paper"),
                             QStringLiteral("PDF paper size: a4 (default) or letter."),
                             QStringLiteral("SIZE"), QStringLiteral("a4"));
    QCommandLineOption time(
        QStringLiteral("time"),
        QStringLiteral("Export time to print, ISO 8601 (default: $RANKLINE_REPORT_TIME or now)."),
        QStringLiteral("TIME"));
    QCommandLineOption noProbe(QStringLiteral("no-local-nccl"),
                               QStringLiteral("Do not look for this machine's libnccl.so.2."));
    QCommandLineOption lib(QStringLiteral("nccl-lib"),
                           QStringLiteral("Probe this NCCL library instead of libnccl.so.2."),
                           QStringLiteral("path"));
    p.addOptions({out, format, noRedact, paper, time, noProbe, lib});
    p.process(args);
    const QString usage =
        QStringLiteral("usage: rankline report PATH... -o OUT.{html,pdf,md,json} [--format F] "
                       "[--no-redact] [--paper a4|letter]");
    std::vector<std::string> paths;
    for (const QString& path : p.positionalArguments().mid(1))
        paths.push_back(path.toLocal8Bit().toStdString());
    if (paths.empty() || !p.isSet(out)) {
        printQt(QStringLiteral("rankline report: %1\n%2")
                    .arg(paths.empty() ? QStringLiteral("no PATH given") : QStringLiteral("no -o OUT given"),
                         usage));
        return 2;
    }
    const QString output = p.value(out);
    auto fmt = reportFormatFromName((p.isSet(format) ? p.value(format) : output).toStdString());
    if (!fmt) {
        printQt(
            QStringLiteral("rankline report: cannot tell the format of %1 (use a .html, .pdf, .md or .json "
                           "name, or --format)\n%2")
                .arg(p.isSet(format) ? p.value(format) : output, usage));
        return 2;
    }
    if (*fmt == ReportFormat::Pdf && output == QLatin1String("-")) {
        printQt(QStringLiteral("rankline report: a PDF cannot go to standard output; give a file name"));
        return 2;
    }
    const QString paperName = p.value(paper).toLower();
    if (paperName != QLatin1String("a4") && paperName != QLatin1String("letter")) {
        printQt(QStringLiteral("rankline report: unknown paper size %1 (a4 or letter)").arg(p.value(paper)));
        return 2;
    }
    auto enc = cli::loadEntries();
    if (!enc)
        return 3;
    AnalyzeOptions opts;
    opts.probeLocalNccl = !p.isSet(noProbe);
    if (p.isSet(lib))
        opts.ncclLibrary = p.value(lib).toStdString();
    Bundle bundle;
    if (!cli::readInputs("rankline report", paths, opts, bundle))
        return 1;
    const std::vector<Skipped> said = bundle.skipped;
    auto analysis = analyze(std::move(bundle), enc, opts, cli::terminalProgress());
    if (!cli::sayWhatWasSkipped("rankline report", *analysis, said))
        return 1;

    ExportRequest req;
    req.path = output;
    req.format = *fmt;
    req.redact = !p.isSet(noRedact);
    req.paper = paperName == QLatin1String("letter") ? PaperSize::Letter : PaperSize::A4;
    req.exportTime = p.value(time);
    if (output == QLatin1String("-")) {
        QByteArray bytes = renderReport(*analysis, req);
        std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
        return 0;
    }
    if (auto err = exportReport(*analysis, req)) {
        printQt(QStringLiteral("rankline report: %1").arg(QString::fromStdString(err->message())));
        return 1;
    }
    printQt(QStringLiteral("rankline report: wrote %1 (%2%3)")
                .arg(output, QString::fromLatin1(reportFormatName(*fmt)),
                     req.redact ? QStringLiteral(", redacted") : QStringLiteral(", not redacted")));
    return 0;
}

} // namespace rl
