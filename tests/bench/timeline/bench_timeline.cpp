// Timeline benchmark (not a test: it prints figures and says whether they meet the targets).
//
//   bench_timeline [--bundle DIR] [--frames N] [--stress-lanes 256] [--stress-marks 40000]
//
// 1. Loaded bundle to first complete paint: from an Analysis in memory to the log view and the
//    timeline built and painted at 1600x900 (target: under 1 s). Reading and diagnosing the bundle
//    is timed too, for information (it runs in the background in the window).
// 2. Zooming on that bundle: a frame is one full paint of the timeline at 1600x900 after a zoom
//    step, from the whole run down to milliseconds around the failure and back (target: under
//    16 ms a frame).
// 3. The same on a synthetic view of 256 lanes x 40,000 events a lane (10 M marks), built without
//    an analysis: level of detail must keep frames flat however many events there are.
//
// Without --bundle it generates the 256-rank, 256 MiB incident (gen_timeline_bundle) in the build
// folder first. Run offscreen: QT_QPA_PLATFORM=offscreen.

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <thread>

#include "analysis.h"
#include "models/logfilter.h"
#include "models/logsearch.h"
#include "timeline/timelinepane.h"
#include "timeline/timelinewidget.h"
#include "timeline/zoomcontrol.h"
#include "window/findingpanel.h"
#include "window/logpane.h"

using namespace rl;

namespace
{

constexpr int kWidth = 1600;
constexpr int kHeight = 900;
constexpr double kFrameTargetMs = 16.0;
constexpr double kFirstPaintTargetMs = 1000.0;

double ms(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

struct Stats {
    double median = 0, p95 = 0, max = 0, mean = 0;
};

Stats stats(std::vector<double> v)
{
    Stats s;
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.p95 = v[std::min(v.size() - 1, v.size() * 95 / 100)];
    s.max = v.back();
    for (double x : v)
        s.mean += x;
    s.mean /= static_cast<double>(v.size());
    return s;
}

// One paint of the widget into an image the size of the screen area it covers.
double paintOnce(QWidget& w, QImage& into)
{
    QElapsedTimer t;
    t.start();
    into.fill(Qt::white);
    QPainter p(&into);
    w.render(&p);
    p.end();
    return ms(t);
}

// Zoom from the whole run towards `anchor` by 0.8 a step down to `narrowest`, then back out; one full
// paint per step.
std::vector<double> zoomFrames(TimelineWidget& w, std::int64_t anchor, std::int64_t narrowest, int maxFrames)
{
    QImage img(w.size(), QImage::Format_ARGB32_Premultiplied);
    ZoomControl* z = w.zoomControl();
    z->fitAll();
    paintOnce(w, img); // warm the sprite atlas
    std::vector<TimeRange> path;
    for (TimeRange r = z->fullRange();
         r.duration() > narrowest && static_cast<int>(path.size()) < maxFrames / 2;) {
        r = zoomRange(r, 0.8, anchor);
        path.push_back(r);
    }
    const auto down = path;
    for (auto it = down.rbegin(); it != down.rend(); ++it)
        path.push_back(*it);
    std::vector<double> frames;
    for (const TimeRange& r : path) {
        QElapsedTimer t;
        t.start();
        z->setRange(r);
        paintOnce(w, img);
        frames.push_back(ms(t));
    }
    // Panning across the run at a middle zoom.
    z->setRange({anchor - z->fullRange().duration() / 50, anchor + z->fullRange().duration() / 50});
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer t;
        t.start();
        z->pan(z->range().duration() / 10);
        paintOnce(w, img);
        frames.push_back(ms(t));
    }
    return frames;
}

void report(const char* what, const std::vector<double>& frames)
{
    const Stats s = stats(frames);
    std::printf("  %-44s %3zu frames: median %6.2f ms, p95 %6.2f ms, max %6.2f ms  [target < %.0f ms: %s]\n",
                what, frames.size(), s.median, s.p95, s.max, kFrameTargetMs,
                s.p95 < kFrameTargetMs ? "MET" : "MISSED");
}

std::shared_ptr<const TimelineModel> stressModel(int lanes, int marksPerLane)
{
    auto m = std::make_shared<TimelineModel>();
    const std::int64_t span = 30LL * 60 * 1000000; // thirty minutes
    std::mt19937_64 rng(42);
    for (int h = 0; h < lanes / 8; ++h) {
        const int host = m->addHost(QStringLiteral("node-%1").arg(h, 3, 10, QLatin1Char('0')));
        for (int g = 0; g < 8; ++g) {
            const int lane = m->addLane(host, QStringLiteral("rank %1").arg(h * 8 + g));
            MarkTrack& t = m->laneTrack(lane);
            t.reserve(static_cast<std::size_t>(marksPerLane));
            for (int i = 0; i < marksPerLane; ++i) {
                TimelineMark mk;
                mk.pos = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span));
                mk.event = static_cast<std::uint32_t>(i);
                const auto roll = rng() % 1000;
                mk.tier = roll < 2     ? MarkTier::Collateral
                          : roll < 20  ? MarkTier::Error
                          : roll < 300 ? MarkTier::Warn
                                       : MarkTier::Other;
                mk.kind = mk.tier == MarkTier::Warn    ? MarkKind::Warn
                          : mk.tier == MarkTier::Error ? MarkKind::Traceback
                                                       : MarkKind::Other;
                t.add(mk);
            }
        }
    }
    m->setSpan(0, span, true);
    m->finish();
    return m;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QString bundle;
    int frames = 120;
    int stressLanes = 256, stressMarks = 40000;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--bundle"))
            bundle = args[i + 1];
        else if (args[i] == QLatin1String("--frames"))
            frames = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--stress-lanes"))
            stressLanes = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--stress-marks"))
            stressMarks = args[i + 1].toInt();
    }
    if (bundle.isEmpty()) {
        bundle = QStringLiteral(RANKLINE_BENCH_DATA "/timeline-256x256MiB");
        if (!std::filesystem::exists(bundle.toStdString() + "/node-000/rank0.log")) {
            std::printf("generating %s …\n", qPrintable(bundle));
            std::fflush(stdout);
            if (QProcess::execute(QStringLiteral(RANKLINE_GEN_EXE), {bundle}) != 0)
                return 1;
        }
    }
    qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
    auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
    if (!enc) {
        std::fprintf(stderr, "cannot load the encyclopedia\n");
        return 1;
    }
    auto encyclopedia = std::make_shared<const Encyclopedia>(std::move(*enc));

    std::printf("Timeline benchmark, %dx%d offscreen, Qt %s, %u cores\n", kWidth, kHeight, qVersion(),
                std::thread::hardware_concurrency());
    std::printf("\n1. %s\n", qPrintable(bundle));
    QElapsedTimer t;
    t.start();
    AnalyzeOptions opts;
    opts.probeLocalNccl = false;
    auto analysis = analyzePaths({bundle.toStdString()}, encyclopedia, opts);
    const double loadMs = ms(t);
    std::printf("  read + diagnose (background, for information) %8.0f ms: %zu files, %.0f MiB, %llu lines, "
                "%zu events, "
                "%zu processes\n",
                loadMs, analysis->sources.size(), static_cast<double>(analysis->totalBytes) / (1 << 20),
                static_cast<unsigned long long>(analysis->totalLines), analysis->events.size(),
                analysis->processes.size());

    // The window's views, laid out as in the window: timeline over the log, finding panel beside.
    QSplitter window(Qt::Horizontal);
    auto* centre = new QSplitter(Qt::Vertical, &window);
    Bookmarks* none = nullptr;
    auto* timeline = new TimelinePane(centre);
    auto* log = new LogPane(none, centre);
    auto* panel = new FindingPanel(&window);
    window.resize(kWidth, kHeight);
    window.setSizes({1100, 500});
    centre->setSizes({520, 380});
    window.show();
    QApplication::processEvents();

    t.restart();
    auto index = std::make_shared<const AnalysisIndex>(analysis);
    const double indexMs = ms(t);
    log->setIndex(index);
    const double logMs = ms(t) - indexMs;
    timeline->setIndex(index);
    const double timelineMs = ms(t) - indexMs - logMs;
    panel->setIndex(index);
    const double panelMs = ms(t) - indexMs - logMs - timelineMs;
    QImage frame(window.size(), QImage::Format_ARGB32_Premultiplied);
    paintOnce(window, frame);
    const double firstPaint = ms(t);
    std::printf("  loaded bundle -> first complete paint         %8.1f ms  [target < %.0f ms: %s]\n",
                firstPaint, kFirstPaintTargetMs, firstPaint < kFirstPaintTargetMs ? "MET" : "MISSED");
    std::printf(
        "    index %.1f ms, log view %.1f ms, timeline model %.1f ms, finding panel %.1f ms, paint %.1f ms\n",
        indexMs, logMs, timelineMs, panelMs, firstPaint - indexMs - logMs - timelineMs - panelMs);

    // The log: jumps across every line, a filter and a search over all of them.
    {
        QTableView* view = log->view();
        QImage img(view->size(), QImage::Format_ARGB32_Premultiplied);
        std::vector<double> jumps;
        std::mt19937 rng(3);
        for (int i = 0; i < 60; ++i) {
            QElapsedTimer j;
            j.start();
            view->verticalScrollBar()->setValue(
                static_cast<int>(rng() % static_cast<unsigned>(view->verticalScrollBar()->maximum() + 1)));
            paintOnce(*view, img);
            jumps.push_back(ms(j));
        }
        const Stats js = stats(jumps);
        std::printf("  log view, 60 jumps to anywhere in %llu lines: median %.2f ms, max %.2f ms a paint\n",
                    static_cast<unsigned long long>(analysis->totalLines), js.median, js.max);
        LogFilter f;
        f.scope = LogFilter::Scope::Host;
        f.host = analysis->processes.back().host;
        f.minLevel = Level::Warn;
        QElapsedTimer j;
        j.start();
        const auto rows = filterRows(*index, f);
        std::printf("  filter (one host, WARN and above) over every line: %.0f ms -> %zu lines (worker "
                    "thread in the window)\n",
                    ms(j), rows->size());
        j.restart();
        auto pattern = SearchPattern::compile(QStringLiteral("Watchdog caught|connection abort"), false);
        const auto found = searchRows(*index, nullptr, *pattern);
        std::printf("  RE2 search over every line: %.0f ms -> %zu matches (worker thread in the window)\n",
                    ms(j), found->size());
    }

    // Zooming, on the timeline alone at 1600x900.
    TimelineWidget lanes;
    lanes.resize(kWidth, kHeight);
    lanes.show();
    QApplication::processEvents();
    lanes.setIndex(index);
    std::int64_t anchor = analysis->span.lo + (analysis->span.hi - analysis->span.lo) / 2;
    if (const Finding* f = analysis->initiatingFinding())
        anchor = index->axisPos(f->anchor);
    std::printf("\n2. zooming on it (%zu lanes, %zu marks)\n", lanes.model()->lanes().size(),
                lanes.model()->markCount());
    report("whole run -> 1 ms around the failure -> back", zoomFrames(lanes, anchor, 1000, frames));
    lanes.setAllHostsCollapsed(true);
    report("  same, hosts collapsed", zoomFrames(lanes, anchor, 1000, frames));

    std::printf("\n3. synthetic: %d lanes x %d events a lane\n", stressLanes, stressMarks);
    t.restart();
    auto stress = stressModel(stressLanes, stressMarks);
    std::printf("  model with level-of-detail summaries built in %.0f ms (%zu marks)\n", ms(t),
                stress->markCount());
    TimelineWidget big;
    big.resize(kWidth, kHeight);
    big.show();
    QApplication::processEvents();
    t.restart();
    big.setModel(stress);
    QImage bigFrame(big.size(), QImage::Format_ARGB32_Premultiplied);
    const double first = paintOnce(big, bigFrame) + ms(t);
    std::printf("  first paint of the whole run                   %8.1f ms\n", first);
    report("whole run -> 1 ms -> back, and panning", zoomFrames(big, stress->spanEnd() / 3, 1000, frames));
    big.setAllHostsCollapsed(true);
    report("  same, hosts collapsed (one row per 8 lanes)",
           zoomFrames(big, stress->spanEnd() / 3, 1000, frames));
    return 0;
}
