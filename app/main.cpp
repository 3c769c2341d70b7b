#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>

#include <algorithm>
#include <sys/resource.h>

#include "cli/cli.h"
#include "window/mainwindow.h"

namespace
{

// A bundle of thousands of small logs is read with a descriptor held per file, within a share of
// the soft limit (util/mapped_file.h, SmallFile; mapped beyond it). Desktop sessions often set the
// soft limit to 1024 under a hard limit hundreds of times higher: raise it, as a program that
// never uses select() may.
void raiseDescriptorLimit()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
        return;
    rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, rlim_t{1} << 20);
    ::setrlimit(RLIMIT_NOFILE, &rl);
}

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

} // namespace

int main(int argc, char** argv)
{
    raiseDescriptorLimit();
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (rl::cli::isSubcommand(args) && rl::cli::needsGui(args)) {
        // A PDF report is painted with QPainter, which needs a QGuiApplication, but never a display.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QGuiApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rankline"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RANKLINE_VERSION));
        return rl::cli::run(args);
    }
    if (rl::cli::isSubcommand(args)) {
        // Headless: no QApplication, so no display is needed and none is touched.
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rankline"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RANKLINE_VERSION));
        return rl::cli::run(args);
    }
    return runWindow(argc, argv);
}
