// Real logs that users posted publicly, read in place from ../shared/fixtures/reallogs (never copied
// into the project). Each case's SOURCE.md names the initiating line where the excerpt shows it.
#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "report/diagnosis_report.h"

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
        auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
        QVERIFY2(enc.ok(), enc.ok() ? "" : enc.error().message().c_str());
        m_enc = std::make_shared<const Encyclopedia>(std::move(*enc));
    }

    void connectAbort_data()
    {
        QTest::addColumn<QString>("caseId");
        QTest::addColumn<int>("abortLine");
        QTest::addColumn<QString>("host");
        // 001: proxy NET/Socket connect, abort on line 1 (SOURCE.md).
        QTest::newRow("001 proxy connect") << "001" << 1 << "ubuntu";
        // 003: the only WARN is line 17 (pid 12251); which rank started it cannot be told from this
        // excerpt (every local rank fails in bootstrap), but the abort line itself is certain.
        QTest::newRow("003 bootstrap ipv6") << "003" << 17 << "n122-246-085";
        // 004: one physical line carrying the 'Last error:' text after srun '10:' prefixes.
        QTest::newRow("004 last error, packed line") << "004" << 1 << "";
        // 058: the reference thread's single quoted line, in markdown backticks.
        QTest::newRow("058 reference thread") << "058" << 1 << "";
    }
    void connectAbort()
    {
        QFETCH(QString, caseId);
        QFETCH(int, abortLine);
        QFETCH(QString, host);
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
