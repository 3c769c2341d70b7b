// The command line as users and scripts run it: a real process, real exit codes, the JSON contract.
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <dlfcn.h>
#include <link.h>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace
{
struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QStringList& args, const QByteArray& input = {}, const QProcessEnvironment& env = {})
{
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    p.start(QStringLiteral(RANKLINE_EXE), args);
    if (!input.isNull()) {
        p.write(input);
        p.closeWriteChannel();
    }
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

// The connect abort of NCCL 2.16-2.23, enough for a diagnosis.
const QByteArray kAbortLine =
    "h:1:2 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.1<1> "
    "failed : Software caused connection abort\n";

// A file named `name` in `dir` holding `bytes`; false when it cannot be written.
bool put(const QTemporaryDir& dir, const char* name, const QByteArray& bytes)
{
    QFile f(dir.filePath(QLatin1String(name)));
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}
} // namespace

class TestCli : public QObject
{
    Q_OBJECT
    const QString sample = QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4");

private slots:
    void diagnoseJsonOnSample()
    {
        Run r = run({QStringLiteral("diagnose"), sample, QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        for (const char* key : {"findings", "initiating", "nccl", "ranks", "skipped"})
            QVERIFY2(d.contains(key), key);
        QCOMPARE(d["initiating"]["rank"].get<int>(), 5);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("gpu-b/rank5.log"));
        QCOMPARE(d["nccl"]["fix_applies"].get<bool>(), true);
        const json& f = d["findings"][0];
        for (const char* key : {"entry", "title", "role", "confidence", "rank", "host", "evidence"})
            QVERIFY2(f.contains(key), key);
        for (const char* key : {"file", "line", "text", "label"})
            QVERIFY2(f["evidence"][0].contains(key), key);
        QVERIFY(d["nccl"].contains("local"));
    }

    // --timings: every stage's wall and CPU time on standard error, the JSON on standard output
    // untouched; and the binary allocates through mimalloc where the build links it (app/main.cpp).
    void timingsAndAllocator()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("MIMALLOC_VERBOSE"), QStringLiteral("1"));
        Run r =
            run({QStringLiteral("diagnose"), sample, QStringLiteral("--json"), QStringLiteral("--timings")},
                {}, env);
        QCOMPARE(r.code, 0);
        QCOMPARE(json::parse(r.out.toStdString())["initiating"]["rank"].get<int>(), 5);
        const QString err = QString::fromUtf8(r.err);
        for (const char* stage :
             {"read the bundle", "index, parse, scan", "identity, events", "findings", "output"}) {
            const QRegularExpression line(QStringLiteral("\\d+\\.\\d{3} s  %1.* cpu +\\d+\\.\\d{3} s")
                                              .arg(QRegularExpression::escape(QLatin1String(stage))));
            QVERIFY2(line.match(err).hasMatch(),
                     qPrintable(QLatin1String(stage) + QLatin1String(":\n") + err));
        }
        QVERIFY2(QRegularExpression(QStringLiteral("total \\(\\d+ bytes, \\d+ lines; cpu \\d+\\.\\d{3} s\\)"))
                     .match(err)
                     .hasMatch(),
                 qPrintable(err));
#if RANKLINE_EXPECT_MIMALLOC
        QVERIFY2(err.contains(QLatin1String("mimalloc: process init")), qPrintable(err));
#else
        QVERIFY(!err.contains(QLatin1String("mimalloc:")));
#endif
    }

    void humanOutputOnSample()
    {
        Run r = run({QStringLiteral("diagnose"), sample});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("INITIATING"));
        QVERIFY(r.out.contains("rank 5 (gpu-b"));
        QVERIFY(r.out.contains("gpu-b/rank5.log:26"));
        QVERIFY(r.out.contains("refused"));
    }

    void standardInput()
    {
        Run r = run({QStringLiteral("diagnose"), QStringLiteral("-"), QStringLiteral("--json"),
                     QStringLiteral("--no-local-nccl")},
                    "`socketStartConnect: Connect to 10.45.234.83<47527> failed : Software caused connection "
                    "abort`\n");
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-socket-connect-abort"));
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("<stdin>"));

        // Named twice, read once (the second `-` found the stream at its end and added an empty
        // source); nothing piped in is said, and the folder named after it is still read in full.
        r = run({QStringLiteral("diagnose"), QStringLiteral("-"), QStringLiteral("-"),
                 QStringLiteral("--json"), QStringLiteral("--no-local-nccl")},
                "`socketStartConnect: Connect to 10.45.234.83<47527> failed : Software caused connection "
                "abort`\n");
        QCOMPARE(r.code, 0);
        d = json::parse(r.out.toStdString());
        QCOMPARE(d["stats"]["files"].get<int>(), 1);
        QCOMPARE(d["skipped"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(d["skipped"][0]["reason"]),
                 QStringLiteral("the standard input, named twice: read once"));
        r = run({QStringLiteral("diagnose"), QStringLiteral("-"), sample, QStringLiteral("--json"),
                 QStringLiteral("--no-local-nccl")},
                QByteArray("")); // empty, not null: the input is closed at once
        QCOMPARE(r.code, 0);
        d = json::parse(r.out.toStdString());
        QCOMPARE(d["stats"]["files"].get<int>(), 8);
        QCOMPARE(QString::fromStdString(d["skipped"][0]["reason"]),
                 QStringLiteral("the standard input was empty: nothing to read"));
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("gpu-b/rank5.log"));

        // An archive piped in (`tar cz logs | rankline diagnose -`) is opened as the file would be:
        // its bytes were read as text before (a few lines of binary, no finding).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString tgz = dir.filePath(QStringLiteral("sample.tgz"));
        QProcess tar;
        tar.start(QStringLiteral("tar"), {QStringLiteral("czf"), tgz, QStringLiteral("-C"),
                                          QFileInfo(sample).path(), QFileInfo(sample).fileName()});
        QVERIFY(tar.waitForFinished(20000) && tar.exitCode() == 0);
        QFile packed(tgz);
        QVERIFY(packed.open(QIODevice::ReadOnly));
        r = run({QStringLiteral("diagnose"), QStringLiteral("-"), QStringLiteral("--json"),
                 QStringLiteral("--no-local-nccl")},
                packed.readAll());
        QCOMPARE(r.code, 0);
        d = json::parse(r.out.toStdString());
        QCOMPARE(d["stats"]["files"].get<int>(), 8);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]),
                 QStringLiteral("<stdin>!connect-abort-2x4/gpu-b/rank5.log"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 5);
    }

    void brokenFileDoesNotStopTheRest()
    {
        QTemporaryDir dir;
        QVERIFY(put(dir, "rank0.log", kAbortLine));
        QVERIFY(put(dir, "core.dump",
                    QByteArray("\x7f"
                               "ELF\0\0\0\0",
                               8)));
        Run r = run({QStringLiteral("diagnose"), dir.path(), QStringLiteral("--json"),
                     QStringLiteral("--no-local-nccl")});
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QCOMPARE(d["skipped"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(d["skipped"][0]["file"]), QStringLiteral("core.dump"));
        QVERIFY(QString::fromStdString(d["skipped"][0]["reason"]).contains(QStringLiteral("binary")));
        QVERIFY(r.err.contains("core.dump")); // said on stderr too, for people
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-socket-connect-abort"));
    }

    // The crashed host's log: lines, then the zeros of writes that never reached its disk, then
    // the abort a restarted writer appended. Diagnosed (it was "binary" once), and the quoted
    // evidence marks the zeros instead of starting with a hundred spaces.
    void crashZerosInTheFailingLog()
    {
        QTemporaryDir dir;
        QVERIFY(put(dir, "rank0.log",
                    "h:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" + QByteArray(100, '\0') +
                        kAbortLine + QByteArray(4096, '\0')));
        for (const bool asJson : {true, false}) {
            QStringList args{QStringLiteral("diagnose"), dir.path(), QStringLiteral("--no-local-nccl")};
            if (asJson)
                args << QStringLiteral("--json");
            Run r = run(args);
            QCOMPARE(r.code, 0);
            if (!asJson) {
                QVERIFY(r.out.contains(
                    "      [100 NUL bytes]h:1:2 [0] misc/socket.cc:483 NCCL WARN socketStartConnect"));
                continue;
            }
            json d = json::parse(r.out.toStdString());
            QVERIFY(d["skipped"].empty());
            QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                     QStringLiteral("nccl-socket-connect-abort"));
            const json& ev = d["findings"][0]["evidence"][0];
            QCOMPARE(ev["line"].get<int>(), 2);
            QVERIFY(
                QString::fromStdString(ev["text"]).startsWith(QStringLiteral("[100 NUL bytes]h:1:2 [0]")));
        }
    }

    // A training script's tqdm bar, redrawn with carriage returns, and NCCL's WARN printed right
    // after its last drawing. The rank is found (the bar's "it/s]" is not part of the host), and
    // the quoted evidence is what a terminal showed: the last drawing and the WARN.
    void warnGluedToAProgressBar()
    {
        QTemporaryDir dir;
        const QByteArray bar = "\r  1%|          | 1/100 [00:00<00:40, 2.4it/s]"
                               "\r  2%|          | 2/100 [00:00<00:40, 2.4it/s]";
        QVERIFY(put(dir, "rank3.log",
                    "h:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n" + bar + kAbortLine));
        Run r = run({QStringLiteral("diagnose"), dir.path(), QStringLiteral("--no-local-nccl"),
                     QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QCOMPARE(d["ranks"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-socket-connect-abort"));
        QCOMPARE(QString::fromStdString(d["initiating"]["host"]), QStringLiteral("h"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 3);
        const json& ev = d["findings"][0]["evidence"][0];
        QCOMPARE(ev["line"].get<int>(), 2);
        QCOMPARE(
            QString::fromStdString(ev["text"]),
            QStringLiteral("[46 bytes overwritten by \\r]   2%|          | 2/100 [00:00<00:40, 2.4it/s]") +
                QString::fromLatin1(kAbortLine).trimmed());
    }

    // A bundle of many small files: the command line closes the descriptors of the files it does
    // not quote while it writes; the lines it quotes are still read whole, in JSON and in text.
    void manyFilesQuoteTheirEvidence()
    {
        QTemporaryDir dir;
        for (int r = 0; r < 300; ++r) {
            const QByteArray name = "rank" + QByteArray::number(r) + ".log";
            const QByteArray info = "h" + QByteArray::number(r) + ":" + QByteArray::number(100 + r) +
                                    ":1 [0] NCCL INFO Bootstrap : Using eth0:10.0.1." +
                                    QByteArray::number(r % 250) + "<0>\n";
            QVERIFY(put(dir, name.constData(), r == 150 ? info + kAbortLine : info));
        }
        Run j = run({QStringLiteral("diagnose"), dir.path(), QStringLiteral("--json"),
                     QStringLiteral("--no-local-nccl")});
        QCOMPARE(j.code, 0);
        json d = json::parse(j.out.toStdString());
        QCOMPARE(d["ranks"].size(), std::size_t{301}); // and the abort line's own process, h:1
        const json& evidence = d["findings"][0]["evidence"];
        QVERIFY(!evidence.empty());
        bool quoted = false;
        for (const auto& x : evidence)
            if (x["file"] == "rank150.log")
                quoted = quoted || QByteArray::fromStdString(x["text"]) + "\n" == kAbortLine;
        QVERIFY2(quoted, evidence.dump().c_str());
        Run t = run({QStringLiteral("diagnose"), dir.path(), QStringLiteral("--no-local-nccl")});
        QCOMPARE(t.code, 0);
        QVERIFY(t.out.contains(kAbortLine.trimmed()));
    }

    // What the reader skips is said before the analysis runs, what only the analysis finds (a
    // small binary file, on its first read) after it: each once.
    void eachSkipSaidOnce()
    {
        QTemporaryDir dir;
        QVERIFY(put(dir, "rank0.log", kAbortLine));
        QVERIFY(put(dir, "b-core.dump", QByteArray("\0\1\2", 3)));
        QVERIFY(put(dir, "a-empty.log", QByteArray()));
        Run r = run({QStringLiteral("diagnose"), dir.path(), QStringLiteral("--json"),
                     QStringLiteral("--no-local-nccl")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.err.count("skipped a-empty.log: empty file"), 1);
        QCOMPARE(r.err.count("skipped b-core.dump: binary file"), 1);
        QVERIFY(r.err.indexOf("a-empty.log") < r.err.indexOf("b-core.dump"));
        json d = json::parse(r.out.toStdString());
        QCOMPARE(d["skipped"].size(), std::size_t{2}); // both in the report, in reading order
        QCOMPARE(QString::fromStdString(d["skipped"][0]["file"]), QStringLiteral("a-empty.log"));
        QCOMPARE(QString::fromStdString(d["skipped"][1]["file"]), QStringLiteral("b-core.dump"));
    }

    // libarchive is loaded when the first archive is opened: where the one found is not usable,
    // each archive is skipped with the file and what to install, and the plain logs are diagnosed.
    // A real shared library that is not libarchive (zlib) stands for the broken install.
    void archivesWithoutUsableLibarchive()
    {
        QTemporaryDir dir, member, fake;
        QVERIFY(put(dir, "rank0.log", kAbortLine));
        QVERIFY(put(member, "rank1.log", kAbortLine));
        QProcess tar;
        tar.start(QStringLiteral("tar"), {QStringLiteral("czf"), dir.filePath(QStringLiteral("logs.tar.gz")),
                                          QStringLiteral("-C"), member.path(), QStringLiteral("rank1.log")});
        if (!tar.waitForFinished(30000) || tar.exitCode() != 0)
            QSKIP("tar cannot build the archive here");
        void* zlib = ::dlopen("libz.so.1", RTLD_NOW | RTLD_NOLOAD);
        link_map* map = nullptr;
        QVERIFY(zlib && ::dlinfo(zlib, RTLD_DI_LINKMAP, &map) == 0 && map);
        QVERIFY(QFile::copy(QString::fromLocal8Bit(map->l_name),
                            fake.filePath(QStringLiteral("libarchive.so.13"))));
        const QStringList args = {QStringLiteral("diagnose"), dir.path(), QStringLiteral("--json"),
                                  QStringLiteral("--no-local-nccl")};

        json opened = json::parse(run(args).out.toStdString()); // the real libarchive
        QCOMPARE(opened["skipped"].size(), std::size_t{0});
        QCOMPARE(opened["stats"]["files"].get<int>(), 2);

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_LIBRARY_PATH"), fake.path());
        Run r = run(args, {}, env);
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QCOMPARE(d["skipped"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(d["skipped"][0]["file"]), QStringLiteral("logs.tar.gz"));
        const QString reason = QString::fromStdString(d["skipped"][0]["reason"]);
        QVERIFY2(reason.contains(fake.filePath(QStringLiteral("libarchive.so.13"))) &&
                     reason.contains(QStringLiteral("install libarchive13")),
                 qPrintable(reason));
        QCOMPARE(r.err.count("skipped logs.tar.gz"), 1);
        QCOMPARE(d["stats"]["files"].get<int>(), 1);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("rank0.log"));
    }

    void exitCodes()
    {
        QCOMPARE(run({QStringLiteral("diagnose")}).code, 2); // usage
        Run nothing = run({QStringLiteral("diagnose"), QStringLiteral("/nonexistent/bundle")});
        QCOMPARE(nothing.code, 1);
        QVERIFY(nothing.err.contains("/nonexistent/bundle"));
        QVERIFY(nothing.err.contains("no such file"));
        // Only binary files: each said, and nothing left to diagnose, though reading found files
        // (small ones are found binary by the analysis's first read of them).
        QTemporaryDir dir;
        for (const char* name : {"core.1", "core.2"})
            QVERIFY(put(dir, name, QByteArray("\0\1\2", 3)));
        QTemporaryDir outDir;
        const QString report = outDir.filePath(QStringLiteral("report.md"));
        for (const QStringList& args :
             {QStringList{QStringLiteral("diagnose"), dir.path(), QStringLiteral("--json")},
              QStringList{QStringLiteral("report"), dir.path(), QStringLiteral("-o"), report}}) {
            Run binary = run(args + QStringList{QStringLiteral("--no-local-nccl")});
            QCOMPARE(binary.code, 1);
            QVERIFY(binary.out.isEmpty());
            QVERIFY(!QFile::exists(report));
            QVERIFY(binary.err.contains("skipped core.1: binary file"));
            QVERIFY(binary.err.contains("skipped core.2: binary file"));
            QVERIFY(binary.err.contains(
                "no log could be read: every file given was skipped, for the reasons above"));
        }
        // An empty folder says so, and what to name instead.
        QTemporaryDir empty;
        QVERIFY(QDir(empty.path()).mkpath(QStringLiteral("a/b")));
        Run none = run({QStringLiteral("diagnose"), empty.path(), QStringLiteral("--no-local-nccl")});
        QCOMPARE(none.code, 1);
        QVERIFY(none.err.contains(
            ": an empty folder (no file in it or in the folders under it): nothing to read; "
            "name the folder that holds the job's logs"));
        QCOMPARE(run({QStringLiteral("--version")}).code, 0);
    }

    // The headless commands parse their options without Qt (app/cli/args.h), the way
    // QCommandLineParser does for `report`: every spelling users type, and its mistakes.
    void optionSyntax()
    {
        auto initiating = [](const Run& r) {
            return r.code == 0 ? json::parse(r.out.toStdString())["initiating"] : json();
        };
        // --name value, --name=value, repeated options, "--" before a path that looks like one.
        Run spaced =
            run({QStringLiteral("diagnose"), QStringLiteral("--clock-offset"), QStringLiteral("gpu-a=0.5"),
                 sample, QStringLiteral("--json"), QStringLiteral("--no-local-nccl")});
        QVERIFY2(spaced.code == 0, spaced.err.constData());
        Run joined = run({QStringLiteral("diagnose"), QStringLiteral("--clock-offset=gpu-a=0.5"),
                          QStringLiteral("--clock-offset=gpu-b=0"), QStringLiteral("--json"),
                          QStringLiteral("--no-local-nccl"), QStringLiteral("--"), sample});
        QVERIFY2(joined.code == 0, joined.err.constData());
        QCOMPARE(initiating(spaced)["rank"].get<int>(), 5);
        QCOMPARE(initiating(joined)["rank"].get<int>(), 5);
        // Both spellings set gpu-a's offset to the half second typed in.
        for (const Run* r : {&spaced, &joined}) {
            const json hosts = json::parse(r->out.toStdString())["clock"]["hosts"];
            double offset = -1;
            for (const json& h : hosts)
                if (h["host"] == "gpu-a")
                    offset = h["offset_ms"].get<double>();
            QVERIFY2(offset == 500.0, hosts.dump().c_str());
        }

        struct Bad {
            QStringList args;
            int code;
            const char* message;
        };
        const Bad bad[] = {
            {{QStringLiteral("diagnose"), QStringLiteral("--bogus"), sample}, 1, "Unknown option 'bogus'."},
            {{QStringLiteral("diagnose"), QStringLiteral("-x"), QStringLiteral("--nope"), sample},
             1,
             "Unknown options: x, nope."},
            {{QStringLiteral("diagnose"), sample, QStringLiteral("--nccl-lib")},
             1,
             "Missing value after '--nccl-lib'."},
            {{QStringLiteral("diagnose"), QStringLiteral("--json=yes"), sample},
             1,
             "Unexpected value after '--json'."},
            {{QStringLiteral("diagnose"), QStringLiteral("--clock-offset=gpu-a=soon"), sample},
             2,
             "--clock-offset wants HOST=SECONDS, got 'gpu-a=soon'"},
            {{QStringLiteral("probe"), QStringLiteral("--socket-retry=1")},
             1,
             "Unexpected value after '--socket-retry'."},
        };
        for (const Bad& b : bad) {
            Run r = run(b.args);
            QVERIFY2(r.code == b.code && r.err.contains(b.message) && r.out.isEmpty(),
                     qPrintable(b.args.join(QLatin1Char(' ')) + QStringLiteral(" -> ") +
                                QString::number(r.code) + QLatin1Char(' ') + QString::fromUtf8(r.err)));
        }

        // -h and --help, anywhere after the command, print the command's help and nothing else.
        for (const QString& h : {QStringLiteral("-h"), QStringLiteral("--help")}) {
            Run r = run({QStringLiteral("diagnose"), sample, h});
            QCOMPARE(r.code, 0);
            QVERIFY(r.out.startsWith("Usage: "));
            QVERIFY(r.out.contains("[options] diagnose PATH..."));
            QVERIFY(r.out.contains("\n  --clock-offset <HOST=SECONDS>  Shift HOST's clock"));
            QVERIFY(r.out.contains("\nArguments:\n  diagnose "));
        }
    }

    void probe()
    {
        Run r = run({QStringLiteral("probe"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QVERIFY(d.contains("nccl"));
    }

    // Every local fact, and the loader's choice among the libraries found.
    void probeJsonFields()
    {
        Run r = run({QStringLiteral("probe"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        for (const char* key : {"tool", "nccl", "libraries", "loader", "searched", "kernel", "cuda_driver"})
            QVERIFY2(d.contains(key), key);
        QVERIFY(!d.contains("socket_retry"));
        QCOMPARE(QString::fromStdString(d["kernel"]["sysname"]), QStringLiteral("Linux"));
        QVERIFY(d["cuda_driver"]["found"].is_boolean());
        if (d["nccl"].is_null())
            return;
        int chosen = 0;
        for (const auto& lib : d["libraries"])
            if (lib["loader_choice"].get<bool>()) {
                ++chosen;
                QVERIFY(lib["version"] == d["nccl"]["version"]);
            }
        QCOMPARE(chosen, 1);
    }

    // LD_LIBRARY_PATH beats the loader cache: in a process started with it, the fake 2.23.4 is the
    // loader's choice, and the machine's own NCCL (if any) is still listed, found another way.
    void probeViaLdLibraryPath()
    {
        const QString fakeDir = QFileInfo(QStringLiteral(FAKE_NCCL_PATH)).absolutePath();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_LIBRARY_PATH"), fakeDir);
        Run r = run({QStringLiteral("probe"), QStringLiteral("--json")}, {}, env);
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QCOMPARE(QString::fromStdString(d["nccl"]["version"]), QStringLiteral("2.23.4"));
        QCOMPARE(QFileInfo(QString::fromStdString(d["loader"]["path"])).canonicalFilePath(),
                 QFileInfo(QStringLiteral(FAKE_NCCL_PATH)).canonicalFilePath());
        bool fake = false, other = false;
        for (const auto& lib : d["libraries"]) {
            QStringList how;
            for (const auto& v : lib["found_via"])
                how << QString::fromStdString(v["how"]);
            if (lib["version"] == "2.23.4") {
                fake = true;
                QVERIFY(lib["loader_choice"].get<bool>());
                QVERIFY2(how.contains(QStringLiteral("LD_LIBRARY_PATH")),
                         qPrintable(how.join(QLatin1Char(','))));
                QVERIFY(how.contains(QStringLiteral("loader")));
                QCOMPARE(lib["has_connect_retry_fix"].get<bool>(), false);
            } else {
                other = true;
                QVERIFY(!lib["loader_choice"].get<bool>());
            }
        }
        QVERIFY(fake);
        if (!other)
            qInfo("no other libnccl.so.2 on this machine");
        Run text = run({QStringLiteral("probe")}, {}, env);
        QVERIFY(text.out.contains("NCCL 2.23.4 (code 22304)"));
        QVERIFY(text.out.contains("found via LD_LIBRARY_PATH"));
    }

    void probeExplicitLibrary()
    {
        Run r = run({QStringLiteral("probe"), QStringLiteral("--json"), QStringLiteral("--nccl-lib"),
                     QStringLiteral(FAKE_NCCL_PATH)});
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QCOMPARE(QString::fromStdString(d["nccl"]["version"]), QStringLiteral("2.23.4"));
        bool explicitFound = false;
        for (const auto& lib : d["libraries"])
            for (const auto& v : lib["found_via"])
                explicitFound = explicitFound || (v["how"] == "explicit" && lib["version"] == "2.23.4");
        QVERIFY(explicitFound);
    }

    void probeSocketRetry()
    {
        Run r = run({QStringLiteral("probe"), QStringLiteral("--socket-retry"), QStringLiteral("--json")});
        json d = json::parse(r.out.toStdString());
        const json& s = d["socket_retry"];
        QVERIFY(s.is_object());
        QCOMPARE(QString::fromStdString(s["address"]), QStringLiteral("127.0.0.1"));
        if (!s["ran"].get<bool>()) {
            QCOMPARE(r.code, 1);
            QSKIP(qPrintable(QStringLiteral("could not run: %1").arg(QString::fromStdString(s["error"]))));
        }
        QCOMPARE(r.code, 0);
        if (s["retry_error"] != "ECONNABORTED" || s["fresh_socket_error"] != "ECONNREFUSED")
            QSKIP(qPrintable(QStringLiteral("this kernel differs: retry %1, fresh socket %2")
                                 .arg(QString::fromStdString(s["retry_error"].dump()),
                                      QString::fromStdString(s["fresh_socket_error"].dump()))));
        QCOMPARE(QString::fromStdString(s["pending_error"]), QStringLiteral("ECONNREFUSED"));
        QVERIFY(s["reproduced"].get<bool>());
        Run text = run({QStringLiteral("probe"), QStringLiteral("--socket-retry")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("ECONNABORTED (Software caused connection abort)"));
        QVERIFY(text.out.contains("Verdict: "));
    }

    // Headless sub-commands never need a display.
    void noDisplayNeeded()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(RANKLINE_EXE), {QStringLiteral("diagnose"), sample, QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
