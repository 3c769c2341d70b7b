// The two prefilters (Hyperscan's literal matcher and RE2's DFA) must find exactly the same hits:
// the RE2 pass is what runs where Hyperscan is missing, and the tests are what keep them equal.
// Both must also equal the plain line-by-line match of every candidate pattern.
#include <QDir>
#include <QDirIterator>
#include <QTest>

#include <map>
#include <re2/re2.h>

#include "analysis.h"
#include "bundle/bundle.h"
#include "engine/scanner.h"
#include "shipped_encyclopedia.h"

using namespace rl;

namespace
{

std::vector<ScanHit> scanWith(const Scanner& scanner, Source& source)
{
    if (source.lineStarts.empty())
        indexLines(source);
    return scanner.scan(source);
}

bool sameHits(const std::vector<ScanHit>& x, const std::vector<ScanHit>& y, QString* why)
{
    if (x.size() != y.size()) {
        *why = QStringLiteral("%1 hits vs %2").arg(x.size()).arg(y.size());
        return false;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i].line != y[i].line || x[i].pattern != y[i].pattern || x[i].captures != y[i].captures) {
            *why = QStringLiteral("hit %1: line %2 pattern %3 vs line %4 pattern %5")
                       .arg(i)
                       .arg(x[i].line + 1)
                       .arg(x[i].pattern)
                       .arg(y[i].line + 1)
                       .arg(y[i].pattern);
            return false;
        }
    }
    return true;
}

} // namespace

class TestScanner : public QObject
{
    Q_OBJECT
    std::shared_ptr<const Encyclopedia> m_enc;
    std::unique_ptr<Scanner> m_fast;
    std::unique_ptr<Scanner> m_re2;

    void compareBundle(const std::vector<std::string>& paths, std::size_t* totalHits)
    {
        Bundle b = readBundle(paths);
        for (auto& s : b.sources) {
            const auto fast = scanWith(*m_fast, s);
            const auto slow = scanWith(*m_re2, s);
            QString why;
            QVERIFY2(sameHits(fast, slow, &why),
                     qPrintable(QString::fromStdString(s.displayPath) + ": " + why));
            // The shortcuts of a whole-source scan (the set pass, entries sharing one regex) give
            // what every candidate pattern run alone on every line gives.
            std::vector<ScanHit> alone;
            for (std::uint32_t i = 0; i < s.lineCount(); ++i)
                m_re2->matchLine(s.line(i), i, alone);
            QVERIFY2(sameHits(fast, alone, &why),
                     qPrintable(QString::fromStdString(s.displayPath) + " (line by line): " + why));
            *totalHits += fast.size();
        }
    }

    // Each line through the fast scanner (hand matchers, matches anchored at a leading literal) and
    // through the plain regexes: "" when both give the same hits, else why not. The fast scanner's
    // hits are added to `hits`.
    QString compareWithRegexes(const std::vector<const char*>& lines, std::vector<ScanHit>& hits)
    {
        for (const char* line : lines) {
            std::vector<ScanHit> fast, regex;
            m_fast->matchLine(line, 0, fast);
            m_re2->matchLine(line, 0, regex);
            QString why;
            if (!sameHits(fast, regex, &why))
                return QString::fromUtf8(line) + ": " + why;
            hits.insert(hits.end(), fast.begin(), fast.end());
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
        m_fast = std::make_unique<Scanner>(*m_enc, PrefilterKind::Hyperscan);
        m_re2 = std::make_unique<Scanner>(*m_enc, PrefilterKind::Re2);
        QCOMPARE(m_re2->prefilterKind(), PrefilterKind::Re2);
        // The slow scanner matches every pattern by its regex, the Init line and init phase ones
        // too: every comparison below also checks their hand-written matchers against the regexes.
        m_re2->setHandMatched(false);
        qInfo("fast prefilter: %s", m_fast->prefilterKind() == PrefilterKind::Hyperscan
                                        ? "Hyperscan"
                                        : "RE2 (Hyperscan not built in)");
    }

    void sampleAndFixtures()
    {
        std::size_t hits = 0;
        compareBundle({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}, &hits);
        compareBundle({RANKLINE_TEST_DATA_DIR}, &hits);
        QVERIFY2(hits > 100, qPrintable(QStringLiteral("only %1 hits in the fixtures").arg(hits)));
    }

    void realLogs()
    {
        if (!QDir(QStringLiteral(RANKLINE_REALLOGS_DIR)).exists())
            QSKIP("real logs not found (set RANKLINE_REALLOGS_DIR)");
        std::size_t hits = 0;
        compareBundle({RANKLINE_REALLOGS_DIR}, &hits);
        QVERIFY(hits > 100);
    }

    // Every literal on a line is found, wherever it sits, including lines the RE2 pass searches
    // only around its first candidate (over 128 KiB) and the last line without a line break.
    void literalsEverywhere()
    {
        const std::string abortLine =
            "gpu-b:39965:40212 [5] misc/socket.cc:484 NCCL WARN socketStartConnect: "
            "Connect to 10.0.0.3<41883> failed : Software caused connection abort";
        std::string text = "plain line\n" + abortLine + "\n";
        text += std::string(300 * 1024, 'x') + " " + abortLine + "\n"; // a huge line, literal at the end
        // Two fingerprints on one huge line, far apart: both passes look around the leftmost.
        text += "Traceback (most recent call last): " + std::string(200 * 1024, 'y') + " " + abortLine + "\n";
        text += "Traceback (most recent call last):\n";
        text += abortLine; // no final line break
        Source s = sourceFromText("literals.log", text);
        const auto fast = scanWith(*m_fast, s);
        const auto slow = scanWith(*m_re2, s);
        QString why;
        QVERIFY2(sameHits(fast, slow, &why), qPrintable(why));
        std::vector<std::uint32_t> lines;
        for (const auto& h : fast)
            if (lines.empty() || lines.back() != h.line)
                lines.push_back(h.line);
        QCOMPARE(lines, (std::vector<std::uint32_t>{1, 2, 3, 4, 5}));
    }

    // The cap callers put on repeats: a pattern refused for a line is not matched there.
    void wantSkipsPatterns()
    {
        Source s = sourceFromText("cap.log", "Traceback (most recent call last):\n"
                                             "Traceback (most recent call last):\n"
                                             "Traceback (most recent call last):\n");
        indexLines(s);
        int asked = 0;
        std::vector<std::uint32_t> kept;
        m_fast->scan(
            s,
            [&](int, std::uint32_t line) {
                ++asked;
                return line != 1;
            },
            [&](ScanHit&& h) { kept.push_back(h.line); });
        QVERIFY(asked >= 3);
        QCOMPARE(kept, (std::vector<std::uint32_t>{0, 2}));
    }

    // Once its matchers are given back a scanner finds nothing, with either prefilter, whether or
    // not it had scanned before (the RE2 prefilter is built on first use).
    void releasedScannerFindsNothing()
    {
        for (const PrefilterKind kind : {PrefilterKind::Hyperscan, PrefilterKind::Re2})
            for (const bool scannedBefore : {false, true}) {
                Scanner scanner(*m_enc, kind);
                Source s = sourceFromText("tb.log", "Traceback (most recent call last):\n");
                if (scannedBefore)
                    QCOMPARE(scanWith(scanner, s).size(), std::size_t{1});
                scanner.releaseMatchers();
                QVERIFY(scanWith(scanner, s).empty());
                std::vector<ScanHit> hits;
                scanner.matchLine("Traceback (most recent call last):", 0, hits);
                QVERIFY(hits.empty());
            }
    }

    // The hand-written Init line and init phase matchers against their regexes on the forms NCCL
    // prints and on near misses.
    void initMatchersAreTheRegexes()
    {
        const std::vector<const char*> lines = {
            "gpu-a:11:12 [3] NCCL INFO comm 0x55d0 rank 3 nranks 8 cudaDev 3 busId 1b000 commId 0x9f1 - Init "
            "START",
            "gpu-a:11:12 [3] NCCL INFO comm 0x55d0 rank 3 nranks 8 cudaDev 3 nvmlDev 3 busId 1b000 commId "
            "0x9f1 - Init "
            "COMPLETE",
            "h:1:2 [0] NCCL INFO comm (nil) rank 0 nranks 1 cudaDev -1 busId 0 - Init COMPLETE",
            "h:1:2 [0] NCCL INFO comm 0xABCdef rank 12 nranks 16 cudaDev 4 busId 0 commId 0xFFe- Init START",
            "comm 0x rank 1 nranks 2 cudaDev 0",
            "comm 0x1 rank  nranks 2 cudaDev 0",
            "comm 0x1 rank 1 nranks 2 cudaDev -",
            "comm 0x1 rank 1 nranks 2 cudaDev x; comm 0x2 rank 5 nranks 6 cudaDev 7",
            "xcomm 0x1g rank 1 nranks 2 cudaDev 0 comm (nil) rank 9 nranks 10 cudaDev 11",
            "commId 0x - Init START commId 0xab  - Init START commId 0xcd - Init COMPLETE",
            "commId 0x1 - Init STAR",
            "commId 0x1 -Init START",
            "[Rank 3] ncclCommInitRank comm 0x7f rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId 5000 commId 0x2c "
            "- Init COMPLETE",
        };
        std::vector<ScanHit> hand;
        const QString why = compareWithRegexes(lines, hand);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        int matched = 0;
        for (const auto& h : hand) {
            const Builtin b = m_fast->patterns()[static_cast<std::size_t>(h.pattern)].builtin;
            matched += b == Builtin::InitLine || b == Builtin::InitPhase;
        }
        QCOMPARE(matched, 12); // the lines above that each regex matches, counted by hand
    }

    // The other hand-written built-ins (addresses, CUDA driver, "[Rank N]", NCCL_* settings,
    // PyTorch's version) against their regexes: the forms NCCL and PyTorch print, near misses, a first
    // occurrence that fails before one that matches, and text outside ASCII, which the regex decides.
    void builtinMatchersAreTheRegexes()
    {
        const std::vector<const char*> lines = {
            "gpu-a:11:12 [3] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>",
            "gpu-a:11:12 [3] NCCL INFO Bootstrap: Using ib0:fe80::1%ib0<0>",
            "h:1:2 [0] NCCL INFO Bootstrap : Using [0]eno1:10.1.1.1<0> [1]eno2:10.2.2.2<0>",
            "Bootstrap  : Using eth0:10.0.0.2<0>",
            "Bootstrap : Using eth0 10.0.0.2<0>; Bootstrap : Using eth1:10.0.0.3<7>",
            "Bootstrap : Using :10.0.0.2<0>",
            "Bootstrap : Using eth0:<0>",
            "Bootstrap : Using eth0:10.0.0.2<>",
            "Bootstrap : Using eth0:10.0.0.2<0",
            "Bootstrap : Using eth0:10.0.0.2<0x>",
            "Bootstrap : Using \xc3\xa9th0:10.0.0.2<0>",
            "Bootstrap : Using eth0:10.0.\xff.2<0>",
            "Bootstrap : Using eth\x80"
            "0:10.0.0.2<0>",
            "h:1:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0> [1]eth1:10.0.1.2<0>",
            "NET/Socket : Using []eth0:10.0.0.2<0>",
            "NET/Socket : Using [0]eth0:10.0.0.2 NET/Socket : Using [12]ib0:10.9.9.9<0>",
            "NET/Socket : Using [0]\tth0:10.0.0.2<0>",
            "h:1:2 [0] NCCL INFO cudaDriverVersion 12020",
            "cudaDriverVersion x cudaDriverVersion 11080",
            "cudaDriverVersion ",
            "[2024-05-01 10:00:00] [Rank 3] Watchdog caught collective operation timeout",
            "] [Rank ] x ] [Rank 12] y",
            "] [Rank 3]x",
            "NCCL_SOCKET_IFNAME set by environment to eth0",
            "NCCL_IB_DISABLE set to 1",
            "export NCCL_DEBUG=INFO",
            "NCCL_ set to 1",
            "NCCL_debug=INFO NCCL_P2P_LEVEL=NVL",
            "NCCL_SOCKET_IFNAME set by env to eth0",
            "2025-06-12 14:03:10,018 INFO train.py:41 [rank5] torch 2.1.0a0+29c30b1, CUDA 12.2, NCCL 2.18.3",
            "PyTorch version: 2.1.0+cu121",
            "pip: torch==2.3.1 numpy==1.26.4",
            "Torch Version 2.0",
            "torch v2.2.0 Pytorch 2.1",
            "torch: 1.13.1",
            "(torch:1.13.1)",
            "torch version v2.1",
            "torch version: 2.1",
            "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:429: UserWarning: use_reentrant",
            "xtorch 2.1.0 xPyTorch 2.1.0 _torch 2.1 PYTorch 2.1 Torchvision 0.15",
            "torch  2.1 torch 2 torch 2. torch .2.1 torch== torch version",
            "torch x torch 2.4.0 torch 3.0",
            "torch 2.1.0a0+git\xc3\xa9",
            "\xc3\xa9torch 2.1",
            "torch 2.1.0-rc1 / torch 2.1.0A",
        };
        std::vector<ScanHit> hand;
        const QString why = compareWithRegexes(lines, hand);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        std::map<Builtin, int> matched;
        for (const auto& h : hand)
            ++matched[m_fast->patterns()[static_cast<std::size_t>(h.pattern)].builtin];
        // The lines above that each regex matches, counted by hand.
        QCOMPARE(matched[Builtin::BootstrapAddress], 5); // not the invalid UTF-8 ones
        QCOMPARE(matched[Builtin::SocketAddress], 2);
        QCOMPARE(matched[Builtin::CudaDriver], 2);
        QCOMPARE(matched[Builtin::TorchRank], 2);
        QCOMPARE(matched[Builtin::NcclSetting], 4);
        QCOMPARE(matched[Builtin::TorchVersion], 13);
    }

    // What the scanner takes for the text every match starts with: only what is plainly so.
    void leadingLiterals()
    {
        QCOMPARE(leadingLiteral(R"(NET/Socket : Using \[\d+\](?P<if>[^\s:]+))"),
                 std::string("NET/Socket : Using ["));
        QCOMPARE(leadingLiteral(R"(Bootstrap ?: Using (?P<if>\S+))"), std::string("Bootstrap"));
        QCOMPARE(leadingLiteral(R"(\] \[Rank (?P<rank>\d+)\] )"), std::string("] [Rank "));
        QCOMPARE(leadingLiteral("ab+c"), std::string("ab"));
        QCOMPARE(leadingLiteral("ab*c"), std::string("a"));
        QCOMPARE(leadingLiteral("ab{0,2}c"), std::string("a"));
        QCOMPARE(leadingLiteral("abc|def"), std::string());         // either may start a match
        QCOMPARE(leadingLiteral("abc(?:x|y)"), std::string("abc")); // an inner alternation is fine
        QCOMPARE(leadingLiteral("ab[|]c"), std::string("ab"));
        QCOMPARE(leadingLiteral(R"(ab\|c)"), std::string("ab|c"));
        QCOMPARE(leadingLiteral(R"(\bTorch)"), std::string());
        QCOMPARE(leadingLiteral(R"(\w+: connect)"), std::string());
        QCOMPARE(leadingLiteral("(?i)abc"), std::string());
        QCOMPARE(leadingLiteral("^abc"), std::string());
        QCOMPARE(leadingLiteral("\xc3\xa9t\xc3\xa9 x"), std::string()); // a non-ASCII first character
    }

    // The texts every match holds, as the scanner's second look before RE2 reads them: each run
    // outside groups, one run of each alternative of a group that must match, and nothing the
    // pattern does not plainly say.
    void requiredLiteralsOfPatterns()
    {
        using Sets = std::vector<std::vector<std::string>>;
        QCOMPARE(
            requiredLiterals(
                R"((?:Bootstrap ?|NET/Socket ): Using.*:(?P<addr>fe80:[^<\s]*|169\.254\.[\d.]+|127\.[\d.]+)<\d+>)"),
            (Sets{{"Bootstrap", "NET/Socket "}, {": Using"}, {"127.", "169.254.", "fe80:"}}));
        QCOMPARE(requiredLiterals(R"(NET/IB : (?:\S+:\d+ )?(?:Got async event : |async fatal event))"),
                 (Sets{{"NET/IB : "}, {"Got async event : ", "async fatal event"}}));
        // Runs break at quantifiers: a repeated character ends one, an optional one is left out,
        // and a counted repetition's digits are no text.
        QCOMPARE(requiredLiterals("ab+c{12}d?ef"), (Sets{{"ab"}, {"ef"}}));
        QCOMPARE(requiredLiterals("x{12,}yz"), (Sets{{"yz"}}));
        // Optional groups say nothing; a group of one alternative is part of the sequence.
        QCOMPARE(requiredLiterals(R"(q(?:abc)?zz(?:de|fg)+(?P<n>hi\d+jk))"),
                 (Sets{{"zz"}, {"de", "fg"}, {"hi"}, {"jk"}}));
        QCOMPARE(requiredLiterals("q(?:abc){2,3}zz"), (Sets{{"zz"}}));
        // An alternative with no run of two characters leaves its group out.
        QCOMPARE(requiredLiterals(R"(ab (?:\d+|xy) cd)"), (Sets{{"ab "}, {" cd"}}));
        // Escaped punctuation is text; classes, \x41, \pL and \b are not, and a ']' outside a
        // class ("[[:alpha:]]") is.
        QCOMPARE(requiredLiterals(R"(\[Rank \d+\] x\x41yz\pLqq\p{Greek}rr\bss)"),
                 (Sets{{"[Rank "}, {"] x"}, {"yz"}, {"qq"}, {"rr"}, {"ss"}}));
        QCOMPARE(requiredLiterals("[[:alpha:]]xy]z"), (Sets{{"xy]z"}}));
        // A quantifier after a multi-byte character takes all of it: such bytes are never text here.
        QCOMPARE(requiredLiterals("\xc3\xa9+abc"), (Sets{{"abc"}}));
        // Nothing where the pattern is not plain: a top-level alternation, flags, quoting.
        QCOMPARE(requiredLiterals("abc|def"), Sets{});
        QCOMPARE(requiredLiterals("ab(?i)cd"), Sets{});
        QCOMPARE(requiredLiterals("ab(?s:.)cd"), Sets{});
        QCOMPARE(requiredLiterals(R"(ab\Qc.d\Eef)"), Sets{});
        QCOMPARE(requiredLiterals("ab(cd"), Sets{});
        // The lead is found before them: a set it already holds is not kept on the fingerprint.
        const auto fp =
            compileFingerprint(R"(NET/IB : (?:\S+:\d+ )?(?:Got async event : |async fatal event))");
        QVERIFY(fp);
        QCOMPARE(fp->required, (Sets{{"Got async event : ", "async fatal event"}}));
    }

    // Every sample of every shipped entry holds the required texts of each fingerprint that
    // matches it, and the scanner finds each sample as the plain regexes do: the second look
    // never hides a line that the encyclopedia's own worked examples say is a match.
    void samplesHoldTheirRequiredLiterals()
    {
        std::size_t checked = 0, withSets = 0;
        std::vector<std::string> samples;
        for (const Entry& e : m_enc->entries)
            for (const Symptom& s : e.symptoms)
                for (const std::string& sample : s.samples) {
                    samples.push_back(sample);
                    for (const Fingerprint& f : s.fingerprints) {
                        if (!RE2::PartialMatch(sample, RE2(f.pattern)))
                            continue;
                        ++checked;
                        withSets += f.required.empty() ? 0 : 1;
                        for (const auto& anyOf : requiredLiterals(f.pattern))
                            QVERIFY2(std::any_of(anyOf.begin(), anyOf.end(),
                                                 [&](const std::string& t) {
                                                     return sample.find(t) != std::string::npos;
                                                 }),
                                     qPrintable(QString::fromStdString("/" + f.pattern + "/ on " + sample)));
                    }
                }
        QVERIFY2(withSets > checked / 2, qPrintable(QStringLiteral("%1 of %2").arg(withSets).arg(checked)));
        std::vector<const char*> lines;
        for (const auto& sample : samples)
            lines.push_back(sample.c_str());
        std::vector<ScanHit> hits;
        const QString why = compareWithRegexes(lines, hits);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(hits.size() >= samples.size());
    }

    // A pattern that starts with a literal is matched from each place the literal occurs, in
    // order: a first occurrence that leads nowhere must not hide a later match, and the match
    // found is the leftmost one, with its captures, as the whole-line search finds it.
    void leadingLiteralFindsTheLeftmostMatch()
    {
        const std::vector<const char*> lines = {
            "NET/Socket : Using x NET/Socket : Using [0]eth0:10.0.0.1<0> NET/Socket : Using "
            "[1]ib0:10.1.0.1<0>",
            "NET/Socket : Using [0]eth0:10.0.0.1 NET/Socket : Using [1]ib0:10.1.0.1<0>",
            "Bootstrap: Using x Bootstrap : Using eth0:10.0.0.1<0>",
            "Bootstrap : Using eth0:10.0.0.1<0> Bootstrap : Using ib0:10.1.0.1<0>",
            "cudaDriverVersion x cudaDriverVersion 12020",
            "[Rank 3] ] [Rank 4] ",
            "NCCL version 2.x NCCL version 2.18.3+cuda12.2",
            // Patterns that keep no captures are searched from the first place their lead occurs,
            // and not at all on a line without it (a "backend=nccl" line is a candidate for the
            // "0x… nccl…()" frame patterns by its "nccl").
            "initialising process group (backend=nccl, world_size=16)",
            "backend=nccl at 0x10 0x7f3c2a ncclCommInitRank()",
            "#x #5  0x00007f3c2a in ncclProxyService (",
            "ncclCommInitRank() 0x7f3c2a",
        };
        std::vector<ScanHit> fromLead;
        const QString why = compareWithRegexes(lines, fromLead);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(fromLead.size() >= 9);
    }

    // Captures are packed into one string: names and values come back as added, in order, empty
    // and binary values included, and a name that is not there reads as empty.
    void capturesKeepNamesAndValues()
    {
        Captures c;
        QVERIFY(c.empty());
        c.add("peer", "10.0.0.2<29500>");
        c.add("empty", "");
        c.add("bytes", std::string_view("a\0b", 3));
        QCOMPARE(c.size(), std::size_t{3});
        QCOMPARE(c.get("peer"), std::string_view("10.0.0.2<29500>"));
        QVERIFY(c.has("empty"));
        QVERIFY(c.get("empty").empty());
        QCOMPARE(c.get("bytes"), std::string_view("a\0b", 3));
        QVERIFY(!c.has("port"));
        QVERIFY(c.get("port").empty());
        std::vector<std::string> names;
        c.forEach([&](std::string_view k, std::string_view) { names.emplace_back(k); });
        QCOMPARE(names, (std::vector<std::string>{"peer", "empty", "bytes"}));
        Captures d;
        d.reserve(Captures::packedSize("peer", "10.0.0.2<29500>"));
        d.add("peer", "10.0.0.2<29500>");
        QVERIFY(!(c == d));
        // Copies are deep, moves leave an empty set that can be filled again, and shrinking keeps
        // the contents.
        Captures copy = c;
        QVERIFY(copy == c);
        copy.add("port", "29500");
        QCOMPARE(c.size(), std::size_t{3});
        QCOMPARE(copy.get("port"), std::string_view("29500"));
        copy.shrink();
        QCOMPARE(copy.get("bytes"), std::string_view("a\0b", 3));
        Captures moved = std::move(copy);
        QVERIFY(copy.empty()); // NOLINT(bugprone-use-after-move): moved-from is empty by contract
        copy.add("again", "1");
        QCOMPARE(copy.get("again"), std::string_view("1"));
        QCOMPARE(moved.size(), std::size_t{4});
        const Captures& alias = moved;
        moved = alias;
        QCOMPARE(moved.size(), std::size_t{4});
        moved = Captures{};
        QVERIFY(moved.empty() && moved == Captures{});
        // assign() is a copy that reuses the room it has: larger, smaller, empty, itself.
        Captures room;
        room.assign(c);
        QVERIFY(room == c);
        room.assign(d);
        QVERIFY(room == d && room.get("peer") == std::string_view("10.0.0.2<29500>"));
        QVERIFY(!room.has("bytes"));
        room.assign(c);
        QVERIFY(room == c && room.get("bytes") == std::string_view("a\0b", 3));
        room.assign(room);
        QVERIFY(room == c);
        room.assign(Captures{});
        QVERIFY(room.empty());
        room.add("again", "2");
        QCOMPARE(room.get("again"), std::string_view("2"));
        // From a real match: an Init line's rank and size.
        std::vector<ScanHit> hits;
        m_fast->matchLine("gpu-a:11:12 [3] NCCL INFO comm 0x55d0 rank 3 nranks 8 cudaDev 3 busId 1b000 "
                          "commId 0x9f1 - Init START",
                          0, hits);
        bool init = false;
        for (const auto& h : hits)
            if (m_fast->patterns()[static_cast<std::size_t>(h.pattern)].builtin == Builtin::InitLine) {
                init = true;
                QCOMPARE(h.captures.get("rank"), std::string_view("3"));
                QCOMPARE(h.captures.get("nranks"), std::string_view("8"));
            }
        QVERIFY(init);
    }
};

QTEST_GUILESS_MAIN(TestScanner)
#include "tst_scanner.moc"
