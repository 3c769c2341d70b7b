// Small files are held open while they are read (util/mapped_file.h, SmallFile), within a share of
// the descriptor limit; beyond it they are mapped like any other file. A process of its own: the
// limit is lowered before the first file is opened, and the share is fixed from then on.

#include <QTest>

#include <dirent.h>
#include <sys/resource.h>

#include "hostile_util.h"

using namespace hostile;

namespace
{

constexpr rlim_t kLimit = 612;   // leaves (612 - 512) / 2 = 50 small files held
constexpr int kExtraFiles = 700; // more than the limit allows open at once

QByteArray nodeLog(int n)
{
    QByteArray out;
    for (int i = 0; i < 20; ++i)
        out += "node" + QByteArray::number(n) + ":77:77 [0] NCCL INFO Channel " + QByteArray::number(i) +
               "/0 : 0[0] -> 1[1] via P2P/IPC/read\n";
    return out;
}

int openDescriptors()
{
    int n = 0;
    if (DIR* d = ::opendir("/proc/self/fd")) {
        while (const dirent* e = ::readdir(d))
            n += e->d_name[0] != '.';
        ::closedir(d);
    }
    return n;
}

} // namespace

class TestDescriptors : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        rlimit rl{};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &rl) == 0);
        if (rl.rlim_max < kLimit)
            QSKIP("the hard descriptor limit is below what this test sets");
        rl.rlim_cur = kLimit;
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &rl) == 0);
        QVERIFY(encyclopedia());
    }

    void moreSmallFilesThanDescriptors()
    {
        Bundle b;
        for (int n = 0; n < kExtraFiles; ++n)
            QVERIFY(b.write(QStringLiteral("extra/node%1.log").arg(n, 3, 10, QLatin1Char('0')), nodeLog(n)));
        rl::Bundle read = rl::readBundle({b.root().toStdString()});
        QVERIFY2(read.skipped.empty(), read.skipped.empty() ? "" : read.skipped.front().reason.c_str());
        QCOMPARE(read.sources.size(), std::size_t{kExtraFiles + 8}); // and the sample's eight
        // Held files stay within their share; the rest were mapped and closed.
        QVERIFY2(openDescriptors() < 200, QByteArray::number(openDescriptors()).constData());
        // Held or mapped, a file that is gone is still read as it was when it was opened.
        QVERIFY(QDir(b.path(QStringLiteral("extra"))).removeRecursively());
        rl::AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = rl::analyze(std::move(read), encyclopedia(), o);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(a->skipped.empty());
        int extra = 0;
        for (const auto& s : a->sources) {
            const QString name = QString::fromStdString(s.displayPath);
            if (!name.startsWith(QStringLiteral("extra/")))
                continue;
            ++extra;
            const int n = name.mid(10, 3).toInt();
            QCOMPARE(s.lineCount(), std::size_t{20});
            QCOMPARE(QByteArray(s.text().data(), static_cast<qsizetype>(s.text().size())), nodeLog(n));
        }
        QCOMPARE(extra, kExtraFiles);
    }

    // The mapped small files' pages are given back once the analysis is done with them, even when
    // they add up to less than the batch that gives marked pages back together
    // (MappedFile::flushDropped): 650 one-page files left resident were 2.5 MiB of a run's peak.
    // Runs after the test above, so that the code the analysis runs is already resident.
    void mappedSmallFilesAreGivenBack()
    {
        Bundle b;
        for (int n = 0; n < kExtraFiles; ++n)
            QVERIFY(b.write(QStringLiteral("extra/node%1.log").arg(n, 3, 10, QLatin1Char('0')), nodeLog(n)));
        const long before = residentFileKiB();
        rl::AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = rl::analyze(rl::readBundle({b.root().toStdString()}), encyclopedia(), o);
        QVERIFY(sampleDiagnosed(*a));
        const long after = residentFileKiB();
        qInfo("file-backed resident memory: %ld KiB before, %ld KiB after the analysis", before, after);
        // About 650 files are mapped, a page each: 2,600 KiB if they stayed.
        QVERIFY2(before > 0 && after - before < 1024, qPrintable(QString::number(after - before)));
    }

private:
    static long residentFileKiB()
    {
        QFile f(QStringLiteral("/proc/self/status"));
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (line.startsWith("RssFile:"))
                return line.mid(8).trimmed().split(' ').front().toLong();
        return -1;
    }
};

QTEST_GUILESS_MAIN(TestDescriptors)
#include "tst_descriptors.moc"
