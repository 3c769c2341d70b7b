// Pictures of the real window at three zoom levels, for people to look at (not a test).
//
//   timeline_shots OUT_PREFIX PATH...
//
// Opens PATH in the window (1600x1000, offscreen), then saves OUT_PREFIX-1-whole-run.png (the whole
// run), OUT_PREFIX-2-failure.png (zoom to failure) and OUT_PREFIX-3-close.png (a twentieth of that,
// around the initiating event), plus OUT_PREFIX-4-collapsed.png (hosts collapsed, whole run).

#include <QApplication>
#include <QTimer>

#include <cstdio>

#include "analysis.h"
#include "timeline/timelinewidget.h"
#include "timeline/zoomcontrol.h"
#include "window/mainwindow.h"

using namespace rl;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: timeline_shots OUT_PREFIX PATH...\n");
        return 2;
    }
    qputenv("RANKLINE_RESOURCES", RANKLINE_RESOURCES_DIR);
    auto enc = loadEncyclopedia(RANKLINE_RESOURCES_DIR "/encyclopedia");
    if (!enc)
        return 1;
    MainWindow w(std::make_shared<const Encyclopedia>(std::move(*enc)));
    w.resize(1600, 1000);
    w.show();
    const QString prefix = args[1];
    int rc = 0;
    QObject::connect(&w, &MainWindow::loadFailed, &app, [&] {
        rc = 1;
        app.quit();
    });
    QObject::connect(&w, &MainWindow::analysisReady, &app, [&] {
        TimelineWidget* tl = w.timeline();
        auto save = [&](const char* name) {
            QApplication::processEvents();
            const QString file = prefix + QStringLiteral("-%1.png").arg(QLatin1String(name));
            if (!w.grab().save(file))
                rc = 1;
            std::printf("%s\n", qPrintable(file));
        };
        tl->fitAll();
        save("1-whole-run");
        tl->zoomToInitiating();
        save("2-failure");
        const TimeRange r = tl->zoomControl()->range();
        std::int64_t anchor = r.start + r.duration() / 2;
        if (const Finding* f = w.currentIndex()->analysis().initiatingFinding())
            anchor = w.currentIndex()->axisPos(f->anchor);
        tl->zoomControl()->setRange({anchor - r.duration() / 40, anchor + r.duration() / 40});
        save("3-close");
        tl->fitAll();
        tl->setAllHostsCollapsed(true);
        save("4-collapsed");
        app.quit();
    });
    QStringList paths = args.mid(2);
    QTimer::singleShot(0, &w, [&] { w.openPaths(paths); });
    app.exec();
    return rc;
}
