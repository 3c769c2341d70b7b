// Hostile bundles: each test puts one kind of trouble next to the sample incident and checks two
// things, that the trouble is named with a clear reason and that the incident is still diagnosed.
// (tests/core/tst_bundle.cpp covers the reader's ordinary cases with small limits.)
#include <QElapsedTimer>
#include <QTest>

#include <atomic>
#include <fcntl.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>
#include <zlib.h>

#include "bundle/bundle.h"
#include "hostile_util.h"
#include "parse/line_parser.h"
#include "report/diagnosis_report.h"

using namespace hostile;

namespace
{

// `count` lines of NCCL INFO chatter, about 80 bytes each.
QByteArray chatter(int count, const QByteArray& host = "gpu-c")
{
    QByteArray out;
    out.reserve(count * 80);
    for (int i = 0; i < count; ++i)
        out += host + ":4242:4242 [0] NCCL INFO Channel " + QByteArray::number(i % 32) +
               "/0 : 0[0] -> 1[1] via P2P/IPC/read\n";
    return out;
}

} // namespace

class TestHostile : public QObject
{
    Q_OBJECT
    // Opens `text` as `name`, cuts the file to 4 KiB before the analysis reads it, and checks that
    // the bundle is still diagnosed, the file reported as shrunk, and its lines (read again later,
    // as the window does) safe: the lost part reads as NUL.
    void checkTruncatedWhileMapped(const QString& name, const QByteArray& text)
    {
        Bundle b;
        QVERIFY(b.write(name, text));
        rl::Bundle read = rl::readBundle({b.root().toStdString()});
        QVERIFY(::truncate(b.local(name).constData(), 4096) == 0);
        rl::AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = rl::analyze(std::move(read), encyclopedia(), o);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(reasonFor(*a, name).contains(QStringLiteral("shrank")));
        for (const auto& s : a->sources)
            if (s.displayPath == name.toStdString()) {
                QCOMPARE(s.text().size(), static_cast<std::size_t>(text.size())); // as opened
                QCOMPARE(s.line(static_cast<std::uint32_t>(s.lineCount() - 1)).back(), '\0');
                QVERIFY(s.line(0).starts_with("gpu-c:4242:4242 [0] NCCL INFO Channel 0/0"));
            }
    }

private slots:
    void initTestCase() { QVERIFY(encyclopedia()); }

    void specialFilesAreNeverOpened()
    {
        Bundle b;
        QVERIFY(::mkfifo(b.local(QStringLiteral("pipe.log")).constData(), 0600) == 0);
        // /dev/zero behind a symlink would never end if it were read.
        QVERIFY(::symlink("/dev/zero", b.local(QStringLiteral("zero.log")).constData()) == 0);
        int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        const QByteArray sockPath = b.local(QStringLiteral("agent.sock"));
        QVERIFY(sockPath.size() < static_cast<int>(sizeof addr.sun_path));
        std::memcpy(addr.sun_path, sockPath.constData(), static_cast<std::size_t>(sockPath.size()));
        QVERIFY(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        const bool device = ::mknod(b.local(QStringLiteral("null.log")).constData(), S_IFCHR | 0600,
                                    makedev(1, 3)) == 0; // needs root (or CAP_MKNOD)

        auto a = diagnose(b);
        ::close(sock);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(reasonFor(*a, QStringLiteral("pipe.log")).contains(QStringLiteral("not a regular file")));
        QVERIFY(reasonFor(*a, QStringLiteral("agent.sock")).contains(QStringLiteral("not a regular file")));
        QVERIFY(reasonFor(*a, QStringLiteral("zero.log")).contains(QStringLiteral("device: never opened")));
        if (device)
            QVERIFY(reasonFor(*a, QStringLiteral("null.log")).contains(QStringLiteral("device")));
        else
            qInfo("not root: the character-device case was not created (mknod needs CAP_MKNOD)");
        // The same when the special file is named on the command line.
        auto direct = diagnose(
            {b.path(QStringLiteral("pipe.log")).toStdString(), b.path(QStringLiteral("job")).toStdString()});
        QVERIFY(sampleDiagnosed(*direct));
        QVERIFY(reasonFor(*direct, QStringLiteral("pipe.log")).contains(QStringLiteral("FIFO")));
    }

    void symlinkLoops()
    {
        Bundle b;
        QVERIFY(::symlink(b.local(QStringLiteral("job")).constData(),
                          b.local(QStringLiteral("job/gpu-a/up")).constData()) == 0); // a folder loop
        QVERIFY(::symlink("self.log", b.local(QStringLiteral("self.log")).constData()) == 0);
        QVERIFY(::symlink("pong.log", b.local(QStringLiteral("ping.log")).constData()) == 0);
        QVERIFY(::symlink("ping.log", b.local(QStringLiteral("pong.log")).constData()) == 0);
        auto a = diagnose(b);
        QVERIFY(sampleDiagnosed(*a));
        QCOMPARE(a->sources.size(), std::size_t{8}); // the loop added no file twice
        QVERIFY(reasonFor(*a, QStringLiteral("job/gpu-a/up/")).contains(QStringLiteral("symbolic link")));
        for (const char* f : {"self.log", "ping.log", "pong.log"})
            QVERIFY2(reasonFor(*a, QString::fromLatin1(f)).contains(QStringLiteral("symbolic link")), f);
    }

    void nulBytes()
    {
        Bundle b;
        QFile zeros(b.path(QStringLiteral("zeros.log")));
        QVERIFY(zeros.open(QIODevice::WriteOnly) && zeros.resize(8 << 20)); // 8 MiB of NUL, sparse
        zeros.close();
        // A log whose tail became NUL blocks (a crash before the file system flushed).
        QByteArray tail = chatter(2000) + QByteArray(1 << 20, '\0') + chatter(10);
        QVERIFY(b.write(QStringLiteral("crashed.log"), tail));
        auto a = diagnose(b);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(reasonFor(*a, QStringLiteral("zeros.log")).contains(QStringLiteral("binary")));
        QVERIFY(sourceNames(*a).contains(QStringLiteral("crashed.log")));
        QVERIFY(!diagnosisJson(*a).empty());
    }

    // After a crash, a block of NUL bytes often runs straight into the next line: the NCCL prefix
    // after it still names its host, and a 1 MiB "host" is never taken for one.
    void nulBlockRunsIntoALine()
    {
        const std::string line = std::string(1 << 20, '\0') + "gpu-c:4242:4243 [0] NCCL INFO Init COMM";
        rl::ParsedLine p = rl::parseLine(line);
        QVERIFY(p.nccl);
        QCOMPARE(p.nccl->host, std::string_view("gpu-c"));
        QCOMPARE(p.nccl->pid, 4242);
        const std::string longName = std::string(1 << 20, 'h') + ":1:2 [0] NCCL INFO Init COMM";
        QVERIFY(!rl::parseLine(longName).nccl);
    }

    void invalidUtf8Everywhere()
    {
        Bundle b;
        // Every line of every sample file, and the file names, get bytes that are not UTF-8.
        const QByteArray bad("\xff\xfe\xc3\x28\xe2\x82\x80\xf0\x28\x8c\xbc", 11);
        QDirIterator it(b.path(QStringLiteral("job")), QDir::Files, QDirIterator::Subdirectories);
        QStringList files;
        while (it.hasNext())
            files << it.next();
        for (const QString& f : files) {
            QByteArray text = readAll(f);
            text.replace("\n", " " + bad + "\n");
            QFile::remove(f);
            QVERIFY(b.write(QDir(b.root()).relativeFilePath(f), text));
        }
        QVERIFY(b.write(QStringLiteral("extra/rank9.log"), bad + "\n" + bad + " NCCL WARN " + bad + "\n"));
        const QByteArray badName = b.local(QStringLiteral("extra/")) + "r\xff\xfe.log";
        int fd = ::open(badName.constData(), O_WRONLY | O_CREAT, 0644);
        QVERIFY(fd >= 0);
        QVERIFY(::write(fd, "x\n", 2) == 2);
        ::close(fd);
        QVERIFY(writeArchive(b.path(QStringLiteral("extra/names.tar.gz")),
                             {{QByteArray("m\xff\xc3\x28.log", 8), "line " + bad + "\n"}}));

        auto a = diagnose(b);
        QVERIFY(::unlink(badName.constData()) == 0); // QTemporaryDir cannot name it to remove it
        QVERIFY(sampleDiagnosed(*a));
        QCOMPARE(a->sources.size(), std::size_t{11});
        const std::string text = diagnosisJson(*a);
        auto j = nlohmann::json::parse(text); // valid UTF-8, or parse throws
        QCOMPARE(j.dump(2), text);            // and printed as json::dump prints it
        QCOMPARE(j["initiating"]["rank"].get<int>(), 5);
        QVERIFY(!diagnosisText(*a).empty());
    }

    void decompressionBombs()
    {
        Bundle b;
        const QByteArray big(64 << 20, 'a'); // compresses about 1000:1
        QVERIFY(writeArchive(b.path(QStringLiteral("bomb.zip")), {{"x.log", big}}, nullptr, true));
        // A tar bomb inside a tar inside a tar: nesting is followed one level, the caps apply there.
        QVERIFY(writeArchive(b.path(QStringLiteral("l1.tar.gz")), {{"x.log", big}, {"y.log", big}}));
        QVERIFY(writeArchive(b.path(QStringLiteral("l2.tar.gz")),
                             {{"l1.tar.gz", readAll(b.path(QStringLiteral("l1.tar.gz")))}}));
        QVERIFY(writeArchive(b.path(QStringLiteral("nested.tar.gz")),
                             {{"l2.tar.gz", readAll(b.path(QStringLiteral("l2.tar.gz")))},
                              {"l1.tar.gz", readAll(b.path(QStringLiteral("l1.tar.gz")))}}));
        QFile::remove(b.path(QStringLiteral("l1.tar.gz")));
        QFile::remove(b.path(QStringLiteral("l2.tar.gz")));

        auto a = diagnose(b); // default limits
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(reasonFor(*a, QStringLiteral("bomb.zip")).contains(QStringLiteral("bomb")));
        QVERIFY(reasonFor(*a, QStringLiteral("nested.tar.gz!l1.tar.gz")).contains(QStringLiteral("bomb")));
        QVERIFY(reasonFor(*a, QStringLiteral("nested.tar.gz!l2.tar.gz!l1.tar.gz"))
                    .contains(QStringLiteral("nested")));
        for (const auto& s : a->sources)
            QVERIFY2(s.size < (std::uint64_t{48} << 20), s.displayPath.c_str()); // the caps held
    }

    void truncatedGzip()
    {
        Bundle b;
        const QString full = b.path(QStringLiteral("full.gz"));
        gzFile g = gzopen(full.toLocal8Bit().constData(), "wb");
        const QByteArray text = chatter(20000);
        gzwrite(g, text.constData(), static_cast<unsigned>(text.size()));
        gzclose(g);
        const QByteArray gz = readAll(full);
        QFile::remove(full);
        QVERIFY(b.write(QStringLiteral("rank8.log.gz"), gz.left(gz.size() / 2)));
        auto a = diagnose(b);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(reasonFor(*a, QStringLiteral("rank8.log.gz")).contains(QStringLiteral("truncated")));
        QVERIFY(sourceNames(*a).contains(QStringLiteral("rank8.log.gz")));
    }

    void fiftyThousandEmptyFiles()
    {
        Bundle b;
        QVERIFY(QDir().mkpath(b.path(QStringLiteral("empty"))));
        const QByteArray dir = b.local(QStringLiteral("empty/"));
        for (int i = 0; i < 50000; ++i) {
            int fd = ::open((dir + QByteArray::number(i) + ".log").constData(), O_WRONLY | O_CREAT, 0644);
            QVERIFY(fd >= 0);
            ::close(fd);
        }
        QElapsedTimer t;
        t.start();
        auto a = diagnose(b);
        qInfo("50,000 empty files diagnosed in %lld ms", static_cast<long long>(t.elapsed()));
        QVERIFY(sampleDiagnosed(*a));
        QCOMPARE(a->skipped.size(), std::size_t{50000});
        QVERIFY(reasonFor(*a, QStringLiteral("empty/49999.log")).contains(QStringLiteral("empty file")));
        QVERIFY(t.elapsed() < 30000);
    }

    // A mapped file cut short by another program must not kill Rankline with SIGBUS.
    void fileTruncatedWhileMapped()
    {
        checkTruncatedWhileMapped(QStringLiteral("rotating.log"),
                                  chatter(100000)); // 8 MB: mapped, not copied
    }

    // Small files are mapped too (side by side, util/mapped_file.cpp): the same guard covers them.
    void smallFileTruncatedWhileMapped()
    {
        const QByteArray text = chatter(300);
        QVERIFY(text.size() < 64 * 1024);
        checkTruncatedWhileMapped(QStringLiteral("small.log"), text);
    }

    void fileTruncatedWhileBeingRead()
    {
        // The racy version: another thread cuts the file while the scan runs, several times over.
        for (int round = 0; round < 5; ++round) {
            Bundle b;
            QVERIFY(b.write(QStringLiteral("rotating.log"), chatter(400000))); // 32 MB
            rl::Bundle read = rl::readBundle({b.root().toStdString()});
            std::atomic<bool> go{false};
            std::thread cutter([&] {
                while (!go)
                    std::this_thread::yield();
                std::this_thread::sleep_for(std::chrono::milliseconds(round * 3));
                (void)::truncate(b.local(QStringLiteral("rotating.log")).constData(), 0);
            });
            rl::AnalyzeOptions o;
            o.probeLocalNccl = false;
            go = true;
            auto a = rl::analyze(std::move(read), encyclopedia(), o);
            cutter.join();
            QVERIFY(sampleDiagnosed(*a));
        }
    }

    // A log still being written: the bundle is read as it was when opened, the file is named as
    // grown (by how much, and what to do), and reading it again takes in what was added.
    void checkGrownWhileOpen(const QString& name, const QByteArray& text)
    {
        Bundle b;
        QVERIFY(b.write(name, text));
        rl::Bundle read = rl::readBundle({b.root().toStdString()});
        const QByteArray added =
            "gpu-c:4242:4242 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
            "10.0.0.9<41234> failed : Software caused connection abort\n";
        {
            QFile f(b.path(name));
            QVERIFY(f.open(QIODevice::Append));
            QCOMPARE(f.write(added), qint64(added.size()));
        }
        rl::AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = rl::analyze(std::move(read), encyclopedia(), o);
        QVERIFY(sampleDiagnosed(*a));
        const QString reason = reasonFor(*a, name);
        QVERIFY2(reason.contains(QStringLiteral("grew by %1 bytes").arg(added.size())), qPrintable(reason));
        QVERIFY2(reason.contains(QStringLiteral("reload")), qPrintable(reason));
        QCOMPARE(a->grown.size(), std::size_t{1});
        const rl::Source& grown = a->source(a->grown.front());
        QCOMPARE(QString::fromStdString(grown.displayPath), name);
        QCOMPARE(grown.text().size(), static_cast<std::size_t>(text.size())); // as opened
        for (const auto& e : a->events)
            QVERIFY(e.where.source != grown.id || e.level < rl::Level::Warn); // the WARN came later
        // Analysed again from the same sources (as the window does for clock settings): said once.
        rl::Bundle same;
        same.sources = a->sources;
        same.skipped = a->skipped;
        auto redone = rl::analyze(std::move(same), encyclopedia(), o);
        QCOMPARE(redone->grown.size(), std::size_t{1});
        QCOMPARE(std::count_if(
                     redone->skipped.begin(), redone->skipped.end(),
                     [](const rl::Skipped& sk) { return sk.reason.find("grew by") != std::string::npos; }),
                 std::ptrdiff_t{1});
        // Read again: the whole file, nothing to say about it.
        auto again = diagnose(b);
        QVERIFY(sampleDiagnosed(*again));
        QVERIFY(again->grown.empty());
        QVERIFY(reasonFor(*again, name).isEmpty());
        bool warnSeen = false;
        for (const auto& e : again->events)
            warnSeen = warnSeen || (again->source(e.where.source).displayPath == name.toStdString() &&
                                    e.level == rl::Level::Warn);
        QVERIFY(warnSeen);
    }

    void smallFileGrowsWhileOpen() { checkGrownWhileOpen(QStringLiteral("live.log"), chatter(300)); }
    void mappedFileGrowsWhileOpen() { checkGrownWhileOpen(QStringLiteral("live.log"), chatter(100000)); }

    // Replaced by a longer file of the same name (rotated): not the file that was opened, so
    // nothing grew; what was opened is diagnosed.
    void mappedFileReplacedWhileOpen()
    {
        Bundle b;
        QVERIFY(b.write(QStringLiteral("rotated.log"), chatter(100000)));
        rl::Bundle read = rl::readBundle({b.root().toStdString()});
        QVERIFY(
            QFile::rename(b.path(QStringLiteral("rotated.log")), b.path(QStringLiteral("rotated.log.1"))));
        QVERIFY(b.write(QStringLiteral("rotated.log"), chatter(200000)));
        rl::AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = rl::analyze(std::move(read), encyclopedia(), o);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(a->grown.empty());
        QVERIFY(reasonFor(*a, QStringLiteral("rotated.log")).isEmpty());
    }

    // After the analysis (the window watches the open bundle): each file's fate told apart by one
    // stat, small (held open) and mapped files alike; untouched files and pasted text say nothing.
    void filesChangedAfterTheAnalysis()
    {
        Bundle b;
        // Each its own process: the same bytes in two files would be a copy, read once.
        QVERIFY(b.write(QStringLiteral("small-grows.log"), chatter(300, "gpu-c1")));
        QVERIFY(b.write(QStringLiteral("mapped-grows.log"), chatter(100000, "gpu-c2")));
        QVERIFY(b.write(QStringLiteral("small-rotated.log"), chatter(300, "gpu-c3")));
        QVERIFY(b.write(QStringLiteral("mapped-cut.log"), chatter(100000, "gpu-c4")));
        QVERIFY(b.write(QStringLiteral("small-deleted.log"), chatter(300, "gpu-c5")));
        auto a = diagnose(b);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(rl::sourcesChangedOnDisk(a->sources).empty());
        const QByteArray added = "one more line\n";
        for (const char* name : {"small-grows.log", "mapped-grows.log"}) {
            QFile f(b.path(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::Append));
            QCOMPARE(f.write(added), qint64(added.size()));
        }
        QVERIFY(QFile::rename(b.path(QStringLiteral("small-rotated.log")),
                              b.path(QStringLiteral("small-rotated.log.1"))));
        QVERIFY(b.write(QStringLiteral("small-rotated.log"), chatter(10)));
        QVERIFY(::truncate(b.local(QStringLiteral("mapped-cut.log")).constData(), 100) == 0);
        QVERIFY(QFile::remove(b.path(QStringLiteral("small-deleted.log"))));

        std::map<std::string, rl::ChangedSource> seen;
        for (const rl::ChangedSource& c : rl::sourcesChangedOnDisk(a->sources))
            seen.emplace(a->source(c.source).displayPath, c);
        QCOMPARE(seen.size(), std::size_t{5}); // the sample's files are as they were
        using K = rl::FileChange::Kind;
        QCOMPARE(seen.at("small-grows.log").change.kind, K::Grew);
        QCOMPARE(seen.at("mapped-grows.log").change.kind, K::Grew);
        QCOMPARE(seen.at("small-rotated.log").change.kind, K::Replaced);
        QCOMPARE(seen.at("mapped-cut.log").change.kind, K::Shrank);
        QCOMPARE(seen.at("mapped-cut.log").change.sizeNow, std::uint64_t{100});
        QCOMPARE(seen.at("small-deleted.log").change.kind, K::Gone);
        const rl::Source& grown = a->source(seen.at("mapped-grows.log").source);
        QCOMPARE(QString::fromStdString(rl::describeChange(seen.at("mapped-grows.log").change, grown.size)),
                 QStringLiteral("grew by %1 bytes since it was read").arg(added.size()));
        QVERIFY(rl::describeChange(seen.at("small-rotated.log").change, 1).find("rotated") !=
                std::string::npos);
        QVERIFY(rl::describeChange(seen.at("small-deleted.log").change, 1).find("deleted") !=
                std::string::npos);
        // Pasted text has no file behind it.
        std::vector<rl::Source> pasted{rl::sourceFromText("pasted-1.txt", "NCCL WARN x\n")};
        QVERIFY(rl::sourcesChangedOnDisk(pasted).empty());
        // Asked to stop, it stops.
        QVERIFY(rl::sourcesChangedOnDisk(a->sources, [] { return true; }).empty());
    }

    // New files in the opened folders (a rank that started writing later, a rotated log's old
    // half) are told apart from everything the bundle already names: sources, archives, binary
    // files and special files it skipped, older torchrun attempts it set aside.
    void filesAddedAfterTheAnalysis()
    {
        Bundle b;
        QVERIFY(b.write(QStringLiteral("rank8.log"), chatter(300)));
        QVERIFY(b.write(QStringLiteral("core.bin"), QByteArray("\x7f"
                                                               "ELF\0\0\0\0binary",
                                                               15)));
        QVERIFY(writeArchive(b.path(QStringLiteral("node-3.tar.gz")), {{"rank9.log", chatter(10)}}));
        QVERIFY(b.write(QStringLiteral("run/attempt_0/0/stdout.log"), chatter(10)));
        QVERIFY(b.write(QStringLiteral("run/attempt_1/0/stdout.log"), chatter(10)));
        QVERIFY(::mkfifo(b.local(QStringLiteral("pipe.log")).constData(), 0600) == 0);
        auto a = diagnose(b);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(!reasonFor(*a, QStringLiteral("core.bin")).isEmpty());
        QVERIFY(!reasonFor(*a, QStringLiteral("attempt_0/0/stdout.log")).isEmpty());
        const std::vector<std::string> root{b.root().toStdString()};
        QCOMPARE(rl::filesAddedSince(root, a->sources, a->skipped), std::vector<std::string>{});

        QVERIFY(b.write(QStringLiteral("node-2/rank10.log"), chatter(10))); // in a new folder
        QVERIFY(QFile::rename(b.path(QStringLiteral("rank8.log")), b.path(QStringLiteral("rank8.log.1"))));
        QVERIFY(b.write(QStringLiteral("rank8.log"), chatter(5))); // rotated: a source still
        QVERIFY(::mkfifo(b.local(QStringLiteral("pipe2.log")).constData(), 0600) == 0); // never read
        QCOMPARE(rl::filesAddedSince(root, a->sources, a->skipped),
                 (std::vector<std::string>{"node-2/rank10.log", "rank8.log.1"}));
        // Opened with another path, each folder's files are named under the folder's name.
        QTemporaryDir other;
        QVERIFY(QFile(other.filePath(QStringLiteral("a.log"))).open(QIODevice::WriteOnly));
        const std::vector<std::string> both{b.root().toStdString(), other.path().toStdString()};
        auto two = diagnose(both);
        QCOMPARE(rl::filesAddedSince(both, two->sources, two->skipped), std::vector<std::string>{});
        QVERIFY(QFile(other.filePath(QStringLiteral("b.log"))).open(QIODevice::WriteOnly));
        const std::string otherName = QFileInfo(other.path()).fileName().toStdString();
        QCOMPARE(rl::filesAddedSince(both, two->sources, two->skipped),
                 std::vector<std::string>{otherName + "/b.log"});
        // A file opened by name is not a folder to list; a folder gone says nothing; asked to stop,
        // it stops.
        const std::vector<std::string> file{b.path(QStringLiteral("rank8.log")).toStdString()};
        QCOMPARE(rl::filesAddedSince(file, {}, {}), std::vector<std::string>{});
        QCOMPARE(rl::filesAddedSince({b.path(QStringLiteral("gone")).toStdString()}, {}, {}),
                 std::vector<std::string>{});
        QCOMPARE(rl::filesAddedSince(root, a->sources, a->skipped, [] { return true; }),
                 std::vector<std::string>{});
    }

    void fileDeletedWhileBeingRead()
    {
        Bundle b;
        QVERIFY(b.write(QStringLiteral("rank8.log"), chatter(100000)));
        rl::Bundle read = rl::readBundle({b.root().toStdString()});
        QVERIFY(QDir(b.root()).removeRecursively()); // every file, the sample included
        rl::AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto a = rl::analyze(std::move(read), encyclopedia(), o);
        QVERIFY(sampleDiagnosed(*a)); // what was opened stays readable
        QCOMPARE(a->sources.size(), std::size_t{9});
        QVERIFY(a->skipped.empty());
    }

    // Member names that point outside: nothing is ever extracted, so nothing can land there.
    void archiveMembersThatEscape()
    {
        Bundle b;
        QTemporaryDir outside;
        const QByteArray abs = outside.filePath(QStringLiteral("abs.log")).toLocal8Bit();
        const QByteArray dotdot =
            "../../../../../../../.." + outside.filePath(QStringLiteral("up.log")).toLocal8Bit();
        QVERIFY(writeArchive(b.path(QStringLiteral("evil.tar.gz")),
                             {{dotdot, "escaped\n"},
                              {abs, "absolute\n"},
                              {"a/../../b.log", "dots\n"},
                              {"link", {}, AE_IFLNK, outside.path().toLocal8Bit()},
                              {"link/through.log", "through a symlink\n"},
                              {"hard", {}, AE_IFREG, abs}}));
        QVERIFY(writeArchive(b.path(QStringLiteral("evil.zip")), {{dotdot, "zip escaped\n"}}, nullptr, true));
        const QStringList before =
            QDir(b.root()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);

        auto a = diagnose(b);
        QVERIFY(sampleDiagnosed(*a));
        QVERIFY(QDir(outside.path()).isEmpty());
        QCOMPARE(QDir(b.root()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
        // The members are read in place, under the names the archive gave them.
        const QStringList names = sourceNames(*a);
        QVERIFY(names.contains(QStringLiteral("evil.tar.gz!") + QString::fromLocal8Bit(dotdot)));
        QVERIFY(names.contains(QStringLiteral("evil.zip!") + QString::fromLocal8Bit(dotdot)));
        QVERIFY(names.contains(QStringLiteral("evil.tar.gz!link/through.log")));
    }
};

QTEST_GUILESS_MAIN(TestHostile)
#include "tst_hostile.moc"
