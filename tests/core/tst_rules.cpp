// Sequence rules across ranks: the rank that never reached the stuck collective, the launcher's
// summary against the ranks' own logs, and competing explanations with what would decide them.
#include <QTest>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "report/diagnosis_report.h"
#include "shipped_encyclopedia.h"

using namespace rl;
using nlohmann::json;

class TestRules : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    json diagnose(const QString& rel)
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({(QStringLiteral(RANKLINE_TEST_DATA_DIR "/") + rel).toStdString()}, m_enc, o);
        return json::parse(diagnosisJson(*a));
    }
    const json* finding(const json& d, const char* entry)
    {
        for (const auto& f : d["findings"])
            if (f["entry"] == entry)
                return &f;
        return nullptr;
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

    void rankBehindTheOthers()
    {
        json d = diagnose(QStringLiteral("collective/behind"));
        const json* w = finding(d, "torch-watchdog-timeout");
        QVERIFY(w);
        QCOMPARE((*w)["suspects"].size(), std::size_t{1});
        QCOMPARE((*w)["suspects"][0]["rank"].get<int>(), 2);
        QVERIFY(QString::fromStdString((*w)["suspects"][0]["reason"]).contains(QStringLiteral("SeqNum 11")));
    }

    // torchrun's box names pid 3000 (rank 0, exit 1); rank 1's own log failed first.
    void launcherSummaryAgainstTheLogs()
    {
        json d = diagnose(QStringLiteral("collective/elastic"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        const json* e = finding(d, "torch-elastic-child-failed");
        QVERIFY(e);
        QCOMPARE(QString::fromStdString((*e)["role"]), QStringLiteral("collateral"));
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
