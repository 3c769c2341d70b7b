// PyTorch Flight Recorder dumps: the pickle reader on the opcodes each writer uses, and the dumps
// of a hung job read side by side (fixtures under tests/data/flight-recorder, written by
// make_dumps.py there: torch.jit's pickler, Python's pickle at protocols 2 and 4, and JSON).
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "analysis.h"
#include "bundle/pickle.h"
#include "flight/flight_recorder.h"
#include "report/diagnosis_report.h"
#include "report/incident_report.h"
#include "report/report_writers.h"
#include "shipped_encyclopedia.h"

using namespace rl;
using nlohmann::json;

namespace
{

std::string bytes(std::initializer_list<int> b)
{
    std::string s;
    for (int c : b)
        s += static_cast<char>(c);
    return s;
}

std::string le32(std::uint32_t n)
{
    std::string s;
    for (int i = 0; i < 4; ++i)
        s += static_cast<char>((n >> (8 * i)) & 0xff);
    return s;
}

// BINUNICODE, as torch.jit's pickler writes every string.
std::string binunicode(const std::string& v)
{
    return "X" + le32(static_cast<std::uint32_t>(v.size())) + v;
}

QString fixture(const char* rel)
{
    return QStringLiteral(RANKLINE_TEST_DATA_DIR "/flight-recorder/") + QString::fromLatin1(rel);
}

} // namespace

class TestFlight : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;

    // Whether some finding's hypothesis says `text`.
    static bool hypothesis(const Analysis& a, const char* text)
    {
        for (const Finding& f : a.findings)
            for (const Hypothesis& h : f.hypotheses)
                if (h.text.find(text) != std::string::npos)
                    return true;
        return false;
    }

    std::shared_ptr<const Analysis> diagnose(const QString& path)
    {
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        return analyzePaths({path.toStdString()}, m_enc, o);
    }

private slots:
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    // torch.jit's pickler: strings memoised (BINPUT) and repeated (BINGET), a list of ints built by
    // the global torch.jit._pickle.build_intlist through REDUCE, ints as BININT1/2, BININT and
    // LONG1, doubles big-endian, tuples as TUPLE2, no batching.
    void torchPickler()
    {
        std::string p = bytes({0x80, 2}) + "}q" + bytes({0}) + "(";
        p += binunicode("name") + "q" + bytes({1}) + binunicode("nccl:all_reduce") + "q" + bytes({2});
        p += binunicode("again") + "h" + bytes({2}); // the memoised string
        p += binunicode("sizes") + "c" + "torch.jit._pickle\nbuild_intlist\n" + "q" + bytes({3}) + "(](" +
             "K" + bytes({7}) + "M" + bytes({0x34, 0x12}) + "J" + le32(0xfffffffe) + "et" + "R";
        p += binunicode("ns") + bytes({0x8a, 8, 0x00, 0x10, 0xa5, 0xd4, 0xe8, 0x00, 0x00, 0x80}); // negative
        p += binunicode("big") + bytes({0x8a, 8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18});
        p += binunicode("ms") + "G" + bytes({0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18});
        p += binunicode("pg") + binunicode("0") + binunicode("default_pg") + bytes({0x86});
        p += binunicode("flags") + "]q" + bytes({4}) + "(" + bytes({0x88, 0x89}) + "Ne";
        p += "u.";
        auto v = readPickle(p, "dump");
        QVERIFY2(v, v ? "" : v.error().message().c_str());
        const json& d = *v;
        QCOMPARE(d["name"].get<std::string>(), std::string("nccl:all_reduce"));
        QCOMPARE(d["again"].get<std::string>(), std::string("nccl:all_reduce"));
        QVERIFY2(d["sizes"] == json::parse("[7, 4660, -2]"), d["sizes"].dump().c_str());
        QCOMPARE(d["ns"].get<std::int64_t>(), static_cast<std::int64_t>(0x800000e8d4a51000ULL));
        QCOMPARE(d["big"].get<std::uint64_t>(), std::uint64_t{0x1800000000000000});
        QCOMPARE(d["ms"].get<double>(), 3.141592653589793);
        QVERIFY2(d["pg"] == json::parse("[\"0\", \"default_pg\"]"), d["pg"].dump().c_str());
        QVERIFY2(d["flags"] == json::parse("[true, false, null]"), d["flags"].dump().c_str());
    }

    // Python's pickle at protocol 4 (FRAME, SHORT_BINUNICODE, MEMOIZE) and protocol 0 (text
    // operands: INT, LONG, FLOAT, STRING, PUT and GET, DICT and LIST after a MARK).
    void pythonProtocols()
    {
        std::string p4 = bytes({0x80, 4, 0x95}) + std::string(8, '\0') + "}" + bytes({0x94}) + "(" +
                         bytes({0x8c, 3}) + "key" + bytes({0x94}) + bytes({0x8c, 1}) + "v" + bytes({0x94}) +
                         bytes({0x8c, 4}) + "same" + "h" + bytes({2}) + "u.";
        auto v4 = readPickle(p4);
        QVERIFY2(v4, v4 ? "" : v4.error().message().c_str());
        QVERIFY2(*v4 == json::parse("{\"key\": \"v\", \"same\": \"v\"}"), v4->dump().c_str());

        const std::string p0 = "(dp0\nS'seq'\np1\nI42\nsS'ok'\np2\nI01\nsS'n'\np3\nL12345678901234L\n"
                               "sS'f'\np4\nF0.5\nsS'l'\np5\n(lp6\ng1\naI-3\nasS'none'\np7\nNs.";
        auto v0 = readPickle(p0);
        QVERIFY2(v0, v0 ? "" : v0.error().message().c_str());
        QVERIFY2(*v0 == json::parse(
                            "{\"seq\": 42, \"ok\": true, \"n\": 12345678901234, \"f\": 0.5,\n"
                            "                                        \"l\": [\"seq\", -3], \"none\": null}"),
                 v0->dump().c_str());
    }

    // An object the reader does not build reads as null, and the rest of the pickle still reads.
    void unknownObjectsAreNull()
    {
        const std::string p = bytes({0x80, 2}) + "}(" + binunicode("when") + "cdatetime\ndatetime\n" + ")" +
                              bytes({0x81}) + binunicode("state") + "b" + binunicode("x") + "K" + bytes({1}) +
                              "u.";
        auto v = readPickle(p);
        QVERIFY2(v, v ? "" : v.error().message().c_str());
        QVERIFY2(*v == json::parse("{\"when\": null, \"x\": 1}"), v->dump().c_str());
    }

    // What cannot be read says so, naming the file; nothing is built past the limits.
    void badPickles_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("cause");
        const std::string ok = bytes({0x80, 2}) + "}(" + binunicode("k") + binunicode("v") + "u.";
        QTest::newRow("cut short") << QByteArray::fromStdString(ok.substr(0, ok.size() - 7))
                                   << QStringLiteral("cut short");
        QTest::newRow("no STOP") << QByteArray::fromStdString(ok.substr(0, ok.size() - 1))
                                 << QStringLiteral("before its STOP");
        QTest::newRow("unknown opcode")
            << QByteArray("\x80\x02\xff.", 4) << QStringLiteral("unknown opcode 0xff");
        QTest::newRow("GET never PUT") << QByteArray("\x80\x02h\x05.", 5) << QStringLiteral("never PUT");
        QTest::newRow("APPENDS without MARK") << QByteArray("\x80\x02]K\x01"
                                                            "e.",
                                                            7)
                                              << QStringLiteral("without its MARK");
        // A list holding two references to the list before it, 64 times over: 2^64 values.
        std::string laughs = bytes({0x80, 2}) + "]q" + bytes({0});
        for (int i = 0; i < 64; ++i)
            laughs += "]" + bytes({'h', i, 'h', i}) + bytes({0x86}) + "q" + bytes({i + 1});
        laughs += ".";
        QTest::newRow("references that multiply")
            << QByteArray::fromStdString(laughs) << QStringLiteral("more than");
        std::string deep = bytes({0x80, 2});
        for (int i = 0; i < 2000; ++i)
            deep += "]";
        for (int i = 0; i < 1999; ++i)
            deep += "a";
        deep += ".";
        QTest::newRow("nested too deep")
            << QByteArray::fromStdString(deep) << QStringLiteral("nested deeper");
    }
    void badPickles()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, cause);
        auto v = readPickle(pickle.toStdString(), "nccl_trace_rank_3");
        QVERIFY(!v);
        const std::string m = v.error().message();
        QVERIFY2(m.starts_with("nccl_trace_rank_3: not a readable pickle") &&
                     m.find(cause.toStdString()) != std::string::npos,
                 m.c_str());
    }

    void rankFromFileName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("rank");
        QTest::newRow("default") << QStringLiteral("nccl_trace_rank_12") << 12;
        QTest::newRow("in a folder") << QStringLiteral("job-7/fr/nccl_trace_rank_3") << 3;
        QTest::newRow("an extension") << QStringLiteral("nccl_trace_rank_5.json") << 5;
        QTest::newRow("archive member") << QStringLiteral("dumps.tgz!trace_rank_0.pkl") << 0;
        QTest::newRow("no number") << QStringLiteral("nccl_trace") << -1;
    }
    void rankFromFileName()
    {
        QFETCH(QString, name);
        QFETCH(int, rank);
        QCOMPARE(flightDumpRank(name.toStdString()).value_or(-1), rank);
    }

    // A hang after a failed connect, logged at NCCL_DEBUG=WARN: no log line names the NCCL version
    // (no INFO, no exception), the dumps do (comm_lib_version). That version decides whether the
    // retry fix applies, and the version check of the connect abort's checklist.
    void versionFromDumps()
    {
        auto a = diagnose(fixture("connect-abort-hang"));
        QCOMPARE(a->flight.dumps.size(), std::size_t{4});
        QVERIFY(a->nccl.logs.empty());
        QCOMPARE(a->nccl.dumps.size(), std::size_t{1});
        const DumpVersion& dv = a->nccl.dumps[0];
        QCOMPARE(dv.version, (Version{2, 21, 5}));
        QCOMPARE(dv.ranks, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(dv.files.size(), std::size_t{4});
        QVERIFY(a->nccl.fixApplies.value_or(false));
        const std::string verdict = a->nccl.verdict();
        QVERIFY2(verdict.find(
                     "No version line in the logs; the Flight Recorder dumps say the job ran NCCL 2.21.5, "
                     "inside the affected range 2.16.2") != std::string::npos,
                 verdict.c_str());
        QVERIFY2(a->nccl.dumpNote.empty(), a->nccl.dumpNote.c_str());
        // Every rank's dump is inside #7, where the watchdogs wait: the hang is in the collective.
        QVERIFY(hypothesis(*a,
                           "the Flight Recorder dumps show every rank with a dump inside collective #7 and "
                           "none done with it: the hang is inside the collective"));

        const json j = json::parse(diagnosisJson(*a));
        QCOMPARE(j["initiating"]["entry"].get<std::string>(), std::string("nccl-socket-connect-abort"));
        QVERIFY2(j["nccl"]["flight_recorder"] ==
                     json::parse(
                         "[{\"files\": [\"nccl_trace_rank_0\", \"nccl_trace_rank_1\", \"nccl_trace_rank_2\", "
                         "\"nccl_trace_rank_3\"], \"ranks\": [0, 1, 2, 3], \"text\": \"2.21.5\", "
                         "\"version\": \"2.21.5\"}]"),
                 j["nccl"].dump().c_str());
        QCOMPARE(j["nccl"]["fix_applies"].get<bool>(), true);
        // Each rank's own view takes the version its dump names, its logs naming none.
        for (const auto& rk : j["ranks"]) {
            QCOMPARE(rk.value("nccl_version", std::string()), std::string("2.21.5"));
            QCOMPARE(rk.value("nccl_version_source", std::string()), std::string("flight-recorder"));
        }
        const std::string text = diagnosisText(*a);
        QVERIFY2(text.find("NCCL 2.21.5 (from its Flight Recorder dump) (ranks 0–3") != std::string::npos,
                 text.c_str());
        bool checked = false;
        for (const auto& f : j["findings"])
            if (f["entry"] == "nccl-socket-connect-abort")
                for (const auto& c : f["checklist"])
                    if (c["id"] == "version-affected") {
                        checked = true;
                        QCOMPARE(c["status"].get<std::string>(), std::string("confirmed"));
                        const std::string detail = c["detail"];
                        QVERIFY2(detail.find("NCCL 2.21.5 from this rank's Flight Recorder dump is within") !=
                                     std::string::npos,
                                 detail.c_str());
                    }
        QVERIFY(checked);

        // The report's NCCL table has the dumps' row, in every format.
        const IncidentReport r = buildReport(*a, ReportOptions{});
        QCOMPARE(r.ncclDumps.size(), std::size_t{1});
        QCOMPARE(r.ncclDumps[0].version, std::string("2.21.5"));
        QCOMPARE(r.ncclDumps[0].ranks, std::string("0–3"));
        const std::string md = reportMarkdown(r);
        QVERIFY2(md.find("| Flight Recorder | 2.21.5 | 0–3 |") != std::string::npos, md.c_str());
        QVERIFY(md.find("no version in the logs") == std::string::npos);
        const std::string html = reportHtml(r);
        QVERIFY(html.find("<tr><td>Flight Recorder</td><td>2.21.5</td><td>0–3</td>") != std::string::npos);

        // The inventory lists the dumps beside the logs: size and SHA-256 as read.
        QCOMPARE(r.dumps.size(), std::size_t{4});
        QFile f2(fixture("connect-abort-hang/nccl_trace_rank_2"));
        QVERIFY(f2.open(QIODevice::ReadOnly));
        const QByteArray raw = f2.readAll();
        QCOMPARE(r.dumps[2].path, std::string("nccl_trace_rank_2"));
        QCOMPARE(r.dumps[2].size, static_cast<std::uint64_t>(raw.size()));
        QCOMPARE(QByteArray::fromStdString(r.dumps[2].sha256),
                 QCryptographicHash::hash(raw, QCryptographicHash::Sha256).toHex());
        QCOMPARE(r.dumps[2].processes, std::string("2"));
        QVERIFY(md.find("### Flight Recorder dumps") != std::string::npos);
        QVERIFY(md.find("| `nccl_trace_rank_2` | " + std::to_string(raw.size()) + " | 2 | `" +
                        r.dumps[2].sha256 + "` |") != std::string::npos);
        QVERIFY(html.find("<h3>Flight Recorder dumps</h3>") != std::string::npos);
    }

    // Logs that name one NCCL and dumps that name another: the logs decide, and the verdict says the
    // dumps may come from another run. A dump that could not ask NCCL ("Unknown NCCL version")
    // names none.
    void dumpsDisagreeWithLogs()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 4; ++r)
            QVERIFY(QFile::copy(fixture("connect-abort-hang/nccl_trace_rank_%1").arg(r),
                                dir.filePath(QStringLiteral("nccl_trace_rank_%1").arg(r))));
        QFile log(dir.filePath(QStringLiteral("rank2.log")));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write("gpu-b:39961:39961 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
                  "gpu-b:39961:40131 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
                  "10.0.0.11<45763> failed : Software caused connection abort\n");
        log.close();
        QFile unknown(dir.filePath(QStringLiteral("nccl_trace_rank_7.json")));
        QVERIFY(unknown.open(QIODevice::WriteOnly));
        unknown.write("{\"comm_lib_version\":\"Unknown NCCL version\",\"entries\":[],\"pg_config\":{},"
                      "\"pg_status\":{},\"version\":\"2.4\"}");
        unknown.close();

        auto a = diagnose(dir.path());
        QCOMPARE(a->flight.dumps.size(), std::size_t{5});
        QCOMPARE(a->nccl.logs.size(), std::size_t{1});
        QCOMPARE(a->nccl.dumps.size(), std::size_t{1}); // 2.21.5; the unknown one names none
        QCOMPARE(a->nccl.dumps[0].ranks, (std::vector<int>{0, 1, 2, 3}));
        QVERIFY(a->nccl.fixApplies.value_or(false));
        const std::string verdict = a->nccl.verdict();
        QVERIFY2(verdict.find("The job ran NCCL 2.18.3, inside the affected range") != std::string::npos,
                 verdict.c_str());
        QVERIFY2(verdict.find(
                     "The Flight Recorder dumps of ranks 0–3 name NCCL 2.21.5, which no log line shows") !=
                     std::string::npos,
                 verdict.c_str());
        const json j = json::parse(diagnosisJson(*a));
        QCOMPARE(j["nccl"]["verdict"].get<std::string>(), verdict);
        QCOMPARE(j["nccl"]["flight_recorder"].size(), std::size_t{1});
        // Rank 2 runs what its log says; the dumps' other version is the note above, not a second
        // release among the ranks (no version-mismatch finding from a dump that may be another run's).
        for (const auto& f : j["findings"])
            QVERIFY2(f["entry"] != "nccl-version-mismatch", f.dump().c_str());
        QVERIFY(j["nccl"]["mismatch"].empty());
        for (const auto& rk : j["ranks"])
            if (rk["rank"] == 2) {
                QCOMPARE(rk["nccl_version"].get<std::string>(), std::string("2.18.3"));
                QCOMPARE(rk["nccl_version_source"].get<std::string>(), std::string("version-line"));
            }
    }

    // A hang: ranks 0, 1 and 3 wait in all-reduce #42, which rank 2 never entered. Its logs say
    // so only by their silence (the watchdog lines name the others); its dump says what it last ran.
    void rankBehind()
    {
        auto a = diagnose(fixture("rank-behind"));
        QCOMPARE(a->flight.dumps.size(), std::size_t{4});
        for (const Skipped& s : a->skipped)
            QVERIFY2(s.file.find("nccl_trace") == std::string::npos, s.reason.c_str());
        const FlightDump& d2 = a->flight.dumps[2];
        QCOMPARE(d2.rank.value_or(-1), 2);
        QCOMPARE(d2.version, std::string("2.4"));
        QCOMPARE(d2.commLibVersion, std::string("2.21.5"));
        QCOMPARE(d2.groups.size(), std::size_t{1});
        QCOMPARE(d2.groups[0].lastEnqueued, std::int64_t{41});
        QCOMPARE(d2.groups[0].lastCompleted, std::int64_t{41});
        QCOMPARE(a->flight.verdicts.size(), std::size_t{1});
        const FlightGroupVerdict& v = a->flight.verdicts[0];
        QCOMPARE(v.kind, FlightGroupVerdict::Kind::Behind);
        QCOMPARE(v.name, std::string("0"));
        QCOMPARE(v.desc, std::string("default_pg"));
        QCOMPARE(v.awaited, std::int64_t{42});
        QCOMPARE(v.awaitedOp, std::string("nccl:all_reduce"));
        QCOMPARE(v.behind(), std::vector<int>{2});
        QCOMPARE(v.waiting, (std::vector<int>{0, 1, 3}));
        QVERIFY(v.withoutDump.empty());

        const std::string sentence = flightSentence(a->flight);
        // Where each rank called them: the innermost frame outside torch (frames are innermost first).
        QVERIFY2(sentence.find(
                     "ranks 0, 1, 3 wait in collective #42 (nccl:all_reduce, called at train.py:88 in "
                     "train_step), which rank 2 never entered (its last was #41, called at train.py:88 in "
                     "train_step)") != std::string::npos,
                 sentence.c_str());
        QCOMPARE(v.sites.size(), std::size_t{4});
        QCOMPARE(v.sites[2].rank, 2);
        QCOMPARE(v.sites[2].seq, std::int64_t{41});
        QCOMPARE(v.sites[2].site.text(), std::string("/workspace/train.py:88 in train_step"));
        const json j = json::parse(diagnosisJson(*a));
        const json& fr = j["flight_recorder"];
        QCOMPARE(fr["dumps"].size(), std::size_t{4});
        QCOMPARE(fr["dumps"][2]["file"].get<std::string>(), std::string("nccl_trace_rank_2"));
        QCOMPARE(fr["dumps"][2]["groups"][0]["last_enqueued"].get<int>(), 41);
        QCOMPARE(fr["verdicts"][0]["kind"].get<std::string>(), std::string("behind"));
        QVERIFY2(fr["verdicts"][0]["behind"] == json::parse("[2]"), fr.dump().c_str());
        QVERIFY2(fr["verdicts"][0]["behind_last"] == json::parse("[{\"last_enqueued\": 41, \"rank\": 2}]"),
                 fr.dump().c_str());
        QCOMPARE(fr["sentence"].get<std::string>(), sentence);
        // Said where people read: the text, and the report's verdict.
        QVERIFY(diagnosisText(*a).find(sentence) != std::string::npos);
        QVERIFY(buildReport(*a, ReportOptions{}).verdict.find(sentence) != std::string::npos);
        // The logs are still diagnosed: the watchdog timeouts of the three waiting ranks.
        QCOMPARE(a->sources.size(), std::size_t{4});
        QVERIFY(!a->findings.empty());
        // The watchdogs' suspect (rank 2: no timeout line of its own) and the dumps agree.
        QVERIFY2(hypothesis(*a, "the Flight Recorder dumps agree: rank 2 never entered collective #42 (last "
                                "enqueued: #41)"),
                 diagnosisText(*a).c_str());
    }

    // The logs' watchdog lines suspect a rank the dumps clear, or the dumps name another rank: the
    // hypotheses say the dumps disagree, and which way.
    void dumpsDisagreeWithWatchdogs()
    {
        // Ranks 0, 1 and 3 time out in #7; rank 2's log has no timeout (the logs suspect it), but its
        // dump shows it inside #7 with the others.
        QTemporaryDir stalled;
        QVERIFY(stalled.isValid());
        for (int r = 0; r < 4; ++r) {
            const QString dump = QStringLiteral("nccl_trace_rank_%1").arg(r);
            QVERIFY(QFile::copy(fixture("connect-abort-hang/") + dump, stalled.filePath(dump)));
            const QString log = QStringLiteral("rank%1.log").arg(r);
            QVERIFY(QFile::copy(fixture(r == 2 ? "rank-behind/" : "connect-abort-hang/") + log,
                                stalled.filePath(log)));
        }
        auto a = diagnose(stalled.path());
        QVERIFY2(hypothesis(*a, "suspect of not reaching it: the hang is inside the collective"),
                 diagnosisText(*a).c_str());
        QVERIFY(hypothesis(*a, "inside collective #7 and none done with it, rank 2 too"));

        // Ranks 0, 1 and 3 time out in #42 and rank 2 not at all (the logs suspect it); the dumps
        // (JSON form, pg_status only) say rank 2 is in #42 and rank 1 never entered it.
        QTemporaryDir behind;
        QVERIFY(behind.isValid());
        for (int r = 0; r < 4; ++r) {
            const QString log = QStringLiteral("rank%1.log").arg(r);
            QVERIFY(QFile::copy(fixture("rank-behind/") + log, behind.filePath(log)));
            QFile dump(behind.filePath(QStringLiteral("nccl_trace_rank_%1.json").arg(r)));
            QVERIFY(dump.open(QIODevice::WriteOnly));
            const int last = r == 1 ? 41 : 42;
            dump.write(QStringLiteral("{\"comm_lib_version\":\"2.21.5\",\"entries\":[],\"pg_config\":{\"0\":{"
                                      "\"desc\":\"default_pg\",\"name\":\"0\",\"ranks\":\"[0, 1, 2, 3]\"}},"
                                      "\"pg_status\":{\"0\":{\"last_completed_collective\":41,"
                                      "\"last_enqueued_collective\":%1,\"last_started_collective\":%1}},"
                                      "\"version\":\"2.4\"}")
                           .arg(last)
                           .toUtf8());
        }
        auto b = diagnose(behind.path());
        QVERIFY2(hypothesis(*b,
                            "the Flight Recorder dumps point elsewhere: rank 1 never entered collective #42 "
                            "(last enqueued: #41), where the logs suspect rank 2"),
                 diagnosisText(*b).c_str());
    }

    // Two dumps of rank 2 (another run's in a subfolder): the first by name is compared, the other
    // listed with why and what to do, and the verdict is the first run's.
    void secondDumpOfARank()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < 4; ++r) {
            const QString dump = QStringLiteral("nccl_trace_rank_%1").arg(r);
            QVERIFY(QFile::copy(fixture("rank-behind/") + dump, dir.filePath(dump)));
        }
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("run2")));
        QVERIFY(QFile::copy(fixture("mismatch/nccl_trace_rank_2"),
                            dir.filePath(QStringLiteral("run2/nccl_trace_rank_2"))));
        auto a = diagnose(dir.path());
        QCOMPARE(a->flight.dumps.size(), std::size_t{5});
        QCOMPARE(a->flight.notCompared.size(), std::size_t{1});
        QCOMPARE(a->flight.verdicts.size(), std::size_t{1});
        QCOMPARE(a->flight.verdicts[0].behind(), std::vector<int>{2});
        const auto said = std::find_if(a->skipped.begin(), a->skipped.end(),
                                       [](const Skipped& s) { return s.file == "run2/nccl_trace_rank_2"; });
        QVERIFY(said != a->skipped.end());
        QVERIFY2(said->reason.find(
                     "a second Flight Recorder dump of rank 2 (nccl_trace_rank_2 is the one compared") !=
                     std::string::npos,
                 said->reason.c_str());
        // Analysed again (the window's clock settings): said once.
        Bundle again;
        again.sources = a->sources;
        again.skipped = a->skipped;
        again.flightRead = a->flight.dumps;
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto b = analyze(std::move(again), m_enc, o);
        QCOMPARE(std::count_if(b->skipped.begin(), b->skipped.end(),
                               [](const Skipped& s) { return s.file == "run2/nccl_trace_rank_2"; }),
                 std::ptrdiff_t{1});
    }

    // The same dumps gzipped: read from memory (the reader's decompressed text), not from a file.
    void compressedDumps()
    {
        QTemporaryDir dir;
        for (int r = 0; r < 4; ++r) {
            QFile in(fixture("rank-behind/nccl_trace_rank_%1").arg(r));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray raw = in.readAll();
            const QString out = dir.filePath(QStringLiteral("nccl_trace_rank_%1.gz").arg(r));
            gzFile gz = gzopen(out.toLocal8Bit().constData(), "wb");
            QVERIFY(gz);
            QCOMPARE(gzwrite(gz, raw.constData(), static_cast<unsigned>(raw.size())),
                     static_cast<int>(raw.size()));
            gzclose(gz);
        }
        auto a = diagnose(dir.path());
        QCOMPARE(a->flight.dumps.size(), std::size_t{4});
        QCOMPARE(a->flight.verdicts.size(), std::size_t{1});
        QCOMPARE(a->flight.verdicts[0].behind(), std::vector<int>{2});
    }

    // Dumps past the small-file size (stack traces make megabytes): mapped when the folder is read,
    // not copied, and read with the others. What follows STOP (torch.jit's pickler writes tensor
    // data there) is not read.
    void largeDumps()
    {
        QTemporaryDir dir;
        for (int r = 0; r < 4; ++r) {
            QFile in(fixture("rank-behind/nccl_trace_rank_%1").arg(r));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QFile out(dir.filePath(QStringLiteral("nccl_trace_rank_%1").arg(r)));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(in.readAll() + QByteArray(256 * 1024, '\0'));
        }
        auto a = diagnose(dir.path());
        QCOMPARE(a->flight.dumps.size(), std::size_t{4});
        QCOMPARE(a->flight.verdicts.size(), std::size_t{1});
        QCOMPARE(a->flight.verdicts[0].behind(), std::vector<int>{2});
        QVERIFY(a->skipped.empty());
    }

    // At #7 ranks 0 and 1 all-reduce while 2 and 3 broadcast. Dumps by Python's pickle (protocols
    // 2 and 4; rank 1's without pg_status, so read from its entries) and one in JSON.
    void mismatch()
    {
        auto a = diagnose(fixture("mismatch"));
        QCOMPARE(a->flight.dumps.size(), std::size_t{4});
        QCOMPARE(a->flight.dumps[3].file, std::string("nccl_trace_rank_3.json"));
        QCOMPARE(a->flight.dumps[1].groups[0].lastEnqueued, std::int64_t{7});
        QCOMPARE(a->flight.dumps[1].groups[0].lastCompleted, std::int64_t{6});
        QCOMPARE(a->flight.verdicts.size(), std::size_t{1});
        const FlightGroupVerdict& v = a->flight.verdicts[0];
        QCOMPARE(v.kind, FlightGroupVerdict::Kind::Mismatch);
        QCOMPARE(v.awaited, std::int64_t{7});
        const std::vector<std::pair<int, std::string>> ops = {
            {0, "nccl:all_reduce"}, {1, "nccl:all_reduce"}, {2, "nccl:broadcast"}, {3, "nccl:broadcast"}};
        QVERIFY(v.ops == ops);
        const std::string s = flightSentence(a->flight);
        QVERIFY2(
            s.find("ranks 0, 1 nccl:all_reduce at train.py:88 in train_step, ranks 2, 3 nccl:broadcast at "
                   "eval.py:40 in evaluate") != std::string::npos,
            s.c_str());
        // In --json: each rank's call site of #7 (ranks 2 and 3 from eval.py; rank 3's dump is JSON).
        const json j = json::parse(diagnosisJson(*a));
        const json& sites = j["flight_recorder"]["verdicts"][0]["sites"];
        QCOMPARE(sites.size(), std::size_t{4});
        QVERIFY2(
            sites[3] ==
                json::parse("{\"file\": \"/workspace/eval.py\", \"function\": \"evaluate\", \"line\": 40, "
                            "\"op\": \"nccl:broadcast\", \"rank\": 3, \"seq\": 7}"),
            sites.dump().c_str());
        // No log beside the dumps: the dumps alone are diagnosed, and the report leads with them.
        QVERIFY(a->sources.empty());
        const IncidentReport r = buildReport(*a, ReportOptions{});
        QCOMPARE(r.title, std::string("Flight Recorder dumps, no logs"));
        QCOMPARE(a->hypotheses.size(), std::size_t{1});
        QCOMPARE(a->hypotheses[0].text, std::string("the bundle holds Flight Recorder dumps and no log"));
        QVERIFY2(r.verdict.starts_with(s) && r.verdict.find("The bundle holds no log") != std::string::npos &&
                     r.verdict.find(s, 1) == std::string::npos,
                 r.verdict.c_str());
    }

    // All four entered all-reduce #12 and none completed it; rank 3's dump was cut short while
    // being written: skipped with why, the other three read, rank 3 named as without a dump.
    void stalledWithATruncatedDump()
    {
        auto a = diagnose(fixture("stalled"));
        QCOMPARE(a->flight.dumps.size(), std::size_t{3});
        const auto cut = std::find_if(a->skipped.begin(), a->skipped.end(),
                                      [](const Skipped& s) { return s.file == "nccl_trace_rank_3"; });
        QVERIFY(cut != a->skipped.end());
        QVERIFY2(
            cut->reason.starts_with("a Flight Recorder dump that does not read: not a readable pickle") &&
                cut->reason.find("cut short") != std::string::npos &&
                cut->reason.find("the other ranks' dumps are still read") != std::string::npos,
            cut->reason.c_str());
        QCOMPARE(a->flight.verdicts.size(), std::size_t{1});
        const FlightGroupVerdict& v = a->flight.verdicts[0];
        QCOMPARE(v.kind, FlightGroupVerdict::Kind::Stalled);
        QCOMPARE(v.waiting, (std::vector<int>{0, 1, 2}));
        QCOMPARE(v.withoutDump, std::vector<int>{3});
        const std::string s = flightSentence(a->flight);
        QVERIFY2(s.find("none completed it") != std::string::npos &&
                     s.find("No dump of rank 3 of the group is here") != std::string::npos,
                 s.c_str());
        // Dumps and no log: the text says what is missing rather than that no failure was found,
        // and which NCCL the dumps name.
        const std::string text = diagnosisText(*a);
        for (const char* said :
             {"0 file(s), 0 lines, 0 process(es), 3 Flight Recorder dump(s)",
              "No log in the bundle to find the initiating failure in: add the ranks' logs",
              "no NCCL fix is assessed. The Flight Recorder dumps say the job ran NCCL 2.21.5.",
              "Ranks:\n  none: no log was read\n"})
            QVERIFY2(text.find(said) != std::string::npos, said);
        QVERIFY(text.find("No initiating failure identified") == std::string::npos);
    }

    // Every collective completed; two ranks wait in a send or receive (a pipeline's hang).
    void pointToPoint()
    {
        auto a = diagnose(fixture("point-to-point"));
        QCOMPARE(a->flight.dumps.size(), std::size_t{4});
        QCOMPARE(a->flight.verdicts.size(), std::size_t{1});
        const FlightGroupVerdict& v = a->flight.verdicts[0];
        QCOMPARE(v.kind, FlightGroupVerdict::Kind::PointToPoint);
        QCOMPARE(v.waiting, (std::vector<int>{1, 2}));
        const std::vector<std::pair<int, std::string>> ops = {{1, "nccl:recv 1<-0"}, {2, "nccl:send 2->3"}};
        QVERIFY(v.ops == ops);
        QCOMPARE(a->flight.dumps[1].groups[0].pendingP2pState, std::string("scheduled"));
        const std::string s = flightSentence(a->flight);
        QVERIFY2(s.find("every collective completed, but ranks 1, 2 wait in a send or receive (rank 1 "
                        "nccl:recv 1<-0, rank 2 nccl:send 2->3)") != std::string::npos,
                 s.c_str());
        const json fr = json::parse(diagnosisJson(*a))["flight_recorder"];
        QCOMPARE(fr["verdicts"][0]["kind"].get<std::string>(), std::string("point-to-point"));
        QCOMPARE(fr["verdicts"][0]["pending_p2p"].size(), std::size_t{2});
        QVERIFY(fr["verdicts"][0]["mismatch"].empty());
        QCOMPARE(fr["dumps"][2]["groups"][0]["pending_p2p"].get<std::string>(),
                 std::string("nccl:send 2->3"));
        QVERIFY(fr["dumps"][3]["groups"][0]["pending_p2p"].is_null());
    }

    // Without dumps nothing changes: the member is null.
    void noDumpsNoMember()
    {
        auto a = diagnose(fixture("rank-behind/rank0.log"));
        QVERIFY(a->flight.empty());
        QVERIFY(json::parse(diagnosisJson(*a))["flight_recorder"].is_null());
        QVERIFY(flightSentence(a->flight).empty());
    }
};

QTEST_GUILESS_MAIN(TestFlight)
#include "tst_flight.moc"
