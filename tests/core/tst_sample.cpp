// The sample incident shipped in resources/ (described in resources/samples/connect-abort-2x4.md):
// rank 5 on gpu-b aborts its retried connect to gpu-a, everything else is collateral.
#include <QTest>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis.h"
#include "engine/scanner.h"
#include "report/diagnosis_report.h"
#include "shipped_encyclopedia.h"

using namespace rl;
using nlohmann::json;

class TestSample : public QObject
{
    Q_OBJECT
    json m_d;
    std::shared_ptr<const Analysis> m_a;

    const json* evidence(const json& finding, const char* label)
    {
        for (const auto& e : finding["evidence"])
            if (e["label"] == label)
                return &e;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        const auto enc = test::shippedEncyclopedia();
        QVERIFY(enc);
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        m_a = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}, enc, opts);
        QVERIFY(m_a);
        m_d = json::parse(diagnosisJson(*m_a));
    }

    void bundleShape()
    {
        QCOMPARE(m_d["skipped"].size(), std::size_t{0});
        QCOMPARE(m_d["ranks"].size(), std::size_t{8});
        for (int r = 0; r < 8; ++r) {
            const json& rk = m_d["ranks"][static_cast<std::size_t>(r)];
            QCOMPARE(rk["rank"].get<int>(), r);
            QCOMPARE(QString::fromStdString(rk["host"]),
                     r < 4 ? QStringLiteral("gpu-a") : QStringLiteral("gpu-b"));
            QVERIFY(rk["pid"].is_number());
            QCOMPARE(rk["files"].size(), std::size_t{1});
            QCOMPARE(QString::fromStdString(rk["files"][0]),
                     QStringLiteral("%1/rank%2.log")
                         .arg(r < 4 ? QStringLiteral("gpu-a") : QStringLiteral("gpu-b"))
                         .arg(r));
            QCOMPARE(QString::fromStdString(rk["identity_source"]), QStringLiteral("nccl-init"));
        }
    }

    // Every rank of the world communicator has its log here: nothing said about missing ones.
    void coverageComplete()
    {
        const json& c = m_d["coverage"];
        QCOMPARE(c["world_ranks"].get<int>(), 8);
        QCOMPARE(c["ranks_with_logs"].get<int>(), 8);
        QCOMPARE(c["missing_ranks"].size(), std::size_t{0});
        QCOMPARE(c["file"].get<std::string>(), std::string("gpu-a/rank0.log"));
        QCOMPARE(c["line"].get<int>(), 19); // rank 0's Init line: "nranks 8"
        QVERIFY(m_a->coverage.complete());
        QVERIFY(diagnosisText(*m_a).find("Logs of ") == std::string::npos);
    }

    // One node's folder of the two: ranks 4 to 7 (where the failure began, on rank 5) are missing,
    // and the diagnosis says so before anything else; none of the other findings can.
    void coverageOfOneNodesFolder()
    {
        const auto enc = test::shippedEncyclopedia();
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4/gpu-a"}, enc, opts);
        QVERIFY(a);
        const json d = json::parse(diagnosisJson(*a));
        const json& c = d["coverage"];
        QCOMPARE(c["world_ranks"].get<int>(), 8);
        QCOMPARE(c["ranks_with_logs"].get<int>(), 4);
        QVERIFY(c["missing_ranks"] == json::array({4, 5, 6, 7}));
        QCOMPARE(c["missing_display"].get<std::string>(), std::string("4–7"));
        const std::string text = diagnosisText(*a);
        QVERIFY2(
            text.find("Logs of 4 of the 8 ranks in NCCL's largest communicator (rank0.log:19); ranks 4–7 "
                      "have no lines here.") != std::string::npos,
            text.c_str());
        QVERIFY(text.find("Logs of ") < text.find("No initiating failure"));
    }

    // The missing ranks as ranges, the rest counted.
    void coverageDisplay()
    {
        Coverage c;
        c.worldRanks = 40;
        c.missing = {3, 9, 10, 11, 20, 21};
        QCOMPARE(c.missingDisplay(), std::string("3, 9–11, 20, 21"));
        QCOMPARE(c.missingDisplay(2), std::string("3, 9–11 and 2 more"));
        QVERIFY(!c.complete());
        c.missing.clear();
        QVERIFY(c.complete());
        c.worldRanks = 0;
        QVERIFY(c.complete());
    }

    void initiatingIsRank5()
    {
        const json& i = m_d["initiating"];
        QCOMPARE(QString::fromStdString(i["entry"]), QStringLiteral("nccl-socket-connect-abort"));
        QCOMPARE(i["rank"].get<int>(), 5);
        QCOMPARE(QString::fromStdString(i["host"]), QStringLiteral("gpu-b"));
        QCOMPARE(QString::fromStdString(i["file"]), QStringLiteral("gpu-b/rank5.log"));
        QCOMPARE(i["line"].get<int>(), 26);
    }

    void labelledEvents()
    {
        const json& f = m_d["findings"][0];
        QCOMPARE(QString::fromStdString(f["role"]), QStringLiteral("initiating"));
        QVERIFY(f["confidence"].get<double>() > 0.8);
        const json* abort = evidence(f, "aborted-retry");
        QVERIFY(abort);
        QCOMPARE(QString::fromStdString((*abort)["file"]), QStringLiteral("gpu-b/rank5.log"));
        QCOMPARE((*abort)["line"].get<int>(), 26);
        // NCCL 2.18.3 does not log the refused first attempt: the abort is the earliest connect
        // failure in the bundle, and the evidence says why.
        const json* earliest = evidence(f, "earliest-connect-failure");
        QVERIFY(earliest);
        QCOMPARE(QString::fromStdString((*earliest)["file"]), QStringLiteral("gpu-b/rank5.log"));
        QCOMPARE((*earliest)["line"].get<int>(), 26);
        QVERIFY(
            QString::fromStdString((*earliest)["note"]).contains(QStringLiteral("does not log the first")));
        const json* trail = evidence(f, "return-code-trail");
        QVERIFY(trail);
        QCOMPARE((*trail)["line"].get<int>(), 27);
    }

    // The bracketing Python stamps are 0.57 s apart: the connect failed fast, so it was refused.
    void refusedNotTimedOut()
    {
        const json& f = m_d["findings"][0];
        QCOMPARE(QString::fromStdString(f["connect_failure"]), QStringLiteral("refused"));
        bool fast = false;
        for (const auto& c : f["checklist"])
            if (c["id"] == "failed-fast")
                fast = c["status"] == "confirmed";
        QVERIFY(fast);
    }

    void collateralPointsAtRank5()
    {
        int collateral = 0;
        for (const auto& f : m_d["findings"]) {
            if (f["role"] != "collateral")
                continue;
            ++collateral;
            QCOMPARE(f["points_at"]["rank"].get<int>(), 5);
            for (const auto& r : f["ranks"])
                QVERIFY(r.get<int>() != 5);
        }
        // peer connection lost and remote error on gpu-b, watchdog timeouts on gpu-a
        QVERIFY(collateral >= 2);
        QStringList entries;
        for (const auto& f : m_d["findings"])
            if (f["role"] == "collateral")
                entries << QString::fromStdString(f["entry"]);
        QVERIFY(entries.contains(QStringLiteral("nccl-peer-connection-lost")));
        QVERIFY(entries.contains(QStringLiteral("torch-watchdog-timeout")));
        for (const auto& c : m_d["findings"][0]["checklist"])
            if (c["id"] == "collateral-points-here")
                QCOMPARE(QString::fromStdString(c["status"]), QStringLiteral("confirmed"));
    }

    void ncclVersionVerdict()
    {
        const json& n = m_d["nccl"];
        QCOMPARE(n["logs"].size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(n["logs"][0]["version"]), QStringLiteral("2.18.3"));
        bool rank0 = false, rank5 = false;
        for (const auto& r : n["logs"][0]["ranks"]) {
            rank0 |= r == 0;
            rank5 |= r == 5;
        }
        QVERIFY(rank0 && rank5);
        QCOMPARE(n["fix_applies"].get<bool>(), true);
        QVERIFY(n["local"].is_null()); // probing was switched off for this test
    }

    // Unstamped NCCL lines get the interval between their stamped neighbours.
    void inferredTimes()
    {
        const Finding* f = m_a->initiatingFinding();
        QVERIFY(f);
        const LineInfo& li = m_a->info(f->anchor);
        QCOMPARE(int(li.timeSource), int(TimeSource::Inferred));
        QVERIFY(li.time.knownLo() && li.time.knownHi());
        QCOMPARE(li.time.hi - li.time.lo, std::int64_t{569000} + 1000); // ,412 .. ,981 (+1 ms resolution)
    }

    // A scanner built beforehand (as `diagnose` builds it while the bundle is read) gives the
    // analysis analyze() gives with its own, and is used up by it; the options still apply.
    void prebuiltScannerDiagnosesTheSame()
    {
        const auto enc = test::shippedEncyclopedia();
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        Bundle b = readBundle({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"});
        auto scanner = std::make_unique<Scanner>(*enc);
        auto a = analyze(std::move(b), enc, std::move(scanner), opts);
        QVERIFY(a);
        QVERIFY(!scanner); // taken, and freed when the analysis is done
        QVERIFY(json::parse(diagnosisJson(*a)) == m_d);
        // The options reach the analysis as through the overload without a scanner.
        opts.clockOverrides.push_back({"gpu-b", 2'000'000});
        auto shifted = analyze(readBundle({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}), enc,
                               std::make_unique<Scanner>(*enc), opts);
        const json shiftedClock = json::parse(diagnosisJson(*shifted))["clock"];
        QVERIFY(shiftedClock != m_d["clock"]);
    }

    // A front end hears of each stage as it ends (app/main.cpp fits its allocator to the next).
    void afterStageNamesEachStage()
    {
        std::vector<std::string> heard;
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        opts.afterStage = [&heard](std::string_view stage) { heard.emplace_back(stage); };
        auto a = analyze(readBundle({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}),
                         test::shippedEncyclopedia(), opts);
        QVERIFY(a);
        QCOMPARE(heard.size(), a->timings.size());
        for (std::size_t i = 0; i < heard.size(); ++i)
            QCOMPARE(heard[i], a->timings[i].stage);
        QVERIFY(std::find(heard.begin(), heard.end(), "index, parse, scan") != heard.end());
        QVERIFY(std::find(heard.begin(), heard.end(), "versions, environment, local NCCL") != heard.end());
    }

    // As `rankline diagnose` loads it: the scanner is made first, then the encyclopedia lets go of
    // the fingerprints' regexes, so that the scanner's are the only ones and go with the scan.
    void releasedFingerprintsDiagnoseTheSame()
    {
        auto loaded = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
        QVERIFY(loaded.ok());
        auto scanner = std::make_unique<Scanner>(*loaded);
        loaded->releaseCompiledFingerprints();
        std::size_t fingerprints = 0;
        for (const auto& e : loaded->entries)
            for (const auto& s : e.symptoms)
                for (const auto& fp : s.fingerprints) {
                    QVERIFY(!fp.regex);
                    ++fingerprints;
                }
        QVERIFY(fingerprints > 100);
        const auto enc = std::make_shared<const Encyclopedia>(std::move(*loaded));
        // The scanner still holds them; they go with the rest of what matching needs (below).
        QVERIFY(std::all_of(scanner->patterns().begin(), scanner->patterns().end(),
                            [](const ScanPattern& p) { return p.fingerprint.regex != nullptr; }));
        AnalyzeOptions opts;
        opts.probeLocalNccl = false;
        auto a = analyze(readBundle({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}), enc,
                         std::move(scanner), opts);
        QVERIFY(a);
        QVERIFY(json::parse(diagnosisJson(*a)) == m_d);
        // A scanner made from it afterwards compiles them again (analyze() without a scanner).
        auto again = analyze(readBundle({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}), enc, opts);
        QVERIFY(again);
        QVERIFY(json::parse(diagnosisJson(*again)) == m_d);
        Scanner fresh(*enc);
        QVERIFY(std::all_of(fresh.patterns().begin(), fresh.patterns().end(),
                            [](const ScanPattern& p) { return p.fingerprint.regex != nullptr; }));
        fresh.releaseMatchers();
        QVERIFY(std::all_of(fresh.patterns().begin(), fresh.patterns().end(),
                            [](const ScanPattern& p) { return p.fingerprint.regex == nullptr; }));
        ScanHit hit;
        QVERIFY(!fresh.matchPattern(0, "NCCL version 2.18.3+cuda12.2", 0, hit)); // nothing, no crash
    }
};

QTEST_GUILESS_MAIN(TestSample)
#include "tst_sample.moc"
