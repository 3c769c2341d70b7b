#include <QFileInfo>
#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestProbe)
#include "tst_probe.moc"
