#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <archive.h>
#include <archive_entry.h>
#include <grp.h>
#include <map>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis.h"
#include "bundle/bundle.h"
#include "bundle/json_records.h"
#include "encyclopedia/encyclopedia.h"
#include "report/incident_report.h"
#include "shipped_encyclopedia.h"
#include "util/populate.h"
#include "util/text_kind.h"

using namespace rl;

namespace
{

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// A JSON record written with ' for " (moc reads no raw strings).
QByteArray q(const char* singleQuoted)
{
    return QByteArray(singleQuoted).replace('\'', '"');
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

void writeGzip(const QString& path, const QByteArray& bytes)
{
    gzFile g = gzopen(path.toLocal8Bit().constData(), "wb");
    QVERIFY(g);
    gzwrite(g, bytes.constData(), static_cast<unsigned>(bytes.size()));
    gzclose(g);
}

enum class Kind { TarGz, TarXz, TarZst, TarBz2, TarLz4, TarLzip, Tar, Zip, SevenZip };

void writeArchive(const QString& path, const QList<QPair<QString, QByteArray>>& members,
                  Kind kind = Kind::TarGz)
{
    archive* a = archive_write_new();
    switch (kind) {
    case Kind::TarGz:
        archive_write_add_filter_gzip(a);
        break;
    case Kind::TarXz:
        archive_write_add_filter_xz(a);
        break;
    case Kind::TarZst:
        archive_write_add_filter_zstd(a);
        break;
    case Kind::TarBz2:
        archive_write_add_filter_bzip2(a);
        break;
    case Kind::TarLz4:
        archive_write_add_filter_lz4(a);
        break;
    case Kind::TarLzip:
        archive_write_add_filter_lzip(a);
        break;
    case Kind::Tar:
    case Kind::Zip:
    case Kind::SevenZip:
        break;
    }
    if (kind == Kind::Zip)
        archive_write_set_format_zip(a);
    else if (kind == Kind::SevenZip)
        archive_write_set_format_7zip(a);
    else
        archive_write_set_format_pax_restricted(a);
    archive_write_open_filename(a, path.toLocal8Bit().constData());
    for (const auto& [name, data] : members) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, name.toLocal8Bit().constData());
        archive_entry_set_size(e, data.size());
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_write_header(a, e);
        archive_write_data(a, data.constData(), static_cast<size_t>(data.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
}

// `data` as one stream of a compressor, as `gzip`, `zstd`, `xz`, `bzip2`, `lz4`, `lzip` or `lzma`
// write it on their own (libarchive's filters, no archive around it).
QByteArray compressed(const char* filter, const QByteArray& data)
{
    archive* a = archive_write_new();
    archive_write_add_filter_by_name(a, filter);
    archive_write_set_format_raw(a);
    archive_write_set_bytes_in_last_block(a, 1); // no padding after the stream
    std::vector<char> out(static_cast<std::size_t>(data.size()) * 2 + 65536);
    std::size_t used = 0;
    archive_write_open_memory(a, out.data(), out.size(), &used);
    archive_entry* e = archive_entry_new();
    archive_entry_set_filetype(e, AE_IFREG);
    archive_write_header(a, e);
    archive_write_data(a, data.constData(), static_cast<std::size_t>(data.size()));
    archive_entry_free(e);
    archive_write_close(a);
    archive_write_free(a);
    return QByteArray(out.data(), static_cast<qsizetype>(used));
}

// A Bundle or an Analysis: both have sources and skipped.
template <class Read> const Skipped* skippedFor(const Read& b, const QString& name)
{
    for (const auto& s : b.skipped)
        if (QString::fromStdString(s.file).endsWith(name))
            return &s;
    return nullptr;
}

template <class Read> QStringList names(const Read& b)
{
    QStringList out;
    for (const auto& s : b.sources)
        out << QString::fromStdString(s.displayPath);
    return out;
}

template <class Read> QStringList skippedNames(const Read& b)
{
    QStringList out;
    for (const auto& s : b.skipped)
        out << QString::fromStdString(s.file);
    return out;
}

} // namespace

class TestBundle : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_enc = test::shippedEncyclopedia();
        QVERIFY(m_enc);
    }

    // util/populate.h: the whole pages inside a range become resident with one call, the pages it
    // only partly covers stay as they were, and a range too small to be worth a call is left alone.
    void populateFaultsInWholePagesOnly()
    {
        const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t pages = 64;
        void* map = ::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        QVERIFY(map != MAP_FAILED);
        auto* base = static_cast<char*>(map);
        auto resident = [&] {
            std::vector<unsigned char> in(pages);
            ::mincore(base, pages * page, in.data());
            std::vector<bool> out;
            for (unsigned char c : in)
                out.push_back(c & 1);
            return out;
        };
        const std::vector<bool> before = resident();
        QCOMPARE(std::count(before.begin(), before.end(), true), 0); // untouched anonymous memory
        // A few bytes under a page in, to a few bytes into page 40: whole pages 1..39.
        rl::populate(base + page - 8, 39 * page + 16);
        const std::vector<bool> after = resident();
        // Whether this kernel can (Linux 5.14+), asked directly on a page of its own.
        void* probe = ::mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        QVERIFY(probe != MAP_FAILED);
        const bool kernelCan = ::madvise(probe, page, 23 /* MADV_POPULATE_WRITE */) == 0;
        ::munmap(probe, page);
        if (!kernelCan) {
            ::munmap(map, pages * page);
            QSKIP("this kernel has no MADV_POPULATE_WRITE (Linux 5.14+): populate leaves pages to fault");
        }
        for (std::size_t i = 0; i < pages; ++i)
            QCOMPARE(after[i], i >= 1 && i <= 39);
        // Under 64 KiB: no call.
        rl::populate(base + 48 * page, 8 * page);
        QCOMPARE(resident()[50], false);
        ::munmap(map, pages * page);
    }

    void folderRecursiveSortedAndRelative()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("node-b/rank4.log")), "b\n");
        write(dir.filePath(QStringLiteral("node-a/deep/rank0.log")), "a\n");
        write(dir.filePath(QStringLiteral("top.txt")), "t\n");
        Bundle b = readBundle({dir.path().toStdString()});
        QCOMPARE(names(b), (QStringList{QStringLiteral("node-a/deep/rank0.log"),
                                        QStringLiteral("node-b/rank4.log"), QStringLiteral("top.txt")}));
        QVERIFY(b.skipped.empty());
        for (std::size_t i = 0; i < b.sources.size(); ++i)
            QCOMPARE(b.sources[i].id.value, static_cast<std::uint32_t>(i));
    }

    // Notes kept beside the logs quote log lines: inside a folder or an archive they are left out
    // and said so; named on their own they are read.
    void documentsBesideTheLogsAreLeftOut()
    {
        QTemporaryDir dir;
        const QByteArray quoted =
            "The first failure was `h:1:2 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
            "10.0.0.1<37913> failed : Software caused connection abort` on rank 3.\n";
        write(dir.filePath(QStringLiteral("job/rank0.log")),
              "h:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n");
        write(dir.filePath(QStringLiteral("job/SOURCE.md")), quoted);
        write(dir.filePath(QStringLiteral("job/notes/Incident.MarkDown")), quoted);
        write(dir.filePath(QStringLiteral("job/README.rst")), quoted);
        write(dir.filePath(QStringLiteral("job/ReadMe.txt")), quoted);
        write(dir.filePath(QStringLiteral("job/logs/README")), quoted);
        writeArchive(
            dir.filePath(QStringLiteral("job/more.tar.gz")),
            {{QStringLiteral("rank1.log"), "h:1:1 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n"},
             {QStringLiteral("README.md"), quoted}});
        auto a = analyzePaths({dir.filePath(QStringLiteral("job")).toStdString()}, m_enc, {});
        QVERIFY(a);
        QCOMPARE(names(*a),
                 (QStringList{QStringLiteral("more.tar.gz!rank1.log"), QStringLiteral("rank0.log")}));
        for (const char* doc : {"SOURCE.md", "notes/Incident.MarkDown", "README.rst", "ReadMe.txt",
                                "logs/README", "more.tar.gz!README.md"}) {
            const Skipped* s = skippedFor(*a, QString::fromLatin1(doc));
            QVERIFY2(s, doc);
            QVERIFY2(
                QString::fromStdString(s->reason).contains(QStringLiteral("name the file itself to read it")),
                s->reason.c_str());
        }
        QVERIFY(a->findings.empty()); // the quoted abort is not the job's
        // Named on its own, a document is read like any file.
        auto named = analyzePaths({dir.filePath(QStringLiteral("job/SOURCE.md")).toStdString()}, m_enc, {});
        QVERIFY(named);
        QCOMPARE(named->sources.size(), std::size_t{1});
        QVERIFY(named->skipped.empty());
    }

    // A job's whole folder opened: the logs beside the training code, its launch script and
    // configuration (which name NCCL settings and quote error texts), version control and a cache.
    // The logs are read; the code and configuration are counted and said once for the folder or
    // archive with a few names; the .git and __pycache__ folders are not listed at all.
    void aJobFolderIsReadForItsLogs()
    {
        QTemporaryDir dir;
        const QByteArray quote = "# 'socketStartConnect: Connect to 10.0.0.1<1234> failed : Software caused "
                                 "connection abort' means: upgrade NCCL\nexport NCCL_SOCKET_IFNAME=eth1\n";
        const QString job = dir.filePath(QStringLiteral("job"));
        write(job + QStringLiteral("/logs/rank0.log"),
              "h:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n");
        write(job + QStringLiteral("/train.py"), quote);
        write(job + QStringLiteral("/launch.sh"), quote);
        write(job + QStringLiteral("/conf/config.yaml"), "nccl:\n  NCCL_SOCKET_IFNAME: eth1\n");
        write(job + QStringLiteral("/conf/nccl.conf"), "NCCL_SOCKET_IFNAME=eth1\n");
        write(job + QStringLiteral("/.git/HEAD"), "ref: refs/heads/main\n");
        write(job + QStringLiteral("/__pycache__/train.cpython-310.pyc"),
              QByteArray("\x6f\x0d\x0d\x0a\0\0", 6));
        writeArchive(
            dir.filePath(QStringLiteral("job/old-run.tar.gz")),
            {{QStringLiteral("run/rank1.log"), "h:1:2 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n"},
             {QStringLiteral("run/train.py"), quote},
             {QStringLiteral("run/.git/config"), "[core]\n"}});
        auto a = analyzePaths({job.toStdString()}, m_enc, {});
        QVERIFY(a);
        QCOMPARE(names(*a), (QStringList{QStringLiteral("logs/rank0.log"),
                                         QStringLiteral("old-run.tar.gz!run/rank1.log")}));
        QVERIFY(a->findings.empty()); // the quoted abort is not the job's
        QCOMPARE(a->skipped.size(), std::size_t{4});
        QCOMPARE(QString::fromStdString(a->skipped[0].file), QStringLiteral(".git/"));
        QCOMPARE(QString::fromStdString(a->skipped[1].file), QStringLiteral("__pycache__/"));
        QVERIFY(QString::fromStdString(a->skipped[1].reason).contains(QStringLiteral("a cache")));
        QCOMPARE(QString::fromStdString(a->skipped[2].file), job);
        QVERIFY2(QString::fromStdString(a->skipped[2].reason)
                     .startsWith(QStringLiteral("4 files of code, scripts or configuration (config.yaml, "
                                                "launch.sh, nccl.conf, …): not logs")),
                 a->skipped[2].reason.c_str());
        QCOMPARE(QString::fromStdString(a->skipped[3].file), QStringLiteral("old-run.tar.gz"));
        QVERIFY2(QString::fromStdString(a->skipped[3].reason)
                     .startsWith(QStringLiteral(
                         "2 files of code, scripts or configuration (config, train.py): not logs")),
                 a->skipped[3].reason.c_str());
        // Named on its own, the script is read like any file.
        auto named = analyzePaths({(job + QStringLiteral("/launch.sh")).toStdString()}, m_enc, {});
        QVERIFY(named);
        QCOMPARE(named->sources.size(), std::size_t{1});
    }

    // A log downloaded twice ("rank5 (1).log" beside rank5.log) and a host's folder copied into the
    // bundle again: each read once, under the shorter name, the copy said so. Two ranks' files that
    // hold the same bytes (one traceback, no stamps or pids) are both read: both ranks printed it.
    // Whole files and files scanned in pieces alike.
    void aCopyIsReadOnce()
    {
        QTemporaryDir dir;
        const QString job = dir.filePath(QStringLiteral("job"));
        const QByteArray rank5 = "gpu-b:5:5 [1] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>\n\n"
                                 "gpu-b:5:9 [1] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
                                 "10.0.0.2<4000> failed : Software caused connection abort\n";
        write(job + QStringLiteral("/gpu-b/rank5.log"), rank5);
        write(job + QStringLiteral("/gpu-b/rank5 (1).log"), rank5);
        write(job + QStringLiteral("/gpu-a/rank0.log"),
              "gpu-a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n");
        write(job + QStringLiteral("/again/gpu-a/rank0.log"),
              "gpu-a:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\n");
        write(job + QStringLiteral("/ranks/rank1.log"), "RuntimeError: CUDA error: out of memory\n");
        write(job + QStringLiteral("/ranks/rank3.log"), "RuntimeError: CUDA error: out of memory\n");
        for (const std::uint64_t pieceBytes : {AnalyzeOptions{}.pieceBytes, std::uint64_t{16}}) {
            AnalyzeOptions o;
            o.probeLocalNccl = false;
            o.pieceBytes = pieceBytes;
            auto a = analyzePaths({job.toStdString()}, m_enc, o);
            QVERIFY(a);
            QCOMPARE(names(*a),
                     (QStringList{QStringLiteral("gpu-a/rank0.log"), QStringLiteral("gpu-b/rank5.log"),
                                  QStringLiteral("ranks/rank1.log"), QStringLiteral("ranks/rank3.log")}));
            QCOMPARE(a->skipped.size(), std::size_t{2});
            QCOMPARE(QString::fromStdString(a->skipped[0].file), QStringLiteral("again/gpu-a/rank0.log"));
            QCOMPARE(QString::fromStdString(a->skipped[0].reason),
                     QStringLiteral("the same bytes as gpu-a/rank0.log, its stamps and process ids included "
                                    "(a copy of it): read "
                                    "once, under that name"));
            QCOMPARE(QString::fromStdString(a->skipped[1].file), QStringLiteral("gpu-b/rank5 (1).log"));
            std::uint64_t kept = 0;
            for (const auto& s : a->sources)
                kept += static_cast<std::uint64_t>(
                    QFileInfo(job + QLatin1Char('/') + QString::fromStdString(s.displayPath)).size());
            QCOMPARE(a->totalBytes, kept);
            QVERIFY(!a->findings.empty());
            QCOMPARE(QString::fromStdString(a->source(a->findings.front().anchor.source).displayPath),
                     QStringLiteral("gpu-b/rank5.log"));
        }
    }

    // A bundle put together on a Mac: an AppleDouble twin beside each log (what macOS's tar and
    // Finder write for extended attributes) and .DS_Store, in a folder and in a Finder zip with its
    // __MACOSX/ tree. Left out and said once for each folder or archive, not once a file.
    void finderMetadataIsLeftOutAndSaidOnce()
    {
        QTemporaryDir dir;
        const QByteArray appleDouble("\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ", 24);
        const QString job = dir.filePath(QStringLiteral("job"));
        write(job + QStringLiteral("/gpu-a/rank0.log"), "zero\n");
        write(job + QStringLiteral("/gpu-a/._rank0.log"), appleDouble);
        write(job + QStringLiteral("/gpu-a/.DS_Store"), QByteArray("\x00\x00\x00\x01Bud1", 8));
        write(job + QStringLiteral("/__MACOSX/gpu-a/._rank0.log"), appleDouble);
        writeArchive(dir.filePath(QStringLiteral("job.zip")),
                     {{QStringLiteral("gpu-a/rank0.log"), "zero\n"},
                      {QStringLiteral("__MACOSX/gpu-a/._rank0.log"), appleDouble},
                      {QStringLiteral("gpu-a/.DS_Store"), "\x00\x00\x00\x01"},
                      {QStringLiteral("gpu-b/rank1.log"), "one\n"}},
                     Kind::Zip);
        Bundle b = readBundle({job.toStdString(), dir.filePath(QStringLiteral("job.zip")).toStdString()});
        const QString zip = dir.filePath(QStringLiteral("job.zip"));
        QCOMPARE(names(b), (QStringList{zip + QStringLiteral("!gpu-a/rank0.log"),
                                        zip + QStringLiteral("!gpu-b/rank1.log"),
                                        QStringLiteral("job/gpu-a/rank0.log")}));
        QCOMPARE(b.skipped.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(b.skipped[0].file), job);
        QCOMPARE(
            QString::fromStdString(b.skipped[0].reason),
            QStringLiteral("3 files of macOS Finder metadata (._* resource forks, .DS_Store, __MACOSX/): "
                           "not logs, left out"));
        QCOMPARE(QString::fromStdString(b.skipped[1].file), dir.filePath(QStringLiteral("job.zip")));
        QVERIFY(QString::fromStdString(b.skipped[1].reason).startsWith(QStringLiteral("2 files of macOS")));
        // Named on its own, such a file is read like any other (a log someone named ._x.log).
        write(dir.filePath(QStringLiteral("._odd.log")), "a log after all\n");
        Bundle named = readBundle({dir.filePath(QStringLiteral("._odd.log")).toStdString()});
        QCOMPARE(names(named), QStringList{QStringLiteral("._odd.log")});
    }

    void badFilesAreSkippedWithAReasonAndTheRestIsRead()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("good.log")), "ok line\n");
        write(dir.filePath(QStringLiteral("core.bin")), QByteArray("ELF\0\0\0binary", 12));
        write(dir.filePath(QStringLiteral("empty.log")), "");
        QVERIFY(::mkfifo(dir.filePath(QStringLiteral("pipe")).toLocal8Bit().constData(), 0600) == 0);
        QVERIFY(::symlink("/nonexistent/target",
                          dir.filePath(QStringLiteral("dangling.log")).toLocal8Bit().constData()) == 0);
        Bundle b = readBundle({dir.path().toStdString()});
        // A small file is not read when it is opened: the scan's first read finds it binary.
        QCOMPARE(names(b), (QStringList{QStringLiteral("core.bin"), QStringLiteral("good.log")}));
        QVERIFY(!skippedFor(b, QStringLiteral("core.bin")));
        QVERIFY(QString::fromStdString(skippedFor(b, QStringLiteral("empty.log"))->reason)
                    .contains(QStringLiteral("empty")));
        QVERIFY(QString::fromStdString(skippedFor(b, QStringLiteral("pipe"))->reason)
                    .contains(QStringLiteral("FIFO")));
        QVERIFY(skippedFor(b, QStringLiteral("dangling.log")));
        auto a = analyze(std::move(b), m_enc);
        QCOMPARE(names(*a), QStringList{QStringLiteral("good.log")});
        QCOMPARE(a->sources[0].id.value, std::uint32_t{0});
        QVERIFY(skippedFor(*a, QStringLiteral("core.bin")));
        QVERIFY(QString::fromStdString(skippedFor(*a, QStringLiteral("core.bin"))->reason)
                    .contains(QStringLiteral("binary")));
        QVERIFY(skippedFor(*a, QStringLiteral("empty.log")));
        QVERIFY(skippedFor(*a, QStringLiteral("pipe")));
        QVERIFY(skippedFor(*a, QStringLiteral("dangling.log")));
        QCOMPARE(a->totalBytes, std::uint64_t{8});
    }

    // Small binary files are found by the analysis, large ones by the reader: both are listed
    // among the other skipped files in the order the files were read, which is path order here.
    // The log of the host that crashed ends in zeros where its last writes never reached the disk
    // (and a restarted process may append after them): still a log, read with its failure, small
    // or mapped. NUL bytes before the first line ends, or beside control bytes, are binary.
    void aCrashsZerosDoNotMakeALogBinary()
    {
        QTemporaryDir dir;
        const QByteArray warn =
            "gpu-b:39962:40133 [1] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
            "10.0.0.11<45763> failed : Software caused connection abort\n";
        QByteArray lines;
        for (int i = 0; i < 800; ++i)
            lines += "gpu-b:39962:39962 [1] NCCL INFO step " + QByteArray::number(i) + "\n";
        write(dir.filePath(QStringLiteral("small.log")), lines.left(4000) + warn + QByteArray(4096, '\0'));
        // Past the small-file size, the zeros inside the head that the mapping looks at, text after.
        write(dir.filePath(QStringLiteral("large.log")),
              lines + QByteArray(8192, '\0') + warn + lines.repeated(10));
        write(dir.filePath(QStringLiteral("elf.bin")), QByteArray("\x7f"
                                                                  "ELF\2\1\1\0\0\0\n",
                                                                  12) +
                                                           lines);
        write(dir.filePath(QStringLiteral("control.bin")),
              lines.left(100) + QByteArray("\0\x01\x02\x03", 4) + lines);
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("large.log"))).size() > 128 * 1024);
        auto a = analyze(readBundle({dir.path().toStdString()}), m_enc);
        QCOMPARE(names(*a), (QStringList{QStringLiteral("large.log"), QStringLiteral("small.log")}));
        QCOMPARE(skippedNames(*a), (QStringList{QStringLiteral("control.bin"), QStringLiteral("elf.bin")}));
        QVERIFY(a->initiatingFinding());
        QCOMPARE(a->entry(a->initiatingFinding()->entry).id, std::string("nccl-socket-connect-abort"));
        QVERIFY(binaryHead(std::string_view("\0\0\0\0log line\n", 13))); // zeros first: nothing says text
        QVERIFY(!binaryHead(std::string_view("a line\n\0\0\0\0\r\n\t\x1b[0m", 17))); // text, zeros, text
        QVERIFY(binaryHead(std::string_view("a line\n\0\x7f", 9)));
        // Shown: each run of zeros as one marker, in --json's quoted text and in reports alike.
        QCOMPARE(markNulRuns(std::string_view("\0\0x\0y", 5)), std::string("[2 NUL bytes]x[1 NUL byte]y"));
        QCOMPARE(markNulRuns("plain"), std::string("plain"));
        std::string storage;
        QCOMPARE(shownLine("plain", storage), std::string_view("plain"));
        QVERIFY(storage.empty()); // no copy
        QCOMPARE(shownLine("crlf\r", storage), std::string_view("crlf\r"));
        // A progress bar's redraws as a terminal leaves them, with what was drawn over counted.
        QCOMPARE(shownLine("\r 1%|bar\r 2%|bar|h:1:2 [0] NCCL WARN x\r", storage),
                 std::string_view("[8 bytes overwritten by \\r]  2%|bar|h:1:2 [0] NCCL WARN x"));
        QCOMPARE(shownLine("\rfirst drawing", storage), std::string_view("first drawing"));
        QCOMPARE(shownLine(std::string_view("a\rb\0c", 5), storage),
                 std::string_view("[1 byte overwritten by \\r] b[1 NUL byte]c"));
        // Terminal colours as a terminal shows them: not at all; a lone ESC or an unfinished
        // sequence stays.
        QCOMPARE(shownLine("\x1b[36m(RayWorker pid=1)\x1b[0m \x1b[1;31mERROR\x1b[0m x", storage),
                 std::string_view("(RayWorker pid=1) ERROR x"));
        QCOMPARE(shownLine("\r 9%|\x1b[32mbar\x1b[0m\rdone", storage),
                 std::string_view("[17 bytes overwritten by \\r] done"));
        QCOMPARE(shownLine("a \x1b b \x1b[12", storage), std::string_view("a \x1b b \x1b[12"));
        QCOMPARE(cleanLogText(std::string_view("\0\0\0\tWARN", 8)), std::string("[3 NUL bytes]\tWARN"));
        // Marked before the cut: the text after 8 KiB of zeros is still quoted.
        const std::string afterZeros = std::string(8192, '\0') + "NCCL WARN";
        QCOMPARE(cleanLogText(afterZeros), std::string("[8192 NUL bytes]NCCL WARN"));
    }

    void binaryFilesKeepTheirPlaceAmongSkips()
    {
        QTemporaryDir dir;
        QByteArray large(200 * 1024, 'x');
        large[1000] = '\0';
        write(dir.filePath(QStringLiteral("a.bin")), QByteArray("\0\1\2", 3));
        write(dir.filePath(QStringLiteral("b.log")), "");
        write(dir.filePath(QStringLiteral("c.bin")), QByteArray("text\0more\n", 10));
        write(dir.filePath(QStringLiteral("d.bin")), QByteArray("text\0more\n", 10));
        write(dir.filePath(QStringLiteral("e.log")), "gpu-a:1:1 [0] NCCL INFO ok\n");
        write(dir.filePath(QStringLiteral("f.bin")), large);
        write(dir.filePath(QStringLiteral("g.log")), "");
        write(dir.filePath(QStringLiteral("h.bin")), QByteArray("\0", 1));
        auto a = analyze(readBundle({dir.path().toStdString()}), m_enc);
        QCOMPARE(names(*a), QStringList{QStringLiteral("e.log")});
        QCOMPARE(skippedNames(*a),
                 (QStringList{QStringLiteral("a.bin"), QStringLiteral("b.log"), QStringLiteral("c.bin"),
                              QStringLiteral("d.bin"), QStringLiteral("f.bin"), QStringLiteral("g.log"),
                              QStringLiteral("h.bin")}));
        for (const char* bin : {"a.bin", "c.bin", "d.bin", "f.bin", "h.bin"})
            QCOMPARE(QString::fromStdString(skippedFor(*a, QLatin1String(bin))->reason),
                     QString::fromLatin1(kBinaryReason));
        QVERIFY(skippedFor(*a, QStringLiteral("g.log"))->reason.find("empty") != std::string::npos);
        // Every source binary: nothing is left, and nothing breaks.
        QTemporaryDir only;
        write(only.filePath(QStringLiteral("core.bin")), QByteArray("\0\0", 2));
        auto none = analyze(readBundle({only.path().toStdString()}), m_enc);
        QVERIFY(none->sources.empty());
        QCOMPARE(skippedNames(*none), QStringList{QStringLiteral("core.bin")});
    }

    // A file and a folder that may not be read are each named with the reason; the readable file
    // beside them is read. Root reads anything, so as root the bundle is read by a child process
    // that has given up its privileges for those of `nobody` (CI runs as root).
    void unreadableFileAndFolder()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                      QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                                      QFileDevice::ExeOther));
        write(dir.filePath(QStringLiteral("secret.log")), "x\n");
        write(dir.filePath(QStringLiteral("ok.log")),
              "gpu-1:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n");
        write(dir.filePath(QStringLiteral("locked/rank1.log")), "y\n");
        QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("ok.log")),
                                      QFileDevice::ReadOwner | QFileDevice::ReadOther));
        QVERIFY(
            QFile::setPermissions(dir.filePath(QStringLiteral("secret.log")), QFileDevice::Permissions{}));
        QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("locked")), QFileDevice::Permissions{}));
        // What the reader said, as "file\treason" lines, then "read: <files>".
        auto readAs = [&dir]() {
            Bundle b = readBundle({dir.path().toStdString()});
            std::string out;
            for (const auto& s : b.skipped)
                out += s.file + '\t' + s.reason + '\n';
            out += "read:";
            for (const auto& s : b.sources)
                out += ' ' + s.displayPath;
            return out;
        };
        std::string said;
        if (::geteuid() != 0) {
            said = readAs();
        } else {
            int fds[2];
            QVERIFY(::pipe(fds) == 0);
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                ::close(fds[0]);
                const gid_t nobody = 65534;
                if (::setgroups(0, nullptr) != 0 || ::setgid(nobody) != 0 || ::setuid(nobody) != 0)
                    ::_exit(3);
                const std::string out = readAs();
                const bool written =
                    ::write(fds[1], out.data(), out.size()) == static_cast<ssize_t>(out.size());
                ::_exit(written ? 0 : 4);
            }
            ::close(fds[1]);
            char buf[4096];
            for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
                said.append(buf, static_cast<std::size_t>(n));
            ::close(fds[0]);
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child could not become nobody");
        }
        (void)QFile::setPermissions(dir.filePath(QStringLiteral("locked")),
                                    QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        const QString text = QString::fromStdString(said);
        QVERIFY2(text.contains(QStringLiteral("secret.log\tcannot open: Permission denied; check the file's "
                                              "permissions")),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("locked/\tcannot list folder: Permission denied; its files were "
                                         "not read")),
            qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral("read: ok.log")), qPrintable(text));
    }

    // A folder of many files is read on every core, each file into a bundle of its own joined in
    // the listing's order: the very bundle reading them one by one (which a memory limit makes it
    // do) gives, skips and all, and the same analysis.
    void manyFilesReadOnEveryCoreAsOneByOne()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 600; ++i) {
            const QString node = QStringLiteral("node-%1/").arg(i / 8, 3, 10, QLatin1Char('0'));
            const QString rank = QString::number(i);
            switch (i % 10) {
            case 3:
                write(dir.filePath(node + QStringLiteral("rank") + rank + QStringLiteral(".log")), "");
                break;
            case 5:
                write(dir.filePath(node + QStringLiteral("core") + rank + QStringLiteral(".bin")),
                      QByteArray("ELF\0\0", 5));
                break;
            case 7:
                writeGzip(dir.filePath(node + QStringLiteral("rank") + rank + QStringLiteral(".log.gz")),
                          "gpu:1:1 [0] NCCL INFO packed\n");
                break;
            case 9:
                writeArchive(dir.filePath(node + QStringLiteral("more") + rank + QStringLiteral(".tar.gz")),
                             {{QStringLiteral("a.log"), "one\n"}, {QStringLiteral("b.log"), ""}});
                break;
            default:
                write(dir.filePath(node + QStringLiteral("rank") + rank + QStringLiteral(".log")),
                      QStringLiteral("node-%1:%2:%2 [0] NCCL INFO Bootstrap : Using eth0:10.0.%1.%3<0>\n")
                          .arg(i / 8)
                          .arg(1000 + i)
                          .arg(i % 8 + 1)
                          .toUtf8());
            }
        }
        QVERIFY(::mkfifo(dir.filePath(QStringLiteral("node-010/pipe")).toLocal8Bit().constData(), 0600) == 0);
        BundleLimits oneByOne;
        oneByOne.maxTotalBytes = std::uint64_t{1} << 30;
        Bundle parallel = readBundle({dir.path().toStdString()});
        Bundle serial = readBundle({dir.path().toStdString()}, oneByOne);
        // Empty files and archives out, one member of each archive in; binary ones are the analysis's.
        QCOMPARE(parallel.sources.size(), std::size_t{600 - 60 - 60 + 60});
        QCOMPARE(names(parallel), names(serial));
        QCOMPARE(skippedNames(parallel), skippedNames(serial));
        QVERIFY(parallel.skipped.size() > 100);
        for (std::size_t i = 0; i < parallel.sources.size(); ++i) {
            QCOMPARE(parallel.sources[i].size, serial.sources[i].size);
            QCOMPARE(parallel.sources[i].skippedBefore, serial.sources[i].skippedBefore);
        }
        auto a = analyze(std::move(parallel), m_enc);
        auto b = analyze(std::move(serial), m_enc);
        QCOMPARE(names(*a), names(*b));
        QCOMPARE(skippedNames(*a), skippedNames(*b));
        QCOMPARE(a->sources.size(), std::size_t{540 - 60});
        QCOMPARE(a->processes.size(), b->processes.size());
        QVERIFY(skippedFor(*a, QStringLiteral("node-000/core5.bin")));
    }

    void missingPath()
    {
        Bundle b = readBundle({"/nonexistent/bundle"});
        QVERIFY(b.sources.empty());
        QCOMPARE(b.skipped.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(b.skipped[0].reason).contains(QStringLiteral("no such file")));
    }

    void gzipAndTarGzAreReadInPlace()
    {
        QTemporaryDir dir;
        writeGzip(dir.filePath(QStringLiteral("rank1.log.gz")), "line one\nline two\n");
        writeArchive(dir.filePath(QStringLiteral("bundle.tar.gz")),
                     {{QStringLiteral("host-a/rank0.log"), "zero\n"},
                      {QStringLiteral("host-b/rank4.log"), "four\nmore\n"}});
        Bundle b = readBundle({dir.path().toStdString()});
        QCOMPARE(names(b), (QStringList{QStringLiteral("bundle.tar.gz!host-a/rank0.log"),
                                        QStringLiteral("bundle.tar.gz!host-b/rank4.log"),
                                        QStringLiteral("rank1.log.gz")}));
        Source& gz = b.sources[2];
        indexLines(gz);
        QCOMPARE(gz.lineCount(), std::size_t{2});
        QCOMPARE(QString::fromStdString(std::string(gz.line(1))), QStringLiteral("line two"));
        // Nothing was extracted next to the archive.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).size(), 2);
    }

    void everyArchiveKind()
    {
        QTemporaryDir dir;
        const QList<QPair<QString, QByteArray>> m{{QStringLiteral("r0.log"), "zero\n"}};
        writeArchive(dir.filePath(QStringLiteral("a.tar.xz")), m, Kind::TarXz);
        writeArchive(dir.filePath(QStringLiteral("b.tar.zst")), m, Kind::TarZst);
        writeArchive(dir.filePath(QStringLiteral("c.zip")), m, Kind::Zip);
        writeArchive(dir.filePath(QStringLiteral("d.tar.bz2")), m, Kind::TarBz2);
        writeArchive(dir.filePath(QStringLiteral("e.tar.lz4")), m, Kind::TarLz4);
        writeArchive(dir.filePath(QStringLiteral("f.tar.lz")), m, Kind::TarLzip);
        writeArchive(dir.filePath(QStringLiteral("g.7z")), m, Kind::SevenZip);
        writeArchive(dir.filePath(QStringLiteral("h.tar")), m, Kind::Tar);
        Bundle b = readBundle({dir.path().toStdString()});
        QCOMPARE(names(b), (QStringList{QStringLiteral("a.tar.xz!r0.log"), QStringLiteral("b.tar.zst!r0.log"),
                                        QStringLiteral("c.zip!r0.log"), QStringLiteral("d.tar.bz2!r0.log"),
                                        QStringLiteral("e.tar.lz4!r0.log"), QStringLiteral("f.tar.lz!r0.log"),
                                        QStringLiteral("g.7z!r0.log"), QStringLiteral("h.tar!r0.log")}));
        for (const Source& src : b.sources)
            QCOMPARE(src.text(), std::string_view("zero\n"));
        QVERIFY(b.skipped.empty());
    }

    void archiveInsideArchive()
    {
        QTemporaryDir dir;
        writeArchive(dir.filePath(QStringLiteral("inner.zip")), {{QStringLiteral("rank7.log"), "seven\n"}},
                     Kind::Zip);
        writeArchive(dir.filePath(QStringLiteral("outer.tar.gz")),
                     {{QStringLiteral("node-b/logs.zip"), readAll(dir.filePath(QStringLiteral("inner.zip")))},
                      {QStringLiteral("top.log"), "top\n"}});
        Bundle b = readBundle({dir.filePath(QStringLiteral("outer.tar.gz")).toStdString()});
        QCOMPARE(names(b), (QStringList{QStringLiteral("outer.tar.gz!node-b/logs.zip!rank7.log"),
                                        QStringLiteral("outer.tar.gz!top.log")}));
    }

    // A torchrun --log-dir tree tarred from inside the node's folder (`tar czf node-a.tgz -C node-a
    // .`): tar names every member "./run7_x1/...". The "./" is not shown, and its "." was read as
    // the node's name before, so local rank 1's files made a process on host ".", and local rank
    // 0's stderr.log stayed apart from its stdout.log. Each worker folder is one worker, host named
    // or not, as in the folder opened in place.
    void torchrunTreeTarredFromInside()
    {
        QTemporaryDir dir;
        const QDir node(QStringLiteral(RANKLINE_TEST_DATA_DIR "/shapes/torchrun/node-a"));
        QList<QPair<QString, QByteArray>> members;
        for (const char* file : {"run7_x1/attempt_1/0/stdout.log", "run7_x1/attempt_1/0/stderr.log",
                                 "run7_x1/attempt_1/1/stdout.log", "run7_x1/attempt_1/1/error.json"})
            members.append(
                {QStringLiteral("./") + QLatin1String(file), readAll(node.filePath(QLatin1String(file)))});
        writeArchive(dir.filePath(QStringLiteral("node-a.tgz")), members);

        // Worker by worker: its files, and the host it is on where anything says so.
        auto workers = [](const Analysis& a) {
            std::map<std::uint32_t, QStringList> files;
            for (std::size_t s = 0; s < a.sources.size(); ++s) {
                const QString path = QString::fromStdString(a.sources[s].displayPath);
                files[a.lines[s].process(0).value].append(path.mid(path.indexOf(QLatin1String("run7_x1"))));
            }
            QStringList out;
            for (auto& [p, list] : files) {
                list.sort();
                out.append(QString::fromStdString(a.processes[p].host) + QStringLiteral(": ") +
                           list.join(QLatin1Char(' ')));
            }
            out.sort();
            return out;
        };
        AnalyzeOptions o;
        o.probeLocalNccl = false;
        auto tarred = analyzePaths({dir.filePath(QStringLiteral("node-a.tgz")).toStdString()}, m_enc, o);
        for (const Source& src : tarred->sources)
            QVERIFY2(src.displayPath.starts_with("node-a.tgz!run7_x1/attempt_1/"), src.displayPath.c_str());
        const QStringList expected{
            QStringLiteral(": run7_x1/attempt_1/1/error.json run7_x1/attempt_1/1/stdout.log"),
            QStringLiteral("node-a: run7_x1/attempt_1/0/stderr.log run7_x1/attempt_1/0/stdout.log")};
        QCOMPARE(workers(*tarred), expected);
        QCOMPARE(workers(*analyzePaths({node.path().toStdString()}, m_enc, o)), expected);
    }

    // Bytes held in memory (the standard input) read as a file of them would be: known by their
    // first bytes, having no name.
    void bytesReadAsTheirFileWouldBe()
    {
        const QByteArray log = "h:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>\nsecond line\n";
        auto read = [](const QByteArray& bytes) {
            return readBytes("<stdin>",
                             std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        };
        for (const char* filter : {"gzip", "zstd", "xz"}) {
            Bundle b = read(compressed(filter, log));
            QCOMPARE(names(b), QStringList{QStringLiteral("<stdin>")});
            QCOMPARE(b.sources[0].text(),
                     std::string_view(log.constData(), static_cast<std::size_t>(log.size())));
            QVERIFY(b.skipped.empty());
        }
        QTemporaryDir dir;
        const QList<QPair<QString, QByteArray>> members{{QStringLiteral("node-a/rank0.log"), log},
                                                        {QStringLiteral("node-b/rank1.log"), log}};
        writeArchive(dir.filePath(QStringLiteral("a.tgz")), members);
        writeArchive(dir.filePath(QStringLiteral("b.zip")), members, Kind::Zip);
        for (const char* archive : {"a.tgz", "b.zip"}) {
            Bundle b = read(readAll(dir.filePath(QLatin1String(archive))));
            QCOMPARE(names(b), (QStringList{QStringLiteral("<stdin>!node-a/rank0.log"),
                                            QStringLiteral("<stdin>!node-b/rank1.log")}));
            QVERIFY(b.skipped.empty());
        }
        // Text as it is; binary data and nothing at all said so.
        QCOMPARE(names(read(log)), QStringList{QStringLiteral("<stdin>")});
        Bundle binary = read(QByteArray("\x7f"
                                        "ELF\0\0\0\0",
                                        8));
        QVERIFY(binary.sources.empty());
        QCOMPARE(binary.skipped.size(), std::size_t{1});
        QVERIFY2(binary.skipped[0].reason.starts_with("binary"), binary.skipped[0].reason.c_str());
        Bundle truncated = read(compressed("gzip", log).left(20));
        QCOMPARE(truncated.skipped.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(truncated.skipped[0].file), QStringLiteral("<stdin>"));
    }

    void singleCompressedLogs()
    {
        QTemporaryDir dir;
        for (const char* ext : {"zst", "xz"}) {
            archive* a = archive_write_new();
            if (QByteArray(ext) == "zst")
                archive_write_add_filter_zstd(a);
            else
                archive_write_add_filter_xz(a);
            archive_write_set_format_raw(a);
            const QString path = dir.filePath(QStringLiteral("rank2.log.%1").arg(QLatin1String(ext)));
            archive_write_open_filename(a, path.toLocal8Bit().constData());
            archive_entry* e = archive_entry_new();
            archive_entry_set_filetype(e, AE_IFREG);
            archive_write_header(a, e);
            archive_write_data(a, "two\nlines\n", 10);
            archive_entry_free(e);
            archive_write_close(a);
            archive_write_free(a);
        }
        // The other compressors libarchive reads, each a log of its own.
        for (const auto& [filter, ext] :
             {std::pair{"bzip2", "bz2"}, {"lz4", "lz4"}, {"lzip", "lz"}, {"lzma", "lzma"}})
            write(dir.filePath(QStringLiteral("rank3.log.%1").arg(QLatin1String(ext))),
                  compressed(filter, "three\n"));
        Bundle b = readBundle({dir.path().toStdString()});
        QCOMPARE(names(b), (QStringList{QStringLiteral("rank2.log.xz"), QStringLiteral("rank2.log.zst"),
                                        QStringLiteral("rank3.log.bz2"), QStringLiteral("rank3.log.lz"),
                                        QStringLiteral("rank3.log.lz4"), QStringLiteral("rank3.log.lzma")}));
        QCOMPARE(b.sources[1].text(), std::string_view("two\nlines\n"));
        for (std::size_t i = 2; i < b.sources.size(); ++i)
            QCOMPARE(b.sources[i].text(), std::string_view("three\n"));
        QVERIFY(b.skipped.empty());
    }

    // `tar c logs | zstd > logs.zst`: a tar archive compressed under a name that says only the
    // compressor is read as the archive (as logs.gz is), whichever compressor made it.
    void tarUnderACompressorsName()
    {
        QTemporaryDir dir;
        writeArchive(
            dir.filePath(QStringLiteral("plain.tar")),
            {{QStringLiteral("node-a/rank0.log"), "zero\n"}, {QStringLiteral("node-b/rank1.log"), "one\n"}},
            Kind::Tar);
        const QByteArray tar = readAll(dir.filePath(QStringLiteral("plain.tar")));
        QDir(dir.path()).remove(QStringLiteral("plain.tar"));
        for (const auto& [filter, ext] :
             {std::pair{"zstd", "zst"}, {"xz", "xz"}, {"bzip2", "bz2"}, {"lz4", "lz4"}})
            write(dir.filePath(QStringLiteral("logs.%1").arg(QLatin1String(ext))), compressed(filter, tar));
        Bundle b = readBundle({dir.path().toStdString()});
        QCOMPARE(
            names(b),
            (QStringList{
                QStringLiteral("logs.bz2!node-a/rank0.log"), QStringLiteral("logs.bz2!node-b/rank1.log"),
                QStringLiteral("logs.lz4!node-a/rank0.log"), QStringLiteral("logs.lz4!node-b/rank1.log"),
                QStringLiteral("logs.xz!node-a/rank0.log"), QStringLiteral("logs.xz!node-b/rank1.log"),
                QStringLiteral("logs.zst!node-a/rank0.log"), QStringLiteral("logs.zst!node-b/rank1.log")}));
        QVERIFY(b.skipped.empty());
    }

    // Rotated logs compressed one by one and then tarred or zipped (rank0.log.gz inside the
    // bundle's archive) are read as the logs they hold, ranks known from their names; a member
    // that holds a tar is that archive (one level deep); a damaged one is said and the rest kept.
    void compressedMembersAreDecompressed()
    {
        QTemporaryDir dir;
        const QByteArray init0 = "gpu-a:11:11 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n";
        writeArchive(dir.filePath(QStringLiteral("inner.tar")),
                     {{QStringLiteral("rank5.log.gz"), compressed("gzip", "five\n")}}, Kind::Tar);
        const QByteArray innerTar = readAll(dir.filePath(QStringLiteral("inner.tar")));
        QDir(dir.path()).remove(QStringLiteral("inner.tar"));
        writeArchive(dir.filePath(QStringLiteral("deeper.tar")), {{QStringLiteral("x.log"), "x\n"}},
                     Kind::Tar);
        const QByteArray deeperTar = readAll(dir.filePath(QStringLiteral("deeper.tar")));
        QDir(dir.path()).remove(QStringLiteral("deeper.tar"));
        writeArchive(dir.filePath(QStringLiteral("nested.tar")),
                     {{QStringLiteral("more.gz"), compressed("gzip", deeperTar)}}, Kind::Tar);
        const QByteArray nestedTar = readAll(dir.filePath(QStringLiteral("nested.tar")));
        QDir(dir.path()).remove(QStringLiteral("nested.tar"));
        // Lines that do not compress to nothing, so that half the stream holds some of them.
        QByteArray noisy;
        for (int i = 0; i < 20000; ++i)
            noisy += "gpu-b:13:13 [3] NCCL INFO step " +
                     QByteArray::number(static_cast<qulonglong>(i) * 2654435761ULL % 1000003) + "\n";
        const QByteArray gz = compressed("gzip", noisy);
        writeArchive(dir.filePath(QStringLiteral("job.tar.gz")),
                     {{QStringLiteral("gpu-a/rank0.log.gz"), compressed("gzip", init0)},
                      {QStringLiteral("gpu-a/rank1.log.zst"), compressed("zstd", "one\n")},
                      {QStringLiteral("gpu-a/rank2.log.1.lz4"), compressed("lz4", "two\n")},
                      {QStringLiteral("gpu-b/rank3.log.gz"), gz.left(gz.size() / 2)},
                      {QStringLiteral("gpu-b/rank4.log"), "four\n"},
                      {QStringLiteral("gpu-b/inner.gz"), compressed("gzip", innerTar)},
                      {QStringLiteral("gpu-b/nested.tar"), nestedTar}});
        writeArchive(dir.filePath(QStringLiteral("more.zip")),
                     {{QStringLiteral("rank6.log.xz"), compressed("xz", "six\n")}}, Kind::Zip);
        auto a = analyze(readBundle({dir.path().toStdString()}), m_enc);
        QCOMPARE(names(*a), (QStringList{QStringLiteral("job.tar.gz!gpu-a/rank0.log.gz"),
                                         QStringLiteral("job.tar.gz!gpu-a/rank1.log.zst"),
                                         QStringLiteral("job.tar.gz!gpu-a/rank2.log.1.lz4"),
                                         QStringLiteral("job.tar.gz!gpu-b/inner.gz!rank5.log.gz"),
                                         QStringLiteral("job.tar.gz!gpu-b/rank3.log.gz"),
                                         QStringLiteral("job.tar.gz!gpu-b/rank4.log"),
                                         QStringLiteral("more.zip!rank6.log.xz")}));
        QCOMPARE(a->sources[0].buffer->text(), std::string_view(init0.constData(), init0.size()));
        QCOMPARE(a->sources[1].buffer->text(), std::string_view("one\n"));
        QCOMPARE(a->sources[3].buffer->text(), std::string_view("five\n"));
        QCOMPARE(a->sources[6].buffer->text(), std::string_view("six\n"));
        // The damaged member: what could be decompressed is kept, and said.
        QVERIFY(a->sources[3].size > 0 &&
                a->sources[3].size < static_cast<std::uint64_t>(init0.size()) * 2000);
        const Skipped* cut = skippedFor(*a, QStringLiteral("job.tar.gz!gpu-b/rank3.log.gz"));
        QVERIFY(cut);
        QVERIFY(QString::fromStdString(cut->reason)
                    .startsWith(QStringLiteral("compressed data is truncated or corrupt: ")));
        QVERIFY(QString::fromStdString(cut->reason).endsWith(QStringLiteral("; the readable part was kept")));
        // A tar compressed inside the nested archive is a third level: said, not opened.
        const Skipped* deep = skippedFor(*a, QStringLiteral("job.tar.gz!gpu-b/nested.tar!more.gz"));
        QVERIFY(deep);
        QVERIFY(QString::fromStdString(deep->reason)
                    .startsWith(QStringLiteral("archive nested more than two levels")));
        QCOMPARE(a->skipped.size(), std::size_t{2});
        // Ranks from the names, compression suffixes and all.
        std::vector<int> ranks;
        for (const Process& p : a->processes)
            if (p.rank)
                ranks.push_back(*p.rank);
        std::sort(ranks.begin(), ranks.end());
        QCOMPARE(ranks, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
    }

    void decompressionBombIsCapped()
    {
        QTemporaryDir dir;
        QByteArray big(8 << 20, 'a');
        writeGzip(dir.filePath(QStringLiteral("bomb.log.gz")), big);
        writeArchive(dir.filePath(QStringLiteral("bomb.tar.gz")), {{QStringLiteral("x.log"), big}});
        write(dir.filePath(QStringLiteral("fine.log")), "ok\n");
        BundleLimits limits;
        limits.maxExpandedBytes = 1 << 20;
        Bundle b = readBundle({dir.path().toStdString()}, limits);
        QVERIFY(skippedFor(b, QStringLiteral("bomb.log.gz")));
        QVERIFY(QString::fromStdString(skippedFor(b, QStringLiteral("bomb.log.gz"))->reason)
                    .contains(QStringLiteral("bomb")));
        QVERIFY(skippedFor(b, QStringLiteral("bomb.tar.gz")));
        for (const auto& s : b.sources)
            QVERIFY(s.size <= (std::uint64_t{1} << 20) + (1 << 16));
        QVERIFY(names(b).contains(QStringLiteral("fine.log")));
    }

    // Members that are themselves compressed count against their archive's allowance, not each
    // against a ratio of its own: fifty 1 MiB logs gzipped to about a kilobyte each, in a plain tar.
    void compressedMembersShareTheArchivesCap()
    {
        QTemporaryDir dir;
        QList<QPair<QString, QByteArray>> members;
        const QByteArray one = compressed("gzip", QByteArray(1 << 20, 'a'));
        for (int i = 0; i < 50; ++i)
            members.append({QStringLiteral("rank%1.log.gz").arg(i), one});
        writeArchive(dir.filePath(QStringLiteral("bomb.tar")), members, Kind::Tar);
        write(dir.filePath(QStringLiteral("fine.log")), "ok\n");
        BundleLimits limits;
        limits.maxExpansionRatio = 20;
        const auto onDisk =
            static_cast<std::uint64_t>(QFileInfo(dir.filePath(QStringLiteral("bomb.tar"))).size());
        const std::uint64_t allowed = 20 * (onDisk + 65536);
        QVERIFY(allowed < std::uint64_t{50} << 20); // each member alone would be under its own ratio
        Bundle b = readBundle({dir.path().toStdString()}, limits);
        std::uint64_t total = 0;
        for (const auto& src : b.sources)
            total += src.size;
        QVERIFY2(total <= allowed + (1 << 20), qPrintable(QString::number(total)));
        QVERIFY(total >= allowed - (1 << 20));
        const Skipped* cap = skippedFor(b, QStringLiteral("bomb.tar"));
        QVERIFY(cap);
        QVERIFY(QString::fromStdString(cap->reason).contains(QStringLiteral("possible decompression bomb")));
        QVERIFY(names(b).contains(QStringLiteral("fine.log")));
    }

    // A password-protected zip: one message for the archive with how to open it, not a "damaged"
    // and an "empty" line for every member. A member damaged from its first byte is one line.
    void encryptedOrUnreadableMembersAreSaidOnce()
    {
        QTemporaryDir dir;
        {
            archive* a = archive_write_new();
            archive_write_set_format_zip(a);
            QCOMPARE(archive_write_set_options(a, "zip:encryption=traditional"), ARCHIVE_OK);
            archive_write_set_passphrase(a, "secret");
            archive_write_open_filename(a,
                                        dir.filePath(QStringLiteral("locked.zip")).toLocal8Bit().constData());
            for (const char* name : {"rank0.log", "rank1.log"}) {
                archive_entry* e = archive_entry_new();
                archive_entry_set_pathname(e, name);
                archive_entry_set_size(e, 5);
                archive_entry_set_filetype(e, AE_IFREG);
                archive_entry_set_perm(e, 0644);
                archive_write_header(a, e);
                archive_write_data(a, "zero\n", 5);
                archive_entry_free(e);
            }
            archive_write_close(a);
            archive_write_free(a);
        }
        // Deflated lines whose compressed bytes are overwritten right after the member's header.
        QByteArray lines;
        for (int i = 0; i < 2000; ++i)
            lines += "gpu-a:1:1 [0] NCCL INFO line " + QByteArray::number(i) + "\n";
        writeArchive(dir.filePath(QStringLiteral("bad.zip")), {{QStringLiteral("r.log"), lines}}, Kind::Zip);
        QByteArray zip = readAll(dir.filePath(QStringLiteral("bad.zip")));
        const int dataAt = 30 + 5 + qFromLittleEndian<quint16>(zip.constData() + 28);
        for (int i = 0; i < 64; ++i)
            zip[dataAt + i] = '\xff';
        write(dir.filePath(QStringLiteral("bad.zip")), zip);
        write(dir.filePath(QStringLiteral("fine.log")), "ok\n");
        Bundle b = readBundle({dir.path().toStdString()});
        QCOMPARE(names(b), QStringList{QStringLiteral("fine.log")});
        QCOMPARE(skippedNames(b),
                 (QStringList{QStringLiteral("bad.zip!r.log"), QStringLiteral("locked.zip")}));
        QVERIFY(QString::fromStdString(b.skipped[0].reason)
                    .startsWith(QStringLiteral("archive member is damaged: ")));
        QVERIFY(QString::fromStdString(b.skipped[0].reason)
                    .endsWith(QStringLiteral("; nothing of it could be read")));
        QCOMPARE(
            QString::fromStdString(b.skipped[1].reason),
            QStringLiteral("2 members are encrypted (a password-protected archive): not read; extract the "
                           "archive with its password (unzip locked.zip or 7z x locked.zip) and open the "
                           "folder it makes"));
    }

    void corruptArchiveKeepsTheRest()
    {
        QTemporaryDir dir;
        writeArchive(dir.filePath(QStringLiteral("ok.tar.gz")), {{QStringLiteral("a.log"), "a\n"}});
        QByteArray bytes = readAll(dir.filePath(QStringLiteral("ok.tar.gz")));
        write(dir.filePath(QStringLiteral("cut.tar.gz")), bytes.left(bytes.size() / 2));
        write(dir.filePath(QStringLiteral("junk.zip")), "this is not a zip file at all\n");
        write(dir.filePath(QStringLiteral("good.log")), "good\n");
        Bundle b = readBundle({dir.path().toStdString()});
        QVERIFY(names(b).contains(QStringLiteral("good.log")));
        QVERIFY(names(b).contains(QStringLiteral("ok.tar.gz!a.log")));
        QVERIFY(skippedFor(b, QStringLiteral("cut.tar.gz")));
        QVERIFY(skippedFor(b, QStringLiteral("junk.zip")));
    }

    void symlinkLoopIsNotFollowed()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("a/rank0.log")), "x\n");
        QVERIFY(::symlink(dir.filePath(QStringLiteral("a")).toLocal8Bit().constData(),
                          dir.filePath(QStringLiteral("a/loop")).toLocal8Bit().constData()) == 0);
        Bundle b = readBundle({dir.path().toStdString()});
        QCOMPARE(names(b), QStringList{QStringLiteral("a/rank0.log")});
    }

    // Links to folders: one out of the opened folder is read as if its folder stood there (once,
    // however many links lead to it, through the first by name); one into the bundle, back to it,
    // to a folder that holds it, or into /proc, is said and not followed. Links to files: one to a
    // file of the bundle is said, the file read under its own name; two to one file outside read it
    // once. Nothing is read twice and nothing is left out without a word.
    void symlinksAreFollowedOnceAndTheRestSaid()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("job"));
        write(root + QStringLiteral("/gpu-a/rank0.log"), "a0\n");
        write(root + QStringLiteral("/gpu-a/rank1.log"), "a1\n");
        write(dir.filePath(QStringLiteral("shared/gpu-b/rank2.log")), "b2\n");
        write(dir.filePath(QStringLiteral("shared/gpu-b/nested/rank3.log")), "b3\n");
        write(dir.filePath(QStringLiteral("shared/extra.log")), "x\n");
        auto link = [&](const char* target, const QString& at) {
            QVERIFY2(::symlink(target, at.toLocal8Bit().constData()) == 0, qPrintable(at));
        };
        link("../shared/gpu-b", root + QStringLiteral("/gpu-b"));
        link("../shared/gpu-b", root + QStringLiteral("/zz-again"));
        link("../shared/gpu-b/nested", root + QStringLiteral("/zz-nested"));
        link("gpu-a", root + QStringLiteral("/latest"));
        link(".", root + QStringLiteral("/self"));
        link("..", root + QStringLiteral("/up"));
        link("/proc/self", root + QStringLiteral("/proc"));
        link("gpu-a/rank0.log", root + QStringLiteral("/first.log"));
        link("../shared/extra.log", root + QStringLiteral("/extra1.log"));
        link("../shared/extra.log", root + QStringLiteral("/extra2.log"));
        link("rank2.log", dir.filePath(QStringLiteral("shared/gpu-b/again.log")));
        link("loop-b.log", root + QStringLiteral("/loop-a.log"));
        link("loop-a.log", root + QStringLiteral("/loop-b.log"));
        link("/nonexistent/rank9.log", root + QStringLiteral("/gone.log"));

        Bundle b = readBundle({root.toStdString()});
        QCOMPARE(names(b),
                 (QStringList{QStringLiteral("extra1.log"), QStringLiteral("gpu-a/rank0.log"),
                              QStringLiteral("gpu-a/rank1.log"), QStringLiteral("gpu-b/nested/rank3.log"),
                              QStringLiteral("gpu-b/rank2.log")}));
        auto reason = [&b](const char* file) {
            const Skipped* s = skippedFor(b, QString::fromLatin1(file));
            return s ? QString::fromStdString(s->reason) : QString();
        };
        QVERIFY(reason("zz-again/").contains(QStringLiteral("read once, through the link gpu-b/")));
        QVERIFY(reason("zz-nested/").contains(QStringLiteral("read once, through the link gpu-b/")));
        QVERIFY(reason("latest/").contains(QStringLiteral("the folder gpu-a of this bundle")));
        QVERIFY(reason("self/").contains(QStringLiteral("back to the opened folder")));
        QVERIFY(reason("up/").contains(QStringLiteral("holds the opened folder")));
        QVERIFY(reason("proc/").contains(QStringLiteral("system folder")));
        QVERIFY(reason("first.log")
                    .contains(QStringLiteral("gpu-a/rank0.log, which is read under its own name")));
        QVERIFY(reason("extra2.log").contains(QStringLiteral("same file as extra1.log")));
        QVERIFY(reason("gpu-b/again.log").contains(QStringLiteral("gpu-b/rank2.log")));
        QVERIFY(reason("loop-a.log").contains(QStringLiteral("loop")));
        QVERIFY(reason("gone.log").contains(QStringLiteral("/nonexistent/rank9.log does not exist")));
        QCOMPARE(b.skipped.size(), std::size_t{12}); // the loop is two links

        // What a reload looks for sees the same files: none is new.
        auto a = analyze(std::move(b), m_enc);
        QCOMPARE(filesAddedSince({root.toStdString()}, a->sources, a->skipped), std::vector<std::string>{});
        write(dir.filePath(QStringLiteral("shared/gpu-b/rank4.log")), "b4\n");
        QCOMPARE(filesAddedSince({root.toStdString()}, a->sources, a->skipped),
                 std::vector<std::string>{"gpu-b/rank4.log"});
    }

    // One file under two names (a folder and a file in it both given, a hard link) is read once,
    // under the name read first, and the other name is said; distinct files stay apart.
    void oneFileUnderTwoNamesIsReadOnce()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("logs/rank0.log")), "r0\n");
        write(dir.filePath(QStringLiteral("logs/rank1.log")), "r1\n");
        QVERIFY(::link(dir.filePath(QStringLiteral("logs/rank1.log")).toLocal8Bit().constData(),
                       dir.filePath(QStringLiteral("logs/copy-of-1.log")).toLocal8Bit().constData()) == 0);
        const std::string folder = dir.filePath(QStringLiteral("logs")).toStdString();
        const std::string file = dir.filePath(QStringLiteral("logs/rank0.log")).toStdString();
        Bundle b = readBundle({folder, file});
        QCOMPARE(names(b),
                 (QStringList{QStringLiteral("logs/copy-of-1.log"), QStringLiteral("logs/rank0.log")}));
        const Skipped* hard = skippedFor(b, QStringLiteral("logs/rank1.log"));
        QVERIFY(hard && QString::fromStdString(hard->reason)
                            .contains(QStringLiteral("the same file as logs/copy-of-1.log")));
        const Skipped* named = skippedFor(b, QStringLiteral("rank0.log"));
        QVERIFY(named && QString::fromStdString(named->file) == QString::fromStdString(file));
        QVERIFY(QString::fromStdString(named->reason)
                    .contains(QStringLiteral("the same file as logs/rank0.log")));
        // The same file named twice on its own.
        Bundle twice = readBundle({file, file});
        QCOMPARE(twice.sources.size(), std::size_t{1});
        QCOMPARE(twice.skipped.size(), std::size_t{1});
        // An archive and a gzipped log, in a folder and named again: their members and text once.
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("packed")));
        writeArchive(dir.filePath(QStringLiteral("packed/job.tgz")),
                     {{QStringLiteral("a/r2.log"), "r2\n"}, {QStringLiteral("a/r3.log"), "r3\n"}});
        writeGzip(dir.filePath(QStringLiteral("packed/r4.log.gz")), "r4\n");
        const std::string packed = dir.filePath(QStringLiteral("packed")).toStdString();
        Bundle again = readBundle({packed, packed + "/job.tgz", packed + "/r4.log.gz"});
        QCOMPARE(names(again), (QStringList{QStringLiteral("packed/job.tgz!a/r2.log"),
                                            QStringLiteral("packed/job.tgz!a/r3.log"),
                                            QStringLiteral("packed/r4.log.gz")}));
        QCOMPARE(again.skipped.size(), std::size_t{3});
        for (const auto& sk : again.skipped)
            QVERIFY(QString::fromStdString(sk.reason).startsWith(QStringLiteral("the same file as packed/")));
    }

    // Files whose content is not what their name says: a tar archive gzipped under a name
    // without .tar is read as the archive it is, a plain log named .gz as the log it is, and a
    // gzipped log named .log (small or large) is skipped with the name to give it.
    void contentThatTheNameDoesNotSay()
    {
        QTemporaryDir dir;
        writeArchive(dir.filePath(QStringLiteral("logs.gz")), {{QStringLiteral("node/rank0.log"), "r0\n"}});
        write(dir.filePath(QStringLiteral("plain.log.gz")), "gpu-a:1:1 [0] NCCL INFO plain\n");
        writeGzip(dir.filePath(QStringLiteral("small.log")), "gpu-a:1:1 [0] NCCL INFO zipped\n");
        QByteArray noise;
        for (int i = 0; i < 40000; ++i)
            noise += QByteArray::number(static_cast<qulonglong>(i) * 2654435761ULL % 1000003) + ' ';
        writeGzip(dir.filePath(QStringLiteral("large.log")), noise); // stays over 64 KiB compressed
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("large.log"))).size() > 64 * 1024);
        auto a = analyze(readBundle({dir.path().toStdString()}), m_enc);
        QCOMPARE(names(*a),
                 (QStringList{QStringLiteral("logs.gz!node/rank0.log"), QStringLiteral("plain.log.gz")}));
        QCOMPARE(
            QString::fromStdString(skippedFor(*a, QStringLiteral("small.log"))->reason),
            QStringLiteral("gzip-compressed data under a name without .gz: not read; rename it to "
                           "small.log.gz (small.log.tar.gz if it holds a tar archive) and open it again"));
        QVERIFY(QString::fromStdString(skippedFor(*a, QStringLiteral("large.log"))->reason)
                    .contains(QStringLiteral("rename it to large.log.gz")));
        // Each format by its first bytes.
        QCOMPARE(binaryFormat(std::string_view("\x28\xb5\x2f\xfd rest", 9)), std::string_view("zstd"));
        QCOMPARE(binaryFormat(std::string_view("\xfd"
                                               "7zXZ\0 rest",
                                               11)),
                 std::string_view("xz"));
        QCOMPARE(binaryFormat("BZh91AY&SY"), std::string_view("bzip2"));
        QCOMPARE(binaryFormat("PK\x03\x04...."), std::string_view("zip"));
        QCOMPARE(binaryFormat(std::string(257, '\0') + "ustar\0" + "00"), std::string_view("tar"));
        QVERIFY(!binaryFormat("BZh rank0 said hello"));
        QCOMPARE(binaryFormat("\x04\x22\x4d\x18...."), std::string_view("lz4"));
        QCOMPARE(binaryFormat("LZIP\x01"), std::string_view("lzip"));
        QCOMPARE(binaryFormat("7z\xbc\xaf\x27\x1c\x00\x04"), std::string_view("7z"));
        QCOMPARE(binaryFormat("Rar!\x1a\x07\x01"), std::string_view("rar"));
        QVERIFY(binaryReason("7z", "logs/job")
                    .find("a 7z archive under a name without .7z: not read; rename "
                          "it to job.7z and open it again") == 0);
        QCOMPARE(
            binaryReason("rar", "logs/job.rar"),
            std::string("a RAR archive: not opened (Rankline opens tar, zip and 7z archives); extract it "
                        "(unrar x job.rar) and open the folder it makes"));
        QVERIFY(binaryReason("lz4", "rank0.log").find("lz4-compressed data under a name without .lz4") == 0);
        // UTF-16 text, with a byte-order mark or without one (either byte order).
        const QString text = QStringLiteral("gpu-a:1:1 [0] NCCL WARN socketStartConnect: Connect failed\n");
        QByteArray le("\xff\xfe", 2);
        le.append(reinterpret_cast<const char*>(text.utf16()), text.size() * 2);
        QCOMPARE(binaryFormat(std::string_view(le.constData(), static_cast<std::size_t>(le.size()))),
                 std::string_view("utf-16"));
        QCOMPARE(binaryFormat(std::string_view(le.constData() + 2, static_cast<std::size_t>(le.size() - 2))),
                 std::string_view("utf-16"));
        QByteArray be;
        for (QChar c : text)
            be.append('\0').append(static_cast<char>(c.unicode()));
        QCOMPARE(binaryFormat(std::string_view(be.constData(), static_cast<std::size_t>(be.size()))),
                 std::string_view("utf-16"));
        write(dir.filePath(QStringLiteral("ps.log")), le);
        auto ps = analyze(readBundle({dir.filePath(QStringLiteral("ps.log")).toStdString()}), m_enc);
        QVERIFY(ps->sources.empty());
        QVERIFY(QString::fromStdString(ps->skipped.at(0).reason)
                    .startsWith(QStringLiteral("UTF-16 text (as Windows PowerShell's > writes it): not read; "
                                               "convert it to UTF-8 (iconv -f UTF-16 -t UTF-8 ps.log > "
                                               "ps.log.utf8.log)")));
        QVERIFY(!binaryFormat(std::string(300, '\0')));
        QCOMPARE(binaryReason(nullptr, "a/core.bin"), std::string(kBinaryReason));
        QVERIFY(binaryReason("zip", "a/logs")
                    .find("a zip archive under a name without .zip: not read; rename "
                          "it to logs.zip and open it again") == 0);
    }

    // PyTorch's Flight Recorder dumps, kept beside the logs of a job that hung (one per rank,
    // "nccl_trace_rank_<N>", a pickled dict): known by their first bytes and read as dumps
    // (tst_flight), not called binary; the logs beside them are diagnosed. Another pickle stays a
    // binary file.
    void flightRecorderDumps()
    {
        // A dict pickled as PyTorch's C++ pickler writes it (protocol 2): PROTO, EMPTY_DICT, MARK,
        // its keys and values as BINUNICODE, SETITEMS, STOP.
        auto pickled = [](const std::vector<std::pair<QByteArray, QByteArray>>& items) {
            auto text = [](const QByteArray& v) {
                QByteArray out("X");
                const auto n = static_cast<quint32>(v.size());
                for (int b = 0; b < 4; ++b)
                    out.append(static_cast<char>((n >> (8 * b)) & 0xff));
                return out + v;
            };
            QByteArray out("\x80\x02}(", 4);
            for (const auto& [k, v] : items)
                out += text(k) + text(v);
            return out + "u.";
        };
        QTemporaryDir dir;
        const QByteArray dump = pickled({{"version", "2.4"}, {"pg_config", "{}"}, {"entries", "[]"}});
        write(dir.filePath(QStringLiteral("nccl_trace_rank_0")), dump);
        write(dir.filePath(QStringLiteral("checkpoint.pkl")), pickled({{"model", "w"}, {"step", "3"}}));
        write(dir.filePath(QStringLiteral("rank0.log")),
              "gpu-a:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE\n");
        QCOMPARE(binaryFormat(std::string_view(dump.constData(), static_cast<std::size_t>(dump.size()))),
                 std::string_view("flight-recorder"));
        auto a = analyze(readBundle({dir.path().toStdString()}), m_enc);
        QCOMPARE(names(*a), QStringList{QStringLiteral("rank0.log")});
        QVERIFY(!skippedFor(*a, QStringLiteral("nccl_trace_rank_0")));
        QCOMPARE(a->flight.dumps.size(), std::size_t{1});
        QCOMPARE(a->flight.dumps[0].file, std::string("nccl_trace_rank_0"));
        QCOMPARE(a->flight.dumps[0].version, std::string("2.4"));
        // Where one could not be read after all, the reason still names PyTorch's analyzer.
        QVERIFY(binaryReason("flight-recorder", "nccl_trace_rank_0").find("torchfrtrace FOLDER") !=
                std::string::npos);
        const Skipped* other = skippedFor(*a, QStringLiteral("checkpoint.pkl"));
        QVERIFY(other);
        QCOMPARE(other->reason, std::string(kBinaryReason));
    }

    void hugeLineIsIndexed()
    {
        Source s = sourceFromText("big", std::string(5 << 20, 'x') + "\nnext\n");
        indexLines(s);
        QCOMPARE(s.lineCount(), std::size_t{2});
        QCOMPARE(s.line(0).size(), std::size_t{5 << 20});
        QCOMPARE(s.line(1), std::string_view("next"));
    }

    void truncatedGzipKeepsWhatWasReadable()
    {
        QTemporaryDir dir;
        QByteArray text;
        for (int i = 0; i < 20000; ++i)
            text += "gpu-a:1:1 [0] NCCL INFO line " + QByteArray::number(i) + "\n";
        writeGzip(dir.filePath(QStringLiteral("full.gz")), text);
        QFile f(dir.filePath(QStringLiteral("full.gz")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray gz = f.readAll();
        f.close();
        write(dir.filePath(QStringLiteral("cut.log.gz")), gz.left(gz.size() / 2));
        Bundle b = readBundle({dir.filePath(QStringLiteral("cut.log.gz")).toStdString()});
        QCOMPARE(b.sources.size(), std::size_t{1});
        QVERIFY(b.sources[0].size > 0 && b.sources[0].size < static_cast<std::uint64_t>(text.size()));
        QVERIFY(skippedFor(b, QStringLiteral("cut.log.gz")));
        QVERIFY(QString::fromStdString(skippedFor(b, QStringLiteral("cut.log.gz"))->reason)
                    .contains(QStringLiteral("truncated")));
    }

    // Logs kept as JSON records, record by record (bundle/json_records.h).
    void jsonRecordsBecomeTheirLogLines_data()
    {
        QTest::addColumn<QByteArray>("records");
        QTest::addColumn<QByteArray>("lines"); // empty: not records, read as they are
        // Docker's json-file: Go escapes <, > and & (HTML-safe), the text ends with its line break.
        QTest::newRow("Docker")
            << QByteArray(
                   q("{'log':'a:1:2 [0] NCCL WARN Connect to 10.0.0.1\\u003c45763\\u003e failed \\u0026 "
                     "\\'x\\'\\n','stream':'stderr','time':'2025-06-12T10:00:05.902000417Z'}\n"))
            << QByteArray("2025-06-12T10:00:05.902000417Z a:1:2 [0] NCCL WARN Connect to "
                          "10.0.0.1<45763> failed & \"x\"\n");
        // A line longer than 16 KiB is split by Docker into records without a line break but the
        // last: one line again, at the first piece's time.
        QTest::newRow("Docker's pieces of one line")
            << QByteArray(q("{'log':'first half, ','stream':'stdout','time':'2025-06-12T10:00:01Z'}\n"
                            "{'log':'stderr between\\n','stream':'stderr','time':'2025-06-12T10:00:01.5Z'}\n"
                            "{'log':'second half\\n','stream':'stdout','time':'2025-06-12T10:00:02Z'}\n"
                            "{'log':'next\\n','stream':'stdout','time':'2025-06-12T10:00:03Z'}"))
            << QByteArray("2025-06-12T10:00:01.5Z stderr between\n2025-06-12T10:00:01Z first half, second "
                          "half\n2025-06-12T10:00:03Z next\n");
        // A collector's records, which end with no line break, are lines of their own.
        QTest::newRow("not Docker's pieces")
            << QByteArray(q("{'log':'one','time':'2025-06-12T10:00:01Z'}\n{'log':'two','time':'2025-06-12T10:"
                            "00:02Z'}"))
            << QByteArray("2025-06-12T10:00:01Z one\n2025-06-12T10:00:02Z two\n");
        // A piece left open at the end of a file still being written is kept.
        QTest::newRow("Docker's last piece")
            << QByteArray(q("{'log':'cut short','stream':'stdout','time':'2025-06-12T10:00:01Z'}"))
            << QByteArray("2025-06-12T10:00:01Z cut short\n");
        // journalctl -o json: the kernel's lines as `host kernel: `, a process's with its pid; a
        // text with control bytes is an array of its bytes; a text of several lines, each with
        // the record's prefix.
        QTest::newRow("journald")
            << QByteArray(
                   q("{'__REALTIME_TIMESTAMP':'1749722440250000','_TRANSPORT':'kernel','SYSLOG_IDENTIFIER':'"
                     "kernel','_HOSTNAME':'node-j','MESSAGE':'NVRM: Xid (PCI:0000:3b:00): 79'}\n"
                     "{'__REALTIME_TIMESTAMP':'1749722440310000','_HOSTNAME':'node-j','SYSLOG_IDENTIFIER':'"
                     "python3','_PID':'8124','MESSAGE':[27,91,51,49,109,69,27,91,48,109,32,255]}\n"
                     "{'MESSAGE':'Traceback (most recent call last):\\n  File "
                     "\\'t.py\\'','_HOSTNAME':'node-j','_COMM':'python3','__REALTIME_TIMESTAMP':'"
                     "1749722441000001'}\n"))
            << QByteArray(
                   "2025-06-12T10:00:40.250000+0000 node-j kernel: NVRM: Xid (PCI:0000:3b:00): 79\n"
                   "2025-06-12T10:00:40.310000+0000 node-j python3[8124]: \x1b[31mE\x1b[0m \xff\n"
                   "2025-06-12T10:00:41.000001+0000 node-j python3: Traceback (most recent call last):\n"
                   "2025-06-12T10:00:41.000001+0000 node-j python3:   File \"t.py\"\n");
        // Collectors' own: the time in seconds, milliseconds or nanoseconds since the epoch, or as
        // text; a level; nested fields passed over; keys in any order, spaces anywhere.
        QTest::newRow("collectors")
            << QByteArray(
                   q("{'date':1749722404.3101,'log':'fluent','kubernetes':{'pod':'a}b','l':[1,{'x':']'}]}}\n"
                     "{ 'message' : 'vector', 'timestamp' : '2025-06-12T10:00:04.5Z' , 'level':'error' }\n"
                     "{'ts':1749722404000,'msg':'millis'}\n"
                     "{'line':'loki','timestamp':'1749722404123456789'}\n"
                     "{'message':'no time'}"))
            << QByteArray("2025-06-12T10:00:04.310100Z fluent\n"
                          "2025-06-12T10:00:04.5Z ERROR vector\n"
                          "2025-06-12T10:00:04.000000Z millis\n"
                          "2025-06-12T10:00:04.123456Z loki\n"
                          "no time\n");
        // The pod a collector names (Fluent Bit's and Vector's kubernetes.pod_name, Filebeat's
        // kubernetes.pod.name) goes before the line as `kubectl logs --prefix` puts it; Docker's
        // pieces are joined per pod.
        QTest::newRow("pods")
            << QByteArray(q(
                   "{'log':'a\\n','stream':'stdout','time':'2025-06-12T10:00:01Z','kubernetes':{'pod_name':'"
                   "trainer-0','container_name':'pytorch','labels':{'pod_name':'x'}}}\n"
                   "{'log':'first, "
                   "','stream':'stdout','time':'2025-06-12T10:00:02Z','kubernetes':{'pod_name':'"
                   "trainer-1','container_name':'pytorch'}}\n"
                   "{'log':'other pod\\n','stream':'stdout','time':'2025-06-12T10:00:03Z','kubernetes':{'pod_"
                   "name':'trainer-0','container_name':'pytorch'}}\n"
                   "{'log':'second\\n','stream':'stdout','time':'2025-06-12T10:00:04Z','kubernetes':{'pod_"
                   "name':'trainer-1','container_name':'pytorch'}}\n"
                   "{'message':'beat','@timestamp':'2025-06-12T10:00:05.1Z','kubernetes':{'pod':{'name':'"
                   "trainer-2','uid':'u'},'container':{'name':'main'}}}\n"
                   "{'message':'odd pod','kubernetes':{'pod_name':'a b'}}"))
            << QByteArray("[pod/trainer-0/pytorch] 2025-06-12T10:00:01Z a\n"
                          "[pod/trainer-0/pytorch] 2025-06-12T10:00:03Z other pod\n"
                          "[pod/trainer-1/pytorch] 2025-06-12T10:00:02Z first, second\n"
                          "[pod/trainer-2/main] 2025-06-12T10:00:05.1Z beat\n"
                          "odd pod\n");
        // `gcloud logging read --format=json`: an array of Cloud Logging entries, pretty-printed,
        // newest first. Read oldest first; the pod from the resource's labels; textPayload's
        // severity (set by the stream) left out, a jsonPayload's kept.
        QTest::newRow("Cloud Logging, newest first")
            << q("[\n"
                 "  {\n"
                 "    'insertId': 'b',\n"
                 "    'resource': {\n"
                 "      'labels': {'container_name': 'pytorch', 'pod_name': 'job-worker-0'},\n"
                 "      'type': 'k8s_container'\n"
                 "    },\n"
                 "    'severity': 'ERROR',\n"
                 "    'textPayload': '[rank1]: Traceback (most recent call last):',\n"
                 "    'timestamp': '2025-09-03T07:14:11.302114476Z'\n"
                 "  },\n"
                 "  {\n"
                 "    'jsonPayload': {'message': 'starting', 'step': 0},\n"
                 "    'resource': {'labels': {'container_name': 'pytorch', 'pod_name': 'job-worker-0'}},\n"
                 "    'severity': 'WARNING',\n"
                 "    'timestamp': '2025-09-03T07:14:02.24Z'\n"
                 "  },\n"
                 "  {\n"
                 "    'resource': {'labels': {'pod_name': 'job-master-0'}},\n"
                 "    'textPayload': 'NCCL version 2.21.5+cuda12.4\\n',\n"
                 "    'timestamp': '2025-09-03T07:14:02Z'\n"
                 "  }\n"
                 "]\n")
            << QByteArray(
                   "[pod/job-master-0/] 2025-09-03T07:14:02Z NCCL version 2.21.5+cuda12.4\n"
                   "[pod/job-worker-0/pytorch] 2025-09-03T07:14:02.24Z WARNING starting\n"
                   "[pod/job-worker-0/pytorch] 2025-09-03T07:14:11.302114476Z [rank1]: Traceback (most "
                   "recent call last):\n");
        // Oldest first stays as it is, on one line or appended arrays; an element that is no record
        // is kept as its lines, and so is the rest of an array cut short.
        QTest::newRow("arrays")
            << q("[{'line':'one','ts':1749722401},{'line':'two','ts':1749722402},{'step':3}]\n"
                 "[{'line':'three','ts':1749722403},\n"
                 " {'line':'cut")
            << QByteArray("2025-06-12T10:00:01.000000Z one\n2025-06-12T10:00:02.000000Z two\n{\"step\":3}\n"
                          "2025-06-12T10:00:03.000000Z three\n{\"line\":\"cut\n");
        // The AWS CLI's `aws logs filter-log-events`: the events in an envelope, each naming its
        // log stream; SageMaker's "<job>/algo-<n>-<epoch>" is host algo-<n>'s console. What
        // follows the events is the envelope's own.
        QTest::newRow("CloudWatch Logs from the AWS CLI")
            << q("{\n"
                 "    'events': [\n"
                 "        {\n"
                 "            'logStreamName': 'job-1/algo-2-1759392765',\n"
                 "            'timestamp': 1749722404500,\n"
                 "            'message': 'two',\n"
                 "            'eventId': '1'\n"
                 "        },\n"
                 "        {'logStreamName': 'job-1/algo-1', 'timestamp': 1749722405000, 'message': 'one'},\n"
                 "        {'logStreamName': 'a_b', 'timestamp': 1749722406000, 'message': 'no host'}\n"
                 "    ],\n"
                 "    'searchedLogStreams': [{'logStreamName': 'job-1/algo-1', 'searchedCompletely': true}]\n"
                 "}\n")
            << QByteArray("[pod/algo-2/] 2025-06-12T10:00:04.500000Z two\n"
                          "[pod/algo-1/] 2025-06-12T10:00:05.000000Z one\n"
                          "2025-06-12T10:00:06.000000Z no host\n");
        // Container Insights: Fluent Bit sends each container line's whole record to CloudWatch,
        // so an event's message is a record itself; its pod and time say what the line is. A
        // record holding JSON that is no record (metrics) keeps it as its text.
        QTest::newRow("a record in a record")
            << q("{'events': [{'logStreamName': 'ip-10-0-1-2', 'timestamp': 1749722409000, 'message': "
                 "'{\\'log\\':\\'gpu-b:1:2 [0] NCCL WARN x\\\\n\\',\\'stream\\':\\'stderr\\',"
                 "\\'time\\':\\'2025-06-12T10:00:08.5Z\\',\\'kubernetes\\':{\\'pod_name\\':\\'"
                 "trainer-1\\',\\'container_name\\':\\'main\\'}}'},\n"
                 "{'timestamp': 1749722410000, 'message': '{\\'step\\': 3, \\'loss\\': 1.5}'},\n"
                 "{'logStreamName': 'algo-1', 'timestamp': 1749722411000, 'message': '{\\'msg\\': \\'app\\', "
                 "\\'level\\': \\'warning\\'}'}]}")
            << QByteArray("[pod/trainer-1/main] 2025-06-12T10:00:08.5Z gpu-b:1:2 [0] NCCL WARN x\n"
                          "2025-06-12T10:00:10.000000Z {\"step\": 3, \"loss\": 1.5}\n"
                          "[pod/algo-1/] 2025-06-12T10:00:11.000000Z WARNING app\n");
        QTest::newRow("another envelope")
            << q("{\n  'step': 1,\n  'events': [{'message': 'x'}]\n}") << QByteArray();
        QTest::newRow("an array of metrics") << q("[{'step':1,'loss':2.5},{'log':'x'}]") << QByteArray();
        QTest::newRow("an array of numbers") << QByteArray("[1, 2]\n") << QByteArray();
        // Escapes: a surrogate pair is one character; a half alone is shown as U+FFFD.
        QTest::newRow("unicode escapes")
            << QByteArray(
                   q("{'log':'\\ud83d\\ude80 \\ud83d x \\u00e9\\t\\/\\n','time':'2025-06-12T10:00:01Z'}"))
            << QByteArray("2025-06-12T10:00:01Z \xf0\x9f\x9a\x80 \xef\xbf\xbd x \xc3\xa9\t/\n");
        // Blank lines before the first record and between records keep their places; a line that
        // is no record (cut short, a collector's own note) is kept as it is.
        QTest::newRow("other lines kept")
            << q("\xef\xbb\xbf\n"
                 "{'log':'one\\n','time':'2025-06-12T10:00:01Z'}\r\n"
                 "plain text\r\n"
                 "{'log':'cut")
            << QByteArray("\n2025-06-12T10:00:01Z one\nplain text\n{\"log\":\"cut\n");
        // Not records: a log whose first line is something else, JSON without a log line's field,
        // a field that holds no text, broken JSON.
        QTest::newRow("a plain log") << QByteArray("2025-06-12 INFO {\"log\":\"x\"}\n") << QByteArray();
        QTest::newRow("metrics") << QByteArray("{\"step\":10,\"loss\":1.5}\n") << QByteArray();
        QTest::newRow("torchelastic's error.json")
            << QByteArray(q("{'message': {'message': 'RuntimeError: x', 'extraInfo': {}}}")) << QByteArray();
        QTest::newRow("broken") << QByteArray(q("{'log':'x' 'time':1}")) << QByteArray();
        QTest::newRow("bad escape") << QByteArray(q("{'log':'\\q'}")) << QByteArray();
        QTest::newRow("trailing bytes") << QByteArray(q("{'log':'x'} y")) << QByteArray();
    }
    void jsonRecordsBecomeTheirLogLines()
    {
        QFETCH(QByteArray, records);
        QFETCH(QByteArray, lines);
        const std::optional<std::string> got =
            jsonRecordsText(std::string_view(records.constData(), records.size()));
        if (lines.isEmpty()) {
            QVERIFY(!got);
            return;
        }
        QVERIFY(got);
        QCOMPARE(QByteArray::fromStdString(*got), lines);
    }

    // The hint every file's head is given: cheap, and only a hint (jsonRecordsText decides).
    void jsonRecordsHeadIsAHint()
    {
        QVERIFY(jsonRecordsHead("{\"log\":\"x\"}"));
        QVERIFY(jsonRecordsHead("\xef\xbb\xbf\n  {\"MESSAGE\":\"x\"}\n2025"));
        QVERIFY(!jsonRecordsHead("2025-06-12 {\"log\":\"x\"}"));
        QVERIFY(!jsonRecordsHead("{\"step\":1}\n{\"log\":\"x\"}"));
        QVERIFY(!jsonRecordsHead(""));
        // An export's array: the field may be on any line of the head.
        QVERIFY(jsonRecordsHead("[\n  {\n    \"insertId\": \"b\",\n    \"textPayload\": \"x\""));
        QVERIFY(!jsonRecordsHead("[\n  {\n    \"step\": 1"));
        QVERIFY(jsonRecordsHead("{\n    \"events\": [\n        {\n            \"message\": \"x\""));
        QVERIFY(!jsonRecordsHead("{\n    \"step\": 1,\n    \"message\": \"x\""));
        QVERIFY(!jsonRecordsHead("[2025-06-12 10:00:01] \"message\""));
    }

    void linesAndCrlf()
    {
        Source s = sourceFromText("t", "a\r\nbb\n\nlast-without-newline");
        indexLines(s);
        QCOMPARE(s.lineCount(), std::size_t{4});
        QCOMPARE(QString::fromStdString(std::string(s.line(0))), QStringLiteral("a"));
        QCOMPARE(QString::fromStdString(std::string(s.line(2))), QString());
        QCOMPARE(QString::fromStdString(std::string(s.line(3))), QStringLiteral("last-without-newline"));
        QVERIFY(s.line(4).empty());
    }

    // A UTF-8 byte order mark before a file's first line is not part of it. One in the middle (where
    // `cat` joined such files) stays in its line's text, which parseLine reads past (tst_lineparser).
    void byteOrderMarksStartNoLine()
    {
        Source s = sourceFromText("t", "\xEF\xBB\xBF"
                                       "first\r\n"
                                       "mid \xEF\xBB\xBF kept\n"
                                       "\xEF\xBB\xBF"
                                       "joined\n");
        indexLines(s);
        QCOMPARE(s.lineCount(), std::size_t{3});
        QCOMPARE(QString::fromStdString(std::string(s.line(0))), QStringLiteral("first"));
        QCOMPARE(QString::fromStdString(std::string(s.line(1))), QString::fromUtf8("mid \xEF\xBB\xBF kept"));
        QCOMPARE(QString::fromStdString(std::string(s.line(2))), QString::fromUtf8("\xEF\xBB\xBF"
                                                                                   "joined"));
        QCOMPARE(s.lineStarts.lineOf(0), std::size_t{0}); // a search hit on the mark stays on line 0
    }

private:
    std::shared_ptr<const Encyclopedia> m_enc;
};

QTEST_GUILESS_MAIN(TestBundle)
#include "tst_bundle.moc"
