// The environment as the logs reveal it (identity/environment_scan, identity/version_clues):
// versions per rank and their disagreement, NCCL_* settings, interfaces and their flags. Fixtures in
// tests/data/environment (see its README.md), the sample incident, and the real logs in place.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "analysis.h"
#include "bundle/bundle.h"
#include "identity/environment_scan.h"
#include "identity/version_clues.h"
#include "report/diagnosis_report.h"
#include "report/incident_report.h"
#include "shipped_encyclopedia.h"
#include "util/ascii.h"

using namespace rl;
using nlohmann::json;

namespace
{

QString str(const json& j)
{
    return j.is_string() ? QString::fromStdString(j.get<std::string>()) : QString();
}

std::vector<std::string> clueIds(const std::string& line)
{
    std::vector<std::string> ids;
    for (const auto& c : versionCluesOfLine(line))
        ids.push_back(std::string(c.id) + " " + c.display());
    std::sort(ids.begin(), ids.end());
    return ids;
}

QString joined(const std::vector<std::string>& v)
{
    QStringList l;
    for (const auto& s : v)
        l << QString::fromStdString(s);
    return l.join(QStringLiteral(" | "));
}

const json* flag(const json& d, const char* kind, const char* interface = nullptr)
{
    for (const auto& f : d["environment"]["flags"])
        if (f["kind"] == kind && (!interface || (f.contains("interface") && f["interface"] == interface)))
            return &f;
    return nullptr;
}

} // namespace

class TestEnvironment : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    std::shared_ptr<const Analysis> analyze(const QString& path)
    {
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        return analyzePaths({path.toStdString()}, m_enc, opts);
    }
    json diagnose(const QString& path) { return json::parse(diagnosisJson(*analyze(path))); }
    // rank0.log … rank<n-1>.log in `dir`, each holding textOf(rank).
    static bool writeRanks(const QTemporaryDir& dir, int n, const std::function<QString(int)>& textOf)
    {
        for (int r = 0; r < n; ++r) {
            QFile f(dir.filePath(QStringLiteral("rank%1.log").arg(r)));
            const QByteArray text = textOf(r).toUtf8();
            if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
                return false;
        }
        return true;
    }
    static QString fixture(const char* name)
    {
        return QStringLiteral(RANKLINE_TEST_DATA_DIR "/environment/") + QLatin1String(name);
    }

    // One to `most` of `pieces`, drawn at random and joined.
    static std::string randomLine(std::mt19937& rng, const std::vector<std::string>& pieces, int most)
    {
        std::string line;
        const int parts = 1 + static_cast<int>(rng() % static_cast<unsigned>(most));
        for (int k = 0; k < parts; ++k)
            line += pieces[rng() % pieces.size()];
        return line;
    }

    // Every line of the sample, the fixtures and the real logs (where present) that `wanted` picks,
    // through `holds`: empty when it holds for each, else the first file and line where it does not.
    static QString firstLogLineWhereNot(const std::function<bool(std::string_view)>& wanted,
                                        const std::function<bool(std::string_view)>& holds)
    {
        QStringList roots{QStringLiteral(RANKLINE_RESOURCES_DIR "/samples"),
                          QStringLiteral(RANKLINE_TEST_DATA_DIR)};
        if (QDir(QStringLiteral(RANKLINE_REALLOGS_DIR)).exists())
            roots << QStringLiteral(RANKLINE_REALLOGS_DIR);
        for (const QString& root : roots) {
            Bundle b = readBundle({root.toStdString()});
            for (auto& src : b.sources) {
                indexLines(src);
                for (std::uint32_t i = 0; i < src.lineCount(); ++i) {
                    const std::string_view line = src.line(i);
                    if (wanted(line) && !holds(line))
                        return QString::fromStdString(src.displayPath) + QStringLiteral(":%1: ").arg(i + 1) +
                               QString::fromUtf8(line.data(), static_cast<int>(line.size()));
                }
            }
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    // Each rule of the table against a line built from the format strings it cites.
    void lineClues_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("expected"); // sorted "id display" pairs joined by " | "
        QTest::newRow("bootstrap 2.23-") << "gpu-a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.11<0>"
                                         << "bootstrap-space ≤ 2.23.4";
        QTest::newRow("bootstrap 2.24+") << "gpu-a:1:1 [0] NCCL INFO Bootstrap: Using eth0:10.0.0.11<0>"
                                         << "bootstrap-nospace ≥ 2.24.3";
        QTest::newRow("bootstrap 2.7 list")
            << "worker:1:1 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.41<0> [1]veth2:fe80::1%veth2<0>"
            << "bootstrap-list ≤ 2.7.x | bootstrap-space ≤ 2.23.4";
        QTest::newRow("init 2.18.3-2.20.5")
            << "gpu-a:1:2 [0] NCCL INFO comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 1b000 "
               "commId 0x3f9a1c6e27b4d851 - Init START"
            << "init-nvmldev 2.18.3–2.20.5 | init-start ≥ 2.18.3";
        QTest::newRow("init 2.16-2.18.1")
            << "gpu-a:1:2 [0] NCCL INFO comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev 0 busId 1b000 commId "
               "0x3f9a1c6e27b4d851 - Init COMPLETE"
            << "init-commid 2.16.2–2.18.1";
        QTest::newRow("init 2.15-") << "gpu-a:1:2 [0] NCCL INFO comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev "
                                       "0 busId 1b000 - Init COMPLETE"
                                    << "init-plain ≤ 2.15.x";
        QTest::newRow("init api name")
            << "gpu-a:1:2 [0] NCCL INFO ncclCommInitRankConfig comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev 0 "
               "nvmlDev 0 busId 1b000 commId 0x3f9a1c6e27b4d851 - Init START"
            << "init-api-name ≥ 2.21.5 | init-start ≥ 2.18.3";
        QTest::newRow("init rank prefix")
            << "gpu-a:1:2 [0] NCCL INFO [Rank 0] ncclCommInitRank comm 0x55b7e3a41f30 rank 0 nranks 8 "
               "cudaDev 0 "
               "nvmlDev 0 busId 1b000 commId 0x3f9a1c6e27b4d851 - Init START"
            << "init-api-name ≥ 2.21.5 | init-rank-prefix ≥ 2.29.2 | init-start ≥ 2.18.3";
        // Init lines are read by hand where they start the message, by the regex elsewhere: both agree.
        QTest::newRow("init phase after a later commId")
            << "gpu-a:1:2 [0] NCCL INFO comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev 0 busId 1b000 - Init "
               "START "
               "commId 0x1 - Init COMPLETE"
            << "init-commid 2.16.2–2.18.1";
        QTest::newRow("init second commId") << "gpu-a:1:2 [0] NCCL INFO comm (nil) rank 0 nranks 8 cudaDev "
                                               "-1 nvmlDev 0 busId 1b000 commId 0x1 "
                                               "x commId 0x2 - Init START"
                                            << "init-nvmldev 2.18.3–2.20.5 | init-start ≥ 2.18.3";
        QTest::newRow("init after other text")
            << "gpu-a:1:2 [0] NCCL INFO note: [Rank 0] comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev 0 busId "
               "1b000 commId 0x3f - Init START"
            << "init-commid 2.16.2–2.18.1 | init-rank-prefix ≥ 2.29.2 | init-start ≥ 2.18.3";
        QTest::newRow("init with UTF-8")
            << "gpu-a:1:2 [0] NCCL INFO ncclCommInitRank comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev 0 busId "
               "1b000 caf\xc3\xa9 commId 0x3f - Init COMPLETE"
            << "init-api-name ≥ 2.21.5";
        // An Init line spares the rules' automaton: none can match a message that starts "[Rank ",
        // "comm " or an API name and a space, except ncclos-socket on a name spelled that way.
        QTest::newRow("init api name the rules match")
            << "gpu-a:1:2 [0] NCCL INFO ncclOsSocketInit comm 0x55b7e3a41f30 rank 0 nranks 8 cudaDev 0 "
               "busId 1b000 - Init COMPLETE"
            << "init-api-name ≥ 2.21.5 | ncclos-socket ≥ 2.29.2";
        QTest::newRow("teardown is no init line") << "gpu-a:1:2 [0] NCCL INFO comm 0x55b7e3a41f30 rank 0 "
                                                     "nranks 8 cudaDev 0 busId 1b000 - Abort COMPLETE"
                                                  << "";
        QTest::newRow("2.26 stamped WARN, 2.24-2.26 retry count")
            << "[2025-03-20 14:02:11] gpu-b:39964:40075 [3] misc/socket.cc:544 NCCL WARN socketPollConnect: "
               "connect "
               "returned Connection refused, exceeded error retry count (35)"
            << "nccl-timestamp ≥ 2.26.2 | retry-exceeded 2.24.3–2.26.x | socket-state-machine 2.16.2–2.28.x";
        QTest::newRow("2.30.7 WARN")
            << "[2026-01-10 09:15:42] gpu-b:39964:40075 [3] os/linux.cc:288 (socketConnectCheck) NCCL WARN "
               "ncclOsSocketPollConnect: connect to 10.0.0.11<45763> returned Connection refused, exceeded "
               "error "
               "retry count after 35 attempts"
            << "nccl-timestamp ≥ 2.26.2 | ncclos-socket ≥ 2.29.2 | os-linux-file ≥ 2.29.2 | "
               "retry-exceeded-address "
               "≥ 2.27.3 | warn-function ≥ 2.30.7";
        QTest::newRow("2.24 retry INFO") << "gpu-b:39964:40075 [3] NCCL INFO socketPollConnect: connect "
                                            "returned Connection refused, retrying "
                                            "(1/34) after sleep for 100 msec"
                                         << "retry-count 2.24.3–2.26.x | socket-state-machine 2.16.2–2.28.x";
        QTest::newRow("2.20-2.23 poll errno")
            << "gpu-b:1:2 [3] misc/socket.cc:535 NCCL WARN socketPollConnect: Connect to 10.0.0.11<45763> "
               "returned "
               "113(No route to host) errno 115(Operation now in progress)"
            << "poll-connect-errno 2.20.3–2.23.4 | socket-state-machine 2.16.2–2.28.x";
        QTest::newRow("old retry INFO")
            << "gpu:1:2 [0] NCCL INFO Call to connect returned Connection refused, retrying"
            << "call-to-connect ≤ 2.23.4";
        QTest::newRow("Net : 2.15-") << "gpu:1:2 [0] misc/socket.cc:456 NCCL WARN Net : Connect to "
                                        "10.0.0.2<4000> failed : Connection refused"
                                     << "net-colon ≤ 2.15.5";
        QTest::newRow("bare text after Last error")
            << "socketStartConnect: Connect to 10.0.0.11<45763> failed : Software caused connection abort"
            << "socket-state-machine 2.16.2–2.28.x";
        QTest::newRow("IB error form") << "host:1:2 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got "
                                          "completion from peer 10.0.35.1<49189> "
                                          "with error 12, opcode 0, len 0, vendor err 129 (Recv)"
                                       << "ib-error ≤ 2.19.4";
        QTest::newRow("IB 2.22-2.28.3") << "host:1:2 [0] transport/net_ib.cc:2244 NCCL WARN NET/IB: Got "
                                           "completion from peer 10.0.35.1<49189> "
                                           "with status=12 opcode=0 len=0 vendor err 129 (Recv) hca mlx5_0"
                                        << "ib-status 2.22.3–2.28.3";
        // An external plugin prints its own text: nothing about NCCL's version.
        QTest::newRow("plugin WARN")
            << "kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer "
               "10.0.35.1<49189> with error 4, opcode 5327, len 5327, vendor err 81 (Send)"
            << "";
        // The proxy WARN's source line: each release prints it at its own line of src/proxy.cc
        // (real logs 018 and 019 say 2.13.4 and 2.14.3, as their reporters do).
        QTest::newRow("proxy WARN 2.13.4")
            << "host:22337:22453 [6] proxy.cc:1097 NCCL WARN [Proxy Service 14] "
               "Failed to execute operation Connect from rank 14, retcode 2"
            << "proxy-warn-line 2.13.4";
        QTest::newRow("proxy WARN 2.18.3-2.18.6") << "h:922:1158 [3] proxy.cc:1519 NCCL WARN [Proxy Service "
                                                     "11] Failed to execute operation Connect "
                                                     "from rank 11, retcode 2"
                                                  << "proxy-warn-line 2.18.3–2.18.6";
        QTest::newRow("proxy WARN at a line no release has")
            << "h:922:1158 [3] proxy.cc:1520 NCCL WARN [Proxy Service 11] Failed to execute operation "
               "Connect "
               "from rank 11, retcode 2"
            << "";
        QTest::newRow("another proxy WARN at that line")
            << "h:922:1158 [3] proxy.cc:1519 NCCL WARN [Proxy Service] Poll failed: Interrupted system call"
            << "";
        QTest::newRow("send-side progress 2.24-2.28")
            << "[2025-11-24 11:20:21] gpu-server320 [5] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call "
               "to send "
               "to 10.44.137.149<52905> failed : Connection reset by peer"
            << "nccl-timestamp ≥ 2.26.2 | progress-send 2.24.3–2.28.x";
    }
    void lineClues()
    {
        QFETCH(QString, line);
        QFETCH(QString, expected);
        QCOMPARE(joined(clueIds(line.toStdString())), expected);
    }

    void connectAbortTable()
    {
        auto c = connectAbortClue(483, 564);
        QVERIFY(c);
        QCOMPARE(QString::fromStdString(c->display()), QStringLiteral("2.18.3–2.18.6"));
        QCOMPARE(QString::fromStdString(connectAbortClue(485, 569)->display()), QStringLiteral("2.23.4"));
        QVERIFY(!connectAbortClue(483, 565));
        QCOMPARE(QString::fromStdString(rangeDisplay({{2, 16, 2}, {2, 28, 999}})),
                 QStringLiteral("2.16.2–2.28.x"));
        QVERIFY(!intersect({{2, 24, 3}, {999, 0, 0}}, {{0, 0, 0}, {2, 23, 4}}));
        // The proxy WARN's lines: one release, a family, and v2.30.7's two-line call (not read).
        QCOMPARE(QString::fromStdString(rangeDisplay(*proxyWarnFamily(1119))),
                 QStringLiteral("2.14.3–2.15.5"));
        QCOMPARE(QString::fromStdString(rangeDisplay(*proxyWarnFamily(1734))), QStringLiteral("2.28.9"));
        QVERIFY(!proxyWarnFamily(1905));
    }

    void addresses_data()
    {
        QTest::addColumn<QString>("interface");
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("kinds");
        QTest::addColumn<QString>("subnet");
        QTest::newRow("eth0") << "eth0"
                              << "10.0.0.11"
                              << ""
                              << "10.0.0.0/24";
        QTest::newRow("lo") << "lo"
                            << "127.0.0.1"
                            << "loopback"
                            << "";
        QTest::newRow("::1") << "lo"
                             << "::1"
                             << "loopback"
                             << "";
        QTest::newRow("docker0") << "docker0"
                                 << "172.17.0.2"
                                 << "docker"
                                 << "172.17.0.0/24";
        QTest::newRow("br-") << "br-3f2a"
                             << "172.18.0.1"
                             << "docker"
                             << "172.18.0.0/24";
        QTest::newRow("veth") << "veth25f2e72"
                              << "fe80::380d:bfff:fe5b:54d2%veth25f2e72"
                              << "veth,link-local"
                              << "";
        QTest::newRow("169.254") << "eth0"
                                 << "169.254.3.7"
                                 << "link-local"
                                 << "";
        QTest::newRow("ipv6 global") << "ib0"
                                     << "2001:db8:1:2::5"
                                     << ""
                                     << "2001:db8:1:2::/64";
    }
    void addresses()
    {
        QFETCH(QString, interface);
        QFETCH(QString, address);
        QFETCH(QString, kinds);
        QFETCH(QString, subnet);
        QStringList got;
        for (const auto& k : addressKinds(interface.toStdString(), address.toStdString()))
            got << QString::fromStdString(k);
        QCOMPARE(got.join(QLatin1Char(',')), kinds);
        QCOMPARE(QString::fromStdString(assumedSubnet(address.toStdString())), subnet);
    }

    // Two ranks print different version lines: the disagreement is evidence in the Analysis.
    void versionMismatch()
    {
        auto a = analyze(fixture("mismatch"));
        QCOMPARE(a->nccl.mismatch.size(), std::size_t{2});
        json d = json::parse(diagnosisJson(*a));
        const json& m = d["nccl"]["mismatch"];
        QCOMPARE(m.size(), std::size_t{2});
        QStringList seen;
        for (const auto& g : m) {
            seen << str(g["version"]) + QLatin1Char('@') + QString::number(g["ranks"][0].get<int>());
            QVERIFY(g["file"].is_string());
            QVERIFY(g["line"].is_number());
        }
        seen.sort();
        QCOMPARE(seen.join(QLatin1Char(' ')), QStringLiteral("2.18.3@0 2.24.3@1"));
        QVERIFY(str(d["nccl"]["mismatch_note"]).contains(QStringLiteral("disagree")));
        QVERIFY(str(d["nccl"]["verdict"]).contains(QStringLiteral("2.24.3 on rank 1")));
        // NCCL did not say so itself (2.18.3 has no check): the version-mismatch entry's finding, as
        // context, anchored at the line of the version that disagrees with the largest group, with
        // each group's line as evidence and the disagreement as what the logs suggest.
        QVERIFY(d["initiating"].is_null());
        QCOMPARE(d["findings"].size(), std::size_t{1});
        const json& f = d["findings"][0];
        QCOMPARE(str(f["entry"]), QStringLiteral("nccl-version-mismatch"));
        QCOMPARE(str(f["role"]), QStringLiteral("context"));
        QCOMPARE(str(f["file"]), QStringLiteral("gpu-b/rank1.log"));
        QCOMPARE(f["ranks"].size(), std::size_t{2});
        QCOMPARE(f["evidence"].size(), std::size_t{2}); // one line per version, not the anchor twice
        QCOMPARE(str(f["evidence"][0]["note"]), QStringLiteral("NCCL 2.18.3 on 1 process(es)"));
        QCOMPARE(str(f["summary"]), str(d["nccl"]["mismatch_note"]));
        QCOMPARE(str(d["hypotheses"][0]["text"]), str(d["nccl"]["mismatch_note"]));
        // The incident report quotes the disagreement as the strongest finding and then gives what
        // the releases mean without saying the disagreement a second time.
        const std::string note = a->nccl.mismatchNote;
        ReportOptions plain;
        plain.redact = false; // the note as the analysis words it
        const std::string verdict = buildReport(*a, plain).verdict;
        QCOMPARE(QString::fromStdString(verdict).count(QString::fromStdString(note)), 1);
        QVERIFY2(verdict.find(a->nccl.releaseVerdict) != std::string::npos, verdict.c_str());
        QCOMPARE(a->nccl.verdict(), a->nccl.releaseVerdict + " " + note);
        // Per rank: versions, CUDA the library was built with, the driver.
        const json& r0 = d["ranks"][0];
        const json& r1 = d["ranks"][1];
        QCOMPARE(str(r0["nccl_version"]), QStringLiteral("2.18.3"));
        QCOMPARE(str(r0["nccl_version_source"]), QStringLiteral("version-line"));
        QCOMPARE(str(r0["nccl_cuda"]), QStringLiteral("12.2"));
        QCOMPARE(str(r1["nccl_cuda"]), QStringLiteral("12.6"));
        QCOMPARE(str(r1["cuda_driver"]), QStringLiteral("12.6"));
        QCOMPARE(r1["cuda_driver_code"].get<int>(), 12060);
        QCOMPARE(d["environment"]["versions"]["nccl"].size(), std::size_t{2});
        // Both ranks echo the same NCCL_SOCKET_IFNAME: one setting, no flag.
        QCOMPARE(d["environment"]["settings"].size(), std::size_t{1});
        QCOMPARE(str(d["environment"]["settings"][0]["how"]), QStringLiteral("set by environment"));
        QVERIFY(!flag(d, "setting-differs"));
    }

    // A rank without a version line is placed by the form of its lines, which rules out the other's.
    void versionMismatchFromLineForms()
    {
        json d = diagnose(fixture("range-mismatch"));
        const json& r1 = d["ranks"][1];
        QVERIFY(!r1.contains("nccl_version"));
        QCOMPARE(str(r1["nccl_version_source"]), QStringLiteral("line-forms"));
        QCOMPARE(str(r1["nccl_version_range"]["from"]), QStringLiteral("2.18.3"));
        QCOMPARE(str(r1["nccl_version_range"]["to"]), QStringLiteral("2.20.5"));
        QVERIFY(r1["nccl_version_clues"].size() >= 2);
        const json& m = d["nccl"]["mismatch"];
        QCOMPARE(m.size(), std::size_t{2});
        bool rangeGroup = false;
        for (const auto& g : m)
            if (g["version"].is_null()) {
                rangeGroup = true;
                QCOMPARE(str(g["display"]), QStringLiteral("2.18.3–2.20.5"));
                QCOMPARE(g["ranks"][0].get<int>(), 1);
            }
        QVERIFY(rangeGroup);
        // A version inferred from line forms is in the note, not a finding.
        QVERIFY(d["findings"].empty());
    }

    // Twelve hosts, twelve addresses: the text names the first eight and says how many more the
    // JSON has, rather than a line as long as the job.
    void manyInterfacesInTheText()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeRanks(dir, 12, [](int h) {
            return QStringLiteral("node%1:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.%2<0>\n")
                .arg(h)
                .arg(h + 1);
        }));
        auto a = analyze(dir.path());
        QVERIFY(a);
        const QString text = QString::fromStdString(diagnosisText(*a));
        QVERIFY2(text.contains(QStringLiteral("eth0 10.0.0.8 (rank 7 on node7); and 4 more (every one in "
                                              "--json: environment.interfaces)")),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("10.0.0.9 ")));
        QCOMPARE(json::parse(diagnosisJson(*a))["environment"]["interfaces"].size(), std::size_t{12});
    }

    // Eighty ranks: the text says how they were identified, lists the first 32 and says where the
    // rest are, so that what was skipped is not pages further down.
    void manyRanksInTheText()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeRanks(
            dir, 80, [](int) { return QStringLiteral("2025-06-12 10:00:00,000 INFO train.py:5 step 1\n"); }));
        {
            QFile bin(dir.filePath(QStringLiteral("core.bin")));
            QVERIFY(bin.open(QIODevice::WriteOnly));
            QVERIFY(bin.write(QByteArray(4096, '\0')) == 4096);
        }
        auto a = analyze(dir.path());
        QVERIFY(a);
        const QString text = QString::fromStdString(diagnosisText(*a));
        QVERIFY2(
            text.contains(QStringLiteral("Ranks:\n  80 processes, identified by file-name (80)\n  rank 0 ")),
            qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("  rank 31 ")));
        QVERIFY(!text.contains(QStringLiteral("  rank 32 ")));
        QVERIFY(text.contains(
            QStringLiteral("  and 48 more (every one in --json: ranks)\n\nSkipped:\n  core.bin")));
        QCOMPARE(json::parse(diagnosisJson(*a))["ranks"].size(), std::size_t{80});
    }

    // A failure and a disagreement on the version: the failure initiates, and the disagreement is
    // another explanation on it, whose order in time decides nothing.
    void versionMismatchBesideAFailure()
    {
        QTemporaryDir dir;
        auto put = [&](const char* name, const char* text) {
            QDir().mkpath(QFileInfo(dir.filePath(QLatin1String(name))).path());
            QFile f(dir.filePath(QLatin1String(name)));
            return f.open(QIODevice::WriteOnly) && f.write(text) > 0;
        };
        QVERIFY(put("gpu-a/rank0.log",
                    "gpu-a:1001:1001 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
                    "gpu-a:1001:1101 [0] NCCL INFO comm 0x55b7e3a41f30 rank 0 nranks 2 cudaDev 0 nvmlDev 0 "
                    "busId 1b000 commId 0x5c0a2f3b91d7e6a4 - Init START\n"
                    "gpu-a:1001:1101 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                    "10.0.0.12<43211> failed : Software caused connection abort\n"));
        QVERIFY(
            put("gpu-b/rank1.log",
                "gpu-b:2002:2002 [0] NCCL INFO NCCL version 2.24.3+cuda12.6\n"
                "gpu-b:2002:2102 [0] NCCL INFO ncclCommInitRank comm 0x5603a1c07e40 rank 1 nranks 2 cudaDev "
                "0 nvmlDev 0 busId 1b000 commId 0x5c0a2f3b91d7e6a4 - Init START\n"));
        json d = diagnose(dir.path());
        QCOMPARE(str(d["initiating"]["entry"]), QStringLiteral("nccl-socket-connect-abort"));
        const json* mixed = nullptr;
        for (const auto& f : d["findings"])
            if (f["entry"] == "nccl-version-mismatch")
                mixed = &f;
        QVERIFY(mixed);
        QCOMPARE(str((*mixed)["role"]), QStringLiteral("context"));
        const json& init = d["findings"][0]; // the initiating finding comes first
        QCOMPARE(str(init["role"]), QStringLiteral("initiating"));
        bool onInitiating = false;
        for (const auto& h : init["hypotheses"])
            onInitiating = onInitiating || (h["entry"] == "nccl-version-mismatch" &&
                                            str(h["decider"]).contains(QStringLiteral("same release")));
        QVERIFY(onInitiating);
    }

    // No version line anywhere: NCCL's own mismatch WARN names both codes (the second pair is the
    // reporter's own), and the engine's nccl-version-mismatch finding initiates.
    void versionMismatchFromNcclsWarn()
    {
        json d = diagnose(fixture("mismatch-warn"));
        QCOMPARE(str(d["initiating"]["entry"]), QStringLiteral("nccl-version-mismatch"));
        QCOMPARE(str(d["ranks"][0]["nccl_version"]), QStringLiteral("2.24.3"));
        QCOMPARE(str(d["ranks"][1]["nccl_version"]), QStringLiteral("2.26.2"));
        QCOMPARE(str(d["ranks"][1]["nccl_version_source"]), QStringLiteral("mismatch-warn"));
        QCOMPARE(d["nccl"]["mismatch"].size(), std::size_t{2});
        QCOMPARE(d["nccl"]["mismatch"][0]["line"].get<int>(), 4);
    }

    // Open ends and "every patch" are stored as numbers (0.0.0, 999.0.0, patch 999) that a reader
    // must never see ("inside the affected range 2.3.5–999.0.0" was printed).
    void versionRangesInWords()
    {
        QCOMPARE(VersionRange({2, 16, 2}, {2, 23, 4}).toString(), std::string("2.16.2–2.23.4"));
        QCOMPARE(VersionRange({2, 3, 5}, {999, 0, 0}).toString(), std::string("2.3.5 and later"));
        QCOMPARE(VersionRange({0, 0, 0}, {2, 23, 4}).toString(), std::string("up to 2.23.4"));
        QCOMPARE(VersionRange({0, 0, 0}, {999, 0, 0}).toString(), std::string("every release"));
        QCOMPARE(VersionRange({2, 23, 4}, {2, 28, 999}).toString(), std::string("2.23.4–2.28.x"));
        QCOMPARE(VersionRange({2, 24, 3}, {2, 24, 3}).toString(), std::string("2.24.3"));
    }

    // NCCL's automatic choice leaves out docker* and lo* only: a Docker network's br-<id> bridge
    // and a veth are used like real NICs, which the flags say (NVIDIA/nccl#697's two hosts).
    void bridgesNcclDoesNotLeaveOut()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int h = 0; h < 2; ++h) {
            QFile f(dir.filePath(QStringLiteral("node%1.log").arg(h)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray prefix = "node" + QByteArray::number(h) + ":77:77 [0] NCCL INFO ";
            f.write(prefix + "Bootstrap : Using bond0:192.168.1.1" + QByteArray::number(h) + "<0>\n");
            f.write(prefix + "NET/Socket : Using [0]bond0:192.168.1.1" + QByteArray::number(h) +
                    "<0> [1]br-05ab815fa14e:172.19.0.1<0> [2]veth07ee21a:10.88.0.1<0> "
                    "[3]docker0:172.17.0.1<0>\n");
        }
        json d = diagnose(dir.path());
        const json* bridge = flag(d, "docker", "br-05ab815fa14e");
        QVERIFY2(bridge, d["environment"].dump().c_str());
        QCOMPARE(str((*bridge)["severity"]), QStringLiteral("warning")); // two hosts
        QVERIFY2(str((*bridge)["detail"]).contains(QStringLiteral("leaves out only docker* and lo*")),
                 (*bridge).dump().c_str());
        const json* veth = flag(d, "veth", "veth07ee21a");
        QVERIFY(veth);
        QVERIFY2(str((*veth)["detail"]).contains(QStringLiteral("does not leave veth* interfaces out")),
                 (*veth).dump().c_str());
        const json* docker = flag(d, "docker", "docker0");
        QVERIFY(docker);
        QVERIFY(!str((*docker)["detail"]).contains(QStringLiteral("does not leave")));
    }

    void interfacesAndSettings()
    {
        json d = diagnose(fixture("interfaces"));
        QCOMPARE(d["ranks"].size(), std::size_t{7});
        const json* lo = flag(d, "loopback");
        QVERIFY(lo);
        QCOMPARE(str((*lo)["severity"]), QStringLiteral("warning")); // seven hosts
        QCOMPARE((*lo)["ranks"][0].get<int>(), 0);
        QVERIFY(flag(d, "docker", "docker0"));
        QVERIFY(flag(d, "veth", "veth3a1b2c"));
        QVERIFY(flag(d, "link-local", "eth0"));
        QVERIFY(flag(d, "link-local", "ib0"));
        const json* subnets = flag(d, "different-subnets");
        QVERIFY(subnets);
        QVERIFY(str((*subnets)["detail"]).contains(QStringLiteral("10.0.0.0/24")));
        QVERIFY(str((*subnets)["detail"]).contains(QStringLiteral("10.0.1.0/24")));
        QVERIFY(str((*subnets)["detail"]).contains(QStringLiteral("/24")));
        QVERIFY(str(d["environment"]["subnet_note"]).contains(QStringLiteral("/24")));
        const json* differs = flag(d, "setting-differs");
        QVERIFY(differs);
        QVERIFY(str((*differs)["detail"]).contains(QStringLiteral("NCCL_SOCKET_IFNAME")));
        // Settings: NCCL's own echo and the job's printed environment, each with its rank.
        QStringList settings;
        for (const auto& s : d["environment"]["settings"])
            settings << str(s["name"]) + QLatin1Char('=') + str(s["value"]) + QLatin1Char('/') +
                            str(s["how"]) + QLatin1Char('/') + QString::number(s["ranks"][0].get<int>());
        settings.sort();
        QCOMPARE(settings.join(QLatin1Char(' ')),
                 QStringLiteral("NCCL_DEBUG=INFO/printed/6 NCCL_IB_DISABLE=1/printed/6 "
                                "NCCL_IB_HCA=mlx5_0,mlx5_1/set by environment/5 "
                                "NCCL_SOCKET_IFNAME=eth0/set by environment/5 "
                                "NCCL_SOCKET_IFNAME=lo/set by environment/0"));
        // Per rank: its interfaces and the flags that name it.
        const json& r4 = d["ranks"][4];
        QCOMPARE(str(r4["interfaces"][0]["interface"]), QStringLiteral("ib0"));
        QCOMPARE(str(r4["interfaces"][0]["via"]), QStringLiteral("bootstrap"));
        QVERIFY(r4["environment_flags"] == json::array({"link-local"}));
        QVERIFY(d["ranks"][0]["environment_flags"].size() == 2); // loopback, setting-differs
        // The Analysis holds the same facts for the window.
        auto a = analyze(fixture("interfaces"));
        QCOMPARE(a->environment.ranks.size(), a->processes.size());
        QVERIFY(std::any_of(a->environment.flags.begin(), a->environment.flags.end(),
                            [](const EnvironmentFlag& f) { return f.kind == "different-subnets"; }));
    }

    void singleHostLoopbackIsANote()
    {
        json d = diagnose(fixture("single-host"));
        const json* lo = flag(d, "loopback");
        QVERIFY(lo);
        QCOMPARE(str((*lo)["severity"]), QStringLiteral("note"));
        QCOMPARE((*lo)["ranks"].size(), std::size_t{2});
        QVERIFY(!flag(d, "different-subnets"));
        // Both ranks of the job are here, on one host: the note may say so.
        QVERIFY2(str((*lo)["detail"])
                     .endsWith(QStringLiteral(
                         "Harmless while every rank runs on this one host, as all 2 do here.")),
                 qPrintable(str((*lo)["detail"])));
        // Rank 0's log alone does not show where rank 1 ran (real case pytorch#68893: a veth address
        // on rank 0, whose peer was on another host).
        json alone = diagnose(fixture("single-host") + QStringLiteral("/rank0.log"));
        const json* lo0 = flag(alone, "loopback");
        QVERIFY(lo0);
        QVERIFY2(str((*lo0)["detail"])
                     .endsWith(QStringLiteral("these logs hold 1 of the job's 2 ranks, and "
                                              "the others may run elsewhere.")),
                 qPrintable(str((*lo0)["detail"])));
    }

    // The sample prints PyTorch 2.1.0a0+29c30b1 with CUDA 12.2 on every rank, cudaDriverVersion 12020
    // on every rank, and NCCL 2.18.3+cuda12.2 on rank 0 only.
    void sampleVersions()
    {
        json d = diagnose(QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"));
        QCOMPARE(d["ranks"].size(), std::size_t{8});
        for (const auto& r : d["ranks"]) {
            QCOMPARE(str(r["torch_version"]), QStringLiteral("2.1.0a0+29c30b1"));
            QCOMPARE(str(r["torch_cuda"]), QStringLiteral("12.2"));
            QCOMPARE(str(r["cuda_driver"]), QStringLiteral("12.2"));
            QCOMPARE(r["cuda_driver_code"].get<int>(), 12020);
            QCOMPARE(str(r["interfaces"][0]["interface"]), QStringLiteral("eth0"));
        }
        QCOMPARE(str(d["ranks"][0]["nccl_cuda"]), QStringLiteral("12.2"));
        QVERIFY(!d["ranks"][1].contains("nccl_cuda"));
        QCOMPARE(str(d["ranks"][5]["nccl_version_source"]), QStringLiteral("pytorch-exception"));
        // Ranks 1-3 print no version; their Init and Bootstrap lines allow 2.18.3, so no mismatch.
        QCOMPARE(str(d["ranks"][1]["nccl_version_range_display"]), QStringLiteral("2.18.3–2.20.5"));
        QCOMPARE(d["nccl"]["mismatch"].size(), std::size_t{0});
        QVERIFY(d["nccl"]["mismatch_note"].is_null());
        QCOMPARE(d["environment"]["versions"]["torch"].size(), std::size_t{1});
        const json& nccl = d["environment"]["versions"]["nccl"];
        QCOMPARE(nccl.size(), std::size_t{2});
        QCOMPARE(str(nccl[0]["version"]), QStringLiteral("2.18.3"));
        QCOMPARE(str(nccl[1]["range"]), QStringLiteral("2.18.3–2.20.5"));
        QVERIFY(nccl[1]["version"].is_null());
        QCOMPARE(d["environment"]["versions"]["cuda_driver"][0]["ranks"].size(), std::size_t{8});
        QVERIFY(d["environment"]["flags"].empty()); // eth0, one /24, the same setting everywhere
        bool ifname = false;
        for (const auto& s : d["environment"]["settings"])
            ifname = ifname || (s["name"] == "NCCL_SOCKET_IFNAME" && s["value"] == "eth0" &&
                                s["how"] == "set" && s["ranks"].size() == 8);
        QVERIFY(ifname);
    }

    // Real logs: every clue agrees with the version the case states, and none shows a mismatch.
    void realLogsAgree()
    {
        QDir root(QStringLiteral(RANKLINE_REALLOGS_DIR));
        QFile index(root.filePath(QStringLiteral("INDEX.md")));
        if (!index.open(QIODevice::ReadOnly))
            QSKIP(qPrintable(QStringLiteral("real logs not found at %1").arg(root.path())));
        QMap<QString, QString> stated; // case prefix -> version from the index's last column
        const QRegularExpression row(QStringLiteral("^\\| \\[(\\d{3})-[^|]*\\|.*\\| ([0-9.]+) \\|\\s*$"));
        for (const QString& l : QString::fromUtf8(index.readAll()).split(QLatin1Char('\n'))) {
            auto m = row.match(l);
            if (m.hasMatch())
                stated[m.captured(1)] = m.captured(2);
        }
        QVERIFY(stated.size() >= 5);
        int checked = 0, clues = 0;
        for (const QString& dir : root.entryList({QStringLiteral("0*")}, QDir::Dirs)) {
            json d = diagnose(root.filePath(dir + QStringLiteral("/log.txt")));
            QVERIFY2(d["nccl"]["mismatch"].empty(),
                     qPrintable(dir + QStringLiteral(": ") + str(d["nccl"]["mismatch_note"])));
            const QString v = stated.value(dir.left(3));
            for (const auto& r : d["ranks"]) {
                if (!r.contains("nccl_version_clues"))
                    continue;
                for (const auto& c : r["nccl_version_clues"]) {
                    ++clues;
                    // The wording is under environment.clue_rules unless this clue's differs.
                    const QString basis =
                        c.contains("basis") ? str(c["basis"])
                                            : str(d["environment"]["clue_rules"][c["id"].get<std::string>()]);
                    QVERIFY(!basis.isEmpty());
                    QVERIFY2(c["agrees"].get<bool>(), qPrintable(dir + QStringLiteral(": ") + basis));
                    if (v.isEmpty())
                        continue;
                    auto ver = Version::parse(v.toStdString());
                    const json& range = c["range"];
                    auto from = range["from"].is_null() ? Version{0, 0, 0}
                                                        : *Version::parse(str(range["from"]).toStdString());
                    bool in = *ver >= from;
                    if (!range["to"].is_null()) {
                        QString to = str(range["to"]);
                        in = in &&
                             (to.endsWith(QLatin1String(".x"))
                                  ? *ver < Version{Version::parse(to.chopped(2).toStdString())->major,
                                                   Version::parse(to.chopped(2).toStdString())->minor + 1, 0}
                                  : *ver <= *Version::parse(to.toStdString()));
                    }
                    QVERIFY2(in, qPrintable(dir + QStringLiteral(" states NCCL ") + v +
                                            QStringLiteral(" but ") + basis));
                    ++checked;
                }
            }
        }
        qInfo("%d clues in the real logs, %d checked against a stated version", clues, checked);
        QVERIFY(checked >= 2);
        // 009 announces a veth (and its IPv6 link-local address); 014 bootstraps over fe80:: on ib0.
        json veth = diagnose(root.filePath(root.entryList({QStringLiteral("009-*")}, QDir::Dirs).value(0) +
                                           QStringLiteral("/log.txt")));
        QVERIFY(flag(veth, "veth"));
        json ib = diagnose(root.filePath(root.entryList({QStringLiteral("014-*")}, QDir::Dirs).value(0) +
                                         QStringLiteral("/log.txt")));
        QVERIFY(flag(ib, "link-local", "ib0"));
    }

    // vLLM and SGLang print the NCCL their communicator loaded in words of their own (real case
    // sgl-project/sglang#3794, whose logs have no NCCL line).
    void frameworksSayWhichNccl()
    {
        QTemporaryDir dir;
        QVERIFY(writeRanks(dir, 2, [](int r) {
            return r == 0
                       ? QStringLiteral("[2025-02-23 06:02:12 TP1] sglang is using nccl==2.21.5\n")
                       : QStringLiteral("(Worker pid=150) INFO [pynccl.py:113] vLLM is using nccl==2.28.9\n");
        }));
        const json d = diagnose(dir.path());
        QStringList versions;
        for (const auto& lv : d["nccl"]["logs"])
            versions << QString::fromStdString(lv["version"]);
        versions.sort();
        QCOMPARE(versions, QStringList({QStringLiteral("2.21.5"), QStringLiteral("2.28.9")}));
    }

    // Advice inside a message is not a setting: PyTorch's "(run with NCCL_DEBUG=INFO for details)"
    // is on nearly every NCCL error it raises, whatever NCCL_DEBUG was.
    void adviceIsNotASetting_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("settings");
        QTest::newRow("pytorch")
            << "torch.distributed.DistBackendError: NCCL error in: x.cpp:93, unhandled cuda "
               "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.29.3"
            << "";
        QTest::newRow("pytorch, invalid usage")
            << "RuntimeError: NCCL error in: x.cpp:1, invalid usage (run with NCCL_DEBUG=WARN for details)"
            << "";
        QTest::newRow("nccl nvls 2.29")
            << "Disable NVLS (NCCL_NVLS_ENABLE=0) if you wish to avoid this error in the future. "
            << "";
        QTest::newRow("nccl nvls 2.27")
            << "Do not force-enable NVLS (NCCL_NVLS_ENABLE=1) if you wish to avoid "
               "this error in the future."
            << "";
        QTest::newRow("a printed environment") << "+ export NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=eth0"
                                               << "NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=eth0";
        QTest::newRow("blocking wait names its setting")
            << "[Rank 1] Caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, "
               "Timeout(ms)=1800000) ran for 1800008 milliseconds before timing out. timed out in blocking "
               "wait "
               "(NCCL_BLOCKING_WAIT=1)."
            << "NCCL_BLOCKING_WAIT=1";
    }
    void adviceIsNotASetting()
    {
        QFETCH(QString, line);
        QFETCH(QString, settings);
        const QByteArray b = line.toUtf8();
        const std::string_view text(b.constData(), static_cast<std::size_t>(b.size()));
        for (const bool byRegex : {false, true}) {
            QStringList got;
            for (const auto& st : settingsOfLine(text, byRegex))
                got << QString::fromStdString(st.name + "=" + st.value);
            QCOMPARE(got.join(QLatin1Char(' ')), settings);
        }
    }

    // The hand-written reading of NCCL_* settings gives what the regexes give: on every line of the
    // sample, the fixtures and the real logs that names a setting, on the forms jobs print, and on
    // random lines built from the pieces the forms are made of.
    void settingsByHandAreTheRegexes()
    {
        auto same = [](std::string_view line) {
            const auto hand = settingsOfLine(line);
            const auto regex = settingsOfLine(line, true);
            bool equal = hand.size() == regex.size();
            for (std::size_t i = 0; equal && i < hand.size(); ++i)
                equal = hand[i].name == regex[i].name && hand[i].value == regex[i].value &&
                        std::string_view(hand[i].how) == regex[i].how;
            return equal;
        };
        std::size_t lines = 0, settings = 0;
        const QString differs = firstLogLineWhereNot(
            [](std::string_view line) { return line.find("NCCL_") != std::string_view::npos; },
            [&](std::string_view line) {
                ++lines;
                settings += settingsOfLine(line).size();
                return same(line);
            });
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        qInfo("%zu lines naming NCCL_*, %zu settings read", lines, settings);
        QVERIFY(settings > 10);
        for (const char* line : {
                 "env: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET TORCH_NCCL_ASYNC_ERROR_HANDLING=1 X=2",
                 "NCCL_A=\"quoted value\" NCCL_B='single' NCCL_C=\"open NCCL_D=x;y NCCL_E=(z) NCCL_F=",
                 "NCCL_A=x, NCCL_B=y,NCCL_C=z",
                 "h:1:2 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to  eth0  ",
                 "NCCL_X set to a NCCL_Y set by environment to b",
                 "NCCL_ set to a NCCL_Z9 set to b",
                 "aNCCL_A=1 _NCCL_B=2 -NCCL_C=3 NCCL_D==4 NCCL_e=5",
             })
            QVERIFY2(same(line), line);
        // Random lines: the pieces of the three forms in any order.
        const std::vector<std::string> pieces = {
            "NCCL_A", "NCCL_B_2", "NCCL_", "=", "=", "\"", "'", " ", " set to ", " set by environment to ",
            ";",      ")",        "]",     "}", "x", "\t", ",", "_", "a",        "\r",
            "9"};
        std::mt19937 rng(20261130);
        int withSettings = 0;
        for (int n = 0; n < 20000; ++n) {
            const std::string line = randomLine(rng, pieces, 14);
            QVERIFY2(same(line), line.c_str());
            withSettings += !settingsOfLine(line, true).empty();
        }
        QVERIFY2(withSettings > 2000,
                 qPrintable(QString::number(withSettings))); // the comparison is not idle
    }

    // Communicator ids are kept once: the same pointer for equal text, from any thread, whatever
    // the view it was given as; different text (case and leading zeros included) stays apart.
    void stringPoolKeepsEachDistinctStringOnce()
    {
        const std::vector<std::string> ids = {"0x98cb53c1551b2438",
                                              "0x98CB53C1551B2438",
                                              "0x098cb53c1551b2438",
                                              "0x9d863df94287ac38",
                                              "",
                                              "0x1"};
        StringPool pool;
        std::vector<const std::string*> got(ids.size() * 50);
        auto work = [&](std::size_t from) {
            for (std::size_t k = from; k < got.size(); k += 2) {
                // A view into a longer line, as the scanner's captures are.
                const std::string line = "commId " + ids[k % ids.size()] + " - Init START";
                got[k] = pool.intern(std::string_view(line).substr(7, ids[k % ids.size()].size()));
            }
        };
        std::thread other(work, 1);
        work(0);
        other.join();
        QCOMPARE(pool.size(), ids.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
            QCOMPARE(*got[k], ids[k % ids.size()]);
            QCOMPARE(got[k], got[k % ids.size()]);
        }
    }

    // The hand-written readings of PyTorch's CUDA and of listed interfaces give what their regexes
    // give: on every line of the sample, the fixtures and the real logs that could be such a line,
    // on edge forms, and on random lines built from the pieces the forms are made of.
    void environmentLinesByHandAreTheRegexes()
    {
        const std::vector<Builtin> kinds = {Builtin::TorchVersion, Builtin::BootstrapAddress,
                                            Builtin::SocketAddress, Builtin::NcclSetting};
        std::size_t cuda = 0, listed = 0;
        auto same = [&](std::string_view line) {
            for (const Builtin b : kinds) {
                const auto hand = readEnvironmentLine(b, line);
                if (hand != readEnvironmentLine(b, line, true))
                    return false;
                cuda += hand && hand->cuda;
                listed += hand ? hand->listed.size() : 0;
            }
            return true;
        };
        const QString differs = firstLogLineWhereNot(
            [](std::string_view line) {
                return line.find("CUDA") != std::string_view::npos ||
                       line.find(']') != std::string_view::npos;
            },
            same);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        qInfo("%zu CUDA versions and %zu listed interfaces read", cuda, listed);
        for (const char* line : {
                 "torch 2.1.0a0+29c30b1, CUDA 12.2, NCCL 2.18.3",
                 "PyTorch version: 2.3.1+cu121 CUDA version: 12.1",
                 "CUDA used to build PyTorch: 12.1 CUDA: 11.8",
                 "xCUDA 12.2 _CUDA 11.0 CUDA version 10.2",
                 "CUDA versionx 1.2 CUDA 1. CUDA .2 CUDA:1.2 CUDA: 3.4",
                 "CUDACUDA 9.9",
                 "Bootstrap : Using [0]eno1:172.18.40.41<0> [1]veth2:fe80::1%veth2<0>",
                 "NET/Socket : Using [0]eth0:10.0.0.2<0> [1]eth1:10.0.1.2<0>",
                 "Using [0]a:b<1>[1]c:d<2> [2]:e<3> [3]f:<4> [4]g:h<> [5]i:j<6 [x]k:l<7> [8][9]m:n<10>",
                 "Using [0]a:b<1>c<2> [1]d]e:f<3> [2]g[:h<4> [3]i:j k<5> [4]l:m\tn<6>",
             })
            QVERIFY2(same(line), line);
        // Whole forms too, so that a good share of the lines hold a match to read.
        const std::vector<std::string> pieces = {"[",
                                                 "]",
                                                 "0",
                                                 "12",
                                                 ":",
                                                 "<",
                                                 ">",
                                                 "eth0",
                                                 " ",
                                                 "10.0.0.2",
                                                 "CUDA",
                                                 " version",
                                                 "1.2",
                                                 ".",
                                                 "x",
                                                 "\t",
                                                 "_",
                                                 "Using ",
                                                 "[0]eth0",
                                                 ":1.2.3.4",
                                                 "<0>",
                                                 "\xc3\xa9",
                                                 "CUDA 12.2",
                                                 " CUDA: 11.8",
                                                 " CUDA version 10.1",
                                                 "[1]ib0:fe80::1%ib0<0>",
                                                 "[2]eno1:10.1.1.1<29500>"};
        std::mt19937 rng(20261202);
        for (int n = 0; n < 20000; ++n) {
            const std::string line = randomLine(rng, pieces, 12);
            QVERIFY2(same(line), line.c_str());
        }
        QVERIFY2(cuda > 1000 && listed > 1000, // the comparison is not idle
                 qPrintable(QStringLiteral("%1 %2").arg(cuda).arg(listed)));
    }

    // The word-at-a-time test for plain ASCII against the byte-by-byte definition, on every length
    // around the eight-byte steps, with the odd byte anywhere.
    void plainAsciiIsByteByByte()
    {
        auto reference = [](std::string_view s) {
            return std::all_of(s.begin(), s.end(),
                               [](char c) { return static_cast<unsigned char>(c) < 0x80 && c != '\n'; });
        };
        const std::string odd = {'\n', '\x80', '\xff', '\x7f', '\x0b', '\x00', '\x8a', '\x0a'};
        int plain = 0;
        for (std::size_t length = 0; length <= 40; ++length) {
            const std::string base(length, 'a');
            QCOMPARE(isPlainAscii(base), true);
            for (std::size_t at = 0; at < length; ++at)
                for (char c : odd) {
                    std::string s = base;
                    s[at] = c;
                    QCOMPARE(isPlainAscii(s), reference(s));
                    plain += reference(s);
                }
        }
        QVERIFY(plain > 0); // \x7f, \x0b and NUL are ASCII
    }

    // A thread remembers its recent answers per pool: another pool, or a new one where an old one
    // was, gives its own copy, never one the other pool keeps.
    void poolsDoNotShareAnswers()
    {
        const std::string id = "0x98cb53c1551b2438";
        StringPool first;
        const std::string* inFirst = first.intern(id);
        QCOMPARE(first.intern(id), inFirst); // answered by this thread's recent answers
        StringPool second;
        const std::string* inSecond = second.intern(id);
        QVERIFY(inSecond != inFirst);
        QCOMPARE(second.size(), std::size_t{1});
        QCOMPARE(first.intern(id), inFirst);
        for (int round = 0; round < 3; ++round) {
            // Built where a destroyed pool may have been: it keeps a copy of its own.
            auto again = std::make_unique<StringPool>();
            const std::string* kept = again->intern(id);
            QCOMPARE(*kept, id);
            QCOMPARE(again->size(), std::size_t{1});
            QVERIFY(kept != inFirst && kept != inSecond);
        }
    }

    // Equal lines share one copy, whichever thread read them; lines that differ anywhere do not.
    void poolKeepsEachDistinctLineOnce()
    {
        const std::vector<std::pair<Builtin, std::string>> lines = {
            {Builtin::NcclSetting, "h:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0"},
            {Builtin::NcclSetting, "h:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set to eth0"}, // another `how`
            {Builtin::NcclSetting, "h:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth1"},
            {Builtin::NcclSetting, "env: NCCL_DEBUG=INFO NCCL_IB_DISABLE=1"},
            {Builtin::NcclSetting, "env: NCCL_DEBUG=INFO NCCL_IB_DISABLE=0"},
            {Builtin::BootstrapAddress, "gpu-a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.11<0>"},
            {Builtin::BootstrapAddress,
             "w:1:1 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.41<0> [1]veth2:fe80::1%veth2<0>"},
            {Builtin::BootstrapAddress,
             "w:1:1 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.42<0> [1]veth2:fe80::1%veth2<0>"},
            {Builtin::BootstrapAddress, "gpu-a:1:1 [0] NCCL INFO Bootstrap: Using eth0:10.0.0.11<0>"},
            {Builtin::NcclVersion, "NCCL version 2.18.3+cuda12.2"},
            {Builtin::NcclVersion, "NCCL version 2.18.3+cuda12.1"},
        };
        // Each line read eight times, on two threads.
        EnvironmentLinePool pool;
        std::vector<const EnvironmentLine*> got(lines.size() * 8);
        auto work = [&](std::size_t from) {
            for (std::size_t k = from; k < got.size(); k += 2) {
                const auto& [b, text] = lines[k % lines.size()];
                auto read = readEnvironmentLine(b, text);
                QVERIFY2(read, text.c_str());
                got[k] = pool.intern(std::move(*read));
            }
        };
        std::thread other(work, 1);
        work(0);
        other.join();
        QCOMPARE(pool.size(), lines.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
            QCOMPARE(got[k], got[k % lines.size()]);
            auto fresh = readEnvironmentLine(lines[k % lines.size()].first, lines[k % lines.size()].second);
            QVERIFY(*got[k] == *fresh); // the kept copy says what the line says
            for (std::size_t j = 0; j < lines.size(); ++j)
                QCOMPARE(got[k] == got[j], k % lines.size() == j);
        }
        // A single interface's address is in the scanner's captures; the text adds only the form's
        // clue, which another host's line shares.
        auto sameForm = readEnvironmentLine(Builtin::BootstrapAddress,
                                            "gpu-b:2:2 [3] NCCL INFO Bootstrap : Using eth0:10.0.0.12<0>");
        QVERIFY(sameForm);
        QCOMPARE(pool.intern(std::move(*sameForm)), got[5]);
    }
};

QTEST_GUILESS_MAIN(TestEnvironment)
#include "tst_environment.moc"
