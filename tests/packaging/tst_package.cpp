// The Debian package as a user gets it: built by the package_deb test (CPack), unpacked with
// dpkg -x into a scratch root, and the program run from there with nothing from the build tree.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QMimeDatabase>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace
{
struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QString& program, const QStringList& args,
        const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForStarted())
        return {-1, {}, p.errorString().toUtf8()};
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QString str(const QByteArray& b)
{
    return QString::fromUtf8(b);
}

const QString kVersion = QStringLiteral(RANKLINE_VERSION);
const QString kAppId = QStringLiteral(RANKLINE_APP_ID);
// Where the package puts the window's Qt module (app/CMakeLists.txt), relative to the root.
const QString kModule = QStringLiteral("usr/" RANKLINE_GUI_MODULE_DIR "/rankline-gui.so");
} // namespace

class TestPackage : public QObject
{
    Q_OBJECT
    QTemporaryDir m_root;
    QString m_deb;

    QString root(const QString& path) const { return m_root.filePath(path); }
    QString exe() const { return root(QStringLiteral("usr/bin/rankline")); }
    QString sample() const { return root(QStringLiteral("usr/share/rankline/samples/connect-abort-2x4")); }

    // The installed program sees no RANKLINE_RESOURCES: it must find its data by itself.
    static QProcessEnvironment userEnv()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("RANKLINE_RESOURCES"));
        return env;
    }
    Run rankline(const QStringList& args) const { return run(exe(), args, userEnv()); }

private slots:
    void initTestCase()
    {
        QDir dir(QStringLiteral(RANKLINE_DEB_DIR));
        const QStringList debs = dir.entryList({QStringLiteral("rankline_*.deb")}, QDir::Files);
        QVERIFY2(debs.size() == 1, qPrintable(QStringLiteral("expected one rankline_*.deb in %1 (the "
                                                             "package_deb test builds it), found %2")
                                                  .arg(dir.path())
                                                  .arg(debs.size())));
        m_deb = dir.filePath(debs.first());
        qInfo("package: %s (%lld bytes)", qPrintable(m_deb), QFileInfo(m_deb).size());
        QVERIFY(m_root.isValid());
        Run x = run(QStringLiteral("dpkg"), {QStringLiteral("-x"), m_deb, m_root.path()});
        QVERIFY2(x.code == 0, x.err.constData());
        QVERIFY(QFileInfo(exe()).isExecutable());
    }

    void controlFields()
    {
        Run f = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), m_deb, QStringLiteral("Package"),
                                                 QStringLiteral("Version"), QStringLiteral("Depends")});
        QCOMPARE(f.code, 0);
        const QString fields = str(f.out);
        qInfo("%s", qPrintable(fields.trimmed()));
        QVERIFY(fields.contains(QStringLiteral("Package: rankline\n")));
        QVERIFY2(fields.contains(QStringLiteral("Version: %1-1\n").arg(kVersion)), qPrintable(fields));

        // Computed by dpkg-shlibdeps: every dependency carries a minimum version from the
        // libraries' symbols files, and only libraries the binary links are there.
        QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("^Depends: (.*)$"), QRegularExpression::MultilineOption)
                .match(fields);
        QVERIFY2(m.hasMatch(), "no Depends field: was dpkg-shlibdeps run?");
        const QStringList deps = m.captured(1).split(QStringLiteral(", "));
        for (const QString& d : deps) {
            QVERIFY2(d.contains(QStringLiteral("(>= ")), qPrintable(d));
            QVERIFY2(!d.contains(QStringLiteral("-dev")), qPrintable(d));
        }
        for (const char* needed :
             {"libc6 ", "libqt6core6 ", "libqt6gui6 ", "libqt6widgets6 ", "libarchive13 "})
            QVERIFY2(m.captured(1).contains(QLatin1String(needed)), needed);
        // Linked by the build for other targets, not needed by the program.
        for (const char* unneeded : {"libqt6svg6", "libqt6printsupport6", "libqt6test6", "libqt6concurrent6"})
            QVERIFY2(!m.captured(1).contains(QLatin1String(unneeded)), unneeded);
    }

    void contents()
    {
        Run c = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), m_deb});
        QCOMPARE(c.code, 0);
        const QStringList lines = str(c.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const QString& line : lines) {
            const QString path = line.section(QLatin1Char(' '), -1);
            QVERIFY2(path.startsWith(QLatin1String("./usr/")), qPrintable(line));
            if (path == QLatin1String("./") + kModule)
                continue; // the one library: the window's Qt module, which the binary loads
            for (const char* bad : {"tst_", "libnccl", "svgtopng", "CMake", "/build/", ".so"})
                QVERIFY2(!path.contains(QLatin1String(bad)), qPrintable(line));
            for (const char* bad : {".a", ".h", ".o"})
                QVERIFY2(!path.endsWith(QLatin1String(bad)), qPrintable(line));
        }
        const QStringList expected = {
            QStringLiteral("usr/bin/rankline"),
            kModule,
            QStringLiteral("usr/share/rankline/encyclopedia/nccl-socket-connect-abort.json"),
            QStringLiteral("usr/share/rankline/samples/connect-abort-2x4/gpu-b/rank5.log"),
            QStringLiteral("usr/share/rankline/samples/connect-abort-2x4.md"),
            QStringLiteral("usr/share/applications/%1.desktop").arg(kAppId),
            QStringLiteral("usr/share/metainfo/%1.metainfo.xml").arg(kAppId),
            QStringLiteral("usr/share/mime/packages/%1.xml").arg(kAppId),
            QStringLiteral("usr/share/icons/hicolor/scalable/apps/%1.svg").arg(kAppId),
            QStringLiteral("usr/share/man/man1/rankline.1.gz"),
            QStringLiteral("usr/share/bash-completion/completions/rankline"),
            QStringLiteral("usr/share/doc/rankline/README.md"),
        };
        for (const QString& p : expected)
            QVERIFY2(QFileInfo::exists(root(p)), qPrintable(p));
    }

    void icons()
    {
        for (int size : {16, 24, 32, 48, 64, 128, 256}) {
            const QString p =
                root(QStringLiteral("usr/share/icons/hicolor/%1x%1/apps/%2.png").arg(size).arg(kAppId));
            QImage img(p);
            QVERIFY2(!img.isNull(), qPrintable(p));
            QCOMPARE(img.size(), QSize(size, size));
            QVERIFY2(img.hasAlphaChannel(), qPrintable(p));
        }
    }

    void noRunpath()
    {
        for (const QString& file : {exe(), root(kModule)}) {
            Run r = run(QStringLiteral("readelf"), {QStringLiteral("-d"), file});
            QCOMPARE(r.code, 0);
            QVERIFY2(!r.out.contains("RUNPATH") && !r.out.contains("RPATH"), r.out.constData());
        }
    }

    // The binary needs no Qt library itself: the headless commands never map one (the loader
    // lists what it loads under LD_DEBUG=libs), and the window and `report` find the installed
    // module that brings Qt in.
    void qtOnlyWhereNeeded()
    {
        Run needed = run(QStringLiteral("readelf"), {QStringLiteral("-d"), exe()});
        QCOMPARE(needed.code, 0);
        QVERIFY2(!needed.out.contains("libQt6"), needed.out.constData());
        QProcessEnvironment env = userEnv();
        env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("libs"));
        Run headless =
            run(exe(), {QStringLiteral("diagnose"), sample(), QStringLiteral("--no-local-nccl")}, env);
        QCOMPARE(headless.code, 0);
        QVERIFY2(headless.err.contains("calling init:"), "LD_DEBUG=libs printed nothing");
        QVERIFY2(!headless.err.contains("libQt6"), "diagnose mapped a Qt library");

        QTemporaryDir out;
        QVERIFY(out.isValid());
        const QString pdf = out.filePath(QStringLiteral("report.pdf"));
        Run report = run(exe(),
                         {QStringLiteral("report"), sample(), QStringLiteral("-o"), pdf,
                          QStringLiteral("--no-local-nccl")},
                         env);
        QVERIFY2(report.code == 0, report.err.right(2000).constData());
        QVERIFY2(report.err.contains(kModule.section(QLatin1Char('/'), -1).toUtf8()),
                 "report did not load the module");
        QVERIFY2(report.err.contains("libQt6Gui"), "report did not map Qt");
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");

        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.remove(QStringLiteral("LD_DEBUG"));
        const QString shot = out.filePath(QStringLiteral("window.png"));
        Run window = run(exe(), {QStringLiteral("--sample"), QStringLiteral("--screenshot"), shot}, env);
        QVERIFY2(window.code == 0, window.err.constData());
        QImage img(shot);
        QVERIFY2(!img.isNull() && img.width() > 600, qPrintable(shot));
    }

    void version()
    {
        Run r = rankline({QStringLiteral("--version")});
        QCOMPARE(r.code, 0);
        QCOMPARE(str(r.out), QStringLiteral("rankline %1\n").arg(kVersion));
    }

    void help()
    {
        Run r = rankline({QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("Usage: rankline"));
        for (const char* word : {"diagnose", "probe", "encyclopedia", "--version"})
            QVERIFY2(r.out.contains(word), word);
    }

    void diagnoseInstalledSample()
    {
        Run r = rankline({QStringLiteral("diagnose"), sample(), QStringLiteral("--json"),
                          QStringLiteral("--no-local-nccl")});
        QVERIFY2(r.code == 0, r.err.constData());
        json d = json::parse(r.out.toStdString());
        QCOMPARE(d["initiating"]["rank"].get<int>(), 5);
        QCOMPARE(QString::fromStdString(d["initiating"]["file"]), QStringLiteral("gpu-b/rank5.log"));
        QCOMPARE(QString::fromStdString(d["initiating"]["entry"]),
                 QStringLiteral("nccl-socket-connect-abort"));
        QCOMPARE(QString::fromStdString(d["tool_version"]), kVersion);
        qInfo("installed rankline diagnose --json: initiating %s", d["initiating"].dump().c_str());

        Run text = rankline({QStringLiteral("diagnose"), sample(), QStringLiteral("--no-local-nccl")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.startsWith(QStringLiteral("Rankline %1 diagnosis:").arg(kVersion).toUtf8()));
        QVERIFY(text.out.contains("rank 5 (gpu-b"));
    }

    // The installed program reads the installed encyclopedia: a broken entry dropped into the
    // scratch root breaks it, and nothing in the source tree does.
    void readsInstalledEncyclopedia()
    {
        const QString broken = root(QStringLiteral("usr/share/rankline/encyclopedia/zz-broken.json"));
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{");
        }
        Run bad = rankline({QStringLiteral("encyclopedia")});
        QFile::remove(broken);
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains(broken.toUtf8()), bad.err.constData());
        Run good = rankline({QStringLiteral("encyclopedia")});
        QVERIFY2(good.code == 0, good.err.constData());
    }

    // With the source and build trees hidden (an empty folder mounted over them in a private mount
    // namespace), the installed program still diagnoses the installed sample.
    void runsWithoutTheBuildTree()
    {
        if (run(QStringLiteral("unshare"), {QStringLiteral("-rm"), QStringLiteral("true")}).code != 0)
            QSKIP("unshare -rm (user and mount namespaces) is not available here");
        QTemporaryDir empty;
        QVERIFY(empty.isValid());
        const QString script = QStringLiteral(
            "mount --bind \"$1\" \"$3\" && mount --bind \"$1\" \"$2\" && test ! -e \"$2/CMakeLists.txt\" && "
            "exec \"$4\" diagnose \"$5\" --json --no-local-nccl");
        Run r = run(QStringLiteral("unshare"),
                    {QStringLiteral("-rm"), QStringLiteral("sh"), QStringLiteral("-c"), script,
                     QStringLiteral("sh"), empty.path(), QStringLiteral(RANKLINE_SOURCE_DIR),
                     QStringLiteral(RANKLINE_BUILD_DIR), exe(), sample()},
                    userEnv());
        QVERIFY2(r.code == 0, r.err.constData());
        json d = json::parse(r.out.toStdString());
        QCOMPARE(d["initiating"]["rank"].get<int>(), 5);
    }

    void desktopFile()
    {
        const QString file = root(QStringLiteral("usr/share/applications/%1.desktop").arg(kAppId));
        Run v = run(QStringLiteral("desktop-file-validate"), {file});
        QVERIFY2(v.code == 0 && v.out.isEmpty() && v.err.isEmpty(), (v.out + v.err).constData());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = str(f.readAll());
        QVERIFY(text.contains(QStringLiteral("\nExec=rankline %F\n")));
        QVERIFY(text.contains(QStringLiteral("\nIcon=%1\n").arg(kAppId)));
        QVERIFY(text.contains(QStringLiteral("MimeType=application/x-rankline-bundle;")));
        QVERIFY(text.contains(QStringLiteral("application/x-compressed-tar;")));
    }

    void appstream()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("appstreamcli")).isEmpty())
            QSKIP("appstreamcli not installed (Debian package appstream, listed in "
                  "packaging/debian-packages.txt)");
        // validate-tree checks the metainfo file and that its desktop file and icon are installed.
        Run v = run(QStringLiteral("appstreamcli"),
                    {QStringLiteral("validate-tree"), QStringLiteral("--no-net"), m_root.path()});
        qInfo("%s", (v.out + v.err).trimmed().constData());
        QVERIFY2(v.code == 0, (v.out + v.err).constData());
        QFile f(root(QStringLiteral("usr/share/metainfo/%1.metainfo.xml").arg(kAppId)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains(QStringLiteral("<release version=\"%1\"").arg(kVersion).toUtf8()));
    }

    // The MIME package compiles, and with it a *.logs.tar.gz is a Rankline log bundle while any
    // other .tar.gz stays a plain compressed tar.
    void mimeType()
    {
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir().mkpath(data.filePath(QStringLiteral("mime/packages"))));
        QVERIFY(QFile::copy(root(QStringLiteral("usr/share/mime/packages/%1.xml").arg(kAppId)),
                            data.filePath(QStringLiteral("mime/packages/rankline.xml"))));
        const QString system = QStringLiteral("/usr/share/mime/packages/freedesktop.org.xml");
        if (QFileInfo::exists(system))
            QVERIFY(QFile::copy(system, data.filePath(QStringLiteral("mime/packages/freedesktop.org.xml"))));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_DIRS"), data.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        Run u = run(QStringLiteral("update-mime-database"), {data.filePath(QStringLiteral("mime"))}, env);
        QVERIFY2(u.code == 0 && u.err.isEmpty(), (u.out + u.err).constData());
        QFile globs(data.filePath(QStringLiteral("mime/globs2")));
        QVERIFY(globs.open(QIODevice::ReadOnly));
        QVERIFY(globs.readAll().contains("application/x-rankline-bundle:*.logs.tar.gz"));

        if (!QFileInfo::exists(system))
            QSKIP("no shared-mime-info database to resolve against");
        qputenv("XDG_DATA_DIRS", data.path().toLocal8Bit());
        qputenv("XDG_DATA_HOME", data.path().toLocal8Bit());
        QMimeDatabase db;
        QCOMPARE(
            db.mimeTypeForFile(QStringLiteral("job-17.logs.tar.gz"), QMimeDatabase::MatchExtension).name(),
            QStringLiteral("application/x-rankline-bundle"));
        QVERIFY(db.mimeTypeForName(QStringLiteral("application/x-rankline-bundle"))
                    .inherits(QStringLiteral("application/x-compressed-tar")));
        QCOMPARE(db.mimeTypeForFile(QStringLiteral("job-17.tar.gz"), QMimeDatabase::MatchExtension).name(),
                 QStringLiteral("application/x-compressed-tar"));
    }

    void manPage()
    {
        const QString page = root(QStringLiteral("usr/share/man/man1/rankline.1.gz"));
        // groff with all warnings on: the page must format cleanly.
        Run g =
            run(QStringLiteral("sh"), {QStringLiteral("-c"),
                                       QStringLiteral("set -e; gzip -dc \"$1\" > \"$1.txt\"; "
                                                      "groff -man -ww -z -Tutf8 \"$1.txt\" 2>&1; "
                                                      "head -n 5 \"$1.txt\" | grep '^\\.TH'; rm \"$1.txt\""),
                                       QStringLiteral("sh"), page});
        QVERIFY2(g.code == 0, (g.out + g.err).constData());
        QVERIFY2(g.out.startsWith(".TH RANKLINE 1"), g.out.constData()); // no groff warnings above it
        QVERIFY2(g.out.contains(QStringLiteral("\"rankline %1\"").arg(kVersion).toUtf8()), g.out.constData());
    }

    void bashCompletion()
    {
        const QString file = root(QStringLiteral("usr/share/bash-completion/completions/rankline"));
        Run r = run(QStringLiteral("bash"),
                    {QStringLiteral("-c"), QStringLiteral("source \"$1\" && complete -p rankline"),
                     QStringLiteral("bash"), file});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains("-F _rankline rankline"));
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
