#include <QTemporaryDir>
#include <QTest>

#include "encyclopedia/encyclopedia.h"

using namespace rl;

namespace
{
std::string entryJson(const std::string& fingerprint, const std::string& sample,
                      const std::string& related = "")
{
    return "{\"schema_version\":1,\"id\":\"x\",\"title\":\"T\",\"quick_answer\":\"Q\",\"root_cause\":\"R\","
           "\"symptoms\":[{\"id\":\"s\",\"signal\":\"sig\",\"why\":\"w\",\"phase\":\"connect\",\"primary\":"
           "true,"
           "\"fingerprints\":[{\"re\":" +
           fingerprint + ",\"on\":\"line\"}],\"samples\":[" + sample + "]}],\"related\":[" + related + "]}";
}
// An entry with a primary symptom and a second one whose extra keys are `fallbackKeys`.
std::string withFallback(const std::string& fallbackKeys, const std::string& fingerprint,
                         const std::string& sample)
{
    return "{\"schema_version\":1,\"id\":\"x\",\"title\":\"T\",\"quick_answer\":\"Q\",\"root_cause\":\"R\","
           "\"symptoms\":[{\"id\":\"s\",\"signal\":\"sig\",\"why\":\"w\",\"phase\":\"connect\",\"primary\":"
           "true,"
           "\"fingerprints\":[{\"re\":\"poll failed\",\"on\":\"line\"}],\"samples\":[\"poll failed\"]},"
           "{\"id\":\"t\",\"signal\":\"sig\",\"why\":\"w\",\"phase\":\"trail\"," +
           fallbackKeys + ",\"fingerprints\":[{\"re\":" + fingerprint + ",\"on\":\"line\"}],\"samples\":[" +
           sample + "]}]}";
}
} // namespace

class TestEncyclopedia : public QObject
{
    Q_OBJECT
    // A folder of two entries, "x" and "y", each with `xFields` / `yFields` (JSON members, each
    // with its leading comma) added, loaded; an error when a file could not be written.
    static Expected<Encyclopedia> loadTwoEntries(const QTemporaryDir& dir, const std::string& xFields,
                                                 const std::string& yFields)
    {
        for (const auto& [id, fields] :
             {std::pair{std::string("x"), xFields}, std::pair{std::string("y"), yFields}}) {
            std::string text = entryJson("\"Connect to\"", "\"Connect to x\"");
            text.replace(text.find("\"id\":\"x\""), 8, "\"id\":\"" + id + "\"");
            text.insert(text.size() - 1, fields);
            QFile f(dir.filePath(QString::fromStdString(id + ".json")));
            if (!f.open(QIODevice::WriteOnly) ||
                f.write(QByteArray::fromStdString(text)) != qint64(text.size()))
                return Error{id + ".json", "could not be written", ""};
        }
        return loadEncyclopedia(dir.path().toStdString());
    }

private slots:
    // The shipped entries load: every sample matches a fingerprint and every fingerprint a sample
    // (the loader checks both).
    void shippedEntriesLoad()
    {
        auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
        QVERIFY2(enc.ok(), enc.ok() ? "" : enc.error().message().c_str());
        QVERIFY(enc->find("nccl-socket-connect-abort"));
        QVERIFY(enc->find("nccl-peer-connection-lost"));
        QVERIFY(enc->find("torch-watchdog-timeout"));
    }

    void connectAbortEntryFacts()
    {
        auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
        QVERIFY(enc.ok());
        const Entry* e = enc->find("nccl-socket-connect-abort");
        QVERIFY(e->canInitiate);
        const AffectedVersions* v = e->affected("nccl");
        QVERIFY(v);
        QCOMPARE(v->range.from, (Version{2, 16, 2}));
        QCOMPARE(v->range.to, (Version{2, 23, 4}));
        QVERIFY(v->fixedIn && *v->fixedIn == (Version{2, 24, 3}));
        QVERIFY(e->symptom("aborted-retry"));
        QCOMPARE(QString::fromStdString(e->symptom("aborted-retry")->label), QStringLiteral("aborted-retry"));
        bool has1515 = false, hasRelease = false;
        for (const auto& r : e->references) {
            has1515 |= r.url.find("NVIDIA/nccl/issues/1515") != std::string::npos;
            hasRelease |= r.url.find("v2.24.3") != std::string::npos;
        }
        QVERIFY(has1515);
        QVERIFY(hasRelease);
        QVERIFY(!e->fixSteps.empty());
        QVERIFY(!e->verify.empty());
        QVERIFY(!e->confirm.empty());
    }

    void badEntries_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("mustMention");
        QTest::newRow("not json") << "{nope"
                                  << "not valid JSON";
        QTest::newRow("bad regex") << QString::fromStdString(
                                          entryJson("\"Connect to (unclosed\"", "\"Connect to x\""))
                                   << "does not compile";
        QTest::newRow("lookahead") << QString::fromStdString(
                                          entryJson("\"Connect (?=to)\"", "\"Connect to\""))
                                   << "does not compile";
        QTest::newRow("sample mismatch")
            << QString::fromStdString(
                   entryJson("\"Software caused connection abort\"", "\"Connection refused\""))
            << "sample: Connection refused";
        QTest::newRow("no literal") << QString::fromStdString(entryJson("\"\\\\d+\\\\.\\\\d+\"", "\"2.18\""))
                                    << "no literal text";
        QTest::newRow("no samples") << QString::fromStdString(entryJson("\"Connect to\"", ""))
                                    << "at least one fingerprint and one sample";
        // Two fingerprints, and the sample shows only the first at work.
        QTest::newRow("fingerprint without a sample")
            << QString::fromStdString(entryJson(
                   "\"Connect to\",\"on\":\"line\"},{\"re\":\"Connection refused\"", "\"Connect to x\""))
            << "no sample matches fingerprint /Connection refused/";
        // A summary's placeholder, with or without a default, must name something the engine fills.
        QTest::newRow("unknown placeholder with a default")
            << QString::fromStdString(entryJson("\"Connect to\"", "\"Connect to x\""))
                   .replace(QStringLiteral("\"root_cause\":\"R\","),
                            QStringLiteral(
                                "\"root_cause\":\"R\",\"summary\":\"{process} lost {nope|something}\","))
            << "unknown placeholder {nope}";
        // "{all:...}" lists a capture's values: it must name a capture, not what the engine fills.
        QTest::newRow("all of no capture")
            << QString::fromStdString(entryJson("\"Connect to\"", "\"Connect to x\""))
                   .replace(
                       QStringLiteral("\"root_cause\":\"R\","),
                       QStringLiteral("\"root_cause\":\"R\",\"summary\":\"{process} lost {all:process}\","))
            << "unknown placeholder {all:process}";
        QTest::newRow("quoted of no capture")
            << QString::fromStdString(entryJson("\"Connect to\"", "\"Connect to x\""))
                   .replace(
                       QStringLiteral("\"root_cause\":\"R\","),
                       QStringLiteral("\"root_cause\":\"R\",\"summary\":\"{process} lost {quoted:host}\","))
            << "unknown placeholder {quoted:host}";
        // "{pci:...}" writes a capture's bus id as the kernel does: it must name a capture.
        QTest::newRow("pci of no capture")
            << QString::fromStdString(entryJson("\"Connect to\"", "\"Connect to x\""))
                   .replace(QStringLiteral("\"root_cause\":\"R\","),
                            QStringLiteral("\"root_cause\":\"R\",\"summary\":\"{process} on {pci:bus}\","))
            << "unknown placeholder {pci:bus}";
        // "{meaning:...}" reads what a capture's value means from the entry's "meanings": both must
        // exist, and a listed capture must be said.
        QTest::newRow("meaning without meanings")
            << QString::fromStdString(entryJson("\"Connect to (?P<peer>\\\\S+)\"", "\"Connect to x\""))
                   .replace(QStringLiteral("\"root_cause\":\"R\","),
                            QStringLiteral("\"root_cause\":\"R\",\"summary\":\"{process} lost "
                                           "{meaning:peer}\","))
            << "{meaning:peer} without that capture and its meanings";
        QTest::newRow("meanings never said")
            << QString::fromStdString(entryJson("\"Connect to (?P<peer>\\\\S+)\"", "\"Connect to x\""))
                   .replace(QStringLiteral("\"root_cause\":\"R\","),
                            QStringLiteral("\"root_cause\":\"R\",\"summary\":\"{process} lost {peer}\","
                                           "\"meanings\":{\"peer\":{\"x\":\"the x host\"}},"))
            << "'meanings.peer' is listed but the summary never says {meaning:peer}";
        QTest::newRow("meaning that is no text")
            << QString::fromStdString(entryJson("\"Connect to (?P<peer>\\\\S+)\"", "\"Connect to x\""))
                   .replace(QStringLiteral("\"root_cause\":\"R\","),
                            QStringLiteral("\"root_cause\":\"R\",\"summary\":\"{process} lost "
                                           "{meaning:peer}\",\"meanings\":{\"peer\":{\"x\":3}},"))
            << "'meanings.peer.x' is not a text";
        QTest::newRow("optional part left open")
            << QString::fromStdString(entryJson("\"Connect to\"", "\"Connect to x\""))
                   .replace(QStringLiteral("\"root_cause\":\"R\","),
                            QStringLiteral("\"root_cause\":\"R\",\"summary\":\"{process} lost[[ a peer\","))
            << "optional part";
        // A rank count names its symptoms, each one the entry's.
        const QString onRanks = QString::fromStdString(entryJson("\"Connect to\"", "\"Connect to x\""));
        QTest::newRow("rank count of an unknown symptom")
            << QString(onRanks).replace(
                   QStringLiteral("\"related\""),
                   QStringLiteral("\"confirm\":[{\"id\":\"c\",\"text\":\"t\",\"evaluator\":{"
                                  "\"kind\":\"signal_on_ranks\",\"symptoms\":[\"s\",\"nope\"]}}],"
                                  "\"related\""))
            << "checklist item 'c' names unknown symptom 'nope'";
        QTest::newRow("rank count of no symptom")
            << QString(onRanks).replace(
                   QStringLiteral("\"related\""),
                   QStringLiteral("\"confirm\":[{\"id\":\"c\",\"text\":\"t\",\"evaluator\":{"
                                  "\"kind\":\"signal_on_ranks\",\"symptoms\":[]}}],"
                                  "\"related\""))
            << "checklist item 'c' names no symptom";
        QTest::newRow("presence of an unknown symptom among several")
            << QString(onRanks).replace(
                   QStringLiteral("\"related\""),
                   QStringLiteral("\"confirm\":[{\"id\":\"c\",\"text\":\"t\",\"evaluator\":{"
                                  "\"kind\":\"signal_present\",\"symptoms\":[\"s\",\"nope\"]}}],"
                                  "\"related\""))
            << "checklist item 'c' names unknown symptom 'nope'";
        QTest::newRow("absence of no symptom")
            << QString(onRanks).replace(
                   QStringLiteral("\"related\""),
                   QStringLiteral("\"confirm\":[{\"id\":\"c\",\"text\":\"t\",\"evaluator\":{"
                                  "\"kind\":\"signal_absent\",\"symptoms\":[]}}],"
                                  "\"related\""))
            << "checklist item 'c' names no symptom";
        // A known bug inside a range of behaviour names the entry's symptom that shows it, says what
        // it is, and has its versions in order; a range with a fix has none.
        auto withBug = [&](const QString& range, const QString& bug) {
            return QString(onRanks).replace(
                QStringLiteral("\"related\""),
                QStringLiteral("\"affected\":{\"versions\":[{\"component\":\"nccl\",%1,\"bugs\":[{%2}]}]},"
                               "\"related\"")
                    .arg(range, bug));
        };
        const QString behaviour = QStringLiteral("\"from\":\"2.4.8\",\"to\":null,\"fixed_in\":null");
        const QString good = QStringLiteral(
            "\"from\":\"2.18.1\",\"to\":\"2.18.5\",\"fixed_in\":\"2.18.6\",\"symptom\":\"s\",\"what\":\"w\"");
        QTest::newRow("known bug of an unknown symptom")
            << withBug(behaviour, QString(good).replace(QStringLiteral("\"symptom\":\"s\""),
                                                        QStringLiteral("\"symptom\":\"nope\"")))
            << "names unknown symptom 'nope'";
        QTest::newRow("known bug without what")
            << withBug(behaviour, QString(good).replace(QStringLiteral(",\"what\":\"w\""), QString()))
            << "has no \"what\"";
        QTest::newRow("known bug fixed before it ends")
            << withBug(behaviour,
                       QString(good).replace(QStringLiteral("\"2.18.6\""), QStringLiteral("\"2.18.5\"")))
            << "versions out of order";
        QTest::newRow("known bug without a fix")
            << withBug(behaviour,
                       QString(good).replace(QStringLiteral(",\"fixed_in\":\"2.18.6\""), QString()))
            << "field 'fixed_in' is not a version";
        QTest::newRow("known bug in a range with a fix")
            << withBug(QStringLiteral("\"from\":\"2.16.2\",\"to\":\"2.23.4\",\"fixed_in\":\"2.24.3\""), good)
            << "a range with a fix lists known bugs";
        // A fallback stands in for a primary symptom only as an NCCL '-> N' line (Symptom::fallback).
        QTest::newRow("fallback and primary")
            << QString::fromStdString(withFallback("\"primary\":true,\"fallback\":true", "\"socket\\\\.cc\"",
                                                   "\"h:1:2 [0] NCCL INFO misc/socket.cc:564 -> 2\""))
            << "symptom 't' is both primary and a fallback";
        QTest::newRow("fallback on a WARN")
            << QString::fromStdString(
                   withFallback("\"fallback\":true", "\"socket\\\\.cc\"",
                                "\"h:1:2 [0] misc/socket.cc:484 NCCL WARN Connect failed\""))
            << "an NCCL line without a return code";
        QTest::newRow("fallback without an NCCL line")
            << QString::fromStdString(
                   withFallback("\"fallback\":true", "\"socket\\\\.cc\"", "\"misc/socket.cc:564 -> 2\""))
            << "none of its samples is an NCCL return-code line";
    }
    void badEntries()
    {
        QFETCH(QString, json);
        QFETCH(QString, mustMention);
        auto e = parseEntry(json.toStdString(), "bad.json");
        QVERIFY(!e.ok());
        QString msg = QString::fromStdString(e.error().message());
        QVERIFY2(msg.contains(mustMention), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("bad.json")), qPrintable(msg));
    }

    // A fallback whose samples include a line a reporter redacted past reading still loads, as
    // long as one sample shows a return-code line the engine reads; the shipped silent-connect
    // entry has two such symptoms.
    void fallbackEntries()
    {
        auto e = parseEntry(withFallback("\"fallback\":true", "\"socket\\\\.cc:\\\\d+ -> 2\"",
                                         "\"h:1:2 [0] NCCL INFO misc/socket.cc:564 -> 2\","
                                         "\"host :22337:22453 [6] NCCL INFO misc/socket.cc:373 -> 2\""),
                            "good.json");
        QVERIFY2(e.ok(), e.ok() ? "" : e.error().message().c_str());
        QVERIFY(e->symptom("t")->fallback);
        // "{name|default}" on a known name loads.
        std::string withDefault = withFallback("\"fallback\":true", "\"socket\\\\.cc:\\\\d+ -> 2\"",
                                               "\"h:1:2 [0] NCCL INFO misc/socket.cc:564 -> 2\"");
        withDefault.insert(withDefault.find("\"symptoms\""), "\"summary\":\"{process} on {host|a host}\",");
        auto d = parseEntry(withDefault, "default.json");
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message().c_str());
        QVERIFY(!e->symptom("s")->fallback);
        auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
        QVERIFY(enc.ok());
        const Entry* silent = enc->find("nccl-connect-failed-silent");
        QVERIFY(silent);
        QVERIFY(silent->symptom("einprogress-trace")->fallback);
        QVERIFY(silent->symptom("socket-trace-no-errno")->fallback);
        QVERIFY(!silent->symptom("bootstrap-trail")->fallback);
    }

    void unknownRelatedFailsTheFolder()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("x.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            QByteArray::fromStdString(entryJson("\"Connect to\"", "\"Connect to x\"", "\"missing-entry\"")));
        f.close();
        auto enc = loadEncyclopedia(dir.path().toStdString());
        QVERIFY(!enc.ok());
        QVERIFY(QString::fromStdString(enc.error().message()).contains(QStringLiteral("missing-entry")));
    }

    // A surface names no cause, so it is never primary.
    void surfaceIsNotPrimary()
    {
        std::string text = entryJson("\"Connect to\"", "\"Connect to x\"");
        text.insert(text.find("\"primary\":true"), "\"surface\":true,");
        auto e = parseEntry(text, "bad.json");
        QVERIFY(!e.ok());
        QVERIFY2(QString::fromStdString(e.error().message())
                     .contains(QStringLiteral("both primary and a surface")),
                 e.error().message().c_str());
    }

    // "undated_consequences" names other entries.
    void undatedConsequencesAreChecked_data()
    {
        QTest::addColumn<QString>("consequences");
        QTest::addColumn<QString>("mustMention");
        QTest::newRow("unknown") << "\"missing-entry\""
                                 << "undated_consequences id 'missing-entry'";
        QTest::newRow("itself") << "\"x\""
                                << "undated_consequences id 'x'";
        QTest::newRow("another") << "\"y\""
                                 << "";
    }
    void undatedConsequencesAreChecked()
    {
        QFETCH(QString, consequences);
        QFETCH(QString, mustMention);
        QTemporaryDir dir;
        auto enc = loadTwoEntries(dir, ",\"undated_consequences\":[" + consequences.toStdString() + "]", "");
        if (mustMention.isEmpty()) {
            QVERIFY2(enc.ok(), enc.ok() ? "" : enc.error().message().c_str());
            QCOMPARE(enc->find("x")->undatedConsequences, std::vector<std::string>{"y"});
            return;
        }
        QVERIFY(!enc.ok());
        QVERIFY2(QString::fromStdString(enc.error().message()).contains(mustMention),
                 enc.error().message().c_str());
    }

    // "refines" names another entry, and two entries do not refine each other.
    void refinesIsChecked_data()
    {
        QTest::addColumn<QString>("xRefines");
        QTest::addColumn<QString>("yRefines");
        QTest::addColumn<QString>("mustMention");
        QTest::newRow("unknown") << "\"missing-entry\""
                                 << ""
                                 << "refines id 'missing-entry'";
        QTest::newRow("itself") << "\"x\""
                                << ""
                                << "refines id 'x'";
        QTest::newRow("each other") << "\"y\""
                                    << "\"x\""
                                    << "refine each other";
        QTest::newRow("one way") << "\"y\""
                                 << ""
                                 << "";
    }
    void refinesIsChecked()
    {
        QFETCH(QString, xRefines);
        QFETCH(QString, yRefines);
        QFETCH(QString, mustMention);
        QTemporaryDir dir;
        auto enc = loadTwoEntries(dir, ",\"refines\":[" + xRefines.toStdString() + "]",
                                  ",\"refines\":[" + yRefines.toStdString() + "]");
        if (mustMention.isEmpty()) {
            QVERIFY2(enc.ok(), enc.ok() ? "" : enc.error().message().c_str());
            QCOMPARE(enc->find("x")->refines, std::vector<std::string>{"y"});
            return;
        }
        QVERIFY(!enc.ok());
        QVERIFY2(QString::fromStdString(enc.error().message()).contains(mustMention),
                 enc.error().message().c_str());
    }

    void literals_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QStringList>("literals");
        QTest::addColumn<QList<bool>>("afterDigit");
        QTest::newRow("plain") << "socketStartConnect: Connect to (?P<addr>[^\\s<]+)<(?P<port>\\d+)> failed "
                                  ": Software caused connection abort"
                               << QStringList{QStringLiteral("> failed : Software caused connection abort")}
                               << QList<bool>{false};
        QTest::newRow("escaped parens")
            << "Traceback \\(most recent call last\\):"
            << QStringList{QStringLiteral("Traceback (most recent call last):")} << QList<bool>{false};
        QTest::newRow("alternatives")
            << "Broken pipe|Connection reset by peer"
            << QStringList{QStringLiteral("Broken pipe"), QStringLiteral("Connection reset by peer")}
            << QList<bool>{false, false};
        QTest::newRow("optional char")
            << "Bootstrap ?: Using" << QStringList{QStringLiteral("Bootstrap")} << QList<bool>{false};
        QTest::newRow("counted repetition")
            << "abc\\d{2,5}defgh" << QStringList{QStringLiteral("defgh")} << QList<bool>{false};
        // A group of plain text continues the run; a digit before it guards the literal.
        QTest::newRow("trail code") << "NCCL INFO \\S+:\\d+ -> (?P<code>4)\\b"
                                    << QStringList{QStringLiteral(" -> 4")} << QList<bool>{true};
        QTest::newRow("optional digits")
            << "rank \\d* -> peer" << QStringList{QStringLiteral(" -> peer")} << QList<bool>{false};
        QTest::newRow("digit in a class")
            << "x[\\d] -> peer" << QStringList{QStringLiteral(" -> peer")} << QList<bool>{false};
        QTest::newRow("optional group")
            << "abc(?:defg)? hijk" << QStringList{QStringLiteral(" hijk")} << QList<bool>{false};
    }
    void literals()
    {
        QFETCH(QString, pattern);
        QFETCH(QStringList, literals);
        auto fp = compileFingerprint(pattern.toStdString());
        QVERIFY2(fp.ok(), fp.ok() ? "" : fp.error().message().c_str());
        QFETCH(QList<bool>, afterDigit);
        QStringList got;
        for (const auto& l : fp->literals)
            got << QString::fromStdString(l);
        QCOMPARE(got, literals);
        QCOMPARE(QList<bool>(fp->literalAfterDigit.begin(), fp->literalAfterDigit.end()), afterDigit);
    }
};

QTEST_GUILESS_MAIN(TestEncyclopedia)
#include "tst_encyclopedia.moc"
