// The incident report model, the timeline geometry both renderings share, and the HTML/Markdown
// writers' promises (self-contained, escaped), on the sample incident and on built bundles.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>
#include <random>

#include "analysis.h"
#include "report/diagnosis_report.h"
#include "report/report_writers.h"
#include "shipped_encyclopedia.h"
#include "util/sha256.h"

using namespace rl;
using nlohmann::json;

namespace
{
std::shared_ptr<const Encyclopedia> encyclopedia()
{
    static const std::shared_ptr<const Encyclopedia> enc = [] {
        auto e = test::shippedEncyclopedia();
        if (!e)
            qFatal("the shipped encyclopedia does not load");
        return e;
    }();
    return enc;
}

std::shared_ptr<const Analysis> analyzeTexts(const std::vector<std::pair<std::string, std::string>>& files)
{
    Bundle b;
    for (const auto& [name, text] : files) {
        b.sources.push_back(sourceFromText(name, text));
        b.sources.back().id = SourceId(static_cast<std::uint32_t>(b.sources.size() - 1));
    }
    AnalyzeOptions o;
    o.probeLocalNccl = false;
    return analyze(std::move(b), encyclopedia(), o);
}

// Rank r's NCCL prefix (eight ranks a host), and its Init START line in a job of n ranks.
std::string rankPrefix(int r)
{
    return "node" + std::to_string(r / 8) + ":" + std::to_string(1000 + r) + ":" + std::to_string(2000 + r) +
           " [" + std::to_string(r % 8) + "] ";
}
std::string initStartLine(int r, int n)
{
    return rankPrefix(r) + "NCCL INFO comm 0x1 rank " + std::to_string(r) + " nranks " + std::to_string(n) +
           " cudaDev " + std::to_string(r % 8) + " busId 1000 commId 0x2 - Init START\n";
}

ReportOptions fixedOptions(bool redact = true)
{
    ReportOptions o;
    o.redact = redact;
    o.exportTime = "2025-06-12T15:00:00Z";
    o.ranklineVersion = "test";
    return o;
}
} // namespace

class TestReport : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Analysis> m_sample;

private slots:
    void initTestCase()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        m_sample = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}, encyclopedia(), o);
        QVERIFY(m_sample && m_sample->initiatingFinding());
    }

    void niceSteps_data()
    {
        QTest::addColumn<double>("min");
        QTest::addColumn<qint64>("step");
        QTest::newRow("below one") << 0.3 << qint64(1);
        QTest::newRow("exact 2") << 2.0 << qint64(2);
        QTest::newRow("3 -> 5") << 3.0 << qint64(5);
        QTest::newRow("7 -> 10") << 7.0 << qint64(10);
        QTest::newRow("120 ms -> 200 ms") << 120000.0 << qint64(200000);
        QTest::newRow("0.6 s -> 1 s") << 600000.0 << qint64(1000000);
    }
    void niceSteps()
    {
        QFETCH(double, min);
        QFETCH(qint64, step);
        QCOMPARE(niceStep(min), step);
    }

    void niceTimeSteps_data()
    {
        QTest::addColumn<double>("min");
        QTest::addColumn<qint64>("step");
        QTest::newRow("below a minute: 1-2-5") << 30e6 << qint64(50000000);
        QTest::newRow("a minute and a bit -> 2 min") << 61e6 << qint64(120000000);
        QTest::newRow("20 min -> 30 min") << 1200e6 << qint64(1800000000);
        QTest::newRow("5 h -> 6 h") << 18000e6 << qint64(21600000000);
        QTest::newRow("3 d -> 7 d") << 259200e6 << qint64(604800000000);
    }
    void niceTimeSteps()
    {
        QFETCH(double, min);
        QFETCH(qint64, step);
        QCOMPARE(niceTimeStep(min), step);
    }

    void relativeLabels_data()
    {
        QTest::addColumn<qint64>("delta");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("label");
        QTest::newRow("zero") << qint64(0) << qint64(1000000) << QStringLiteral("0");
        QTest::newRow("whole seconds") << qint64(2000000) << qint64(1000000) << QStringLiteral("+2 s");
        QTest::newRow("negative uses a minus sign")
            << qint64(-1000000) << qint64(1000000) << QStringLiteral("−1 s");
        QTest::newRow("tenths") << qint64(1500000) << qint64(500000) << QStringLiteral("+1.5 s");
        QTest::newRow("hundredths") << qint64(-20000) << qint64(10000) << QStringLiteral("−0.02 s");
        QTest::newRow("milliseconds") << qint64(5000) << qint64(5000) << QStringLiteral("+5 ms");
        QTest::newRow("microseconds") << qint64(200) << qint64(100) << QStringLiteral("+200 µs");
        QTest::newRow("minutes") << qint64(1200000000) << qint64(600000000) << QStringLiteral("+20 min");
        QTest::newRow("hours") << qint64(-5400000000) << qint64(3600000000) << QStringLiteral("−1.5 h");
        QTest::newRow("days") << qint64(172800000000) << qint64(86400000000) << QStringLiteral("+2 d");
    }
    void relativeLabels()
    {
        QFETCH(qint64, delta);
        QFETCH(qint64, step);
        QFETCH(QString, label);
        QCOMPARE(QString::fromStdString(relativeTimeLabel(delta, step)), label);
    }

    void arrows()
    {
        auto level = makeArrow(10, 50, 100, 50, PictureMarkKind::Initiating, false);
        QCOMPARE(level.c1.y, 50.0);
        QCOMPARE(level.head[0].x, 100.0);
        QVERIFY(level.head[1].x < 100 && level.head[2].x < 100); // points right
        QCOMPARE(level.head[1].y + level.head[2].y, 100.0);      // symmetric about the line
        auto down = makeArrow(10, 20, 110, 80, PictureMarkKind::Collateral, true);
        QCOMPARE(down.c1.x, 60.0); // S-curve: leaves and arrives horizontally
        QCOMPARE(down.c1.y, 20.0);
        QCOMPARE(down.c2.y, 80.0);
        QVERIFY(down.dashed);
        auto back = makeArrow(100, 20, 10, 80, PictureMarkKind::Collateral, true);
        QVERIFY(back.head[1].x > 10); // points left
    }

    // The picture of the sample: every lane, the failure at 0, the first attempt drawn hollow
    // before it, dashed arrows to the collateral reports nearby, and a note for the later ones.
    void sampleTimeline()
    {
        TimelinePicture p = layoutTimeline(*m_sample);
        QVERIFY(!p.empty);
        QVERIFY(p.hasTime);
        QCOMPARE(p.lanes.size(), std::size_t{10}); // 2 host rows + 8 ranks
        QCOMPARE(p.omitted, std::size_t{0});
        int initLanes = 0;
        double initY = -1;
        for (const auto& l : p.lanes)
            if (l.initiating) {
                ++initLanes;
                initY = l.y + p.laneHeight / 2;
                QCOMPARE(QString::fromStdString(l.label), QStringLiteral("rank 5"));
            }
        QCOMPARE(initLanes, 1);
        auto zero = std::find_if(p.ticks.begin(), p.ticks.end(), [](const auto& t) { return t.zero; });
        QVERIFY(zero != p.ticks.end());
        QCOMPARE(QString::fromStdString(zero->label), QStringLiteral("0"));
        bool diamondAtZero = false, unlogged = false;
        for (const auto& m : p.marks) {
            QVERIFY(m.x >= p.plotLeft - 1 && m.x <= p.plotRight + 1);
            QVERIFY(m.y > p.plotTop && m.y < p.plotBottom);
            if (m.diamond && std::abs(m.x - zero->x) < 0.5 && std::abs(m.y - initY) < 0.5)
                diamondAtZero = true;
            if (m.kind == PictureMarkKind::Unlogged) {
                unlogged = true;
                QVERIFY(m.x < zero->x);
            }
        }
        QVERIFY(diamondAtZero);
        QVERIFY(unlogged);
        int dashed = static_cast<int>(
            std::count_if(p.arrows.begin(), p.arrows.end(), [](const auto& a) { return a.dashed; }));
        QCOMPARE(dashed, 3); // ranks 4, 6 and 7 close their connections within a second
        bool later = false;
        for (const auto& l : p.labels)
            later = later || QString::fromStdString(l.text).startsWith(
                                 QStringLiteral("4 more collateral reports later"));
        QVERIFY(later);
        QVERIFY(p.height > p.plotBottom);
        for (const auto& g : p.legend)
            QVERIFY(g.x >= 0 && g.x < p.width && g.y < p.height);
    }

    // Many ranks: the initiating one and the collateral reporters are drawn, the rest counted.
    void manyRanksAreSummarised()
    {
        std::vector<std::pair<std::string, std::string>> files;
        for (int r = 0; r < 40; ++r) {
            const std::string pre = rankPrefix(r);
            std::string t = initStartLine(r, 40);
            if (r == 13)
                t += pre +
                     "misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.1<45763> failed : "
                     "Software caused connection abort\n";
            if (r == 14 || r == 15)
                t += pre + "misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer "
                           "node1<4000>\n";
            files.push_back({"rank" + std::to_string(r) + ".log", t});
        }
        auto a = analyzeTexts(files);
        QCOMPARE(a->processes.size(), std::size_t{40});
        TimelineLayout layout;
        layout.maxLanes = 8;
        TimelinePicture p = layoutTimeline(*a, layout);
        std::size_t processLanes = 0;
        bool hasInit = false;
        for (const auto& l : p.lanes) {
            processLanes += !l.header;
            hasInit = hasInit || (l.initiating && l.label == "rank 13");
        }
        QVERIFY(processLanes <= 8);
        QVERIFY(hasInit);
        QCOMPARE(p.omitted, 40 - processLanes);
        QVERIFY(QString::fromStdString(p.caption).contains(QStringLiteral("of 40 processes drawn")));
        QVERIFY(!p.hasTime); // no timestamps: merged order
        QCOMPARE(QString::fromStdString(p.axisTitle), QStringLiteral("merged order"));
    }

    // A tick's label starts right of its line: none may run past the picture's right edge (the
    // last one of a short merged order did, cut off mid-word in the PDF).
    void tickLabelsStayInThePicture()
    {
        std::string three = "h:1:2 [0] NCCL INFO a\nh:1:2 [0] misc/socket.cc:49 NCCL WARN socketProgress: "
                            "Connection closed by remote peer node1<4000>\nh:1:2 [0] NCCL INFO b\n";
        for (const auto& a : {analyzeTexts({{"r.log", three}}), m_sample}) {
            TimelinePicture p = layoutTimeline(*a);
            QVERIFY(!p.ticks.empty());
            int labelled = 0;
            for (const auto& t : p.ticks) {
                if (t.label.empty())
                    continue;
                ++labelled;
                // textWidth's estimate: 0.62 em a character.
                QVERIFY2(t.x + 3 + static_cast<double>(t.label.size()) * p.fontSize * 0.62 <= p.width,
                         t.label.c_str());
            }
            QVERIFY(labelled >= 2);
        }
    }

    // nccl-tests -g 4: the verdict names the GPU whose thread failed and its rank, not the process's
    // first Init line's rank.
    void verdictNamesTheFailingGpu()
    {
        std::string log;
        for (int d = 0; d < 4; ++d)
            log += "node-a:41007:" + std::to_string(41021 + d) + " [" + std::to_string(d) +
                   "] NCCL INFO comm 0x" + std::to_string(1 + d) + " rank " + std::to_string(d) +
                   " nranks 4 cudaDev " + std::to_string(d) + " busId 1000 commId 0x2 - Init START\n";
        log += "\nnode-a:41007:41089 [2] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
               "10.0.0.12<43215> failed : Software caused connection abort\n";
        auto a = analyzeTexts({{"node-a.log", log}});
        IncidentReport r = buildReport(*a, fixedOptions(false));
        QVERIFY2(r.verdict.find(" on rank 2 on GPU 2 (node-a:41007) at node-a.log:6") != std::string::npos,
                 r.verdict.c_str());
        QCOMPARE(QString::fromStdString(r.who), QStringLiteral("rank 2 on GPU 2 (node-a:41007)"));
    }

    // The report says what else could explain the failure, with its line and what would decide,
    // redacted like the rest; the finding's own unconfirmed checklist items stay in the checklist.
    void competingExplanations()
    {
        auto a = analyzeTexts(
            {{"paste.txt", "node-a:10:11 [0] NCCL INFO proxy.cc:698 -> 6\n"
                           "node-a:10:11 [0] NCCL INFO proxy.cc:878 -> 6 [Progress Thread]\n\n"
                           "node-b:20:21 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from "
                           "peer 10.0.0.1<4000> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n"}});
        const IncidentReport plain = buildReport(*a, fixedOptions(false));
        QCOMPARE(plain.alternatives.size(), std::size_t{1});
        const ReportAlternative& x = plain.alternatives.front();
        QVERIFY2(x.text.starts_with("paste.txt opens inside a back-trace of unknown rank (node-a:10)"),
                 x.text.c_str());
        QCOMPARE(QString::fromStdString(x.where), QStringLiteral("paste.txt:1"));
        QVERIFY2(x.decider.starts_with("the lines before it"), x.decider.c_str());
        QVERIFY(std::none_of(
            plain.alternatives.begin(), plain.alternatives.end(), [](const ReportAlternative& y) {
                return y.text.starts_with("not evidenced") || y.text.starts_with("contradicted");
            }));
        const std::string html = reportHtml(plain);
        QVERIFY(html.find("<h2>Competing explanations</h2>") != std::string::npos);
        QVERIFY(reportMarkdown(plain).find("## Competing explanations") != std::string::npos);
        const IncidentReport redacted = buildReport(*a, fixedOptions(true));
        QVERIFY2(redacted.alternatives.front().text.find("node-a") == std::string::npos,
                 redacted.alternatives.front().text.c_str());
    }

    void emptyBundleHasNothingToDraw()
    {
        auto a = analyzeTexts({{"quiet.log", "all good\nnothing to see\n"}});
        TimelinePicture p = layoutTimeline(*a);
        QVERIFY(p.empty);
        IncidentReport r = buildReport(*a, fixedOptions());
        QVERIFY(!r.hasFinding);
        QCOMPARE(QString::fromStdString(r.title), QStringLiteral("No known failure recognised"));
        QVERIFY(QString::fromStdString(r.verdict).contains(QStringLiteral("first WARN")));
        QVERIFY(reportHtml(r).find("<svg") != std::string::npos);
    }

    // Without an initiating failure the verdict carries what the logs still suggest, and what
    // would decide it; where that only repeats the strongest finding, what would show the cause.
    void verdictWithoutAnInitiatingFailure_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("said");
        QTest::newRow("a store read that waited")
            << "torch.distributed.DistBackendError: [4] is setting up NCCL communicator and retrieving "
               "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: "
               "Socket Timeout\n"
            << "No failure identified"
            << "What the logs suggest: Store read of the NCCL unique id failed";
        QTest::newRow("a peer outside the bundle")
            << "h:1:2 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer "
               "10.9.9.9<55693>\n"
            << "No initiating failure singled out"
            << "which no log in the bundle identifies. No initiating failure was identified, so no NCCL fix "
               "is "
               "assessed. What would show the cause: Add the log of the peer these reports name.";
    }
    void verdictWithoutAnInitiatingFailure()
    {
        QFETCH(QString, text);
        QFETCH(QString, title);
        QFETCH(QString, said);
        auto a = analyzeTexts({{"rank4.log", text.toStdString()}});
        IncidentReport r = buildReport(*a, fixedOptions(false));
        QCOMPARE(QString::fromStdString(r.title), title);
        QVERIFY2(QString::fromStdString(r.verdict).contains(said), r.verdict.c_str());
        QVERIFY2(!QString::fromStdString(r.verdict).contains(QStringLiteral("first WARN")),
                 r.verdict.c_str());
    }

    // A finding's time is said as far as it is known: a console's minute as "12:54", not
    // "12:54:00.000"; an unstamped line between stamps minutes apart by both bounds (not their
    // middle, which no line gave), before the first stamp or after the last by the one bound.
    void timesAsFarAsKnown_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("time");
        QTest::addColumn<QString>("caption"); // how the timeline's caption says what 0 is
        const QString warn = QStringLiteral("h:77:88 [1] misc/socket.cc:484 NCCL WARN socketStartConnect: "
                                            "Connect to 10.0.0.2<45763> failed : "
                                            "Software caused connection abort\n");
        QTest::newRow("to the minute")
            << QStringLiteral("2025-02-18 12:54 ") + warn << QStringLiteral("12:54")
            << QStringLiteral("the middle of the minute stamped on");
        QTest::newRow("to the second")
            << QStringLiteral("2025-02-18 12:54:07 ") + warn << QStringLiteral("12:54:07")
            << QStringLiteral("the middle of the second stamped on");
        QTest::newRow("between stamps minutes apart")
            << QStringLiteral("2025-02-18 12:54:07 INFO a\n") + warn +
                   QStringLiteral("2025-02-18 13:04:07 INFO b\n")
            << QStringLiteral("between 12:54:07 and 13:04:07")
            << QStringLiteral("the middle of the span its stamped neighbours leave");
        QTest::newRow("close to its stamps")
            << QStringLiteral("2025-02-18 12:54:07,250 INFO a\n") + warn +
                   QStringLiteral("2025-02-18 12:54:07,500 INFO b\n")
            << QStringLiteral("~12:54:07.250")
            << QStringLiteral("the middle of the span its stamped neighbours leave");
        QTest::newRow("after the last stamp")
            << QStringLiteral("2025-02-18 12:54:07 INFO a\n") + warn << QStringLiteral("at or after 12:54:07")
            << QStringLiteral("the stamp before rank 1 (h:77)'s unstamped line at rank1.log:2");
        QTest::newRow("before the first stamp")
            << warn + QStringLiteral("2025-02-18 12:54:07 INFO a\n")
            << QStringLiteral("at or before 12:54:07")
            << QStringLiteral("where the stamp after ends, rank 1 (h:77)'s unstamped line at rank1.log:1");
    }
    void timesAsFarAsKnown()
    {
        QFETCH(QString, text);
        QFETCH(QString, time);
        QFETCH(QString, caption);
        auto a = analyzeTexts({{"rank1.log", text.toStdString()}});
        IncidentReport r = buildReport(*a, fixedOptions(false));
        QVERIFY(r.hasFinding);
        QCOMPARE(QString::fromStdString(r.time), time);
        QVERIFY2(QString::fromStdString(r.timeline.caption).contains(caption), r.timeline.caption.c_str());
    }

    // One node's logs of a job of two: the verdict ends with the ranks it lacks (redacted like the
    // rest), and the Markdown and HTML carry it.
    void verdictNamesMissingRanks()
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4/gpu-a"}, encyclopedia(), o);
        QVERIFY(a);
        IncidentReport r = buildReport(*a, fixedOptions());
        const std::string said =
            "Logs of 4 of the 8 ranks in NCCL's largest communicator (rank0.log:19); ranks "
            "4–7 have no lines here.";
        QVERIFY2(r.verdict.find(said) != std::string::npos, r.verdict.c_str());
        QVERIFY(reportMarkdown(r).find(said) != std::string::npos);
        QVERIFY(reportHtml(r).find("ranks 4–7 have no lines here") != std::string::npos);
        // A whole bundle says nothing of it.
        QVERIFY(buildReport(*m_sample, fixedOptions()).verdict.find("Logs of ") == std::string::npos);
    }

    // A process whose rank no line told may be the missing rank: the sentence says the rank has no
    // line known to be its own, and how many such processes there are.
    void missingRankBesideUnrankedProcesses()
    {
        auto a =
            analyzeTexts({{"a.log", initStartLine(0, 3) + initStartLine(1, 3)},
                          {"b.log", "node0:1700:1800 [2] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"}});
        QCOMPARE(a->coverage.worldRanks, 3);
        QVERIFY(a->coverage.missing == std::vector<int>{2});
        QCOMPARE(a->coverage.unranked, 1);
        const std::string s = coverageSentence(*a);
        QVERIFY2(
            s.find("Logs of 2 of the 3 ranks in NCCL's largest communicator (a.log:1); rank 2 has no line "
                   "here known to be its own (1 process here has no known rank). The failure may have "
                   "started on it: add its logs to be sure.") != std::string::npos,
            s.c_str());
        const json d = json::parse(diagnosisJson(*a));
        QCOMPARE(d["coverage"]["unranked_processes"].get<int>(), 1);
    }

    void sampleModel()
    {
        IncidentReport r = buildReport(*m_sample, fixedOptions());
        QVERIFY(r.hasInitiating);
        QCOMPARE(r.entry, std::string("nccl-socket-connect-abort"));
        QCOMPARE(r.who, std::string("rank 5 (host-2:39962)"));
        QCOMPARE(r.where, std::string("host-2/rank5.log:26"));
        const QString verdict = QString::fromStdString(r.verdict);
        for (const char* s :
             {"Initiating failure", "on rank 5 (host-2:39962)",
              "Rank 5 (host-2:39962) could not connect to ip-1", "refused",
              "7 other processes failed as a consequence", "point back at rank 5", "NCCL 2.18.3"})
            QVERIFY2(verdict.contains(QLatin1String(s)), s);
        // The abort is both the earliest failure and the aborted retry: one entry, both labels.
        QCOMPARE(r.evidence.front().label, std::string("earliest-connect-failure, aborted-retry"));
        auto trail = std::find_if(r.evidence.begin(), r.evidence.end(),
                                  [](const ReportLine& l) { return l.label == "return-code-trail"; });
        QVERIFY(trail != r.evidence.end());
        QCOMPARE(trail->line, 27u);
        QCOMPARE(trail->lastLine, 32u);
        QCOMPARE(QString::fromStdString(trail->text).count(QLatin1Char('\n')), 5);
        // Context: four lines either side from rank 5, the blank line 25 left out.
        QCOMPARE(r.context.size(), std::size_t{9});
        QCOMPARE(r.context[4].line, 26u);
        QVERIFY(r.context[4].emphasis);
        QCOMPARE(r.context[3].line, 24u);
        // Peer connection lost and remote error on gpu-b, watchdog timeouts on gpu-a.
        QCOMPARE(r.collateral.size(), std::size_t{3});
        QCOMPARE(r.collateralProcesses, std::size_t{7});
        QCOMPARE(r.collateral[0].ranks, std::string("4, 6, 7"));
        QCOMPARE(r.collateral.back().ranks, std::string("0–3"));
        QVERIFY(r.collateral[0].pointsAtInitiator);
        QCOMPARE(r.checklist.size(), std::size_t{6});
        QVERIFY(!r.rootCause.empty() && !r.fixSteps.empty() && !r.verify.empty() && !r.prevention.empty());
        QCOMPARE(r.ncclLocal, std::string("not probed"));
        QCOMPARE(r.clocks.size(), std::size_t{2});
        QVERIFY(
            QString::fromStdString(r.clockStatement).contains(QStringLiteral("offsets 0"))); // none needed
        QCOMPARE(r.clocks[0].offsetUs, 0);
        // Inventory: every file with its size, lines and the SHA-256 of its bytes.
        QCOMPARE(r.files.size(), std::size_t{8});
        QFile f(QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4/gpu-b/rank5.log"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        const ReportFile& rf = r.files[5];
        QCOMPARE(rf.path, std::string("host-2/rank5.log"));
        QCOMPARE(rf.size, static_cast<std::uint64_t>(bytes.size()));
        QCOMPARE(rf.lines, 53u);
        QCOMPARE(rf.sha256,
                 sha256Hex(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
        QCOMPARE(rf.processes, std::string("5"));
        QVERIFY(r.legend.empty()); // never in a redacted report
    }

    // Redacted, nothing of the sample's hosts or addresses is left in any output.
    void redactedOutputsHoldNoHostOrAddress()
    {
        Redactor red;
        IncidentReport r = buildReport(*m_sample, fixedOptions(), red);
        const std::string outputs[] = {reportHtml(r), reportMarkdown(r), reportJson(r, *m_sample, red)};
        for (const auto& out : outputs) {
            const QString s = QString::fromStdString(out);
            for (const char* leak : {"gpu-a", "gpu-b", "10.0.0.11", "10.0.0.12"})
                QVERIFY2(!s.contains(QLatin1String(leak)), leak);
            QVERIFY(s.contains(QStringLiteral("host-2")));
        }
    }

    void unredactedHasLegend()
    {
        IncidentReport r = buildReport(*m_sample, fixedOptions(false));
        QVERIFY(!r.redacted);
        QCOMPARE(r.who, std::string("rank 5 (gpu-b:39962)"));
        QVERIFY(r.legend.size() >= 4);
        QCOMPARE(r.legend[0].pseudonym, std::string("host-1"));
        QCOMPARE(r.legend[0].original, std::string("gpu-a"));
        const std::string html = reportHtml(r);
        QVERIFY(html.find("Pseudonym legend") != std::string::npos);
        QVERIFY(reportMarkdown(r).find("## Pseudonym legend") != std::string::npos);
    }

    // The HTML is one file that loads nothing and runs nothing.
    void htmlIsSelfContained()
    {
        const QString html = QString::fromStdString(reportHtml(buildReport(*m_sample, fixedOptions())));
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(html.contains(QStringLiteral("<svg")));
        QVERIFY(html.contains(QStringLiteral("Content-Security-Policy")));
        for (const char* bad :
             {"<script", "<link", "<img", "<iframe", "@import", "url(", "src=", "@font-face"})
            QVERIFY2(!html.contains(QLatin1String(bad), Qt::CaseInsensitive), bad);
        QVERIFY(!html.contains(QRegularExpression(QStringLiteral("\\son[a-z]+\\s*="))));
        QCOMPARE(html.count(QStringLiteral("<table")), html.count(QStringLiteral("</table>")));
    }

    void jsonExtendsDiagnose()
    {
        Redactor red;
        IncidentReport r = buildReport(*m_sample, fixedOptions(), red);
        json j = json::parse(reportJson(r, *m_sample, red));
        for (const char* key :
             {"schema_version", "findings", "initiating", "nccl", "ranks", "skipped", "stats"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["initiating"]["rank"].get<int>(), 5);
        QCOMPARE(QString::fromStdString(j["initiating"]["host"]), QStringLiteral("host-2"));
        const json& rep = j["report"];
        QCOMPARE(QString::fromStdString(rep["schema"]), QStringLiteral("rankline-incident-report"));
        QCOMPARE(rep["schema_version"].get<int>(), kReportSchemaVersion);
        QCOMPARE(rep["redacted"].get<bool>(), true);
        QVERIFY(!rep.contains("legend"));
        for (const char* key :
             {"verdict", "initiating", "collateral", "timeline", "checklist", "guidance", "nccl", "clocks",
              "inventory", "components", "exported_at", "rankline_version"})
            QVERIFY2(rep.contains(key), key);
        QCOMPARE(rep["inventory"]["files"].size(), std::size_t{8});
        QCOMPARE(rep["clocks"]["corrected"].get<bool>(), false);
    }

    // diagnose --json writes its text without building a json tree: it must print exactly what
    // json::dump prints for the same document (keys in byte order, the same spacing and escapes).
    void diagnosisJsonIsDumpText_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("sample") << QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4");
        QDir data(QStringLiteral(RANKLINE_TEST_DATA_DIR));
        for (const QString& group : data.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            for (const QString& bundle :
                 QDir(data.filePath(group)).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
                QTest::newRow(qPrintable(group + '/' + bundle)) << data.filePath(group + '/' + bundle);
    }
    void diagnosisJsonIsDumpText()
    {
        QFETCH(QString, path);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({path.toStdString()}, encyclopedia(), o);
        QVERIFY(a);
        for (int indent : {2, -1}) {
            const std::string text = diagnosisJson(*a, indent);
            QCOMPARE(json::parse(text).dump(indent), text);
            // Streamed in pieces (diagnose --json): the same bytes, never a piece much past the
            // chunk size, and more than one piece once the document is larger than a chunk.
            std::string streamed;
            std::size_t pieces = 0, largest = 0;
            writeDiagnosisJson(
                *a,
                [&](std::string_view piece) {
                    streamed.append(piece);
                    ++pieces;
                    largest = std::max(largest, piece.size());
                },
                indent, 512);
            QCOMPARE(streamed, text);
            QVERIFY(pieces >= text.size() / 4096);
            QVERIFY2(largest < 4096, qPrintable(QString::number(largest)));
        }
    }

    // The ranks of a large job are written in batches on several threads: the text must be the
    // one a single thread writes, whole or streamed, for any number of threads (one more than
    // the batches on three: a thread left without a batch).
    void diagnosisJsonOnThreadsIsTheSame()
    {
        std::vector<std::pair<std::string, std::string>> files;
        for (int r = 0; r < 300; ++r) {
            const std::string pre = rankPrefix(r);
            std::string t =
                pre + "NCCL INFO Bootstrap : Using eth0:10.1." + std::to_string(r / 8) + ".1<0>\n";
            t += initStartLine(r, 300);
            if (r == 13)
                t += pre +
                     "misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.1.0.1<45763> failed : "
                     "Software caused connection abort\n";
            files.push_back({"rank" + std::to_string(r) + ".log", t});
        }
        auto a = analyzeTexts(files);
        QCOMPARE(a->processes.size(), std::size_t{300});
        const std::string one = diagnosisJson(*a, 2, 1);
        QCOMPARE(json::parse(one)["ranks"].size(), std::size_t{300});
        QCOMPARE(json::parse(one).dump(2), one);
        for (unsigned threads : {2u, 3u, 8u}) {
            QCOMPARE(diagnosisJson(*a, 2, threads), one);
            std::string streamed;
            std::size_t largest = 0;
            writeDiagnosisJson(
                *a,
                [&](std::string_view piece) {
                    streamed.append(piece);
                    largest = std::max(largest, piece.size());
                },
                2, 512, threads);
            QCOMPARE(streamed, one);
            QVERIFY2(largest < 4096, qPrintable(QString::number(largest)));
        }
    }

    void cleanText()
    {
        QCOMPARE(cleanLogText("a\x01"
                              "b\tc\x7f"),
                 std::string("a b\tc "));
        QCOMPARE(cleanLogText("bad \xff byte"), std::string("bad \xEF\xBF\xBD byte"));
        QCOMPARE(cleanLogText("é and more", 1), std::string(" …")); // never half a code point
        QCOMPARE(cleanLogText("abcdef", 3), std::string("abc …"));
    }

    void formats()
    {
        QCOMPARE(reportFormatFromName("out.HTML"), std::optional<ReportFormat>(ReportFormat::Html));
        QCOMPARE(reportFormatFromName("x.md"), std::optional<ReportFormat>(ReportFormat::Markdown));
        QCOMPARE(reportFormatFromName("pdf"), std::optional<ReportFormat>(ReportFormat::Pdf));
        QCOMPARE(reportFormatFromName("a.b.json"), std::optional<ReportFormat>(ReportFormat::Json));
        QVERIFY(!reportFormatFromName("report.docx"));
    }

    // The hand-written string quoting gives nlohmann's bytes for any input: printable ASCII, quotes
    // and backslashes, control bytes and DEL, well-formed UTF-8 of every length, and every kind of
    // broken sequence (overlong, surrogate, past U+10FFFF, cut short, stray continuation byte).
    void jsonStringsAreDumps()
    {
        const std::vector<std::string> pieces = {
            // printable: dump copies them, escaping only quotes and backslashes
            "a", "NCCL", " ", "\"", "\\", "\x7f",
            "\xc3\xa9",                                                                 // é
            "\xe2\x80\x93",                                                             // en dash
            "\xe2\x89\xa4",                                                             // ≤
            "\xf0\x9f\x98\x80",                                                         // 4 bytes
            "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", // range ends
            // control bytes
            "\n", "\t", std::string(1, '\0'), "\x1f",
            // broken
            "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xf0\x80\x80\x80", // overlong
            "\xed\xa0\x80", "\xed\xbf\xbf",                             // surrogates
            "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xfe",     // past U+10FFFF
            "\xe2\x80", "\xf0\x9f\x98", "\xc3", "\x80", "\xbf",         // cut short, stray
        };
        constexpr std::size_t kPrintable = 15;
        auto dump = [](const std::string& t) {
            return nlohmann::json(t).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        };
        std::mt19937 rng(20261130);
        for (int n = 0; n < 20000; ++n) {
            std::string t;
            const int parts = static_cast<int>(rng() % 8);
            // Half the strings from the printable pieces only, so the fast path is well covered.
            const std::size_t span = n % 2 ? pieces.size() : kPrintable;
            for (int k = 0; k < parts; ++k)
                t += pieces[rng() % span];
            std::string got = "x"; // appended to what is there
            appendJsonString(got, t);
            const std::string want = "x" + dump(t);
            QVERIFY2(got == want, QByteArray::fromStdString(t).toHex().constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
