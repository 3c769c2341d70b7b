// Real logs that users posted publicly, read in place from ../shared/fixtures/reallogs (never copied
// into the project). Each case's SOURCE.md names the initiating line where the excerpt shows it.
#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <vector>

#include "analysis.h"
#include "report/diagnosis_report.h"
#include "shipped_encyclopedia.h"

using namespace rl;
using nlohmann::json;

class TestRealLogs : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    QString caseLog(const QString& prefix)
    {
        QDir root(QStringLiteral(RANKLINE_REALLOGS_DIR));
        const QStringList hits = root.entryList({prefix + QStringLiteral("-*")}, QDir::Dirs);
        // The case's log only: SOURCE.md is the curator's reading of it, not evidence.
        return hits.isEmpty() ? QString() : root.filePath(hits.front() + QStringLiteral("/log.txt"));
    }

    json diagnose(const QString& dir)
    {
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        auto a = analyzePaths({dir.toStdString()}, m_enc, opts);
        return json::parse(diagnosisJson(*a));
    }

private slots:
    void initTestCase()
    {
        if (!QDir(QStringLiteral(RANKLINE_REALLOGS_DIR)).exists())
            QSKIP(qPrintable(QStringLiteral("real logs not found at %1 (set RANKLINE_REALLOGS_DIR)")
                                 .arg(QStringLiteral(RANKLINE_REALLOGS_DIR))));
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    void connectAbort_data()
    {
        QTest::addColumn<QString>("caseId");
        QTest::addColumn<int>("abortLine");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("target"); // as the summary names the connect's target
        // 001: proxy NET/Socket connect, abort on line 1 (SOURCE.md).
        QTest::newRow("001 proxy connect") << "001" << 1 << "ubuntu"
                                           << "10.0.0.2 port 45763";
        // 003: the only WARN is line 17 (pid 12251); which rank started it cannot be told from this
        // excerpt (every local rank fails in bootstrap), but the abort line itself is certain.
        QTest::newRow("003 bootstrap ipv6") << "003" << 17 << "n122-246-085"
                                            << "fe80::966d:ae03:a2:8cf0%ib1 port 17";
        // 004: one physical line carrying the 'Last error:' text after srun '10:' prefixes. The line
        // is also PyTorch's report, another entry's finding: the summary reads the abort's own
        // captures, not that finding's.
        QTest::newRow("004 last error, packed line") << "004" << 1 << ""
                                                     << "127.0.0.1 port 45069";
        // 058: the reference thread's single quoted line, in markdown backticks.
        QTest::newRow("058 reference thread") << "058" << 1 << ""
                                              << "10.45.234.83 port 47527";
    }
    void connectAbort()
    {
        QFETCH(QString, caseId);
        QFETCH(int, abortLine);
        QFETCH(QString, host);
        QFETCH(QString, target);
        QString dir = caseLog(caseId);
        QVERIFY2(!dir.isEmpty(), qPrintable(QStringLiteral("case %1 missing").arg(caseId)));
        json d = diagnose(dir);
        QVERIFY2(d["initiating"].is_object(), d.dump(1).c_str());
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-socket-connect-abort"));
        QCOMPARE(d["initiating"]["line"].get<int>(), abortLine);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("log.txt"));
        if (!host.isEmpty())
            QCOMPARE(QString::fromStdString(d["initiating"]["host"]), host);
        const json& f = d["findings"][0];
        QCOMPARE(QString::fromStdString(f["role"]), QStringLiteral("initiating"));
        QVERIFY2(QString::fromStdString(f["summary"]).contains(QStringLiteral("connect to ") + target),
                 f["summary"].dump().c_str());
        bool aborted = false, earliest = false;
        for (const auto& e : f["evidence"]) {
            if (e["label"] == "aborted-retry") {
                aborted = true;
                QCOMPARE(e["line"].get<int>(), abortLine);
                QVERIFY(QString::fromStdString(e["text"]).contains(
                    QStringLiteral("Software caused connection abort")));
            }
            earliest |= e["label"] == "earliest-connect-failure";
        }
        QVERIFY(aborted);
        QVERIFY(earliest);
    }

    // 003: rank 0 of the same host logged a silent socketPollConnect failure (line 10) before the
    // abort: that is the earliest connect failure in the bundle.
    void earliestConnectFailureIn003()
    {
        json d = diagnose(caseLog(QStringLiteral("003")));
        for (const auto& e : d["findings"][0]["evidence"])
            if (e["label"] == "earliest-connect-failure")
                QCOMPARE(e["line"].get<int>(), 10);
    }

    // 001 and 003 print the WARN at misc/socket.cc:483 then :564, which only 2.18.3–2.18.6 do.
    void versionFromLineNumbers()
    {
        json d = diagnose(caseLog(QStringLiteral("001")));
        QCOMPARE(d["nccl"]["hints"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(d["nccl"]["hints"][0]["from"]), QStringLiteral("2.18.3"));
        QCOMPARE(QString::fromStdString(d["nccl"]["hints"][0]["to"]), QStringLiteral("2.18.6"));
        QCOMPARE(d["nccl"]["fix_applies"].get<bool>(), true);
    }

    // 004 states NCCL 2.18.5 in PyTorch's exception text.
    void versionFromPyTorchText()
    {
        json d = diagnose(caseLog(QStringLiteral("004")));
        QCOMPARE(d["nccl"]["logs"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(d["nccl"]["logs"][0]["version"]), QStringLiteral("2.18.5"));
        QCOMPARE(d["nccl"]["fix_applies"].get<bool>(), true);
    }

    void notConnectAbort_data()
    {
        QTest::addColumn<QString>("caseId");
        QTest::newRow("019 broken pipe, peer crashed") << "019";
        QTest::newRow("036 IB completion error") << "036";
        QTest::newRow("040 /dev/shm too small") << "040";
        QTest::newRow("009 connect timed out, retrying (2.7 era)") << "009";
        QTest::newRow("011 connect refused, retrying (2.4.8)") << "011";
    }
    void notConnectAbort()
    {
        QFETCH(QString, caseId);
        QString dir = caseLog(caseId);
        QVERIFY2(!dir.isEmpty(), qPrintable(QStringLiteral("case %1 missing").arg(caseId)));
        json d = diagnose(dir);
        if (d["initiating"].is_object())
            QVERIFY(d["initiating"]["entry"] != "nccl-socket-connect-abort");
        for (const auto& f : d["findings"])
            for (const auto& e : f["evidence"])
                QVERIFY(e["label"] != "aborted-retry");
    }

    // Issue 5: every case that fits an entry diagnoses to it, at the key line SOURCE.md names.
    void initiatingEntry_data()
    {
        QTest::addColumn<QString>("caseId");
        QTest::addColumn<QString>("entry"); // empty: no initiating finding is expected (reason given)
        QTest::addColumn<int>("line");
        // 006: both lines are victims of one dropping peer (SOURCE.md); rank 607's line, the file's
        // second, is stamped 4 ms before rank 604's (",418" against ",422"), so it is the earliest.
        QTest::newRow("006 poll() without POLLOUT") << "006"
                                                    << "nccl-connect-failed-silent" << 2;
        // 007, 013: only '-> 2' trace lines and no error text anywhere: the first line that opens a
        // thread's trail (the silent-connect entry's fallback) is the finding, as each SOURCE.md
        // reads it; in 003 the same kind of trace sits beside a logged abort, which wins.
        QTest::newRow("007 trail alone") << "007"
                                         << "nccl-connect-failed-silent" << 1;
        QTest::newRow("013 EINPROGRESS trails on three ranks") << "013"
                                                               << "nccl-connect-failed-silent" << 3;
        QTest::newRow("009 connect timed out, retrying") << "009"
                                                         << "nccl-connect-timeout" << 12;
        QTest::newRow("011 connect refused, retrying") << "011"
                                                       << "nccl-connect-refused" << 1;
        QTest::newRow("014 bind: cannot assign address") << "014"
                                                         << "nccl-bind-failure" << 4;
        // 017: the trace on line 8 has no error text; the first line that names the failure is the
        // Proxy Service WARN on line 14 (line 8 is kept as evidence).
        QTest::newRow("017 proxy connect, no socket WARN") << "017"
                                                           << "nccl-proxy-connect-failure" << 14;
        QTest::newRow("018 proxy connect over RoCE") << "018"
                                                     << "nccl-proxy-connect-failure" << 8;
        QTest::newRow("021 OFI undeliverable") << "021"
                                               << "nccl-ofi-error" << 8;
        QTest::newRow("036 IB completion error 4") << "036"
                                                   << "nccl-ib-completion-error" << 4;
        QTest::newRow("038 RoCE status 12") << "038"
                                            << "nccl-ib-completion-error" << 1;
        QTest::newRow("040 /dev/shm extend failed") << "040"
                                                    << "nccl-shm-exhausted" << 1;
        QTest::newRow("042 /dev/shm 64 MB") << "042"
                                            << "nccl-shm-exhausted" << 4;
        QTest::newRow("043 shm attach ENOENT") << "043"
                                               << "nccl-shm-attach-failure" << 4;
        QTest::newRow("044 duplicate GPU") << "044"
                                           << "nccl-duplicate-gpu" << 4;
        QTest::newRow("046 store client timeout") << "046"
                                                  << "torch-store-connect-failure" << 3;
        QTest::newRow("049 store reset by peer") << "049"
                                                 << "torch-store-connect-failure" << 1;
        QTest::newRow("050 port 29500 in use") << "050"
                                               << "torch-store-port-in-use" << 1;
        QTest::newRow("052 garbage address family") << "052"
                                                    << "nccl-socket-interface" << 6;
        QTest::newRow("053 rank already checked in") << "053"
                                                     << "nccl-bootstrap-mismatch" << 16;
        QTest::newRow("055 collective mismatch") << "055"
                                                 << "nccl-collective-mismatch" << 1;
        QTest::newRow("056 CUDA invalid argument") << "056"
                                                   << "nccl-cuda-failure" << 1;
        // Undecidable from these excerpts, so no initiating finding (collateral may still be listed):
        // 015, 022, 024, 025: the peer that closed the connection is not in the log;
        // 026, 028, 030, 032: every rank shown waits at the same collective, the straggler is
        //           not in the excerpt;
        // 029: two ranks wait in two process groups, neither group's straggler in the excerpt;
        // 033: all ranks exit in the same second;
        // 035: exit -6 is the watchdog's abort, its cause is elsewhere;
        // 048: the cause is on rank 0, whose log is not included.
        for (const char* c :
             {"015", "022", "024", "025", "026", "028", "029", "030", "032", "033", "035", "048"})
            QTest::newRow(qPrintable(QStringLiteral("%1 undecidable").arg(QLatin1String(c)))) << c << "" << 0;
    }
    void initiatingEntry()
    {
        QFETCH(QString, caseId);
        QFETCH(QString, entry);
        QFETCH(int, line);
        QString log = caseLog(caseId);
        QVERIFY2(!log.isEmpty(), qPrintable(QStringLiteral("case %1 missing").arg(caseId)));
        json d = diagnose(log);
        if (entry.isEmpty()) {
            QVERIFY2(d["initiating"].is_null(), d["initiating"].dump().c_str());
            return;
        }
        QVERIFY2(d["initiating"].is_object(), "no initiating finding");
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]), entry);
        QCOMPARE(d["initiating"]["line"].get<int>(), line);
        // Inferred from a trail exactly where the logs state no error (007 and 013 here).
        const bool stated = caseId != QLatin1String("007") && caseId != QLatin1String("013");
        QCOMPARE(d["findings"][0].value("inferred_from_trail", false), !stated);
    }

    // Where no initiating failure can be named, what the logs say still comes out as what they
    // suggest, never as "no known failure": 033 and 035 hold only torchrun's ChildFailedError box,
    // 048 only rank 4's failed store read of the id that rank 0 should have published.
    void suggestionsWithoutAnInitiatingFailure_data()
    {
        QTest::addColumn<QString>("caseId");
        QTest::addColumn<QString>("said");
        QTest::newRow("033 elastic box")
            << "033"
            << "only consequences were recognised (torchrun's agent reports a worker that exited";
        QTest::newRow("035 elastic box")
            << "035"
            << "only consequences were recognised (torchrun's agent reports a worker that exited";
        QTest::newRow("048 store read") << "048"
                                        << "Store read of the NCCL unique id failed";
    }
    void suggestionsWithoutAnInitiatingFailure()
    {
        QFETCH(QString, caseId);
        QFETCH(QString, said);
        json d = diagnose(caseLog(caseId));
        QVERIFY(d["initiating"].is_null());
        QVERIFY(!d["hypotheses"].empty());
        for (const auto& h : d["hypotheses"])
            QVERIFY2(h["text"] != "no known failure was recognised in these logs",
                     d["hypotheses"].dump().c_str());
        QVERIFY2(QString::fromStdString(d["hypotheses"][0]["text"]).startsWith(said),
                 d["hypotheses"].dump().c_str());
        QVERIFY(!d["hypotheses"][0]["decider"].get<std::string>().empty());
        QCOMPARE(d["hypotheses"][0]["line"].is_number(), true);
    }

    // The box's own lines say which workers it is about: 033's lists ranks 1, 2, 3 and 0 (one
    // "rank :" line each), 035's agent line names local rank 3. The summary said "a worker ... first
    // unknown rank" before, the agent's own process having no rank.
    void elasticBoxSaysWhichWorkers_data()
    {
        QTest::addColumn<QString>("caseId");
        QTest::addColumn<QString>("said");
        QTest::newRow("033 box of four ranks") << "033"
                                               << "(its failure box lists rank(s) 0–3)";
        QTest::newRow("035 agent line") << "035"
                                        << "(exit code -6, local rank 3)";
    }
    void elasticBoxSaysWhichWorkers()
    {
        QFETCH(QString, caseId);
        QFETCH(QString, said);
        json d = diagnose(caseLog(caseId));
        const json* box = nullptr;
        for (const auto& f : d["findings"])
            if (f["entry"] == "torch-elastic-child-failed")
                box = &f;
        QVERIFY2(box, d["findings"].dump().c_str());
        QVERIFY2(QString::fromStdString((*box)["summary"]).contains(said), (*box)["summary"].dump().c_str());
    }

    // 033's box names its workers: ranks 0, 2 and 3 by their records; rank 1's record lost its
    // header at the excerpt's edge and is not read as one.
    void elasticBoxNamesItsWorkers()
    {
        json d = diagnose(caseLog(QStringLiteral("033")));
        std::vector<int> ranks;
        for (const auto& r : d["ranks"])
            if (r["identity_source"] == "torchelastic-box") {
                ranks.push_back(r["rank"].get<int>());
                QCOMPARE(QString::fromStdString(r["host"]), QStringLiteral("vmnuvocinpoc"));
                QCOMPARE(r["pid"].get<int>(), 69811 + r["rank"].get<int>());
                QCOMPARE(r["local_rank"].get<int>(), r["rank"].get<int>());
            }
        QCOMPARE(ranks, (std::vector<int>{0, 2, 3}));
    }

    // An InfiniBand completion's status is said with what it means, from the entry's meanings: 036's
    // status 4 (a local protection error), 038's status 12 (retries ran out).
    void completionStatusMeanings_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("said");
        QTest::newRow("036") << QStringLiteral("036")
                             << QStringLiteral("with status 4 on its connection to 10.0.35.1 port 49189: "
                                               "IBV_WC_LOC_PROT_ERR, a local protection error");
        QTest::newRow("038") << QStringLiteral("038")
                             << QStringLiteral(
                                    "with status 12 on its connection to 10.216.210.236 port 54862: "
                                    "IBV_WC_RETRY_EXC_ERR, the transport's retries ran out");
    }
    void completionStatusMeanings()
    {
        QFETCH(QString, log);
        QFETCH(QString, said);
        const json d = diagnose(caseLog(log));
        QCOMPARE(QString::fromStdString(d["findings"][0]["entry"]),
                 QStringLiteral("nccl-ib-completion-error"));
        QVERIFY2(QString::fromStdString(d["findings"][0]["summary"]).contains(said),
                 d["findings"][0]["summary"].dump().c_str());
    }

    // 029 (NVIDIA/nccl#1610): each line opens with a space and a console's stamp to the minute
    // before torchrun's "[rank13]:" and "[rank15]:", and the two ranks time out in two process
    // groups (PG GUID 119 at #216, 112 at #57). The ranks are 13 and 15, not the "[Rank 1]" of the
    // watchdog line (a group rank); and neither is behind the other: their numbers are two groups'
    // counts. Which member each group waits for is not in the excerpt (undecidable, as above).
    void twoGroupsIn029()
    {
        json d = diagnose(caseLog(QStringLiteral("029")));
        std::vector<int> ranks;
        for (const auto& r : d["ranks"])
            if (r["identity_source"] == "launcher-prefix")
                ranks.push_back(r["rank"].get<int>());
        QCOMPARE(ranks, (std::vector<int>{13, 15}));
        bool suspects = false, groups = false;
        for (const auto& f : d["findings"])
            suspects |= !f["suspects"].empty();
        for (const auto& h : d["hypotheses"])
            groups |= QString::fromStdString(h["text"]).startsWith(
                QStringLiteral("the watchdogs fired in 2 process groups, each at its own collective: process "
                               "group 112 at SeqNum 57 (ALLREDUCE) on rank 15; process group 119 at SeqNum "
                               "216 (ALLTOALL_BASE) on rank 13;"));
        QVERIFY2(!suspects, d["findings"].dump().c_str());
        QVERIFY2(groups, d["hypotheses"].dump().c_str());
        // The console's minute (12:54) and glog's time (04:54:22.864) are eight hours apart: glog's
        // says when in that minute rank 13's watchdog fired, on the console's clock.
        QCOMPARE(d["findings"][0]["time"]["lo"].get<std::string>(), std::string("2025-02-18 12:54:22.864"));
        QCOMPARE(d["findings"][0]["rank"].get<int>(), 13);
    }

    // 006 (NVIDIA/nccl#1618) is grep's output over per-rank files ("rank_604.s12gn3064.4031852.log:"
    // before each line): each line's file name says its rank, and so does the reporter's logger
    // ("[0604/1024]"), whose tag "[s12gn3064:pid=3942408]" names the host and pid.
    void grepFileNamesIn006()
    {
        json d = diagnose(caseLog(QStringLiteral("006")));
        std::vector<int> ranks;
        std::vector<std::string> hosts;
        std::vector<std::int64_t> pids;
        for (const auto& r : d["ranks"]) {
            ranks.push_back(r["rank"].is_number() ? r["rank"].get<int>() : -1);
            hosts.push_back(r["host"].is_string() ? r["host"].get<std::string>() : "");
            pids.push_back(r["pid"].is_number() ? r["pid"].get<std::int64_t>() : -1);
        }
        QCOMPARE(ranks, (std::vector<int>{604, 607}));
        QCOMPARE(hosts, (std::vector<std::string>{"s12gn3064", "s12gn3064"}));
        QCOMPARE(pids, (std::vector<std::int64_t>{3942408, 3942411}));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 607);
    }

    // Without Init lines, NCCL's Channel lines name each process's rank in the communicator they
    // connect: the sender's first, a "[receive]" line's second. 017: pid 919 (device 0) receives
    // "0[0] -> 8[0]" and sends "8[0] -> 0[0]", pid 920 sends "9[1] -> 10[2] via P2P/IPC/read"; pid
    // 922 prints no Channel line, and its proxy thread's "[Proxy Service 11] Failed to execute
    // operation Connect" WARN names it rank 11, as the thread's reader did. 009's one process
    // receives "0 -> 1" and sends "1 -> 0": rank 1.
    void channelLinesNameRanks_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QList<qint64>>("pids");
        QTest::addColumn<QList<int>>("ranks");
        QTest::addColumn<QStringList>("sources");
        QTest::newRow("017") << QStringLiteral("017") << QList<qint64>{919, 920, 922} << QList<int>{8, 9, 11}
                             << QStringList{"nccl-channel", "nccl-channel", "nccl-proxy"};
        QTest::newRow("009") << QStringLiteral("009") << QList<qint64>{101542} << QList<int>{1}
                             << QStringList{"nccl-channel"};
        // 018 and 019: one process each, no Channel line, the proxy's WARN ("[Proxy Service 14]",
        // "[Proxy Service 9]"): the ranks the threads' readers name.
        QTest::newRow("018") << QStringLiteral("018") << QList<qint64>{22337} << QList<int>{14}
                             << QStringList{"nccl-proxy"};
        QTest::newRow("019") << QStringLiteral("019") << QList<qint64>{183006} << QList<int>{9}
                             << QStringList{"nccl-proxy"};
    }
    void channelLinesNameRanks()
    {
        QFETCH(QString, log);
        QFETCH(QList<qint64>, pids);
        QFETCH(QList<int>, ranks);
        QFETCH(QStringList, sources);
        json d = diagnose(caseLog(log));
        for (qsizetype i = 0; i < pids.size(); ++i) {
            const json* r = nullptr;
            for (const auto& x : d["ranks"])
                if (x["pid"] == pids[i])
                    r = &x;
            QVERIFY2(r, d["ranks"].dump().c_str());
            if (ranks[i] < 0) {
                QVERIFY2((*r)["rank"].is_null(), r->dump().c_str());
                continue;
            }
            QCOMPARE((*r)["rank"].get<int>(), ranks[i]);
            QCOMPARE(QString::fromStdString((*r)["identity_source"]), sources[i]);
        }
    }

    // The proxy WARN's source line (proxy.cc:1097, :1119) pins the release where no version line
    // does: 018's reporter ran 2.13.4 and 019's 2.14.3, as their threads say.
    void proxyWarnLinePinsTheRelease_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("range");
        QTest::newRow("018") << QStringLiteral("018") << QStringLiteral("2.13.4");
        QTest::newRow("019") << QStringLiteral("019") << QStringLiteral("2.14.3–2.15.5");
    }
    void proxyWarnLinePinsTheRelease()
    {
        QFETCH(QString, log);
        QFETCH(QString, range);
        const json d = diagnose(caseLog(log));
        QCOMPARE(d["ranks"].size(), std::size_t{1});
        const json& r = d["ranks"][0];
        QCOMPARE(QString::fromStdString(r["nccl_version_range_display"]), range);
        bool clue = false;
        for (const json& c : r["nccl_version_clues"])
            clue = clue || c["id"] == "proxy-warn-line";
        QVERIFY2(clue, r.dump().c_str());
        if (log == QStringLiteral("018"))
            QVERIFY2(QString::fromStdString(d["nccl"]["verdict"])
                         .startsWith(QStringLiteral("No version line in the logs; the form of the failing "
                                                    "rank's lines puts NCCL at 2.13.4.")),
                     d["nccl"].dump().c_str());
    }

    // 036: kolyoz1's progress-thread trail opens the paste, its WARN cut off, before kolyoz2's
    // completion error: the reader could not name an initiator, and the diagnosis says why.
    void pasteOpeningInsideATrailIn036()
    {
        const json d = diagnose(caseLog(QStringLiteral("036")));
        QCOMPARE(d["initiating"]["host"].get<std::string>(), std::string("kolyoz2"));
        bool said = false;
        for (const auto& h : d["findings"][0]["hypotheses"])
            said = said || (QString::fromStdString(h["text"]).startsWith(QStringLiteral(
                                "log.txt opens inside a back-trace of unknown rank (kolyoz1:27255)")) &&
                            h["line"] == 1);
        QVERIFY2(said, d["findings"][0]["hypotheses"].dump().c_str());
    }

    // 024: the closed connection names gpu004, the reporter's own host, where the excerpt holds no
    // other process: the reporter is not what its report points at (it did, before); the note
    // says what the other end can be.
    void peerOnTheReportersOwnHost()
    {
        const json d = diagnose(caseLog(QStringLiteral("024")));
        const json* lost = nullptr;
        for (const auto& f : d["findings"])
            if (f["entry"] == "nccl-peer-connection-lost")
                lost = &f;
        QVERIFY2(lost, d["findings"].dump().c_str());
        const json& at = (*lost)["points_at"];
        QVERIFY2(at.is_object() && at["host"].is_null() && at["rank"].is_null(), at.dump().c_str());
        QVERIFY2(
            QString::fromStdString(at["note"])
                .contains(QStringLiteral("names gpu004.ds-a4-r02.abc.com, the reporting process's own host")),
            at.dump().c_str());
    }

    // nccl-tests' -g: one process, a thread per GPU, each GPU a rank. The excerpts hold no Init
    // line; the finding names the GPU whose thread printed its line, and that GPU's rank where a
    // line says it: in 001 the proxy thread of GPU 0 prints "[Proxy Service 0] Failed to execute
    // operation Connect" (rank 0, as the thread's reader says), and GPU 5's rank stays unknown.
    void oneProcessSeveralGpus_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QList<int>>("devices");
        QTest::addColumn<int>("device"); // the initiating line's, -1 where nothing initiates
        QTest::addColumn<int>("rank");   // that device's rank, -1 where none is known
        QTest::addColumn<QString>("said");
        QTest::newRow("040") << QStringLiteral("040") << QList<int>{3, 4, 6} << 3 << -1
                             << QStringLiteral(
                                    "Unknown rank on GPU 3 (ubuntu:9621, one process driving GPUs 3, 4, 6) "
                                    "could not create");
        QTest::newRow("001")
            << QStringLiteral("001") << QList<int>{0, 5} << 0 << 0
            << QStringLiteral("Rank 0 on GPU 0 (ubuntu:39964) could not connect to 10.0.0.2 port 45763");
        QTest::newRow("024") << QStringLiteral("024") << QList<int>{1, 2, 3} << -1 << -1
                             << QStringLiteral("Unknown rank on GPU 3 (gpu004:2200689, one process driving "
                                               "GPUs 1–3) lost an established NCCL connection");
    }
    void oneProcessSeveralGpus()
    {
        QFETCH(QString, log);
        QFETCH(QList<int>, devices);
        QFETCH(int, device);
        QFETCH(int, rank);
        QFETCH(QString, said);
        json d = diagnose(caseLog(log));
        QCOMPARE(d["ranks"].size(), std::size_t{1});
        const json& r = d["ranks"][0];
        QVERIFY2(r.contains("devices"), r.dump().c_str());
        QCOMPARE(r["devices"].get<std::vector<int>>(), std::vector<int>(devices.begin(), devices.end()));
        if (rank < 0) {
            QVERIFY2(!r.contains("device_ranks") && r["rank"].is_null(), r.dump().c_str());
        } else {
            QCOMPARE(r["rank"].get<int>(), rank);
            QCOMPARE(r["identity_source"].get<std::string>(), std::string("nccl-proxy"));
            QCOMPARE(r["device_ranks"].dump(),
                     "[{\"device\":" + std::to_string(device) + ",\"rank\":" + std::to_string(rank) + "}]");
        }
        const json& f = d["findings"][0];
        QVERIFY2(f["summary"].get<std::string>().find(said.toStdString()) != std::string::npos,
                 f["summary"].dump().c_str());
        // /dev/shm is every local rank's: three GPUs' threads of one process failing is three ranks.
        if (log == QStringLiteral("040")) {
            bool checked = false;
            for (const json& c : f["checklist"])
                if (c["id"] == "several-ranks") {
                    checked = true;
                    QCOMPARE(c["status"].get<std::string>(), std::string("confirmed"));
                    QCOMPARE(c["detail"].get<std::string>(),
                             std::string("seen on 3 ranks (the GPUs of 1 process)"));
                }
            QVERIFY(checked);
        }
        if (device >= 0) {
            QCOMPARE(d["initiating"]["device"].get<int>(), device);
            QCOMPARE(f["device"].get<int>(), device);
            if (rank < 0)
                QVERIFY(d["initiating"]["rank"].is_null());
            else
                QCOMPARE(d["initiating"]["rank"].get<int>(), rank);
        } else {
            QVERIFY(d["initiating"].is_null());
        }
    }

    // 019 shows only collateral: the peer crashed before the excerpt begins.
    void collateralOnlyIn019()
    {
        json d = diagnose(caseLog(QStringLiteral("019")));
        QVERIFY(d["initiating"].is_null());
        bool lost = false;
        for (const auto& f : d["findings"])
            lost |= f["entry"] == "nccl-peer-connection-lost" && f["role"] == "collateral";
        QVERIFY(lost);
    }
};

QTEST_GUILESS_MAIN(TestRealLogs)
#include "tst_reallogs.moc"
