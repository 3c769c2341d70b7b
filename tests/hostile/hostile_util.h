#pragma once
// Shared by the hostile-bundle tests: a scratch folder holding the sample incident next to whatever
// hostile thing a test adds, and the check that the incident is still diagnosed.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <archive.h>
#include <archive_entry.h>

#include "analysis.h"
#include "encyclopedia/encyclopedia.h"
#include "shipped_encyclopedia.h"

namespace hostile
{

inline const QString kSample = QStringLiteral(RANKLINE_RESOURCES_DIR "/samples/connect-abort-2x4");

// A temporary folder with the sample incident copied to job/.
class Bundle
{
public:
    Bundle()
    {
        QDirIterator it(kSample, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString from = it.next();
            const QString to = path(QStringLiteral("job/") + QDir(kSample).relativeFilePath(from));
            QDir().mkpath(QFileInfo(to).path());
            QFile::copy(from, to);
        }
    }
    QString root() const { return m_dir.path(); }
    QString path(const QString& rel) const { return m_dir.filePath(rel); }
    QByteArray local(const QString& rel) const { return path(rel).toLocal8Bit(); }
    bool write(const QString& rel, const QByteArray& bytes) const
    {
        QDir().mkpath(QFileInfo(path(rel)).path());
        QFile f(path(rel));
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    }

private:
    QTemporaryDir m_dir;
};

inline std::shared_ptr<const rl::Encyclopedia> encyclopedia()
{
    static const auto enc = rl::test::shippedEncyclopedia();
    return enc;
}

inline std::shared_ptr<const rl::Analysis> diagnose(const std::vector<std::string>& paths,
                                                    const rl::BundleLimits& limits = {})
{
    rl::AnalyzeOptions o;
    o.probeLocalNccl = false;
    o.limits = limits;
    return rl::analyzePaths(paths, encyclopedia(), o);
}

inline std::shared_ptr<const rl::Analysis> diagnose(const Bundle& b, const rl::BundleLimits& limits = {})
{
    return diagnose({b.root().toStdString()}, limits);
}

// The sample's diagnosis: rank 5's connect failure is the initiating event.
inline bool sampleDiagnosed(const rl::Analysis& a)
{
    const rl::Finding* f = a.initiatingFinding();
    if (!f || a.entry(f->entry).id != "nccl-socket-connect-abort")
        return false;
    const rl::Process& p = a.process(f->process);
    return p.rank && *p.rank == 5 && p.host == "gpu-b";
}

// The reason given for `file` (matched at the end of its display path), or a null string.
inline QString reasonFor(const rl::Analysis& a, const QString& file)
{
    for (const auto& s : a.skipped)
        if (QString::fromStdString(s.file).endsWith(file))
            return QString::fromStdString(s.reason);
    return {};
}

inline QStringList sourceNames(const rl::Analysis& a)
{
    QStringList out;
    for (const auto& s : a.sources)
        out << QString::fromStdString(s.displayPath);
    return out;
}

struct Member {
    Member(QByteArray n, QByteArray d, unsigned t = AE_IFREG, QByteArray l = {})
        : name(std::move(n)), data(std::move(d)), type(t), link(std::move(l))
    {
    }
    QByteArray name;
    QByteArray data;
    unsigned type = AE_IFREG;
    QByteArray link; // symlink target or hardlink name
};

// Writes a tar (compressed with `filter`, e.g. "gzip") or, with `zip`, a zip archive.
inline bool writeArchive(const QString& path, const QList<Member>& members, const char* filter = "gzip",
                         bool zip = false)
{
    archive* a = archive_write_new();
    if (zip) {
        archive_write_set_format_zip(a);
    } else {
        archive_write_set_format_pax_restricted(a);
        if (filter)
            archive_write_add_filter_by_name(a, filter);
    }
    if (archive_write_open_filename(a, path.toLocal8Bit().constData()) != ARCHIVE_OK)
        return false;
    for (const auto& m : members) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, m.name.constData());
        archive_entry_set_filetype(e, m.type);
        archive_entry_set_perm(e, 0644);
        if (m.type == AE_IFLNK)
            archive_entry_set_symlink(e, m.link.constData());
        else if (!m.link.isEmpty())
            archive_entry_set_hardlink(e, m.link.constData());
        else
            archive_entry_set_size(e, m.data.size());
        archive_write_header(a, e);
        if (!m.data.isEmpty())
            archive_write_data(a, m.data.constData(), static_cast<size_t>(m.data.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    return true;
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace hostile
