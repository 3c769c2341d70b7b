#include "bundle/bundle.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>
#include <zlib.h>

#include "bundle/archive_library.h"
#include "bundle/json_records.h"
#include "util/mapped_file.h"
#include "util/parallel.h"
#include "util/paths.h"
#include "util/strings.h"
#include "util/text_kind.h"

namespace fs = std::filesystem;

namespace rl
{

namespace
{

class MappedBuffer final : public TextBuffer
{
public:
    explicit MappedBuffer(MappedFile f) : m_file(std::move(f)) {}
    std::string_view text() const override { return m_file.text(); }
    void dropResident() const override { m_file.dropResident(); }
    void dropResident(std::uint64_t offset, std::uint64_t length) const override
    {
        m_file.dropResident(offset, length);
    }
    bool damaged() const override { return m_file.damaged(); }
    void checkGrowth(const std::string& path) const override { m_grownBy.store(m_file.grownBy(path)); }
    std::uint64_t grownBy() const override { return m_grownBy.load(); }
    FileChange changeOnDisk(const std::string& path) const override
    {
        return changeSince(path, m_file.opened());
    }
    FileIdentity fileIdentity() const override { return m_file.opened(); }

private:
    MappedFile m_file;
    mutable std::atomic<std::uint64_t> m_grownBy{0};
};

// Whether the text's first 64 KiB say it is not a log (util/text_kind.h: core dumps, checkpoints,
// compressed data; not a log with a crash's zeros in it).
bool looksBinary(std::string_view text)
{
    return binaryHead(text.substr(0, MappedFile::kHeadBytes));
}

} // namespace

const char* binaryFormat(std::string_view head)
{
    auto starts = [head](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
    if (starts("\x1f\x8b"))
        return "gzip";
    if (starts("\x28\xb5\x2f\xfd"))
        return "zstd";
    static constexpr char kXz[] = {'\xfd', '7', 'z', 'X', 'Z', '\0'};
    if (starts(std::string_view(kXz, sizeof kXz)))
        return "xz";
    if (starts("BZh") && head.size() > 3 && head[3] >= '1' && head[3] <= '9')
        return "bzip2";
    if (starts("\x04\x22\x4d\x18"))
        return "lz4";
    if (starts("LZIP"))
        return "lzip";
    if (starts("PK\x03\x04") || starts("PK\x05\x06"))
        return "zip";
    if (starts("7z\xbc\xaf\x27\x1c"))
        return "7z";
    if (starts("Rar!\x1a\x07"))
        return "rar";
    if (head.size() >= 262 && head.substr(257, 5) == "ustar")
        return "tar";
    // PyTorch's Flight Recorder (TORCH_NCCL_TRACE_BUFFER_SIZE, TORCH_NCCL_DUMP_ON_TIMEOUT) dumps each
    // rank's last collectives as a pickled dict (protocol 2 from its C++ pickler) whose first keys
    // are "version" and "pg_config", to "/tmp/nccl_trace_rank_<rank>" unless told otherwise:
    // kept with the logs of a job that hung, it is read (flight/flight_recorder.h), as is the
    // recorder's JSON form.
    if (flightRecorderJsonHead(head))
        return "flight-recorder";
    if (head.size() > 2 && head[0] == '\x80' && head[1] >= 2 && head[1] <= 5) {
        const std::string_view first = head.substr(0, 512);
        if (first.find("version") != std::string_view::npos &&
            (first.find("pg_config") != std::string_view::npos ||
             first.find("entries") != std::string_view::npos))
            return "flight-recorder";
    }
    // Text as Windows tools write it (PowerShell's `>`): UTF-16, with its byte-order mark or, without
    // one, plain text every other byte and NUL between.
    if (starts("\xff\xfe") || starts("\xfe\xff"))
        return "utf-16";
    auto textByte = [](char c) { return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7f); };
    const std::size_t n = std::min<std::size_t>(head.size(), 64) & ~std::size_t{1};
    for (const std::size_t textAt : {std::size_t{0}, std::size_t{1}}) {
        bool utf16 = n >= 16;
        for (std::size_t i = 0; utf16 && i < n; i += 2)
            utf16 = textByte(head[i + textAt]) && head[i + 1 - textAt] == '\0';
        if (utf16)
            return "utf-16";
    }
    return nullptr;
}

// An archive Rankline opens, by its first bytes (binaryFormat's names).
bool archiveFormat(std::string_view format)
{
    return format == "zip" || format == "tar" || format == "7z";
}

std::string binaryReason(const char* format, const std::string& display)
{
    if (!format)
        return kBinaryReason;
    const std::string_view f(format);
    const std::string name = display.substr(display.find_last_of('/') + 1);
    if (f == "utf-16") {
        const std::string convert = "iconv -f UTF-16 -t UTF-8 " + name + " > " + name + ".utf8.log";
        return "UTF-16 text (as Windows PowerShell's > writes it): not read; convert it to UTF-8 (" +
               convert + ") and open that";
    }
    if (f == "flight-recorder")
        return "a PyTorch Flight Recorder dump (the collectives a rank last ran, pickled when the watchdog "
               "timed out) that could not be read here; PyTorch's analyzer reads a folder of them, one per "
               "rank (torchfrtrace FOLDER; its options differ between PyTorch versions, see torchfrtrace "
               "--help)";
    // RAR is the one archive format met in bundles that Rankline does not open (nothing here can
    // write one to test the reader with).
    if (f == "rar")
        return "a RAR archive: not opened (Rankline opens tar, zip and 7z archives); extract it "
               "(unrar x " +
               name + ") and open the folder it makes";
    const std::string suffix = f == "gzip"    ? ".gz"
                               : f == "zstd"  ? ".zst"
                               : f == "xz"    ? ".xz"
                               : f == "bzip2" ? ".bz2"
                               : f == "lzip"  ? ".lz"
                                              : "." + std::string(f);
    const bool archive = archiveFormat(f);
    std::string how = "rename it to " + name + suffix;
    if (!archive)
        how += " (" + name + ".tar" + suffix + " if it holds a tar archive)";
    return std::string(archive ? "a " + std::string(f) + " archive" : std::string(f) + "-compressed data") +
           " under a name without " + suffix + ": not read; " + how + " and open it again";
}

namespace
{

// A small file (util/mapped_file.h, kSmallFileBytes), mapped only when its text is first asked
// for: the stages that read every file once (the scan, the environment's event lines) read it into
// their own scratch buffer instead (readForPass), which costs a fraction of a map. text() maps it
// rather than reading it into memory because a view of it must stay valid while anyone holds one,
// also while another analysis of the same sources gives pages back (MainWindow::reanalyze).
// Nobody reads it when it is opened: its first read, the scan's, is also where it is found binary.
// A system call costs a microsecond or more on some virtual machines, and reading ten thousand
// small files twice cost about 30 ms of a diagnosis of 0.75 s there.
class SmallFileBuffer final : public TextBuffer
{
public:
    explicit SmallFileBuffer(SmallFile file) : m_file(std::move(file)) {}
    std::string_view text() const override
    {
        std::call_once(m_once, [this] { map(); });
        return m_view->text;
    }
    bool readForPass(std::string& scratch) const override
    {
        if (m_mapped.load(std::memory_order_acquire))
            return false;
        std::uint64_t grown = 0;
        if (m_file.read(scratch, &grown)) {
            lookAt(scratch);
            if (auto lines = asLogLines(scratch))
                scratch = std::move(*lines);
        } else {
            m_shrank.store(true);
        }
        m_grownBy.store(grown);
        return true;
    }
    // A pass's read has looked already (readForPass); a mapped one asks its descriptor.
    void checkGrowth(const std::string&) const override
    {
        if (m_mapped.load(std::memory_order_acquire))
            m_grownBy.store(m_file.grownBy());
    }
    std::uint64_t grownBy() const override { return m_grownBy.load(); }
    // By the path, not the descriptor held: a log rotated away keeps the descriptor on the old file.
    FileChange changeOnDisk(const std::string& path) const override
    {
        return changeSince(path, m_file.opened());
    }
    FileIdentity fileIdentity() const override { return m_file.opened(); }
    bool binary() const override { return m_binary.load(); }
    const char* binaryFormat() const override { return m_format.load(); }
    void dropResident() const override
    {
        if (m_mapped.load(std::memory_order_acquire))
            m_view->map.dropResident();
    }
    // A small file's pages go whole (MappedFile keeps them until then).
    void dropResident(std::uint64_t, std::uint64_t) const override {}
    bool damaged() const override
    {
        return m_shrank.load() || (m_mapped.load(std::memory_order_acquire) && m_view->map.damaged());
    }
    void closeFile() const override
    {
        if (!m_mapped.load(std::memory_order_acquire))
            m_file.reset();
    }

private:
    void map() const
    {
        auto view = std::make_unique<View>();
        // No path: it would only be worded into the error, and a file that cannot be mapped is read.
        auto f = m_file.map({});
        if (f && f->size() >= m_file.size()) {
            view->map = std::move(*f);
            view->text = view->map.text().substr(0, m_file.size());
            lookAt(view->text);
            if (auto lines = asLogLines(view->text)) {
                view->lost = std::move(*lines);
                view->map = MappedFile{};
                view->text = view->lost;
            }
        } else {
            // Shorter now, or not mappable: read, and what it lost reads as NUL.
            if (m_file.read(view->lost)) {
                lookAt(view->lost);
                if (auto lines = asLogLines(view->lost))
                    view->lost = std::move(*lines);
            } else {
                m_shrank.store(true);
            }
            view->text = view->lost;
        }
        m_view = std::move(view);
        m_mapped.store(true, std::memory_order_release);
    }
    // Whole: a small file is shorter than the head readBundle looks at in others. Only a whole
    // read is looked at: the NUL bytes standing for what a shrunken file lost are no evidence.
    void lookAt(std::string_view text) const
    {
        if (looksBinary(text)) {
            m_format.store(rl::binaryFormat(text));
            m_binary.store(true);
        }
    }
    // A small file's first read is the first look at its bytes, so a log kept as JSON records
    // (bundle/json_records.h) is found here, and every read (the passes', text()) turns the same
    // bytes into the same log lines: the line index the scan made holds for all of them. Only
    // the text changes; the source's size stays the file's. The lines, or nullopt where the text
    // is read as it is.
    std::optional<std::string> asLogLines(std::string_view text) const
    {
        if (m_binary.load())
            return std::nullopt;
        return jsonRecordsText(text);
    }

    // What text() shows, made when it is first asked for: most small files are only ever read by
    // passes (readForPass), and ten thousand of them each carried an empty map, string and view
    // (and a copy of the path, for an error nobody read): 2.2 MiB of peak RSS on ten thousand.
    struct View {
        MappedFile map;
        std::string lost;
        std::string_view text;
    };
    mutable SmallFile m_file; // closeFile() lets go of it
    mutable std::once_flag m_once;
    mutable std::unique_ptr<const View> m_view;
    mutable std::atomic<bool> m_mapped{false};
    mutable std::atomic<bool> m_shrank{false};
    mutable std::atomic<bool> m_binary{false};
    mutable std::atomic<const char*> m_format{nullptr}; // binaryFormat of a binary one
    mutable std::atomic<std::uint64_t> m_grownBy{0};
};

class OwnedBuffer final : public TextBuffer
{
public:
    explicit OwnedBuffer(std::string s) : m_text(std::move(s)) {}
    std::string_view text() const override { return m_text; }

private:
    std::string m_text;
};

bool endsWith(std::string_view s, std::string_view suffix)
{
    if (s.size() < suffix.size())
        return false;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        char a = s[s.size() - suffix.size() + i];
        if (a >= 'A' && a <= 'Z')
            a = static_cast<char>(a - 'A' + 'a');
        if (a != suffix[i])
            return false;
    }
    return true;
}

// Whether `name` ends with one of `suffixes` (any case, as endsWith).
bool endsWithAny(std::string_view name, std::initializer_list<std::string_view> suffixes)
{
    return std::any_of(suffixes.begin(), suffixes.end(),
                       [name](std::string_view suffix) { return endsWith(name, suffix); });
}

bool isArchiveName(std::string_view name)
{
    return endsWithAny(name, {".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".tar.bz2",
                              ".tbz2", ".tar.lz4", ".tar.lz", ".tar.lzma", ".tlz", ".zip", ".7z"});
}

// One log compressed on its own, other than gzip (read with zlib): libarchive's filters.
bool isCompressedName(std::string_view name)
{
    return endsWithAny(name, {".zst", ".xz", ".bz2", ".lz4", ".lz", ".lzma"});
}

// Content that libarchive's filters decompress, by its first bytes (binaryFormat's names).
bool compressedFormat(const char* format)
{
    if (!format)
        return false;
    const std::string_view f(format);
    return f == "gzip" || f == "zstd" || f == "xz" || f == "bzip2" || f == "lz4" || f == "lzip";
}

// Notes kept beside the logs (README.md, the curator's SOURCE.md, an incident write-up) quote log
// lines and settings in prose; read as a log, their words would make findings and ranks of their
// own. Inside a folder or an archive they are left out (and said so); named on their own they are
// read like any file.
// A README by name ("README", "README.txt", "readme.incident") is one too, whatever its extension.
bool isDocumentName(std::string_view name)
{
    const std::string_view base = name.substr(name.find_last_of('/') + 1); // npos + 1: the whole name
    // endsWith compares without case: the name's first six characters, "README" or "ReadMe".
    return endsWith(base.substr(0, 6), "readme") || endsWithAny(name, {".md", ".markdown", ".rst"});
}

constexpr const char* kDocumentReason =
    "a document (a README, Markdown or reStructuredText), not a log: left out so that the lines it "
    "quotes are not read as the job's; name the file itself to read it";

// What macOS adds beside the files it copies or archives: AppleDouble resource forks (`._rank0.log`
// beside rank0.log, or under `__MACOSX/` in a zip the Finder made) and `.DS_Store` folder settings.
// Binary and never logs, one beside every file of a bundle put together on a Mac: left out and
// counted, and said once for the folder or archive instead of once a file. `path` is relative to
// the folder or archive, '/'-separated.
bool isFinderMetadata(std::string_view path)
{
    const std::string_view name = path.substr(path.find_last_of('/') + 1); // npos + 1: the whole path
    return name == ".DS_Store" || name.substr(0, 2) == "._" || path.substr(0, 9) == "__MACOSX/" ||
           path.find("/__MACOSX/") != std::string_view::npos;
}

std::string finderReason(std::size_t files)
{
    return std::to_string(files) + (files == 1 ? " file" : " files") +
           " of macOS Finder metadata (._* resource forks, .DS_Store, __MACOSX/): not logs, left out";
}

// What else sits in a job's folder beside its logs: the training code, its launch scripts and
// configuration. They name NCCL settings and quote error texts (a comment explaining a WARN, an
// `export NCCL_SOCKET_IFNAME=`), which read as a log would make findings and settings of a process
// of their own. Inside a folder or an archive they are left out and counted, said once for it with
// a few of their names; named on their own they are read. JSON stays: torchelastic's error.json
// and exported log events are JSON.
bool isJobFileName(std::string_view name)
{
    const std::string_view base = name.substr(name.find_last_of('/') + 1); // npos + 1: the whole name
    return base == "Dockerfile" || base == "Makefile" ||
           endsWithAny(base, {".py",   ".ipynb", ".sh",   ".bash", ".zsh", ".slurm", ".sbatch", ".pbs",
                              ".c",    ".cc",    ".cpp",  ".cxx",  ".h",   ".hpp",   ".cu",     ".cuh",
                              ".yaml", ".yml",   ".toml", ".ini",  ".cfg", ".conf"});
}

// Folders that hold no logs of a job however many files they have: version control, caches,
// Python environments (thousands of sources and shared libraries). Not listed.
bool isNonLogFolder(std::string_view name)
{
    return name == ".git" || name == ".hg" || name == ".svn" || name == "__pycache__" ||
           name == ".ipynb_checkpoints" || name == ".mypy_cache" || name == ".pytest_cache" ||
           name == "node_modules" || name == ".venv" || name == "site-packages";
}

// Whether an archive member lies under one of those folders.
bool underNonLogFolder(std::string_view path)
{
    for (std::size_t from = 0, slash; (slash = path.find('/', from)) != std::string_view::npos;
         from = slash + 1)
        if (isNonLogFolder(path.substr(from, slash - from)))
            return true;
    return false;
}

// Job files left out of one folder or archive: how many, and the first few names in name order
// (not the listing's, which differs from one file system to the next) to show.
struct LeftOut {
    std::size_t count = 0;
    std::vector<std::string> shown;
    void add(std::string_view name)
    {
        ++count;
        const std::string base(name.substr(name.find_last_of('/') + 1));
        if (std::find(shown.begin(), shown.end(), base) != shown.end())
            return;
        shown.insert(std::upper_bound(shown.begin(), shown.end(), base), base);
        if (shown.size() > 3)
            shown.pop_back();
    }
    std::string reason() const
    {
        std::string names;
        for (const auto& n : shown)
            names += (names.empty() ? "" : ", ") + n;
        if (count > shown.size())
            names += ", …"; // more files, or more of the same name
        return std::to_string(count) + (count == 1 ? " file" : " files") +
               " of code, scripts or configuration (" + names +
               "): not logs, left out so that the settings and error texts they hold are not read as "
               "the job's; name a file itself to read it";
    }
};

} // namespace

std::optional<std::string> torchelasticErrorText(std::string_view json)
{
    // torchelastic's error file: {"message": {"message": "<Type>: <text>", "extraInfo":
    // {"py_callstack": "<traceback>", "timestamp": "<unix seconds>"}}}. Turned into log lines so the
    // same fingerprints read it; the stamp comes first so the lines sit at the time of the failure.
    auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("message"))
        return std::nullopt;
    const auto& m = j["message"];
    std::string message, callstack, stamp;
    if (m.is_string()) {
        message = m.get<std::string>();
    } else if (m.is_object()) {
        if (m.contains("message") && m["message"].is_string())
            message = m["message"].get<std::string>();
        if (m.contains("extraInfo") && m["extraInfo"].is_object()) {
            const auto& x = m["extraInfo"];
            if (x.contains("py_callstack") && x["py_callstack"].is_string())
                callstack = x["py_callstack"].get<std::string>();
            if (x.contains("timestamp") && x["timestamp"].is_string())
                stamp = x["timestamp"].get<std::string>();
        }
    }
    if (message.empty() && callstack.empty())
        return std::nullopt;
    std::string out;
    if (!stamp.empty() && stamp.find_first_not_of("0123456789") == std::string::npos && stamp.size() <= 12) {
        std::time_t t = static_cast<std::time_t>(std::stoll(stamp));
        std::tm tm{};
        gmtime_r(&t, &tm);
        char buf[32];
        std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ ", &tm);
        out += buf;
    }
    out += "torchelastic error.json: " + message + "\n";
    out += callstack;
    if (!out.empty() && out.back() != '\n')
        out += '\n';
    return out;
}

namespace
{

// Bytes of address space that a memory limit (ulimit -v) still leaves, or nullopt without a limit.
std::optional<std::uint64_t> addressSpaceLeft()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    std::uint64_t pages = 0;
    std::ifstream("/proc/self/statm") >> pages; // first field: the address space in use, in pages
    const std::uint64_t used = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    return rl.rlim_cur > used ? rl.rlim_cur - used : 0;
}

// libarchive's message for the last error; it may have none (NULL), found by fuzzing.
std::string archiveError(const ArchiveLibrary& la, archive* a)
{
    const char* e = la.error_string(a);
    return e ? e : "unknown error";
}

std::string mib(std::uint64_t bytes)
{
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

// What a folder's files' display paths start with: its own name when several paths were opened.
std::string folderPrefix(const std::string& input, bool several)
{
    std::string prefix = several ? fs::path(input).filename().string() + "/" : std::string{};
    if (prefix == "/" || prefix == "./")
        prefix.clear();
    return prefix;
}

// What a folder's files' on-disk paths start with.
std::string folderBase(const std::string& input)
{
    return input.empty() || input.back() == '/' ? input : input + '/';
}

// What the symbolic link `name` in the folder `dirFd` says, for a message.
std::string linkTarget(int dirFd, const char* name)
{
    char buf[4096];
    const ssize_t n = ::readlinkat(dirFd, name, buf, sizeof buf);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("?");
}

struct Reader {
    const BundleLimits& limits;
    const CancelFn& cancelled;
    Bundle& out;
    std::uint64_t budget = UINT64_MAX; // text bytes all sources may keep (BundleLimits::maxTotalBytes)
    std::uint64_t kept = 0;
    std::size_t finderFiles = 0; // isFinderMetadata files left out of the folder being listed
    LeftOut jobFiles = {};       // isJobFileName files left out of it

    void skip(std::string file, std::string reason)
    {
        out.skipped.push_back({std::move(file), std::move(reason)});
    }

    std::uint64_t room() const { return budget > kept ? budget - kept : 0; }
    // How far one archive or compressed file may expand: the bomb cap or what the budget has left.
    std::uint64_t expandCap() const { return std::min(limits.maxExpandedBytes, room()); }
    std::string capReason(std::uint64_t expanded, const char* what) const
    {
        if (room() < limits.maxExpandedBytes)
            return std::string(what) + " stopped at " + mib(expanded) +
                   ": the memory limit leaves no room for more text (raise ulimit -v or open fewer files)";
        return std::string(what) +
               " beyond the safety cap (possible decompression bomb); reading stopped after " + mib(expanded);
    }

    // `headBinary`: looksBinary's answer when already known without reading the text (MappedFile).
    void addText(std::string path, std::string display, std::shared_ptr<const TextBuffer> buf,
                 std::optional<bool> headBinary = std::nullopt)
    {
        const std::size_t n = buf->text().size();
        if (n == 0) {
            skip(display, "empty file: nothing to read");
            return;
        }
        if (headBinary ? *headBinary : looksBinary(buf->text())) {
            const char* format = binaryFormat(buf->text().substr(0, 4096));
            // Read by the analysis (flight/flight_recorder.h) once every dump is in.
            if (format && std::string_view(format) == "flight-recorder") {
                buf->dropResident(); // the look at its head; read again with the other dumps
                out.flightDumps.push_back({std::move(display), std::move(buf)});
                return;
            }
            skip(display, binaryReason(format, display));
            return;
        }
        // The look at the head mapped its pages (a whole large folio on recent kernels, a
        // megabyte or more): give them back until the scan reads the file for real.
        if (!headBinary)
            buf->dropResident();
        keep(std::move(path), std::move(display), std::move(buf), n);
    }

    // A small file, unread: whether it is binary is known once the scan has read it
    // (SmallFileBuffer), and the analysis skips it then.
    void addSmall(std::string path, std::string display, SmallFile file)
    {
        const std::size_t n = file.size();
        if (n == 0) {
            skip(display, "empty file: nothing to read");
            return;
        }
        auto buf = std::make_shared<SmallFileBuffer>(std::move(file));
        keep(std::move(path), std::move(display), std::move(buf), n);
    }

    void keep(std::string path, std::string display, std::shared_ptr<const TextBuffer> buf, std::size_t n)
    {
        kept += n;
        Source s;
        s.path = std::move(path);
        s.displayPath = std::move(display);
        s.size = n;
        s.buffer = std::move(buf);
        s.skippedBefore = out.skipped.size();
        out.sources.push_back(std::move(s));
    }

    void readGzip(const std::string& path, const std::string& display, std::string_view compressed)
    {
        // A plain log that was only named .gz (or whose compressed copy was replaced by the text
        // again) is read as it is.
        if (!binaryFormat(compressed.substr(0, 512)) && !looksBinary(compressed)) {
            addDecompressed(path, display, std::string(compressed));
            return;
        }
        z_stream zs{};
        if (inflateInit2(&zs, 15 + 32) != Z_OK) {
            skip(display, "cannot start gzip decoder");
            return;
        }
        std::string outText;
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
        zs.avail_in = static_cast<uInt>(std::min<std::size_t>(compressed.size(), UINT32_MAX));
        char chunk[1 << 16];
        int rc = Z_OK;
        bool capped = false, headSeen = false;
        while (rc != Z_STREAM_END) {
            zs.next_out = reinterpret_cast<Bytef*>(chunk);
            zs.avail_out = sizeof chunk;
            rc = inflate(&zs, Z_NO_FLUSH);
            if (rc != Z_OK && rc != Z_STREAM_END)
                break;
            outText.append(chunk, sizeof chunk - zs.avail_out);
            // A tar archive compressed under a name without .tar (logs.gz) is read as the archive
            // it is: known from its first header, before the rest is inflated for nothing.
            if (!headSeen && (outText.size() >= 512 || rc == Z_STREAM_END)) {
                headSeen = true;
                const char* inner = binaryFormat(std::string_view(outText).substr(0, 512));
                if (inner && std::string_view(inner) == "tar") {
                    inflateEnd(&zs);
                    readArchive(path, display);
                    return;
                }
            }
            if (outText.size() > expandCap() ||
                static_cast<double>(outText.size()) >
                    limits.maxExpansionRatio * static_cast<double>(compressed.size() + 4096)) {
                capped = true;
                break;
            }
            if (zs.avail_in == 0 && zs.avail_out != 0 && rc != Z_STREAM_END) {
                rc = Z_BUF_ERROR;
                break;
            }
        }
        inflateEnd(&zs);
        if (capped) {
            skip(display, capReason(outText.size(), "decompression") + "; what was read is kept");
        } else if (rc != Z_STREAM_END) {
            skip(display, outText.empty() ? "corrupt gzip data: nothing could be decompressed"
                                          : "gzip data is truncated or corrupt; the readable part was kept");
            if (outText.empty())
                return;
        }
        addDecompressed(path, display, std::move(outText));
    }

    // What a compressed log held, read as its plain file would be: torchelastic's error.json,
    // gzipped with the rest of a torchrun log folder (`gzip -r`), is the failure it records.
    // So is a log kept as JSON records (bundle/json_records.h): a container's log copied off a node,
    // its rotated pieces gzipped, is the log lines the records hold.
    void addDecompressed(const std::string& path, const std::string& display, std::string text)
    {
        if (endsWith(uncompressedName(display), "error.json")) {
            if (auto lines = torchelasticErrorText(text))
                text = std::move(*lines);
        } else if (auto lines = jsonRecordsText(text)) {
            text = std::move(*lines);
        }
        addText(path, display, std::make_shared<OwnedBuffer>(std::move(text)));
    }

    // libarchive, or null having said why this file is not opened.
    const ArchiveLibrary* loadArchiveLibrary(const std::string& display)
    {
        std::string why;
        const ArchiveLibrary* la = archiveLibrary(&why);
        if (!la)
            skip(display, "not opened: " + why);
        return la;
    }

    // libarchive opened on the file at `path`, or on `bytes` when given (a member of an archive), as
    // an archive or (`raw`) as one compressed stream; null having said why it is not read
    // (`failure` and libarchive's message).
    archive* openArchive(const ArchiveLibrary& la, const std::string& path, const std::string* bytes,
                         const std::string& display, bool raw, const std::string& failure)
    {
        archive* a = la.read_new();
        la.read_support_filter_all(a);
        if (raw)
            la.read_support_format_raw(a);
        else
            la.read_support_format_all(a);
        const int rc = bytes ? la.read_open_memory(a, bytes->data(), bytes->size())
                             : la.read_open_filename(a, path.c_str(), 1 << 16);
        if (rc == ARCHIVE_OK)
            return a;
        skip(display,
             failure + archiveError(la, a) +
                 (raw || bytes ? std::string() : " (check that the file is a complete tar/zip archive)"));
        la.read_free(a);
        return nullptr;
    }

    void readArchive(const std::string& path, const std::string& display)
    {
        const ArchiveLibrary* la = loadArchiveLibrary(display);
        archive* a = la ? openArchive(*la, path, nullptr, display, false, "cannot open archive: ") : nullptr;
        if (!a)
            return;
        std::error_code ec;
        readEntries(*la, a, path, display, ratioCap(fs::file_size(path, ec)), 0);
    }

    // What `packed` bytes on disk may expand to before reading stops as a possible bomb. An
    // archive's whole tree counts against its file's: a member that is itself compressed or an
    // archive gets what is left of it, not a ratio of its own (ten thousand small members, each
    // allowed two hundred times its size and the slack, would add up to far more than the file).
    std::uint64_t ratioCap(std::uint64_t packed) const
    {
        return static_cast<std::uint64_t>(limits.maxExpansionRatio * static_cast<double>(packed + 65536));
    }

    // The bytes the nested archive expanded to.
    std::uint64_t readArchiveMemory(const ArchiveLibrary& la, const std::string& path,
                                    const std::string& display, const std::string& bytes, int depth,
                                    std::uint64_t allowed)
    {
        archive* a = openArchive(la, path, &bytes, display, false, "cannot open nested archive: ");
        return a ? readEntries(la, a, path, display, allowed, depth) : 0;
    }

    // One compressed stream, opened raw (`a`, freed here), decompressed up to the caps. A tar
    // archive inside (logs.zst made by `tar c | zstd`) is known from its first header and
    // decompressed no further: `tar` says so and the caller opens it as the archive it is.
    struct Inflated {
        std::string text;
        bool tar = false;
        bool said = false; // a damage or the cap was reported
    };
    Inflated inflateRaw(const ArchiveLibrary& la, archive* a, const std::string& display,
                        std::uint64_t allowed)
    {
        Inflated got;
        archive_entry* entry = nullptr;
        if (la.read_next_header(a, &entry) != ARCHIVE_OK) {
            skip(display, "compressed data is corrupt: " + archiveError(la, a) + "; nothing could be read");
            got.said = true;
            la.read_free(a);
            return got;
        }
        auto isTar = [&got] {
            const char* f = binaryFormat(std::string_view(got.text).substr(0, 512));
            return f && std::string_view(f) == "tar";
        };
        char buf[1 << 16];
        la_ssize_t n;
        bool headSeen = false;
        while ((n = la.read_data(a, buf, sizeof buf)) > 0) {
            got.text.append(buf, static_cast<std::size_t>(n));
            if (!headSeen && got.text.size() >= 512) {
                headSeen = true;
                if (isTar()) {
                    got.tar = true;
                    la.read_free(a);
                    return got;
                }
            }
            if (got.text.size() > expandCap() || got.text.size() > allowed) {
                skip(display, capReason(got.text.size(), "decompression") + "; what was read is kept");
                got.said = true;
                break;
            }
        }
        if (n < 0) {
            skip(display,
                 std::string("compressed data is truncated or corrupt: ") + archiveError(la, a) +
                     (got.text.empty() ? "; nothing could be read" : "; the readable part was kept"));
            got.said = true;
        }
        la.read_free(a);
        return got;
    }

    // A single compressed log (.zst, .xz, .bz2, .lz4, .lz, .lzma) through libarchive's raw format.
    void readCompressedSingle(const std::string& path, const std::string& display)
    {
        const ArchiveLibrary* la = loadArchiveLibrary(display);
        archive* a = la ? openArchive(*la, path, nullptr, display, true, "cannot decompress: ") : nullptr;
        if (!a)
            return;
        std::error_code ec;
        Inflated in = inflateRaw(*la, a, display, ratioCap(fs::file_size(path, ec)));
        if (in.tar)
            readArchive(path, display);
        else if (!in.text.empty())
            addDecompressed(path, display, std::move(in.text));
        else if (!in.said)
            skip(display, "empty once decompressed: nothing to read");
    }

    // An archive member that is itself compressed (rank0.log.gz in a tarball of rotated logs),
    // decompressed from memory: read as the log it holds, or as the archive (one level deep).
    // Returns the bytes it expanded to.
    std::uint64_t readCompressedMember(const ArchiveLibrary& la, const std::string& path,
                                       const std::string& display, const std::string& bytes, int depth,
                                       std::uint64_t allowed)
    {
        archive* a = openArchive(la, path, &bytes, display, true, "cannot decompress: ");
        if (!a)
            return 0;
        Inflated in = inflateRaw(la, a, display, allowed);
        const std::uint64_t size = in.text.size();
        if (in.tar && depth == 0)
            return readArchiveMemory(la, path, display, bytes, 1, allowed);
        if (in.tar)
            skip(display, "archive nested more than two levels deep: not opened (extract the outer archives "
                          "and open this one)");
        else if (!in.text.empty())
            addDecompressed(path, display, std::move(in.text));
        else if (!in.said)
            skip(display, "empty once decompressed: nothing to read");
        return size;
    }

    // The archive's members (`a`, freed here), up to `allowed` bytes expanded in all (ratioCap);
    // returns the bytes expanded.
    std::uint64_t readEntries(const ArchiveLibrary& la, archive* a, const std::string& path,
                              const std::string& display, std::uint64_t allowed, int depth)
    {
        std::uint64_t expanded = 0;
        std::size_t finder = 0, encrypted = 0;
        LeftOut leftOut;
        archive_entry* entry = nullptr;
        int rc;
        while ((rc = la.read_next_header(a, &entry)) == ARCHIVE_OK) {
            if (cancelled && cancelled())
                break;
            if (la.entry_filetype(entry) != AE_IFREG)
                continue;
            const char* name = la.entry_pathname(entry);
            std::string member = name ? name : "?";
            // `tar czf logs.tgz -C DIR .` names every member "./rank0.log": shown, and read for
            // what its folders say, as the folder's own files are.
            while (member.size() > 2 && member.starts_with("./"))
                member.erase(0, member.find_first_not_of('/', 1));
            if (isFinderMetadata(member)) {
                ++finder;
                continue;
            }
            std::string memberDisplay = display + "!" + member;
            if (isDocumentName(member)) {
                skip(memberDisplay, kDocumentReason);
                continue;
            }
            if (isJobFileName(member) || underNonLogFolder(member)) {
                leftOut.add(member);
                continue;
            }
            // A password-protected zip or 7z: no member can be read without the password, which
            // Rankline does not ask for; said once for the archive, not as damage of each member.
            if (la.entry_is_encrypted(entry)) {
                ++encrypted;
                continue;
            }
            std::string data;
            char buf[1 << 16];
            la_ssize_t n;
            bool capped = false;
            while ((n = la.read_data(a, buf, sizeof buf)) > 0) {
                data.append(buf, static_cast<std::size_t>(n));
                expanded += static_cast<std::uint64_t>(n);
                if (expanded > expandCap() || expanded > allowed) {
                    capped = true;
                    break;
                }
            }
            if (n < 0 && data.empty()) {
                skip(memberDisplay, std::string("archive member is damaged: ") + archiveError(la, a) +
                                        "; nothing of it could be read");
                continue;
            }
            if (n < 0)
                skip(memberDisplay, std::string("archive member is damaged: ") + archiveError(la, a) +
                                        "; the readable part was kept");
            if (capped) {
                skip(display, capReason(expanded, "archive expansion"));
                addText(path, memberDisplay, std::make_shared<OwnedBuffer>(std::move(data)));
                break;
            }
            // What a member holds beyond its own bytes counts against the archive's allowance; once
            // that is spent the rest of the archive is not read.
            const std::uint64_t left = allowed > expanded ? allowed - expanded : 0;
            std::uint64_t inner = 0;
            bool nested = false;
            if (compressedFormat(binaryFormat(std::string_view(data).substr(0, 512)))) {
                inner = readCompressedMember(la, path, memberDisplay, data, depth, left);
                nested = true;
            } else if (depth == 0 && isArchiveName(member)) {
                // An archive inside an archive, one level deep: read it from memory.
                inner = readArchiveMemory(la, path, memberDisplay, data, 1, left);
                nested = true;
            }
            if (nested) {
                expanded += inner;
                if (inner >= left) {
                    skip(display, capReason(expanded, "archive expansion"));
                    break;
                }
                continue;
            }
            if (isArchiveName(member)) {
                skip(memberDisplay, "archive nested more than two levels deep: not opened (extract the "
                                    "outer archives and open this one)");
                continue;
            }
            addDecompressed(path, memberDisplay, std::move(data)); // torchelastic's error.json too
        }
        if (rc != ARCHIVE_EOF && rc != ARCHIVE_OK && !(cancelled && cancelled()))
            skip(display, std::string("archive is truncated or corrupt: ") + archiveError(la, a) +
                              "; members read before the damage were kept");
        if (encrypted > 0) {
            const std::string name = display.substr(display.find_last_of("/!") + 1);
            skip(display, std::to_string(encrypted) + (encrypted == 1 ? " member is" : " members are") +
                              " encrypted (a password-protected archive): not read; extract the archive "
                              "with its password (unzip " +
                              name + " or 7z x " + name + ") and open the folder it makes");
        }
        if (finder > 0)
            skip(display, finderReason(finder));
        if (leftOut.count > 0)
            skip(display, leftOut.reason());
        la.read_free(a);
        return expanded;
    }

    void readFile(const std::string& path, const std::string& display)
    {
        if (isArchiveName(path)) {
            readArchive(path, display);
            return;
        }
        if (isCompressedName(path)) {
            readCompressedSingle(path, display);
            return;
        }
        // Without a budget (no memory limit) there is nothing to check: spare each file a stat.
        std::error_code ec;
        if (const std::uint64_t size = budget == UINT64_MAX ? 0 : fs::file_size(path, ec);
            !ec && size > room()) {
            skip(display, "not read: the memory limit (ulimit -v) leaves no room for its " + mib(size) +
                              " after the " + mib(kept) +
                              " already read (raise the limit or open fewer files)");
            return;
        }
        Expected<OpenedFile> file = openFile(path);
        if (!file) {
            skip(display, file.error().cause + "; " + file.error().hint);
            return;
        }
        SmallFile* small = std::get_if<SmallFile>(&*file);
        const bool errorJson = endsWith(path, "/error.json") || path == "error.json";
        if (errorJson || endsWith(path, ".gz")) {
            // Read whole, however the file was opened.
            std::string smallText;
            if (small)
                small->read(smallText);
            const std::string_view text =
                small ? std::string_view(smallText) : std::get<MappedFile>(*file).text();
            if (!errorJson)
                readGzip(path, display, text);
            else if (auto lines = torchelasticErrorText(text))
                addText(path, display, std::make_shared<OwnedBuffer>(std::move(*lines)));
            else
                addText(path, display, std::make_shared<OwnedBuffer>(std::string(text)));
            return;
        }
        if (small) {
            addSmall(path, display, std::move(*small));
            return;
        }
        MappedFile& mapped = std::get<MappedFile>(*file);
        const std::optional<bool> headBinary = mapped.headBinary();
        // A log kept as JSON records is read whole once, into the log lines they hold, which are
        // then the source's text (held in memory, as a decompressed log's is). Looked for where
        // the look at the head found it may be one, or where the head was not looked at that way
        // (a copy in memory: its first line says at once).
        if (!headBinary || (!*headBinary && mapped.headJsonRecords())) {
            if (auto lines = jsonRecordsText(mapped.text())) {
                addText(path, display, std::make_shared<OwnedBuffer>(std::move(*lines)));
                return;
            }
        }
        addText(path, display, std::make_shared<MappedBuffer>(std::move(mapped)), headBinary);
    }

    // What listing a folder's tree learns of its symbolic links, for listTree to settle once the
    // folder's own files are known.
    struct Links {
        std::vector<std::string> folders; // links to folders, relative to the opened folder
        std::vector<std::string> files;   // links to files, likewise
    };

    // The regular files under the folder open as `fd` (closed here), whose path is base + rel, as
    // paths relative to the opened folder: depth first, in the listing's order, using the type the
    // listing gives (no stat per file). Symbolic links are noted in `links` (listTree follows them
    // or says why not); a folder that may not be read is skipped with its reason (its files would
    // otherwise go missing without a word), as is anything else that is not a file. Plain system
    // calls rather than std::filesystem, whose paths cost an allocation per component: a folder of
    // 10,000 files spent more time building, relativising and comparing them than listing.
    void listFolder(int fd, const std::string& base, const std::string& rel, const std::string& prefix,
                    std::vector<std::string>& files, Links& links)
    {
        DIR* d = ::fdopendir(fd);
        if (!d) {
            const int err = errno;
            ::close(fd);
            skip(base + rel, std::string("cannot list: ") + std::strerror(err));
            return;
        }
        while (true) {
            errno = 0;
            const dirent* e = ::readdir(d);
            if (!e) {
                if (errno != 0)
                    skip(base + rel, std::string("cannot list: ") + std::strerror(errno));
                break;
            }
            const std::string_view name(e->d_name);
            if (name == "." || name == "..")
                continue;
            std::string entry = rel;
            entry.append(name);
            unsigned char type = e->d_type;
            if (type == DT_UNKNOWN) {
                // Some file systems do not say: ask, without following a link.
                struct stat st {
                };
                if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                    skip(base + entry, std::string("cannot list: ") + std::strerror(errno));
                    continue;
                }
                type = S_ISREG(st.st_mode)   ? DT_REG
                       : S_ISDIR(st.st_mode) ? DT_DIR
                       : S_ISLNK(st.st_mode) ? DT_LNK
                                             : DT_FIFO;
            }
            if ((type == DT_REG || type == DT_LNK) && isFinderMetadata(entry)) {
                ++finderFiles;
            } else if ((type == DT_REG || type == DT_LNK) && isDocumentName(name)) {
                skip(prefix + entry, kDocumentReason);
            } else if ((type == DT_REG || type == DT_LNK) && isJobFileName(name)) {
                jobFiles.add(name);
            } else if (type == DT_DIR && isNonLogFolder(name)) {
                skip(prefix + entry + '/', "version control, a cache or a Python environment: no logs, "
                                           "not read; name a file in it to read that file");
            } else if (type == DT_REG) {
                files.push_back(std::move(entry));
            } else if (type == DT_DIR) {
                const int sub =
                    ::openat(::dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0)
                    listFolder(sub, base, entry + '/', prefix, files, links);
                else if (errno == EACCES || errno == EPERM)
                    skip(prefix + entry + '/', std::string("cannot list folder: ") + std::strerror(errno) +
                                                   "; its files were not read (check its permissions, or "
                                                   "run Rankline as a user who may read it)");
                else
                    skip(base + entry, std::string("cannot list: ") + std::strerror(errno));
            } else if (type == DT_LNK) {
                struct stat st {
                };
                if (::fstatat(::dirfd(d), e->d_name, &st, 0) != 0) {
                    const int err = errno;
                    skip(prefix + entry,
                         err == ELOOP ? "symbolic link loop (it leads back to itself): "
                                        "not followed, skipped"
                         : err == ENOENT
                             ? "broken symbolic link (its target " + linkTarget(::dirfd(d), e->d_name) +
                                   " does not exist): skipped; copy the file it stood for into "
                                   "the bundle if it matters"
                             : std::string("symbolic link not followed: ") + std::strerror(err));
                } else if (S_ISREG(st.st_mode)) {
                    links.files.push_back(std::move(entry));
                } else if (S_ISDIR(st.st_mode)) {
                    links.folders.push_back(std::move(entry));
                } else {
                    skip(prefix + entry, "symbolic link to a FIFO, socket or device: never opened, skipped");
                }
            } else {
                skip(prefix + entry, "not a regular file (FIFO, socket or device): never opened, skipped");
            }
        }
        ::closedir(d);
    }

    // Every regular file under the opened folder `top` (closed here; its path is `input`), as
    // listFolder gives them, with its symbolic links settled once its own tree is known. A link
    // leads either into that tree, whose files are read there under their own names, or out of it:
    // a folder outside is listed as if it stood where the link does (a run's logs linked in from
    // shared storage), once however many links lead to it, never when it holds the opened folder (a
    // loop), and a file outside is read under the link's name, once. What is not followed is said,
    // so that no link's files go missing without a word. No stat or path resolution happens for a
    // folder without links.
    void listTree(int top, const std::string& input, const std::string& base, const std::string& prefix,
                  std::vector<std::string>& files)
    {
        Links links;
        listFolder(top, base, {}, prefix, files, links);
        if (links.folders.empty() && links.files.empty())
            return;
        const std::string root = realPath(input);
        // Whether `real` is `folder` or lies under it (real paths, no trailing slash but "/").
        auto within = [](const std::string& real, const std::string& folder) {
            return real == folder ||
                   (real.size() > folder.size() && real.compare(0, folder.size(), folder) == 0 &&
                    (folder.back() == '/' || real[folder.size()] == '/'));
        };
        // Inside the opened folder: its relative path, "." for the folder itself; else nullopt.
        auto inside = [&root, &within](const std::string& real) -> std::optional<std::string> {
            if (root.empty() || !within(real, root))
                return std::nullopt;
            if (real == root)
                return std::string(".");
            return real.substr(root.back() == '/' ? root.size() : root.size() + 1);
        };
        // Folders outside, by real path, with the link they were listed through. Links are taken in
        // name order, not the listing's (which the file system decides), so that the same bundle
        // reads the same way everywhere; a followed folder's own links come in the next round.
        std::vector<std::pair<std::string, std::string>> followed;
        std::vector<std::string> round = std::move(links.folders);
        for (; !round.empty(); round = std::move(links.folders)) {
            links.folders.clear();
            std::sort(round.begin(), round.end());
            for (const std::string& entry : round) {
                if (cancelled && cancelled())
                    return;
                const std::string real = realPath(base + entry);
                if (real.empty()) {
                    skip(prefix + entry + '/',
                         std::string("symbolic link to a folder not followed: ") + std::strerror(errno));
                } else if (auto rel = inside(real)) {
                    skip(prefix + entry + '/', *rel == "."
                                                   ? "symbolic link back to the opened folder (a loop): not "
                                                     "followed; its files are read once"
                                                   : "symbolic link to the folder " + prefix + *rel +
                                                         " of this bundle: its files are read there, once");
                } else if (within(real, "/proc") || within(real, "/sys") || within(real, "/dev")) {
                    skip(prefix + entry + '/', "symbolic link to the system folder " + real +
                                                   ", which holds no logs of a job: not followed");
                } else if (!root.empty() && within(root, real)) {
                    skip(prefix + entry + '/',
                         "symbolic link to " + real +
                             ", a folder that holds the opened folder (a loop): not followed");
                } else if (auto seen = std::find_if(followed.begin(), followed.end(),
                                                    [&](const auto& f) { return within(real, f.first); });
                           seen != followed.end()) {
                    skip(prefix + entry + '/', "symbolic link to " + real +
                                                   ", which is read once, through the link " + prefix +
                                                   seen->second + "/");
                } else {
                    const int fd = ::open((base + entry).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                    if (fd < 0) {
                        skip(prefix + entry + '/',
                             std::string("cannot list the folder this symbolic link leads to: ") +
                                 std::strerror(errno) + "; its files were not read (check its permissions)");
                        continue;
                    }
                    followed.emplace_back(real, entry);
                    listFolder(fd, base, entry + '/', prefix, files, links);
                }
            }
        }
        // Links to files, once the files they may stand for are all listed: a file of the tree,
        // or of a folder followed above, is read under the name it is listed by.
        std::sort(links.files.begin(), links.files.end());
        auto listedAs = [&](const std::string& real) -> std::optional<std::string> {
            if (auto rel = inside(real))
                return rel;
            for (const auto& [folder, link] : followed)
                if (within(real, folder) && real != folder)
                    return link + real.substr(folder.size());
            return std::nullopt;
        };
        files.reserve(files.size() + links.files.size()); // `listed` views them: no reallocation below
        std::unordered_set<std::string_view> listed(files.begin(), files.end());
        std::vector<std::pair<std::string, std::string>> outside; // real path, the link read for it
        for (std::string& entry : links.files) {
            const std::string real = realPath(base + entry);
            const auto rel = real.empty() ? std::nullopt : listedAs(real);
            if (rel && listed.count(*rel)) {
                skip(prefix + entry,
                     "symbolic link to " + prefix + *rel + ", which is read under its own name");
                continue;
            }
            auto seen =
                std::find_if(outside.begin(), outside.end(), [&](const auto& o) { return o.first == real; });
            if (!real.empty() && seen != outside.end()) {
                skip(prefix + entry,
                     "symbolic link to the same file as " + prefix + seen->second + ", which is read");
                continue;
            }
            if (!real.empty())
                outside.emplace_back(real, entry);
            files.push_back(std::move(entry));
        }
    }

    // Bytes held in memory under `display` (the standard input), read as a file of those bytes
    // would be. With no name to go by, its first bytes say what it is: a compressed log or archive
    // (`tar cz logs | rankline diagnose -`), or text.
    void readMemory(const std::string& display, std::string bytes)
    {
        const char* format = binaryFormat(std::string_view(bytes).substr(0, 512));
        const bool archive = format && archiveFormat(format);
        if (!archive && !compressedFormat(format)) {
            addDecompressed(std::string{}, display, std::move(bytes));
            return;
        }
        const ArchiveLibrary* la = loadArchiveLibrary(display);
        if (!la)
            return;
        const std::uint64_t allowed = ratioCap(bytes.size());
        if (archive)
            readArchiveMemory(*la, std::string{}, display, bytes, 0, allowed);
        else
            readCompressedMember(*la, std::string{}, display, bytes, 0, allowed);
    }

    void readPath(const std::string& input, bool several)
    {
        std::error_code ec;
        fs::path p(input);
        auto st = fs::status(p, ec);
        if (ec || !fs::exists(st)) {
            skip(input, "no such file or folder; check the path");
            return;
        }
        if (fs::is_directory(st)) {
            const std::string prefix = folderPrefix(input, several);
            const int top = ::open(input.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (top < 0) {
                skip(input,
                     std::string("cannot list folder: ") + std::strerror(errno) + "; check its permissions");
                return;
            }
            const std::string base = folderBase(input);
            std::vector<std::string> files; // relative to the folder
            finderFiles = 0;
            jobFiles = {};
            const std::size_t skippedBefore = out.skipped.size();
            listTree(top, input, base, prefix, files);
            if (finderFiles > 0)
                skip(input, finderReason(finderFiles));
            if (jobFiles.count > 0)
                skip(input, jobFiles.reason());
            // Nothing at all under it: said, so that "nothing could be read" names a cause.
            if (files.empty() && finderFiles == 0 && jobFiles.count == 0 &&
                out.skipped.size() == skippedBefore)
                skip(input, "an empty folder (no file in it or in the folders under it): nothing to read; "
                            "name the folder that holds the job's logs");
            // In the order std::filesystem::path compares them, component by component: a folder's
            // files before those of a folder whose name merely starts with its name.
            std::sort(files.begin(), files.end(), [](const std::string& x, const std::string& y) {
                return std::lexicographical_compare(
                    x.begin(), x.end(), y.begin(), y.end(), [](char a, char b) {
                        const auto ua = a == '/' ? 0 : static_cast<unsigned char>(a) + 1;
                        const auto ub = b == '/' ? 0 : static_cast<unsigned char>(b) + 1;
                        return ua < ub;
                    });
            });
            SmallFile::expect(files.size());
            // Grown once: each growth of ten thousand sources moves them all into fresh memory.
            out.sources.reserve(out.sources.size() + files.size());
            // In chunks: a cancel is seen between them.
            constexpr std::size_t kChunk = 4096;
            for (std::size_t from = 0; from < files.size(); from += kChunk) {
                const std::size_t to = std::min(files.size(), from + kChunk);
                if (readAhead(base, prefix, files, from, to)) {
                    if (cancelled && cancelled())
                        return;
                    continue;
                }
                for (std::size_t i = from; i < to; ++i) {
                    if (cancelled && cancelled())
                        return;
                    readFileSafely(base + files[i], prefix + files[i]);
                }
            }
            return;
        }
        std::string display = several ? input : p.filename().string();
        if (!fs::is_regular_file(st)) {
            skip(display, "not a regular file (FIFO, socket or device): never opened, skipped");
            return;
        }
        readFileSafely(p.string(), display);
    }

    // A folder of many files spends its reading time in system calls that wait on the file system
    // (open, fstat, a large file's mmap, an archive's reads) and in building what each file
    // becomes: files [from, to) are read on every core, each into a bundle of its own, and join
    // this one in the listing's order, as read one by one they would. False, having read nothing,
    // where that is not worth it or not possible: with a memory limit, whose room depends on the
    // files read before, they are read one by one.
    bool readAhead(const std::string& base, const std::string& prefix, const std::vector<std::string>& files,
                   std::size_t from, std::size_t to)
    {
        const unsigned threads = std::min(4u, std::thread::hardware_concurrency());
        if (to - from < 256 || threads < 2 || budget != UINT64_MAX)
            return false;
        std::vector<Bundle> parts(to - from);
        std::atomic<std::size_t> next{from};
        auto work = [&] {
            for (std::size_t i; (i = next.fetch_add(1)) < to;) {
                if (cancelled && cancelled())
                    return;
                Reader r{limits, cancelled, parts[i - from]};
                r.readFileSafely(base + files[i], prefix + files[i]);
            }
        };
        std::vector<std::thread> helpers;
        for (unsigned t = 1; t < threads; ++t)
            helpers.emplace_back(work);
        work();
        for (auto& t : helpers)
            t.join();
        for (Bundle& part : parts) {
            for (Source& src : part.sources) {
                src.skippedBefore += out.skipped.size();
                kept += src.size;
                out.sources.push_back(std::move(src));
            }
            for (Skipped& sk : part.skipped)
                out.skipped.push_back(std::move(sk));
            for (FlightDumpBytes& d : part.flightDumps)
                out.flightDumps.push_back(std::move(d));
        }
        return true;
    }

    void readFileSafely(const std::string& path, const std::string& display)
    {
        try {
            readFile(path, display);
        } catch (const std::bad_alloc&) {
            skip(display, "not enough memory to read this file; the files before it were read (raise the "
                          "memory limit or open fewer files)");
        }
    }
};

} // namespace

std::string_view Source::line(std::uint32_t index) const
{
    std::string_view t = text();
    if (index >= lineStarts.size())
        return {};
    std::uint64_t b = lineStarts[index];
    std::uint64_t e = index + 1 < lineStarts.size() ? lineStarts[index + 1] : t.size();
    std::string_view l = t.substr(b, e - b);
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r'))
        l.remove_suffix(1);
    return l;
}

namespace
{

// push(offset) for the start of every line that follows a line break in bytes [begin, end) of
// `t`, in order (0 and a start at t.size() are not lines of their own).
template <class Push> void eachLineStart(std::string_view t, std::size_t begin, std::size_t end, Push&& push)
{
    const char* data = t.data();
    const std::size_t n = t.size();
    std::size_t pos = begin;
#if defined(__SSE2__)
    // Sixty-four bytes at a time, one bit per newline: a memchr call per line costs more than the
    // search itself when lines are a hundred bytes long.
    const __m128i nl = _mm_set1_epi8('\n');
    for (; pos + 64 <= end; pos += 64) {
        auto mask16 = [&](std::size_t at) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + at));
            return static_cast<std::uint64_t>(
                static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl))));
        };
        std::uint64_t bits =
            mask16(pos) | (mask16(pos + 16) << 16) | (mask16(pos + 32) << 32) | (mask16(pos + 48) << 48);
        while (bits) {
            const std::size_t at = pos + static_cast<std::size_t>(__builtin_ctzll(bits)) + 1;
            if (at < n)
                push(at);
            bits &= bits - 1;
        }
    }
#endif
    while (pos < end) {
        const void* hit = std::memchr(data + pos, '\n', end - pos);
        if (!hit)
            break;
        pos = static_cast<std::size_t>(static_cast<const char*>(hit) - data) + 1;
        if (pos < n)
            push(pos);
    }
}

// 3 where a UTF-8 byte order mark starts the text, else 0. Windows editors and PowerShell's
// Out-File put one before a file's first line: the line starts after it, so that its prefix,
// stamp and level read as on any other line, and it is not shown. (A mark in the middle, where
// `cat` joined such files, is read past by parseLine.)
std::size_t byteOrderMarkAt(std::string_view t)
{
    return t.starts_with("\xEF\xBB\xBF") ? 3 : 0;
}

} // namespace

void indexLines(Source& source)
{
    std::string_view t = source.text();
    source.lineStarts.clear();
    source.lineStarts.reserve(t.size() / 80 + 1, t.size());
    if (t.empty()) {
        source.lineStarts.shrink_to_fit();
        return;
    }
    source.lineStarts.push_back(byteOrderMarkAt(t));
    eachLineStart(t, 0, t.size(), [&](std::size_t at) { source.lineStarts.push_back(at); });
    source.lineStarts.shrink_to_fit();
}

SourcePass::SourcePass(const Source& source, std::string& scratch) : m_source(&source)
{
    if (!source.buffer || !source.buffer->readForPass(scratch))
        return;
    m_read = true;
    m_view.bytes = scratch;
    m_copy.id = source.id;
    m_copy.size = source.size;
    m_copy.buffer = m_view.unowned(); // the copy lives as long as this pass, and the view with it
    m_copy.lineStarts = source.lineStarts;
}

std::vector<ChangedSource> sourcesChangedOnDisk(const std::vector<Source>& sources, const CancelFn& cancelled)
{
    std::vector<ChangedSource> changed;
    for (const Source& src : sources) {
        if (cancelled && cancelled())
            break;
        if (!src.buffer)
            continue;
        const FileChange c = src.buffer->changeOnDisk(src.path);
        if (c.kind != FileChange::Kind::None)
            changed.push_back({src.id, c});
    }
    return changed;
}

std::vector<std::string> filesAddedSince(const std::vector<std::string>& paths,
                                         const std::vector<Source>& sources,
                                         const std::vector<Skipped>& skipped, const CancelFn& cancelled)
{
    // A listed file is known by its on-disk path (a source's, an archive's for its members) or by
    // the display path a skipped entry names it by.
    std::unordered_set<std::string_view> known;
    known.reserve(sources.size() + skipped.size());
    for (const auto& s : sources)
        known.insert(s.path);
    for (const auto& s : skipped)
        known.insert(s.file);
    std::vector<std::string> added;
    Bundle unused; // what listing says of folders it cannot read: not new files
    const BundleLimits limits;
    Reader lister{limits, cancelled, unused};
    for (const auto& input : paths) {
        if (cancelled && cancelled())
            break;
        struct stat st {
        };
        if (::stat(input.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        const int top = ::open(input.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (top < 0)
            continue;
        const std::string prefix = folderPrefix(input, paths.size() > 1);
        const std::string base = folderBase(input);
        std::vector<std::string> files;
        lister.listTree(top, input, base, prefix, files);
        for (const auto& f : files)
            if (!known.count(base + f) && !known.count(prefix + f))
                added.push_back(prefix + f);
    }
    std::sort(added.begin(), added.end());
    return added;
}

std::string describeChange(const FileChange& change, std::uint64_t sizeRead)
{
    switch (change.kind) {
    case FileChange::Kind::Grew:
        return "grew by " + byteCount(change.sizeNow - std::min(change.sizeNow, sizeRead)) +
               " since it was read";
    case FileChange::Kind::Shrank:
        return "was cut to " + byteCount(change.sizeNow) + " since it was read (" + withThousands(sizeRead) +
               " were read)";
    case FileChange::Kind::Replaced:
        return "was replaced since it was read (rotated or rewritten under the same name; " +
               byteCount(change.sizeNow) + " now)";
    case FileChange::Kind::Gone:
        return "was deleted or moved away since it was read (what was read is still shown)";
    case FileChange::Kind::None:
        break;
    }
    return "is as it was read";
}

Source sourceFromText(std::string name, std::string text)
{
    Source s;
    s.path = name;
    s.displayPath = std::move(name);
    s.size = text.size();
    s.buffer = std::make_shared<OwnedBuffer>(std::move(text));
    return s;
}

namespace
{

// Sources sorted by display path, so that results do not depend on the order they were read in,
// and numbered in that order.
void inPathOrder(std::vector<Source>& sources)
{
    // Mostly in this order already (a folder's files are listed in path order): then there is
    // nothing to move.
    auto byPath = [](const Source& a, const Source& b) { return a.displayPath < b.displayPath; };
    if (!std::is_sorted(sources.begin(), sources.end(), byPath))
        std::stable_sort(sources.begin(), sources.end(), byPath);
    // Kept for the whole analysis: a folder of 10,000 files left a vector of 16,384.
    sources.shrink_to_fit();
    for (std::size_t i = 0; i < sources.size(); ++i)
        sources[i].id = SourceId(static_cast<std::uint32_t>(i));
}

} // namespace

Bundle readBytes(const std::string& name, std::string bytes, const BundleLimits& limits)
{
    Bundle out;
    const CancelFn never;
    Reader r{limits, never, out};
    if (bytes.empty())
        r.skip(name, "empty: nothing to read");
    else
        r.readMemory(name, std::move(bytes));
    inPathOrder(out.sources);
    return out;
}

Bundle readBundle(const std::vector<std::string>& paths, const BundleLimits& limits,
                  const CancelFn& cancelled)
{
    Bundle out;
    Reader r{limits, cancelled, out};
    if (limits.maxTotalBytes)
        r.budget = limits.maxTotalBytes;
    else if (auto left = addressSpaceLeft())
        r.budget = *left / 2; // the other half: line indexes, the analysis, threads

    for (const auto& p : paths) {
        if (cancelled && cancelled())
            break;
        r.readPath(p, paths.size() > 1);
    }
    // One file read under two names (a folder and a file in it both named, overlapping folders,
    // hard links) would show every line and event twice: it is kept under the name read first. So
    // is an archive's member, or a decompressed log, whose archive was read twice: known by the
    // file it came from (one stat per such file) and its name inside it.
    {
        struct Key {
            std::uint64_t device, inode;
            bool operator==(const Key&) const = default;
        };
        struct KeyHash {
            std::size_t operator()(const Key& k) const
            {
                return std::hash<std::uint64_t>{}(k.inode * 31 + k.device);
            }
        };
        std::unordered_map<Key, std::size_t, KeyHash> first; // -> index in out.sources
        first.reserve(out.sources.size());
        std::vector<char> twice(out.sources.size(), 0);
        bool any = false;
        std::unordered_map<std::string, FileIdentity> container;  // an archive's path -> its file
        std::unordered_map<std::string, std::size_t> firstPacked; // "device:inode!member" -> index
        for (std::size_t i = 0; i < out.sources.size(); ++i) {
            const Source& s = out.sources[i];
            const FileIdentity id = s.buffer ? s.buffer->fileIdentity() : FileIdentity{};
            bool added = true;
            std::size_t earlier = 0;
            if (id.known()) {
                auto [at, fresh] = first.try_emplace(Key{id.device, id.inode}, i);
                added = fresh;
                earlier = at->second;
            } else if (!s.path.empty()) {
                auto [c, looked] = container.try_emplace(s.path);
                struct stat st {
                };
                if (looked && ::stat(s.path.c_str(), &st) == 0)
                    c->second = FileIdentity::of(st);
                if (!c->second.known())
                    continue;
                const std::size_t bang = s.displayPath.find('!');
                std::string key = std::to_string(c->second.device) + ':' + std::to_string(c->second.inode);
                if (bang != std::string::npos)
                    key.append(s.displayPath, bang, std::string::npos);
                auto [at, fresh] = firstPacked.try_emplace(std::move(key), i);
                added = fresh;
                earlier = at->second;
            }
            if (!added) {
                twice[i] = 1;
                any = true;
                r.skip(s.displayPath, "the same file as " + out.sources[earlier].displayPath +
                                          " (named twice, or a hard link to it): read once, under that name");
            }
        }
        if (any) {
            std::size_t i = 0;
            std::erase_if(out.sources, [&](const Source&) { return twice[i++] != 0; });
        }
    }
    inPathOrder(out.sources);
    return out;
}

} // namespace rl
