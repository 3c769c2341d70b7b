// The log's models on the sample incident: QAbstractItemModelTester on every one of them, filters
// (rank, host, severity, NCCL subsystem, finding, events, bookmarks, context), RE2 search with match
// spans, and the worker-thread path with stale results dropped.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "models/bookmarks.h"
#include "models/logfilter.h"
#include "models/logfiltermodel.h"
#include "models/logmodel.h"
#include "models/logsearch.h"
#include "models/ncclsubsystem.h"
#include "shipped_encyclopedia.h"

using namespace rl;

class TestLogModels : public QObject
{
    Q_OBJECT
    std::shared_ptr<const AnalysisIndex> m_index;

    const Analysis& a() const { return m_index->analysis(); }
    LineRef line(const char* file, int oneBased) const
    {
        for (const auto& s : a().sources)
            if (s.displayPath == file)
                return {s.id, static_cast<std::uint32_t>(oneBased - 1)};
        qFatal("no such file %s", file);
    }
    ProcessId processOfRank(int rank) const
    {
        for (const auto& p : a().processes)
            if (p.rank == rank)
                return p.id;
        return {};
    }
    std::vector<std::uint32_t> rows(const LogFilter& f) const { return *filterRows(*m_index, f); }

    // The analysis of one in-memory file, as the window would hold it.
    static std::shared_ptr<const AnalysisIndex> indexOfText(const char* name, const std::string& text)
    {
        Bundle b;
        b.sources.push_back(sourceFromText(name, text));
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        return std::make_shared<const AnalysisIndex>(analyze(std::move(b), test::shippedEncyclopedia(), o));
    }

private slots:
    void initTestCase()
    {
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        const auto enc = test::shippedEncyclopedia();
        QVERIFY(enc);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto analysis = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}, enc, o);
        QVERIFY(analysis && analysis->totalLines > 300);
        m_index = std::make_shared<const AnalysisIndex>(analysis);
    }

    void subsystems_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("subsystem");
        QTest::newRow("python line") << "2025-06-12 14:03:17,412 INFO train.py:95 [rank5] starting"
                                     << "";
        QTest::newRow("warn names socket.cc") << "gpu-b:39962:40133 [1] misc/socket.cc:483 NCCL WARN "
                                                 "socketStartConnect: Connect to 10.0.0.11<45763> "
                                                 "failed : Software caused connection abort"
                                              << "NET";
        QTest::newRow("warn names proxy.cc") << "gpu-b:39962:40133 [1] proxy.cc:1519 NCCL WARN [Proxy "
                                                "Service 5] Failed to execute operation Connect"
                                             << "PROXY";
        QTest::newRow("trail names init.cc") << "gpu-b:39962:40120 [1] NCCL INFO init.cc:1079 -> 2"
                                             << "INIT";
        QTest::newRow("trail names net transport")
            << "gpu-b:39962:40133 [1] NCCL INFO transport/net_socket.cc:336 -> 2"
            << "NET";
        QTest::newRow("bootstrap") << "gpu-a:48213:48213 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.11<0>"
                                   << "BOOTSTRAP";
        QTest::newRow("environment") << "gpu-a:48213:48213 [0] NCCL INFO NCCL_SOCKET_IFNAME set to eth0"
                                     << "ENV";
        QTest::newRow("net plugin") << "gpu-a:48213:48213 [0] NCCL INFO NET/Plugin : No plugin found"
                                    << "NET";
        QTest::newRow("init start") << "gpu-a:48213:48377 [0] NCCL INFO comm 0x55b7e3a41f30 rank 0 nranks 8 "
                                       "cudaDev 0 nvmlDev 0 busId 1b000 "
                                       "commId 0x3f9a1c6e27b4d851 - Init START"
                                    << "INIT";
        QTest::newRow("ring")
            << "gpu-a:48213:48377 [0] NCCL INFO Channel 00/02 :    0   2   3   1   4   6   7   5"
            << "GRAPH";
        QTest::newRow("shm channel")
            << "gpu-a:48213:48377 [0] NCCL INFO Channel 00 : 0[0] -> 2[2] via SHM/direct/direct"
            << "SHM";
        QTest::newRow("net channel")
            << "gpu-a:48213:48377 [0] NCCL INFO Channel 00/0 : 5[1] -> 0[0] [receive] via NET/Socket/0"
            << "NET";
        QTest::newRow("p2p channel") << "h:1:2 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC/read"
                                     << "P2P";
        QTest::newRow("collective trace")
            << "h:1:2 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f recvbuff 0x7f count 1 datatype 7"
            << "COLL";
        QTest::newRow("NCCL 2.26 prefix") << "[2025-06-12 14:03:17] h:1:2 [0] NCCL INFO Bootstrap: Using eth0"
                                          << "BOOTSTRAP";
        QTest::newRow("the word NCCL alone") << "NCCL version 2.18.3+cuda12.2"
                                             << "";
        QTest::newRow("unknown message") << "h:1:2 [0] NCCL INFO something new"
                                         << "OTHER";
    }
    void subsystems()
    {
        QFETCH(QString, line);
        QFETCH(QString, subsystem);
        const std::string s = line.toStdString();
        QCOMPARE(QString::fromLatin1(ncclSubsystemName(ncclSubsystem(s))), subsystem);
    }

    void filters_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("host gpu-a") << 0;
        QTest::newRow("rank 5") << 1;
        QTest::newRow("WARN and above") << 2;
        QTest::newRow("NET lines") << 3;
        QTest::newRow("initiating finding") << 4;
        QTest::newRow("events") << 5;
        QTest::newRow("rank 5, WARN and above, NET") << 6;
    }
    void filters()
    {
        QFETCH(int, which);
        LogFilter f;
        std::function<bool(LineRef)> expect;
        const ProcessId five = processOfRank(5);
        switch (which) {
        case 0:
            f.scope = LogFilter::Scope::Host;
            f.host = "gpu-a";
            expect = [&](LineRef r) { return a().process(a().info(r).process).host == "gpu-a"; };
            break;
        case 1:
            f.scope = LogFilter::Scope::Process;
            f.process = five;
            expect = [&](LineRef r) { return a().info(r).process == five; };
            break;
        case 2:
            f.minLevel = Level::Warn;
            expect = [&](LineRef r) {
                if (a().info(r).level >= Level::Warn)
                    return true;
                for (const auto& e : a().events) // a traceback's first line is an error event
                    if (e.where == r && e.level >= Level::Warn)
                        return true;
                return false;
            };
            break;
        case 3:
            f.subsystems = 1u << static_cast<unsigned>(NcclSubsystem::Net);
            expect = [&](LineRef r) { return ncclSubsystem(a().text(r)) == NcclSubsystem::Net; };
            break;
        case 4: {
            f.finding = static_cast<int>(*a().initiating);
            const Finding& fd = *a().initiatingFinding();
            expect = [&fd, this](LineRef r) {
                for (const auto& e : fd.evidence)
                    if (e.where == r)
                        return true;
                for (const auto& e : a().events)
                    if (e.where == r && e.entry == fd.entry &&
                        std::find(fd.processes.begin(), fd.processes.end(), e.process) != fd.processes.end())
                        return true;
                return r == fd.anchor;
            };
            break;
        }
        case 5:
            f.eventsOnly = true;
            expect = [&](LineRef r) {
                for (const auto& e : a().events)
                    if (e.where == r)
                        return true;
                return false;
            };
            break;
        case 6:
            f.scope = LogFilter::Scope::Process;
            f.process = five;
            f.minLevel = Level::Warn;
            f.subsystems = 1u << static_cast<unsigned>(NcclSubsystem::Net);
            expect = [&](LineRef r) {
                const LineInfo li = a().info(r);
                return li.process == five && li.level >= Level::Warn &&
                       ncclSubsystem(a().text(r)) == NcclSubsystem::Net;
            };
            break;
        }
        QVERIFY(!f.isIdentity());
        const auto got = rows(f);
        // Exactly the lines the predicate accepts, in merged order.
        std::vector<std::uint32_t> want;
        for (std::uint32_t row = 0; row < a().merged.size(); ++row)
            if (expect(a().merged[row]))
                want.push_back(row);
        QVERIFY(!want.empty());
        QCOMPARE(got, want);
    }

    void contextFromOneRank()
    {
        LogFilter f;
        f.contextOf = line("gpu-b/rank5.log", 26);
        f.contextLines = 3;
        const auto got = rows(f);
        QCOMPARE(got.size(), std::size_t{7});
        for (std::uint32_t r : got) {
            const LineRef ref = a().merged[r];
            QCOMPARE(ref.source, f.contextOf->source);
            QVERIFY(ref.line >= 22 && ref.line <= 28);
        }
        // At the top of a file the window is cut, not shifted.
        f.contextOf = line("gpu-b/rank5.log", 1);
        QCOMPARE(rows(f).size(), std::size_t{4});
        // Other restrictions do not apply to context.
        f.minLevel = Level::Fatal;
        QCOMPARE(rows(f).size(), std::size_t{4});
    }

    void cancelledFilterGivesNothing()
    {
        LogFilter f;
        f.minLevel = Level::Warn;
        QVERIFY(!filterRows(*m_index, f, [] { return true; }));
    }

    void search()
    {
        auto p = SearchPattern::compile(QStringLiteral("connection abort"), false);
        QVERIFY(p->ok());
        const auto all = *searchRows(*m_index, nullptr, *p);
        QVERIFY(!all.empty());
        for (std::uint32_t r : all)
            QVERIFY(a().text(a().merged[r]).find("connection abort") != std::string_view::npos);
        // Over a filtered view, matches are positions in the view.
        LogFilter f;
        f.scope = LogFilter::Scope::Process;
        f.process = processOfRank(5);
        const auto view = rows(f);
        const auto inView = *searchRows(*m_index, &view, *p, {}, 2);
        QVERIFY(!inView.empty() && inView.size() <= all.size());
        for (std::uint32_t i : inView)
            QVERIFY(a().text(a().merged[view[i]]).find("connection abort") != std::string_view::npos);
        // Case.
        auto upper = SearchPattern::compile(QStringLiteral("CONNECTION ABORT"), true);
        QVERIFY(searchRows(*m_index, nullptr, *upper)->empty());
        auto insensitive = SearchPattern::compile(QStringLiteral("CONNECTION ABORT"), false);
        QCOMPARE(searchRows(*m_index, nullptr, *insensitive)->size(), all.size());
    }

    // Searching whole buffers gives exactly what matching line by line gives.
    void searchWholeBuffersAgrees_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::newRow("literal") << QStringLiteral("NCCL WARN");
        QTest::newRow("line start") << QStringLiteral("^gpu-b");
        QTest::newRow("alternation") << QStringLiteral("Watchdog caught|connection abort");
        QTest::newRow("digits") << QStringLiteral("[0-9]+ -> [26]");
        QTest::newRow("case") << QStringLiteral("(?i)traceback");
        QTest::newRow("matches nothing") << QStringLiteral("no such text anywhere");
        QTest::newRow("matches every line") << QStringLiteral("x*");
        QTest::newRow("line end (line by line)") << QStringLiteral("-> 2$");
    }
    void searchWholeBuffersAgrees()
    {
        QFETCH(QString, pattern);
        auto p = SearchPattern::compile(pattern, true);
        QVERIFY(p->ok());
        QCOMPARE(p->bufferPattern() != nullptr, !pattern.contains(QLatin1Char('$')));
        std::vector<std::uint32_t> want;
        for (std::uint32_t row = 0; row < a().merged.size(); ++row)
            if (p->matches(a().text(a().merged[row])))
                want.push_back(row);
        QCOMPARE(*searchRows(*m_index, nullptr, *p), want);
        QCOMPARE(*searchRows(*m_index, nullptr, *p, {}, 1), want);
        QVERIFY(!searchRows(*m_index, nullptr, *p, [] { return true; })); // cancelled: nothing
    }

    void searchErrorsAndSpans()
    {
        auto bad = SearchPattern::compile(QStringLiteral("socket(.cc"), false);
        QVERIFY(!bad->ok());
        QVERIFY(bad->error().contains(QStringLiteral("missing")));
        QVERIFY(searchRows(*m_index, nullptr, *bad)->empty());
        auto empty = SearchPattern::compile(QString(), false);
        QVERIFY(!empty->ok() && empty->error().isEmpty());

        auto p = SearchPattern::compile(QStringLiteral("a+"), false);
        const auto spans = p->spans("xaay a");
        QCOMPARE(spans.size(), std::size_t{2});
        QCOMPARE(spans[0], std::make_pair(1, 2));
        QCOMPARE(spans[1], std::make_pair(5, 1));
        // Positions count UTF-16 units, after a multi-byte character.
        auto mu = SearchPattern::compile(QStringLiteral("ms"), false);
        const auto s2 = mu->spans("5 µs 7 ms");
        QCOMPARE(s2.size(), std::size_t{1});
        QCOMPARE(s2[0], std::make_pair(7, 2));
        // An empty match shows nothing and does not loop.
        auto star = SearchPattern::compile(QStringLiteral("z*"), false);
        QVERIFY(star->spans("abc").empty());
    }

    // The line after a crash's zeros shows "[N NUL bytes]" and then its text, not a row of empty
    // boxes that hide it; the line that is only zeros says so too.
    void crashZerosShownAsAMarker()
    {
        const QByteArray text = "gpu-b:1:1 [1] NCCL INFO before\n" + QByteArray(100, '\0') +
                                "gpu-b:1:1 [1] NCCL WARN after the zeros\n" + QByteArray(3, '\0');
        auto index = indexOfText("rank5.log", std::string(text.constData(), text.size()));
        LogModel model;
        model.setIndex(index);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(1, LogModel::TextColumn).data().toString(),
                 QStringLiteral("[100 NUL bytes]gpu-b:1:1 [1] NCCL WARN after the zeros"));
        QCOMPARE(model.index(2, LogModel::TextColumn).data().toString(), QStringLiteral("[3 NUL bytes]"));
    }

    // A collector's stamp and pod before each line: the text column shows what the pod printed
    // (the time and host columns say the rest), the whole line when asked, and in the tooltip.
    void prefixesShownOnRequest()
    {
        const std::string text = "[pod/job-worker-0/pytorch] 2025-09-03T07:14:11.236093127Z "
                                 "job-worker-0:43:77 [0] misc/socket.cc:484 "
                                 "NCCL WARN socketStartConnect: Connect to 10.44.1.7<38411> failed : "
                                 "Software caused connection abort\n"
                                 "[pod/job-worker-0/pytorch] 2025-09-03T07:14:11.3Z \n";
        auto index = indexOfText("export.log", text);
        LogModel model;
        model.setIndex(index);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!model.showPrefixes());
        const QString whole = QString::fromStdString(text.substr(0, text.find('\n')));
        QCOMPARE(
            model.index(0, LogModel::TextColumn).data().toString(),
            QStringLiteral("job-worker-0:43:77 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect "
                           "to 10.44.1.7<38411> failed : Software caused connection abort"));
        QVERIFY(model.index(0, LogModel::TextColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("<p>[pod/job-worker-0/pytorch]\u00A02025-09-03T07:14:11")));
        QCOMPARE(model.index(0, LogModel::HostColumn).data().toString(), QStringLiteral("job-worker-0"));
        // A line that is only its prefix is the pod's blank line (NCCL prints one before a WARN).
        QCOMPARE(model.index(1, LogModel::TextColumn).data().toString(), QString());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setShowPrefixes(true);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.index(0, LogModel::TextColumn).data().toString(), whole);
    }

    // A stamp is shown as far as it was printed: to the minute (a job console's), to the second, or
    // to the millisecond; the tooltip says so and the line's time spans the whole minute.
    void timeShownToTheStampsResolution()
    {
        const std::string text = "2025-02-18 12:54 [rank13]:a\n"
                                 "2025-02-18 12:55:07 INFO b\n"
                                 "2025-02-18 12:55:08,250 INFO c\n";
        auto index = indexOfText("console.log", text);
        LogModel model;
        model.setIndex(index);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, LogModel::TimeColumn).data().toString(), QStringLiteral("12:54"));
        const QString tip = model.index(0, LogModel::TimeColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("minute")) &&
                     tip.contains(QStringLiteral("2025-02-18\u00A012:54")),
                 qPrintable(tip));
        QCOMPARE(model.index(1, LogModel::TimeColumn).data().toString(), QStringLiteral("12:55:07"));
        QCOMPARE(model.index(2, LogModel::TimeColumn).data().toString(), QStringLiteral("12:55:08.250"));
        const LineInfo li = index->analysis().info(LineRef{SourceId(0), 0});
        QCOMPARE(li.time.hi - li.time.lo, std::int64_t{60'000'000});
        // An unstamped line between stamps to the second is shown to the second; between stamps to
        // the millisecond, to the millisecond.
        auto inferred = indexOfText("rank1.log", "2025-02-18 12:55:07 INFO b\n"
                                                 "no stamp here\n"
                                                 "2025-02-18 12:55:09 INFO c\n"
                                                 "2025-02-18 12:55:10,250 INFO d\n"
                                                 "no stamp either\n"
                                                 "2025-02-18 12:55:10,500 INFO e\n");
        model.setIndex(inferred);
        QCOMPARE(model.index(1, LogModel::TimeColumn).data().toString(), QStringLiteral("~12:55:07"));
        QCOMPARE(model.index(4, LogModel::TimeColumn).data().toString(), QStringLiteral("~12:55:10.250"));
        // A line before a file's first stamp was written no later than that stamp's second: shown
        // as that second, not as the next one where the stamp's span ends.
        auto before = indexOfText("rank2.log", "no stamp yet\n2025-02-18 12:55:07 INFO b\n");
        model.setIndex(before);
        QCOMPARE(model.index(0, LogModel::TimeColumn).data().toString(), QStringLiteral("~12:55:07"));
        // glog's own stamp behind the minute says when in it, in the collector's clock (eight hours
        // ahead of glog's here, as in NVIDIA/nccl#1610).
        auto within = indexOfText("console.log", "2025-02-18 12:54 [rank13]:[E218 04:54:22.86 x.cpp:1] a\n");
        model.setIndex(within);
        QCOMPARE(model.index(0, LogModel::TimeColumn).data().toString(), QStringLiteral("12:54:22.860"));
    }

    // A progress bar redrawn with carriage returns, and the WARN printed right after its last
    // drawing: the row shows what a terminal shows, the WARN in view, not the first drawings.
    void progressBarShownAsATerminalLeavesIt()
    {
        const std::string text = "gpu-b:1:1 [1] NCCL INFO before\n"
                                 "\r 10%|#  | 1/10 [00:01<00:09]\r 20%|## | 2/10 [00:02<00:08]"
                                 "gpu-b:1:1 [1] NCCL WARN after the bar\n";
        auto index = indexOfText("rank5.log", text);
        QCOMPARE(index->analysis().processes.size(), std::size_t{1}); // "[00:02<00:08]gpu-b" is no host
        LogModel model;
        model.setIndex(index);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, LogModel::TextColumn).data().toString(),
                 QStringLiteral(
                     "[29 bytes overwritten by \\r]  20%|## | 2/10 [00:02<00:08]gpu-b:1:1 [1] NCCL WARN "
                     "after the bar"));
    }

    void modelTesterOnEveryModel()
    {
        Bookmarks marks;
        LogModel model;
        model.setBookmarks(&marks);
        QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setIndex(m_index);
        LogFilterModel filtered;
        QAbstractItemModelTester t2(&filtered, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filtered.setSourceModel(&model);
        QCOMPARE(filtered.rowCount(), model.rowCount());

        LogFilter f;
        f.scope = LogFilter::Scope::Process;
        f.process = processOfRank(5);
        filtered.setFilter(f);
        QVERIFY(filtered.rowCount() > 0 && filtered.rowCount() < model.rowCount());
        for (int r = 0; r < filtered.rowCount(); ++r)
            QCOMPARE(a().info(filtered.lineAt(r)).process, f.process);
        // Mapping both ways.
        const QModelIndex p = filtered.index(3, LogModel::TextColumn);
        QCOMPARE(filtered.mapFromSource(filtered.mapToSource(p)), p);
        QCOMPARE(filtered.data(p, Qt::DisplayRole), model.data(filtered.mapToSource(p), Qt::DisplayRole));
        QVERIFY(
            !filtered.mapFromSource(model.index(m_index->rowOf(line("gpu-a/rank0.log", 2)), 0)).isValid());

        // A bookmark changes one row, in both models.
        QSignalSpy changed(&filtered, &QAbstractItemModel::dataChanged);
        const LineRef abort = line("gpu-b/rank5.log", 26);
        marks.toggle(abort);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), filtered.rowOf(abort));
        QVERIFY(filtered.index(filtered.rowOf(abort), 0).data(LogModel::BookmarkRole).toBool());
        QVERIFY(filtered.index(filtered.rowOf(abort), 0).data(Qt::DecorationRole).isValid());
        // A bookmark on a hidden row changes nothing shown.
        marks.toggle(line("gpu-a/rank0.log", 2));
        QCOMPARE(changed.count(), 1);

        // Search, spans and next/previous.
        QSignalSpy found(&filtered, &LogFilterModel::searchFinished);
        filtered.setSearch(QStringLiteral("NCCL WARN"));
        QCOMPARE(found.count(), 1);
        const int n = found.last().at(0).toInt();
        QVERIFY(n >= 2);
        const int first = filtered.nextMatch(-1, true);
        const int second = filtered.nextMatch(first, true);
        QVERIFY(second > first);
        QCOMPARE(filtered.nextMatch(second, false), first);
        QCOMPARE(filtered.nextMatch(first, false), static_cast<int>(filtered.matches().back())); // wraps
        QCOMPARE(filtered.matchNumber(second), 1);
        const QVariantList spans =
            filtered.index(first, LogModel::TextColumn).data(LogModel::MatchSpansRole).toList();
        QCOMPARE(spans.size(), 1);
        const QString text = filtered.index(first, LogModel::TextColumn).data().toString();
        QCOMPARE(text.mid(spans[0].toPoint().x(), spans[0].toPoint().y()), QStringLiteral("NCCL WARN"));
        QVERIFY(!filtered.index(first, LogModel::TimeColumn).data(LogModel::MatchSpansRole).isValid());

        // A filter that hides everything keeps headers and gives an empty, valid model.
        LogFilter none = f;
        none.minLevel = Level::Fatal;
        none.subsystems = 1u << static_cast<unsigned>(NcclSubsystem::Alloc);
        filtered.setFilter(none);
        QCOMPARE(filtered.rowCount(), 0);
        QCOMPARE(filtered.headerData(LogModel::TextColumn, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("Text"));
        QCOMPARE(filtered.nearestRowOf(abort), -1);

        // Back to everything; then a new analysis resets both.
        filtered.setFilter({});
        QVERIFY(!filtered.isFiltered());
        QCOMPARE(filtered.rowCount(), model.rowCount());
        model.setIndex(m_index);
        QVERIFY(!filtered.searchPattern());
        model.setIndex(nullptr);
        QCOMPARE(filtered.rowCount(), 0);
    }

    void nearestShownRow()
    {
        LogModel model;
        model.setIndex(m_index);
        LogFilterModel filtered;
        filtered.setSourceModel(&model);
        LogFilter f;
        f.scope = LogFilter::Scope::Host;
        f.host = "gpu-b";
        filtered.setFilter(f);
        const LineRef hidden = line("gpu-a/rank0.log", 39);
        QCOMPARE(filtered.rowOf(hidden), -1);
        const int near = filtered.nearestRowOf(hidden);
        QVERIFY(near >= 0);
        QVERIFY(m_index->rowOf(filtered.lineAt(near)) >= m_index->rowOf(hidden) ||
                near == filtered.rowCount() - 1);
    }

    // Big bundles filter and search on a worker thread; a newer request wins over an older one
    // that finishes later, and the model stays valid throughout.
    void workerThreadAndStaleResults()
    {
        LogModel model;
        model.setIndex(m_index);
        LogFilterModel filtered;
        QAbstractItemModelTester tester(&filtered, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filtered.setSourceModel(&model);
        filtered.setSynchronousLimit(0);
        QSignalSpy applied(&filtered, &LogFilterModel::filterApplied);
        QSignalSpy busy(&filtered, &LogFilterModel::busyChanged);
        LogFilter first;
        first.scope = LogFilter::Scope::Host;
        first.host = "gpu-a";
        LogFilter second;
        second.scope = LogFilter::Scope::Host;
        second.host = "gpu-b";
        filtered.setFilter(first);
        filtered.setFilter(second);
        QVERIFY(filtered.busy());
        QTRY_VERIFY_WITH_TIMEOUT(!filtered.busy(), 10000);
        QCOMPARE(applied.count(), 1);
        QCOMPARE(filtered.rowCount(), static_cast<int>(rows(second).size()));
        QVERIFY(busy.count() >= 2);

        QSignalSpy found(&filtered, &LogFilterModel::searchFinished);
        filtered.setSearch(QStringLiteral("watchdog"));
        filtered.setSearch(QStringLiteral("Watchdog caught"));
        QTRY_COMPARE_WITH_TIMEOUT(found.count(), 1, 10000);
        QVERIFY(!filtered.busy());
        for (std::uint32_t r : filtered.matches())
            QVERIFY(model
                        .index(static_cast<int>(m_index->rowOf(filtered.lineAt(static_cast<int>(r)))),
                               LogModel::TextColumn)
                        .data()
                        .toString()
                        .contains(QStringLiteral("Watchdog caught")));
        // A new analysis while a job runs: its result is dropped.
        filtered.setFilter(first);
        model.setIndex(m_index);
        QTest::qWait(200);
        QVERIFY(!filtered.isFiltered());
        QCOMPARE(filtered.rowCount(), model.rowCount());
    }
};

QTEST_MAIN(TestLogModels)
#include "tst_logmodels.moc"
