#include <QApplication>
#include <QCoreApplication>

#include "cli/cli.h"

int main(int argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (rl::cli::isSubcommand(args)) {
        // Headless: no QApplication, so no display is needed and none is touched.
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("rankline"));
        QCoreApplication::setApplicationVersion(QStringLiteral(RANKLINE_VERSION));
        return rl::cli::run(args);
    }
    QApplication app(argc, argv);
    return 0;
}
