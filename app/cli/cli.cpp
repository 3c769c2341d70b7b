#include "cli/cli.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <iostream>
#include <unistd.h>

#include "analysis.h"
#include "bundle/bundle.h"
#include "probe/local_facts.h"
#include "probe/nccl_probe.h"
#include "probe/socket_retry.h"
#include "report/diagnosis_report.h"
#include "report/probe_report.h"
#include "report/reportexport.h"

namespace rl::cli
{

namespace
{

void printErr(const QString& s)
{
    std::fprintf(stderr, "%s\n", s.toLocal8Bit().constData());
}

std::shared_ptr<const Encyclopedia> loadEntries(Expected<Encyclopedia> enc);

std::shared_ptr<const Encyclopedia> loadEntries()
{
    return loadEntries(loadEncyclopedia(resourcesDir() + "/encyclopedia"));
}

// Loading the encyclopedia (parsing, compiling and self-checking every entry) takes as long as
// diagnosing a small bundle: start it while the bundle is read, and collect it with loadEntries.
std::future<Expected<Encyclopedia>> startLoadingEntries()
{
    return std::async(std::launch::async, [] { return loadEncyclopedia(resourcesDir() + "/encyclopedia"); });
}

std::shared_ptr<const Encyclopedia> loadEntries(Expected<Encyclopedia> enc)
{
    if (!enc) {
        printErr(QStringLiteral("rankline: cannot load the encyclopedia: %1")
                     .arg(QString::fromStdString(enc.error().message())));
        return nullptr;
    }
    return std::make_shared<const Encyclopedia>(std::move(*enc));
}

// A progress bar on stderr, only when stderr is a terminal.
ProgressSink terminalProgress()
{
    ProgressSink sink;
    if (::isatty(STDERR_FILENO)) {
        sink.report = [](const Progress& pr) {
            if (pr.stage == "done") {
                std::fprintf(stderr, "\r%78s\r", "");
                std::fflush(stderr);
                return;
            }
            int pct = pr.bytesTotal ? static_cast<int>(pr.bytesDone * 100 / pr.bytesTotal) : 100;
            std::string bar(static_cast<std::size_t>(pct / 4), '#');
            std::fprintf(stderr, "\r%-10s [%-25s] %3d%%  %llu/%llu files  %llu MB  %llu lines",
                         pr.stage.c_str(), bar.c_str(), pct, static_cast<unsigned long long>(pr.filesDone),
                         static_cast<unsigned long long>(pr.filesTotal),
                         static_cast<unsigned long long>(pr.bytesDone >> 20),
                         static_cast<unsigned long long>(pr.lines));
            std::fflush(stderr);
        };
    }
    return sink;
}

// Reads PATHs (and standard input for "-") into one bundle; says on stderr what was skipped.
// Returns false, having said why, when nothing could be read.
bool readInputs(const char* command, const QStringList& paths, const AnalyzeOptions& opts, Bundle& bundle)
{
    std::vector<std::string> files;
    for (const auto& path : paths) {
        if (path == QLatin1String("-")) {
            std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
            bundle.sources.push_back(sourceFromText("<stdin>", std::move(text)));
        } else {
            files.push_back(path.toStdString());
        }
    }
    if (!files.empty()) {
        Bundle read = readBundle(files, opts.limits);
        for (auto& s : read.sources)
            bundle.sources.push_back(std::move(s));
        for (auto& s : read.skipped)
            bundle.skipped.push_back(std::move(s));
    }
    for (std::size_t i = 0; i < bundle.sources.size(); ++i)
        bundle.sources[i].id = SourceId(static_cast<std::uint32_t>(i));
    for (const auto& s : bundle.skipped)
        printErr(QStringLiteral("rankline: skipped %1: %2")
                     .arg(QString::fromStdString(s.file), QString::fromStdString(s.reason)));
    if (bundle.sources.empty()) {
        printErr(
            QStringLiteral("%1: nothing could be read from the given paths").arg(QLatin1String(command)));
        return false;
    }
    return true;
}

int diagnose(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Diagnose a failed distributed-training job from its logs."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("diagnose"), QStringLiteral("the sub-command"));
    p.addPositionalArgument(QStringLiteral("paths"),
                            QStringLiteral("Log files, folders or archives; - reads standard input."),
                            QStringLiteral("PATH..."));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object on stdout."));
    QCommandLineOption noProbe(QStringLiteral("no-local-nccl"),
                               QStringLiteral("Do not look for this machine's libnccl.so.2."));
    QCommandLineOption lib(QStringLiteral("nccl-lib"),
                           QStringLiteral("Probe this NCCL library instead of libnccl.so.2."),
                           QStringLiteral("path"));
    QCommandLineOption allAttempts(
        QStringLiteral("all-attempts"),
        QStringLiteral("torchrun log trees: diagnose every attempt, not only the latest."));
    QCommandLineOption clockOffset(
        QStringLiteral("clock-offset"),
        QStringLiteral("Shift HOST's clock by SECONDS (repeatable); overrides the estimate."),
        QStringLiteral("HOST=SECONDS"));
    QCommandLineOption timings(QStringLiteral("timings"),
                               QStringLiteral("Print the wall time of each stage on standard error."));
    p.addOptions({json, noProbe, lib, allAttempts, clockOffset, timings});
    p.process(args);
    QStringList paths = p.positionalArguments().mid(1);
    if (paths.isEmpty()) {
        printErr(
            QStringLiteral("rankline diagnose: no PATH given\nusage: rankline diagnose PATH... [--json]"));
        return 2;
    }
    auto loading = startLoadingEntries();
    AnalyzeOptions opts;
    opts.probeLocalNccl = !p.isSet(noProbe);
    if (p.isSet(lib))
        opts.ncclLibrary = p.value(lib).toStdString();
    opts.allAttempts = p.isSet(allAttempts);
    opts.mergedOrder = false; // neither the JSON nor the text lists lines in merged order
    for (const QString& v : p.values(clockOffset)) {
        const qsizetype eq = v.lastIndexOf(QLatin1Char('='));
        bool ok = false;
        const double seconds = eq > 0 ? v.mid(eq + 1).toDouble(&ok) : 0;
        if (!ok) {
            printErr(QStringLiteral("rankline diagnose: --clock-offset wants HOST=SECONDS, got '%1'").arg(v));
            return 2;
        }
        opts.clockOverrides.push_back({v.left(eq).toStdString(), static_cast<std::int64_t>(seconds * 1e6)});
    }

    QElapsedTimer clock;
    clock.start();
    Bundle bundle;
    const bool readable = readInputs("rankline diagnose", paths, opts, bundle);
    auto enc = loadEntries(loading.get());
    if (!enc)
        return 3;
    if (!readable)
        return 1;
    const double readSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    auto analysis = analyze(std::move(bundle), enc, opts, terminalProgress());
    clock.restart();
    if (p.isSet(json)) {
        // Streamed: the document can be tens of megabytes, and held whole it would be the largest
        // thing in memory at the end of the run.
        writeDiagnosisJson(
            *analysis, [](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
        std::fputc('\n', stdout);
    } else {
        const std::string out = diagnosisText(*analysis);
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    if (p.isSet(timings)) {
        std::vector<StageTime> stages{{"read the bundle, load the encyclopedia", readSeconds}};
        stages.insert(stages.end(), analysis->timings.begin(), analysis->timings.end());
        stages.push_back({"output", static_cast<double>(clock.nsecsElapsed()) / 1e9});
        double total = 0;
        for (const auto& st : stages) {
            if (st.anonBytes + st.fileBytes > 0)
                std::fprintf(stderr, "%9.3f s  %-36s resident after: %6.1f MiB heap, %6.1f MiB mapped\n",
                             st.seconds, st.stage.c_str(), static_cast<double>(st.anonBytes) / 1048576.0,
                             static_cast<double>(st.fileBytes) / 1048576.0);
            else
                std::fprintf(stderr, "%9.3f s  %s\n", st.seconds, st.stage.c_str());
            total += st.seconds;
        }
        std::fprintf(stderr, "%9.3f s  total (%llu bytes, %llu lines)\n", total,
                     static_cast<unsigned long long>(analysis->totalBytes),
                     static_cast<unsigned long long>(analysis->totalLines));
    }
    // Everything is written. Tearing down the analysis (millions of small allocations, thousands
    // of mappings) only to exit takes longer than reading a small bundle: let the kernel reclaim
    // it, as compilers do. Nothing else is pending (no files open for writing, no threads).
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        return 1;
    std::fflush(stderr);
    std::_Exit(0);
}

// The format a `report` command line asks for: --format, else the output's extension.
std::optional<ReportFormat> requestedFormat(const QStringList& args, QString* output = nullptr)
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

int report(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Write an incident report: verdict, initiating event and evidence, collateral, timeline, "
        "checklist, fix, NCCL versions, clocks and the bundle inventory. Host names, addresses, user "
        "names and secrets are replaced by pseudonyms unless --no-redact is given."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("report"), QStringLiteral("the sub-command"));
    p.addPositionalArgument(QStringLiteral("paths"),
                            QStringLiteral("Log files, folders or archives; - reads standard input."),
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
    QStringList paths = p.positionalArguments().mid(1);
    if (paths.isEmpty() || !p.isSet(out)) {
        printErr(
            QStringLiteral("rankline report: %1\n%2")
                .arg(paths.isEmpty() ? QStringLiteral("no PATH given") : QStringLiteral("no -o OUT given"),
                     usage));
        return 2;
    }
    const QString output = p.value(out);
    auto fmt = reportFormatFromName((p.isSet(format) ? p.value(format) : output).toStdString());
    if (!fmt) {
        printErr(
            QStringLiteral("rankline report: cannot tell the format of %1 (use a .html, .pdf, .md or .json "
                           "name, or --format)\n%2")
                .arg(p.isSet(format) ? p.value(format) : output, usage));
        return 2;
    }
    if (*fmt == ReportFormat::Pdf && output == QLatin1String("-")) {
        printErr(QStringLiteral("rankline report: a PDF cannot go to standard output; give a file name"));
        return 2;
    }
    const QString paperName = p.value(paper).toLower();
    if (paperName != QLatin1String("a4") && paperName != QLatin1String("letter")) {
        printErr(QStringLiteral("rankline report: unknown paper size %1 (a4 or letter)").arg(p.value(paper)));
        return 2;
    }
    auto enc = loadEntries();
    if (!enc)
        return 3;
    AnalyzeOptions opts;
    opts.probeLocalNccl = !p.isSet(noProbe);
    if (p.isSet(lib))
        opts.ncclLibrary = p.value(lib).toStdString();
    Bundle bundle;
    if (!readInputs("rankline report", paths, opts, bundle))
        return 1;
    auto analysis = analyze(std::move(bundle), enc, opts, terminalProgress());

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
        printErr(QStringLiteral("rankline report: %1").arg(QString::fromStdString(err->message())));
        return 1;
    }
    printErr(QStringLiteral("rankline report: wrote %1 (%2%3)")
                 .arg(output, QString::fromLatin1(reportFormatName(*fmt)),
                      req.redact ? QStringLiteral(", redacted") : QStringLiteral(", not redacted")));
    return 0;
}

int probe(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Print this machine's NCCL libraries (every one found, with its version and how it was "
        "found), the kernel and the CUDA driver; --socket-retry also reproduces the "
        "connect-retry behaviour of this kernel on 127.0.0.1."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("probe"), QStringLiteral("the sub-command"));
    QCommandLineOption lib(QStringLiteral("nccl-lib"), QStringLiteral("Library path or soname to load."),
                           QStringLiteral("path"), QStringLiteral("libnccl.so.2"));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    QCommandLineOption socketRetry(
        QStringLiteral("socket-retry"),
        QStringLiteral("Also connect to a refusing port on 127.0.0.1, retry on the same socket as NCCL "
                       "2.16-2.23 do and on a fresh one as 2.24.3 does, and report the errno of each."));
    p.addOptions({lib, json, socketRetry});
    p.process(args);
    const std::string library = p.value(lib).toStdString();
    DiscoveryOptions opts;
    if (library.find('/') != std::string::npos)
        opts.explicitPaths.push_back(library);
    // Every library is loaded in a child process, so what one load leaves behind never answers for
    // the next (probe/isolated.h).
    const LocalFacts facts = gatherLocalFacts(opts);
    const NcclProbeResult r = probeNcclIsolated(library);
    std::optional<SocketRetryReport> retry;
    if (p.isSet(socketRetry))
        retry = reproduceSocketRetry();
    const SocketRetryReport* rp = retry ? &*retry : nullptr;
    const std::string out = p.isSet(json) ? probeJson(facts, r, rp) + "\n" : probeText(facts, r, rp);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return retry && !retry->ran ? 1 : 0;
}

int encyclopedia(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Load and self-check encyclopedia entries: every fingerprint compiles, "
                       "matches each of its samples, and every related id exists."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("encyclopedia"), QStringLiteral("the sub-command"));
    p.addPositionalArgument(QStringLiteral("dir"),
                            QStringLiteral("Folder of <id>.json entries (default: the installed one)."),
                            QStringLiteral("[DIR]"));
    QCommandLineOption list(QStringLiteral("list"), QStringLiteral("List the entries."));
    QCommandLineOption exportPatterns(
        QStringLiteral("export-patterns"),
        QStringLiteral("Print every fingerprint regex, one per line (usable with rg -f)."));
    p.addOptions({list, exportPatterns});
    p.process(args);
    const QStringList pos = p.positionalArguments();
    std::string dir = pos.size() > 1 ? pos.at(1).toStdString() : resourcesDir() + "/encyclopedia";
    auto enc = loadEncyclopedia(dir);
    if (!enc) {
        printErr(
            QStringLiteral("rankline encyclopedia: %1").arg(QString::fromStdString(enc.error().message())));
        return 1;
    }
    if (p.isSet(exportPatterns)) {
        for (const auto& e : enc->entries)
            for (const auto& s : e.symptoms)
                for (const auto& f : s.fingerprints) {
                    // rg joins its patterns into one regex, where repeated group names clash:
                    // names only matter to Rankline, so export plain groups.
                    QString pat = QString::fromStdString(f.pattern);
                    pat.replace(QRegularExpression(QStringLiteral("\\(\\?P<[A-Za-z_][A-Za-z0-9_]*>")),
                                QStringLiteral("("));
                    std::printf("%s\n", pat.toUtf8().constData());
                }
        return 0;
    }
    std::size_t symptoms = 0, samples = 0;
    for (const auto& e : enc->entries) {
        symptoms += e.symptoms.size();
        for (const auto& s : e.symptoms)
            samples += s.samples.size();
        if (p.isSet(list))
            std::printf("%-32s %-18s %s\n", e.id.c_str(), e.category.c_str(), e.title.c_str());
    }
    std::printf("%zu entries, %zu symptoms, %zu samples: all fingerprints compile and match their samples\n",
                enc->entries.size(), symptoms, samples);
    return 0;
}

} // namespace

bool isSubcommand(const QStringList& args)
{
    if (args.size() < 2)
        return false;
    const QString& c = args.at(1);
    return c == QLatin1String("diagnose") || c == QLatin1String("report") || c == QLatin1String("probe") ||
           c == QLatin1String("encyclopedia") || c == QLatin1String("--help") || c == QLatin1String("-h") ||
           c == QLatin1String("--version") || c == QLatin1String("-v");
}

bool needsGui(const QStringList& args)
{
    return args.size() > 1 && args.at(1) == QLatin1String("report") &&
           requestedFormat(args) == ReportFormat::Pdf;
}

int run(const QStringList& args)
{
    const QString c = args.at(1);
    if (c == QLatin1String("diagnose"))
        return diagnose(args);
    if (c == QLatin1String("report"))
        return report(args);
    if (c == QLatin1String("probe"))
        return probe(args);
    if (c == QLatin1String("encyclopedia"))
        return encyclopedia(args);
    if (c == QLatin1String("--version") || c == QLatin1String("-v")) {
        std::printf("rankline %s\n", RANKLINE_VERSION);
        return 0;
    }
    // Kept in step with packaging/rankline.1.in by tests/packaging (every command and option here
    // and in each command's --help must appear in the man page).
    std::printf("Usage: rankline [--sample] [--screenshot FILE] [PATH...]\n"
                "       rankline diagnose PATH... [--json] [--no-local-nccl] [--nccl-lib LIB]\n"
                "                       [--all-attempts] [--clock-offset HOST=SECONDS]\n"
                "       rankline report PATH... -o OUT.{html,pdf,md,json} [--format F] [--no-redact]\n"
                "                       [--paper a4|letter] [--time T]\n"
                "       rankline probe [--json] [--nccl-lib LIB] [--socket-retry]\n"
                "       rankline encyclopedia [DIR] [--list] [--export-patterns]\n"
                "       rankline COMMAND --help\n"
                "       rankline -h | --help | -v | --version\n"
                "\n"
                "Without a command, Rankline opens its window (on the PATHs if given; --sample opens\n"
                "the bundled sample incident; --screenshot saves a picture of the window and quits).\n"
                "\n"
                "Commands:\n"
                "  diagnose      explain a failed job from its logs: folders, files, .gz logs, archives;\n"
                "                - reads standard input\n"
                "  report        export an incident report (HTML, PDF, Markdown, JSON), redacted by default\n"
                "  probe         this machine's NCCL libraries, kernel and CUDA driver; --socket-retry\n"
                "                shows what this kernel does with a retried connect (127.0.0.1 only)\n"
                "  encyclopedia  self-check, list or export the encyclopedia entries\n"
                "\n"
                "See rankline(1).\n");
    return 0;
}

} // namespace rl::cli
