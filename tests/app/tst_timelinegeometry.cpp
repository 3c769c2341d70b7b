// Level of detail and the geometry cache, on hand-built tracks; and the timeline model built from the
// sample incident (lanes, hosts, mark kinds).
#include <QTest>

#include <random>

#include "models/analysisindex.h"
#include "shipped_encyclopedia.h"
#include "timeline/timelinegeometry.h"
#include "timeline/timelinemodel.h"

using namespace rl;

namespace
{

TimelineMark mark(std::int64_t pos, MarkTier tier = MarkTier::Other, std::uint32_t event = 0,
                  MarkKind kind = MarkKind::Other)
{
    TimelineMark m;
    m.pos = pos;
    m.tier = tier;
    m.event = event;
    m.kind = kind;
    return m;
}

MarkTrack track(std::vector<TimelineMark> marks)
{
    MarkTrack t;
    for (const auto& m : marks)
        t.add(m);
    t.finish();
    return t;
}

// n marks spread evenly over [0, span), one in every `every` of tier Evidence.
MarkTrack dense(std::size_t n, std::int64_t span, std::size_t every = 0)
{
    MarkTrack t;
    t.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        t.add(mark(static_cast<std::int64_t>(i) * span / static_cast<std::int64_t>(n),
                   every && i % every == every / 2 ? MarkTier::Evidence : MarkTier::Other,
                   static_cast<std::uint32_t>(i)));
    t.finish();
    return t;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<std::int64_t>)

class TestTimelineGeometry : public QObject
{
    Q_OBJECT
private slots:
    void runsAndGlyphs_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("positions");
        QTest::addColumn<int>("runs");
        QTest::addColumn<int>("glyphs");
        // Range [0, 1000) over 100 px: 10 units a pixel; glyph spacing 7 px, merge gap 3 px.
        QTest::newRow("nothing") << std::vector<std::int64_t>{} << 0 << 0;
        QTest::newRow("one mark") << std::vector<std::int64_t>{500} << 1 << 1;
        QTest::newRow("far apart") << std::vector<std::int64_t>{100, 500, 900} << 3 << 3;
        QTest::newRow("same pixel") << std::vector<std::int64_t>{500, 501, 509} << 1 << 1;
        QTest::newRow("adjacent pixels merge") << std::vector<std::int64_t>{500, 510, 520, 530} << 1 << 1;
        QTest::newRow("gap of 3 px merges") << std::vector<std::int64_t>{500, 540} << 1 << 1;
        QTest::newRow("gap of 4 px splits the run") << std::vector<std::int64_t>{500, 550} << 2 << 1;
        QTest::newRow("8 px apart: two glyphs") << std::vector<std::int64_t>{500, 580} << 2 << 2;
        QTest::newRow("outside the range") << std::vector<std::int64_t>{-500, 2000} << 0 << 0;
        QTest::newRow("just outside, within the margin") << std::vector<std::int64_t>{-30} << 1 << 1;
    }
    void runsAndGlyphs()
    {
        QFETCH(std::vector<std::int64_t>, positions);
        QFETCH(int, runs);
        QFETCH(int, glyphs);
        std::vector<TimelineMark> marks;
        for (auto p : positions)
            marks.push_back(mark(p));
        const RowGeometry g = buildRowGeometry(track(marks), TimeCoords(0, 1000, 100));
        QCOMPARE(static_cast<int>(g.runs.size()), runs);
        QCOMPARE(static_cast<int>(g.glyphs.size()), glyphs);
    }

    void heavierMarkTakesThePixel()
    {
        // Three marks in one pixel: the evidence wins whatever the order.
        const RowGeometry g =
            buildRowGeometry(track({mark(500, MarkTier::Warn, 1), mark(503, MarkTier::Evidence, 2),
                                    mark(505, MarkTier::Warn, 3)}),
                             TimeCoords(0, 1000, 100));
        QCOMPARE(g.glyphs.size(), std::size_t{1});
        QCOMPARE(g.glyphs[0].event, 2u);
        QCOMPARE(g.runs[0].tier, MarkTier::Evidence);
    }

    void heavierMarkTakesTheGlyph()
    {
        // Two pixels apart: one glyph, and it shows the collateral report, not the earlier WARN.
        const RowGeometry g = buildRowGeometry(
            track({mark(500, MarkTier::Warn, 1), mark(520, MarkTier::Collateral, 2, MarkKind::Watchdog)}),
            TimeCoords(0, 1000, 100));
        QCOMPARE(g.glyphs.size(), std::size_t{1});
        QCOMPARE(g.glyphs[0].event, 2u);
        QCOMPARE(g.glyphs[0].kind, MarkKind::Watchdog);
        QCOMPARE(g.runs.size(), std::size_t{1});
        QCOMPARE(g.runs[0].x0, 50.0f);
        QCOMPARE(g.runs[0].x1, 53.0f);
    }

    void denseStretchIsABar()
    {
        // Sixty WARNs a pixel apart: one bar and no glyph, except for the error among them.
        std::vector<TimelineMark> marks;
        for (int i = 0; i < 60; ++i)
            marks.push_back(
                mark(100 + i * 10, MarkTier::Warn, static_cast<std::uint32_t>(i), MarkKind::Warn));
        RowGeometry g = buildRowGeometry(track(marks), TimeCoords(0, 1000, 100));
        QCOMPARE(g.runs.size(), std::size_t{1});
        QCOMPARE(g.runs[0].x0, 10.0f);
        QCOMPARE(g.runs[0].x1, 70.0f);
        QCOMPARE(g.runs[0].tier, MarkTier::Warn);
        QVERIFY(g.glyphs.empty());
        marks.push_back(mark(405, MarkTier::Error, 99, MarkKind::Traceback));
        g = buildRowGeometry(track(marks), TimeCoords(0, 1000, 100));
        QCOMPARE(g.glyphs.size(), std::size_t{1});
        QCOMPARE(g.glyphs[0].event, 99u);
        QCOMPARE(g.runs[0].tier, MarkTier::Warn); // the bar shows what most of the stretch is
        // Zoomed in ten times, the same marks are ten pixels apart: a glyph each.
        g = buildRowGeometry(track(marks), TimeCoords(100, 200, 100));
        QCOMPARE(g.glyphs.size(), std::size_t{11});
    }

    void degenerateCoords()
    {
        const MarkTrack t = track({mark(5)});
        QVERIFY(buildRowGeometry(t, TimeCoords(0, 10, 0)).glyphs.empty());
        QVERIFY(buildRowGeometry(t, TimeCoords(0, 10, -4)).runs.empty());
        // An empty range maps to one unit; the mark at its start is still found.
        QCOMPARE(buildRowGeometry(t, TimeCoords(5, 5, 100)).glyphs.size(), std::size_t{1});
    }

    // However many marks a track holds, a frame visits about as many as it has pixels.
    void levelOfDetailBoundsWork_data()
    {
        QTest::addColumn<int>("marks");
        QTest::addColumn<double>("width");
        QTest::newRow("40k over 1600 px") << 40000 << 1600.0;
        QTest::newRow("1M over 1600 px") << 1000000 << 1600.0;
        QTest::newRow("1M over 300 px") << 1000000 << 300.0;
    }
    void levelOfDetailBoundsWork()
    {
        QFETCH(int, marks);
        QFETCH(double, width);
        const std::int64_t span = 600'000'000; // ten minutes
        const MarkTrack t = dense(static_cast<std::size_t>(marks), span, 997);
        QVERIFY(t.levelCount() > 0);
        const RowGeometry whole = buildRowGeometry(t, TimeCoords(0, span, width));
        QVERIFY2(whole.visited <= static_cast<std::size_t>(width * 4 + 16),
                 qPrintable(QStringLiteral("visited %1 marks for %2 px").arg(whole.visited).arg(width)));
        // Every evidence mark still shows as a glyph's tier somewhere: none is lost to the summary.
        int evidence = 0;
        for (const auto& g : whole.glyphs)
            evidence += g.tier == MarkTier::Evidence;
        QVERIFY(evidence > 0);
        for (const auto& r : whole.runs)
            QVERIFY(r.x1 >= r.x0);
        // Zoomed in to a hundredth, raw marks come back and the count stays small.
        const RowGeometry zoomed = buildRowGeometry(t, TimeCoords(span / 2, span / 2 + span / 100, width));
        QVERIFY(zoomed.visited <= static_cast<std::size_t>(width * 4 + 16) ||
                zoomed.visited <= static_cast<std::size_t>(marks / 100 + 16));
    }

    void summariesKeepTheHighestTier()
    {
        // Random tiers: in each summary level, a bucket's mark outranks every raw mark in that bucket.
        std::mt19937 rng(7);
        MarkTrack t;
        for (int i = 0; i < 5000; ++i)
            t.add(mark(static_cast<std::int64_t>(rng() % 1000000),
                       static_cast<MarkTier>(rng() % kMarkTierCount), static_cast<std::uint32_t>(i)));
        t.finish();
        QVERIFY(t.levelCount() > 0);
        for (std::size_t l = 0; l < t.levelCount(); ++l) {
            const double upp = static_cast<double>(t.bucket(l)) * 2;
            const auto level = t.window(0, 1000000, upp);
            for (std::size_t i = 0; i + 1 < level.size(); ++i)
                QVERIFY(level[i].pos <= level[i + 1].pos);
            const auto raw = t.range(0, 1000000);
            std::size_t j = 0;
            for (const TimelineMark& rep : level) {
                const std::int64_t b = (rep.pos - raw.front().pos) / t.bucket(l);
                for (; j < raw.size() && (raw[j].pos - raw.front().pos) / t.bucket(l) == b; ++j)
                    QVERIFY(!raw[j].outranks(rep) || raw[j].event == rep.event);
            }
        }
    }

    void cacheRebuildsOnlyOnRangeOrWidth()
    {
        const MarkTrack a = dense(1000, 1000000), b = dense(500, 1000000);
        GeometryCache cache;
        const TimeCoords c(0, 1000000, 800);
        cache.row(0, a, c);
        cache.row(1, b, c);
        QCOMPARE(cache.builds(), std::size_t{2});
        // Repainting (hover, selection, vertical scroll): nothing rebuilt.
        cache.row(0, a, c);
        cache.row(1, b, c);
        QCOMPARE(cache.builds(), std::size_t{2});
        // Zoom: rebuilt once per row asked for.
        cache.row(0, a, TimeCoords(0, 500000, 800));
        QCOMPARE(cache.builds(), std::size_t{3});
        // Resize: rebuilt.
        cache.row(0, a, TimeCoords(0, 500000, 900));
        QCOMPARE(cache.builds(), std::size_t{4});
        cache.invalidate();
        cache.row(0, a, TimeCoords(0, 500000, 900));
        QCOMPARE(cache.builds(), std::size_t{5});
    }

    void handBuiltModel()
    {
        TimelineModel m;
        const int h0 = m.addHost(QStringLiteral("a")), h1 = m.addHost(QStringLiteral("b"));
        const int l0 = m.addLane(h0, QStringLiteral("rank 0"), ProcessId(3));
        const int l1 = m.addLane(h1, QStringLiteral("rank 1"), ProcessId(1));
        const int l2 = m.addLane(h1, QStringLiteral("rank 2"));
        m.laneTrack(l0).add(mark(30));
        m.laneTrack(l1).add(mark(20));
        m.laneTrack(l2).add(mark(10));
        m.setSpan(0, 100, true);
        m.finish();
        QCOMPARE(m.laneOf(ProcessId(3)), l0);
        QCOMPARE(m.laneOf(ProcessId(1)), l1);
        QCOMPARE(m.laneOf(ProcessId(2)), -1);
        QCOMPARE(m.laneOf(ProcessId()), -1);
        QCOMPARE(m.host(h1).track.size(), std::size_t{2});
        QCOMPARE(m.host(h1).track.marks().front().pos, std::int64_t{10}); // merged and sorted
        QCOMPARE(m.markCount(), std::size_t{3});
    }

    // Lanes of processes with no rank say what else is known (a torchrun worker folder's local
    // rank, not its path cut short), and a rank's runs side by side say which attempt each is;
    // with one attempt shown the attempt says nothing and is left out.
    void laneLabelsOfAttemptsAndLocalRanks()
    {
        const auto enc = test::shippedEncyclopedia();
        QVERIFY(enc);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto labels = [&](const char* shape) {
            AnalysisIndex index(
                analyzePaths({std::string(RANKLINE_TEST_DATA_DIR "/shapes/") + shape}, enc, o));
            QStringList out;
            const auto model = TimelineModel::fromIndex(index); // held: lanes() is its own
            for (const auto& lane : model->lanes())
                out << lane.label;
            return out;
        };
        QCOMPARE(labels("torchrun"), (QStringList{QStringLiteral("pid 7001"), QStringLiteral("local rank 1"),
                                                  QStringLiteral("local rank 0")}));
        const QStringList runs = labels("appended/slurm-requeued.out");
        for (const char* lane :
             {"rank 0 (attempt 0)", "rank 0 (attempt 1)", "rank 1 (attempt 0)", "rank 1 (attempt 1)"})
            QVERIFY2(runs.contains(QLatin1String(lane)), qPrintable(runs.join(QLatin1String(", "))));
    }

    void sampleIncidentModel()
    {
        qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
        const auto enc = test::shippedEncyclopedia();
        QVERIFY(enc);
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = analyzePaths({RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4"}, enc, o);
        AnalysisIndex index(a);
        auto model = TimelineModel::fromIndex(index);
        QCOMPARE(model->hosts().size(), std::size_t{2});
        QCOMPARE(model->host(0).name, QStringLiteral("gpu-a"));
        QCOMPARE(model->host(1).lanes.size(), std::size_t{4});
        QCOMPARE(model->lanes().size(), std::size_t{8});
        QCOMPARE(model->lane(5).label, QStringLiteral("rank 5"));
        QVERIFY(model->hasTime());

        // The abort (also the earliest connect failure: the first attempt was not logged) is the
        // abort's cross in evidence red; the watchdog timeouts on gpu-a are watchdog marks, collateral.
        const Finding* init = a->initiatingFinding();
        QVERIFY(init);
        auto find = [&](int lane, std::uint32_t line, const char* file) -> const TimelineMark* {
            for (const auto& m : model->lane(lane).track.marks()) {
                const LineRef w = a->events[m.event].where;
                if (w.line == line - 1 && a->source(w.source).displayPath == file)
                    return &m;
            }
            return nullptr;
        };
        const TimelineMark* abort = find(5, 26, "gpu-b/rank5.log");
        QVERIFY(abort);
        QCOMPARE(abort->kind, MarkKind::Abort);
        QCOMPARE(abort->tier, MarkTier::Evidence);
        const TimelineMark* watchdog = find(1, 32, "gpu-a/rank1.log");
        QVERIFY(watchdog);
        QCOMPARE(watchdog->kind, MarkKind::Watchdog);
        QCOMPARE(watchdog->tier, MarkTier::Collateral);
        bool traceback = false;
        for (const auto& m : model->lane(5).track.marks())
            traceback |= m.kind == MarkKind::Traceback;
        QVERIFY(traceback);
    }
};

QTEST_GUILESS_MAIN(TestTimelineGeometry)
#include "tst_timelinegeometry.moc"
