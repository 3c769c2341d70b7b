// A large source is scanned in pieces on every core (AnalyzeOptions::pieceBytes). The pieces must
// give exactly what one scan of the whole source gives: the same processes, hits (the per-process
// cap applies across pieces), stamps, init phases (whose times may come from stamps in the next
// piece) and so the same diagnosis, byte for byte.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis.h"
#include "report/diagnosis_report.h"
#include "shipped_encyclopedia.h"

using json = nlohmann::json;

using namespace rl;

namespace
{

struct Run {
    std::string json;
    std::size_t reports = 0; // progress reports while reading: one per source, or per piece
    std::size_t files = 0;
};

} // namespace

class TestPieces : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    Run diagnose(const std::string& path, std::uint64_t pieceBytes, unsigned threads = 0)
    {
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        opts.mergedOrder = false;
        opts.pieceBytes = pieceBytes;
        opts.threads = threads;
        std::atomic<std::size_t> reports{0};
        ProgressSink progress;
        progress.report = [&](const Progress& p) {
            if (p.stage == "reading")
                ++reports;
        };
        auto a = analyzePaths({path}, m_enc, opts, progress);
        Run r;
        if (!a)
            return r;
        r.json = diagnosisJson(*a);
        r.reports = reports;
        r.files = a->sources.size();
        return r;
    }

    // Every piece size gives the whole scan's diagnosis; small sizes cut every file many times.
    void compareAt(const std::string& path, const std::vector<std::uint64_t>& sizes, bool mustSplit)
    {
        const Run whole = diagnose(path, std::uint64_t{1} << 40);
        QVERIFY2(!whole.json.empty(), path.c_str());
        for (std::uint64_t size : sizes) {
            const Run pieces = diagnose(path, size);
            QVERIFY2(pieces.json == whole.json,
                     qPrintable(QStringLiteral("%1: pieces of %2 bytes differ from the whole scan")
                                    .arg(QString::fromStdString(path))
                                    .arg(size)));
            if (mustSplit)
                QVERIFY2(pieces.reports > pieces.files,
                         qPrintable(QStringLiteral("%1: no source was cut at %2 bytes")
                                        .arg(QString::fromStdString(path))
                                        .arg(size)));
        }
    }

private slots:

    // A sink that asks for an interval gets a report now and then, and always the last file's.
    void progressThrottledOnRequest()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 300; ++i) {
            QFile f(dir.filePath(QStringLiteral("rank%1.log").arg(i)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("gpu-1:" + QByteArray::number(100 + i) +
                    ":1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n");
        }
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        auto count = [&](std::chrono::milliseconds interval) {
            std::vector<Progress> got;
            std::mutex m;
            ProgressSink sink;
            sink.interval = interval;
            sink.report = [&](const Progress& p) {
                std::lock_guard<std::mutex> lock(m);
                got.push_back(p);
            };
            auto a = analyzePaths({dir.path().toStdString()}, m_enc, opts, sink);
            return got;
        };
        const auto every = count(std::chrono::milliseconds(0));
        QCOMPARE(
            std::count_if(every.begin(), every.end(), [](const Progress& p) { return p.stage == "reading"; }),
            std::ptrdiff_t{300});
        const auto few = count(std::chrono::hours(1));
        const auto reading =
            std::count_if(few.begin(), few.end(), [](const Progress& p) { return p.stage == "reading"; });
        QVERIFY2(reading >= 1 && reading <= 2, qPrintable(QString::number(reading))); // the first, the last
        auto last =
            std::find_if(few.rbegin(), few.rend(), [](const Progress& p) { return p.stage == "reading"; });
        QCOMPARE(last->filesDone, std::uint64_t{300});
        QCOMPARE(few.back().stage, std::string("done"));
    }
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    void sampleAndFixtures()
    {
        compareAt(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4", {256, 1024}, true);
        QDirIterator it(QStringLiteral(RANKLINE_TEST_DATA_DIR), QDir::Dirs | QDir::NoDotAndDotDot);
        while (it.hasNext()) {
            const QString dir = it.next();
            if (dir.endsWith(QStringLiteral("/golden")))
                continue;
            compareAt(dir.toStdString(), {700, 8192}, false);
        }
    }

    void realLogs()
    {
        QDir root(QStringLiteral(RANKLINE_REALLOGS_DIR));
        if (!root.exists())
            QSKIP("real logs not found (set RANKLINE_REALLOGS_DIR)");
        for (const QString& c : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            compareAt(root.filePath(c).toStdString(), {1024, 16384}, false);
    }

    // One combined stream (srun -l prefixes, twelve ranks interleaved), cut so that pieces start
    // between a stamp and the Init lines it bounds, and every rank repeats its WARN far more often
    // than the per-process cap.
    void combinedStreamAcrossPieces()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string path = (tmp.path() + QStringLiteral("/job.out")).toStdString();
        {
            std::ofstream out(path);
            const int ranks = 12;
            for (int r = 0; r < ranks; ++r)
                out << r << ": gpu-" << r / 4 << ":" << 4000 + r << ":" << 4100 + r << " [" << r % 4
                    << "] NCCL INFO Bootstrap : Using eth0:10.0.0." << 10 + r / 4 << "<0>\n";
            for (int step = 0; step < 60; ++step) {
                for (int r = 0; r < ranks; ++r) {
                    out << r << ": 2025-06-12 14:03:" << 10 + step / 4 << "," << 100 + 7 * r + step
                        << " INFO train.py:142 [rank" << r << "] step " << step << " | loss 7.5\n";
                    // Unstamped NCCL lines whose times come from the stamped lines around them.
                    out << r << ": gpu-" << r / 4 << ":" << 4000 + r << ":" << 4100 + r << " [" << r % 4
                        << "] NCCL INFO comm 0x55b7e3a6f3" << 10 + r << " rank " << r << " nranks " << ranks
                        << " cudaDev " << r % 4 << " nvmlDev " << r % 4
                        << " busId 89000 commId 0x98cb53c1551b24" << 10 + step << " - Init "
                        << (step % 2 ? "COMPLETE" : "START") << "\n";
                    if (step > 20)
                        out << r << ": gpu-" << r / 4 << ":" << 4000 + r << ":" << 4200 + r << " [" << r % 4
                            << "] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0."
                            << 10 + (r / 4 + 1) % 3 << "<4" << 1000 + r
                            << "> failed : Software caused connection abort\n";
                }
            }
        }
        compareAt(path, {1024, 4096, 30000}, true);
    }

    // Pieces are cut at the first line start after every pieceBytes: a line longer than several
    // pieces leaves those pieces with no line of their own, and the one connect-abort WARN, whose
    // thread's trail line (which pins the NCCL release, "hints" in the JSON) lies a few lines
    // later, is cut from its trail at some sizes: the WARN's piece cannot read the trail, and must
    // leave the line for the environment to read rather than read it without one. Either must give
    // what the whole scan gives.
    void longLinesAndTrailsAcrossPieces()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string path = (tmp.path() + QStringLiteral("/job.out")).toStdString();
        std::uint64_t warnAt = 0;
        {
            std::ofstream out(path, std::ios::binary);
            const int ranks = 4;
            for (int r = 0; r < ranks; ++r)
                out << r << ": gpu-" << r << ":" << 5000 + r << ":" << 5100 + r
                    << " [0] NCCL INFO Bootstrap : Using eth0:10.0.0." << 20 + r << "<0>\n";
            for (int step = 0; step < 40; ++step)
                for (int r = 0; r < ranks; ++r) {
                    out << r << ": 2025-06-12 14:03:" << 10 + step << ",5" << r << " INFO train.py:142 [rank"
                        << r << "] step " << step << "\n";
                    if (step == 10 && r == 1) {
                        warnAt = static_cast<std::uint64_t>(out.tellp());
                        const std::string prefix = "1: gpu-1:5001:5201 [0] ";
                        out << prefix
                            << "misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.22<43000> "
                               "failed : Software caused connection abort\n";
                        for (int k = 0; k < 3; ++k)
                            out << "2: gpu-2:5002:5102 [0] NCCL INFO Channel 0" << k
                                << " : 0[0] -> 1[0] via NET/Socket/0\n";
                        out << prefix << "NCCL INFO misc/socket.cc:564 -> 2\n";
                    }
                    if (step == 25 && r == 2)
                        out << "2: " << std::string(20000, 'x') << "\n"; // longer than four pieces of 4 KiB
                }
        }
        const Run whole = diagnose(path, std::uint64_t{1} << 40);
        QVERIFY2(whole.json.find("misc/socket.cc:564") != std::string::npos,
                 "the whole scan did not pin the release from the WARN and its trail");
        // warnAt + 1: the cut falls right after the WARN, so its trail is in the next piece.
        compareAt(path, {warnAt + 1, warnAt + 80, 1000, 4096, 5000}, true);
    }

    // In a stream two processes share without a launcher prefix, the blank line NCCL prints before a
    // WARN belongs to the process of the WARN, which follows within seven lines; a blank line that
    // no prefixed line follows so closely belongs to the file's own process, as the other
    // unprefixed lines do. The scan keeps only the blank lines that may take a process (a file of
    // millions of blank lines keeps none), also when the prefixed line starts the next piece.
    void blankLineTakesTheProcessOfTheWarnAfterIt()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string path = (tmp.path() + QStringLiteral("/job.out")).toStdString();
        std::vector<std::uint64_t> cuts; // right after the blank line before each WARN
        {
            std::ofstream out(path, std::ios::binary);
            for (int round = 0; round < 30; ++round) {
                out << "gpu-a:100:101 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n";
                out << "gpu-b:200:201 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n";
                out << "plain text of the job " << round << "\n";
                out << "\n";
                if (round % 3 == 0)
                    cuts.push_back(static_cast<std::uint64_t>(out.tellp()));
                // Round 1: the WARN comes seven lines after the blank line, the farthest it may.
                if (round == 1)
                    for (int k = 0; k < 6; ++k)
                        out << "still plain " << k << "\n";
                out << (round % 2 ? "gpu-b:200:202 [1]" : "gpu-a:100:102 [0]")
                    << " misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.9<4" << round
                    << "> failed : Connection refused\n";
            }
            for (int k = 0; k < 2000; ++k)
                out << "\n"; // blank lines that no prefixed line follows
            out << "the end\n";
            // Eight lines between this blank line and the next prefixed one: too far.
            out << "\n";
            for (int k = 0; k < 7; ++k)
                out << "tail " << k << "\n";
            out << "gpu-a:100:103 [0] NCCL INFO done\n";
        }
        // cuts[k] - 1: the first piece ends right after that blank line, and its WARN starts the next.
        for (const std::uint64_t pieceBytes :
             std::vector<std::uint64_t>{std::uint64_t{1} << 40, 512, cuts[1] - 1, cuts[3] - 1}) {
            AnalyzeOptions opts;
            opts.probeLocalNccl = false;
            opts.mergedOrder = false;
            opts.pieceBytes = pieceBytes;
            auto a = analyzePaths({path}, m_enc, opts);
            QVERIFY(a);
            const SourceLines& sl = a->lines.at(0);
            const Source& src = a->sources.at(0);
            auto hostOf = [&](std::uint32_t line) { return a->process(sl.process(line)).host; };
            const ProcessId own = sl.process(2); // "plain text of the job 0"
            QVERIFY(a->process(own).host.empty());
            int warns = 0, lastPlain = -1;
            for (std::uint32_t i = 0; i + 1 < sl.size(); ++i) {
                const std::string_view text = src.line(i);
                if (text.rfind("plain text", 0) == 0 || text.rfind("still plain", 0) == 0)
                    lastPlain = static_cast<int>(i);
                if (!text.empty())
                    continue;
                std::uint32_t next = i + 1;
                while (next < sl.size() && src.line(next).find("NCCL") == std::string_view::npos)
                    ++next;
                if (next < sl.size() && next - i <= 7 &&
                    src.line(next).find("NCCL WARN") != std::string_view::npos) {
                    QCOMPARE(hostOf(i), hostOf(next));
                    QVERIFY(!hostOf(i).empty());
                    ++warns;
                } else if (next - i > 7) {
                    QCOMPARE(sl.process(i).value, own.value);
                }
            }
            QCOMPARE(warns, 30);
            QVERIFY(lastPlain > 0);
        }
    }

    // Hundreds of processes in one stream: each piece numbers more of them than a byte holds, so the
    // lines' storage takes its widest form, in the piece's own lines and in the source's as the
    // pieces join while others are still scanning (when pieces wrote into the source's lines, a
    // change of form under them once lost lines' processes: a rank named wrongly, now and then).
    // Threads outnumber the cores so that pieces interleave; repeated because a race shows now and
    // then, and the suite runs under AddressSanitizer too.
    void manyProcessesAcrossPiecesOnManyThreads()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string path = (tmp.path() + QStringLiteral("/job.out")).toStdString();
        const int ranks = 600;
        {
            std::ofstream out(path);
            for (int step = 0; step < 6; ++step)
                for (int r = 0; r < ranks; ++r) {
                    const int host = r / 8;
                    out << r << ": gpu-" << host << ":" << 4000 + r << ":" << 4100 + r << " [" << r % 8
                        << "] NCCL INFO comm 0x55b7e3a6f3" << 10 + r << " rank " << r << " nranks " << ranks
                        << " cudaDev " << r % 8 << " nvmlDev " << r % 8
                        << " busId 89000 commId 0x98cb53c1551b24" << 10 + step << " - Init "
                        << (step % 2 ? "COMPLETE" : "START") << "\n";
                    out << r << ": 2025-06-12 14:03:" << 10 + step << "," << 100 + r % 800
                        << " INFO train.py:142 [rank" << r << "] step " << step << " | loss 7.5\n";
                }
        }
        const Run whole = diagnose(path, std::uint64_t{1} << 40);
        QVERIFY(!whole.json.empty());
        const json d = json::parse(whole.json);
        QCOMPARE(d["ranks"].size(), std::size_t(ranks));
        for (int round = 0; round < 6; ++round) {
            const Run pieces = diagnose(path, 8192, 6);
            QVERIFY2(pieces.reports > pieces.files, "the stream was not cut");
            QVERIFY2(pieces.json == whole.json, qPrintable(QStringLiteral("round %1 differs").arg(round)));
        }
    }

    // A source of hundreds of processes counts the hits it keeps per (pattern, process) in a hash
    // map, not a table of every pattern for every process (scanPiece): the cap must hold there as
    // in the table. Each of 600 ranks repeats one WARN twenty times, past the cap of 16 kept per
    // process: the whole stream (600 ranks, hashed) keeps 16 a rank, as its pieces (a few dozen
    // ranks each, a table) do, and so does a file of one rank.
    void hitCapWithManyProcesses()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string path = (tmp.path() + QStringLiteral("/job.out")).toStdString();
        const int ranks = 600, repeats = 20;
        auto warn = [](int r) {
            std::ostringstream line;
            line << r << ": gpu-" << r / 8 << ":" << 4000 + r << ":" << 4100 + r << " [" << r % 8
                 << "] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0." << r / 8 << "."
                 << r % 8 + 1 << "<43717> failed : Software caused connection abort\n";
            return line.str();
        };
        {
            std::ofstream out(path);
            for (int k = 0; k < repeats; ++k)
                for (int r = 0; r < ranks; ++r)
                    out << warn(r);
        }
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        opts.mergedOrder = false;
        auto symptomsOf = [](const Analysis& a, ProcessId p) {
            return std::count_if(a.events.begin(), a.events.end(), [p](const Event& e) {
                return e.kind == EventKind::Symptom && e.process == p;
            });
        };
        const auto whole = analyzePaths({path}, m_enc, opts);
        QVERIFY(whole);
        QCOMPARE(whole->processes.size(), std::size_t(ranks));
        for (const Process& p : whole->processes)
            QCOMPARE(symptomsOf(*whole, p.id), std::ptrdiff_t{16});
        const Run pieces = diagnose(path, 8192, 4);
        QVERIFY2(pieces.reports > pieces.files, "the stream was not cut");
        QVERIFY(pieces.json == diagnose(path, std::uint64_t{1} << 40).json);
        // One rank's lines alone, the table's case.
        const std::string one = (tmp.path() + QStringLiteral("/rank7.log")).toStdString();
        {
            std::ofstream out(one);
            for (int k = 0; k < repeats; ++k)
                out << warn(7);
        }
        const auto single = analyzePaths({one}, m_enc, opts);
        QVERIFY(single);
        QCOMPARE(single->processes.size(), std::size_t{1});
        QCOMPARE(symptomsOf(*single, single->processes.front().id), std::ptrdiff_t{16});
    }
};

QTEST_GUILESS_MAIN(TestPieces)
#include "tst_pieces.moc"
