// The Qt module's entry point: the window, and `rankline report` (whose PDF is painted with
// QPainter). The `rankline` binary loads this module only for them (app/main.cpp), so the headless
// commands never map Qt.
#include "gui_main.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>

#include <memory>

#include "analysis.h"
#include "report/reportcommand.h"
#include "window/mainwindow.h"

namespace
{

int runWindow(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Rankline"));
    QApplication::setApplicationVersion(QStringLiteral(RANKLINE_VERSION));
    // The installed desktop file and icon are named after the application id (packaging/).
    QApplication::setDesktopFileName(QStringLiteral(RANKLINE_APP_ID));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral(RANKLINE_APP_ID)));

    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Offline investigator for failed distributed-training jobs."));
    p.addPositionalArgument(QStringLiteral("paths"), QStringLiteral("Folders, files or archives to open."),
                            QStringLiteral("[PATH...]"));
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("After loading, save a picture of the window to FILE and quit."),
        QStringLiteral("FILE"));
    QCommandLineOption sample(QStringLiteral("sample"), QStringLiteral("Open the bundled sample incident."));
    p.addOptions({screenshot, sample});
    p.process(app);

    auto enc = rl::loadEncyclopedia(rl::resourcesDir() + "/encyclopedia");
    if (!enc) {
        QMessageBox::critical(nullptr, QStringLiteral("Rankline"),
                              QStringLiteral("Cannot load the encyclopedia: %1")
                                  .arg(QString::fromStdString(enc.error().message())));
        return 3;
    }
    rl::MainWindow window(std::make_shared<const rl::Encyclopedia>(std::move(*enc)));
    window.show();

    const QString shot = p.value(screenshot);
    if (!shot.isEmpty()) {
        auto save = [&window, shot] {
            QTimer::singleShot(300, &window, [&window, shot] {
                bool ok = window.grab().save(shot);
                QCoreApplication::exit(ok ? 0 : 1);
            });
        };
        QObject::connect(&window, &rl::MainWindow::analysisReady, &window, save);
        QObject::connect(&window, &rl::MainWindow::loadFailed, &window, save);
        if (p.positionalArguments().isEmpty() && !p.isSet(sample))
            save();
    }
    if (p.isSet(sample))
        window.openSample();
    else if (!p.positionalArguments().isEmpty())
        window.openPaths(p.positionalArguments());
    return app.exec();
}

int runReportCommand(int argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    std::unique_ptr<QCoreApplication> app;
    if (rl::requestedReportFormat(args) == rl::ReportFormat::Pdf) {
        // A PDF report is painted with QPainter, which needs a QGuiApplication, but never a display.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QGuiApplication>(argc, argv);
    } else {
        // Headless: no QGuiApplication, so no display is needed and none is touched.
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QCoreApplication::setApplicationName(QStringLiteral("rankline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RANKLINE_VERSION));
    return rl::runReport(args);
}

} // namespace

extern "C" int rankline_gui_main(int argc, char** argv)
{
    if (argc > 1 && std::string_view(argv[1]) == "report")
        return runReportCommand(argc, argv);
    return runWindow(argc, argv);
}
