// Clock alignment: difference constraints between hosts, the smallest correction, contradictions
// reported rather than hidden, and the diagnosis made on aligned time.
#include <QTest>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "report/diagnosis_report.h"
#include "shipped_encyclopedia.h"
#include "timeline/clock.h"

using namespace rl;
using nlohmann::json;

namespace
{
ClockConstraint before(const std::string& b, std::int64_t bLo, const std::string& a, std::int64_t aHi)
{
    ClockConstraint c;
    c.beforeHost = b;
    c.afterHost = a;
    c.beforeLo = bLo;
    c.afterHi = aHi;
    c.why = b + " before " + a;
    return c;
}
constexpr std::int64_t S = 1000000;
} // namespace

class TestClock : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    json diagnose(const QString& rel, std::vector<ClockOverride> overrides = {})
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        o.clockOverrides = std::move(overrides);
        auto a =
            analyzePaths({(QStringLiteral(RANKLINE_TEST_DATA_DIR "/clock/") + rel).toStdString()}, m_enc, o);
        return json::parse(diagnosisJson(*a));
    }

private slots:
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    void noConstraintsNoCorrection()
    {
        ClockModel m = solveClocks({"a", "b"}, {});
        QVERIFY(m.feasible);
        QCOMPARE(m.offsetOf("a"), std::int64_t{0});
        QCOMPARE(m.offsetOf("b"), std::int64_t{0});
        QVERIFY(!m.hosts[1].loUs && !m.hosts[1].hiUs);
    }

    void consistentClocksStayPut()
    {
        // b's report (raw 12 s) comes after a's failure (raw 10 s): nothing to correct.
        ClockModel m = solveClocks({"a", "b"}, {before("a", 10 * S, "b", 12 * S)});
        QVERIFY(m.feasible);
        QCOMPARE(m.offsetOf("b"), std::int64_t{0});
    }

    void smallestCorrection()
    {
        // b's report at raw 5 s cannot precede a's failure at raw 12 s: b runs at least 7 s behind.
        ClockModel m =
            solveClocks({"a", "b", "c"}, {before("a", 12 * S, "b", 5 * S), before("a", 12 * S, "c", 20 * S)});
        QVERIFY(m.feasible);
        const std::string ref = m.hosts[0].reference ? "a" : "b";
        QCOMPARE(QString::fromStdString(ref), QStringLiteral("a")); // most constraints
        QCOMPARE(m.offsetOf("b"), 7 * S);
        QCOMPARE(m.offsetOf("c"), std::int64_t{0});
        QCOMPARE(*m.hosts[1].loUs, 7 * S);
        QVERIFY(!m.hosts[1].hiUs);
        QCOMPARE(m.hosts[1].basis.size(), std::size_t{1});
    }

    void contradictionIsReported()
    {
        ClockModel m = solveClocks({"a", "b"}, {before("a", 20 * S, "b", 5 * S), before("b", 0, "a", 2 * S)});
        QVERIFY(!m.feasible);
        QCOMPARE(m.conflicts.size(), std::size_t{2});
        QCOMPARE(m.offsetOf("b"), std::int64_t{0});
    }

    void userOffsetWins()
    {
        ClockModel m = solveClocks({"a", "b"}, {}, {{"b", 3 * S}});
        QCOMPARE(m.offsetOf("b"), 3 * S);
        QVERIFY(m.hosts[1].userSet);
    }

    void pinnedLines()
    {
        PinnedPair pin{"a", "b", 10 * S, 14 * S}; // the same moment: b's clock is 4 s ahead
        ClockModel m = solveClocks({"a", "b"}, {}, {}, {pin});
        QCOMPARE(m.offsetOf("b") - m.offsetOf("a"), -4 * S);
    }

    // Host a's clock runs 8 s ahead. Raw, host b's later (collateral) connect abort would look first
    // and be blamed; aligned, rank 1 on host a is the initiator.
    void skewedHostIsNotBlamed()
    {
        json d = diagnose(QStringLiteral("skew"));
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("host-a/rank1.log"));
        QCOMPARE(d["initiating"]["rank"].get<int>(), 1);
        const json& hosts = d["clock"]["hosts"];
        QCOMPARE(hosts.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(hosts[1]["host"]), QStringLiteral("host-b"));
        QVERIFY(hosts[1]["offset_ms"].get<double>() >= 6999.0);
        QVERIFY(hosts[1]["lo_ms"].get<double>() >= 6999.0);
        QVERIFY(hosts[1]["hi_ms"].get<double>() <= 10001.0);
        QVERIFY(!hosts[1]["basis"].empty());

        // Without the correction (offsets forced to 0) the raw clocks blame host b.
        json raw = diagnose(QStringLiteral("skew"), {{"host-a", 0}, {"host-b", 0}});
        QCOMPARE(QString::fromStdString(raw["initiating"]["file"]), QStringLiteral("host-b/rank2.log"));
    }

    void unsatisfiableConstraintsAreReported()
    {
        json d = diagnose(QStringLiteral("contradiction"));
        QCOMPARE(d["clock"]["feasible"].get<bool>(), false);
        QVERIFY(d["clock"]["conflicts"].size() >= 2);
        QVERIFY(QString::fromStdString(d["clock"]["note"]).contains(QStringLiteral("contradict")));
        for (const auto& h : d["clock"]["hosts"])
            QCOMPARE(h["offset_ms"].get<double>(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestClock)
#include "tst_clock.moc"
