// Sequence rules across ranks: the rank that never reached the stuck collective, the launcher's
// summary against the ranks' own logs, and competing explanations with what would decide them.
#include <QDate>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "report/diagnosis_report.h"
#include "report/incident_report.h"
#include "shipped_encyclopedia.h"

using namespace rl;
using nlohmann::json;

// The lines after the WARN in NVIDIA/nccl#577, as posted from srun -l: NCCL's trail from init,
// then PyTorch's report of the internal error.
constexpr const char* kIssue577Report =
    "52: ip-0A0C04E3:76285:76947 [4] NCCL INFO init.cc:763 -> 3 \n"
    "52: ip-0A0C04E3:76285:76947 [4] NCCL INFO init.cc:941 -> 3 \n"
    "52:     work = group.barrier(opts=opts)\n"
    "52: RuntimeError: NCCL error in: "
    "/opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:975, "
    "internal error, NCCL version 21.1.4\n"
    "52: ncclInternalError: Internal check failed. This is either a bug in NCCL or due to memory "
    "corruption\n";

class TestRules : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    std::shared_ptr<const Analysis> analyze(const QString& path)
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        return analyzePaths({path.toStdString()}, m_enc, o);
    }
    // A bundle of one file holding `log`, analysed (null if the file could not be written).
    std::shared_ptr<const Analysis> analyzeOne(const QString& name, const QByteArray& log)
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(name));
        if (!dir.isValid() || !f.open(QIODevice::WriteOnly) || f.write(log) != log.size())
            return nullptr;
        f.close();
        return analyze(dir.path());
    }
    // The --json diagnosis of a bundle of one file holding `log` (null if it could not be made).
    json diagnoseOne(const QString& name, const QByteArray& log)
    {
        auto a = analyzeOne(name, log);
        return a ? json::parse(diagnosisJson(*a)) : json();
    }
    json diagnose(const QString& rel)
    {
        return json::parse(diagnosisJson(*analyze(QStringLiteral(RANKLINE_TEST_DATA_DIR "/") + rel)));
    }
    // The status of checklist item `id` of a finding ("" if it has none).
    static QString checkStatus(const json& finding, const char* id)
    {
        for (const auto& c : finding["checklist"])
            if (c["id"] == id)
                return QString::fromStdString(c["status"]);
        return {};
    }
    const json* finding(const json& d, const char* entry)
    {
        for (const auto& f : d["findings"])
            if (f["entry"] == entry)
                return &f;
        return nullptr;
    }
    // Whether a hypothesis's `field` ("text" or "decider") contains `part`.
    static bool hypothesis(const json& d, const char* part, const char* field = "text")
    {
        for (const auto& h : d["hypotheses"])
            if (h.contains(field) && QString::fromStdString(h[field]).contains(QLatin1String(part)))
                return true;
        return false;
    }
    // The finding of `entry` where it is the diagnosis's initiating one, else null.
    const json* initiatingAs(const json& d, const char* entry)
    {
        if (!d.is_object() || !d.contains("initiating") || !d["initiating"].is_object() ||
            d["initiating"]["entry"] != entry)
            return nullptr;
        return finding(d, entry);
    }
    // What initiated instead, for a failed check's message.
    static std::string whatInitiated(const json& d)
    {
        return !d.is_object()             ? std::string("no diagnosis")
               : d.contains("initiating") ? d["initiating"].dump()
                                          : "?";
    }

private slots:
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    // Ranks 0, 1, 3 time out at SeqNum 7; rank 2 never reports it: rank 2 is the suspect.
    void rankThatNeverReachedTheCollective()
    {
        json d = diagnose(QStringLiteral("collective/missing"));
        QVERIFY(d["initiating"].is_null());
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QCOMPARE((*w)["suspects"].size(), std::size_t{1});
        QCOMPARE((*w)["suspects"][0]["rank"].get<int>(), 2);
        QVERIFY(QString::fromStdString((*w)["suspects"][0]["reason"]).contains(QStringLiteral("SeqNum 7")));
        // And the bundle-level explanation says so, with what would decide it.
        QVERIFY(!d["hypotheses"].empty());
        QVERIFY(QString::fromStdString(d["hypotheses"][0]["text"]).contains(QStringLiteral("rank 2")));
        QVERIFY(!d["hypotheses"][0]["decider"].get<std::string>().empty());
    }

    // Of twelve ranks only 3 and 7 report the timeout (the others were killed without a word): the
    // ten silent ranks are suspects with one reason, said once, not once per rank.
    void manySilentRanksAreOneSuspectLine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 12; ++r) {
            QFile f(dir.filePath(QStringLiteral("rank%1.log").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray text =
                QStringLiteral("2025-06-12 10:00:00,000 INFO train.py:5 [rank%1] step 100\n").arg(r).toUtf8();
            if (r == 3 || r == 7)
                text += QStringLiteral("[E ProcessGroupNCCL.cpp:475] [Rank %1] Watchdog caught collective "
                                       "operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, "
                                       "NumelOut=1, Timeout(ms)=600000) ran for 600100 milliseconds before "
                                       "timing out.\n")
                            .arg(r)
                            .toUtf8();
            QCOMPARE(f.write(text), qint64(text.size()));
        }
        auto a = analyze(dir.path());
        QVERIFY(a);
        const json d = json::parse(diagnosisJson(*a));
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QCOMPARE((*w)["suspects"].size(), std::size_t{10}); // the data keeps every one
        int said = 0;
        for (const auto& h : d["hypotheses"])
            said += QString::fromStdString(h["text"]).contains(QStringLiteral("never reported"));
        QCOMPARE(said, 1);
        const QString text = QString::fromStdString(diagnosisText(*a));
        QVERIFY2(text.contains(QStringLiteral("suspect ranks 0–2, 4–6, 8–11: every reporting rank waits at "
                                              "SeqNum 7 (ALLREDUCE); these ranks never reported it")),
                 qPrintable(text));
        QCOMPARE(text.count(QStringLiteral("suspect ")), 1);
    }

    // Rank 5's connect fails (the initiating failure); ranks 0-3 then time out at SeqNum 1, and
    // ranks 4, 6, 7 say nothing of it. Rank 5's failure is why the collective never completed: it is
    // the one suspect, not every rank that stayed silent (the bench's 10,000 ranks named 9,996).
    void theInitiatingRankIsTheSilentSuspect()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 8; ++r) {
            QFile f(dir.filePath(QStringLiteral("rank%1.log").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QString host = QStringLiteral("node-%1").arg(r / 4);
            const int pid = 4100 + r;
            QString text = QStringLiteral("2025-06-12 10:00:00,000 INFO train.py:5 [rank%1] step 100\n"
                                          "%2:%3:%3 [%4] NCCL INFO comm 0x5599 rank %1 nranks 8 cudaDev %4 "
                                          "nvmlDev %4 busId 1b000 commId 0x11aa - Init COMPLETE\n")
                               .arg(r)
                               .arg(host)
                               .arg(pid)
                               .arg(r % 4);
            if (r == 5)
                text +=
                    QStringLiteral("2025-06-12 10:00:01,000 INFO train.py:9 [rank5] all_reduce\n"
                                   "node-1:4105:4190 [1] misc/socket.cc:483 NCCL WARN socketStartConnect: "
                                   "Connect to 10.0.0.12<43215> failed : Software caused connection "
                                   "abort\n");
            if (r < 4)
                text += QStringLiteral("[E ProcessGroupNCCL.cpp:475] [Rank %1] Watchdog caught collective "
                                       "operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, "
                                       "NumelOut=1, Timeout(ms)=600000) ran for 600100 milliseconds before "
                                       "timing out.\n")
                            .arg(r);
            const QByteArray bytes = text.toUtf8();
            QCOMPARE(f.write(bytes), qint64(bytes.size()));
        }
        auto a = analyze(dir.path());
        QVERIFY(a);
        const json d = json::parse(diagnosisJson(*a));
        QVERIFY2(d["initiating"].is_object() && d["initiating"]["entry"] == "nccl-socket-connect-abort",
                 whatInitiated(d).c_str());
        QCOMPARE(d["initiating"]["rank"].get<int>(), 5);
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QCOMPARE((*w)["role"].get<std::string>(), std::string("collateral"));
        QVERIFY2((*w)["suspects"].size() == 1, (*w)["suspects"].dump().c_str());
        QCOMPARE((*w)["suspects"][0]["rank"].get<int>(), 5);
        QVERIFY2(QString::fromStdString((*w)["suspects"][0]["reason"])
                     .contains(QStringLiteral("it had failed first (the initiating failure, "
                                              "nccl-socket-connect-abort)")),
                 (*w)["suspects"][0]["reason"].dump().c_str());
        // The text lists it as no competing explanation: the timeout's summary says it follows rank 5.
        const QString text = QString::fromStdString(diagnosisText(*a));
        QVERIFY2(!text.contains(QStringLiteral("suspect ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("it follows the initiating failure on rank 5")),
                 qPrintable(text));
    }

    // A return-code trail with no error text above it is the only trace some releases leave of a
    // failed connect (the silent-connect entry's fallback symptoms): it makes the finding where no
    // line states a failure, and only from the top of its thread's trail.
    void trailWithoutErrorText_data()
    {
        QTest::addColumn<QByteArray>("rank0");
        QTest::addColumn<QByteArray>("rank1");
        QTest::addColumn<QString>("entry"); // the initiating finding's, empty for none
        QTest::addColumn<int>("line");
        QTest::addColumn<bool>("inferred");
        const QByteArray trail = "node-a:100:201 [0] NCCL INFO misc/socket.cc:564 -> 2\n"
                                 "node-a:100:201 [0] NCCL INFO misc/socket.cc:615 -> 2\n"
                                 "node-a:100:201 [0] NCCL INFO bootstrap.cc:270 -> 2\n"
                                 "node-a:100:100 [0] NCCL INFO init.cc:1303 -> 2\n";
        const QByteArray before = "node-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n";
        const QByteArray quiet = "node-b:300:300 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n";
        QTest::newRow("trail alone") << before + trail << quiet << "nccl-connect-failed-silent" << 2 << true;
        // Another thread's WARN says nothing about this thread's trail.
        QTest::newRow("another thread's warn")
            << before + "\nnode-a:100:300 [0] misc/shmutils.cc:80 NCCL WARN Unexpected state 42\n" + trail
            << quiet << "nccl-connect-failed-silent" << 4 << true;
        // Right after a WARN of its own thread, the trail is that WARN's back-trace: the WARN (which
        // no entry knows here) states the error, and nothing is inferred from the trail below it.
        QTest::newRow("back-trace of a warn")
            << before + "\nnode-a:100:201 [0] misc/socket.cc:480 NCCL WARN Unexpected state 42\n" + trail
            << quiet << "" << 0 << false;
        // A line that states a failure anywhere in the bundle wins over every trail.
        QTest::newRow("a stated failure elsewhere")
            << before + trail
            << quiet + "\nnode-b:300:301 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                       "10.0.0.1<37913> failed : Software caused connection abort\n"
            << "nccl-socket-connect-abort" << 3 << false;
    }
    void trailWithoutErrorText()
    {
        QFETCH(QByteArray, rank0);
        QFETCH(QByteArray, rank1);
        QFETCH(QString, entry);
        QFETCH(int, line);
        QFETCH(bool, inferred);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 2; ++r) {
            const QByteArray& text = r == 0 ? rank0 : rank1;
            QFile f(dir.filePath(QStringLiteral("rank%1.log").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(text), qint64(text.size()));
        }
        auto a = analyze(dir.path());
        QVERIFY(a);
        const json d = json::parse(diagnosisJson(*a));
        if (entry.isEmpty()) {
            QVERIFY2(d["initiating"].is_null(), d["initiating"].dump().c_str());
            return;
        }
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), entry);
        QCOMPARE(d["initiating"]["line"].get<int>(), line);
        const json& f = d["findings"][0];
        QCOMPARE(f["role"].get<std::string>(), std::string("initiating"));
        QCOMPARE(f.value("inferred_from_trail", false), inferred);
        bool saysSo = false;
        for (const auto& h : f["hypotheses"])
            saysSo |=
                QString::fromStdString(h["text"]).startsWith(QStringLiteral("no line in these logs states"));
        QCOMPARE(saysSo, inferred);
        for (const auto& other : d["findings"])
            QVERIFY2(&other == &f || !other.value("inferred_from_trail", false), other.dump().c_str());
        if (inferred) {
            // The trail's first step is the anchor itself, and the note that it names the failed
            // call goes on it, not on the step after it (NVIDIA/nccl#1000).
            int firstStep = -1;
            for (const auto& e : f["evidence"])
                if (e["label"] == "return-code-trail" && e.contains("note") && firstStep < 0)
                    firstStep = e["line"].get<int>();
            QCOMPARE(firstStep, line);
            // Lower than the same entry's finding from a stated failure (0.65 on real case 006).
            QVERIFY2(f["confidence"].get<double>() < 0.65, f.dump().c_str());
            QVERIFY(diagnosisText(*a).find("rests on a return-code trail alone") != std::string::npos);
            const IncidentReport r = buildReport(*a, ReportOptions{});
            QVERIFY2(r.verdict.find("No line in the logs states the error") != std::string::npos,
                     r.verdict.c_str());
        }
    }

    // Two of eight ranks' logs, both timed out at one collective: the suspects are the ranks with
    // no log, and a rank that was merely late (a checkpoint being saved) is named as a possibility.
    void missingRanksMayBeLate()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r : {3, 7}) {
            QFile f(dir.filePath(QStringLiteral("rank%1.log").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                "[rank" + QByteArray::number(r) +
                "]:[E1129 11:56:57.642513817 ProcessGroupNCCL.cpp:632] [Rank " + QByteArray::number(r) +
                "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=28956, OpType=ALLREDUCE, "
                "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600058 milliseconds before timing "
                "out.\n");
        }
        auto a = analyze(dir.path());
        QVERIFY(a);
        const json d = json::parse(diagnosisJson(*a));
        QVERIFY2(d["initiating"].is_null(), d.dump().c_str());
        bool named = false;
        for (const auto& h : d["hypotheses"]) {
            const QString text = QString::fromStdString(h["text"]);
            named |= text.contains(QStringLiteral("ranks 0, 1, 2, 4, 5, 6 have no log here")) &&
                     text.contains(QStringLiteral("still busy elsewhere"));
        }
        QVERIFY2(named, d["hypotheses"].dump().c_str());
    }

    // A failure every release reports alike (a refused connect) is not placed "inside an affected
    // range": no upgrade fixes it, and the verdict says so (real case nccl#529 on 2.5.6 read as a
    // version problem).
    void behaviourIsNotAVersionProblem()
    {
        const json d =
            diagnoseOne(QStringLiteral("rank1.log"),
                        "gpu-b:2001:2001 [1] NCCL INFO NCCL version 2.5.6+cuda10.1\n"
                        "gpu-b:2001:2050 [1] include/socket.h:397 NCCL WARN Connect to 10.0.0.1<46681> "
                        "failed : Connection refused\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-connect-refused"));
        QCOMPARE(d["nccl"]["fix_applies"].get<bool>(), false);
        const QString verdict = QString::fromStdString(d["nccl"]["verdict"]);
        QVERIFY2(verdict.startsWith(QStringLiteral("The job ran NCCL 2.5.6. NCCL 2.3.5 and later report this "
                                                   "failure this way")),
                 qPrintable(verdict));
        QVERIFY2(!verdict.contains(QStringLiteral("affected range")), qPrintable(verdict));
    }

    // A failure every release reports alike can still be, on some releases, a bug an upgrade fixes:
    // a Cuda failure 'invalid argument' at transport.cc:154 is NCCL 2.18.1 to 2.18.5's (real case
    // nccl#957, 056). The verdict weighs that bug's range, not "no upgrade fixes it".
    void knownBugInsideBehaviour_data()
    {
        QTest::addColumn<QByteArray>("version");
        QTest::addColumn<QByteArray>("location");
        QTest::addColumn<int>("fixApplies"); // -1: not decided
        QTest::addColumn<QString>("says");
        QTest::newRow("2.18.3 at transport.cc:154")
            << QByteArray("2.18.3") << QByteArray("transport.cc:154") << 1
            << QStringLiteral("is a bug of NCCL 2.18.1–2.18.5, fixed in 2.18.6. The job ran NCCL 2.18.3, "
                              "inside the affected range 2.18.1–2.18.5; upgrading to NCCL 2.18.6 or later "
                              "applies the fix.");
        QTest::newRow("2.19.3 at transport.cc:154")
            << QByteArray("2.19.3") << QByteArray("transport.cc:154") << 0
            << QStringLiteral("The job ran NCCL 2.19.3, which already has the 2.18.6 fix: this 'invalid "
                              "argument' is not that bug");
        QTest::newRow("no version at transport.cc:154")
            << QByteArray() << QByteArray("transport.cc:154") << -1
            << QStringLiteral("is a bug of NCCL 2.18.1–2.18.5, fixed in 2.18.6. The logs do not say which "
                              "NCCL the job ran");
        QTest::newRow("2.18.3 elsewhere")
            << QByteArray("2.18.3") << QByteArray("enqueue.cc:1090") << 0
            << QStringLiteral("it is not a bug of some releases, and no NCCL upgrade fixes it.");
    }
    void knownBugInsideBehaviour()
    {
        QFETCH(QByteArray, version);
        QFETCH(QByteArray, location);
        QFETCH(int, fixApplies);
        QFETCH(QString, says);
        std::string log;
        if (!version.isEmpty())
            log += "tomte401:1850301:1850301 [0] NCCL INFO NCCL version " + version.toStdString() +
                   "+cuda12.2\n";
        log += "tomte401:1850301:1881341 [0] " + location.toStdString() +
               " NCCL WARN Cuda failure 'invalid argument'\n";
        const json d = diagnoseOne(QStringLiteral("rank0.log"), QByteArray::fromStdString(log));
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-cuda-failure"));
        if (fixApplies < 0)
            QVERIFY2(d["nccl"]["fix_applies"].is_null(), d["nccl"].dump().c_str());
        else
            QCOMPARE(d["nccl"]["fix_applies"].get<bool>(), fixApplies == 1);
        const QString verdict = QString::fromStdString(d["nccl"]["verdict"]);
        QVERIFY2(verdict.contains(says), qPrintable(verdict));
    }

    // A watchdog line that a terminal wrapped ("... NumelOut=524290048, Timeo" / "ut(ms)=...") or a
    // paste cut ("... before timing ") still names the collective each rank waits at, and the summary
    // leaves out the times it does not have rather than print "?" (real cases: torchtune#1165,
    // ai2cm/ace#851).
    void watchdogLineCutShort()
    {
        QByteArray log;
        for (int r : {1, 2, 3})
            log += "[rank" + QByteArray::number(r) + "]:[E ProcessGroupNCCL.cpp:563] [Rank " +
                   QByteArray::number(r) +
                   "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=15037, "
                   "OpType=_ALLGATHER_BASE, NumelIn=131072512, NumelOut=524290048, Timeo\n"
                   "ut(ms)=600000) ran for 600055 milliseconds before timing out.\n";
        const json d = diagnoseOne(QStringLiteral("console.log"), log);
        QVERIFY(d.is_object());
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY2(w, d.dump().c_str());
        const QString summary = QString::fromStdString((*w)["summary"]);
        QVERIFY2(summary.contains(QStringLiteral("_ALLGATHER_BASE (SeqNum 15037), waiting")),
                 qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1Char('?')), qPrintable(summary));
        bool named = false;
        for (const auto& h : d["hypotheses"])
            named |= QString::fromStdString(h["text"]).contains(QStringLiteral("rank 0 has no log here"));
        QVERIFY2(named, d["hypotheses"].dump().c_str());
        // The whole line still gives both times.
        const json dw =
            diagnoseOne(QStringLiteral("rank1.log"),
                        "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective "
                        "operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                        "Timeout(ms)=600000) ran for 600055 milliseconds before timing out.\n");
        QVERIFY(dw.is_object());
        const json* ww = finding(dw, "torch-watchdog-timeout");
        QVERIFY(ww);
        QVERIFY2(
            QString::fromStdString((*ww)["summary"])
                .contains(QStringLiteral("(SeqNum 7) ran 600055 ms against a timeout of 600000 ms, waiting")),
            (*ww)["summary"].dump().c_str());
    }

    // A checklist item that asks whether the launcher saw the kill accepts every launcher's words:
    // DeepSpeed's return code as well as torchrun's exit code.
    void signalPresentInAnyLaunchersWords()
    {
        const json d = diagnoseOne(
            QStringLiteral("launcher.log"),
            "[2023-04-14 13:11:27,885] [ERROR] [launch.py:434:sigkill_handler] ['/usr/bin/python3', '-u', "
            "'main.py', '--local_rank=0'] exits with return code = -9\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("host-oom-kill"));
        bool confirmed = false;
        for (const auto& c : d["findings"][0]["checklist"])
            if (c["id"] == "sigkill-reported")
                confirmed = c["status"] == "confirmed";
        QVERIFY2(confirmed, d["findings"][0]["checklist"].dump().c_str());
    }

    // torchrun's negative exit code is a signal's number: the checklist item that asks whether a
    // signal ended the worker reads it, not only the box's "Signal N (SIGxxx) received" record.
    void negativeExitCodeIsASignal()
    {
        const json d =
            diagnoseOne(QStringLiteral("agent.log"),
                        "E1106 04:43:02.651000 26021 site-packages/torch/distributed/elastic/"
                        "multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 3 (pid: 26026) of "
                        "binary: /usr/bin/python\n");
        QVERIFY(d.is_object());
        const json* f = finding(d, "torch-elastic-child-failed");
        QVERIFY2(f, d.dump().c_str());
        QCOMPARE(checkStatus(*f, "killed-by-signal"), QStringLiteral("confirmed"));
    }

    // Posted lines whose initiating finding is one entry, with what its checklist, host and summary
    // must say; each row names the thread the lines were posted in.
    void postedLinesInitiate_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QStringList>("checks"); // "id=status"
        QTest::addColumn<QString>("host");       // the finding's host; empty: not checked
        QTest::addColumn<QString>("summary");    // text the summary contains; empty: not checked

        // EFA's text-only error completion (no provider code in parentheses, the endpoint addresses
        // after it) is an OFI error like the others (real case awsome-distributed-ai#312).
        QTest::newRow("ofiErrorInWords")
            << QStringLiteral("worker.log")
            << QByteArray(
                   "[1,2]<stdout>:test-nccl-worker-0:199:263 [2] process_err_completion:1562 NCCL WARN "
                   "NET/OFI Request 0x7f08c0001d30 completed with error. RC: 5. Error: Invalid receiver "
                   "queue pair number (QPN) My EFA addr: fi_addr_efa://[fe80::30:43ff:fe60:456b]:0:1 My "
                   "host id: i-0 Peer EFA addr: fi_addr_efa://[fe80::ed:61ff:fe1d:a3b3]:0:2 Peer host id: "
                   "i-1. Completed length: 0\n")
            << QStringLiteral("nccl-ofi-error") << QStringList{} << QString()
            << QStringLiteral("(RC 5: Invalid receiver queue pair number (QPN))");

        // A paste that lost the closing quote of a CUDA error ("Cuda failure 999 'unknown error", as in
        // nccl-tests#276) still names the error.
        QTest::newRow("cudaFailureWithoutItsClosingQuote")
            << QStringLiteral("rank1.log")
            << QByteArray(
                   "gpu47:4962:5097 [1] misc/strongstream.cc:53 NCCL WARN Cuda failure 999 'unknown error\n")
            << QStringLiteral("nccl-cuda-failure") << QStringList{} << QString()
            << QStringLiteral("failed with 'unknown error'");

        // Ray kills workers itself when the node runs low on memory: the same failure as the kernel's
        // OOM kill, reported in Ray's words (real case OpenRLHF#911 and others: nothing recognised
        // before).
        QTest::newRow("rayMemoryMonitorIsAnOomKill")
            << QStringLiteral("driver.log")
            << QByteArray("    raise value\n"
                          "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on "
                          "memory.\n")
            << QStringLiteral("host-oom-kill") << QStringList{QStringLiteral("scheduler-confirms=confirmed")}
            << QString() << QString();

        // NVIDIA/nccl#230: the HCA's 'local catastrophic error' async event (then the event reader fails)
        // initiates.
        QTest::newRow("ibAsyncCatastrophicEvent")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "2019-06-02T16:13:44.884Z: "
                   "[1,12]<stdout>:container-e275-1553839402050-12124-01-000057:815:864 [0] tr"
                   "ansport/net_ib.cu:80 NCCL WARN NET/IB : Got async event : local catastrophic error\n"
                   "2019-06-02T16:13:44.884Z: [1,12]<stdout>:\n"
                   "2019-06-02T16:13:44.884Z: "
                   "[1,12]<stdout>:container-e275-1553839402050-12124-01-000057:815:864 [0] mi"
                   "sc/ibvwrap.cu:220 NCCL WARN Call to ibv_get_async_event failed\n")
            << QStringLiteral("nccl-ib-async-event")
            << QStringList{QStringLiteral("adapter-failed=confirmed")} << QString() << QString();

        // NVIDIA/nccl#1710: an access-violation async event on node201 comes before node023's status=9
        // completion naming it: node201 initiates.
        QTest::newRow("ibAsyncEventOnPeerHost")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "> node201:127799:127863 [0] transport/[net_ib.cc:101](http://net_ib.cc:101/) NCCL "
                   "WARN NET/IB : mlx5"
                   "_0:1 Got async event : local access violation work queue error\n"
                   "> \n"
                   "> node023:10214:10303 [0] transport/[net_ib.cc:1909](http://net_ib.cc:1909/) NCCL "
                   "WARN NET/IB : Got "
                   "completion from peer [10.1.3.201](http://10.1.3.201/)<33057> with status=9 opcode=0 "
                   "len=0 vendor err"
                   " 138 (Send) localGid ::ffff:[10.206.1.23](http://10.206.1.23/) "
                   "remoteGids::ffff:[10.206.1.11](http:/"
                   "/10.206.1.11/)\n")
            << QStringLiteral("nccl-ib-async-event") << QStringList{QStringLiteral("fatal-event=confirmed")}
            << QStringLiteral("node201") << QString();

        // NVIDIA/nccl#905 (maintainer: a log full of port errors is a flapping link): the bare quoted WARN
        // makes a finding.
        QTest::newRow("ibAsyncPortErrorFlap")
            << QStringLiteral("posted.log") << QByteArray("NCCL WARN NET/IB : Got async event : port error\n")
            << QStringLiteral("nccl-ib-async-event") << QStringList{QStringLiteral("link-down=confirmed")}
            << QString() << QString();

        // Lightning-AI/lit-llama#380: port errors from several ranks of one host.
        QTest::newRow("ibPortErrorsOnOneHost")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "...-48:34050:34121 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port "
                   "error\n"
                   "\n"
                   "...-48:34052:34141 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port "
                   "error\n")
            << QStringLiteral("nccl-ib-async-event")
            << QStringList{QStringLiteral("link-down=confirmed"), QStringLiteral("several-ranks=confirmed")}
            << QString() << QString();

        // NVIDIA/nccl#380 (2.7.8, RoCE): 'Call to ibv_create_cq failed' without errno is a verbs-resource
        // failure of connection setup.
        QTest::newRow("ibVerbsCreateCqFails")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "spark01:2683:2826 [0] NCCL INFO Channel 00 : 0[3000] -> 1[3000] [send] via NET/IB/0\n"
                   "\n"
                   "spark01:2683:2826 [0] misc/ibvwrap.cc:268 NCCL WARN Call to ibv_create_cq failed\n")
            << QStringLiteral("nccl-ib-qp-setup-failure")
            << QStringList{QStringLiteral("verbs-resource-logged=confirmed")} << QString()
            << QStringLiteral("ibv_create_cq failed");

        // NVIDIA/nccl#562 (RDMA/SHARP plugin under Slurm + pyxis): 'ibvwrap.c:130 ... Call to ibv_create_qp
        // failed' with its plugin trail.
        QTest::newRow("ibVerbsCreateQpPlugin")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "hai-a100-3:3778851:3779883 [4] ibvwrap.c:130 NCCL WARN Call to ibv_create_qp failed\n"
                   "hai-a100-3:3778851:3779883 [4] NCCL INFO ib_plugin.c:196 -> 2\n")
            << QStringLiteral("nccl-ib-qp-setup-failure")
            << QStringList{QStringLiteral("verbs-resource-logged=confirmed"),
                           QStringLiteral("net-ib-trace=confirmed")}
            << QString() << QString();

        // NVIDIA/nccl#1808: an HTTP probe ('GET /met' read right to left) hit an NCCL listener; fixed by
        // NVIDIA/nccl#1834 in 2.30.7.
        QTest::newRow("socketWrongMagicHttpProbe")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "2025-08-12 09:37:02.259938 worker-9 >> :172:1231 [6] NCCL INFO Connected all trees\n"
                   "2025-08-12 09:37:03.463948 worker-9 >> [2025-08-12 01:37:03] :166:1226 [0] "
                   "misc/socket.cc:484 NCCL W"
                   "ARN socketFinalizeAccept: wrong magic 74656d2f20544547 != 7970663b906d70b9\n")
            << QStringLiteral("nccl-bootstrap-mismatch")
            << QStringList{QStringLiteral("foreign-connection-logged=confirmed"),
                           QStringLiteral("foreign-is-probe=confirmed")}
            << QString() << QStringLiteral("74656d2f20544547");

        // aws/aws-ofi-nccl#24: 'NET/OFI Couldn't open AV. RC: -22' at connection setup.
        QTest::newRow("ofiCouldntOpenAv")
            << QStringLiteral("posted.log")
            << QByteArray("[1,23]<stdout>:ip-172-32-45-165:72593:73427 [7] NCCL "
                          "INFO Ring 00 : 23 -> 24 [send] via NET/AWS Libf"
                          "abric/0\n"
                          "[1,23]<stdout>:\n"
                          "[1,23]<stdout>:ip-172-32-45-165:72593:73427 [7] "
                          "create_nccl_ofi_component:459 NCCL WARN NET/OFI Coul"
                          "dn't open AV. RC: -22, ERROR: Invalid argument\n")
            << QStringLiteral("nccl-ofi-error") << QStringList{QStringLiteral("ofi-init-logged=confirmed")}
            << QString() << QString();

        // aws/aws-ofi-nccl#715: CQ creation fails while the plugin loads; the plugin is dropped.
        QTest::newRow("ofiPluginInitFailedFallsBack")
            << QStringLiteral("posted.log")
            << QByteArray("  | 2024-11-28T07:42:11.527Z | algo-1:17778:17848 [5] "
                          "nccl_ofi_ofiutils_init_connection:274 NCCL WAR"
                          "N NET/OFI Couldn't open CQ. RC: -22, ERROR: Invalid argument\n"
                          "  | 2024-11-28T07:42:11.527Z | algo-1:17778:17848 [5] "
                          "nccl_net_ofi_create_plugin:259 NCCL WARN NET/O"
                          "FI aws-ofi-nccl initialization failed\n")
            << QStringLiteral("nccl-ofi-error")
            << QStringList{QStringLiteral("ofi-init-logged=confirmed"),
                           QStringLiteral("ofi-plugin-dropped=confirmed")}
            << QString() << QString();

        // NVIDIA/nccl#563: 'NET/OFI Unable to register memory (type = 1) ... Cannot allocate memory'.
        QTest::newRow("ofiRegisterMemoryEnomem")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "10.0.87.143: 10.0.87.143: ip-10-0-87-143:149:298 [5] register_mr_buffers:465 NCCL WARN "
                   "NET/OFI "
                   "Unabl"
                   "e to register memory (type = 1) for device 0. RC: 12, Error: Cannot allocate memory\n")
            << QStringLiteral("nccl-ofi-error")
            << QStringList{QStringLiteral("ofi-mr-logged=confirmed"),
                           QStringLiteral("ofi-mr-enomem=confirmed")}
            << QString() << QString();

        // awslabs/awsome-distributed-ai#203: CUDA buffer registration EINVAL (libfabric bug before EFA
        // installer 1.29.1).
        QTest::newRow("ofiRegisterCudaEinval")
            << QStringLiteral("posted.log")
            << QByteArray("register_rail_mr_buffer:617 NCCL WARN NET/OFI Unable "
                          "to register memory (type = 2) for device 4. RC:"
                          " -22, Error: Invalid argument\n")
            << QStringLiteral("nccl-ofi-error") << QStringList{QStringLiteral("ofi-mr-cuda-einval=confirmed")}
            << QString() << QString();

        // GSP firmware timeout in the kernel log (NVIDIA/nvidia-docker#1648): Xid 119 leaves the GPU unusable
        // until reset (catalog: RESET_GPU), so it is where the job failed; "no known failure" before.
        QTest::newRow("gpuXid119GspTimeout")
            << QStringLiteral("dmesg.txt")
            << QByteArray("[Mon Mar  6 21:34:31 2023] NVRM: Xid (PCI:0000:61:00): 119, pid=977823, "
                          "name=nvidia-smi, Timeout waiting for RPC from GSP! Expected function 76 "
                          "(GSP_RM_CONTROL) (0x2080014b 0x5).\n")
            << QStringLiteral("gpu-hardware-fault") << QStringList{QStringLiteral("kernel-xid=confirmed")}
            << QString() << QString();

        // NCCL 2.3.x's same-process peer-access WARN has no '(=busid)' part. No posted log with this line
        // was found: the line is a PLACEHOLDER built from v2.3.5-5 src/transport/p2p.cu:464
        // ("failed to peer with device %d: %d %s"), code 64 as CUDA numbered it then (horovod#785).
        QTest::newRow("peerAccessUnsupportedNccl23Form")
            << QStringLiteral("posted.log")
            << QByteArray("gpu-a:48213:48300 [0] transport/p2p.cu:464 NCCL WARN failed to peer with "
                          "device 1: 64 peer access is not supported between these two devices\n")
            << QStringLiteral("nccl-p2p-unsupported") << QStringList{} << QString() << QString();

        // Ray's memory monitor names the worker it killed in one line of its own (vllm-project/vllm#2669,
        // posted without anything else: "no known failure" before). It is host-oom-kill's, and the node's
        // IP in it is the node to look at.
        QTest::newRow("rayMemoryMonitorKilledThisWorker")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "Memory on the node (IP: 169.254.181.2, ID: "
                   "708c7baf966d59aa3f08299830c349ca055293ebb1c33d8e72cd3336) "
                   "where the task (actor ID: 0dab4ab45f6c947201afac6d01000000, name=RayWorkerVllm.__init__, "
                   "pid=308, "
                   "memory used=11.15GB) was running was 12.49GB / 13.15GB (0.950003), which exceeds the "
                   "memory "
                   "usage "
                   "threshold of 0.95. Ray killed this worker (ID: "
                   "79a553ea91fe46f95e8384ddf8a8f0a01e3418a975ecd0af983c7bb2) "
                   "because it was the most recently scheduled task; to see more information about memory "
                   "usage on "
                   "this "
                   "node, use `ray logs raylet.out -ip 169.254.181.2`. To see the logs of the worker, use "
                   "`ray logs "
                   "worker-79a553ea91fe46f95e8384ddf8a8f0a01e3418a975ecd0af983c7bb2*out -ip 169.254.181.2. "
                   "Top 10 "
                   "memory "
                   "users:\n")
            << QStringLiteral("host-oom-kill") << QStringList{QStringLiteral("scheduler-confirms=confirmed")}
            << QString() << QStringLiteral("on node 169.254.181.2");

        // torchelastic's agent reports a worker killed with SIGKILL (hpcaitech/ColossalAI#3514, as posted):
        // the summary names the local rank and pid the line gives, where it said only "a training process".
        QTest::newRow("elasticSigkillNamesLocalRankAndPid")
            << QStringLiteral("log.txt")
            << QByteArray("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) "
                          "local_rank: 3 (pid: 812917) of binary: "
                          "/data/chenhao/anaconda3/envs/ColossalAI-Chat/bin/python\n")
            << QStringLiteral("host-oom-kill") << QStringList{} << QString()
            << QStringLiteral("(local rank 3, pid 812917)");

        // sgl-project/sglang#6017: IBGDA does not initialise and no NVSHMEM transport is left; the
        // bundle made no finding before.
        QTest::newRow("nvshmemIbgdaInitFailed")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "/sgl-workspace/nvshmem/src/host/transport/transport.cpp:nvshmemi_transport_init:275: "
                   "init "
                   "failed for transport: IBGDA\n"
                   "/sgl-workspace/nvshmem/src/host/transport/transport.cpp:nvshmemi_transport_init:287: "
                   "Unable to "
                   "initialize any transports. returning error.\n"
                   "/sgl-workspace/nvshmem/src/host/init/init.cu:995: non-zero status: 7 nvshmem detect topo "
                   "failed\n"
                   "\n"
                   "/sgl-workspace/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1080: nvshmem "
                   "initialization failed, exiting\n")
            << QStringLiteral("nvshmem-transport-failure") << QStringList{} << QString() << QString();

        // NVIDIA/nvshmem#51: IBGDA finds no HCA it can drive from the GPU (NIC buffers cannot be placed
        // in GPU memory), so its initialization fails.
        QTest::newRow("nvshmemIbgdaNoUsableDevice")
            << QStringLiteral("posted.log")
            << QByteArray(
                   "/home/bit/zhangzhiwei/nvshmem-3.5.19-1/src/modules/transport/ibgda/ibgda.cpp 4820 no "
                   "active IB "
                   "device that supports GPU-initiated communication is found, exiting...\n"
                   "\n"
                   "/home/bit/zhangzhiwei/nvshmem-3.5.19-1/src/host/transport/"
                   "transport.cpp:nvshmemi_transport_init:282: init failed for transport: IBGDA\n"
                   "WARN: device mlx5_3 cannot allocate buffer on the specified memory type. Skipping...\n")
            << QStringLiteral("nvshmem-transport-failure")
            << QStringList{QStringLiteral("ibgda-devices-skipped=confirmed")} << QString() << QString();

        // wenet-e2e/wenet#1891: the unreachable target is an IPv6 link-local address with a zone
        // (fe80::...%6) published by the peer, although this rank's own NET/Socket line is IPv4: the
        // link-local checklist item is confirmed from the connect line.
        QTest::newRow("linkLocalTargetConfirmsSuspectAddress")
            << QStringLiteral("posted.log")
            << QByteArray("voicec105:90736:90736 [0] NCCL INFO NET/Socket : Using [0]eno1:172.16.20.105<0>\n"
                          "voicec105:90736:91655 [0] NCCL INFO Channel 00 : 1[89000] -> 2[b1000] [send] via "
                          "NET/Socket/0\n"
                          "\n"
                          "voicec105:90736:91655 [0] include/socket.h:403 NCCL WARN Connect to "
                          "fe80::c4eb:49ff:fe04:e32d%6<57335> failed : Network is unreachable\n")
            << QStringLiteral("nccl-no-route-to-host")
            << QStringList{QStringLiteral("suspect-address=confirmed")} << QString() << QString();
    }
    void postedLinesInitiate()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, log);
        QFETCH(QString, entry);
        QFETCH(QStringList, checks);
        QFETCH(QString, host);
        QFETCH(QString, summary);
        const json d = diagnoseOne(file, log);
        const json* f = initiatingAs(d, entry.toStdString().c_str());
        QVERIFY2(f, whatInitiated(d).c_str());
        for (const QString& c : checks) {
            const QStringList idStatus = c.split(QLatin1Char('='));
            QCOMPARE(idStatus.size(), qsizetype{2});
            QCOMPARE(checkStatus(*f, idStatus[0].toStdString().c_str()), idStatus[1]);
        }
        if (!host.isEmpty())
            QCOMPARE(QString::fromStdString((*f)["host"]), host);
        if (!summary.isEmpty())
            QVERIFY2(QString::fromStdString((*f)["summary"]).contains(summary),
                     (*f)["summary"].dump().c_str());
    }

    // SIGBUS is the initiating failure, with what names shared memory confirming it: UCX's report
    // with NCCL's frames under torchrun (real case pipedream#76: only the ChildFailedError box was
    // recognised before), and PyTorch DataLoader's own message (Megatron-LM#878: nothing before).
    void busErrorIsSharedMemory_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("confirmed");
        QTest::newRow("nccl thread")
            << QByteArray("[8d6bf97c3bf4:3039 :0:3095] Caught signal 7 (Bus error: nonexistent "
                          "physical address)\n"
                          "==== backtrace ====\n"
                          " 2 0x000000000007587d ncclGroupEnd()  ?\?\?:0\n"
                          " 4 0x0000000000059e97 ncclGetUniqueId()  ?\?\?:0\n"
                          " 5 0x00000000000489b1 ?\?\?()  /usr/lib/x86_64-linux-gnu/libnccl.so.2:0\n"
                          "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n")
            << "nccl-thread-faulted";
        QTest::newRow("dataloader") << QByteArray(
                                           "ERROR: Unexpected bus error encountered in worker. This might be "
                                           "caused by insufficient shared memory (shm).\n")
                                    << "shm-named";
    }
    void busErrorIsSharedMemory()
    {
        QFETCH(QByteArray, log);
        QFETCH(QString, confirmed);
        const json d = diagnoseOne(QStringLiteral("console.log"), log);
        const json* f = initiatingAs(d, "process-bus-error");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, confirmed.toStdString().c_str()), QStringLiteral("confirmed"));
    }

    // A CUDA failure in NCCL's NVLS setup is the Fabric Manager entry's, which refines the generic
    // CUDA-failure entry that reads the same line (real cases nccl#1488, pytorch#177472).
    void nvlsFailureIsTheFabric_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::newRow("nvls.cc") << QByteArray(
            "node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 "
            "'invalid argument'\n");
        QTest::newRow("2.29 bind") << QByteArray("torch.distributed.DistBackendError: NCCL error in: "
                                                 "/var/lib/jenkins/workspace/torch/csrc/distributed/"
                                                 "c10d/NCCLUtils.cpp:93, unhandled cuda error (run with "
                                                 "NCCL_DEBUG=INFO for details), NCCL version "
                                                 "2.29.3 \nncclUnhandledCudaError: Call to CUDA function "
                                                 "failed. \nLast error: \nFailed to bind NVLink "
                                                 "SHARP (NVLS) Multicast memory of size 2097152 : CUDA error "
                                                 "401 'the operation cannot be performed in "
                                                 "the present state'. \n");
    }
    void nvlsFailureIsTheFabric()
    {
        QFETCH(QByteArray, log);
        const json d = diagnoseOne(QStringLiteral("rank2.log"), log);
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-nvls-fabric-failure"));
    }

    // A connect to a link-local or loopback address is evidence that a peer published an address
    // others cannot reach, even where no interface line of the connecting rank is in the logs (real
    // case nccl#529); a port a poster elided ("<...>", aws-do-eks#54) does not hide the refusal.
    void linkLocalTargetIsSuspect()
    {
        const json d =
            diagnoseOne(QStringLiteral("quote.log"),
                        "NCCL WARN Connect to fe80::745d:60ff:fef9:e1dd%ip6tnl0<46681> failed : Connection "
                        "timed out\n");
        QVERIFY(d.is_object());
        const json* f = finding(d, "nccl-connect-timeout");
        QVERIFY2(f, d.dump().c_str());
        QCOMPARE(checkStatus(*f, "interface-suspect"), QStringLiteral("confirmed"));
        const json db = diagnoseOne(QStringLiteral("pr.log"),
                                    "socketPollConnect: connect to 169.254.170.23<...> returned "
                                    "Connection refused, retrying (13/34)\n");
        QVERIFY(db.is_object());
        QCOMPARE(QString::fromStdString(db["initiating"]["entry"]), QStringLiteral("nccl-connect-refused"));
    }

    // A GPU that failed in hardware is where the job failed (jade-hpc-gpu#194, kohya-ss/sd-scripts#1434:
    // "no known failure" before); an ECC report inside NCCL's CUDA check is this entry's, not the
    // generic CUDA failure's; an Xid that usually means an application fault (13) makes nothing.
    void gpuHardwareFaultStartsIt()
    {
        const json d =
            diagnoseOne(QStringLiteral("rank1.log"),
                        "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
                        "\n"
                        "[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with "
                        "exception: CUDA error: uncorrectable ECC error encountered\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("gpu-hardware-fault"));
        const json n =
            diagnoseOne(QStringLiteral("rank3.log"),
                        "gpu-node07:41523:41602 [3] misc/strongstream.cc:398 NCCL WARN Cuda failure "
                        "'uncorrectable ECC error encountered'\n");
        QCOMPARE(QString::fromStdString(n["initiating"]["entry"]), QStringLiteral("gpu-hardware-fault"));
        const json x =
            diagnoseOne(QStringLiteral("dmesg.txt"),
                        "May 18 19:02:39 kernel: NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the "
                        "bus.\n");
        QCOMPARE(QString::fromStdString(x["initiating"]["entry"]), QStringLiteral("gpu-hardware-fault"));
        const json a =
            diagnoseOne(QStringLiteral("dmesg.txt"),
                        "[ 1234.5] NVRM: Xid (PCI:0000:3b:00): 13, pid=4242, name=python3, Graphics "
                        "Exception: ESR 0x404490=0x80000001\n");
        QVERIFY2(a["findings"].empty(), a["findings"].dump().c_str());
    }

    // Memory registration with the NIC (nccl-tests#206: locked-memory limit; nccl#778: no DMA-BUF
    // memory regions): both had no finding; the error text answers which cause it is.
    void memoryRegistrationFails()
    {
        const json d =
            diagnoseOne(QStringLiteral("posted.log"),
                        "misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot "
                        "allocate memory\n");
        const json* f = initiatingAs(d, "nccl-ib-memory-registration-failure");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, "error-class-known"), QStringLiteral("confirmed"));
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(QStringLiteral("'Cannot allocate memory'")),
                 (*f)["summary"].dump().c_str());
        const json b =
            diagnoseOne(QStringLiteral("posted.log"),
                        "misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error "
                        "Operation not supported\n");
        QCOMPARE(QString::fromStdString(b["initiating"]["entry"]),
                 QStringLiteral("nccl-ib-memory-registration-failure"));
    }

    // GPUs without peer-to-peer (SkyRL#108, as PyTorch quoted NCCL's error under 'Last error:'):
    // this entry, not the generic CUDA failure, and the fix names NCCL_P2P_DISABLE.
    void peerAccessUnsupported()
    {
        const json d = diagnoseOne(
            QStringLiteral("posted.log"),
            "torch.distributed.DistBackendError: NCCL error in: "
            "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3353, unhandled cuda error (run with "
            "NCCL_DEBUG=INFO for details), NCCL version 2.26.2\n"
            "ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "Last error:\n"
            "Cuda failure 217 'peer access is not supported between these two devices'\n");
        const json* f = initiatingAs(d, "nccl-p2p-unsupported");
        QVERIFY2(f, whatInitiated(d).c_str());
        QVERIFY2(f->dump().find("NCCL_P2P_DISABLE=1") != std::string::npos, f->dump().c_str());
    }

    // PyTorch's heartbeat monitor: alone, the stuck watchdog is the failure to explain (NVIDIA/Fuser#3055,
    // a hang at process-group teardown); after a collective timeout it is the timeout's late end
    // (snowflakedb/ArcticTraining#219: the timeout at 05:06:30, the stuck watchdog at 05:14:36).
    void heartbeatMonitorStuckWatchdog()
    {
        const json d = diagnoseOne(
            QStringLiteral("description.log"),
            "[E929 22:14:53.112803704 ProcessGroupNCCL.cpp:1487] [PG ID 0 PG GUID  Rank 3] ProcessGroup"
            "NCCL's watchdog got stuck for 10 seconds without making progress in monitoring enqueued co"
            "llectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking"
            " the watchdog, and could be triggered by another thread holding the GIL inside a CUDA api "
            "(for example, CudaEventDestroy), or other deadlock-prone behaviors.If you suspect the watc"
            "hdog is not actually stuck and a longer timeout would help, you can either increase the ti"
            "meout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the heartbeat monito"
            "r (TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps, feel free to file an"
            " issue to PyTorch about the short timeout or false positive abort; otherwise, please attem"
            "pt to debug the hang.\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("torch-heartbeat-monitor"));
        const json m = diagnoseOne(
            QStringLiteral("posted.log"),
            "[rank7]:[E626 05:14:36.393067540 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg)"
            " Rank 7] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in "
            "monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEvent"
            "Destroy) hang blocking the watchdog, and could be triggered by another thread holding the "
            "GIL inside a CUDA api (for example, CudaEventDestroy), or other deadlock-prone behaviors.I"
            "f you suspect the watchdog is not actually stuck and a longer timeout would help, you can "
            "either increase the timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disabl"
            "e the heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps"
            ", feel free to file an issue to PyTorch about the short timeout or false positive abort; o"
            "therwise, please attempt to debug the hang. \n"
            "[rank2]:[E626 05:06:30.929096625 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collec"
            "tive operation timeout: WorkNCCL(SeqNum=120049, OpType=_ALLGATHER_BASE, NumelIn=16384000, "
            "NumelOut=131072000, Timeout(ms)=1800000) ran for 1800065 milliseconds before timing out.\n");
        QVERIFY(m.is_object());
        QVERIFY2(m["initiating"].is_null(), m["initiating"].dump().c_str());
        QVERIFY(finding(m, "torch-watchdog-timeout"));
        const json* h = finding(m, "torch-heartbeat-monitor");
        QVERIFY(h);
        QCOMPARE(QString::fromStdString((*h)["role"]), QStringLiteral("context"));
    }

    // A kernel fault that the ProcessGroupNCCL watchdog noticed first: vllm-project/vllm#6042 (maintainer:
    // one process hit an illegal memory access, the others timed out in allreduce) and
    // NVIDIA-NeMo/Megatron-Bridge#836 (unspecified launch failure on rank 29). Both said "no known failure"
    // before; the faulting rank is now the initiating failure.
    void watchdogKernelFaultStartsIt()
    {
        const json d =
            diagnoseOne(QStringLiteral("posted.log"),
                        "[rank3]:[E ProcessGroupNCCL.cpp:1414] [PG 2 Rank 3] Process group watchdog "
                        "thread terminated with exception: CUDA error: an illegal memory access was "
                        "encountered\n"
                        "--\n"
                        "  | CUDA kernel errors might be asynchronously reported at some other API "
                        "call, so the stacktrace below might be incorrect.\n");
        const json* f = initiatingAs(d, "torch-cuda-kernel-fault");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, "watchdog-noticed"), QStringLiteral("confirmed"));
        const json m =
            diagnoseOne(QStringLiteral("posted.log"),
                        "[rank29]:[E1002 12:20:55.123831168 ProcessGroupNCCL.cpp:1923] [PG ID 5 PG "
                        "GUID 83(TENSOR_MODEL_PARALLEL_GROUP) Rank 1] Process group watchdog thread "
                        "terminated with exception: CUDA error: unspecified launch failure\n");
        const json* g = initiatingAs(m, "torch-cuda-kernel-fault");
        QVERIFY2(g, whatInitiated(m).c_str());
        QVERIFY2(
            QString::fromStdString((*g)["summary"]).contains(QStringLiteral("'unspecified launch failure'")),
            (*g)["summary"].dump().c_str());
    }

    // The faulting rank (vllm-project/vllm#6042's line) and a peer's watchdog timeout (the shipped
    // torch-watchdog-timeout sample) in one console: the fault initiates, the timeout is collateral and
    // points at it (before: only the collateral timeout, no initiator).
    void kernelFaultThenPeerTimesOut()
    {
        const json d = diagnoseOne(
            QStringLiteral("console.log"),
            "[rank3]:[E ProcessGroupNCCL.cpp:1414] [PG 2 Rank 3] Process group watchdog thread terminated "
            "with "
            "exception: CUDA error: an illegal memory access was encountered\n"
            "[rank1]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, "
            "Timeout(ms)=600000) ran for 600020 milliseconds before timing out.\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("torch-cuda-kernel-fault"));
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QCOMPARE(QString::fromStdString((*w)["role"]), QStringLiteral("collateral"));
        const json* f = finding(d, "torch-cuda-kernel-fault");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "collateral"), QStringLiteral("confirmed"));
    }

    // NCCL's CUDA check reporting error 700 (pytorch/pytorch#131755, 'Cuda failure 700' printed by CUCHECK
    // from NCCL 2.19.1) is the kernel-fault case of nccl-cuda-failure, which stays as context; ECC and
    // out-of-memory CUDA errors stay with their own entries.
    void ncclCudaFailure700IsAKernelFault()
    {
        const json d =
            diagnoseOne(QStringLiteral("rank1.log"),
                        "n122-164-108:7400:7642 [1] include/alloc.h:125 NCCL WARN Cuda failure 700 'an "
                        "illegal memory access was encountered'\n"
                        "n122-164-108:7400:7642 [1] NCCL INFO include/alloc.h:246 -> 1\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("torch-cuda-kernel-fault"));
        const json* n = finding(d, "nccl-cuda-failure");
        QVERIFY(n);
        QCOMPARE(QString::fromStdString((*n)["role"]), QStringLiteral("context"));
        const json* f = finding(d, "torch-cuda-kernel-fault");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "nccl-noticed"), QStringLiteral("confirmed"));
        const json e = diagnoseOne(QStringLiteral("rank1.log"),
                                   "RuntimeError: CUDA error: uncorrectable ECC error encountered\n");
        QCOMPARE(QString::fromStdString(e["initiating"]["entry"]), QStringLiteral("gpu-hardware-fault"));
        QVERIFY(!finding(e, "torch-cuda-kernel-fault"));
        const json o = diagnoseOne(QStringLiteral("rank1.log"), "RuntimeError: CUDA error: out of memory\n");
        QCOMPARE(QString::fromStdString(o["initiating"]["entry"]), QStringLiteral("cuda-oom"));
        QVERIFY(!finding(o, "torch-cuda-kernel-fault"));
    }

    // A device-side assert prints the failed condition from the kernel before the host sees
    // 'device-side assert triggered' (huggingface/accelerate#2539's assertion line, sgl-project/sglang#1274's
    // RuntimeError): the kernel's line is where the failure starts.
    void deviceAssertLineComesFirst()
    {
        const json d =
            diagnoseOne(QStringLiteral("rank0.log"),
                        "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:93: operator(): block: "
                        "[0,0,0], thread: [28,0,0] Assertion `index >= -sizes[i] && index < sizes[i] "
                        "&& \"index out of bounds\"` failed.\n"
                        "RuntimeError: CUDA error: device-side assert triggered\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("torch-cuda-kernel-fault"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 1);
        const json* f = finding(d, "torch-cuda-kernel-fault");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "device-assert"), QStringLiteral("confirmed"));
    }

    // Other reporters of the same sticky errors: PyTorch 1.x THC (pytorch/pytorch#2567), TensorFlow's driver
    // API (tensorflow/tensorflow#25866), nccl-tests (tinygrad/open-gpu-kernel-modules#35), Triton
    // (vllm-project/vllm#17098). All made no finding before.
    void kernelFaultInOtherWords_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::newRow("thc") << QByteArray(
            "RuntimeError: cuda runtime error (4) : unspecified launch failure at "
            "/home/ubuntu/pytorch/torch/lib/THC/THCTensorCopy.cu:85\n");
        QTest::newRow("tensorflow") << QByteArray(
            "2019-02-21 16:43:26.973442: E tensorflow/stream_executor/cuda/cuda_event.cc:48] Error polling "
            "for "
            "event status: failed to query event: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was "
            "encountered\n");
        QTest::newRow("nccl-tests") << QByteArray(
            "lam-MU72-SU0-00: Test CUDA failure common.cu:297 'an illegal memory access was encountered'\n");
        QTest::newRow("triton") << QByteArray(
            "ERROR 04-15 00:31:11 worker_base.py:574] RuntimeError: Triton Error "
            "[CUDA]: an illegal memory access was encountered\n");
    }
    void kernelFaultInOtherWords()
    {
        QFETCH(QByteArray, log);
        const json d = diagnoseOne(QStringLiteral("posted.log"), log);
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("torch-cuda-kernel-fault"));
    }
    // NVIDIA/nccl#1905: the QP's async fatal event, not the status=4 completion it causes on the same
    // process, initiates.
    void ibAsyncQpFatalBeforeCompletion()
    {
        const json d = diagnoseOne(QStringLiteral("posted.log"),
                                   "2025-11-09 15:39:31.043 +08:00 [2025-11-09 07:39:30] h100-28:238:1313 "
                                   "[0] transport/net_ib.cc:139 NC"
                                   "CL WARN communicator encountered a fatal error (detected in ncclIbTest)\n"
                                   "2025-11-09 15:39:31.043 +08:00 [2025-11-09 07:39:30] h100-28:238:1219 "
                                   "[0] transport/net_ib.cc:180 NC"
                                   "CL WARN NET/IB : mlx5_ib0:1 async fatal event on QP (0x7f69f01519a8): "
                                   "local access violation work qu"
                                   "eue error\n"
                                   "2025-11-09 15:39:31.043 +08:00 [2025-11-09 07:39:30] h100-28:238:1313 "
                                   "[0] transport/net_ib.cc:2451 N"
                                   "CCL WARN NET/IB: Got completion from peer 172.16.12.34<38081> with "
                                   "status=4 opcode=0 len=0 vendor er"
                                   "r 83 (Send) hca mlx5_ib0\n");
        const json* f = initiatingAs(d, "nccl-ib-async-event");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, "communicator-stopped"), QStringLiteral("confirmed"));
        const json* c = finding(d, "nccl-ib-completion-error");
        QVERIFY(c);
        QCOMPARE(QString::fromStdString((*c)["role"]), QStringLiteral("context"));
    }

    // Blackwell NVLink5 Xids (leptonai/gpud#1174 kernel lines): the 'Fatal' 149 starts it, the earlier
    // 'Nonfatal' 145 is only context and does not take the initiating line.
    void gpuNvlink5FatalNotNonfatal()
    {
        const json d = diagnoseOne(
            QStringLiteral("dmesg.txt"),
            "NVRM: Xid (PCI:0018:01:00): 145, RLW_RXPIPE Nonfatal XC0 i0 Link 13 (0x0409a0c2 0x00000008 "
            "0x00000001 0x00000000 0x00100000 0x00000004)\n"
            "NVRM: Xid (PCI:0019:01:00): 149, NETIR Fatal XC0 i0 Link -1 (0x000fe406 0x00000000 0x00000000 "
            "0x00000000 0x00000000 0x00000000)\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("gpu-hardware-fault"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 2);
        const json* f = finding(d, "gpu-hardware-fault");
        QVERIFY(f);
        bool nonfatalSeen = false;
        for (const auto& s : (*f)["symptoms"])
            nonfatalSeen |= s["id"] == "xid-nvlink5-nonfatal" && s["observed"] == true;
        QVERIFY2(nonfatalSeen, (*f)["symptoms"].dump().c_str());
    }

    // nvidia-smi's 'Unknown Error' (rwth-i6/returnn#1486, next to corrected PCIe AER errors) is
    // NVML_ERROR_UNKNOWN, not GPU_IS_LOST: no finding, but a suggestion naming this entry that asks for
    // the kernel log ("no known failure" before).
    void gpuUnknownErrorSuggestsOnly()
    {
        const json d = diagnoseOne(
            QStringLiteral("log.txt"),
            "zeyer@cn-234 ~ % nvidia-smi\n"
            "Unable to determine the device handle for GPU0000:03:00.0: Unknown Error\n"
            "...\n"
            "[  +0.000316] pcieport 0000:00:03.0: AER: Corrected error received: 0000:00:03.0\n"
            "[  +0.000005] pcieport 0000:00:03.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, "
            "(Transmitter ID)\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_null(), d.dump().c_str());
        bool named = false;
        for (const auto& h : d["hypotheses"])
            named |= h["entry"].is_string() && h["entry"] == "gpu-hardware-fault" &&
                     QString::fromStdString(h["decider"]).contains(QStringLiteral("dmesg"));
        QVERIFY2(named, d["hypotheses"].dump().c_str());
    }

    // An uncorrectable PCIe error on the GPU's port just before Xid 79 (wilicc/gpu-burn#1): the Xid is
    // the finding and the AER lines answer the PCIe-link checklist item.
    void gpuFallenOffBusWithAer()
    {
        const json d = diagnoseOne(
            QStringLiteral("dmesg.txt"),
            "[74889.542031] pcieport 0000:00:02.0: AER: Uncorrected (Fatal) error received: id=0010\n"
            "[74889.542044] pcieport 0000:00:02.0: PCIe Bus Error: severity=Uncorrected (Fatal), "
            "type=Transaction "
            "Layer, id=0010(Receiver ID)\n"
            "[74889.644138] NVRM: Xid (PCI:0000:02:00): 79, GPU has fallen off the bus.\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("gpu-hardware-fault"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 3);
        const json* f = finding(d, "gpu-hardware-fault");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "pcie-link-errors"), QStringLiteral("confirmed"));
    }

    // NCCL 2.7.3 as quoted in NVIDIA/nccl#342 ('failed:' without the space of the source's format): the
    // posix_fallocate failure is the first line of the failure and confirms the capacity question.
    void shmPosixFallocateWithoutSpace()
    {
        const json d =
            diagnoseOne(QStringLiteral("posted.log"),
                        "include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left on "
                        "device\n"
                        "include/shm.h:48 NCCL WARN Error while creating shared memory segment "
                        "nccl-shm-recv-250a7cc850ba9298-0-1-3 (size 9637888)\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-shm-exhausted"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 1);
        const json* f = finding(d, "nccl-shm-exhausted");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "extend-failed-logged"), QStringLiteral("confirmed"));
    }

    // From Open MPI 5.0.6 (PRRTE 3.0.7, help-prun.txt [prun:proc-aborted-strsignal]) prterun wraps its
    // report after "exited on", so signal 9 stands alone on the next line. No posted log of this form was
    // found: the lines are built from the PRRTE v3.0.7 format with a stand-in rank, pid and node. The
    // continuation is read with a launcher's or collector's prefix (a Kubernetes timestamp) in front,
    // which the old '^\s*' anchor refused; another program's prose ending in "signal 9 (Killed)." is not
    // taken for it.
    void prrteWrappedSignalNine()
    {
        const json d =
            diagnoseOne(QStringLiteral("launcher.log"),
                        "--------------------------------------------------------------------------\n"
                        "prterun noticed that process rank 3 with PID 48216 on node gpu-b exited on\n"
                        "signal 9 (Killed).\n"
                        "--------------------------------------------------------------------------\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("host-oom-kill"));
        const json t = diagnoseOne(QStringLiteral("launcher.log"),
                                   "2025-03-04T10:00:00.123456789Z prterun noticed that process rank 2 with "
                                   "PID 1617008 on node cpu155 "
                                   "exited on\n"
                                   "2025-03-04T10:00:00.123456789Z signal 9 (Killed).\n");
        QCOMPARE(QString::fromStdString(t["initiating"]["entry"]), QStringLiteral("host-oom-kill"));
        const json* k = finding(t, "host-oom-kill");
        QVERIFY(k);
        QCOMPARE(checkStatus(*k, "sigkill-reported"), QStringLiteral("confirmed"));
        // A wrapped signal 6 behind timestamps: the launcher's finding now reads the signal too.
        const json a = diagnoseOne(QStringLiteral("launcher.log"),
                                   "2025-03-04T10:00:00.123456789Z prterun noticed that process rank 7 with "
                                   "PID 0 on node gpu0304 exited "
                                   "on\n"
                                   "2025-03-04T10:00:00.123456789Z signal 6 (Aborted).\n");
        const json* l = finding(a, "openmpi-launcher-process-lost");
        QVERIFY(l);
        QVERIFY2(
            QString::fromStdString((*l)["summary"]).contains(QStringLiteral("killed by signal 6 (Aborted)")),
            (*l)["summary"].dump().c_str());
        const json p = diagnoseOne(QStringLiteral("run.log"),
                                   "worker.sh: child process was terminated by signal 9 (Killed).\n");
        QVERIFY(!finding(p, "host-oom-kill"));
    }

    // An MPIJob launcher (open-mpi/ompi#6618): kubectl exec of the remote orted ended with 137 = 128 + 9,
    // a SIGKILL, before ORTE lost that daemon. The kill is the first event ("only consequences" before).
    void kubectlExecExit137IsAKill()
    {
        const json d = diagnoseOne(
            QStringLiteral("launcher.log"),
            "command terminated with exit code 137\n"
            "--------------------------------------------------------------------------\n"
            "ORTE has lost communication with a remote daemon.\n"
            "\n"
            "HNP daemon : [[11377,0],0] on node i39030a4a38d4a3abcb17e488a3141ef-mpijob-0-launcher-ksczd\n"
            "Remote daemon: [[11377,0],1] on node i39030a4a38d4a3abcb17e488a3141ef-mpijob-0-worker-0\n");
        const json* f = initiatingAs(d, "host-oom-kill");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, "sigkill-reported"), QStringLiteral("confirmed"));
        // Not a proof of an OOM kill: the checklist still asks for the kernel's or Kubernetes' word.
        QVERIFY(checkStatus(*f, "kernel-confirms") != QStringLiteral("confirmed"));
        QVERIFY(checkStatus(*f, "scheduler-confirms") != QStringLiteral("confirmed"));
    }

    // Open MPI's TCP transport on a surviving rank (horovod/horovod#1950): a peer's connection was reset.
    // The rank is a victim; the block's last line names the peer's host ("no known failure" before).
    void mpiPeerDisconnectedNamesThePeer()
    {
        const json d =
            diagnoseOne(QStringLiteral("reco313.log"),
                        "An MPI communication peer process has unexpectedly disconnected.  This\n"
                        "usually indicates a failure in the peer process (e.g., a crash or\n"
                        "otherwise exiting without calling MPI_FINALIZE first).\n"
                        "\n"
                        "Although this local MPI process will likely now behave unpredictably\n"
                        "(it may even hang or crash), the root cause of this problem is the\n"
                        "failure of the peer -- that is what you need to investigate.  For\n"
                        "example, there may be a core file that you can examine.  More\n"
                        "generally: such peer hangups are frequently caused by application bugs\n"
                        "or other external events.\n"
                        "\n"
                        "  Local host: reco-zl-c4-reco313\n"
                        "  Local PID:  7720\n"
                        "  Peer host:  reco-zl-c4-reco316\n"
                        "--------------------------------------------------------------------------\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_null(), d["initiating"].dump().c_str());
        const json* f = finding(d, "openmpi-launcher-process-lost");
        QVERIFY(f);
        QCOMPARE(QString::fromStdString((*f)["role"]), QStringLiteral("collateral"));
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(QStringLiteral("reco-zl-c4-reco316")),
                 (*f)["summary"].dump().c_str());
        QCOMPARE(checkStatus(*f, "peer-disconnected-reported"), QStringLiteral("confirmed"));
    }

    // A reset during Gloo's full-mesh exchange comes from a peer that went away (Gloo's own hints; the
    // PaddlePaddle FAQ): not the loopback/interface failure, so no initiating finding, but a suggestion
    // that names the peer dialled and asks for its first error. No posted line was found: this one is
    // built from gloo 70dc3602 (pair.cc:152, SystemError::what()) and PyTorch's wrapper. The refused
    // connect of aws-samples/aws-do-eks#50 still initiates.
    void glooResetIsAPeersFailure()
    {
        const json d = diagnoseOne(
            QStringLiteral("worker.log"),
            "[rank3]:[E ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed with "
            "[../third_party/gloo/gloo/transport/tcp/pair.cc:152] read: Connection reset by peer, "
            "remote=[10.0.0.2]:40321\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_null(), d["initiating"].dump().c_str());
        QVERIFY2(d["findings"].empty(), d["findings"].dump().c_str());
        const json& h = d["hypotheses"];
        QVERIFY2(h.size() == 1, h.dump().c_str());
        QCOMPARE(h[0]["entry"].get<std::string>(), std::string("torch-gloo-connect-failure"));
        QVERIFY2(QString::fromStdString(h[0]["text"]).contains(QStringLiteral("10.0.0.2:40321")),
                 h.dump().c_str());
        QVERIFY2(QString::fromStdString(h[0]["decider"]).contains(QStringLiteral("first error of the peer")),
                 h.dump().c_str());
        const json r = diagnoseOne(QStringLiteral("posted.log"),
                                   "[rank8] Gloo connectFullMesh failed ... timed out connecting: SO_ERROR: "
                                   "Connection refused,\n"
                                   "        remote=[127.0.0.1]:14215\n");
        QCOMPARE(QString::fromStdString(r["initiating"]["entry"]),
                 QStringLiteral("torch-gloo-connect-failure"));
    }

    // A bare "task N: Killed" from srun with no banner (ArjunaCluster/ArjunaUsers#48): SIGKILL that Slurm
    // did not report as 'Out Of Memory'. The suggestion asks sacct and the node's kernel log, not "the
    // log of the process it waited for"; with a time-limit banner the task is still the teardown's victim.
    void srunBareKilledAsksForMemory()
    {
        const json d = diagnoseOne(QStringLiteral("slurm.err"), "srun: error: c002: task 0: Killed\n"
                                                                "srun: Force Terminated StepId=120.0\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["findings"].empty(), d["findings"].dump().c_str());
        const json& h = d["hypotheses"];
        QVERIFY2(h.size() == 1, h.dump().c_str());
        QCOMPARE(h[0]["entry"].get<std::string>(), std::string("slurm-job-ended"));
        QVERIFY2(QString::fromStdString(h[0]["decider"]).contains(QStringLiteral("sacct")), h.dump().c_str());
        QVERIFY2(QString::fromStdString(h[0]["text"]).contains(QStringLiteral("Out Of Memory")),
                 h.dump().c_str());
        const json t = diagnoseOne(QStringLiteral("slurm.err"),
                                   "slurmstepd: error: *** STEP 55595933.0 ON maestro-3017 CANCELLED AT "
                                   "2025-01-10T15:27:25 DUE TO TIME LIMIT ***\n"
                                   "srun: error: maestro-3017: tasks 0-3: Killed\n");
        QCOMPARE(QString::fromStdString(t["initiating"]["entry"]), QStringLiteral("slurm-job-ended"));
        const json* f = finding(t, "slurm-job-ended");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "tasks-torn-down"), QStringLiteral("confirmed"));
    }

    // UCX's signal handler on two hosts in one posted log (openucx/ucx#10837): its "[host:pid:idx:tid]"
    // names each process, so the finding names gpu15's and counts two processes. Before, both lines
    // were the file's one unnamed process.
    void ucxPrefixNamesTheCrashedProcesses()
    {
        const json d = diagnoseOne(QStringLiteral("log.txt"),
                                   "[gpu15:85054:0:85088] Caught signal 11 (Segmentation fault: invalid "
                                   "permissions for mapped object at address 0x7fc62b3b0c00)\n"
                                   "[gpu35:46469:0:46491] Caught signal 11 (Segmentation fault: invalid "
                                   "permissions for mapped object at address 0x7fd1fb3b0c00)\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("process-segfault"));
        QCOMPARE(QString::fromStdString(d["initiating"]["host"]), QStringLiteral("gpu15"));
        const json* f = finding(d, "process-segfault");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "several-processes"), QStringLiteral("confirmed"));
    }

    // A post in two pieces with no stamps (NVIDIA/nccl#1029 as posted): the traceback's piece, whose
    // file name sorts first, quotes 'Cuda failure' under 'Last error:'; the other holds NCCL's own
    // WARN. The WARN, which names the process and source line, is the finding; the echo is context.
    void undatedEchoYieldsToTheWarn()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto write = [&](const char* name, const QByteArray& text) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
        };
        QVERIFY(write(
            "a-trace.txt",
            "rdma-test-gpu-worker-1: torch.distributed.DistBackendError: NCCL error in: "
            "/opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1197, unhandled cuda "
            "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5\n"
            "rdma-test-gpu-worker-1: ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "rdma-test-gpu-worker-1: Last error:\n"
            "rdma-test-gpu-worker-1: Cuda failure 'initialization error'\n"));
        QVERIFY(
            write("b-warn.txt",
                  "rdma-test-gpu-worker-1: \n"
                  "rdma-test-gpu-worker-1: rdma-test-gpu-worker-1:2918:4483 [4] init.cc:263 NCCL WARN Cuda "
                  "failure 'initialization error'\n"));
        const json d = json::parse(diagnosisJson(*analyze(dir.path())));
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-cuda-failure"));
        QVERIFY2(QString::fromStdString(d["initiating"]["file"]).endsWith(QStringLiteral("b-warn.txt")),
                 d["initiating"].dump().c_str());
        QCOMPARE(d["initiating"]["line"].get<int>(), 2);
    }

    // NVIDIA/nccl#577, as posted from srun -l: the ranks built different rings ("ring 0 does not
    // loop back to start (48 != 52)"), and PyTorch reports the internal error it returned. The ring
    // check is the failure; the framework's 'internal error' follows it.
    void ringMismatchInitiates()
    {
        const json d = diagnoseOne(
            QStringLiteral("log.txt"),
            QByteArray("52: ip-0A0C04E3:76285:76947 [4] graph/rings.cc:38 NCCL WARN Error : ring 0 "
                       "does not loop back to start (48 != 52)\n"
                       "52: ip-0A0C04E3:76285:76947 [4] NCCL INFO graph/connect.cc:311 -> 3 \n") +
                kIssue577Report);
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-ring-inconsistent"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 1);
        const json* f = finding(d, "nccl-ring-inconsistent");
        QVERIFY(f);
        QVERIFY2(
            QString::fromStdString((*f)["summary"])
                .contains(QStringLiteral("ring 0, joined from every rank's own topology search, does not "
                                         "lead back to communicator rank 52 (it ends at 48)")),
            (*f)["summary"].dump().c_str());
        bool trail = false;
        for (const auto& c : (*f)["checklist"])
            trail = trail || (c["id"] == "trail-through-connect" && c["status"] == "confirmed");
        QVERIFY2(trail, (*f)["checklist"].dump().c_str());
    }

    // NVIDIA/nccl#520, as posted through pdsh: each rank's empty line before its WARN is the host's
    // prefix alone, and the page the lines were copied from dropped the space after its colon
    // ("compute-dy-p4d24xlarge-5:"). Those lines go with the next rank's lines, not to a process of
    // their own; the three ranks each report the ring check.
    void pdshEmptyLinesWithoutTheirSpace()
    {
        const std::string h = "compute-dy-p4d24xlarge-5: compute-dy-p4d24xlarge-5:";
        const std::string text = h +
                                 "3048:4991 [2] graph/rings.cc:38 NCCL WARN Error : ring 2 does not "
                                 "loop back to start (7 != 2)\n" +
                                 h + "3048:4991 [2] NCCL INFO graph/connect.cc:281 -> 3\n" + h +
                                 "3048:4991 [2] NCCL INFO group.cc:72 -> 3 [Async thread]\n"
                                 "compute-dy-p4d24xlarge-5:\n" +
                                 h +
                                 "3049:4987 [3] graph/rings.cc:38 NCCL WARN Error : ring 2 does not "
                                 "loop back to start (2 != 3)\n" +
                                 h +
                                 "3049:4987 [3] NCCL INFO graph/connect.cc:281 -> 3\n"
                                 "compute-dy-p4d24xlarge-5:\n" +
                                 h +
                                 "3050:4993 [4] graph/rings.cc:38 NCCL WARN Error : ring 2 does not "
                                 "loop back to start (1 != 4)\n";
        const json d = diagnoseOne(QStringLiteral("log.txt"), QByteArray::fromStdString(text));
        std::vector<std::int64_t> pids;
        for (const auto& r : d["ranks"]) {
            QVERIFY2(!r["pid"].is_null(), d["ranks"].dump().c_str());
            pids.push_back(r["pid"].get<std::int64_t>());
        }
        QCOMPARE(pids, (std::vector<std::int64_t>{3048, 3049, 3050}));
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-ring-inconsistent"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 1); // pid 3048's WARN
    }

    // Only a consequence is recognised (ncclInternalError), and the cause is an NCCL WARN no entry
    // knows (the WARN's text is made up for this test; the lines after it are NVIDIA/nccl#577's, as
    // posted from srun -l): the WARN is listed, and the cause is no longer said to be missing from
    // the lines. (aws/aws-ofi-nccl#663's 'Last error:' text, the first case of this, is now
    // nccl-ofi-error's: ofiAvInsertInitiates.)
    void unknownWarnBesideConsequences()
    {
        const json d =
            diagnoseOne(QStringLiteral("log.txt"),
                        QByteArray("52: ip-0A0C04E3:76285:76947 [4] graph/search.cc:99 NCCL WARN Error : a "
                                   "check that no entry describes failed\n") +
                            kIssue577Report);
        QVERIFY(d.is_object());
        QVERIFY(d["initiating"].is_null());
        QVERIFY(finding(d, "torch-nccl-internal-error"));
        bool listed = false, saidMissing = false;
        for (const auto& h : d["hypotheses"]) {
            const QString text = QString::fromStdString(h["text"]);
            listed = listed || text.contains(QStringLiteral("a check that no entry describes failed"));
            saidMissing = saidMissing || text.contains(QStringLiteral("not in these lines"));
        }
        QVERIFY2(listed, d["hypotheses"].dump().c_str());
        QVERIFY2(!saidMissing, d["hypotheses"].dump().c_str());
    }

    // Rank 3's own watchdog took its process down (Lightning-AI/pytorch-lightning#20434, as posted;
    // its timeout line is not in the paste) while rank 2 timed out at SeqNum 1: rank 3 failed in a
    // collective too, so it is no suspect of "never reached it"; the missing ranks 0 and 1 are.
    void takedownRankIsNoLaggard()
    {
        const json d = diagnoseOne(
            QStringLiteral("log.txt"),
            "[rank3]:[E1119 13:21:13.938104757 ProcessGroupNCCL.cpp:636] [Rank 3] To avoid data "
            "inconsistency, we are taking the entire process down.\n"
            "[rank2]:[E1119 13:21:13.092845528 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) "
            "Rank 2] Process group watchdog thread terminated with exception: [Rank 2] Watchdog caught "
            "collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=1, NumelOut=1, "
            "Timeout(ms)=1800000) ran for 1800013 milliseconds before timing out.\n");
        QVERIFY(d.is_object());
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QVERIFY2((*w)["suspects"].empty(), (*w)["suspects"].dump().c_str());
        bool missing = false;
        for (const auto& h : d["hypotheses"])
            missing = missing ||
                      QString::fromStdString(h["text"]).contains(QStringLiteral("ranks 0, 1 have no log"));
        QVERIFY2(missing, d["hypotheses"].dump().c_str());
    }

    // PyTorch 1.10's TCPStore client says only "connect() timed out. Original timeout was N ms."
    // (real case pytorch/pytorch#69197, torchrun's c10d rendezvous store): a store connect failure,
    // with the store timeout in the summary. Nothing was recognised before.
    void storeConnectTimedOutPyTorch110()
    {
        const json d = diagnoseOne(
            QStringLiteral("posted.log"),
            "Traceback (most recent call last):\n"
            "  File \"/home/ubuntu/miniconda3/envs/py39/lib/python3.9/site-packages/torch/distributed/"
            "elastic/rendezvous/c10d_rendezvous_backend.py\", line 155, in _create_tcp_store\n"
            "    store = TCPStore(\n"
            "RuntimeError: connect() timed out. Original timeout was 60000 ms.\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("torch-store-connect-failure"));
        const json* f = finding(d, "torch-store-connect-failure");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "client-timed-out"), QStringLiteral("confirmed"));
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(QStringLiteral("60000 ms")),
                 (*f)["summary"].dump().c_str());
    }

    // Older 1.x releases throw the bare "connect() timed out." from TCPStore (real case
    // xh-liu/CC-FPSE#6, rendezvous.py's _tcp_rendezvous_handler).
    void storeConnectTimedOutBare()
    {
        const json d = diagnoseOne(
            QStringLiteral("posted.log"),
            "  File \"/home/fatemeh/anaconda3/lib/python3.7/site-packages/torch/distributed/rendezvous.py\", "
            "line 120, in _tcp_rendezvous_handler\n"
            "    store = TCPStore(result.hostname, result.port, world_size, start_daemon)\n"
            "RuntimeError: connect() timed out.\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("torch-store-connect-failure"));
    }

    // torchelastic's error handler records the agent's exception as JSON with the bare class name:
    // '"message": "RendezvousTimeoutError: "' (real case facebookresearch/av_hubert#19). It is the
    // rendezvous timeout; before, only the module-qualified class name was read.
    void rendezvousTimeoutInErrorJson()
    {
        const json d = diagnoseOne(QStringLiteral("posted.log"),
                                   "ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{\n"
                                   "  \"message\": {\n"
                                   "    \"message\": \"RendezvousTimeoutError: \",\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("torch-rendezvous-timeout"));
        const json* f = finding(d, "torch-rendezvous-timeout");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "timeout-raised"), QStringLiteral("confirmed"));
    }

    // The same JSON for a closed rendezvous (real case kubeflow/trainer#1638) is the collateral
    // RendezvousClosedError: a suggestion that names the rendezvous entry, not silence.
    void rendezvousClosedInErrorJson()
    {
        const json d = diagnoseOne(QStringLiteral("posted.log"),
                                   "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing "
                                   "worker group\n"
                                   "ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{\n"
                                   "  \"message\": {\n"
                                   "    \"message\": \"RendezvousClosedError: \",\n");
        QVERIFY(d.is_object());
        bool named = false;
        for (const auto& h : d["hypotheses"])
            named = named || (h["entry"].is_string() && h["entry"] == "torch-rendezvous-timeout");
        QVERIFY2(named, d["hypotheses"].dump().c_str());
    }

    // torchelastic's "failed (exitcode: -7) local_rank: L (pid: P)" names the local rank and the pid
    // of the worker that died of SIGBUS; the summary carries both (real case hpcaitech/ColossalAI#3556:
    // "Unknown rank" and nothing else before).
    void busErrorNamesLocalRankAndPid()
    {
        const json d =
            diagnoseOne(QStringLiteral("agent.log"),
                        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) "
                        "local_rank: 1 (pid: 5621) of binary: /usr/bin/python3.10\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("process-bus-error"));
        const json* f = finding(d, "process-bus-error");
        QVERIFY(f);
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(QStringLiteral("(local rank 1, pid 5621)")),
                 (*f)["summary"].dump().c_str());
    }

    // A SIGBUS whose backtrace runs through LMDB is a memory-mapped data file, not /dev/shm (real
    // case ChenRocks/UNITER#82: Open MPI's handler, frames in lmdb/cpython*.so). The checklist item
    // for mapped-file readers is confirmed and the summary names the library.
    void busErrorInLmdbIsTheMappedFile()
    {
        const json d = diagnoseOne(
            QStringLiteral("posted.log"),
            "[1,0]<stderr>:[1a62e574072d:00334] *** Process received signal ***\n"
            "[1,0]<stderr>:[1a62e574072d:00334] Signal: Bus error (7)\n"
            "[1,0]<stderr>:[1a62e574072d:00334] Signal code: Non-existant physical address (2)\n"
            "[1,0]<stderr>:[1a62e574072d:00334] Failing at address: 0x7f246888f00a\n"
            "[1,0]<stderr>:[1a62e574072d:00334] [ 0] /lib/x86_64-linux-gnu/libpthread.so.0(+0x11390)"
            "[0x7f25b870a390]\n"
            "[1,0]<stderr>:[1a62e574072d:00334] [ 1] /opt/conda/lib/python3.6/site-packages/lmdb/"
            "cpython.cpython-36m-x86_64-linux-gnu.so(+0x128e0)[0x7f25aa5988e0]\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("process-bus-error"));
        const json* f = finding(d, "process-bus-error");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "mapped-data-file"), QStringLiteral("confirmed"));
        const QString summary = QString::fromStdString((*f)["summary"]);
        QVERIFY2(summary.contains(QStringLiteral("lmdb/cpython")) &&
                     summary.contains(QStringLiteral("rather than /dev/shm")),
                 (*f)["summary"].dump().c_str());
    }

    // glog's failure handler ("*** SIGBUS (@addr) received by PID") with a frame in Caffe's LMDB
    // cursor (real case BVLC/caffe#2830, after the disk had filled): the mapped-file item is
    // confirmed.
    void busErrorGlogInLmdbCursor()
    {
        const json d = diagnoseOne(
            QStringLiteral("caffe.log"),
            "*** SIGBUS (@0x7f0f6be91000) received by PID 8640 (TID 0x7ed81e0cd700) from PID 1810436096; "
            "stack trace: ***\n"
            "    @     0x7fd83ecd6cb0 (unknown)\n"
            "    @     0x7fd83ea51fb3 (unknown)\n"
            "    @     0x7fd83f19a4b0 (unknown)\n"
            "    @     0x7fd83f19a61d (unknown)\n"
            "    @     0x7fd83f8875ca caffe::db::LMDBCursor::value()\n"
            "    @     0x7fd83f82e41a caffe::DataLayer<>::InternalThreadEntry()\n"
            "Bus error (core dumped)\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("process-bus-error"));
        const json* f = finding(d, "process-bus-error");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "mapped-data-file"), QStringLiteral("confirmed"));
    }

    // gdb on a core file: "Program terminated with signal SIGBUS, Bus error." with the top frame in
    // LMDB's mdb.c (real case jnwatson/py-lmdb#269). Nothing was recognised before.
    void busErrorGdbCoreInLmdb()
    {
        const json d = diagnoseOne(QStringLiteral("gdb.log"),
                                   "Program terminated with signal SIGBUS, Bus error.\n"
                                   "#0  0x00007fc4446beb06 in mdb_page_search_root (mc=0x7ffe96992e10, "
                                   "key=0x0, flags=4) at build/lib/mdb.c:5485\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("process-bus-error"));
        const json* f = finding(d, "process-bus-error");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "mapped-data-file"), QStringLiteral("confirmed"));
    }
    // aws/aws-ofi-nccl#663 (as posted): PyTorch quotes the plugin's fi_av_insert failure under 'Last error:'.
    // The plugin's WARN initiates (no longer an unknown error beside a consequence), its summary points at
    // the EFA security group, and the address-vector checklist item is confirmed.
    // NOTE: replaces the expectation of unknownLastErrorBesideConsequences, which uses the same log.
    void ofiAvInsertInitiates()
    {
        const json d = diagnoseOne(
            QStringLiteral("log.txt"),
            "[rank1]: torch.distributed.DistBackendError: NCCL error in: "
            "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, internal error - please report this "
            "issue to the NCCL developers, NCCL version 2.20.5\n"
            "[rank1]: ncclInternalError: Internal check failed.\n"
            "[rank1]: Last error:\n"
            "[rank1]: NET/OFI Unable to insert remote address into address vector for device 1. RC: 0\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d["hypotheses"].dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-ofi-error"));
        const json* f = finding(d, "nccl-ofi-error");
        QVERIFY(f);
        const QString summary = QString::fromStdString((*f)["summary"]);
        QVERIFY2(summary.contains(QStringLiteral("fi_av_insert")) &&
                     summary.contains(QStringLiteral("security group")),
                 qPrintable(summary));
        QCOMPARE(checkStatus(*f, "ofi-av-insert"), QStringLiteral("confirmed"));
    }

    // aws/aws-ofi-nccl#476 (as posted, mpirun prefixes kept): the static p5.48xlarge topology file lacks the
    // CPU's arch; NCCL's WARN initiates instead of nccl-tests' 'internal error' being the only finding.
    void topologyAttributeMissingInitiates()
    {
        const json d = diagnoseOne(
            QStringLiteral("log.txt"),
            "[1,2]<stdout>:test-nccl-p5-2-worker-0:75:95 [2] graph/xml.h:101 NCCL WARN Attribute arch of "
            "node cpu "
            "not found\n"
            "[1,2]<stdout>:test-nccl-p5-2-worker-0:75:95 [2] NCCL INFO graph/topo.cc:493 -> 3\n"
            "[1,2]<stdout>:test-nccl-p5-2-worker-0:75:95 [2] NCCL INFO graph/topo.cc:623 -> 3\n"
            "[1,2]<stdout>:test-nccl-p5-2-worker-0: Test NCCL failure common.cu:961 'internal error - please "
            "report this issue to the NCCL developers / '\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d["hypotheses"].dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-topology-file-invalid"));
        const json* f = finding(d, "nccl-topology-file-invalid");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "attr-missing"), QStringLiteral("confirmed"));
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(QStringLiteral("'arch'")),
                 (*f)["summary"].dump().c_str());
    }

    // aws/aws-ofi-nccl#1226 (the line as the contributor posted it): the topology XML outgrew NCCL's
    // 256-node limit on a p5.48xlarge with 32 EFA NICs.
    void topologyTooManyXmlNodes()
    {
        const json d =
            diagnoseOne(QStringLiteral("log.txt"), "NCCL WARN Error : too many XML nodes (max 256)\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d["hypotheses"].dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-topology-file-invalid"));
        const json* f = finding(d, "nccl-topology-file-invalid");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "xml-limit"), QStringLiteral("confirmed"));
    }

    // NVIDIA/nccl#1529 (as posted): two pods on one node, each with its own GPUs; NCCL 2.21.5's topology
    // detection looks up the other pod's GPU through NVML and gets 'Not Found'.
    void nvmlPeerGpuNotVisible()
    {
        const json d =
            diagnoseOne(QStringLiteral("log.txt"),
                        "ucpe-resource033018034100:6897:7102 [2] misc/nvmlwrap.cc:187 NCCL WARN "
                        "nvmlDeviceGetHandleByPciBusId() failed: Not Found\n"
                        "ucpe-resource033018034100:6897:7102 [2] NCCL INFO graph/xml.cc:850 -> 2\n"
                        "ucpe-resource033018034100:6897:7102 [2] NCCL INFO graph/topo.cc:696 -> 2\n"
                        "ucpe-resource033018034100:6897:7102 [2] NCCL INFO init.cc:1012 -> 2\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d["hypotheses"].dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-gpu-not-visible"));
        const json* f = finding(d, "nccl-gpu-not-visible");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "nvml-not-found"), QStringLiteral("confirmed"));
        QCOMPARE(checkStatus(*f, "during-topology"), QStringLiteral("confirmed"));
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(QStringLiteral("same host hash")),
                 (*f)["summary"].dump().c_str());
    }

    // deepseek-ai/DeepEP#106 (first physical line of the terminal-wrapped paste, cut after its first NCCL
    // record): only a flush (status 5) is logged. No finding is made from it, but the suggestion names the
    // IB entry and asks for the first non-flush completion or async event on either host.
    void ibFlushOnlySuggestsFirstError()
    {
        const json d =
            diagnoseOne(QStringLiteral("log.txt"),
                        "tos:11978:12642 [0] ib_plugin.c:1075 NCCL WARN NET/IB : Got completion from peer "
                        "172.21.17.89<38536> with error 5, opcode 48, len 32710, vendor err 249\n"
                        "VM-17-82-centos:11978:12642 [0] NCCL INFO transport/net.cc:1298 -> 6\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_null(), d["initiating"].dump().c_str());
        QVERIFY2(d["findings"].empty(), d["findings"].dump().c_str());
        const json& h = d["hypotheses"];
        QVERIFY2(!h.empty(), h.dump().c_str());
        QCOMPARE(h[0]["entry"].get<std::string>(), std::string("nccl-ib-completion-error"));
        QVERIFY2(QString::fromStdString(h[0]["text"]).contains(QStringLiteral("IBV_WC_WR_FLUSH_ERR")),
                 h.dump().c_str());
        QVERIFY2(QString::fromStdString(h[0]["decider"]).contains(QStringLiteral("status other than 5")),
                 h.dump().c_str());
    }
    // deepseek-ai/DeepEP#126 (posted lines 2-6 of the paste): NVSHMEM's IBRC transport cannot create
    // its completion queue, ep_create fails, and a process then segfaults. The transport failure
    // initiates; the segfault is still found, after it.
    void nvshmemCqCreationBeforeSegfault()
    {
        const json d = diagnoseOne(
            QStringLiteral("posted.log"),
            "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:304: NULL value cq creation failed \n"
            "\n"
            "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1395: non-zero status: 7 ep_create "
            "failed\n"
            "\n"
            "[TENCENT64:5490 :0:5490] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x38)\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nvshmem-transport-failure"));
        QCOMPARE(QString::fromStdString(d["findings"][0]["entry"]),
                 QStringLiteral("nvshmem-transport-failure"));
        const json* seg = finding(d, "process-segfault");
        QVERIFY(seg);
        QCOMPARE(QString::fromStdString((*seg)["role"]), QStringLiteral("context"));
        const json* f = finding(d, "nvshmem-transport-failure");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "setup-failure-logged"), QStringLiteral("confirmed"));
    }

    // deepseek-ai/DeepEP#126 (the whole posted paste): the NVSHMEM lines are read (they made no
    // finding before). The paste starts with another process's segfault; no line carries a time,
    // so the order of the lines cannot decide. What decides is how NVSHMEM fails: the processes it
    // left half set up crash after its transport failure (the entry names process-segfault among its
    // undated consequences), so the transport failure initiates and the first segfault is context.
    // Before, the segfault that the paste happened to print first initiated.
    void nvshmemDeepEp126FullPaste()
    {
        const json d = diagnoseOne(
            QStringLiteral("posted.log"),
            "[TENCENT64:5489 :0:5489] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0xfeffffff95)\n"
            "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:304: NULL value cq creation failed \n"
            "\n"
            "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1395: non-zero status: 7 ep_create "
            "failed\n"
            "\n"
            "[TENCENT64:5490 :0:5490] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x38)\n"
            "[TENCENT64:5493 :0:5493] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x10102464c450f)\n"
            "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:304: NULL value cq creation failed \n"
            "\n"
            "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1395: non-zero status: 7 ep_create "
            "failed\n"
            "\n"
            "[TENCENT64:5491 :0:5491] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x38)\n"
            "[TENCENT64:5492 :0:5492] Caught signal 11 (Segmentation fault: address not mapped to object at "
            "address 0x2000000000008)\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object() && d["initiating"]["entry"] == "nvshmem-transport-failure",
                 d["initiating"].dump().c_str());
        const json* f = finding(d, "nvshmem-transport-failure");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "setup-failure-logged"), QStringLiteral("confirmed"));
        const json* seg = finding(d, "process-segfault");
        QVERIFY(seg);
        QCOMPARE(QString::fromStdString((*seg)["role"]), QStringLiteral("context"));
    }

    // The same rule never moves a dated crash: with times, the segfault a minute before the NVSHMEM
    // failure initiates.
    void nvshmemDatedSegfaultFirstStays()
    {
        const json d = diagnoseOne(
            QStringLiteral("posted.log"),
            "2025-03-01T10:00:00Z [TENCENT64:5489 :0:5489] Caught signal 11 (Segmentation fault: address "
            "not mapped to object at address 0xfeffffff95)\n"
            "2025-03-01T10:01:00Z /sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:304: NULL value "
            "cq creation failed \n"
            "2025-03-01T10:01:00Z /sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1395: non-zero "
            "status: 7 ep_create failed\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object() && d["initiating"]["entry"] == "process-segfault",
                 d["initiating"].dump().c_str());
    }

    // deepseek-ai/DeepEP#289: NVSHMEM's IBRC queue pair cannot be moved to RTR (errno 110), so
    // ep_connect fails.
    void nvshmemIbrcConnectFailed()
    {
        const json d = diagnoseOne(QStringLiteral("posted.log"),
                                   "Allocating buffer size: 2115.111296 MB ...\n"
                                   "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:418: non-zero "
                                   "status: 110 ibv_modify_qp failed\n"
                                   "\n"
                                   "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1433: "
                                   "non-zero status: 7 ep_connect failed\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nvshmem-transport-failure"));
        QVERIFY(!finding(d, "nccl-ib-qp-setup-failure"));
    }

    // NCCL's WARN, unstamped, above the framework's stamped exception that quotes it (NVIDIA/nccl#1653,
    // as posted): the WARN is the finding's line, with its file:line and return-code trail. Before,
    // an unstamped line before the first stamp sorted at the end of that stamp's millisecond, after
    // the stamped exception, and the quoted copy under 'Last error:' became the finding.
    void warnAboveStampedExceptionComesFirst()
    {
        const json d = diagnoseOne(
            QStringLiteral("log.txt"),
            "DESKTOP-1CE5APL:1689:2800 [0] include/alloc.h:112 NCCL WARN Cuda failure 999 'unknown error'\n"
            "DESKTOP-1CE5APL:1689:2800 [0] NCCL INFO include/alloc.h:199 -> 1\n"
            "DESKTOP-1CE5APL:1689:2800 [0] NCCL INFO channel.cc:41 -> 1\n"
            "DESKTOP-1CE5APL:1689:1689 [0] NCCL INFO init.cc:1929 -> 1\n"
            "2025-03-21 17:08:31,569 - finetrainers - ERROR - Error during training: NCCL error in: "
            "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled cuda error (run with "
            "NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
            "ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "Last error:\n"
            "Cuda failure 999 'unknown error'\n"
            "2025-03-21 17:08:31,574 - finetrainers - ERROR - An error occurred during training\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-cuda-failure"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 1);
        const json* f = finding(d, "nccl-cuda-failure");
        QVERIFY(f);
        bool trail = false;
        for (const auto& e : (*f)["evidence"])
            trail = trail || e["label"] == "return-code-trail";
        QVERIFY(trail);
    }

    // Gloo's full mesh (aws-samples/aws-do-eks#50, as posted with its wrapped lines): the Gloo group's
    // connect failure initiates, the wrapped loopback address answers the checklist, and the
    // loopback-fallback warning alone (printed in healthy single-node runs) makes nothing.
    void glooConnectFullMesh()
    {
        const json d =
            diagnoseOne(QStringLiteral("posted.log"),
                        "[rank8] Warning: Unable to resolve hostname to a (local) address. Using the "
                        "loopback\n"
                        "        address as fallback. Manually set the network interface with "
                        "GLOO_SOCKET_IFNAME\n"
                        "[rank8] Gloo connectFullMesh failed ... timed out connecting: SO_ERROR: "
                        "Connection refused,\n"
                        "        remote=[127.0.0.1]:14215\n"
                        "RuntimeError: Gloo connectFullMesh failed ...\n");
        const json* f = initiatingAs(d, "torch-gloo-connect-failure");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, "loopback-in-failure"), QStringLiteral("confirmed"));
        QCOMPARE(checkStatus(*f, "fallback-warned"), QStringLiteral("confirmed"));
        const json w =
            diagnoseOne(QStringLiteral("worker.log"),
                        "[rank7]:[W806 14:25:27.650991133 ProcessGroupGloo.cpp:524] Warning: Unable to "
                        "resolve hostname to a (local) address. Using the loopback address as fallback. "
                        "Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. "
                        "(function operator())\n");
        QVERIFY2(w["findings"].empty(), w["findings"].dump().c_str());
    }

    // Ray: a process refused for its Ray or Python version initiates (gpustack#1640, posted as Ray
    // prints it over six lines); a worker that vanished names no cause, so it suggests host-oom-kill
    // and says what decides: the kernel's log, not NCCL's WARN (ray#31828).
    void rayVersionMismatchAndVanishedWorker()
    {
        const json d = diagnoseOne(QStringLiteral("posted.log"),
                                   "RuntimeError: Version mismatch: The cluster was started with:\n"
                                   "    Ray: 2.43.0\n"
                                   "    Python: 3.11.10\n"
                                   "This process on node 10.18.215.196 was started with:\n"
                                   "    Ray: 2.44.1\n"
                                   "    Python: 3.11.10\n");
        QVERIFY(d.is_object());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("ray-version-mismatch"));
        const json w = diagnoseOne(
            QStringLiteral("driver.log"),
            "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker "
            "exit "
            "detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some "
            "potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory "
            "usage. "
            "(2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other "
            "unexpected errors.\n");
        QVERIFY(w.is_object());
        QVERIFY2(w["findings"].empty(), w["findings"].dump().c_str());
        const json& h = w["hypotheses"];
        QVERIFY2(h.size() == 1, h.dump().c_str());
        QCOMPARE(h[0]["entry"].get<std::string>(), std::string("host-oom-kill"));
        QVERIFY2(QString::fromStdString(h[0]["decider"]).contains(QStringLiteral("kernel's log")),
                 h.dump().c_str());
    }

    // Open MPI's launcher reports a death, not its cause: signal 9 is host-oom-kill's, as torchrun's -9 is
    // (kubeflow/mpi-operator#90); a lost daemon is a consequence that names the node to look at
    // (kubeflow/mpi-operator#152); next to a rank's own NCCL error the launcher's report stays collateral.
    void openMpiReportsADeath()
    {
        const json k = diagnoseOne(QStringLiteral("launcher.log"),
                                   "mpirun.real noticed that process rank 1 with PID 39 on node "
                                   "mpi-test-2-mpijob-worker-1 exited on signal 9 (Killed).\n");
        QVERIFY(k.is_object());
        QCOMPARE(QString::fromStdString(k["initiating"]["entry"]), QStringLiteral("host-oom-kill"));
        const json l = diagnoseOne(QStringLiteral("launcher.log"),
                                   "ORTE has lost communication with a remote daemon.\n"
                                   "\n"
                                   "  HNP daemon   : [[43015,0],0] on node launcher-gdqv7\n"
                                   "  Remote daemon: [[43015,0],20] on node worker-19\n");
        QVERIFY(l.is_object());
        QVERIFY2(l["initiating"].is_null(), l["initiating"].dump().c_str());
        const json* f = finding(l, "openmpi-launcher-process-lost");
        QVERIFY(f);
        QCOMPARE(QString::fromStdString((*f)["role"]), QStringLiteral("collateral"));
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(QStringLiteral("on node worker-19")),
                 (*f)["summary"].dump().c_str());
        const json n = diagnoseOne(
            QStringLiteral("mpirun.log"),
            "[1,1]<stderr>:node1:22:22 [1] init.cc:573 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 "
            "both "
            "on CUDA device 1b000\n"
            "mpirun noticed that process rank 1 with PID 22 on node node1 exited on signal 6 (Aborted).\n");
        QCOMPARE(QString::fromStdString(n["initiating"]["entry"]), QStringLiteral("nccl-duplicate-gpu"));
    }

    // Where nothing is recognised, the errors the logs state are named, not only "no known
    // failure": NCCL's WARN (nccl-tests#206 posted it without its prefix) and an exception line,
    // each distinct one once.
    void unrecognisedErrorsAreNamed()
    {
        const json d = diagnoseOne(QStringLiteral("posted.log"),
                                   "misc/newthing.cc:42 NCCL WARN Call to ncclSomethingNew failed with "
                                   "error Out of widgets\n"
                                   "misc/newthing.cc:42 NCCL WARN Call to ncclSomethingNew failed with "
                                   "error Out of widgets\n"
                                   "RuntimeError: something no entry knows\n");
        QVERIFY(d.is_object());
        QVERIFY(d["initiating"].is_null());
        QStringList texts;
        for (const auto& h : d["hypotheses"])
            texts << QString::fromStdString(h["text"]);
        QCOMPARE(texts.size(), 3);
        QCOMPARE(texts[0], QStringLiteral("no known failure was recognised in these logs"));
        QVERIFY2(texts[1].startsWith(QStringLiteral("an NCCL WARN that no entry recognises")) &&
                     texts[1].contains(
                         QStringLiteral("'Call to ncclSomethingNew failed with error Out of widgets'")),
                 qPrintable(texts[1]));
        QVERIFY2(texts[2].contains(QStringLiteral("'RuntimeError: something no entry knows'")),
                 qPrintable(texts[2]));
    }

    // A store host name that does not resolve: PyTorch 1.x raised 'host not found' at once
    // (kubeflow/pytorch-operator#125, a worker that started before the master's service existed);
    // later releases warn and retry until the store timeout. One such warning can come before a
    // successful connect (a Kubernetes service name not yet published; kubernetes-sigs/jobset#603
    // posted only that line): no finding from it alone.
    void storeHostNameDoesNotResolve()
    {
        const json d = diagnoseOne(QStringLiteral("worker-0.log"),
                                   "    store = TCPStore(master_addr, master_port, start_daemon)\n"
                                   "ValueError: host not found: Name or service not known\n");
        const json* f = initiatingAs(d, "torch-store-connect-failure");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, "name-resolves"), QStringLiteral("confirmed"));
        QVERIFY2(
            QString::fromStdString((*f)["summary"]).contains(QStringLiteral("(Name or service not known)")),
            (*f)["summary"].dump().c_str());
        const json w =
            diagnoseOne(QStringLiteral("posted.log"),
                        "[W socket.cpp:558] [c10d] The IPv6 network addresses of "
                        "(pytorch-workers-0-0.pytorch-workers, 3389) cannot be retrieved (gai error: -2 - "
                        "Name or service not known).\n");
        QVERIFY(w.is_object());
        QVERIFY2(w["initiating"].is_null(), w["initiating"].dump().c_str());
        // Next to the client's timeout it answers the checklist.
        const json t = diagnoseOne(
            QStringLiteral("rank1.log"),
            "[W socket.cpp:558] [c10d] The IPv4 network addresses of (master-0.svc, 29500) cannot be "
            "retrieved "
            "(gai error: -2 - Name or service not known).\n"
            "[E socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to "
            "(master-0.svc, 29500).\n");
        const json* ft = finding(t, "torch-store-connect-failure");
        QVERIFY(ft);
        QCOMPARE(checkStatus(*ft, "name-resolves"), QStringLiteral("confirmed"));
    }

    // Slurm's banner is the cause only where it names a reason of the scheduler's own (a time limit,
    // Lightning#20542); without one it is the teardown after a failure (myria3d#123, where the
    // watchdog timeout came first) and never the initiating failure.
    void slurmEndsAJobOnlyWithAReason()
    {
        const json dl =
            diagnoseOne(QStringLiteral("slurm.err"),
                        "slurmstepd: error: *** STEP 55595933.0 ON maestro-3017 CANCELLED AT "
                        "2025-01-10T15:27:25 DUE TO TIME LIMIT ***\n"
                        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n");
        QVERIFY(dl.is_object());
        QCOMPARE(QString::fromStdString(dl["initiating"]["entry"]), QStringLiteral("slurm-job-ended"));
        const json dt = diagnoseOne(
            QStringLiteral("slurm.err"),
            "[E ProcessGroupNCCL.cpp:475] [Rank 2] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=3, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for "
            "1800008 "
            "milliseconds before timing out.\n"
            "slurmstepd: error: *** STEP 6053.0 ON DEL2212S020 CANCELLED AT 2024-04-23T12:18:08 ***\n"
            "srun: error: DEL2212S020: task 0: Terminated\n");
        QVERIFY(dt.is_object());
        QVERIFY2(dt["initiating"].is_null(), dt["initiating"].dump().c_str());
        QVERIFY(finding(dt, "torch-watchdog-timeout"));
        // A time limit after a collective timeout is the late end of a hang, not its cause.
        const json dh = diagnoseOne(
            QStringLiteral("slurm.err"),
            "[rank2]:[E ProcessGroupNCCL.cpp:563] [Rank 2] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=7487, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
            "600058 "
            "milliseconds before timing out.\n"
            "slurmstepd: error: *** STEP 55595933.0 ON maestro-3017 CANCELLED AT 2025-01-10T15:27:25 DUE TO "
            "TIME LIMIT ***\n");
        QVERIFY2(dh["initiating"].is_null(), dh["initiating"].dump().c_str());
        const json* late = finding(dh, "slurm-job-ended");
        QVERIFY(late);
        QCOMPARE(QString::fromStdString((*late)["role"]), QStringLiteral("context"));
    }

    // The ranks a torchelastic failure box lists, as a sentence lists them: in order, a run of three
    // or more as a range, at most eight items and then "and others". The box is torchelastic's own format (as
    // in the real case pytorch#121209, tst_reallogs' 033), with other ranks.
    void elasticBoxListsItsRanks_data()
    {
        QTest::addColumn<QList<int>>("ranks");
        QTest::addColumn<QString>("listed");
        QTest::newRow("three apart") << QList<int>{5, 1, 7} << "(its failure box lists rank(s) 1, 5 and 7)";
        QTest::newRow("a run and one")
            << QList<int>{6, 3, 0, 1, 2} << "(its failure box lists rank(s) 0–3 and 6)";
        QTest::newRow("one") << QList<int>{4} << "(its failure box lists rank(s) 4)";
        QTest::newRow("many") << QList<int>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20}
                              << "(its failure box lists rank(s) 0, 2, 4, 6, 8, 10, 12, 14 and others)";
    }
    void elasticBoxListsItsRanks()
    {
        QFETCH(QList<int>, ranks);
        QFETCH(QString, listed);
        QByteArray box = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
                         "============================================================\n"
                         "train.py FAILED\n"
                         "------------------------------------------------------------\n"
                         "Failures:\n";
        for (qsizetype i = 0; i < ranks.size(); ++i) {
            if (i == 1)
                box += "------------------------------------------------------------\n"
                       "Root Cause (first observed failure):\n";
            box += QStringLiteral("[%1]:\n"
                                  "  time      : 2024-03-05_07:01:51\n"
                                  "  host      : node-a.internal\n"
                                  "  rank      : %2 (local_rank: %3)\n"
                                  "  exitcode  : 1 (pid: %4)\n"
                                  "  error_file: <N/A>\n")
                       .arg(i)
                       .arg(ranks[i])
                       .arg(ranks[i] % 8)
                       .arg(69811 + ranks[i])
                       .toUtf8();
        }
        box += "============================================================\n";
        const json d = diagnoseOne(QStringLiteral("agent.log"), box);
        const json* f = finding(d, "torch-elastic-child-failed");
        QVERIFY2(f, d.dump().c_str());
        QVERIFY2(QString::fromStdString((*f)["summary"]).contains(listed), (*f)["summary"].dump().c_str());
    }

    // UCX's report from two processes of one container, whose host is the container's hex id and
    // whose pids UCX pads to five characters (the form of pipedream#76): two processes, where the
    // tag was not read before and both lines were the file's one unnamed process.
    void ucxTagsInAContainerAreTwoProcesses()
    {
        const json d = diagnoseOne(QStringLiteral("console.log"),
                                   "[8d6bf97c3bf4:3039 :0:3095] Caught signal 7 (Bus error: nonexistent "
                                   "physical address)\n"
                                   "[8d6bf97c3bf4:3040 :0:3096] Caught signal 7 (Bus error: nonexistent "
                                   "physical address)\n");
        QVERIFY(d.is_object());
        QCOMPARE(d["ranks"].size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(d["ranks"][0]["host"]), QStringLiteral("8d6bf97c3bf4"));
        const json* f = finding(d, "process-bus-error");
        QVERIFY(f);
        QCOMPARE(checkStatus(*f, "several-processes"), QStringLiteral("confirmed"));
    }

    // Open MPI's signal report behind mpirun's --tag-output prefix (horovod/horovod#1941, as posted):
    // the prefix gives the rank, the tag the host and pid. Before, the tag after a prefix was read
    // past and rank 12 had no host.
    void openMpiTagBehindTheRankPrefix()
    {
        const json d = diagnoseOne(
            QStringLiteral("mpirun.log"),
            "[1,12]<stderr>:[n-profile-user-profile-v3-16:17086] *** Process received signal ***\n"
            "[1,12]<stderr>:[n-profile-user-profile-v3-16:17086] Signal: Segmentation fault (11)\n"
            "[1,12]<stderr>:[n-profile-user-profile-v3-16:17086] Signal code: Address not mapped (1)\n"
            "[1,12]<stderr>:[n-profile-user-profile-v3-16:17086] Failing at address: 0x47\n");
        QVERIFY(d.is_object());
        QCOMPARE(d["ranks"].size(), std::size_t{1});
        const json& r = d["ranks"][0];
        QVERIFY2(r["rank"] == 12 && r["host"] == "n-profile-user-profile-v3-16" && r["pid"] == 17086,
                 r.dump().c_str());
        QVERIFY2(d["initiating"]["host"] == "n-profile-user-profile-v3-16", d["initiating"].dump().c_str());
    }

    // A box posted with its other entries elided ("[1]: ....") names no process of rank 1: before,
    // the elided entries read as torchrun prefixes and made two ranks with no line of their own.
    void elidedBoxEntriesAreNotRanks()
    {
        const json d = diagnoseOne(QStringLiteral("agent.log"),
                                   "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
                                   "Failures:\n"
                                   "[1]: ....\n"
                                   "[2]: …\n"
                                   "------------------------------------------------------------\n"
                                   "Root Cause (first observed failure):\n"
                                   "[0]:\n"
                                   "  time      : 2024-03-05_07:01:51\n"
                                   "  host      : node-a\n"
                                   "  rank      : 0 (local_rank: 0)\n"
                                   "  exitcode  : 1 (pid: 69811)\n");
        QVERIFY(d.is_object());
        QCOMPARE(d["ranks"].size(), std::size_t{1});
        QVERIFY2(d["ranks"][0]["rank"].is_null(), d["ranks"].dump().c_str());
        const json* f = finding(d, "torch-elastic-child-failed");
        QVERIFY(f);
        QVERIFY2(QString::fromStdString((*f)["summary"])
                     .contains(QStringLiteral("(its failure box lists rank(s) 0)")),
                 (*f)["summary"].dump().c_str());
    }

    // A crash inside NCCL is the initiating failure, with NCCL's frames confirming where it happened
    // (real case nccl#1996, a RAS crash in 2.27.7: nothing recognised before). A watchdog's SIGABRT
    // is not a crash of this kind.
    void segfaultInNccl()
    {
        const json d =
            diagnoseOne(QStringLiteral("h100.log"),
                        "[n125-011-039:288505:0:296459] Caught signal 11 (Segmentation fault: address "
                        "not mapped to object at address 0x48)\n"
                        "==== backtrace (tid: 296459) ====\n"
                        " 3  /opt/tiger/nccl/lib/libnccl.so(+0x120057) [0x7ff1c18c1057]\n"
                        " 4  /opt/tiger/nccl/lib/libnccl.so(+0x12209d) [0x7ff1c18c309d]\n");
        const json* f = initiatingAs(d, "process-segfault");
        QVERIFY2(f, whatInitiated(d).c_str());
        QCOMPARE(checkStatus(*f, "crash-in-nccl"), QStringLiteral("confirmed"));
        const json abort =
            diagnoseOne(QStringLiteral("agent.log"),
                        "E1106 04:43:02.651000 26021 site-packages/torch/distributed/elastic/"
                        "multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 3 (pid: "
                        "26026) of binary: /usr/bin/python\n");
        QVERIFY(abort.is_object());
        QVERIFY(!finding(abort, "process-segfault"));
    }

    // A report of the error class alone ("unhandled cuda error" from nccl-tests, nccl-tests#322)
    // makes no finding, but says which failure to read up and what would name its cause.
    void surfaceAloneSuggests()
    {
        const json d = diagnoseOne(QStringLiteral("mpirun.log"),
                                   "HCA-14: Test NCCL failure common.cu:1204 'unhandled cuda error (run with "
                                   "NCCL_DEBUG=INFO for details) / '\n");
        QVERIFY(d.is_object());
        QVERIFY2(d["findings"].empty(), d.dump().c_str());
        const json& h = d["hypotheses"];
        QVERIFY2(h.size() == 1, h.dump().c_str());
        QCOMPARE(h[0]["entry"].get<std::string>(), std::string("nccl-cuda-failure"));
        QVERIFY2(QString::fromStdString(h[0]["decider"]).contains(QStringLiteral("NCCL_DEBUG=WARN")),
                 h.dump().c_str());
    }

    // With nothing recognised, the advice depends on what the logs already hold: asking for
    // NCCL_DEBUG=INFO where NCCL's INFO lines are there sends the reader round in a circle, and
    // where they state an error no entry knows, that error is what to read (it follows the advice).
    void nothingRecognisedAdvice_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("advice");
        QTest::addColumn<int>("said");
        QTest::newRow("at INFO") << QByteArray("h:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
                                               "h:1:1 [0] NCCL INFO Using network Socket\n")
                                 << "these logs are at NCCL_DEBUG=INFO already" << 1;
        QTest::newRow("no NCCL lines")
            << QByteArray("step 5 loss 2.31\nstep 6 loss 2.30\n") << "rerun with NCCL_DEBUG=INFO" << 1;
        QTest::newRow("an unknown WARN")
            << QByteArray("h:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n"
                          "\nh:1:9 [0] misc/ibvwrap.cc:284 NCCL WARN Call to something new "
                          "failed\n")
            << "the error lines below" << 2;
        QTest::newRow("an unknown exception")
            << QByteArray("Traceback (most recent call last):\nValueError: x\n") << "the error lines below"
            << 2;
    }
    void nothingRecognisedAdvice()
    {
        QFETCH(QByteArray, log);
        QFETCH(QString, advice);
        QFETCH(int, said);
        const json d = diagnoseOne(QStringLiteral("rank0.log"), log);
        QVERIFY(d.is_object());
        QVERIFY2(d["hypotheses"].size() == static_cast<std::size_t>(said), d["hypotheses"].dump().c_str());
        QVERIFY2(QString::fromStdString(d["hypotheses"][0]["decider"]).startsWith(advice),
                 d["hypotheses"].dump().c_str());
    }

    // A line that is several kinds of evidence is shown once, with every label and note.
    void evidenceOneLineOnce()
    {
        const LineRef one{SourceId(0), 4}, two{SourceId(0), 9};
        const std::vector<Evidence> ev{{one, ProcessId(0), "earliest-connect-failure", "first of all"},
                                       {one, ProcessId(0), "bind-in-use", {}},
                                       {two, ProcessId(0), "listen-failed", {}},
                                       {one, ProcessId(0), "listen-failed", "the store's"},
                                       {one, ProcessId(0), "bind-in-use", {}}};
        const auto by = evidenceByLine(ev);
        QCOMPARE(by.size(), std::size_t{2});
        QCOMPARE(by[0].where, one);
        QCOMPARE(by[0].label, std::string("earliest-connect-failure, bind-in-use, listen-failed"));
        QCOMPARE(by[0].note, std::string("first of all the store's"));
        QCOMPARE(by[1].where, two);
        QCOMPARE(by[1].label, std::string("listen-failed"));
    }

    // Wordings of older releases, as users posted them, make the same findings as today's.
    void olderWordings_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("entry");
        QTest::addColumn<int>("line");
        // NCCL 2.0 to 2.2 checked connect() with the plain system-call macro: no address.
        QTest::newRow("2.2 timed out")
            << QByteArray("gpu-7:18553:18611 [0] include/socket.h:360 WARN Call to connect "
                          "failed : Connection timed out\n")
            << "nccl-connect-timeout" << 1;
        QTest::newRow("2.0 refused") << QByteArray(
                                            "gpu-7:18553:18553 [0] include/socket.h:185 WARN Call to connect "
                                            "failed : Connection refused\n")
                                     << "nccl-connect-refused" << 1;
        QTest::newRow("2.2 unreachable")
            << QByteArray("gpu-7:18553:18611 [0] include/socket.h:360 WARN Call to "
                          "connect failed : No route to host\n")
            << "nccl-no-route-to-host" << 1;
        // The address NCCL could not print leaves two spaces; 2.4 failed at the socket's creation.
        QTest::newRow("empty address, two spaces")
            << QByteArray("[trainer0|0]:ncclSocketInit: connecting to address  with family 59936 is neither "
                          "AF_INET(2) nor AF_INET6(10)\n")
            << "nccl-socket-interface" << 1;
        QTest::newRow("2.4 no IP interface")
            << QByteArray(
                   "gpu-7:5120:5120 [0] include/socket.h:344 WARN Socket creation failed : Address family "
                   "not supported by protocol\n")
            << "nccl-socket-interface" << 1;
        // A queue pair that never came up, in the three forms of NCCL's verbs wrapper.
        QTest::newRow("qp setup up to 2.18")
            << QByteArray(
                   "gpu-7:5120:5190 [3] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with "
                   "error No such device\n")
            << "nccl-ib-qp-setup-failure" << 1;
        QTest::newRow("qp setup 2.19 to 2.23")
            << QByteArray(
                   "gpu-7:5120:5190 [3] misc/ibvwrap.cc:206 NCCL WARN Call to ibv_modify_qp failed with "
                   "error Connection timed out errno 110\n")
            << "nccl-ib-qp-setup-failure" << 1;
        QTest::newRow("qp setup from 2.24")
            << QByteArray(
                   "gpu-7:5120:5190 [3] misc/ibvwrap.cc:291 NCCL WARN Call to ibv_modify_qp failed with 101 "
                   "Network is unreachable, on dev mlx5_2:1, curr state INIT, next state RTR, local GID "
                   "index "
                   "3, local GID ::ffff:10.0.1.7, remote GID ::ffff:10.0.2.7\n")
            << "nccl-ib-qp-setup-failure" << 1;
        // PyTorch 1.x's TCPStore raised the bare system error.
        QTest::newRow("1.x store port in use")
            << QByteArray(
                   "  File \"/opt/conda/lib/python3.8/site-packages/torch/distributed/rendezvous.py\", line "
                   "95, in _tcp_rendezvous_handler\n"
                   "    store = TCPStore(result.hostname, result.port, world_size, start_daemon)\n"
                   "RuntimeError: Address already in use\n")
            << "torch-store-port-in-use" << 3;
    }
    void olderWordings()
    {
        QFETCH(QByteArray, log);
        QFETCH(QString, entry);
        QFETCH(int, line);
        const json d = diagnoseOne(QStringLiteral("rank0.log"), log);
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), entry);
        QCOMPARE(d["initiating"]["line"].get<int>(), line);
    }

    // With no finding, a single connect attempt that failed and was retried still says where to
    // look: the address it tried, and whether a later attempt worked.
    void retriedConnectAloneSuggests()
    {
        auto a = analyzeOne(QStringLiteral("worker-3.log"),
                            "step 0 loading shards\n"
                            "[W socket.cpp:663] [c10d] The client socket has failed to connect to "
                            "[trainer-0.cluster]:29400 (errno: 110 - Connection timed out).\n");
        QVERIFY(a);
        const json d = json::parse(diagnosisJson(*a));
        QVERIFY2(d["initiating"].is_null(), d.dump().c_str());
        QVERIFY2(d["findings"].empty(), d.dump().c_str());
        const json& h = d["hypotheses"];
        QVERIFY2(h.size() == 1, h.dump().c_str());
        QCOMPARE(h[0]["entry"].get<std::string>(), std::string("torch-store-connect-failure"));
        QCOMPARE(h[0]["line"].get<int>(), 2);
        const QString text = QString::fromStdString(h[0]["text"]);
        QVERIFY2(text.contains(QStringLiteral("(the first names [trainer-0.cluster]:29400)")),
                 qPrintable(text));
        QVERIFY2(QString::fromStdString(h[0]["decider"])
                     .contains(QStringLiteral("whether a later attempt connected")),
                 h.dump().c_str());
        QVERIFY(diagnosisText(*a).find("no known failure was recognised") == std::string::npos);
    }

    // A framework exception prints its own summary first and NCCL's recorded error after "Last
    // error:", although NCCL recorded that error before the framework raised: the quoted line is
    // the cause, and the summary above it the same failure restated.
    void lastErrorComesFirst_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("entry");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("restated"); // the context finding that restates it, if any
        const QByteArray header =
            "DistBackendError: NCCL error in: /src/c10d/NCCLUtils.cpp:77, invalid usage (run "
            "with NCCL_DEBUG=WARN for details), NCCL version 2.26.5\n"
            "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n";
        const QByteArray duplicate = "Duplicate GPU detected : rank 3 and rank 2 both on CUDA device 41000\n";
        QTest::newRow("quoted") << header + "Last error:\n" + duplicate << "nccl-duplicate-gpu" << 4
                                << "nccl-invalid-usage";
        auto prefixed = [](const QByteArray& text) {
            QByteArray out;
            for (const QByteArray& l : text.split('\n'))
                if (!l.isEmpty())
                    out += "[rank3]: " + l + "\n";
            return out;
        };
        QTest::newRow("quoted, launcher prefix and trailing space")
            << prefixed("Traceback (most recent call last):\n" + header + "Last error: \n" + duplicate)
            << "nccl-duplicate-gpu" << 5 << "nccl-invalid-usage";
        // The same line printed on its own after the exception is a later event: the earlier line
        // stays the cause.
        QTest::newRow("not quoted") << header + "some other output\n" + duplicate << "nccl-invalid-usage" << 1
                                    << "";
    }
    void lastErrorComesFirst()
    {
        QFETCH(QByteArray, log);
        QFETCH(QString, entry);
        QFETCH(int, line);
        QFETCH(QString, restated);
        const json d = diagnoseOne(QStringLiteral("rank3.log"), log);
        QVERIFY(d.is_object());
        QVERIFY2(d["initiating"].is_object(), d.dump().c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), entry);
        QCOMPARE(d["initiating"]["line"].get<int>(), line);
        bool saidRestated = false;
        for (const auto& h : d["findings"][0]["hypotheses"])
            if (h["entry"].is_string() && h["entry"].get<std::string>() == restated.toStdString())
                saidRestated =
                    QString::fromStdString(h["decider"]).startsWith(QStringLiteral("nothing more is needed"));
        QCOMPARE(saidRestated, !restated.isEmpty());
    }

    // A summary's "{name|default}" takes the capture where the line has it, the default where the
    // entry's other fingerprint captures nothing of the kind.
    void summaryDefaults_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("said");
        QTest::newRow("captured") << QByteArray(
                                         "h:1:2 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend "
                                         "/dev/shm/nccl-fjwOOB to 5967876 bytes\n")
                                  << "under /dev/shm (5967876 bytes)";
        QTest::newRow("default") << QByteArray("h:1:2 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate "
                                               "failed : No space left on device\n")
                                 << "under /dev/shm (an unlogged number of bytes)";
    }
    void summaryDefaults()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, said);
        const json d = diagnoseOne(QStringLiteral("rank0.log"), line);
        QVERIFY(d.is_object());
        const json* shm = finding(d, "nccl-shm-exhausted");
        QVERIFY2(shm, d.dump().c_str());
        const QString summary = QString::fromStdString((*shm)["summary"]);
        QVERIFY2(summary.contains(said), qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1Char('?')) && !summary.contains(QLatin1Char('|')),
                 qPrintable(summary));
    }

    // NCCL's duplicate-GPU warning names the GPU by its bus id in compact hex (int64 of the PCI
    // address's hex digits); the summary writes it as nvidia-smi and the kernel do. NCCL 2.30's
    // form names no bus: the part is left out.
    void duplicateGpuSaysThePciAddress_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("said");
        QTest::newRow("bus 01")
            << QByteArray("h:1:2 [0] init.cc:497 NCCL WARN Duplicate GPU detected : rank 2 "
                          "and rank 0 both on CUDA device 1000\n")
            << "on the same GPU (PCI 0000:01:00.0, which NCCL prints as CUDA device 1000) and";
        QTest::newRow("bus 1b, function 0") << QByteArray("h:1:2 [3] init.cc:690 NCCL WARN Duplicate GPU "
                                                          "detected : rank 3 and rank 1 both on CUDA device "
                                                          "1b000\n")
                                            << "(PCI 0000:1b:00.0, which NCCL prints as CUDA device 1b000)";
        QTest::newRow("2.30, no bus") << QByteArray("h:1:2 [0] init.cc:1058 NCCL WARN Multiple Ranks are "
                                                    "using the same GPU/Partition. Set "
                                                    "NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this "
                                                    "configuration.\n")
                                      << "on the same GPU and refused to initialise";
    }
    void duplicateGpuSaysThePciAddress()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, said);
        const json d = diagnoseOne(QStringLiteral("rank0.log"), line);
        const json* dup = finding(d, "nccl-duplicate-gpu");
        QVERIFY2(dup, d.dump().c_str());
        const QString summary = QString::fromStdString((*dup)["summary"]);
        QVERIFY2(summary.contains(said), qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1Char('?')), qPrintable(summary));
    }

    // A CUDA failure at the lines of 2.18.1-2.18.5's unsynchronised copy (a context symptom of the
    // entry, whose capture the summary reads) is named as that bug; elsewhere the summary stops at
    // the location.
    void cudaFailureAtTheCopyBugSaysSo_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("bug");
        QTest::newRow("transport.cc:174") << QByteArray("h:1:2 [1] transport.cc:174 NCCL WARN Cuda failure "
                                                        "'invalid argument'\n")
                                          << true;
        QTest::newRow("enqueue.cc") << QByteArray("h:1:2 [1] enqueue.cc:1045 NCCL WARN Cuda failure 'invalid "
                                                  "argument'\n")
                                    << false;
    }
    void cudaFailureAtTheCopyBugSaysSo()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, bug);
        const json d = diagnoseOne(QStringLiteral("rank0.log"), line);
        const json* f = finding(d, "nccl-cuda-failure");
        QVERIFY2(f, d.dump().c_str());
        const QString summary = QString::fromStdString((*f)["summary"]);
        QVERIFY2(summary.contains(QStringLiteral("the NCCL source location in the line names the call")),
                 qPrintable(summary));
        QCOMPARE(
            summary.contains(QStringLiteral("transport.cc:174, where 'invalid argument' is NCCL 2.18.1 to "
                                            "2.18.5's unsynchronised cudaMemcpyAsync")),
            bug);
        QVERIFY2(!summary.contains(QLatin1Char('?')), qPrintable(summary));
    }

    // With no version line, the form of the failing rank's lines decides the release verdict where
    // it can: the proxy WARN at proxy.cc:1567 is NCCL 2.20.3-2.20.5, which has the 2.18.6 fix of the
    // copy bug; at proxy.cc:1519 (2.18.3-2.18.6) it is partly inside the bug's 2.18.1-2.18.5; an
    // Init line of the 2.18.3-2.20.5 form puts a connect abort inside 2.16.2-2.23.4.
    void releaseVerdictFromTheLinesForm_data()
    {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("said");
        QTest::addColumn<int>("applies"); // -1: not decided
        const QByteArray copyBug = "h:1:2 [1] transport.cc:174 NCCL WARN Cuda failure 'invalid argument'\n";
        QTest::newRow("fixed release")
            << copyBug +
                   "h:1:3 [1] proxy.cc:1567 NCCL WARN [Proxy Service 4] Failed to execute operation Setup "
                   "from rank 4, retcode 1\n"
            << QStringLiteral(
                   "No version line in the logs; the form of the failing rank's lines puts NCCL at "
                   "2.20.3–2.20.5, which already has the 2.18.6 fix")
            << 0;
        QTest::newRow("partly affected")
            << copyBug +
                   "h:1:3 [1] proxy.cc:1519 NCCL WARN [Proxy Service 4] Failed to execute operation Setup "
                   "from rank 4, retcode 1\n"
            << QStringLiteral(
                   "the form of the failing rank's lines puts NCCL at 2.18.3–2.18.6, partly inside "
                   "the affected range 2.18.1–2.18.5: the logs do not say which of those releases ran")
            << -1;
        QTest::newRow("connect abort inside")
            << QByteArray(
                   "h:1:2 [0] NCCL INFO comm 0x55d1 rank 4 nranks 8 cudaDev 0 nvmlDev 0 busId 1a000 "
                   "commId 0x1 - Init COMPLETE\n"
                   "h:1:3 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<4000> "
                   "failed : Software caused connection abort\n")
            << QStringLiteral(
                   "the form of the failing rank's lines puts NCCL at 2.18.3–2.20.5, inside the "
                   "affected range 2.16.2–2.23.4; upgrading to NCCL 2.24.3 or later applies the fix")
            << 1;
    }
    void releaseVerdictFromTheLinesForm()
    {
        QFETCH(QByteArray, log);
        QFETCH(QString, said);
        QFETCH(int, applies);
        const json d = diagnoseOne(QStringLiteral("rank4.log"), log);
        const QString verdict = QString::fromStdString(d["nccl"]["verdict"]);
        QVERIFY2(verdict.contains(said), qPrintable(verdict));
        if (applies < 0)
            QVERIFY2(d["nccl"]["fix_applies"].is_null(), d["nccl"].dump().c_str());
        else
            QCOMPARE(d["nccl"]["fix_applies"].get<bool>(), applies == 1);
        // The connect abort's checklist asks the same of the failing rank, and the form answers it.
        if (const json* f = finding(d, "nccl-socket-connect-abort")) {
            QCOMPARE(checkStatus(*f, "version-affected"), QStringLiteral("confirmed"));
            for (const auto& c : (*f)["checklist"])
                if (c["id"] == "version-affected")
                    QCOMPARE(
                        QString::fromStdString(c["detail"]),
                        QStringLiteral("the form of this rank's lines puts NCCL at 2.18.3–2.20.5, within "
                                       "2.16.2–2.23.4"));
        }
    }

    // A paste that opens inside another process's back-trace (its WARN cut off above) holds a
    // failure logged before the initiating line: said as a competing explanation, with the line.
    // Not where the file opens with a WARN, nor where the opening trail is the finding's own (a
    // silent connect failure's, which no WARN began: real log 018).
    void excerptOpeningInsideABacktrace()
    {
        const QByteArray trail = "h1:10:11 [0] NCCL INFO proxy.cc:698 -> 6\n"
                                 "h1:10:11 [0] NCCL INFO proxy.cc:878 -> 6 [Progress Thread]\n";
        const QByteArray warn =
            "h2:20:21 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from "
            "peer 10.0.0.1<4000> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"
            "h2:20:21 [0] NCCL INFO transport/net.cc:1137 -> 6\n";
        auto opening = [](const json& d) -> const json* {
            for (const auto& h : d["findings"][0]["hypotheses"])
                if (QString::fromStdString(h["text"]).contains(QStringLiteral("opens inside a back-trace")))
                    return &h;
            return nullptr;
        };
        const json d = diagnoseOne(QStringLiteral("paste.txt"), trail + "\n" + warn);
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-ib-completion-error"));
        const json* h = opening(d);
        QVERIFY2(h, d["findings"][0]["hypotheses"].dump().c_str());
        QCOMPARE(
            QString::fromStdString((*h)["text"]),
            QStringLiteral("paste.txt opens inside a back-trace of unknown rank (h1:10) ('proxy.cc:698 -> "
                           "6', a step of NCCL's return-code trail) without the WARN that began it: the "
                           "failure it reports was logged before the file starts, so before the "
                           "initiating line"));
        QCOMPARE((*h)["line"].get<int>(), 1);
        const json later = diagnoseOne(QStringLiteral("paste.txt"), warn + "\n" + trail);
        QVERIFY2(!opening(later), later["findings"][0]["hypotheses"].dump().c_str());
        const json silent =
            diagnoseOne(QStringLiteral("paste.txt"),
                        "host:7:8 [6] NCCL INFO misc/socket.cc:373 -> 2\n"
                        "host:7:8 [6] NCCL INFO misc/socket.cc:484 -> 2\n"
                        "host:7:8 [6] NCCL INFO transport/net_socket.cc:336 -> 2\n"
                        "host:7:8 [6] proxy.cc:1097 NCCL WARN [Proxy Service 14] Failed to execute "
                        "operation Connect from rank 14, retcode 2\n");
        QCOMPARE(silent["initiating"]["entry"].get<std::string>(), std::string("nccl-proxy-connect-failure"));
        QVERIFY2(!opening(silent), silent["findings"][0]["hypotheses"].dump().c_str());
    }

    // The root's "rank N of M ranks has already checked in" says which rank two processes claimed.
    void bootstrapRootSaysTheRankClaimedTwice()
    {
        const json d = diagnoseOne(QStringLiteral("rank0.log"),
                                   "node-a:700:731 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 3 of "
                                   "16 ranks has already checked in\n");
        const json* f = finding(d, "nccl-bootstrap-mismatch");
        QVERIFY2(f, d.dump().c_str());
        const QString summary = QString::fromStdString((*f)["summary"]);
        QVERIFY2(
            summary.contains(QStringLiteral("Rank 3 of 16 checked in a second time: two processes claimed "
                                            "that rank")),
            qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1Char('?')), qPrintable(summary));
        // A wrong socket type names no rank: the sentence is left out.
        const json t =
            diagnoseOne(QStringLiteral("rank0.log"), "node-a:700:731 [0] misc/socket.cc:447 NCCL WARN "
                                                     "socketFinalizeAccept: wrong type 4 != 3\n");
        const json* g = finding(t, "nccl-bootstrap-mismatch");
        QVERIFY2(g, t.dump().c_str());
        QVERIFY2(
            !QString::fromStdString((*g)["summary"]).contains(QStringLiteral("checked in a second time")),
            (*g)["summary"].dump().c_str());
    }

    // Twelve ranks fail the same way: each is a finding (every one in --json), and the text names
    // eight of them and counts the rest, in the findings and in the competing explanations.
    void manyRanksFailingAlikeInTheText()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 12; ++r) {
            QFile f(dir.filePath(QStringLiteral("rank%1.log").arg(r, 2, 10, QLatin1Char('0'))));
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray text =
                QStringLiteral("h%1:%2:%3 [0] misc/socket.cc:586 NCCL WARN socketPollConnect "
                               "poll() returned 1, no POLLOUT events\n")
                    .arg(r / 8)
                    .arg(100 + r)
                    .arg(200 + r)
                    .toUtf8();
            QCOMPARE(f.write(text), qint64(text.size()));
        }
        auto a = analyze(dir.path());
        QVERIFY(a);
        const json d = json::parse(diagnosisJson(*a));
        QCOMPARE(d["findings"].size(), std::size_t{12});
        QCOMPARE(d["findings"][0]["hypotheses"].size() >= 11, true);
        const QString text = QString::fromStdString(diagnosisText(*a));
        QVERIFY2(
            text.contains(QStringLiteral("context  nccl-connect-failed-silent  and 3 more on other processes "
                                         "(every one in --json: findings)")),
            qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("- and 3 more of nccl-connect-failed-silent (every one in --json: "
                                         "hypotheses)")),
            qPrintable(text));
        QCOMPARE(text.count(QStringLiteral("  context  nccl-connect-failed-silent  ")), 9);
        // Every rank shows the failure: the cross-rank check counts them all.
        QVERIFY2(text.contains(QStringLiteral("seen on 12 processes")), qPrintable(text));
    }

    // A checklist item that counts ranks counts every form of the failure it lists: a rank with a
    // newer release's WARN and one with an older release's trace are two ranks.
    void ranksCountEveryFormOfTheFailure()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray warn =
            "h0:100:200 [0] misc/socket.cc:586 NCCL WARN socketPollConnect poll() returned 1, "
            "no POLLOUT events\n";
        const QByteArray trace =
            "h1:101:201 [0] NCCL INFO misc/socket.cc:505 -> 2 (Operation now in progress)\n";
        for (const auto& [name, text] :
             {std::pair<QString, QByteArray>{QStringLiteral("rank0.log"), warn},
              std::pair<QString, QByteArray>{QStringLiteral("rank1.log"), trace}}) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(text), qint64(text.size()));
        }
        const json d = json::parse(diagnosisJson(*analyze(dir.path())));
        QCOMPARE(d["initiating"]["entry"].get<std::string>(), std::string("nccl-connect-failed-silent"));
        bool counted = false;
        for (const auto& c : d["findings"][0]["checklist"])
            if (c["id"] == "several-ranks")
                counted = c["status"] == "confirmed" && c["detail"] == "seen on 2 processes";
        QVERIFY2(counted, d["findings"][0]["checklist"].dump().c_str());
    }

    void rankBehindTheOthers()
    {
        json d = diagnose(QStringLiteral("collective/behind"));
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QCOMPARE((*w)["suspects"].size(), std::size_t{1});
        QCOMPARE((*w)["suspects"][0]["rank"].get<int>(), 2);
        QVERIFY(QString::fromStdString((*w)["suspects"][0]["reason"]).contains(QStringLiteral("SeqNum 11")));
    }

    // Sequence numbers count per process group. Ranks 0, 1 time out in group 1 (tp) at #300 and
    // #298, ranks 2, 3 in the default group at #41: rank 1 is behind in its group, and ranks 2, 3,
    // whose #41 is another group's count, are no suspects (they were, compared with #300).
    void sequenceNumbersComparedWithinTheirGroup()
    {
        json d = diagnose(QStringLiteral("collective/two-groups"));
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QVERIFY2((*w)["suspects"].size() == 1, (*w)["suspects"].dump().c_str());
        QCOMPARE((*w)["suspects"][0]["rank"].get<int>(), 1);
        QVERIFY(QString::fromStdString((*w)["suspects"][0]["reason"])
                    .contains(QStringLiteral("SeqNum 298 of process group 1 while other ranks reached 300")));
    }

    // Newer PyTorch words of the watchdog (sglang#3932, sglang#10216 as posted): "Timeout at NCCL
    // work: N" alone shows the timeout where a paste kept it and not the "Watchdog caught" line
    // before it; "failure detected by watchdog at work sequence id: N PG status: ..." places a rank
    // in its group's sequence, as the older "detected by watchdog at work: N" did; a group that never
    // finished a collective says -1.
    void newerWatchdogWording()
    {
        const json d = diagnoseOne(
            QStringLiteral("console.log"),
            "[rank3]:[E227 16:30:43.526290891 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 3 Rank 3] Timeout "
            "at "
            "NCCL work: 32, last enqueued NCCL work: 32, last completed NCCL work: 31.\n"
            "[rank1]:[E227 16:30:43.611203411 ProcessGroupNCCL.cpp:2252] [PG ID 2 PG GUID 3 Rank 1]  failure "
            "detected by watchdog at work sequence id: 30 PG status: last enqueued work: 30, last completed "
            "work: 29\n"
            "[rank0]:[E227 16:30:44.120511734 ProcessGroupNCCL.cpp:1834] [PG ID 1 PG GUID 1 Rank 0] Timeout "
            "at "
            "NCCL work: 1, last enqueued NCCL work: 1, last completed NCCL work: -1.\n");
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY2(w, d["findings"].dump().c_str());
        QVERIFY2(QString::fromStdString((*w)["summary"]).contains(QStringLiteral("a collective (SeqNum 32)")),
                 (*w)["summary"].dump().c_str());
        QCOMPARE(checkStatus(*w, "timeout-logged"), QStringLiteral("confirmed"));
        // Rank 1 is two collectives behind rank 3 in group 3; group 1's rank 0 is compared with no one.
        QVERIFY2((*w)["suspects"].size() == 1, (*w)["suspects"].dump().c_str());
        QCOMPARE((*w)["suspects"][0]["rank"].get<int>(), 1);
        QVERIFY2(QString::fromStdString((*w)["suspects"][0]["reason"])
                     .contains(QStringLiteral("SeqNum 30 of process group 3 while other ranks reached 32")),
                 (*w)["suspects"][0]["reason"].dump().c_str());
    }

    // The default group's prefix names the global rank ("[PG 0 Rank 6]" in PyTorch 2.2 and 2.3,
    // "[PG ID 0 PG GUID 0(default_pg) Rank 2]" since), also where nothing else does: a collector
    // that dropped the launcher's prefix (litData#340 as posted), or the "what():" line of the
    // exception that ended the process. Another group's prefix names a rank within it: not read.
    void defaultGroupPrefixNamesTheRank()
    {
        const json d = diagnoseOne(
            QStringLiteral("console.log"),
            "[PG 0 Rank 6] Process group watchdog thread terminated with exception: [Rank 6] Watchdog caught "
            "collective operation timeout: WorkNCCL(SeqNum=70426, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
            "Timeout(ms)=1800000) ran for 1800038 milliseconds before timing out.\n"
            "  what():  [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminated with "
            "exception: [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=70426, "
            "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800041 milliseconds "
            "before "
            "timing out.\n"
            "[PG ID 2 PG GUID 3 Rank 1] Process group watchdog thread terminated with exception: x\n");
        std::vector<int> ranks;
        for (const auto& r : d["ranks"])
            if (r["rank"].is_number()) {
                ranks.push_back(r["rank"].get<int>());
                QCOMPARE(r["identity_source"].get<std::string>(), std::string("pytorch"));
            }
        QCOMPARE(ranks, (std::vector<int>{2, 6}));
    }

    // A process's framework copy of NCCL's error ("Last error:" under its exception) yields to
    // NCCL's own WARN of the same process where nothing dates them, though the copy comes first
    // in the paste: the WARN names the source location (NVIDIA/nccl#1029 as posted through pdsh).
    void ownWarnOverTheFrameworksCopy()
    {
        const json d = diagnoseOne(
            QStringLiteral("console.log"),
            "worker-1: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:1197, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL "
            "version 2.18.3\n"
            "worker-1: ncclUnhandledCudaError: Call to CUDA function failed.\n"
            "worker-1: Last error:\n"
            "worker-1: Cuda failure 'initialization error'\n"
            "worker-1: \n"
            "worker-1: worker-1:2914:4490 [0] transport/nvls.cc:245 NCCL WARN Cuda failure 'initialization "
            "error'\n"
            "worker-1: worker-1:2914:4490 [0] NCCL INFO init.cc:872 -> 1\n");
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), QStringLiteral("nccl-cuda-failure"));
        QCOMPARE(d["initiating"]["line"].get<int>(), 6);
    }

    // glog's stamp has no year: where no file of the bundle shows one, the current year is taken,
    // unless that puts the stamps after today (OpenRLHF#621 as posted: "E1224" read on December 7
    // stood seventeen days ahead): then they are last year's.
    void yearlessStampsNeverInTheFuture()
    {
        const QDate ahead = QDate::currentDate().addDays(3);
        const QDate behind = QDate::currentDate().addDays(-3);
        if (ahead.year() != QDate::currentDate().year() || behind.year() != QDate::currentDate().year())
            QSKIP("three days from today is in another year: the test needs both in this one");
        auto yearOf = [this](const QDate& day) {
            const QByteArray line = "[rank1]:[E" + day.toString(QStringLiteral("MMdd")).toLatin1() +
                                    " 13:23:05.483840160 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught "
                                    "collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, "
                                    "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600001 milliseconds "
                                    "before timing out.\n";
            const json d = diagnoseOne(QStringLiteral("rank1.log"), line);
            const json* w = finding(d, "torch-watchdog-timeout");
            return w ? QString::fromStdString((*w)["time"]["lo"]).left(4).toInt() : 0;
        };
        QCOMPARE(yearOf(behind), QDate::currentDate().year());
        QCOMPARE(yearOf(ahead), QDate::currentDate().year() - 1);
    }

    // The old watchdog line names no group, and its "[Rank N]" is a rank within its group: where one
    // process's lines name several collectives they are several groups' (NeMo#8441 as posted:
    // "[Rank 0]" at three SeqNums, "[Rank 7]" 32,000 collectives lower). Rank 7 is not accused.
    void severalSequenceNumbersOfOneRank()
    {
        QByteArray log;
        for (const char* line :
             {"[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=96117, "
              "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25625613 milliseconds before "
              "timing out.",
              "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=96125, "
              "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25625593 milliseconds before "
              "timing out.",
              "[Rank 7] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=64088, "
              "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25625251 milliseconds before "
              "timing out."})
            log += QByteArray("[E ProcessGroupNCCL.cpp:458] ") + line + "\n";
        const json d = diagnoseOne(QStringLiteral("console.log"), log);
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY2(w, d["findings"].dump().c_str());
        QVERIFY2((*w)["suspects"].empty(), (*w)["suspects"].dump().c_str());
        bool said = false;
        for (const auto& h : d["hypotheses"])
            said |= QString::fromStdString(h["text"]).contains(
                QStringLiteral("rank 0's watchdog lines name SeqNum 96117, 96125"));
        QVERIFY2(said, d["hypotheses"].dump().c_str());
        // They ran for 25,625 s against a 1,800 s timeout, all within a second of each other.
        QVERIFY2(hypothesis(d, "rank 0 and rank 7's watchdogs reported their collectives, the first SeqNum "
                               "96117 (ALLREDUCE), 6 h 37 min after the 30 min timeout ran out"),
                 d["hypotheses"].dump().c_str());
        QVERIFY2(hypothesis(d, "late by the same time within a minute"), d["hypotheses"].dump().c_str());
    }

    // A watchdog checks its collectives about every 100 ms, so "ran for" is the timeout and a second
    // or two; hours more means its thread was held up, which the diagnosis says. The usual few
    // seconds over say nothing.
    void lateWatchdog()
    {
        auto diagnoseRanFor = [this](const char* ranFor) {
            const QByteArray line =
                QByteArray("[rank3]:[E1130 04:12:09.114520311 ProcessGroupNCCL.cpp:632] [Rank 3] "
                           "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=120, "
                           "OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for ") +
                ranFor + " milliseconds before timing out.\n";
            return diagnoseOne(QStringLiteral("rank3.log"), line);
        };
        const json late = diagnoseRanFor("4263118");
        QVERIFY2(hypothesis(late,
                            "rank 3's watchdog reported SeqNum 120 (ALLREDUCE) 1 h 1 min after the 10 min "
                            "timeout ran out"),
                 late["hypotheses"].dump().c_str());
        QVERIFY2(!hypothesis(late, "late by the same time"), late["hypotheses"].dump().c_str());
        QVERIFY2(hypothesis(late, "that host's kernel log", "decider"), late["hypotheses"].dump().c_str());
        const json onTime = diagnoseRanFor("602212");
        QVERIFY2(finding(onTime, "torch-watchdog-timeout"), onTime["findings"].dump().c_str());
        QVERIFY2(!hypothesis(onTime, "after the 10 min timeout"), onTime["hypotheses"].dump().c_str());
    }

    // A capture that runs to the line's end leaves Ray's deduplication suffix out: the finding quotes
    // libfabric's warning, not "[repeated 3x across cluster]".
    void capturesWithoutRaySuffix()
    {
        const json d =
            diagnoseOne(QStringLiteral("driver.log"),
                        "(RayWorkerWrapper pid=2213, ip=10.20.0.7) "
                        "libfabric:2213:1764570131::efa:cq:efa_rdm_cq_open():688<warn> "
                        "Unable to create extended CQ: Invalid argument [repeated 3x across cluster]\n"
                        "(RayWorkerWrapper pid=2213, ip=10.20.0.7) gpu-b:2213:2295 [3] "
                        "nccl_ofi_ofiutils_init_connection:274 NCCL "
                        "WARN NET/OFI Couldn't open CQ. RC: -22, ERROR: Invalid argument\n");
        const json* f = finding(d, "nccl-ofi-error");
        QVERIFY2(f, d["findings"].dump().c_str());
        const QString summary = QString::fromStdString((*f)["summary"]);
        QVERIFY2(
            summary.contains(QStringLiteral("libfabric's own warnings on that process: 'Unable to create "
                                            "extended CQ: Invalid argument'.")),
            qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("repeated")), qPrintable(summary));
    }

    // A process in two communicators prints Channel lines with a rank in each: they name no rank.
    // Nor does a Channel rank that another process holds already (the Init line's world rank 0 and
    // a sub-communicator's rank 0), nor one of a process whose lines name several devices (one
    // process driving several GPUs, as nccl-tests -g 8 does: a rank per GPU).
    void channelRanksOnlyWhereOne()
    {
        const json d =
            diagnoseOne(QStringLiteral("console.log"),
                        "gpu-a:100:150 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
                        "gpu-a:100:160 [0] NCCL INFO Channel 00/0 : 4[0] -> 5[1] via P2P/IPC\n"
                        "gpu-a:101:151 [1] NCCL INFO comm 0x55d1 rank 0 nranks 8 cudaDev 1 busId 1a000 "
                        "commId 0x1 - Init COMPLETE\n"
                        "gpu-a:102:152 [2] NCCL INFO Channel 00/0 : 0[2] -> 1[3] via P2P/IPC\n"
                        "gpu-a:103:153 [3] NCCL INFO Channel 00/0 : 3[3] -> 0[0] via P2P/IPC\n"
                        "gpu-b:104:154 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.9<0>\n"
                        "gpu-b:104:155 [5] NCCL INFO Channel 20 : 13[5] -> 12[4] via SHM/direct/direct\n");
        std::map<std::int64_t, json> byPid;
        for (const auto& r : d["ranks"])
            byPid[r["pid"].get<std::int64_t>()] = r;
        QVERIFY2(byPid.size() == 5, d["ranks"].dump().c_str());
        QVERIFY2(byPid[104]["rank"].is_null(), byPid[104].dump().c_str());
        QVERIFY2(byPid[100]["rank"].is_null(), byPid[100].dump().c_str());
        QCOMPARE(byPid[101]["rank"].get<int>(), 0);
        QVERIFY2(byPid[102]["rank"].is_null(), byPid[102].dump().c_str());
        QCOMPARE(byPid[103]["rank"].get<int>(), 3);
        QCOMPARE(byPid[103]["identity_source"].get<std::string>(), std::string("nccl-channel"));
    }

    // The proxy thread's "[Proxy Service R] Failed to execute operation ..." WARN names its process's
    // rank where nothing stronger does (pid 200), agreeing with its Channel lines or alone; two
    // proxy WARNs naming two ranks name none (pid 201), nor does one whose rank a process's Init
    // line holds (pid 202 against pid 203's rank 2), nor one that disagrees with the process's
    // Channel lines (pid 204). In a process driving several GPUs the WARN's "[dev]" is the proxy's
    // GPU: that GPU's rank (pid 205, GPUs 1 and 6), unless another process's WARN names it too.
    void proxyServiceNamesTheRank()
    {
        const json d = diagnoseOne(QStringLiteral("console.log"),
                                   "node-a:200:250 [0] proxy.cc:1519 NCCL WARN [Proxy Service 5] Failed to "
                                   "execute operation Connect "
                                   "from rank 5, retcode 2\n"
                                   "node-a:201:251 [1] proxy.cc:1519 NCCL WARN [Proxy Service 6] Failed to "
                                   "execute operation Connect "
                                   "from rank 6, retcode 2\n"
                                   "node-a:201:252 [1] proxy.cc:1519 NCCL WARN [Proxy Service 1] Failed to "
                                   "execute operation Connect "
                                   "from rank 1, retcode 2\n"
                                   "node-a:202:253 [2] proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to "
                                   "execute operation Connect "
                                   "from rank 2, retcode 2\n"
                                   "node-b:203:254 [2] NCCL INFO comm 0x55d1 rank 2 nranks 16 cudaDev 2 "
                                   "busId 1a000 commId 0x1 - Init "
                                   "COMPLETE\n"
                                   "node-b:204:255 [3] NCCL INFO Channel 00/0 : 7[3] -> 8[4] via P2P/IPC\n"
                                   "node-b:204:256 [3] proxy.cc:1519 NCCL WARN [Proxy Service 9] Failed to "
                                   "execute operation Connect "
                                   "from rank 9, retcode 2\n"
                                   "node-c:205:257 [6] NCCL INFO Channel 00/0 : 3[6] -> 4[7] via P2P/IPC\n"
                                   "node-c:205:258 [1] proxy.cc:1519 NCCL WARN [Proxy Service 12] Failed to "
                                   "execute operation Connect "
                                   "from rank 12, retcode 2\n"
                                   "node-d:206:259 [0] proxy.cc:1519 NCCL WARN [Proxy Service 19] Failed to "
                                   "execute operation Connect from rank 19, retcode 2\n"
                                   "node-d:206:260 [4] proxy.cc:1519 NCCL WARN [Proxy Service 20] Failed to "
                                   "execute operation Connect from rank 20, retcode 2\n"
                                   "node-d:207:261 [1] proxy.cc:1519 NCCL WARN [Proxy Service 20] Failed to "
                                   "execute operation Connect from rank 20, retcode 2\n");
        std::map<std::int64_t, json> byPid;
        for (const auto& r : d["ranks"])
            byPid[r["pid"].get<std::int64_t>()] = r;
        QVERIFY2(byPid.size() == 8, d["ranks"].dump().c_str());
        QCOMPARE(byPid[200]["rank"].get<int>(), 5);
        QCOMPARE(byPid[200]["identity_source"].get<std::string>(), std::string("nccl-proxy"));
        QVERIFY2(byPid[201]["rank"].is_null(), byPid[201].dump().c_str());
        QVERIFY2(byPid[202]["rank"].is_null(), byPid[202].dump().c_str());
        QCOMPARE(byPid[203]["rank"].get<int>(), 2);
        QVERIFY2(byPid[204]["rank"].is_null(), byPid[204].dump().c_str());
        QCOMPARE(byPid[205]["rank"].get<int>(), 12);
        QCOMPARE(byPid[205]["identity_source"].get<std::string>(), std::string("nccl-proxy"));
        QCOMPARE(byPid[205]["devices"].get<std::vector<int>>(), (std::vector<int>{1, 6}));
        QCOMPARE(byPid[205]["device_ranks"].dump(), std::string(R"([{"device":1,"rank":12}])"));
        // Two processes whose proxy WARNs name one rank (pid 206's GPU 4, its GPU 0 being rank 19, and
        // pid 207): neither has it.
        QVERIFY2(byPid[206]["rank"].is_null(), byPid[206].dump().c_str());
        QVERIFY2(byPid[207]["rank"].is_null(), byPid[207].dump().c_str());
    }

    // torchrun's box names pid 3000 (rank 0, exit 1); rank 1's own log failed first.
    void launcherSummaryAgainstTheLogs()
    {
        json d = diagnose(QStringLiteral("collective/elastic"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        const json* e = finding(d, "torch-elastic-child-failed");
        QVERIFY(e);
        QCOMPARE(QString::fromStdString((*e)["role"]), QStringLiteral("collateral"));
        // The box's exit code and ranks are on its "exitcode :" and "rank :" lines, not on the
        // exception's that anchors it; the agent's line names the local rank.
        QVERIFY2(
            QString::fromStdString((*e)["summary"]).contains(QStringLiteral("(exit code 1, local rank 0)")),
            (*e)["summary"].dump().c_str());
        QVERIFY2(QString::fromStdString((*e)["summary"])
                     .contains(QStringLiteral("(its failure box lists rank(s) 0)")),
                 (*e)["summary"].dump().c_str());
        bool named = false;
        for (const auto& h : (*e)["hypotheses"])
            named |= QString::fromStdString(h["text"]).contains(QStringLiteral("pid 3000")) &&
                     QString::fromStdString(h["text"]).contains(QStringLiteral("rank 1"));
        QVERIFY(named);
    }

    // The sample's initiating finding lists the not-evidenced checklist items and the context
    // findings as competing explanations, each with what would decide.
    void competingExplanationsOnTheSample()
    {
        json d = diagnose(QStringLiteral("../../resources/samples/connect-abort-2x4"));
        const json& h = d["findings"][0]["hypotheses"];
        QVERIFY(!h.empty());
        for (const auto& x : h)
            QVERIFY(!x["decider"].get<std::string>().empty());
    }

    // 019: only collateral; the explanation points at the peer whose log is missing.
    void peerOutsideTheBundle()
    {
        const QString log =
            QStringLiteral(RANKLINE_REALLOGS_DIR "/019-nccl795-remoteerror-broken-pipe-p4d/log.txt");
        if (!QFile::exists(log))
            QSKIP("real logs not available");
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        json d = json::parse(diagnosisJson(*analyzePaths({log.toStdString()}, m_enc, o)));
        QVERIFY(!d["hypotheses"].empty());
        QVERIFY(QString::fromStdString(d["hypotheses"][0]["text"]).contains(QStringLiteral("10.200.84.247")));
    }
};

QTEST_GUILESS_MAIN(TestRules)
#include "tst_rules.moc"
