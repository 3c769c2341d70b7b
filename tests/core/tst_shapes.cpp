// Bundle shapes users actually have (fixtures under tests/data/shapes): which rank and host every
// line belongs to, and why.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include "analysis.h"
#include "bundle/bundle.h"
#include "identity/path_identity.h"
#include "parse/line_parser.h"
#include "report/diagnosis_report.h"
#include "report/timeline_picture.h"
#include "shipped_encyclopedia.h"

using namespace rl;
using nlohmann::json;

class TestShapes : public QObject
{
    Q_OBJECT

    // Each process's rank in the order --json lists them, -1 for a process of no rank.
    static std::vector<int> rankNumbers(const json& d)
    {
        std::vector<int> out;
        for (const auto& r : d["ranks"])
            out.push_back(r["rank"].is_number() ? r["rank"].get<int>() : -1);
        return out;
    }
    std::shared_ptr<const Encyclopedia> m_enc;

    json diagnose(const QString& rel, bool allAttempts = false)
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        o.allAttempts = allAttempts;
        auto a =
            analyzePaths({(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/") + rel).toStdString()}, m_enc, o);
        return json::parse(diagnosisJson(*a));
    }
    // The diagnosis of `text` written to a file of its own named `name`.
    json diagnoseWritten(const QByteArray& text, const QString& name)
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QFile o(path);
        if (!o.open(QIODevice::WriteOnly))
            return json();
        o.write(text);
        o.close();
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        return json::parse(diagnosisJson(*analyzePaths({path.toStdString()}, m_enc, opts)));
    }
    // A two-rank diagnosis whose connect abort is `rank`'s on `host`, at `line`, logged at `lo`.
    static void expectTwoRanksFailing(const json& d, int rank, const char* host, int line, const char* lo)
    {
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), rank);
        QCOMPARE(d["initiating"]["host"].get<std::string>(), std::string(host));
        QCOMPARE(d["initiating"]["line"].get<int>(), line);
        QCOMPARE(d["findings"][0]["time"]["lo"].get<std::string>(), std::string(lo));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
    }
    // The rank entry whose files include `file`.
    const json* owner(const json& d, const std::string& file)
    {
        for (const auto& r : d["ranks"])
            for (const auto& f : r["files"])
                if (f == file)
                    return &r;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    // What a file's name says of its writer, name by name: the usual forms and those of the
    // frameworks and services that keep one log per rank.
    void pathNames_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("rank");      // -1: none
        QTest::addColumn<int>("localRank"); // -1: none
        QTest::addColumn<QString>("host");
        QTest::newRow("rank3.log") << "rank3.log" << 3 << -1 << "";
        QTest::newRow("rank_003.txt") << "logs/rank_003.txt" << 3 << -1 << "";
        QTest::newRow("a word ending in rank") << "crank3.log" << -1 << -1 << "";
        QTest::newRow("local_rank is no global rank") << "local_rank3.log" << -1 << 3 << "";
        QTest::newRow("localrank is no global rank") << "localrank-3.log" << -1 << 3 << "";
        QTest::newRow("both") << "rank12_local_rank4.log" << 12 << 4 << "";
        QTest::newRow("a per-GPU file in a node folder") << "node-07/gpu2.log" << -1 << 2 << "node-07";
        QTest::newRow("pod") << "train-job-worker-7.log" << -1 << -1 << "train-job-worker-7";
        // NeMo's exp_manager: "nemo_log_globalrank-{global_rank}_localrank-{local_rank}.txt".
        QTest::newRow("NeMo") << "exp/nemo_log_globalrank-11_localrank-3.txt" << 11 << 3 << "";
        QTest::newRow("global_rank") << "global_rank5.log" << 5 << -1 << "";
        // Azure Machine Learning: one log per process of the job, named by its rank.
        QTest::newRow("Azure ML") << "user_logs/std_log_process_01.txt" << 1 << -1 << "";
        QTest::newRow("Azure ML's one process") << "user_logs/std_log.txt" << -1 << -1 << "";
        QTest::newRow("Azure ML v1") << "azureml-logs/70_driver_log_12.txt" << 12 << -1 << "";
        QTest::newRow("Azure ML v1, rank spelt out")
            << "azureml-logs/70_driver_log_rank_2.txt" << 2 << -1 << "";
        QTest::newRow("Azure ML v1's one process") << "azureml-logs/70_driver_log.txt" << -1 << -1 << "";
        // torchrun --log-dir trees: the folder above the run's names the node, unless it is the
        // archive the tree was read from; "./" (tar's members made with -C DIR .) is no folder.
        QTest::newRow("torchrun under a node folder")
            << "node-a/run7/attempt_1/3/stdout.log" << -1 << 3 << "node-a";
        QTest::newRow("torchrun with ./") << "node-a/./run7/attempt_1/3/stdout.log" << -1 << 3 << "node-a";
        QTest::newRow("torchrun at an archive's top")
            << "node-a.tgz!run7/attempt_1/3/stdout.log" << -1 << 3 << "";
        QTest::newRow("torchrun under a folder in an archive")
            << "logs.tgz!node-b/run7/attempt_1/3/stdout.log" << -1 << 3 << "node-b";
        QTest::newRow("./ in an archive") << "logs.tgz!./node-07/gpu2.log" << -1 << 2 << "node-07";
        // A Slurm job array's default output ("slurm-%A_%a.out"): an array task, not a rank.
        QTest::newRow("Slurm array task") << "slurm-12345_3.out" << -1 << -1 << "";
    }

    void pathNames()
    {
        QFETCH(QString, path);
        QFETCH(int, rank);
        QFETCH(int, localRank);
        QFETCH(QString, host);
        const PathIdentity id = identityFromPath(path.toStdString());
        QCOMPARE(id.rank.value_or(-1), rank);
        QCOMPARE(id.localRank.value_or(-1), localRank);
        QCOMPARE(QString::fromStdString(id.host), host);
    }

    // DeepSpeed's --enable_each_rank_log folder after a retry: "<launch time>_rank<N>.log" of two
    // launches, each node's launcher a second apart. The latest launch is diagnosed and the earlier
    // one set aside, as torchrun's attempts are; with every attempt, each launch's ranks stay apart.
    void deepSpeedLaunches()
    {
        json d = diagnose(QStringLiteral("deepspeed-rank-logs"));
        QCOMPARE(d["ranks"].size(), std::size_t{4});
        for (const auto& r : d["ranks"])
            QCOMPARE(r["attempt"].get<int>(), 1);
        QCOMPARE(d["skipped"].size(), std::size_t{4});
        for (const auto& sk : d["skipped"]) {
            const std::string why = sk["reason"];
            QVERIFY2(why.starts_with("DeepSpeed launch of 2025-06-12 14:03:16 (DeepSpeed launch of "
                                     "2025-06-12 14:45:01 is the latest"),
                     why.c_str());
            QVERIFY(why.find("--all-attempts") != std::string::npos);
        }
        // The latest launch hung: rank 2's watchdog, no initiating failure of its own.
        QVERIFY(d["initiating"].is_null());

        json all = diagnose(QStringLiteral("deepspeed-rank-logs"), true);
        QCOMPARE(all["ranks"].size(), std::size_t{8});
        QVERIFY(all["skipped"].empty());
        QCOMPARE(all["initiating"]["rank"].get<int>(), 1);
        QCOMPARE(all["initiating"]["file"].get<std::string>(), std::string("20250612140316_rank1.log"));
        for (const auto& r : all["ranks"])
            QCOMPARE(r["files"].size(), std::size_t{1}); // rank 2's "[rank2]:" line stays its launch's

        // One launch across two nodes whose launchers started a second apart: one run, no attempts.
        std::vector<PathIdentity> ids(4);
        rl::deepSpeedLaunches(ids, {"a/20250612140316_rank0.log", "a/20250612140316_rank1.log",
                                    "b/20250612140317_rank2.log", "b/20250612140317_rank3.log"});
        for (const auto& id : ids)
            QVERIFY(!id.attempt);
    }

    // Files named alike but for a number counting from 0 (Slurm's srun --output=%x-%j-%t.out and
    // --error=%x-%j-%t.err; "log_0.txt"): each file's number is its rank. Names whose number counts
    // something else, or stands in a word, or whose numbers do not start at 0, are not read so.
    void numberedSeries_data()
    {
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<QList<int>>("ranks"); // -1: none
        QTest::newRow("Slurm per task, .out and .err")
            << QStringList{"logs/train-88123-0.out", "logs/train-88123-0.err", "logs/train-88123-1.out",
                           "logs/train-88123-2.out", "logs/train-88123-2.err"}
            << QList<int>{0, 0, 1, 2, 2};
        QTest::newRow("zero-filled, gzipped")
            << QStringList{"a/log_000.txt.gz", "a/log_001.txt.gz", "a/log_002.txt.gz"} << QList<int>{0, 1, 2};
        QTest::newRow("numbers alone") << QStringList{"out/0.log", "out/1.log"} << QList<int>{0, 1};
        QTest::newRow("in an archive")
            << QStringList{"job.tgz!o.0.log", "job.tgz!o.1.log"} << QList<int>{0, 1};
        QTest::newRow("a gap no wider than the files")
            << QStringList{"r-0.log", "r-1.log", "r-3.log"} << QList<int>{0, 1, 3};
        QTest::newRow("too wide a gap") << QStringList{"r-0.log", "r-5.log"} << QList<int>{-1, -1};
        QTest::newRow("not from 0") << QStringList{"r-1.log", "r-2.log"} << QList<int>{-1, -1};
        QTest::newRow("one file") << QStringList{"r-0.log"} << QList<int>{-1};
        QTest::newRow("two folders") << QStringList{"a/r-0.log", "b/r-1.log"} << QList<int>{-1, -1};
        QTest::newRow("rotated logs")
            << QStringList{"train.log.0", "train.log.1", "train.log.2"} << QList<int>{-1, -1, -1};
        QTest::newRow("dates") << QStringList{"log-2026-11-01.txt", "log-2026-11-02.txt"}
                               << QList<int>{-1, -1};
        QTest::newRow("a number in a word") << QStringList{"node0.log", "node1.log"} << QList<int>{-1, -1};
        QTest::newRow("nodes") << QStringList{"train-node-0.log", "train-node-1.log"} << QList<int>{-1, -1};
        QTest::newRow("epochs") << QStringList{"epoch_0.log", "epoch_1.log"} << QList<int>{-1, -1};
        QTest::newRow("Slurm array tasks")
            << QStringList{"slurm-4242_0.out", "slurm-4242_1.out"} << QList<int>{-1, -1};
        // Names that already say whose they are keep their own reading.
        QTest::newRow("rank files") << QStringList{"rank0.log", "rank1.log"} << QList<int>{0, 1};
        QTest::newRow("per-GPU files") << QStringList{"n7/gpu_0.log", "n7/gpu_1.log"} << QList<int>{-1, -1};
        // Two series counting the same numbers: each node's local ranks, two jobs side by side.
        QTest::newRow("a series per node folder")
            << QStringList{"node-a/0.log", "node-a/1.log", "node-b/0.log", "node-b/1.log"}
            << QList<int>{-1, -1, -1, -1};
        QTest::newRow("a series per node name")
            << QStringList{"l/node07-0.log", "l/node07-1.log", "l/node08-0.log", "l/node08-1.log"}
            << QList<int>{-1, -1, -1, -1};
        QTest::newRow("two jobs") << QStringList{"t-88123-0.out", "t-88123-1.out", "t-88200-0.out",
                                                 "t-88200-1.out"}
                                  << QList<int>{-1, -1, -1, -1};
        // Slurm's `%x-%N-%t`: the node's name, then the task number, which counts across nodes.
        QTest::newRow("a task series across node names")
            << QStringList{"l/t-node07-0.out", "l/t-node07-0.err", "l/t-node07-1.out",
                           "l/t-node08-2.out", "l/t-node08-3.out", "l/t-node11-4.out"}
            << QList<int>{0, 0, 1, 2, 3, 4};
        QTest::newRow("two jobs' other tasks")
            << QStringList{"t-88123-0.out", "t-88200-1.out"} << QList<int>{-1, -1};
        QTest::newRow("stdout and stderr series")
            << QStringList{"l/out-0.log", "l/out-1.log", "l/err-0.log", "l/err-1.log"}
            << QList<int>{0, 1, 0, 1};
    }
    void numberedSeries()
    {
        QFETCH(QStringList, paths);
        QFETCH(QList<int>, ranks);
        std::vector<std::string> names;
        std::vector<PathIdentity> ids;
        for (const QString& p : paths) {
            names.push_back(p.toStdString());
            ids.push_back(identityFromPath(names.back()));
        }
        const std::vector<std::string_view> views(names.begin(), names.end());
        std::vector<std::uint64_t> sizes; // every file's own
        for (std::size_t i = 0; i < names.size(); ++i)
            sizes.push_back(100 + i);
        rl::numberedSeries(ids, views, sizes);
        for (qsizetype i = 0; i < paths.size(); ++i)
            QVERIFY2(ids[static_cast<std::size_t>(i)].rank.value_or(-1) == ranks[i], qPrintable(paths[i]));
    }

    // Slurm's per-task output without NCCL's Init lines (rank 2 ran out of memory building its model,
    // before NCCL printed anything; the others waited at the store's barrier): the files' numbers
    // are the ranks, each rank's .out and .err one process, and the failure is rank 2's.
    void slurmPerTaskFiles()
    {
        json d = diagnose(QStringLiteral("slurm-tasks"));
        QCOMPARE(d["ranks"].size(), std::size_t{4});
        for (int r = 0; r < 4; ++r) {
            const std::string stem = "train-88123-" + std::to_string(r);
            const json* out = owner(d, stem + ".out");
            QVERIFY(out);
            QCOMPARE(out, owner(d, stem + ".err"));
            QCOMPARE((*out)["rank"].get<int>(), r);
            QCOMPARE(QString::fromStdString((*out)["identity_source"]), QStringLiteral("file-name-series"));
            QVERIFY(!out->contains("identity_conflicts"));
        }
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("cuda-oom"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("train-88123-2.err"));
    }

    // The .err files have no stamps: each sorts, and is drawn, at its own rank's last stamped
    // line (its .out's), not before every stamped line of the run. Their times stay unknown.
    void unstampedFilesAtTheirProcesssLastStamp()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/slurm-tasks"}, m_enc, o);
        auto source = [&](const std::string& name) {
            for (const auto& s : a->sources)
                if (s.displayPath == name)
                    return s.id;
            qFatal("no such file %s", name.c_str());
        };
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> row;
        for (std::size_t r = 0; r < a->merged.size(); ++r)
            row[{a->merged[r].source.value, a->merged[r].line}] = r;
        for (int rank = 0; rank < 4; ++rank) {
            const std::string stem = "train-88123-" + std::to_string(rank);
            const SourceId out = source(stem + ".out"), err = source(stem + ".err");
            const auto lastOut = static_cast<std::uint32_t>(a->lines[out.value].size() - 1);
            const LineRef traceback{err, 0};
            QVERIFY(!a->info(traceback).time.known());
            const std::size_t errRow = row[{err.value, 0}], outRow = row[{out.value, lastOut}];
            QVERIFY2(errRow > outRow, stem.c_str());
            bool standIn = false;
            QCOMPARE(a->axisTime(traceback, &standIn), a->axisTime({out, lastOut}));
            QVERIFY(standIn);
        }
        // Rank 2 failed building its model, before the others began to wait.
        QVERIFY(a->axisTime({source("train-88123-2.err"), 5}) <
                a->axisTime({source("train-88123-0.err"), 5}));
        // The report's picture says what its 0 is: no time rank 2 logged for its failure.
        const std::string caption = layoutTimeline(*a).caption;
        QVERIFY2(caption.find("the last stamped line of rank 2") != std::string::npos, caption.c_str());
        QVERIFY(caption.find("train-88123-2.err:6") != std::string::npos);
        QVERIFY(caption.find("as logged by") == std::string::npos);
    }

    // In one `srun -l` stream each rank's last stamped line is its own, not the stream's last.
    void lastStampOfEachRankInACombinedStream_data()
    {
        QTest::addColumn<int>("others"); // files of other ranks beside the stream
        // A stream of more stamps than the bundle has processes, and one of fewer (each other
        // rank's file a process of its own): the two ways the stage keeps the stream's ranks.
        QTest::newRow("the stream alone") << 0;
        QTest::newRow("beside other ranks' files") << 4;
    }
    void lastStampOfEachRankInACombinedStream()
    {
        QFETCH(int, others);
        Bundle b;
        b.sources.push_back(sourceFromText("job.out", "0: 2025-06-12 10:00:01,000 INFO a\n"
                                                      "1: 2025-06-12 10:00:02,000 INFO b\n"
                                                      "0: 2025-06-12 10:00:03,000 INFO c\n"
                                                      "0: Traceback (most recent call last):\n"));
        for (int r = 2; r < 2 + others; ++r)
            b.sources.push_back(sourceFromText("rank" + std::to_string(r) + ".log",
                                               "2025-06-12 10:00:0" + std::to_string(r) + ",500 INFO x\n"));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyze(std::move(b), m_enc, o);
        QCOMPARE(a->processes.size(), std::size_t(2 + others));
        for (const Process& p : a->processes) {
            QVERIFY(p.rank);
            const LineRef lastLine = *p.rank >= 2 ? LineRef{a->process(p.id).sources.front(), 0}
                                                  : LineRef{SourceId(0), *p.rank == 0 ? 2u : 1u};
            QCOMPARE(a->processLastStamp[p.id.value], a->axisTime(lastLine));
        }
    }

    // The same job's files named as `--output=%x-%N-%t.out` names them: tasks 0 and 1 on node07, 2
    // and 3 on node08. The task numbers still count the ranks across the nodes.
    void slurmPerTaskFilesNamedByNode()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString from = QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/slurm-tasks/");
        for (int t = 0; t < 4; ++t)
            for (const QString& ext : {QStringLiteral("out"), QStringLiteral("err")})
                QVERIFY(QFile::copy(from + QStringLiteral("train-88123-%1.%2").arg(t).arg(ext),
                                    tmp.filePath(QStringLiteral("train-node%1-%2.%3")
                                                     .arg(t < 2 ? QStringLiteral("07") : QStringLiteral("08"))
                                                     .arg(t)
                                                     .arg(ext))));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        json d = json::parse(diagnosisJson(*analyzePaths({tmp.path().toStdString()}, m_enc, o)));
        QCOMPARE(d["ranks"].size(), std::size_t{4});
        for (int r = 0; r < 4; ++r) {
            const json* out = owner(d, QStringLiteral("train-node%1-%2.out")
                                           .arg(r < 2 ? QStringLiteral("07") : QStringLiteral("08"))
                                           .arg(r)
                                           .toStdString());
            QVERIFY(out);
            QCOMPARE((*out)["rank"].get<int>(), r);
        }
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("train-node08-2.err"));
    }

    // The same folder of per-task files copied twice into the bundle (each copy a series of its
    // own): the second copy's stamped files are copies of the first's, and still four ranks.
    void numberedSeriesCopied()
    {
        QTemporaryDir dir;
        const QDir from(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/slurm-tasks"));
        for (const char* copy : {"a", "backup"}) {
            QVERIFY(QDir().mkpath(dir.filePath(QString::fromLatin1(copy))));
            for (const QString& name : from.entryList(QDir::Files))
                QVERIFY(
                    QFile::copy(from.filePath(name), dir.filePath(QString::fromLatin1(copy) + '/' + name)));
        }
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        const json d = json::parse(diagnosisJson(*analyzePaths({dir.path().toStdString()}, m_enc, o)));
        QCOMPARE(d["ranks"].size(), std::size_t{4});
        std::size_t copies = 0;
        for (const json& sk : d["skipped"])
            copies += sk["file"].get<std::string>().starts_with("backup/") &&
                      sk["file"].get<std::string>().ends_with(".out");
        QCOMPARE(copies, std::size_t{4});
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
    }

    // A file of a series without NCCL lines is its sibling's process (same series, same number),
    // even where another file of the bundle named that rank first (another job's rank 3 beside it).
    void numberedSeriesSiblings()
    {
        QTemporaryDir dir;
        const QDir from(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/slurm-tasks"));
        for (const QString& name : from.entryList(QDir::Files))
            QVERIFY(QFile::copy(from.filePath(name), dir.filePath(name)));
        QVERIFY(QFile::copy(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/folders/rank_003.txt"),
                            dir.filePath(QStringLiteral("rank_003.txt"))));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        const json d = json::parse(diagnosisJson(*analyzePaths({dir.path().toStdString()}, m_enc, o)));
        const json* out = owner(d, "train-88123-3.out");
        QVERIFY(out);
        QCOMPARE(owner(d, "train-88123-3.err"), out);
        QCOMPARE(QString::fromStdString((*out)["host"]), QStringLiteral("node02"));
        QVERIFY(owner(d, "rank_003.txt") != out);
    }

    // A series whose numbers are not ranks: a node's file holding several ranks' NCCL lines, or a
    // file whose Init line names another rank. The numbers are taken back from every file of the
    // series (no rank from them, no conflict reported); NCCL's own lines decide.
    void numberedSeriesContradicted()
    {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        auto init = [](const char* host, int pid, int rank) {
            return QByteArray(host) + ':' + QByteArray::number(pid) + ':' + QByteArray::number(pid) + " [" +
                   QByteArray::number(rank % 2) + "] NCCL INFO comm 0x5600 rank " + QByteArray::number(rank) +
                   " nranks 4 cudaDev " + QByteArray::number(rank % 2) + " busId 1b000 - Init COMPLETE\n";
        };
        // One file per node, two ranks in each; the third file, of no NCCL line, is no rank 2.
        QDir().mkpath(dir.filePath(QStringLiteral("nodes")));
        write(QStringLiteral("nodes/job-0.out"), init("n1", 10, 0) + init("n1", 11, 1));
        write(QStringLiteral("nodes/job-1.out"), init("n2", 20, 2) + init("n2", 21, 3));
        write(QStringLiteral("nodes/job-2.out"), "Traceback (most recent call last):\nValueError: bad\n");
        // One rank per file, but the numbers are not the ranks.
        QDir().mkpath(dir.filePath(QStringLiteral("shuffled")));
        write(QStringLiteral("shuffled/out_0.log"), init("n3", 30, 1));
        write(QStringLiteral("shuffled/out_1.log"), init("n3", 31, 0));
        write(QStringLiteral("shuffled/out_2.log"), "starting\n");
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        for (const char* sub : {"nodes", "shuffled"}) {
            auto a = analyzePaths({dir.filePath(QString::fromLatin1(sub)).toStdString()}, m_enc, o);
            const json d = json::parse(diagnosisJson(*a));
            for (const json& r : d["ranks"]) {
                QVERIFY2(r["identity_source"] != "file-name-series", sub);
                QVERIFY2(!r.contains("identity_conflicts"), sub);
            }
            const json* last = owner(d, std::string(sub == std::string("nodes") ? "job-2.out" : "out_2.log"));
            QVERIFY2(last && (*last)["rank"].is_null(), sub);
        }
    }

    // A log folder gzipped file by file when it was collected (`gzip -r`), as often: diagnosed as
    // the plain folder is. DeepSpeed's launches were not told apart in "<time>_rank<N>.log.gz"
    // (eight ranks of two launches made one run), and torchelastic's error.json.gz was read as
    // one line of JSON rather than the failure it records.
    void gzippedFolders_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::newRow("DeepSpeed launches") << "deepspeed-rank-logs";
        QTest::newRow("torchrun log-dir with error.json") << "torchrun";
    }
    void gzippedFolders()
    {
        QFETCH(QString, shape);
        const QDir from(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/") + shape);
        QTemporaryDir gz;
        QVERIFY(gz.isValid());
        QDirIterator it(from.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            const QString to = gz.filePath(from.relativeFilePath(file) + QStringLiteral(".gz"));
            QVERIFY(QDir().mkpath(QFileInfo(to).path()));
            QFile in(file);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray bytes = in.readAll();
            gzFile g = gzopen(to.toLocal8Bit().constData(), "wb");
            QVERIFY(g);
            QCOMPARE(gzwrite(g, bytes.constData(), static_cast<unsigned>(bytes.size())), int(bytes.size()));
            QCOMPARE(gzclose(g), Z_OK);
        }
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        std::string plain = diagnosisJson(*analyzePaths({from.path().toStdString()}, m_enc, o));
        std::string zipped = diagnosisJson(*analyzePaths({gz.path().toStdString()}, m_enc, o));
        // The files' names are the only difference: "rank0.log.gz" where the plain one is rank0.log.
        for (const char* gzName : {".gz\"", ".gz:", ".gz ("}) {
            const std::string_view was(gzName);
            for (std::size_t at = zipped.find(was); at != std::string::npos; at = zipped.find(was, at))
                zipped.erase(at, 3);
        }
        QVERIFY(plain.find(".gz") == std::string::npos);
        QCOMPARE(QString::fromStdString(zipped), QString::fromStdString(plain));
    }

    // A job that ran twice with its output appended to one srun -l file (Slurm's --requeue with
    // --open-mode=append): each rank printed by a new process the second time. The latest run is
    // diagnosed (its out-of-memory error, not the first run's connect abort, which was taken
    // before), the earlier one's lines are set aside and said so; with every attempt read, the
    // first run's failure is the earliest again.
    void appendedRuns()
    {
        json d = diagnose(QStringLiteral("appended/slurm-requeued.out"));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("cuda-oom"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 37);
        std::map<int, int> attemptOfPid;
        for (const auto& r : d["ranks"])
            if (r["pid"].is_number())
                attemptOfPid[r["pid"].get<int>()] = r["attempt"].get<int>();
        QCOMPARE(attemptOfPid, (std::map<int, int>{{4100, 0}, {5100, 0}, {7200, 1}, {8300, 1}}));
        QCOMPARE(d["skipped"].size(), std::size_t{1});
        const std::string why = d["skipped"][0]["reason"];
        // Lines 23 and 24 are the second run's start-up lines: each rank's first line here again.
        QVERIFY2(why.starts_with("lines 1 to 22 and those of 2 process(es) are an earlier run of the job") &&
                     why.find("--all-attempts") != std::string::npos,
                 why.c_str());

        json all = diagnose(QStringLiteral("appended/slurm-requeued.out"), true);
        QCOMPARE(all["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(all["initiating"]["line"].get<int>(), 9);
        QVERIFY(all["skipped"].empty());

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        // The same runs as `nohup python train.py >> train.log` leaves them: no launcher prefix, the
        // framework's lines those of no process. Told apart by NCCL's lines alone; what precedes
        // the second run in the file is set aside with the first run's processes.
        {
            QFile in(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/appended/slurm-requeued.out"));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QFile out(dir.filePath(QStringLiteral("nohup/train.log")));
            QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("nohup"))) && out.open(QIODevice::WriteOnly));
            for (QByteArray line : in.readAll().split('\n'))
                if (!line.startsWith("srun:"))
                    out.write((line.startsWith("0: ") || line.startsWith("1: ") ? line.mid(3) : line) + '\n');
        }
        json nohup = json::parse(
            diagnosisJson(*analyzePaths({dir.filePath(QStringLiteral("nohup")).toStdString()}, m_enc, o)));
        QCOMPARE(nohup["initiating"]["entry"].get<std::string>(), std::string("cuda-oom"));
        QCOMPARE(nohup["skipped"].size(), std::size_t{1});
        QVERIFY(nohup["skipped"][0]["reason"].get<std::string>().starts_with(
            "lines 1 to 22 and those of 2 process(es)"));

        // The second run's rank 1 failed loading its model, before NCCL printed anything: its
        // traceback follows its start-up line, which repeats its first line of the first run, and
        // is this run's initiating failure, not set aside with the first run's lines (rank 0's
        // second run had printed no NCCL line yet). With every attempt, the first run's connect
        // abort is the earliest again.
        json early = diagnose(QStringLiteral("appended/slurm-requeued-early-failure.out"));
        QCOMPARE(early["initiating"]["entry"].get<std::string>(), std::string("gpu-hardware-fault"));
        QCOMPARE(early["initiating"]["rank"].get<int>(), 1);
        QCOMPARE(early["initiating"]["line"].get<int>(), 31);
        QVERIFY2(
            early["skipped"][0]["reason"].get<std::string>().starts_with("lines 1 to 22 and those of 2 "),
            early["skipped"].dump().c_str());
        // Rank 1's second run printed no NCCL line: a process of its own (no pid), the second
        // attempt, its first run's process (5100) set aside with the first run.
        bool rank1Again = false;
        for (const auto& r : early["ranks"])
            if (r["rank"] == 1 && r["attempt"] == 1) {
                rank1Again = true;
                QVERIFY(r.contains("pid") && r["pid"].is_null());
                QCOMPARE(r["host"].get<std::string>(), std::string("node-2"));
            } else if (r["pid"] == 5100) {
                QCOMPARE(r["attempt"].get<int>(), 0);
            }
        QVERIFY(rank1Again);
        // A first line the program prints again within a run (here rank 0's, once more after its
        // connect failure) does not end that run: the last one before the next run's NCCL lines
        // starts it.
        {
            QFile in(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/appended/slurm-requeued.out"));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QList<QByteArray> lines = in.readAll().split('\n');
            lines.insert(
                12, "0: 2025-06-12 09:00:05,100 INFO train.py:38 starting rank 0 on node-1 (world_size 2)");
            QTemporaryDir again;
            QVERIFY(again.isValid());
            QFile out(again.filePath(QStringLiteral("slurm-81234.out")));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(lines.join('\n'));
            out.close();
            json d2 = json::parse(diagnosisJson(*analyzePaths({out.fileName().toStdString()}, m_enc, o)));
            QCOMPARE(d2["initiating"]["entry"].get<std::string>(), std::string("cuda-oom"));
            QVERIFY2(
                d2["skipped"][0]["reason"].get<std::string>().starts_with("lines 1 to 23 and those of 2 "),
                d2["skipped"].dump().c_str());
        }
        json earlyAll = diagnose(QStringLiteral("appended/slurm-requeued-early-failure.out"), true);
        QCOMPARE(earlyAll["initiating"]["entry"].get<std::string>(),
                 std::string("nccl-socket-connect-abort"));
        QCOMPARE(earlyAll["initiating"]["line"].get<int>(), 9);

        // Two processes of one rank whose lines interleave (two jobs writing into one file at once)
        // are no runs one after the other: nothing is set aside.
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("two-jobs"))));
        QFile f(dir.filePath(QStringLiteral("two-jobs/job.out")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("0: h1:10:10 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init START\n"
                "0: h1:20:20 [0] NCCL INFO comm 0x2 rank 0 nranks 2 cudaDev 1 busId 1c000 - Init START\n"
                "0: h1:10:10 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.9<4000> "
                "failed : Software caused connection abort\n"
                "0: h1:20:20 [0] NCCL INFO comm 0x2 rank 0 nranks 2 cudaDev 1 busId 1c000 - Init COMPLETE\n");
        f.close();
        json both = json::parse(
            diagnosisJson(*analyzePaths({dir.filePath(QStringLiteral("two-jobs")).toStdString()}, m_enc, o)));
        QVERIFY2(both["skipped"].empty(), both["skipped"].dump().c_str());
        QCOMPARE(both["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
    }

    // kubectl logs --timestamps of each pod of a PyTorchJob, torchrun --tee inside: "[default1]:" is a
    // local rank, so in the worker pod's file the traceback under it is that pod's local rank 1
    // (global rank 3, whose NCCL lines carry the same prefix), not the master pod's rank 1.
    void localRankPrefixesInEachPodsFile()
    {
        json d = diagnose(QStringLiteral("pods-tee"));
        QCOMPARE(d["ranks"].size(), std::size_t{4});
        for (const auto& r : d["ranks"]) {
            // Each rank's lines are in its own pod's file only (before, the worker's traceback made
            // the master's rank 1 a process of both files).
            QCOMPARE(r["files"].size(), std::size_t{1});
            QCOMPARE(r["files"][0].get<std::string>(),
                     std::string(r["rank"].get<int>() < 2 ? "job-master-0.log" : "job-worker-0.log"));
        }
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/pods-tee/job-worker-0.log"}, m_enc, o);
        QCOMPARE(a->process(a->lines[0].process(5)).rank.value_or(-1), 3); // "RuntimeError: boom ..."
    }

    void folders()
    {
        json d = diagnose(QStringLiteral("folders"));
        const json* r3 = owner(d, "rank_003.txt");
        QVERIFY(r3);
        QCOMPARE((*r3)["rank"].get<int>(), 3);
        QCOMPARE(QString::fromStdString((*r3)["identity_source"]), QStringLiteral("nccl-init"));
        const json* gpu = owner(d, "node-07/gpu2.log");
        QVERIFY(gpu);
        QCOMPARE(QString::fromStdString((*gpu)["host"]), QStringLiteral("node-07"));
        QCOMPARE((*gpu)["local_rank"].get<int>(), 2);
        const json* pod = owner(d, "pods/train-job-worker-7.log");
        QVERIFY(pod);
        QCOMPARE(QString::fromStdString((*pod)["host"]), QStringLiteral("train-job-worker-7"));
        // Saved on Windows (a byte order mark, CRLF): its first line reads as any other, and the
        // file is one process, not a second one on a host whose name starts with the mark.
        std::size_t owners = 0;
        for (const json& r : d["ranks"])
            for (const json& f : r["files"])
                owners += f.get<std::string>() == "saved-on-windows/worker.log";
        QCOMPARE(owners, std::size_t{1});
        const json* saved = owner(d, "saved-on-windows/worker.log");
        QVERIFY(saved);
        QCOMPARE(QString::fromStdString((*saved)["host"]), QStringLiteral("node-12"));
        QCOMPARE((*saved)["rank"].get<int>(), 12);
    }

    // The path and NCCL's own lines disagree: NCCL's word is kept, the path's reported.
    void conflictingWitnesses()
    {
        json d = diagnose(QStringLiteral("conflicts"));
        const json* named = owner(d, "rank3.log");
        QVERIFY(named);
        QCOMPARE((*named)["rank"].get<int>(), 5);
        QCOMPARE(QString::fromStdString((*named)["identity_source"]), QStringLiteral("nccl-init"));
        QCOMPARE((*named)["identity_conflicts"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString((*named)["identity_conflicts"][0]),
                 QStringLiteral("file name rank3.log says rank 3; kept rank 5 from nccl-init"));
        const json* placed = owner(d, "node-09/gpu1.log");
        QVERIFY(placed);
        QCOMPARE(QString::fromStdString((*placed)["host"]), QStringLiteral("gpu-b"));
        QCOMPARE((*placed)["local_rank"].get<int>(), 1); // the path's word where NCCL says nothing
        QCOMPARE(
            QString::fromStdString((*placed)["identity_conflicts"][0]),
            QStringLiteral("path node-09/gpu1.log suggests host node-09; kept gpu-b from the NCCL prefix"));
    }

    // mpirun --output-filename DIR: DIR/<job>/rank.<N>/{stdout,stderr}, N zero-filled (the first
    // two of 16 ranks). The folder names the rank; each rank's two streams are one process.
    void mpirunOutputFolders()
    {
        json d = diagnose(QStringLiteral("mpirun-output"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (int r = 0; r < 2; ++r) {
            const json& rank = d["ranks"][r];
            QCOMPARE(rank["rank"].get<int>(), r);
            QCOMPARE(rank["pid"].get<int>(), 5000 + r);
            QCOMPARE(rank["files"].size(), std::size_t{2});
        }
        QCOMPARE(QString::fromStdString(d["ranks"][1]["identity_source"]), QStringLiteral("file-name"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
    }

    void torchrunLogDirLatestAttempt()
    {
        json d = diagnose(QStringLiteral("torchrun"));
        QCOMPARE(d["skipped"].size(), std::size_t{1});
        QVERIFY(QString::fromStdString(d["skipped"][0]["file"]).contains(QStringLiteral("attempt_0")));
        QVERIFY(QString::fromStdString(d["skipped"][0]["reason"]).contains(QStringLiteral("--all-attempts")));
        // stdout and stderr of one local rank are one process; its NCCL lines name it.
        const json* r0 = owner(d, "node-a/run7_x1/attempt_1/0/stdout.log");
        QVERIFY(r0);
        QCOMPARE((*r0)["files"].size(), std::size_t{2});
        QCOMPARE((*r0)["pid"].get<int>(), 7001);
        QCOMPARE((*r0)["local_rank"].get<int>(), 0);
        QCOMPARE((*r0)["attempt"].get<int>(), 1);
        // Several nodes side by side stay apart.
        const json* b0 = owner(d, "node-b/run7_x1/attempt_1/0/stdout.log");
        QVERIFY(b0 && b0 != r0);
        QCOMPARE(QString::fromStdString((*b0)["host"]), QStringLiteral("node-b"));
        // error.json is read as evidence: its exception becomes a finding's line.
        const json* r1 = owner(d, "node-a/run7_x1/attempt_1/1/error.json");
        QVERIFY(r1);
        QCOMPARE((*r1)["local_rank"].get<int>(), 1);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]),
                 QStringLiteral("node-a/run7_x1/attempt_1/0/stdout.log"));
        bool versionFromErrorJson = false;
        for (const auto& lv : d["nccl"]["logs"])
            versionFromErrorJson |= lv["version"] == "2.18.3";
        QVERIFY(versionFromErrorJson);

        json all = diagnose(QStringLiteral("torchrun"), true);
        QCOMPARE(all["skipped"].size(), std::size_t{0});
    }

    // nccl-tests' -g 4 under mpirun on two nodes: one process per node, a thread per GPU, each GPU
    // a rank. Each GPU's Init line says its rank; the abort's line names GPU 2 in its prefix, so
    // the failure is rank 2's, not the first Init line's rank 0, and no rank of the eight is
    // missing although there are two processes.
    void oneProcessDrivingSeveralGpus()
    {
        json d = diagnose(QStringLiteral("nccl-tests-g4"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (const json& r : d["ranks"]) {
            const int base = r["host"] == "node-a" ? 0 : 4;
            QCOMPARE(r["devices"].get<std::vector<int>>(), (std::vector<int>{0, 1, 2, 3}));
            QCOMPARE(r["device_ranks"].size(), std::size_t{4});
            for (int dev = 0; dev < 4; ++dev) {
                QCOMPARE(r["device_ranks"][dev]["device"].get<int>(), dev);
                QCOMPARE(r["device_ranks"][dev]["rank"].get<int>(), base + dev);
            }
        }
        QCOMPARE(d["coverage"]["ranks_with_logs"].get<int>(), 8);
        QVERIFY2(d["coverage"]["missing_ranks"].empty(), d["coverage"].dump().c_str());
        const json& init = d["initiating"];
        QCOMPARE(init["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(init["rank"].get<int>(), 2);
        QCOMPARE(init["device"].get<int>(), 2);
        QCOMPARE(init["line"].get<int>(), 37);
        const std::string summary = d["findings"][0]["summary"];
        QVERIFY2(
            summary.rfind("Rank 2 on GPU 2 (node-a:41007) could not connect to 10.0.0.12 port 43215 (host "
                          "node-b)",
                          0) == 0,
            summary.c_str());
        // node-b's GPU 1 thread lost its connection: rank 5, pointing at the initiating GPU's rank.
        bool lost = false;
        for (const json& f : d["findings"])
            if (f["entry"] == "nccl-peer-connection-lost") {
                lost = true;
                QCOMPARE(f["rank"].get<int>(), 5);
                QCOMPARE(f["device"].get<int>(), 1);
                QVERIFY2(f["summary"].get<std::string>().find("the host of the initiating rank 2 on GPU 2") !=
                             std::string::npos,
                         f["summary"].dump().c_str());
            }
        QVERIFY(lost);
    }

    // The same run at NCCL_DEBUG=WARN, both processes' output in one file: no Init line, but
    // nccl-tests' own listing of its ranks ("#  Rank  6 Group  0 Pid  52210 on node-b device  2
    // [0000:52:00] ...") says each GPU's rank of each process, and the WARNs' prefixes which GPU.
    void ncclTestsListsItsRanks()
    {
        json d = diagnose(QStringLiteral("nccl-tests-warn"));
        int listed = 0;
        for (const json& r : d["ranks"]) {
            if (r["pid"].is_null())
                continue;
            ++listed;
            const int base = r["host"] == "node-a" ? 0 : 4;
            QCOMPARE(r["identity_source"].get<std::string>(), std::string("nccl-tests"));
            QCOMPARE(r["rank"].get<int>(), base);
            QCOMPARE(r["devices"].get<std::vector<int>>(), (std::vector<int>{0, 1, 2, 3}));
            for (int dev = 0; dev < 4; ++dev)
                QCOMPARE(r["device_ranks"][dev]["rank"].get<int>(), base + dev);
        }
        QCOMPARE(listed, 2);
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        QCOMPARE(d["initiating"]["device"].get<int>(), 2);
        QVERIFY2(d["findings"][0]["summary"].get<std::string>().rfind("Rank 2 on GPU 2 (node-a:41007)", 0) ==
                     0,
                 d["findings"][0]["summary"].dump().c_str());
        bool lost = false;
        for (const json& f : d["findings"]) {
            if (f["entry"] == "nccl-peer-connection-lost") {
                lost = true;
                QCOMPARE(f["rank"].get<int>(), 5);
            }
            // nccl-tests' own failure lines ("node-a: Test NCCL failure ...", " .. node-a pid 41007:
            // Test failure ...") are their process's: no finding of an unknown process.
            QVERIFY2(!f["pid"].is_null(), f.dump().c_str());
        }
        QVERIFY(lost);
    }

    // One node's output of that run, where its process printed the listing of all eight ranks:
    // the listing says how many ranks the job has, and which four have no line here.
    void ncclTestsListingSaysWhatIsMissing()
    {
        QFile all(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/nccl-tests-warn/all_reduce_perf.out"));
        QVERIFY(all.open(QIODevice::ReadOnly));
        QByteArray nodeA;
        for (const QByteArray& line : all.readAll().split('\n'))
            if (!line.contains("node-b:") && !line.contains(" .. node-b"))
                nodeA += line + '\n';
        json d = diagnoseWritten(nodeA, QStringLiteral("node-a.out"));
        const json& c = d["coverage"];
        QVERIFY2(c.is_object(), d.dump().c_str());
        QCOMPARE(c["world_ranks"].get<int>(), 8);
        QCOMPARE(c["world_from"].get<std::string>(), std::string("nccl-tests"));
        QCOMPARE(c["missing_ranks"].get<std::vector<int>>(), (std::vector<int>{4, 5, 6, 7}));
        QCOMPARE(c["line"].get<int>(), 11); // the listing's last line, rank 7's
    }

    // A process of one GPU whose Init line says so is one rank, whatever other device a thread's
    // prefix shows: a thread that never selected a device prints cudaGetDevice's default "[0]".
    void initLineNamesTheProcesssOneGpu()
    {
        const QByteArray log =
            "node-c:7001:7001 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.13<0>\n"
            "node-c:7001:7040 [3] NCCL INFO comm 0x55d0c8a0b2c0 rank 11 nranks 16 cudaDev 3 nvmlDev 3 busId "
            "61000 commId 0x5c0a2f3b91d7e6a4 - Init START\n"
            "node-c:7001:7040 [3] NCCL INFO comm 0x55d0c8a0b2c0 rank 11 nranks 16 cudaDev 3 nvmlDev 3 busId "
            "61000 commId 0x5c0a2f3b91d7e6a4 - Init COMPLETE\n"
            "\nnode-c:7001:7090 [3] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
            "10.0.0.12<43215> failed : Software caused connection abort\n";
        json d = diagnoseWritten(log, QStringLiteral("rank11.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{1});
        const json& r = d["ranks"][0];
        QCOMPARE(r["rank"].get<int>(), 11);
        QVERIFY2(!r.contains("devices") && !r.contains("device_ranks"), r.dump().c_str());
        QCOMPARE(d["initiating"]["rank"].get<int>(), 11);
        QVERIFY2(!d["initiating"].contains("device"), d["initiating"].dump().c_str());
        QVERIFY2(d["findings"][0]["summary"].get<std::string>().rfind("Rank 11 (node-c:7001) could not", 0) ==
                     0,
                 d["findings"][0]["summary"].dump().c_str());
    }

    // The Init line of one GPU says that GPU's rank only: a WARN from another GPU's thread of the
    // same process (an excerpt without that GPU's Init line) is an unknown rank's, not rank 0's.
    void initLineOfOneGpuAmongSeveral()
    {
        const QByteArray log =
            "node-c:7001:7040 [0] NCCL INFO comm 0x55d0c8a0b2c0 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId "
            "1b000 commId 0x5c0a2f3b91d7e6a4 - Init START\n"
            "\nnode-c:7001:7093 [3] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
            "10.0.0.12<43215> failed : Software caused connection abort\n";
        json d = diagnoseWritten(log, QStringLiteral("node-c.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{1});
        const json& r = d["ranks"][0];
        QCOMPARE(r["devices"].get<std::vector<int>>(), (std::vector<int>{0, 3}));
        QCOMPARE(r["device_ranks"].size(), std::size_t{1});
        QCOMPARE(r["device_ranks"][0]["rank"].get<int>(), 0);
        QCOMPARE(d["initiating"]["device"].get<int>(), 3);
        QVERIFY2(d["initiating"]["rank"].is_null(), d["initiating"].dump().c_str());
        QVERIFY2(d["findings"][0]["summary"].get<std::string>().rfind(
                     "Unknown rank on GPU 3 (node-c:7001, one process driving GPUs 0, 3) could not", 0) == 0,
                 d["findings"][0]["summary"].dump().c_str());
    }

    void srun()
    {
        json d = diagnose(QStringLiteral("combined/srun-l.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        QCOMPARE(d["ranks"][1]["rank"].get<int>(), 1);
        QCOMPARE(d["ranks"][1]["pid"].get<int>(), 101);
        QCOMPARE(QString::fromStdString(d["ranks"][1]["identity_source"]), QStringLiteral("launcher-prefix"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        QCOMPARE(d["initiating"]["line"].get<int>(), 6);
    }

    // One node's folder of a two-node job (NCCL 2.20, one GPU visible to each process, so NCCL's
    // [dev] is 0 on both): the Init lines say 4 ranks, the nRanks/nNodes line 2 nodes and each
    // process's local rank, which the largest communicator's line gives (a later sub-communicator
    // says localRank 0 for rank 1 too); that line's form places the version from 2.20.3.
    void partialJob()
    {
        json d = diagnose(QStringLiteral("partial-job"));
        const json& c = d["coverage"];
        QCOMPARE(c["world_ranks"].get<int>(), 4);
        QCOMPARE(c["world_nodes"].get<int>(), 2);
        QCOMPARE(c["ranks_with_logs"].get<int>(), 2);
        QCOMPARE(c["hosts_with_logs"].get<int>(), 1);
        QVERIFY(c["missing_ranks"] == json::array({2, 3}));
        QCOMPARE(c["file"].get<std::string>(), std::string("node-a/rank0.log"));
        QCOMPARE(c["line"].get<int>(), 6);
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (int r = 0; r < 2; ++r) {
            const json& rk = d["ranks"][static_cast<std::size_t>(r)];
            QCOMPARE(rk["rank"].get<int>(), r);
            QCOMPARE(rk["local_rank"].get<int>(), r);
            QCOMPARE(rk["nccl_version_range_display"].get<std::string>(), std::string("2.20.3–2.20.5"));
        }
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/partial-job"}, m_enc, o);
        const std::string text = diagnosisText(*a);
        QVERIFY2(
            text.find("Logs of 2 of the 4 ranks in NCCL's largest communicator (node-a/rank0.log:6), from 1 "
                      "of its 2 nodes; ranks 2, 3 have no lines here.") != std::string::npos,
            text.c_str());
    }

    // The same logs named by GPU the other way round (node-a/gpu1.log holds local rank 0): NCCL's
    // own local rank is kept, and the file name's disagreement is reported.
    void localRankOfNcclOverTheFileName()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("node-a")));
        for (int r = 0; r < 2; ++r)
            QVERIFY(QFile::copy(
                QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/partial-job/node-a/rank%1.log").arg(r),
                dir.filePath(QStringLiteral("node-a/gpu%1.log").arg(1 - r))));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        const json d = json::parse(diagnosisJson(*analyzePaths({dir.path().toStdString()}, m_enc, o)));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (const auto& r : d["ranks"]) {
            const int rank = r["rank"].get<int>();
            QCOMPARE(r["local_rank"].get<int>(), rank);
            QCOMPARE(r["identity_conflicts"].size(), std::size_t{1});
            const std::string said = "file name node-a/gpu" + std::to_string(1 - rank) +
                                     ".log says local rank " + std::to_string(1 - rank) +
                                     "; kept local rank " + std::to_string(rank) +
                                     " from the process's own lines";
            QCOMPARE(r["identity_conflicts"][0].get<std::string>(), said);
        }
    }

    // MPICH's or Intel MPI's `mpiexec -prepend-rank` (-l): every line of rank N opens with "[N] ",
    // the launcher's own report at the end with nothing. Each prefixed line is its rank's, the
    // Python traceback and Intel MPI's start-up lines included, so the traceback's quote of the
    // abort ("Last error:") is rank 2's and makes no finding of an unknown rank.
    void mpiexecPrependRank()
    {
        const QString rel = QStringLiteral("combined/mpiexec-prepend-rank.log");
        json d = diagnose(rel);
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        QCOMPARE(d["initiating"]["line"].get<int>(), 22);
        int named = 0;
        for (const auto& r : d["ranks"])
            if (r["rank"].is_number()) {
                ++named;
                QCOMPARE(r["pid"].get<int>(), 300 + r["rank"].get<int>());
            }
        QCOMPARE(named, 4);
        int aborts = 0;
        for (const auto& f : d["findings"])
            if (f["entry"] == "nccl-socket-connect-abort") {
                ++aborts;
                QCOMPARE(f["rank"].get<int>(), 2);
            }
        QCOMPARE(aborts, 1);

        AnalyzeOptions o;
        o.probeLocalNccl = false;
        const std::string path = (QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/") + rel).toStdString();
        auto a = analyzePaths({path}, m_enc, o);
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> text = f.readAll().split('\n');
        const SourceLines& sl = a->lines[0];
        int prefixed = 0;
        for (std::uint32_t i = 0; i < sl.size(); ++i) {
            const QByteArray& line = text[static_cast<qsizetype>(i)];
            const ProcessId p = sl.process(i);
            if (line.startsWith('[') && line.size() > 1 &&
                std::isdigit(static_cast<unsigned char>(line[1]))) {
                ++prefixed;
                QVERIFY2(p.valid(), line.constData());
                QCOMPARE(a->process(p).rank, std::optional<int>(line.mid(1, line.indexOf(']') - 1).toInt()));
            } else {
                // mpiexec's own report of the killed rank
                QVERIFY2(!p.valid() || !a->process(p).rank, line.constData());
            }
        }
        QCOMPARE(prefixed, 37);
    }

    // A stretch of a large job's mpiexec stream in which ranks 0 to 7 printed nothing: ranks 64 to
    // 127, as many numbers as ranks, are ranks all the same.
    void mpiexecStretchWithoutLowRanks()
    {
        QByteArray text;
        for (int round = 0; round < 3; ++round)
            for (int r = 64; r < 128; ++r)
                text += '[' + QByteArray::number(r) + "] 2025-06-12 10:00:0" + QByteArray::number(round) +
                        ",000 INFO train.py:90 step " + QByteArray::number(round) + '\n';
        const json d = diagnoseWritten(text, QStringLiteral("job.out"));
        QCOMPARE(d["ranks"].size(), std::size_t{64});
        for (std::size_t i = 0; i < 64; ++i) {
            QCOMPARE(d["ranks"][i]["rank"].get<int>(), 64 + static_cast<int>(i));
            QCOMPARE(d["ranks"][i]["identity_source"].get<std::string>(), std::string("launcher-prefix"));
        }
    }

    // The same "[N] " is a viewer's line numbers in a pasted log, or a logger's pid: no rank of its
    // own. The lines keep the processes NCCL's prefix gives them, as without the numbers.
    void prependedNumbersThatAreNoRanks_data()
    {
        QTest::addColumn<QString>("form");
        QTest::addColumn<int>("first");
        QTest::newRow("line numbers") << QStringLiteral("line") << 1;
        QTest::newRow("line numbers of a stretch") << QStringLiteral("line") << 1200;
        QTest::newRow("a pid") << QStringLiteral("pid") << 37266;
    }
    void prependedNumbersThatAreNoRanks()
    {
        QFETCH(QString, form);
        QFETCH(int, first);
        QFile in(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/combined/srun-l.log"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bare, numbered;
        int n = first;
        for (QByteArray line : in.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            line = line.mid(line.indexOf(": ") + 2); // srun's label off: one stream, no ranks
            const int number = form == QStringLiteral("line") ? n++ : first;
            bare += line + '\n';
            numbered += '[' + QByteArray::number(number) + "] " + line + '\n';
        }
        const json withNumbers = diagnoseWritten(numbered, QStringLiteral("console.log"));
        const json without = diagnoseWritten(bare, QStringLiteral("console.log"));
        for (const auto& r : withNumbers["ranks"])
            QVERIFY2(r["identity_source"] != "launcher-prefix", r.dump().c_str());
        // The processes NCCL's prefix names, and the console of lines it does not, as without the
        // numbers; the abort is node-a:101's, at the same line.
        QVERIFY2(withNumbers["ranks"] == without["ranks"], withNumbers["ranks"].dump().c_str());
        QVERIFY2(withNumbers["initiating"] == without["initiating"],
                 withNumbers["initiating"].dump().c_str());
        QCOMPARE(withNumbers["initiating"]["line"].get<int>(), 6);
        QCOMPARE(withNumbers["initiating"]["host"].get<std::string>(), std::string("node-a"));
    }

    // A step of 12 tasks: Slurm pads the labels to two columns (" 7: " beside "11: "). Every task
    // is its rank, the Python lines included, and the abort is task 7's.
    void srunPaddedLabels()
    {
        json d = diagnose(QStringLiteral("combined/srun-l-padded.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{12});
        for (int r = 0; r < 12; ++r) {
            QCOMPARE(d["ranks"][r]["rank"].get<int>(), r);
            QCOMPARE(d["ranks"][r]["pid"].get<int>(), 200 + r);
            QCOMPARE(QString::fromStdString(d["ranks"][r]["host"]),
                     r < 6 ? QStringLiteral("node-a") : QStringLiteral("node-b"));
        }
        QCOMPARE(d["initiating"]["rank"].get<int>(), 7);
        QCOMPARE(d["initiating"]["line"].get<int>(), 26);
    }

    // `kubectl logs -l job-name=train --prefix --timestamps`: every line behind "[pod/<pod>/<container>] "
    // and the runtime's RFC 3339 stamp, each pod's four ranks interleaved in its block (the
    // fixture is the sample incident written that way, hosts named as their pods). The prefix and
    // the stamp are read off (tracebacks start their lines again: 140 events, as the folder
    // gives), ranks come from NCCL's own prefixes (a pod runs several), and the abort is rank 5's.
    void kubectlPrefix()
    {
        json d = diagnose(QStringLiteral("combined/kubectl-prefix.log"));
        QCOMPARE(d["stats"]["events"].get<int>(), 140);
        int named = 0;
        for (const auto& r : d["ranks"])
            if (r["rank"].is_number()) {
                ++named;
                const int rank = r["rank"].get<int>();
                QCOMPARE(QString::fromStdString(r["host"]),
                         rank < 4 ? QStringLiteral("train-worker-0") : QStringLiteral("train-worker-1"));
                QCOMPARE(QString::fromStdString(r["identity_source"]), QStringLiteral("nccl-init"));
            }
        QCOMPARE(named, 8);
        // Each pod runs four ranks: its lines without NCCL's prefix (tracebacks, the bare "NCCL
        // version" line) stay the pod's, rank unknown, one console per pod.
        QStringList consoles;
        for (const auto& r : d["ranks"])
            if (!r["rank"].is_number())
                consoles << QString::fromStdString(r["host"].is_null() ? "" : r["host"].get<std::string>());
        consoles.sort();
        QCOMPARE(consoles, (QStringList{QStringLiteral("train-worker-0"), QStringLiteral("train-worker-1")}));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 5);
        QCOMPARE(d["initiating"]["line"].get<int>(), 269);
        // kubectl's stamps, read behind the prefix, place the abort in time.
        QVERIFY(d["findings"][0]["time"]["lo"].is_string());
    }

    // A pod (kubectl --prefix) or a node (pdsh's "host: ") whose NCCL lines are one process's: its
    // other lines, the traceback with the PyTorch exception among them, are that process's, as a
    // file's are. Before, they formed an unknown rank that took the exception's NCCL version.
    void hostConsolesOfOneProcess_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("kubectl") << QStringLiteral("combined/kubectl-prefix-pods.log");
        QTest::newRow("pdsh") << QStringLiteral("combined/pdsh-consoles.log");
    }
    void hostConsolesOfOneProcess()
    {
        QFETCH(QString, file);
        json d = diagnose(file);
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (const auto& r : d["ranks"]) {
            QVERIFY(r["rank"].is_number());
            QCOMPARE(QString::fromStdString(r["host"]), r["rank"] == 0 ? QStringLiteral("trainer-master-0")
                                                                       : QStringLiteral("trainer-worker-0"));
            if (r["rank"] == 1)
                QCOMPARE(QString::fromStdString(r["nccl_version_source"]),
                         QStringLiteral("pytorch-exception"));
        }
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        QCOMPARE(d["initiating"]["line"].get<int>(), 9);
    }

    void mpirunTagAndStderr()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/mpirun-tag.log"}, m_enc, o);
        QCOMPARE(a->processes.size(), std::size_t{2});
        const Process& r1 = a->process(a->lines[0].process(3));
        QCOMPARE(r1.rank.value_or(-1), 1); // "[1,1]<stderr>:RuntimeError: boom"
        QCOMPARE(QString::fromStdString(r1.host), QStringLiteral("node-b"));
        QCOMPARE(QString::fromStdString(r1.address), QStringLiteral("10.1.0.2"));
    }

    void mpirunTimestamps()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/mpirun-timestamp.log"}, m_enc, o);
        QCOMPARE(a->processes.size(), std::size_t{2});
        QCOMPARE(a->span.hi - a->span.lo, std::int64_t{3000000}); // 10:00:01 .. 10:00:03 + 1 s resolution
        QCOMPARE(int(a->info({SourceId(0), 1}).timeSource), int(TimeSource::Parsed));
    }

    // SageMaker's MPI jobs tag each line "[1,mpirank:N,algo-K]<stream>:": rank and host. Rank 3 printed
    // no NCCL line, and its host is still the tag's.
    void sageMakerMpiTags()
    {
        json d = diagnose(QStringLiteral("combined/sagemaker-mpi.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{4});
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(d["ranks"][r]["rank"].get<int>(), r);
            QCOMPARE(d["ranks"][r]["host"].get<std::string>(), std::string(r < 2 ? "algo-1" : "algo-2"));
        }
        QCOMPARE(d["ranks"][3]["identity_source"].get<std::string>(), std::string("launcher-prefix"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        QCOMPARE(d["initiating"]["line"].get<int>(), 9);
    }

    // Open MPI 5 with --output tag-detailed,timestamp: the time and its stream first, then "[job,rank]
    // [host:pid]<stream>: ". Rank 0 has no Init line: the tag gives its rank, and its pid keys its
    // stderr with its NCCL lines.
    void openMpi5DetailedTags()
    {
        json d = diagnose(QStringLiteral("combined/openmpi5-detailed.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        QCOMPARE(d["ranks"][0]["rank"].get<int>(), 0);
        QCOMPARE(d["ranks"][0]["host"].get<std::string>(), std::string("node-a"));
        QCOMPARE(d["ranks"][0]["pid"].get<int>(), 200);
        QCOMPARE(d["ranks"][0]["identity_source"].get<std::string>(), std::string("launcher-prefix"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        bool remoteOnRank0 = false;
        for (const auto& f : d["findings"]) {
            if (f["entry"] == "nccl-socket-connect-abort")
                QCOMPARE(f["time"]["lo"].get<std::string>(), std::string("2025-06-12 10:00:03.000"));
            remoteOnRank0 |= f["entry"] == "nccl-remote-error" && f["rank"] == 0;
        }
        QVERIFY(remoteOnRank0);
    }

    // What `grep -rn -A2 ... logs/` printed over four ranks' files, pasted as one file: each line's
    // file name says its rank (logs/rank2.log), its own NCCL prefix its host and pid. The files'
    // lines are blocks of their own, not a stream written as they happened: rank 2's unstamped
    // lines lie between rank 1's and rank 3's stamped watchdog lines, which bound nothing of
    // rank 2's (the abort's connect phase was dated to 0.02 s by them, "refused").
    void grepListingOfSeveralFiles()
    {
        json d = diagnose(QStringLiteral("combined/grep-rn.txt"));
        std::vector<int> ranks;
        for (const auto& r : d["ranks"]) {
            QVERIFY2(r["rank"].is_number(), d["ranks"].dump().c_str()); // grep's "--" is no process
            ranks.push_back(r["rank"].get<int>());
            QCOMPARE(r["host"].get<std::string>(), std::string(r["rank"].get<int>() < 2 ? "gpu-a" : "gpu-b"));
        }
        QCOMPARE(ranks, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        QCOMPARE(d["initiating"]["line"].get<int>(), 12);
        for (const auto& f : d["findings"]) {
            if (f["entry"] == "torch-watchdog-timeout")
                QVERIFY2(f["ranks"] == json::parse("[0, 1, 3]"), f["ranks"].dump().c_str());
            for (const auto& c : f["checklist"])
                if (c["id"] == "failed-fast")
                    QVERIFY2(c["status"] == "not-evidenced", c.dump().c_str());
        }
        // The listing is marked so (each file's stamps bound only its own lines); a stream written
        // as it happened, srun's, is not.
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto listing = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/grep-rn.txt"}, m_enc, o);
        QVERIFY(listing && listing->lines.size() == 1 && listing->lines[0].stampsByProcess());
        auto stream = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/srun-l.log"}, m_enc, o);
        QVERIFY(stream && stream->lines.size() == 1 && !stream->lines[0].stampsByProcess());
    }

    // c10's logger prefixes a message's first line only: the "Exception raised from" and "frame #N:"
    // lines after a rank's watchdog exception are that rank's, not a process of the console's own
    // (Lightning#20434 as posted).
    void cppExceptionFramesFollowTheirLine()
    {
        json d = diagnose(QStringLiteral("combined/torch-exception-frames.log"));
        QCOMPARE(rankNumbers(d), (std::vector<int>{0, 1}));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a =
            analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/torch-exception-frames.log"}, m_enc, o);
        QVERIFY(a);
        auto rankOf = [&](std::uint32_t line) { return a->process(a->lines[0].process(line)).rank; };
        for (std::uint32_t line : {3u, 4u, 9u})
            QCOMPARE(rankOf(line), std::optional<int>(1));
        for (std::uint32_t line : {13u, 14u, 16u})
            QCOMPARE(rankOf(line), std::optional<int>(0));
    }

    // A CloudWatch console copy with each message's stamp on a line of its own (aws-ofi-nccl#715 as
    // posted): a stamp line goes with the message after it, not to a process of the file's own,
    // and the message's time lies from that stamp on.
    void stampLinesBeforeTheirMessages()
    {
        json d = diagnose(QStringLiteral("collectors/cloudwatch-stamp-lines.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (const auto& r : d["ranks"])
            QVERIFY2(r["pid"].is_number(), d["ranks"].dump().c_str());
        bool timed = false;
        for (const auto& f : d["findings"])
            timed |= f["line"] == 10 && f["time"]["lo"] == "2024-12-04 05:27:40.112";
        QVERIFY2(timed, d["findings"].dump().c_str());
    }

    // libfabric's own warnings (FI_LOG_LEVEL=warn) among two ranks' NCCL lines on one stderr, in the
    // form of aws/aws-ofi-nccl#715's: each names its pid and its time in seconds. They are the
    // lines of the NCCL process of that pid, not a process of the file's own, they date its
    // failure, and the finding quotes the provider's reason the plugin's RC -22 hides.
    void libfabricLinesJoinTheirProcess()
    {
        json d = diagnose(QStringLiteral("combined/libfabric-warnings.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (const auto& r : d["ranks"]) {
            QCOMPARE(r["host"].get<std::string>(), std::string("gpu-a17"));
            QVERIFY2(r["pid"].is_number(), d["ranks"].dump().c_str());
        }
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-ofi-error"));
        const json* f = nullptr;
        for (const auto& x : d["findings"])
            if (x["line"] == d["initiating"]["line"])
                f = &x;
        QVERIFY(f);
        QCOMPARE((*f)["pid"].get<int>(), 41201);
        QCOMPARE((*f)["time"]["lo"].get<std::string>(), std::string("2025-12-01 06:22:11.000"));
        QVERIFY2(QString::fromStdString((*f)["summary"])
                     .contains(QStringLiteral("libfabric's own warnings on that process: 'Unable to create "
                                              "extended CQ: Cannot allocate memory' and 'Unable to create "
                                              "extended CQ: Invalid argument'.")),
                 (*f)["summary"].dump().c_str());
        bool quoted = false;
        for (const auto& e : (*f)["evidence"])
            quoted |= e["label"] == "libfabric-warning" && e["line"] == 8;
        QVERIFY2(quoted, (*f)["evidence"].dump().c_str());
        bool checked = false;
        for (const auto& c : (*f)["checklist"])
            checked |= c["id"] == "libfabric-warned" && c["status"] == "confirmed";
        QVERIFY2(checked, (*f)["checklist"].dump().c_str());
    }

    // A Ray driver's console with deduplication on: a worker's line that others repeated stands for
    // them ("[repeated 3x across cluster]"), which the finding says; the first abort, printed at
    // once, stays the initiating one.
    void rayFoldedLines()
    {
        json d = diagnose(QStringLiteral("combined/ray-repeated.log"));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 10);
        // The worker whose only line is Ray's ("ip=10.20.0.7") is on gpu-b, whose NCCL lines
        // announce that address: one host, not a host named by its address.
        for (const auto& r : d["ranks"])
            if (r["pid"] == 2211) {
                QCOMPARE(r["host"].get<std::string>(), std::string("gpu-b"));
                QCOMPARE(r["address"].get<std::string>(), std::string("10.20.0.7"));
            }
        bool said = false;
        for (const auto& f : d["findings"])
            for (const auto& h : f["hypotheses"])
                said |= QString::fromStdString(h["text"]).startsWith(
                            QStringLiteral("Ray folded 3 lines of its workers into ray-repeated.log:12 "
                                           "('[repeated 3x across cluster]')")) &&
                        QString::fromStdString(h["decider"]).contains(QStringLiteral("RAY_DEDUP_LOGS=0"));
        QVERIFY2(said, d["findings"].dump().c_str());
    }

    // pdsh's prefix before an empty line ("10.0.0.12: ", the blank line NCCL prints before each WARN)
    // and a poster's "..." are no lines of a host's console or of the file's own: they go with the
    // next line (the last ones with the line before), so the four ranks are the only processes
    // (DeepSpeed#3827 as posted showed a phantom "unknown rank (192.168.1.51)").
    void prefixOnlyAndElidedLines()
    {
        json d = diagnose(QStringLiteral("combined/pdsh-empty-lines.log"));
        QCOMPARE(rankNumbers(d), (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
    }

    // `grep -r -B1 -A1` without -n: a context line is "logs/rank2.log-" and the file's line, whose
    // Python stamp ("logs/rank0.log-2025-12-07 10:04:57,902 ...") is no line number. Before, each
    // context line's NCCL prefix made a process of "logs/rank2.log-gpu-b" beside rank 2's own.
    void grepContextLinesWithoutLineNumbers()
    {
        json d = diagnose(QStringLiteral("combined/grep-r-context.txt"));
        QCOMPARE(rankNumbers(d), (std::vector<int>{0, 1, 2, 3}));
        for (const auto& r : d["ranks"])
            QCOMPARE(r["host"].get<std::string>(), std::string(r["rank"].get<int>() < 2 ? "gpu-a" : "gpu-b"));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        // The abort's trail is a context line: rank 2's, on the thread that failed.
        bool trail = false;
        for (const auto& f : d["findings"])
            if (f["entry"] == "nccl-socket-connect-abort")
                for (const auto& e : f["evidence"])
                    trail |= e["label"] == "return-code-trail" && e["line"] == 21 && e["rank"] == 2;
        QVERIFY2(trail, d["findings"].dump().c_str());
    }

    // `tail -n 4 logs/rank*.log`, pasted: each "==> logs/rankN.log <==" section is that file's, so
    // its Python, PyTorch and NCCL lines are one rank's (they were eight processes of no rank).
    void tailListingOfSeveralFiles()
    {
        json d = diagnose(QStringLiteral("combined/tail-n.txt"));
        QCOMPARE(rankNumbers(d), (std::vector<int>{0, 1, 2, 3}));
        for (const auto& r : d["ranks"])
            QCOMPARE(r["host"].get<std::string>(), std::string(r["rank"].get<int>() < 2 ? "gpu-a" : "gpu-b"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 2);
        for (const auto& f : d["findings"])
            if (f["entry"] == "torch-watchdog-timeout")
                QVERIFY2(f["ranks"] == json::parse("[0, 1, 3]"), f["ranks"].dump().c_str());
    }

    // A script's loop over the files (`echo "===== $f ====="; tail -n 3 "$f"`): its banners part
    // the files as tail's headers do; rank 1's traceback is rank 1's, not the console's.
    void scriptBannersBetweenFiles()
    {
        json d = diagnose(QStringLiteral("combined/banner-listing.txt"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        QCOMPARE(d["ranks"][1]["rank"].get<int>(), 1);
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("cuda-oom"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
    }

    void torchrunTee()
    {
        json d = diagnose(QStringLiteral("combined/torchrun-tee.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        QCOMPARE(d["ranks"][0]["rank"].get<int>(), 0);
        QCOMPARE(d["ranks"][1]["rank"].get<int>(), 1);
        bool watchdog = false;
        for (const auto& f : d["findings"])
            watchdog |= f["entry"] == "torch-watchdog-timeout" && f["rank"] == 1;
        QVERIFY(watchdog);
    }

    // torchrun --tee under --role trainer: "[trainer<local rank>]:" splits the console like
    // "[default<local rank>]:".
    void torchrunTeeOfARole()
    {
        json d = diagnose(QStringLiteral("combined/torchrun-role.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        QCOMPARE(d["ranks"][0]["rank"].get<int>(), 0);
        QCOMPARE(d["ranks"][1]["rank"].get<int>(), 1);
        bool abortOnRank1 = false;
        for (const auto& f : d["findings"])
            abortOnRank1 |=
                f["entry"] == "nccl-socket-connect-abort" && f["role"] == "initiating" && f["rank"] == 1;
        QVERIFY2(abortOnRank1, d["findings"].dump().c_str());
    }

    // torchrun without --tee: every rank prints into one console with no prefix. PyTorch's own
    // "[Rank R]" lines are rank R's; the rest (a progress bar, a traceback) stay with the file.
    void consoleOfSeveralRanks()
    {
        json d = diagnose(QStringLiteral("combined/torchrun-console.log"));
        std::vector<int> ranks;
        for (const auto& r : d["ranks"])
            if (r["rank"].is_number()) {
                ranks.push_back(r["rank"].get<int>());
                QCOMPARE(QString::fromStdString(r["identity_source"]), QStringLiteral("pytorch"));
            }
        QCOMPARE(ranks, (std::vector<int>{1, 2, 3}));
        bool rank0Missing = false;
        for (const auto& h : d["hypotheses"])
            rank0Missing |=
                QString::fromStdString(h["text"]).contains(QStringLiteral("rank 0 has no log here"));
        QVERIFY2(rank0Missing, d["hypotheses"].dump().c_str());
        // One rank's console stays one process, with that rank.
        json one = diagnose(QStringLiteral("combined/one-rank-console.log"));
        QCOMPARE(one["ranks"].size(), std::size_t{1});
        QCOMPARE(one["ranks"][0]["rank"].get<int>(), 5);
    }

    // Every rank's log concatenated into one file (`cat gpu-*/rank*.log > all.log`): no per-line
    // rank prefix, each rank a block, so the stamps run backwards where one block ends and the
    // next begins. The quoted copy of the abort in rank 5's traceback ("Last error:") was bounded
    // by rank 6's first stamp, seconds earlier, and won over rank 5's own WARN; it now goes with
    // the block it ends, and the WARN is the initiating line.
    void ranksConcatenatedIntoOneFile()
    {
        QTemporaryDir dir;
        QByteArray all;
        const QDir sample(QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"));
        for (const QString& host : {QStringLiteral("gpu-a"), QStringLiteral("gpu-b")})
            for (const QFileInfo& f :
                 QDir(sample.filePath(host))
                     .entryInfoList({QStringLiteral("*.log")}, QDir::Files, QDir::Name)) {
                QFile in(f.filePath());
                QVERIFY(in.open(QIODevice::ReadOnly));
                all += in.readAll();
            }
        const QString path = dir.filePath(QStringLiteral("all.log"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(all);
        out.close();
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({path.toStdString()}, m_enc, o);
        const Finding* init = a->initiatingFinding();
        QVERIFY(init);
        QCOMPARE(a->process(init->process).rank, std::optional<int>(5));
        QVERIFY(a->text(init->anchor).find("NCCL WARN socketStartConnect") != std::string_view::npos);
        // The lines after the last stamp of a block are bounded below only.
        bool sawBackwards = false;
        const SourceLines& sl = a->lines[0];
        for (std::uint32_t i = 0; i < sl.size(); ++i) {
            const TimeInterval t = sl.time(i);
            QVERIFY(!(t.knownLo() && t.knownHi()) || t.lo <= t.hi);
            sawBackwards |= t.knownLo() && !t.knownHi() && i + 1 < sl.size();
        }
        QVERIFY(sawBackwards);
    }

    // torchrun's console with the ChildFailedError box: each worker's record names its rank, local
    // rank, host and pid, and its traceback (from the worker's error file, or the signal that
    // killed it) is that worker's. The host is the box's fully qualified name up to its first dot,
    // as NCCL's prefix names it: rank 1's record joins the process of its own NCCL lines.
    void torchelasticBoxRecords_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("console") << QStringLiteral("combined/torchrun-failure-box.log");
        // The same console as `kubectl logs --timestamps` gives it: the record is read behind the
        // collector's stamps (tst_pieces reads it in pieces too, cut inside the records).
        QTest::newRow("kubectl") << QStringLiteral("collectors/kubectl-failure-box.log");
    }
    void torchelasticBoxRecords()
    {
        QFETCH(QString, file);
        json d = diagnose(file);
        // Ranks 1 and 3. The console's other lines are rank 1's, the one process whose own lines
        // (NCCL's) it holds, as before the box was read: rank 3 is named only by its record.
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        const json& r1 = d["ranks"][0];
        QCOMPARE(r1["rank"].get<int>(), 1);
        QCOMPARE(r1["pid"].get<int>(), 51212);
        QCOMPARE(QString::fromStdString(r1["host"]), QStringLiteral("gpu-h7"));
        QCOMPARE(QString::fromStdString(r1["identity_source"]), QStringLiteral("nccl-init"));
        QCOMPARE(r1["local_rank"].get<int>(), 1);
        const json& r3 = d["ranks"][1];
        QCOMPARE(r3["rank"].get<int>(), 3);
        QCOMPARE(r3["pid"].get<int>(), 51214);
        QCOMPARE(QString::fromStdString(r3["host"]), QStringLiteral("gpu-h7"));
        QCOMPARE(QString::fromStdString(r3["identity_source"]), QStringLiteral("torchelastic-box"));
        QCOMPARE(r3["local_rank"].get<int>(), 3);
        // The out-of-memory error the box quotes from rank 1's error file is rank 1's.
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("cuda-oom"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
    }

    // The box prints its root cause last, and every line of it carries the agent's time: failures
    // that its records quote are in torchelastic's order instead, by each record's time, the root
    // cause first among equal times. Rank 1's illegal memory access (the root cause, 22:14:02)
    // comes before rank 3's out-of-memory error, listed above it (in the fixture, the same second;
    // tst_pieces reads it in pieces too).
    void torchelasticBoxOrder_data()
    {
        QTest::addColumn<QString>("rank3Time");
        QTest::newRow("same second: the root cause first") << QStringLiteral("2024-06-11_22:14:02");
        QTest::newRow("times differ") << QStringLiteral("2024-06-11_22:14:06");
    }
    void torchelasticBoxOrder()
    {
        QFETCH(QString, rank3Time);
        QFile in(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/combined/torchrun-failure-box-order.log"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(in.readAll());
        // Rank 3's record comes first.
        const QString time = QStringLiteral("time      : 2024-06-11_22:14:02");
        const qsizetype at = text.indexOf(time);
        QVERIFY(at >= 0 && text.indexOf(time, at + 1) > at);
        text.replace(at, time.size(), QStringLiteral("time      : ") + rank3Time);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile out(dir.filePath(QStringLiteral("console.log")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        const json d = json::parse(diagnosisJson(*analyzePaths({out.fileName().toStdString()}, m_enc, o)));
        QVERIFY2(d["initiating"].is_object(), d["findings"].dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("torch-cuda-kernel-fault"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        bool oomAsContext = false;
        for (const auto& f : d["findings"])
            oomAsContext |= f["entry"] == "cuda-oom" && f["role"] == "context" && f["rank"] == 3;
        QVERIFY2(oomAsContext, d["findings"].dump().c_str());
    }

    // A torchrun --log-dir tree with the agent's console beside it: the box's record (its error
    // file under attempt_1/1/) and local rank 1's own files are one process, rank 1; the agent's
    // lines are the console's own, not the worker's.
    void torchelasticBoxBesideLogDir()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString root = dir.filePath(QStringLiteral("torchrun"));
        const QString from = QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/torchrun");
        for (const QString& rel : {QStringLiteral("node-a/run7_x1/attempt_1/0/stdout.log"),
                                   QStringLiteral("node-a/run7_x1/attempt_1/0/stderr.log"),
                                   QStringLiteral("node-a/run7_x1/attempt_1/1/stdout.log"),
                                   QStringLiteral("node-a/run7_x1/attempt_1/1/error.json")}) {
            QVERIFY(QDir().mkpath(QFileInfo(root + QLatin1Char('/') + rel).path()));
            QVERIFY(QFile::copy(from + QLatin1Char('/') + rel, root + QLatin1Char('/') + rel));
        }
        QFile agent(root + QStringLiteral("/node-a/agent.log"));
        QVERIFY(agent.open(QIODevice::WriteOnly));
        agent.write("2025-06-12 10:00:02,100 torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
                    "(exitcode: 1) local_rank: 1 (pid: 7002) of binary: /usr/bin/python3\n"
                    "Root Cause (first observed failure):\n"
                    "[1]:\n"
                    "  time      : 2025-06-12_10:00:01\n"
                    "  host      : node-a.cluster.internal\n"
                    "  rank      : 1 (local_rank: 1)\n"
                    "  exitcode  : 1 (pid: 7002)\n"
                    "  error_file: /tmp/torchelastic_x/run7_x1/attempt_1/1/error.json\n"
                    "  traceback : Traceback (most recent call last):\n"
                    "    File \"/w/train.py\", line 9, in <module>\n"
                    "  RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error\n"
                    "============================================================\n");
        agent.close();
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        const json d = json::parse(diagnosisJson(*analyzePaths({root.toStdString()}, m_enc, o)));
        const json* own = owner(d, "node-a/run7_x1/attempt_1/1/stdout.log");
        QVERIFY(own);
        QCOMPARE((*own)["rank"].get<int>(), 1);
        QCOMPARE((*own)["pid"].get<int>(), 7002);
        QCOMPARE(QString::fromStdString((*own)["identity_source"]), QStringLiteral("torchelastic-box"));
        QCOMPARE((*own)["attempt"].get<int>(), 1);
        int withAgentLines = 0;
        for (const auto& r : d["ranks"])
            for (const auto& f : r["files"])
                withAgentLines += f == "node-a/agent.log";
        QCOMPARE(withAgentLines, 2); // the worker (its record) and the console's own process
    }

    void pdshHosts()
    {
        json d = diagnose(QStringLiteral("combined/pdsh.log"));
        QStringList hosts;
        for (const auto& r : d["ranks"])
            hosts << QString::fromStdString(r["host"].is_null() ? "" : r["host"].get<std::string>());
        hosts.sort();
        QCOMPARE(hosts, (QStringList{QStringLiteral("node-c"), QStringLiteral("worker-0"),
                                     QStringLiteral("worker-1")}));
        for (const auto& r : d["ranks"])
            if (r["host"] == "node-c")
                QCOMPARE(QString::fromStdString(r["address"]), QStringLiteral("10.1.0.3"));
    }

    void rayWorkers()
    {
        json d = diagnose(QStringLiteral("combined/ray.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        bool rank1 = false, ip = false;
        for (const auto& r : d["ranks"]) {
            rank1 |= r["pid"] == 409241 && r["rank"] == 1;
            ip |= r["pid"] == 409240 && r["host"] == "10.1.0.9";
        }
        QVERIFY(rank1);
        QVERIFY(ip);
    }

    // vLLM's V1 engine over Ray on two nodes: the engine core relays its Ray workers' output behind
    // its own tag, "(EngineCore_DP0 pid=1088) (RayWorkerWrapper pid=285, ip=…) ". A worker's lines
    // without NCCL's prefix (its traceback) are the process's whose NCCL lines carry the same tag,
    // on the driver's node without an address too; the engine core's own lines are its own.
    void vllmRayEngine()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/vllm-ray-engine.log"}, m_enc, o);
        auto rankOfLine = [&](std::uint32_t line) {
            const Process& p = a->processes[a->lines[0].process(line - 1).value];
            return p.rank ? *p.rank : -1;
        };
        QCOMPARE(rankOfLine(4), 0);   // "(RayWorkerWrapper pid=1290) INFO … vLLM is using nccl"
        QCOMPARE(rankOfLine(5), 1);   // the same on the other node, "pid=285, ip=192.168.177.12"
        QCOMPARE(rankOfLine(16), 1);  // the worker's RuntimeError
        QCOMPARE(rankOfLine(17), -1); // the engine core's own
        QCOMPARE(a->processes[a->lines[0].process(16).value].pid, std::int64_t{1088});
        json d = json::parse(diagnosisJson(*a));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        int withPid285 = 0;
        for (const auto& r : d["ranks"])
            withPid285 += r["pid"] == 285;
        QCOMPARE(withPid285, 1);

        // The same output as Ray colours it on a terminal (`ray job submit` into a file): each
        // tag in cyan. Every line is the same process's as in the plain one.
        QFile in(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/combined/vllm-ray-engine.log"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray coloured = in.readAll();
        for (const QByteArray& tag :
             {QByteArray("(EngineCore_DP0 pid=1088)"), QByteArray("(RayWorkerWrapper pid=1290)"),
              QByteArray("(RayWorkerWrapper pid=285, ip=192.168.177.12)")})
            coloured.replace(tag, "\x1b[36m" + tag + "\x1b[0m");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile out(dir.filePath(QStringLiteral("ray-job.log")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(coloured);
        out.close();
        auto c = analyzePaths({out.fileName().toStdString()}, m_enc, o);
        QCOMPARE(c->processes.size(), a->processes.size());
        for (std::uint32_t line = 0; line < a->lines[0].size(); ++line) {
            const Process& plain = a->processes[a->lines[0].process(line).value];
            const Process& inColour = c->processes[c->lines[0].process(line).value];
            QVERIFY2(inColour.rank == plain.rank && inColour.pid == plain.pid,
                     ("line " + std::to_string(line + 1)).c_str());
        }
    }

    // SkyPilot's job on two nodes: each node's output behind "(worker1, rank=1, pid=20075,
    // ip=…) ", the node's console (its rank the node's). A node whose one NCCL process printed
    // under that tag has its traceback; the worker's connect abort is initiating.
    void skyPilotNodes()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/skypilot.log"}, m_enc, o);
        QCOMPARE(a->processes.size(), std::size_t{2});
        auto rankOfLine = [&](std::uint32_t line) {
            const Process& p = a->processes[a->lines[0].process(line - 1).value];
            return p.rank ? *p.rank : -1;
        };
        QCOMPARE(rankOfLine(16), 1); // the worker's DistBackendError
        QCOMPARE(rankOfLine(22), 0); // the head's
        QCOMPARE(rankOfLine(4), 1);  // the worker's start-up line
        json d = json::parse(diagnosisJson(*a));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        for (const auto& f : d["findings"])
            QVERIFY2(f["rank"].is_number(), f.dump().c_str());
    }

    // vLLM with tensor parallelism over two GPUs: the driver (rank 0) prints with no prefix, its
    // worker behind "(VllmWorker rank=1 pid=4101) ", every line behind vLLM's own "LEVEL MM-DD
    // HH:MM:SS" stamp. Two processes, no third of the file's own: the driver printed the NCCL
    // lines with nothing before them, so the file's other such lines are its. The worker's
    // traceback is rank 1's and placed in time.
    void vllmWorkers()
    {
        json d = diagnose(QStringLiteral("combined/vllm-multiproc.log"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(d["ranks"][r]["rank"].get<int>(), r);
            QCOMPARE(d["ranks"][r]["pid"].get<int>(), 4100 + r);
        }
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/combined/vllm-multiproc.log"}, m_enc, o);
        const LineInfo driver = a->info({SourceId(0), 0});
        QCOMPARE(a->processes[driver.process.value].rank, std::optional<int>(0));
        QCOMPARE(int(driver.timeSource), int(TimeSource::Parsed));
        const LineInfo error = a->info({SourceId(0), 11});
        QCOMPARE(a->processes[error.process.value].rank, std::optional<int>(1));
        QCOMPARE(int(error.level), int(Level::Error));
    }

    // A kernel log beside the ranks' logs: the driver's Xid and "fallen off the bus" lines name the
    // GPU by its bus, which NCCL's Init lines give each rank. Both hosts have a GPU on 0000:3b:00
    // (identical machines): the kernel log's host, from journalctl's "node-b kernel: " or from the
    // folder named after it, says it is rank 3's.
    void kernelLogLinesAreTheRanksOnThatGpu()
    {
        json d = diagnose(QStringLiteral("kernel-log"));
        const json* r3 = owner(d, "journal-k.txt");
        QVERIFY(r3);
        QCOMPARE((*r3)["rank"].get<int>(), 3);
        QCOMPARE((*r3)["bus_id"].get<std::string>(), std::string("0000:3b:00.0"));
        QVERIFY(std::find((*r3)["files"].begin(), (*r3)["files"].end(), "node-b/dmesg.txt") !=
                (*r3)["files"].end());
        QCOMPARE(d["ranks"][1]["bus_id"].get<std::string>(), std::string("0000:3b:00.0"));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("gpu-hardware-fault"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 3);
        // The kernel's other lines stay the host's, with no rank.
        int kernelLogs = 0;
        for (const auto& r : d["ranks"])
            kernelLogs +=
                r["rank"].is_null() && r["host"] == "node-b" && r["identity_source"] == "kernel-log";
        QCOMPARE(kernelLogs, 2); // journal-k.txt, node-b/dmesg.txt
    }

    // Stamps that print no year (journalctl's, glog's) in a file that shows none take the year the
    // bundle's other files show, not the year Rankline runs in: the journal's Xid stands beside the
    // dmesg copy of it, and a glog-only rank's watchdog beside the others' lines.
    void yearlessStampsTakeTheBundlesYear()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/kernel-log"}, m_enc, o);
        const std::int64_t xid = civilToUnixSeconds(2025, 6, 12, 10, 0, 2) * 1000000;
        bool seen = false;
        for (std::size_t s = 0; s < a->sources.size(); ++s) {
            if (a->sources[s].displayPath != "journal-k.txt")
                continue;
            seen = true;
            QCOMPARE(a->lines[s].time(1).lo, xid);
        }
        QVERIFY(seen);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile r0(dir.filePath(QStringLiteral("rank0.log")));
        QVERIFY(r0.open(QIODevice::WriteOnly));
        r0.write("2024-03-04 23:59:58,000 INFO step 9\n2024-03-05 00:00:01,000 INFO step 10\n");
        r0.close();
        QFile r1(dir.filePath(QStringLiteral("rank1.log")));
        QVERIFY(r1.open(QIODevice::WriteOnly));
        r1.write(
            "[rank1]:[E305 00:00:02.500000 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective "
            "operation timeout\n");
        r1.close();
        auto g = analyzePaths({dir.path().toStdString()}, m_enc, o);
        for (std::size_t s = 0; s < g->sources.size(); ++s)
            if (g->sources[s].displayPath == "rank1.log")
                QCOMPARE(g->lines[s].time(0).lo, civilToUnixSeconds(2024, 3, 5, 0, 0, 2) * 1000000 + 500000);
        QVERIFY(g->span.hi - g->span.lo < std::int64_t{10} * 1000000);
    }

    // The same Xid in a kernel log that names no host: two hosts have a GPU on that bus, and the
    // driver gave no pid, so no rank can be named.
    void kernelLogOfNoHostNamesNoRank()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString from = QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/kernel-log/");
        for (const char* f : {"rank0.log", "rank1.log", "rank2.log", "rank3.log"})
            QVERIFY(QFile::copy(from + QLatin1String(f), dir.filePath(QLatin1String(f))));
        QFile k(dir.filePath(QStringLiteral("dmesg.txt")));
        QVERIFY(k.open(QIODevice::WriteOnly));
        k.write("[Thu Jun 12 10:00:02 2025] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n");
        k.close();
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({dir.path().toStdString()}, m_enc, o);
        json d = json::parse(diagnosisJson(*a));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("gpu-hardware-fault"));
        QVERIFY(d["initiating"]["rank"].is_null());
        // The finding names the ranks it may be about, those on that GPU, rather than "unknown rank".
        const std::string summary = d["findings"][0]["summary"];
        QVERIFY2(
            summary.starts_with("The rank on GPU 0000:3b:00.0 (rank 1 (node-a:4101) or rank 3 (node-b:4103)"),
            summary.c_str());
        QCOMPARE(a->gpuCandidates.size(), std::size_t{1});
        QCOMPARE(a->gpuCandidates[0].processes.size(), std::size_t{2});
        // With the pid of a rank's process, the line is that rank's.
        QVERIFY(k.open(QIODevice::WriteOnly));
        k.write("[Thu Jun 12 10:00:02 2025] NVRM: Xid (PCI:0000:3b:00): 79, pid=4101, GPU has fallen off the "
                "bus.\n");
        k.close();
        a = analyzePaths({dir.path().toStdString()}, m_enc, o);
        d = json::parse(diagnosisJson(*a));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        QVERIFY(a->gpuCandidates.empty());
    }

    // Logs kept as JSON records (bundle/json_records.h), read as the lines they hold: Docker's
    // json-file logs as copied off two nodes (Go's `\u003c` for NCCL's `<`), `journalctl -o json`
    // of one host (the kernel's Xid among the job's lines; a coloured line, which journald writes
    // as an array of bytes) and a Fluent Bit export (the time in seconds since the epoch).
    void jsonRecordLogs()
    {
        json d = diagnose(QStringLiteral("collectors/docker-json"));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        QCOMPARE(d["initiating"]["line"].get<int>(), 9);
        const json& abort = d["findings"][0];
        // NCCL's lines carry no time: Docker's is theirs.
        QCOMPARE(abort["time"]["lo"].get<std::string>(), std::string("2025-06-12 10:00:05.902"));
        QCOMPARE(
            abort["evidence"][0]["text"].get<std::string>(),
            std::string("2025-06-12T10:00:05.902000417Z node-b:5100:5133 [0] misc/socket.cc:483 NCCL WARN "
                        "socketStartConnect: Connect to 10.1.0.1<45763> failed : Software caused connection "
                        "abort"));
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        for (const auto& r : d["ranks"])
            QCOMPARE(r["identity_source"].get<std::string>(), std::string("nccl-init"));
        // The other rank's "closed by remote peer node-b" is collateral of it.
        bool collateral = false;
        for (const auto& f : d["findings"])
            collateral |= f["role"] == "collateral" && f["rank"] == 0;
        QVERIFY(collateral);

        json j = diagnose(QStringLiteral("collectors/journald.json"));
        QCOMPARE(j["ranks"].size(), std::size_t{2}); // no third process made of the records' JSON
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(j["ranks"][r]["rank"].get<int>(), r);
            QCOMPARE(j["ranks"][r]["pid"].get<int>(), 8123 + r);
            QCOMPARE(j["ranks"][r]["host"].get<std::string>(), std::string("node-j"));
        }
        // The kernel's Xid names the GPU of rank 1's Init line.
        QCOMPARE(j["initiating"]["entry"].get<std::string>(), std::string("gpu-hardware-fault"));
        QCOMPARE(j["initiating"]["rank"].get<int>(), 1);
        QCOMPARE(j["initiating"]["line"].get<int>(), 10);
        QCOMPARE(j["findings"][0]["time"]["lo"].get<std::string>(), std::string("2025-06-12 10:00:40.250"));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto ja = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/collectors/journald.json"}, m_enc, o);
        QCOMPARE(
            std::string(ja->sources[0].line(11)),
            std::string("2025-06-12T10:00:40.310000+0000 node-j python3[8124]: \x1b[31mERROR\x1b[0m [rank1] "
                        "CUDA error: unspecified launch failure"));
        QCOMPARE(int(ja->info({SourceId(0), 11}).timeSource), int(TimeSource::Parsed));

        json f = diagnose(QStringLiteral("collectors/fluent-bit.jsonl"));
        QCOMPARE(f["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QCOMPARE(f["initiating"]["rank"].get<int>(), 1);
        QCOMPARE(f["findings"][0]["time"]["lo"].get<std::string>(), std::string("2025-06-12 10:00:05.902"));
    }

    // `gcloud logging read --format=json` of a GKE PyTorchJob: Cloud Logging entries in one
    // pretty-printed array, newest first, each line of each pod's container an entry of its own.
    // Read oldest first, each pod its own stream; the same entries one per line in the order
    // written (a Cloud Storage sink's files) diagnose alike.
    void cloudLoggingExport()
    {
        json d = diagnose(QStringLiteral("collectors/gcloud-logging.json"));
        expectTwoRanksFailing(d, 1, "llm-ft-worker-0", 15, "2025-09-03 07:14:11.236");
        if (QTest::currentTestFailed())
            return;
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(d["ranks"][r]["rank"].get<int>(), r);
            QCOMPARE(d["ranks"][r]["identity_source"].get<std::string>(), std::string("nccl-init"));
        }
        QCOMPARE(d["ranks"][0]["host"].get<std::string>(), std::string("llm-ft-master-0"));
        bool collateral = false;
        for (const auto& f : d["findings"])
            collateral |= f["role"] == "collateral" && f["rank"] == 0;
        QVERIFY(collateral);

        AnalyzeOptions o;
        o.probeLocalNccl = false;
        const std::string path = RANKLINE_TEST_DATA_DIR "/shapes/collectors/gcloud-logging.json";
        auto a = analyzePaths({path}, m_enc, o);
        QCOMPARE(
            std::string(a->sources[0].line(0)),
            std::string("[pod/llm-ft-master-0/pytorch] 2025-09-03T07:14:02.118305221Z INFO [rank0] starting "
                        "on llm-ft-master-0 (pid 41, world_size 2)"));
        // stderr's entries are ERROR by their stream alone: not given to the line.
        QCOMPARE(
            std::string(a->sources[0].line(21)),
            std::string("[pod/llm-ft-worker-0/pytorch] 2025-09-03T07:14:11.302114476Z [rank1]: Traceback "
                        "(most recent call last):"));

        QFile in(QString::fromStdString(path));
        QVERIFY(in.open(QIODevice::ReadOnly));
        json entries = json::parse(in.readAll().toStdString());
        QVERIFY(entries.size() > 30);
        std::string sink;
        for (auto it = entries.rbegin(); it != entries.rend(); ++it)
            sink += it->dump() + "\n";
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString sinkPath = tmp.filePath(QStringLiteral("stdout-00:00:00_00:59:59_S0.json"));
        {
            QFile out(sinkPath);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(sink.data(), static_cast<qint64>(sink.size()));
        }
        json s = json::parse(diagnosisJson(*analyzePaths({sinkPath.toStdString()}, m_enc, o)));
        json expected = d["initiating"];
        expected["file"] = "stdout-00:00:00_00:59:59_S0.json";
        QCOMPARE(s["initiating"].dump(), expected.dump());
    }

    // `aws logs filter-log-events --log-group-name /aws/sagemaker/TrainingJobs` of a two-host
    // SageMaker job: each event names its host's log stream, and each host is a stream of its own.
    void cloudWatchCliExport()
    {
        json d = diagnose(QStringLiteral("collectors/cloudwatch-cli.json"));
        expectTwoRanksFailing(d, 1, "algo-2", 11, "2025-10-02 08:16:11.640");
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(d["ranks"][0]["host"].get<std::string>(), std::string("algo-1"));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/collectors/cloudwatch-cli.json"}, m_enc, o);
        QCOMPARE(std::string(a->sources[0].line(0)),
                 std::string("[pod/algo-1/] 2025-10-02T08:16:03.114000Z [rank0]:2025-10-02 08:16:03,112 INFO "
                             "train.py:41 starting on algo-1 (world_size 2)"));
        QCOMPARE(a->sources[0].lineCount(), std::size_t{25}); // nothing of the envelope after the events
    }

    // The same records read every way a log reaches the reader: a file too large to be read
    // whole at once (mapped), gzipped (a rotated piece, `-json.log.1.gz`), in a tarball, and piped
    // in. Each diagnoses as the plain small file does.
    void jsonRecordLogsInEveryForm()
    {
        const QString dir = QStringLiteral(
            RANKLINE_TEST_DATA_DIR "/shapes/collectors/docker-json/node-b/containers/"
                                   "7e2d4c6b8a0f1e3d5c7b9a1f3e5d7c9b0a2f4e6d8c1b3a5f7e9d0c2b4a6f8e1d");
        QFile in(dir + QStringLiteral(
                           "/7e2d4c6b8a0f1e3d5c7b9a1f3e5d7c9b0a2f4e6d8c1b3a5f7e9d0c2b4a6f8e1d-json.log"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray records = in.readAll();
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto abortOf = [](const Analysis& a) {
            const json d = json::parse(diagnosisJson(a));
            return std::make_pair(d["initiating"]["entry"].get<std::string>(),
                                  d["findings"][0]["evidence"][0]["text"].get<std::string>());
        };
        auto small = analyzePaths({in.fileName().toStdString()}, m_enc, o);
        const auto expected = abortOf(*small);
        QCOMPARE(expected.first, std::string("nccl-socket-connect-abort"));

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        // Past kSmallFileBytes: a day of INFO lines before the same records.
        QByteArray large;
        const QByteArray filler =
            "{\"log\":\"node-b:5100:5118 [0] NCCL INFO Channel 00/0 : 1[0] -\\u003e 0[0] [send] "
            "via NET/Socket/0\\n\",\"stream\":\"stderr\",\"time\":\"2025-06-12T10:00:04.612000417Z\"}\n";
        while (large.size() < 3 * 64 * 1024)
            large += filler;
        large += records;
        const QString largePath = tmp.filePath(QStringLiteral("big-json.log"));
        {
            QFile out(largePath);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(large);
        }
        auto big = analyzePaths({largePath.toStdString()}, m_enc, o);
        QCOMPARE(abortOf(*big), expected);
        QVERIFY(big->sources[0].line(0).starts_with(
            "2025-06-12T10:00:04.612000417Z node-b:5100:5118 [0] NCCL INFO "
            "Channel 00/0 : 1[0] -> 0[0]"));

        const QString gzPath = tmp.filePath(QStringLiteral("c0ffee-json.log.1.gz"));
        gzFile g = gzopen(gzPath.toLocal8Bit().constData(), "wb");
        QVERIFY(g);
        QCOMPARE(gzwrite(g, records.constData(), static_cast<unsigned>(records.size())), int(records.size()));
        QCOMPARE(gzclose(g), Z_OK);
        QCOMPARE(abortOf(*analyzePaths({gzPath.toStdString()}, m_enc, o)), expected);

        const QString tarPath = tmp.filePath(QStringLiteral("node-b.tar.gz"));
        QCOMPARE(QProcess::execute(QStringLiteral("tar"), {QStringLiteral("czf"), tarPath,
                                                           QStringLiteral("-C"), dir, QStringLiteral(".")}),
                 0);
        QCOMPARE(abortOf(*analyzePaths({tarPath.toStdString()}, m_enc, o)), expected);

        Bundle piped = readBytes("<stdin>", records.toStdString());
        QCOMPARE(abortOf(*analyze(std::move(piped), m_enc, o)), expected);
    }

    void collectors()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto k = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/collectors/kubectl.log"}, m_enc, o);
        QCOMPARE(int(k->info({SourceId(0), 1}).timeSource), int(TimeSource::Parsed));
        QCOMPARE(k->span.lo % 1000000, std::int64_t{123456});

        auto cw = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/collectors/cloudwatch.txt"}, m_enc, o);
        QCOMPARE(cw->processes.size(), std::size_t{2});
        QCOMPARE(int(cw->info({SourceId(0), 0}).timeSource), int(TimeSource::Parsed));

        json j = diagnose(QStringLiteral("collectors/journald.log"));
        QCOMPARE(j["ranks"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(j["ranks"][0]["host"]), QStringLiteral("node-j"));
        QCOMPARE(j["ranks"][0]["pid"].get<int>(), 8123);

        // journalctl's default output: "Jun 12 10:00:01 node-j python3[8123]: ", no year. Each
        // process is its own, its traceback included (no third process of the file's own).
        json s = diagnose(QStringLiteral("collectors/journald-short.log"));
        QCOMPARE(s["ranks"].size(), std::size_t{2});
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(s["ranks"][r]["rank"].get<int>(), r);
            QCOMPARE(s["ranks"][r]["pid"].get<int>(), 8123 + r);
            QCOMPARE(QString::fromStdString(s["ranks"][r]["host"]), QStringLiteral("node-j"));
        }
        auto js = analyzePaths({RANKLINE_TEST_DATA_DIR "/shapes/collectors/journald-short.log"}, m_enc, o);
        QCOMPARE(int(js->info({SourceId(0), 6}).timeSource), int(TimeSource::Parsed));
    }
};

QTEST_GUILESS_MAIN(TestShapes)
#include "tst_shapes.moc"
