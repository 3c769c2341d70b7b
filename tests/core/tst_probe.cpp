#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <dlfcn.h>
#include <set>
#include <unistd.h>

#include "probe/isolated.h"
#include "probe/local_facts.h"
#include "probe/nccl_discovery.h"
#include "probe/nccl_probe.h"

using namespace rl;

class TestProbe : public QObject
{
    Q_OBJECT
private slots:
    void versionCodes_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("version");
        QTest::newRow("2.8.4 old scheme") << 2804 << "2.8.4";
        QTest::newRow("2.18.3") << 21803 << "2.18.3";
        QTest::newRow("2.23.4") << 22304 << "2.23.4";
        QTest::newRow("2.28.9") << 22809 << "2.28.9";
    }
    void versionCodes()
    {
        QFETCH(int, code);
        QFETCH(QString, version);
        QCOMPARE(QString::fromStdString(Version::fromNcclCode(code).toString()), version);
    }

    void fakeLibrary()
    {
        NcclProbeResult r = probeNccl(FAKE_NCCL_PATH);
        QVERIFY2(r.found, r.error.c_str());
        QCOMPARE(r.code, 22304);
        QCOMPARE(QString::fromStdString(r.version.toString()), QStringLiteral("2.23.4"));
        QCOMPARE(QFileInfo(QString::fromStdString(r.path)).canonicalFilePath(),
                 QFileInfo(QStringLiteral(FAKE_NCCL_PATH)).canonicalFilePath());
    }

    void missingLibraryIsANormalAnswer()
    {
        NcclProbeResult r = probeNccl("/nonexistent/libnccl.so.2");
        QVERIFY(!r.found);
        QVERIFY(!r.error.empty());
    }

    void libraryWithoutSymbol()
    {
        NcclProbeResult r = probeNccl("libz.so.1");
        QVERIFY(!r.found);
        QVERIFY(QString::fromStdString(r.error).contains(QStringLiteral("ncclGetVersion")));
    }

    // The machine's own NCCL, when it has one (the CUDA toolkit's on this kind of machine).
    void realLibrary()
    {
        NcclProbeResult r = probeNccl();
        if (!r.found)
            QSKIP(qPrintable(
                QStringLiteral("no libnccl.so.2 on this machine: %1").arg(QString::fromStdString(r.error))));
        QVERIFY(r.version >= (Version{2, 0, 0}));
        QVERIFY(QFileInfo::exists(QString::fromStdString(r.path)));
        qInfo("local NCCL %s at %s", r.version.toString().c_str(), r.path.c_str());
        // The real file is libnccl.so.2.<minor>.<patch>; its name must agree with ncclGetVersion.
        QString real = QFileInfo(QFileInfo(QString::fromStdString(r.path)).canonicalFilePath()).fileName();
        if (real.startsWith(QLatin1String("libnccl.so.2.")))
            QCOMPARE(real.mid(11), QString::fromStdString(r.version.toString()));
    }

    // Probing in a child leaves nothing loaded here.
    void isolatedProbe()
    {
        NcclProbeResult r = probeNcclIsolated(FAKE_NCCL_PATH);
        QVERIFY2(r.found, r.error.c_str());
        QCOMPARE(QString::fromStdString(r.version.toString()), QStringLiteral("2.23.4"));
        QVERIFY(r.note.empty());
        QVERIFY(!::dlopen(FAKE_NCCL_PATH, RTLD_NOW | RTLD_NOLOAD));
        NcclProbeResult missing = probeNcclIsolated("/nonexistent/libnccl.so.2");
        QVERIFY(!missing.found);
        QVERIFY(!missing.error.empty());
    }

    // Why children: while a libnccl.so.2 is loaded (a handle still open, as a framework keeps it,
    // or a library glibc cannot unload), a plain dlopen of the soname returns it instead of searching
    // as a fresh process would. Shown in a child so this process stays clean.
    void sonameReturnsWhatIsLoaded()
    {
        IsolatedResult child = runIsolated([] {
            void* held = ::dlopen(FAKE_NCCL_PATH, RTLD_NOW | RTLD_LOCAL); // kept open
            NcclProbeResult plain = probeNccl("libnccl.so.2");
            NcclProbeResult grandchild = probeNcclIsolated("libnccl.so.2");
            return std::string(held ? "1" : "0") + "|" + plain.path + "|" + grandchild.path + "|" +
                   grandchild.note;
        });
        QVERIFY2(child.ok, child.error.c_str());
        const QStringList parts = QString::fromStdString(child.output).split(QLatin1Char('|'));
        QCOMPARE(parts.size(), 4);
        auto real = [](const QString& p) { return QFileInfo(p).canonicalFilePath(); };
        const QString fake = real(QStringLiteral(FAKE_NCCL_PATH));
        QCOMPARE(parts[0], QStringLiteral("1"));
        QCOMPARE(real(parts[1]), fake); // the loaded one, not the loader's fresh choice
        QCOMPARE(real(parts[2]), fake); // a child inherits it...
        QVERIFY2(parts[3].contains(QStringLiteral("already loaded")), qPrintable(parts[3])); // ...and says so
    }

    // A library file cut short (a partial copy): the loader faults on a page past its end, and the
    // answer says so rather than only naming the signal.
    void truncatedLibrary()
    {
        QFile full(QStringLiteral(FAKE_NCCL_PATH));
        QVERIFY(full.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cut = dir.filePath(QStringLiteral("libnccl.so.2"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(full.read(full.size() / 2));
        out.close();
        const NcclProbeResult r = probeNcclIsolated(cut.toStdString());
        QVERIFY(!r.found);
        QVERIFY2(r.error.find("truncated copy") != std::string::npos, r.error.c_str());
    }

    void isolatedChildCrashOrHang()
    {
        IsolatedResult crash = runIsolated([]() -> std::string {
            ::raise(SIGSEGV);
            return "unreachable";
        });
        QVERIFY(!crash.ok);
        QVERIFY2(QString::fromStdString(crash.error).contains(QStringLiteral("died")), crash.error.c_str());
        IsolatedResult hang = runIsolated(
            []() -> std::string {
                ::sleep(30);
                return {};
            },
            200);
        QVERIFY(!hang.ok);
        QVERIFY2(QString::fromStdString(hang.error).contains(QStringLiteral("200 ms")), hang.error.c_str());
    }

    // The cache as glibc's ld.so reads it, against ldconfig's own listing.
    void ldCache()
    {
        const QString ldconfig = QFileInfo::exists(QStringLiteral("/sbin/ldconfig"))
                                     ? QStringLiteral("/sbin/ldconfig")
                                     : QStringLiteral("/usr/sbin/ldconfig");
        if (!QFileInfo::exists(QStringLiteral("/etc/ld.so.cache")) || !QFileInfo::exists(ldconfig))
            QSKIP("no /etc/ld.so.cache or ldconfig on this machine");
        std::string err;
        auto entries = readLdCache("/etc/ld.so.cache", &err);
        QVERIFY2(err.empty(), err.c_str());
        QProcess p;
        p.start(ldconfig, {QStringLiteral("-p")});
        QVERIFY(p.waitForFinished(10000));
        std::set<std::pair<std::string, std::string>> expected, got;
        const QRegularExpression row(QStringLiteral("^\\s+(\\S+) \\(.*\\) => (\\S+)$"));
        for (const QString& l : QString::fromLocal8Bit(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
            auto m = row.match(l);
            if (m.hasMatch())
                expected.insert({m.captured(1).toStdString(), m.captured(2).toStdString()});
        }
        for (const auto& e : entries)
            got.insert({e.name, e.path});
        QVERIFY(!expected.empty());
        QCOMPARE(got.size(), expected.size());
        QVERIFY(got == expected);
        qInfo("%zu cache entries agree with ldconfig -p", got.size());
    }

    void ldCacheNotACache()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("cache")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("glibc-ld.so.cache1.1 but truncated");
        f.close();
        std::string err;
        QVERIFY(readLdCache(f.fileName().toStdString(), &err).empty());
        QVERIFY(!err.empty());
        QVERIFY(readLdCache("/nonexistent/ld.so.cache", &err).empty());
    }

    // A machine laid out under a temporary root: pip wheels in system, user, virtualenv and conda
    // site-packages, a conda lib folder, a CUDA toolkit behind a symlink, LD_LIBRARY_PATH. Copies
    // are distinct libraries; symlinks to one file are one library found several ways.
    void discoveryOnATree()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("root"));
        const QString home = tmp.filePath(QStringLiteral("home"));
        const QString venv = tmp.filePath(QStringLiteral("venv"));
        const QString ld = tmp.filePath(QStringLiteral("ld"));
        auto copyTo = [](const QString& dir) {
            QVERIFY(QDir().mkpath(dir));
            QVERIFY(QFile::copy(QStringLiteral(FAKE_NCCL_PATH), dir + QStringLiteral("/libnccl.so.2")));
        };
        auto linkTo = [](const QString& dir, const QString& target) {
            QVERIFY(QDir().mkpath(dir));
            QVERIFY(QFile::link(target, dir + QStringLiteral("/libnccl.so.2")));
        };
        const QString sysSite = root + QStringLiteral("/usr/local/lib/python3.11/dist-packages");
        copyTo(sysSite + QStringLiteral("/nvidia/nccl/lib"));
        QVERIFY(QDir().mkpath(sysSite + QStringLiteral("/nvidia_nccl_cu12-2.23.4.dist-info")));
        linkTo(root + QStringLiteral("/opt/conda/lib"), QStringLiteral(FAKE_NCCL_PATH));
        copyTo(root + QStringLiteral("/opt/conda/envs/train/lib/python3.10/site-packages/nvidia/nccl/lib"));
        linkTo(home + QStringLiteral("/.local/lib/python3.12/site-packages/nvidia/nccl/lib"),
               root + QStringLiteral("/opt/conda/lib/libnccl.so.2"));
        copyTo(venv + QStringLiteral("/lib/python3.11/site-packages/nvidia/nccl/lib"));
        copyTo(root + QStringLiteral("/usr/local/cuda-12.4/lib64"));
        QVERIFY(QFile::link(root + QStringLiteral("/usr/local/cuda-12.4"),
                            root + QStringLiteral("/usr/local/cuda")));
        copyTo(ld);

        DiscoveryOptions o;
        o.root = root.toStdString();
        o.home = home.toStdString();
        o.virtualEnv = venv.toStdString();
        o.condaPrefix = "";
        o.ldLibraryPath = ld.toStdString() + ":" + tmp.filePath(QStringLiteral("empty")).toStdString();
        o.askLoader = false;
        o.readCache = false;
        o.explicitPaths = {FAKE_NCCL_PATH};
        NcclDiscovery d = discoverNccl(o);

        QMap<QString, QStringList> how; // real path -> ways found
        for (const auto& lib : d.libraries) {
            QVERIFY2(lib.probe.found, lib.probe.error.c_str());
            QCOMPARE(lib.probe.code, 22304);
            QVERIFY(!lib.loaderChoice);
            QStringList ways;
            for (const auto& l : lib.locations)
                ways << QString::fromStdString(l.how);
            how[QString::fromStdString(lib.realPath)] = ways;
        }
        auto real = [](const QString& p) { return QFileInfo(p).canonicalFilePath(); };
        const QString fake = real(QStringLiteral(FAKE_NCCL_PATH));
        QCOMPARE(d.libraries.size(), std::size_t{6});
        QCOMPARE(how.value(fake), (QStringList{"explicit", "conda", "pip"}));
        QCOMPARE(how.value(real(ld + QStringLiteral("/libnccl.so.2"))), QStringList{"LD_LIBRARY_PATH"});
        QCOMPARE(how.value(real(root + QStringLiteral("/usr/local/cuda-12.4/lib64/libnccl.so.2"))),
                 QStringList{"cuda-toolkit"}); // once, though /usr/local/cuda leads there too
        QCOMPARE(how.value(real(sysSite + QStringLiteral("/nvidia/nccl/lib/libnccl.so.2"))),
                 QStringList{"pip"});
        QCOMPARE(how.value(real(
                     venv + QStringLiteral("/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2"))),
                 QStringList{"pip"});
        QCOMPARE(how.value(real(
                     root +
                     QStringLiteral(
                         "/opt/conda/envs/train/lib/python3.10/site-packages/nvidia/nccl/lib/libnccl.so.2"))),
                 QStringList{"pip"});
        for (const auto& lib : d.libraries) {
            if (QString::fromStdString(lib.realPath).startsWith(sysSite))
                QCOMPARE(QString::fromStdString(lib.package), QStringLiteral("nvidia-nccl-cu12 2.23.4"));
            if (QString::fromStdString(lib.realPath).startsWith(venv))
                QVERIFY(
                    QString::fromStdString(lib.locations[0].detail).contains(QStringLiteral("virtualenv")));
        }
        QVERIFY(!d.loader);
        QVERIFY(!d.searched.empty());
    }

    // This machine as it is: whatever the loader picks is among the libraries found.
    void discoveryHere()
    {
        NcclDiscovery d = discoverNccl();
        QVERIFY(d.loader);
        for (const auto& s : d.searched)
            qInfo("searched %s", s.c_str());
        if (!d.loader->found)
            QSKIP(qPrintable(QStringLiteral("the loader finds no libnccl.so.2 here: %1")
                                 .arg(QString::fromStdString(d.loader->error))));
        int chosen = 0;
        for (const auto& lib : d.libraries) {
            qInfo("%s %s%s", lib.realPath.c_str(),
                  lib.probe.found ? lib.probe.version.toString().c_str() : "?",
                  lib.loaderChoice ? " (loader's choice)" : "");
            if (!lib.loaderChoice)
                continue;
            ++chosen;
            QVERIFY(lib.probe.found);
            QCOMPARE(lib.probe.code, d.loader->code);
            QCOMPARE(QString::fromStdString(lib.realPath),
                     QFileInfo(QString::fromStdString(d.loader->path)).canonicalFilePath());
        }
        QCOMPARE(chosen, 1);
    }

    void machineFacts()
    {
        KernelInfo k = kernelInfo();
        QCOMPARE(QString::fromStdString(k.sysname), QStringLiteral("Linux"));
        QVERIFY(!k.release.empty());
        CudaDriverInfo c = probeCudaDriver();
        if (c.found) {
            QVERIFY(c.driverVersion > 0);
            qInfo("CUDA driver %s at %s", cudaVersionString(c.driverVersion).c_str(), c.path.c_str());
        } else {
            QVERIFY(!c.error.empty());
            qInfo("no CUDA driver library here (a normal answer): %s", c.error.c_str());
        }
        QCOMPARE(QString::fromStdString(cudaVersionString(12020)), QStringLiteral("12.2"));
        QCOMPARE(QString::fromStdString(cudaVersionString(13000)), QStringLiteral("13.0"));
    }

    // probe/socket_retry.cpp is the one file that opens a socket (README: no network connection).
    void oneSocketOpener()
    {
        const QDir src(QStringLiteral(RANKLINE_TEST_DATA_DIR "/../.."));
        const QRegularExpression opener(
            QStringLiteral("::socket\\s*\\(|\\bsocket\\s*\\(\\s*[AP]F_|QTcpSocket|QUdpSocket|QSslSocket|"
                           "QNetworkAccessManager|QTcpServer"));
        QStringList openers;
        for (const char* dir : {"core", "app"}) {
            QDirIterator it(src.filePath(QLatin1String(dir)),
                            {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                if (opener.match(QString::fromUtf8(f.readAll())).hasMatch())
                    openers << src.relativeFilePath(path);
            }
        }
        QCOMPARE(openers, QStringList{QStringLiteral("core/probe/socket_retry.cpp")});
    }
};

QTEST_GUILESS_MAIN(TestProbe)
#include "tst_probe.moc"
