// Hostile bundles that take a gigabyte or two, written at test time (label `slow`; skip them with
// `ctest -LE slow`): a 1 GiB line, and a 2 GiB bundle read under a memory limit (ulimit -v).
#include <QElapsedTimer>
#include <QProcess>
#include <QStorageInfo>
#include <QTest>

#include <nlohmann/json.hpp>

#include "hostile_util.h"
#include "report/diagnosis_report.h"

using namespace hostile;

namespace
{

// Appends `bytes` bytes made of `chunk` repeated to `path`, streamed.
bool appendRepeated(const QString& path, const QByteArray& chunk, qint64 bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::Append))
        return false;
    for (qint64 left = bytes; left > 0; left -= chunk.size())
        if (f.write(chunk.constData(), std::min<qint64>(left, chunk.size())) < 0)
            return false;
    return true;
}

// A log of `size` bytes that costs no disk: real lines at both ends, a hole (NUL bytes) between.
bool sparseLog(const QString& path, const QByteArray& text, qint64 size)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size() || !f.resize(size - text.size()))
        return false;
    return f.seek(size - text.size()) && f.write(text) == text.size();
}

QByteArray chatterBlock(int lines)
{
    QByteArray out;
    for (int i = 0; i < lines; ++i)
        out += "gpu-c:4242:4242 [0] NCCL INFO Channel " + QByteArray::number(i % 32) +
               "/0 : 0[0] -> 1[1] via P2P/IPC/read\n";
    return out;
}

} // namespace

class TestHostileSlow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(encyclopedia()); }

    // A progress bar that never printed a newline: one line of 1 GiB, then a real one.
    void oneGiBLine()
    {
        // In memory when /dev/shm has room: writing a real gigabyte to a busy disk takes longer
        // than reading it.
        QStorageInfo shm(QStringLiteral("/dev/shm"));
        if (shm.isValid() && shm.bytesAvailable() > (qint64{3} << 30))
            qputenv("TMPDIR", "/dev/shm");
        Bundle b;
        qunsetenv("TMPDIR");
        QElapsedTimer t;
        t.start();
        const QString huge = b.path(QStringLiteral("progress.log"));
        QVERIFY(appendRepeated(huge, QByteArray(8 << 20, 'x').replace(4095, 1, "\r"), qint64{1} << 30));
        // It ends in a known failure, so the line is quoted as evidence.
        const QByteArray oom = " torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
        QVERIFY(appendRepeated(huge, oom, oom.size()));
        QVERIFY(appendRepeated(huge, "\ngpu-c:4242:4242 [0] NCCL INFO after the bar\n", 45));
        const qint64 written = t.restart();
        auto a = diagnose(b);
        qInfo("1 GiB line: written in %lld ms, diagnosed in %lld ms", written,
              static_cast<long long>(t.elapsed()));
        QVERIFY(sampleDiagnosed(*a));
        const rl::Source* src = nullptr;
        for (const auto& s : a->sources)
            if (s.displayPath == "progress.log")
                src = &s;
        QVERIFY(src);
        QCOMPARE(src->lineCount(), std::size_t{2});
        QCOMPARE(src->line(0).size(), (std::size_t{1} << 30) + oom.size());
        QCOMPARE(src->line(1), std::string_view("gpu-c:4242:4242 [0] NCCL INFO after the bar"));
        // Reports quote the start of the line and say it was cut (the window does the same).
        const std::string json = rl::diagnosisJson(*a);
        QVERIFY2(json.size() < (1 << 20), std::to_string(json.size()).c_str());
        QVERIFY(json.find("line cut at 4000 of 1073741900 bytes") != std::string::npos);
        QVERIFY(rl::diagnosisText(*a).size() < (1 << 20));
        QVERIFY(t.elapsed() < 60000);
    }

    // 2 GiB of logs, the sample first, under a 1 GiB address-space limit: what fits is diagnosed,
    // the rest is named with the reason, and the limit is never hit.
    void twoGiBBundleUnderAMemoryLimit()
    {
        Bundle b;
        QElapsedTimer t;
        t.start();
        const QByteArray block = chatterBlock(1000); // 80 KB at each end of every file
        for (int i = 0; i < 16; ++i)
            QVERIFY(sparseLog(b.path(QStringLiteral("zz-filler/rank%1.log").arg(i + 10)), block,
                              qint64{128} << 20));
        const qint64 written = t.restart();
        const qint64 limitKiB = 1 << 20; // 1 GiB of address space
        QProcess p;
        p.setProgram(QStringLiteral("bash"));
        p.setArguments({QStringLiteral("-c"),
                        QStringLiteral("ulimit -v %1 && exec \"$0\" diagnose \"$1\" --json --no-local-nccl")
                            .arg(limitKiB),
                        QStringLiteral(RANKLINE_EXE), b.root()});
        p.start();
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        qInfo("2 GiB bundle: written in %lld ms, diagnosed under ulimit -v %lld KiB in %lld ms", written,
              limitKiB, static_cast<long long>(t.elapsed()));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(j["initiating"]["rank"].get<int>(), 5);
        QCOMPARE(QString::fromStdString(j["initiating"]["file"]), QStringLiteral("job/gpu-b/rank5.log"));
        int limited = 0;
        for (const auto& s : j["skipped"])
            if (QString::fromStdString(s["reason"]).contains(QStringLiteral("memory limit")))
                ++limited;
        qInfo("%d of 16 filler files were skipped for the memory limit", limited);
        QVERIFY(limited > 0 && limited < 16); // some were read, the rest named
        QVERIFY(err.contains("memory limit"));
        QVERIFY(t.elapsed() < 60000);
    }
};

QTEST_GUILESS_MAIN(TestHostileSlow)
#include "tst_hostile_slow.moc"
