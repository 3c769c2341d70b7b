// Compact per-line storage: offsets past 4 GiB, time intervals from stamped neighbours, and the
// merged order across sources.
#include <QTest>

#include <algorithm>
#include <numeric>
#include <random>

#include "analysis.h"
#include "util/permute.h"

using namespace rl;

namespace
{
SourceLines linesWith(std::uint32_t n, std::vector<std::pair<std::uint32_t, std::int64_t>> stamps)
{
    SourceLines sl;
    sl.resize(n);
    for (std::uint32_t i = 0; i < n; ++i)
        sl.set(i, ProcessId(0), Level::Info);
    for (auto [line, us] : stamps)
        sl.addStamp({line, us, 1000});
    return sl;
}
} // namespace

class TestLines : public QObject
{
    Q_OBJECT
private slots:
    // Stamps are packed (time and resolution in one word): every resolution a parser produces
    // comes back as it went in, times before 1970 included.
    void stampsRoundTrip()
    {
        SourceLines sl;
        sl.resize(8);
        const std::vector<LineStamp> in{{0, 1749736990123456, 1},       {2, 1749736990123000, 1000},
                                        {3, 1749736990000000, 1000000}, {5, -1500000, 100000},
                                        {6, 1749736990120000, 10000},   {7, 1749736990120000, 7}};
        for (const auto& st : in)
            sl.addStamp(st);
        QCOMPARE(sl.stampCount(), in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const LineStamp out = sl.stamp(i);
            QCOMPARE(out.line, in[i].line);
            QCOMPARE(out.us, in[i].us);
            // 7 us is not a power of ten: widened to 10, never narrowed.
            QCOMPARE(out.resolutionUs, in[i].resolutionUs == 7 ? std::int64_t{10} : in[i].resolutionUs);
        }
        QCOMPARE(sl.time(3).lo, std::int64_t{1749736990000000});
        QCOMPARE(sl.time(3).hi, std::int64_t{1749736991000000});
        QCOMPARE(sl.time(4).lo, std::int64_t{1749736990000000}); // between stamps 3 and 5
        // Stamp 5 runs backwards from stamp 3 (another process's block in a concatenation): it
        // bounds nothing above.
        QVERIFY(!sl.time(4).knownHi());
        QCOMPARE(sl.stamp(3).us + sl.stamp(3).resolutionUs, std::int64_t{-1400000});
        QCOMPARE(sl.time(1).lo, std::int64_t{1749736990123456});
    }

    // Stamps are kept in blocks, narrow (six bytes) where lines and times lie close together and
    // wide otherwise, a block turning wide halfway through: every mix reads back as it went in,
    // and the search by line agrees with a plain lower_bound. Joining the stamps of a later piece
    // gives the same as adding them one by one.
    void stampBlocksRoundTrip()
    {
        std::uint32_t seed = 777;
        auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
        for (int round = 0; round < 40; ++round) {
            std::vector<LineStamp> in;
            std::uint32_t line = next() % 50;
            std::int64_t us = 1749736990000000 + static_cast<std::int64_t>(next() % 1000);
            const int n = 1 + static_cast<int>(next() % 900);
            for (int i = 0; i < n; ++i) {
                // Mostly dense; now and then a gap of lines, or of time, that no narrow block
                // holds (drawn apart, so that each alone must widen a block), or a clock that
                // steps back.
                const std::uint32_t lineDraw = next() % 100;
                const std::uint32_t timeDraw = next() % 100;
                line += lineDraw < 3 ? 70000 + next() % 5 : 1 + next() % 3;
                us += timeDraw < 2   ? 600'000'000
                      : timeDraw < 4 ? -5'000'000'000
                                     : static_cast<std::int64_t>(next() % 400'000);
                const std::int64_t res = next() % 3 == 0 ? 1000 : 1;
                in.push_back({line, res == 1000 ? us - us % 1000 : us, res});
            }
            SourceLines whole, first, second;
            const std::size_t cut = next() % in.size();
            for (std::size_t i = 0; i < in.size(); ++i) {
                whole.addStamp(in[i]);
                (i < cut ? first : second).addStamp(in[i]);
            }
            first.appendStamps(std::move(second));
            for (const SourceLines* sl : {&whole, &first}) {
                QCOMPARE(sl->stampCount(), in.size());
                for (std::size_t i = 0; i < in.size(); ++i) {
                    const LineStamp out = sl->stamp(i);
                    QCOMPARE(out.line, in[i].line);
                    QCOMPARE(out.us, in[i].us);
                    QCOMPARE(out.resolutionUs, in[i].resolutionUs);
                }
                // Random lines, and the lines around stamps at block ends (128 a block), where
                // the search moves from one block to the next.
                std::vector<std::uint32_t> probes;
                for (int probe = 0; probe < 50; ++probe)
                    probes.push_back(next() % (line + 2));
                for (std::size_t i = 0; i < in.size(); ++i)
                    if (i % 128 == 0 || i % 128 == 127 || i + 1 == in.size() || next() % 16 == 0)
                        for (std::uint32_t d : {0u, 1u, 2u})
                            probes.push_back(in[i].line + d - 1);
                for (const std::uint32_t at : probes) {
                    const auto it =
                        std::lower_bound(in.begin(), in.end(), at,
                                         [](const LineStamp& s, std::uint32_t l) { return s.line < l; });
                    const TimeInterval t = sl->time(at);
                    if (it != in.end() && it->line == at) {
                        QCOMPARE(t.lo, it->us);
                        QCOMPARE(t.hi, it->us + it->resolutionUs);
                    } else {
                        if (it != in.begin())
                            QCOMPARE(t.lo, std::prev(it)->us);
                        else
                            QVERIFY(!t.knownLo());
                        // The next stamp bounds the line above unless the stamps run backwards
                        // there (SourceLines::time).
                        if (it != in.end() &&
                            !(it != in.begin() && std::prev(it)->us > it->us + it->resolutionUs))
                            QCOMPARE(t.hi, it->us + it->resolutionUs);
                        else
                            QVERIFY(!t.knownHi());
                    }
                }
            }
        }
    }

    // The line index reads 64 bytes at a time: newlines on and around every block boundary, runs
    // of empty lines, no final newline and a lone newline all index as a plain search would.
    void indexMatchesPlainSearch()
    {
        std::uint32_t seed = 12345;
        auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
        std::vector<std::string> texts{"",
                                       "\n",
                                       "a",
                                       "a\n",
                                       "\n\n\n",
                                       std::string(64, '\n'),
                                       std::string(63, 'x') + "\n" + std::string(64, 'y') + "\nz"};
        for (int t = 0; t < 200; ++t) {
            std::string text;
            const std::size_t len = next() % 700;
            for (std::size_t i = 0; i < len; ++i)
                text += (next() % 7 == 0) ? '\n' : static_cast<char>('a' + next() % 26);
            texts.push_back(std::move(text));
        }
        for (const auto& text : texts) {
            Source s = sourceFromText("t.log", text);
            indexLines(s);
            std::vector<std::uint64_t> expected;
            for (std::size_t pos = 0; pos < text.size();) {
                expected.push_back(pos);
                const std::size_t nl = text.find('\n', pos);
                if (nl == std::string::npos)
                    break;
                pos = nl + 1;
            }
            QCOMPARE(s.lineCount(), expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i)
                QCOMPARE(s.lineStarts[i], expected[i]);
        }
    }

    void offsetsBeyondFourGiB()
    {
        LineOffsets o;
        const std::uint64_t g = std::uint64_t{1} << 32;
        std::vector<std::uint64_t> offs{0, 100, g - 10, g + 5, g + 100, 3 * g + 7};
        for (auto x : offs)
            o.push_back(x);
        QCOMPARE(o.size(), offs.size());
        for (std::size_t i = 0; i < offs.size(); ++i)
            QCOMPARE(o[i], offs[i]);
        QCOMPARE(o.lineOf(0), std::size_t{0});
        QCOMPARE(o.lineOf(99), std::size_t{0});
        QCOMPARE(o.lineOf(100), std::size_t{1});
        QCOMPARE(o.lineOf(g), std::size_t{2});
        QCOMPARE(o.lineOf(g + 5), std::size_t{3});
        QCOMPARE(o.lineOf(3 * g + 100), std::size_t{5});
    }

    // A small file's offsets take two bytes a line; the first offset past 64 KiB moves them all to
    // four, with nothing lost, whether the room was reserved for the small form or not.
    void shortOffsetsWidenWhenNeeded_data()
    {
        QTest::addColumn<qulonglong>("reserveBytes");
        QTest::newRow("reserved small") << qulonglong(65536);
        QTest::newRow("reserved large") << qulonglong(1048576);
        QTest::newRow("not reserved") << qulonglong(0);
    }
    void shortOffsetsWidenWhenNeeded()
    {
        QFETCH(qulonglong, reserveBytes);
        LineOffsets o;
        if (reserveBytes)
            o.reserve(100, reserveBytes);
        std::vector<std::uint64_t> want;
        for (std::uint64_t at = 0; at < 65536; at += 997)
            want.push_back(at);
        want.push_back(65535);
        for (auto x : want)
            o.push_back(x);
        QCOMPARE(o.size(), want.size());
        if (reserveBytes <= 65536)                    // (room reserved for the large form is counted too)
            QVERIFY(o.bytesUsed() < want.size() * 4); // still two bytes a line
        for (std::uint64_t at : {std::uint64_t{65536}, std::uint64_t{70000}, std::uint64_t{5} << 32})
            want.push_back(at), o.push_back(at);
        QCOMPARE(o.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            QCOMPARE(o[i], want[i]);
        QCOMPARE(o.lineOf(65535), want.size() - 4);
        QCOMPARE(o.lineOf(65536), want.size() - 3);
        QCOMPARE(o.lineOf(std::uint64_t{6} << 32), want.size() - 1);
        o.clear();
        QVERIFY(o.empty());
        o.push_back(0);
        o.push_back(10);
        QCOMPARE(o[1], std::uint64_t{10});
    }

    void processAndLevelPacked()
    {
        SourceLines sl;
        sl.resize(3);
        sl.set(1, ProcessId(0x00ABCDEF), Level::Warn);
        QCOMPARE(sl.process(1).value, 0x00ABCDEFu);
        QCOMPARE(int(sl.level(1)), int(Level::Warn));
        QCOMPARE(int(sl.level(0)), int(Level::None));
    }

    // Per-line processes in every form the storage takes (one for all lines, a byte, four bytes)
    // and every change between them, against a plain array: random sequences of sets, with
    // shrinks between them, read back line by line.
    void processFormsMatchAPlainArray()
    {
        std::mt19937 rng(20261130);
        // Values that fit a byte, the byte form's "none", and wide ones.
        const std::vector<std::uint32_t> values = {0, 1, 7, 254, 255, 256, 70000, SourceLines::kProcessMask};
        int forms[3] = {0, 0, 0}; // bytes used per line after the last shrink: 0, 1 or 4
        for (int round = 0; round < 400; ++round) {
            const std::uint32_t n = 1 + rng() % 40;
            SourceLines sl;
            sl.resize(n);
            std::vector<std::uint32_t> want(n, SourceLines::kProcessMask);
            std::vector<Level> levels(n, Level::None);
            // Most rounds use few values, as files do: one process, or a few.
            const std::size_t pick = 1 + rng() % 3;
            std::vector<std::uint32_t> pool;
            for (std::size_t k = 0; k < pick; ++k)
                pool.push_back(values[rng() % values.size()]);
            const int sets = static_cast<int>(rng() % (3 * n));
            for (int k = 0; k < sets; ++k) {
                const std::uint32_t line = rng() % n;
                const std::uint32_t v = pool[rng() % pool.size()];
                const Level lv = static_cast<Level>(rng() % 5);
                sl.set(line, ProcessId(v), lv);
                want[line] = v;
                levels[line] = lv;
                if (rng() % 8 == 0)
                    sl.shrink();
                for (std::uint32_t i = 0; i < n; ++i) {
                    QCOMPARE(sl.process(i).value, want[i]);
                    QCOMPARE(int(sl.level(i)), int(levels[i]));
                }
            }
            sl.shrink();
            for (std::uint32_t i = 0; i < n; ++i)
                QCOMPARE(sl.process(i).value, want[i]);
            const std::size_t perLine = (sl.bytesUsed() - n) / n;
            const bool same =
                std::adjacent_find(want.begin(), want.end(), std::not_equal_to<>()) == want.end();
            const bool narrow = std::all_of(want.begin(), want.end(), [](std::uint32_t v) {
                return v < 255 || v == SourceLines::kProcessMask;
            });
            // The narrowest form that holds the lines (slack is given back by shrink).
            QCOMPARE(perLine, same ? std::size_t{0} : narrow ? std::size_t{1} : std::size_t{4});
            ++forms[perLine == 0 ? 0 : perLine == 1 ? 1 : 2];
        }
        for (int f : forms)
            QVERIFY(f > 20); // every form was exercised
    }

    // Giving every line a new process (identity, then the renumbering by rank) goes straight to the
    // narrowest form, reading the processes as they were, whatever the form before.
    void assignProcessesTakesTheNarrowestForm()
    {
        std::mt19937 rng(7);
        const std::vector<std::uint32_t> values = {0, 3, 254, 300, 70000, SourceLines::kProcessMask};
        for (int round = 0; round < 300; ++round) {
            const std::uint32_t n = 1 + rng() % 30;
            SourceLines sl;
            sl.resize(n);
            std::vector<std::uint32_t> before(n);
            for (std::uint32_t i = 0; i < n; ++i) {
                before[i] = values[rng() % values.size()];
                sl.set(i, ProcessId(before[i]), Level::Info);
            }
            // New processes from the old ones and the next line's, as the blank-line rule reads them.
            std::vector<std::uint32_t> map(values.size());
            for (auto& m : map)
                m = round % 3 == 0 ? 77 : values[rng() % values.size()];
            auto index = [&](std::uint32_t v) {
                return static_cast<std::size_t>(std::find(values.begin(), values.end(), v) - values.begin());
            };
            std::vector<std::uint32_t> want(n);
            for (std::uint32_t i = 0; i < n; ++i)
                want[i] = map[index(before[i])] ^ (i + 1 < n && before[i + 1] == 0 && round % 2 ? 1u : 0u);
            sl.assignProcesses([&](std::uint32_t i) {
                const std::uint32_t next = i + 1 < n ? sl.process(i + 1).value : 1;
                return ProcessId(map[index(sl.process(i).value)] ^ (next == 0 && round % 2 ? 1u : 0u));
            });
            for (std::uint32_t i = 0; i < n; ++i) {
                QCOMPARE(sl.process(i).value, want[i]);
                QCOMPARE(int(sl.level(i)), int(Level::Info));
            }
            const bool same =
                std::adjacent_find(want.begin(), want.end(), std::not_equal_to<>()) == want.end();
            const bool narrow = std::all_of(want.begin(), want.end(), [](std::uint32_t v) {
                return v < 255 || v == SourceLines::kProcessMask;
            });
            QCOMPARE((sl.bytesUsed() - sl.size()) / n, same     ? std::size_t{0}
                                                       : narrow ? std::size_t{1}
                                                                : std::size_t{4});
        }
    }

    // One process for every line (identity's shortcut for a file one rank wrote) leaves nothing per
    // line, whatever form the lines were in, and keeps their levels; oneProcess() says when the
    // lines are in that form (as they are after shrink() when every line has the same process).
    void assignAllHoldsNothingPerLine()
    {
        const std::vector<std::vector<std::uint32_t>> forms = {
            {5, 5, 5}, {5, SourceLines::kProcessMask, 5}, {5, 300, 70000}, {SourceLines::kProcessMask}};
        for (const auto& before : forms) {
            SourceLines sl;
            sl.resize(before.size());
            for (std::uint32_t i = 0; i < before.size(); ++i)
                sl.set(i, ProcessId(before[i]), i % 2 ? Level::Warn : Level::Info);
            sl.shrink(); // set() may leave a per-line form that one process would not need
            const bool uniform =
                std::adjacent_find(before.begin(), before.end(), std::not_equal_to<>()) == before.end();
            QCOMPARE(sl.oneProcess(), uniform);
            for (const std::uint32_t p : {std::uint32_t{9}, std::uint32_t{70000}}) {
                sl.assignAll(ProcessId(p));
                QVERIFY(sl.oneProcess());
                QCOMPARE(sl.bytesUsed() - sl.size(), std::size_t{0});
                for (std::uint32_t i = 0; i < before.size(); ++i) {
                    QCOMPARE(sl.process(i).value, p);
                    QCOMPARE(int(sl.level(i)), int(i % 2 ? Level::Warn : Level::Info));
                }
            }
            // A later set() of another process widens the form again.
            sl.set(0, ProcessId(3), Level::Error);
            QVERIFY(!sl.oneProcess());
            QCOMPARE(sl.process(0).value, std::uint32_t{3});
            for (std::uint32_t i = 1; i < before.size(); ++i)
                QCOMPARE(sl.process(i).value, std::uint32_t{70000});
        }
    }

    // Renumbering gives every line remap[its process], held once where the source holds one.
    void renumberProcessesMapsEveryLine()
    {
        const std::vector<ProcessId> remap = {ProcessId(4), ProcessId(70000), ProcessId(2)};
        for (const std::vector<std::uint32_t>& before :
             std::vector<std::vector<std::uint32_t>>{{1, 1, 1}, {0, 2, 1, 0}, {}}) {
            SourceLines sl;
            sl.resize(before.size());
            for (std::uint32_t i = 0; i < before.size(); ++i)
                sl.set(i, ProcessId(before[i]), Level::Info);
            sl.shrink();
            sl.renumberProcesses(remap);
            for (std::uint32_t i = 0; i < before.size(); ++i)
                QCOMPARE(sl.process(i).value, remap[before[i]].value);
            const bool uniform =
                std::adjacent_find(before.begin(), before.end(), std::not_equal_to<>()) == before.end();
            QCOMPARE(sl.oneProcess(), uniform);
        }
    }

    // Moving records along the cycles of an order gives what gathering them into a new array does,
    // for orders with fixed points, one long cycle, many short ones and none at all.
    void permuteInPlaceIsGathering()
    {
        std::mt19937 rng(7);
        for (std::size_t n : {0u, 1u, 2u, 3u, 10u, 257u}) {
            for (int round = 0; round < 20; ++round) {
                std::vector<std::string> items;
                for (std::size_t i = 0; i < n; ++i)
                    items.push_back("item " + std::to_string(i) + std::string(20, 'x')); // not inline
                std::vector<std::uint32_t> order(n);
                std::iota(order.begin(), order.end(), 0u);
                if (round % 4 == 1 && n > 1) // one cycle through every item
                    std::rotate(order.begin(), order.begin() + 1, order.end());
                else if (round % 4 != 0)
                    std::shuffle(order.begin(), order.end(), rng);
                std::vector<std::string> gathered;
                for (std::uint32_t from : order)
                    gathered.push_back(items[from]);
                permuteInPlace(items, order);
                QCOMPARE(items, gathered);
                for (std::size_t j = 0; j < n; ++j)
                    QCOMPARE(order[j], static_cast<std::uint32_t>(j));
            }
        }
    }

    // Events sorted by key and moved once each come out as a stable sort of the events themselves:
    // events of equal keys (two fingerprints on one line, unknown times) in the order they came.
    void sortEventsAsSortingThemselves()
    {
        std::mt19937 rng(20261202);
        for (const std::size_t n : {0, 1, 2, 17, 100, 5000}) {
            std::vector<Event> events(n);
            for (std::size_t i = 0; i < n; ++i) {
                Event& e = events[i];
                e.where = {SourceId(static_cast<std::uint32_t>(rng() % 4)),
                           static_cast<std::uint32_t>(rng() % 50)};
                e.time.lo = rng() % 5 == 0 ? kTimeUnknownLo : static_cast<std::int64_t>(rng() % 40);
                e.entry = static_cast<int>(i); // tells equal keys apart
                e.captures.add("n", std::to_string(i));
            }
            std::vector<Event> expected = events;
            std::stable_sort(expected.begin(), expected.end(), [](const Event& x, const Event& y) {
                return std::tie(x.time.lo, x.where) < std::tie(y.time.lo, y.where);
            });
            sortEvents(events);
            QCOMPARE(events.size(), expected.size());
            for (std::size_t i = 0; i < n; ++i) {
                QCOMPARE(events[i].entry, expected[i].entry);
                QCOMPARE(events[i].capture("n"), std::to_string(expected[i].entry));
            }
        }
    }

    void intervals_data()
    {
        QTest::addColumn<int>("line");
        QTest::addColumn<qint64>("lo");
        QTest::addColumn<qint64>("hi");
        QTest::addColumn<int>("source");
        // stamps at line 1 (t=10 000) and line 4 (t=50 000), resolution 1 000
        QTest::newRow("before the first stamp")
            << 0 << qint64(kTimeUnknownLo) << qint64(11000) << int(TimeSource::Inferred);
        QTest::newRow("stamped") << 1 << qint64(10000) << qint64(11000) << int(TimeSource::Parsed);
        QTest::newRow("between") << 2 << qint64(10000) << qint64(51000) << int(TimeSource::Inferred);
        QTest::newRow("after the last stamp")
            << 5 << qint64(50000) << qint64(kTimeUnknownHi) << int(TimeSource::Inferred);
    }
    void intervals()
    {
        QFETCH(int, line);
        QFETCH(qint64, lo);
        QFETCH(qint64, hi);
        QFETCH(int, source);
        SourceLines sl = linesWith(6, {{1, 10000}, {4, 50000}});
        TimeSource ts = TimeSource::Unknown;
        TimeInterval t = sl.time(static_cast<std::uint32_t>(line), &ts);
        QCOMPARE(qint64(t.lo), lo);
        QCOMPARE(qint64(t.hi), hi);
        QCOMPARE(int(ts), source);
    }

    void noStampsAtAll()
    {
        SourceLines sl = linesWith(3, {});
        TimeSource ts = TimeSource::Parsed;
        QVERIFY(!sl.time(1, &ts).known());
        QCOMPARE(int(ts), int(TimeSource::Unknown));
    }

    // Sources interleave by time; each keeps its own order; ties go to the first source.
    void mergedOrder()
    {
        std::vector<SourceLines> v;
        v.push_back(linesWith(4, {{0, 100}, {2, 300}}));           // a0 a1 | a2 a3
        v.push_back(linesWith(3, {{0, 200}, {1, 300}, {2, 400}})); // b0 | b1 | b2
        MergedOrder m;
        m.build(v);
        QStringList got;
        for (LineRef r : m)
            got << QStringLiteral("%1%2")
                       .arg(r.source.value == 0 ? QLatin1Char('a') : QLatin1Char('b'))
                       .arg(r.line);
        QCOMPARE(got, (QStringList{QStringLiteral("a0"), QStringLiteral("a1"), QStringLiteral("b0"),
                                   QStringLiteral("a2"), QStringLiteral("a3"), QStringLiteral("b1"),
                                   QStringLiteral("b2")}));
    }

    void mergedOrderWithoutTimeKeepsFileOrder()
    {
        std::vector<SourceLines> v;
        v.push_back(linesWith(2, {}));
        v.push_back(linesWith(2, {}));
        MergedOrder m;
        m.build(v);
        QCOMPARE(m.size(), std::size_t{4});
        QCOMPARE(m[0], (LineRef{SourceId(0), 0}));
        QCOMPARE(m[1], (LineRef{SourceId(0), 1}));
        QCOMPARE(m[2], (LineRef{SourceId(1), 0}));
    }
};

QTEST_GUILESS_MAIN(TestLines)
#include "tst_lines.moc"
