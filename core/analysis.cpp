#include "analysis.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <thread>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/scanner.h"

namespace fs = std::filesystem;

namespace rl
{

std::string Process::label() const
{
    std::string s = rank ? "rank " + std::to_string(*rank) : std::string("unknown rank");
    if (!host.empty()) {
        s += " (" + host;
        if (pid >= 0)
            s += ":" + std::to_string(pid);
        s += ")";
    } else if (pid >= 0) {
        s += " (pid " + std::to_string(pid) + ")";
    }
    return s;
}

std::string Event::capture(const std::string& name) const
{
    for (const auto& c : captures)
        if (c.name == name)
            return c.value;
    return {};
}

const char* checkStatusName(CheckStatus s)
{
    switch (s) {
    case CheckStatus::Confirmed:
        return "confirmed";
    case CheckStatus::Contradicted:
        return "contradicted";
    case CheckStatus::NotEvidenced:
        return "not-evidenced";
    }
    return "";
}

const char* roleName(Role r)
{
    switch (r) {
    case Role::Initiating:
        return "initiating";
    case Role::Collateral:
        return "collateral";
    case Role::Context:
        return "context";
    }
    return "";
}

std::string resourcesDir()
{
    if (const char* env = std::getenv("RANKLINE_RESOURCES"); env && *env)
        return env;
    char buf[4096];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = '\0';
        fs::path installed = fs::path(buf).parent_path() / ".." / "share" / "rankline";
        std::error_code ec;
        if (fs::is_directory(installed / "encyclopedia", ec))
            return fs::weakly_canonical(installed, ec).string();
    }
#ifdef RANKLINE_SOURCE_RESOURCES_DIR
    return RANKLINE_SOURCE_RESOURCES_DIR;
#else
    return "resources";
#endif
}

namespace
{

// A process as a source sees it before processes are merged across the bundle.
struct LocalKey {
    std::string host;
    std::int64_t pid = -1;
    bool operator<(const LocalKey& o) const { return std::tie(host, pid) < std::tie(o.host, o.pid); }
};

struct SourceScan {
    std::vector<LineInfo> lines;
    std::vector<std::int32_t> key;      // per line: index into keys, or -1
    std::vector<std::int32_t> decoRank; // per line: launcher rank, or -1
    std::vector<LocalKey> keys;
    std::vector<std::optional<Timestamp>> stamps;
    std::vector<ScanHit> hits;
};

int currentYear()
{
    auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    return 1970 + static_cast<int>(now / 31556952);
}

// Python logging, ISO and collector stamps carry the year; glog stamps do not, so they borrow it.
int yearHint(const Source& s)
{
    std::uint32_t n = static_cast<std::uint32_t>(std::min<std::size_t>(s.lineCount(), 2000));
    for (std::uint32_t i = 0; i < n; ++i) {
        std::string_view l = s.line(i);
        for (std::size_t pos = 0; pos + 4 < l.size() && pos < 64; ++pos) {
            if (l[pos] >= '1' && l[pos] <= '2' && pos + 10 <= l.size() && l[pos + 4] == '-' &&
                l[pos + 7] == '-') {
                int y = 0;
                bool ok = true;
                for (int k = 0; k < 4; ++k) {
                    char c = l[pos + static_cast<std::size_t>(k)];
                    ok = ok && c >= '0' && c <= '9';
                    y = y * 10 + (c - '0');
                }
                if (ok && y >= 1990 && y <= 2100)
                    return y;
            }
        }
    }
    return currentYear();
}

SourceScan scanSource(Source& source, const Scanner& scanner)
{
    indexLines(source);
    SourceScan out;
    const std::size_t n = source.lineCount();
    out.lines.resize(n);
    out.key.assign(n, -1);
    out.decoRank.assign(n, -1);
    out.stamps.resize(n);
    const int year = yearHint(source);
    std::map<LocalKey, std::int32_t> keyIndex;
    for (std::uint32_t i = 0; i < n; ++i) {
        ParsedLine p = parseLine(source.line(i), year);
        LineInfo& li = out.lines[i];
        li.level = p.level;
        out.stamps[i] = p.stamp;
        out.decoRank[i] = p.decorationRank;
        if (p.nccl && !p.nccl->host.empty()) {
            LocalKey k{std::string(p.nccl->host), p.nccl->pid};
            auto [it, inserted] = keyIndex.emplace(k, static_cast<std::int32_t>(out.keys.size()));
            if (inserted)
                out.keys.push_back(k);
            out.key[i] = it->second;
            li.tid = static_cast<std::int32_t>(p.nccl->tid);
        }
    }
    out.hits = scanner.scan(source);

    // Time intervals: a stamped line covers [t, t + resolution); a line without a stamp lies between
    // its stamped neighbours, because a stream is written in order.
    std::int64_t prevLo = kTimeUnknownLo;
    for (std::size_t i = 0; i < n; ++i) {
        if (out.stamps[i]) {
            out.lines[i].time = {out.stamps[i]->us, out.stamps[i]->us + out.stamps[i]->resolutionUs};
            out.lines[i].timeSource = TimeSource::Parsed;
            prevLo = out.stamps[i]->us;
        } else {
            out.lines[i].time.lo = prevLo;
        }
    }
    std::int64_t nextHi = kTimeUnknownHi;
    for (std::size_t i = n; i-- > 0;) {
        if (out.stamps[i]) {
            nextHi = out.lines[i].time.hi;
        } else {
            out.lines[i].time.hi = nextHi;
            if (out.lines[i].time.known())
                out.lines[i].timeSource = TimeSource::Inferred;
        }
    }
    return out;
}

std::optional<int> rankFromFileName(const std::string& displayPath)
{
    std::string name = fs::path(displayPath).filename().string();
    for (auto& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::size_t at = name.find("rank");
    if (at == std::string::npos)
        return std::nullopt;
    std::size_t p = at + 4;
    while (p < name.size() && (name[p] == '_' || name[p] == '-' || name[p] == '.'))
        ++p;
    int v = 0;
    std::size_t digits = 0;
    while (p < name.size() && std::isdigit(static_cast<unsigned char>(name[p])) && digits < 7) {
        v = v * 10 + (name[p] - '0');
        ++p;
        ++digits;
    }
    if (digits == 0)
        return std::nullopt;
    return v;
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

std::string captureOf(const ScanHit& h, const char* name)
{
    for (const auto& [k, v] : h.captures)
        if (k == name)
            return v;
    return {};
}

} // namespace

std::shared_ptr<const Analysis> analyze(Bundle bundle, std::shared_ptr<const Encyclopedia> encyclopedia,
                                        const AnalyzeOptions& options, const ProgressSink& progress)
{
    auto result = std::make_shared<Analysis>();
    Analysis& a = *result;
    a.encyclopedia = encyclopedia;
    a.sources = std::move(bundle.sources);
    a.skipped = std::move(bundle.skipped);
    const Scanner scanner(*encyclopedia);

    // Stage: index + parse + scan, one source per task on every core.
    std::vector<SourceScan> scans(a.sources.size());
    {
        std::atomic<std::size_t> next{0};
        std::atomic<std::uint64_t> doneBytes{0};
        std::uint64_t totalBytes = 0;
        for (const auto& s : a.sources)
            totalBytes += s.size;
        unsigned threads =
            options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
        threads =
            static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, a.sources.size())));
        auto work = [&] {
            for (std::size_t i; (i = next.fetch_add(1)) < a.sources.size();) {
                if (progress.isCancelled())
                    return;
                scans[i] = scanSource(a.sources[i], scanner);
                doneBytes += a.sources[i].size;
            }
        };
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < threads; ++t)
            pool.emplace_back(work);
        // The calling thread works too, and reports progress between sources.
        work();
        for (auto& t : pool)
            t.join();
        if (progress.report)
            progress.report("reading", doneBytes.load(), totalBytes);
        if (progress.isCancelled())
            return nullptr;
        a.totalBytes = totalBytes;
    }

    // Stage: identity. Processes keyed by (host, pid) across the bundle.
    std::map<LocalKey, ProcessId> byKey;
    std::vector<std::vector<ProcessId>> keyProcess(a.sources.size());
    auto newProcess = [&a]() -> Process& {
        Process p;
        p.id = ProcessId(static_cast<std::uint32_t>(a.processes.size()));
        a.processes.push_back(std::move(p));
        return a.processes.back();
    };
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        for (const auto& k : scans[s].keys) {
            auto it = byKey.find(k);
            if (it == byKey.end()) {
                Process& p = newProcess();
                p.host = k.host;
                p.pid = k.pid;
                it = byKey.emplace(k, p.id).first;
            }
            keyProcess[s].push_back(it->second);
        }
    }
    auto lineProcessByKey = [&](std::size_t s, std::uint32_t line) -> ProcessId {
        std::int32_t k = scans[s].key[line];
        return k >= 0 ? keyProcess[s][static_cast<std::size_t>(k)] : ProcessId{};
    };
    // Ranks from Init lines: the communicator with the most ranks is the world.
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        for (const auto& h : scans[s].hits) {
            const auto& pat = scanner.patterns()[static_cast<std::size_t>(h.pattern)];
            if (pat.builtin != Builtin::InitLine)
                continue;
            ProcessId pid = lineProcessByKey(s, h.line);
            if (!pid.valid())
                continue;
            Process& p = a.processes[pid.value];
            int nranks = std::atoi(captureOf(h, "nranks").c_str());
            if (nranks > p.nranks) {
                p.nranks = nranks;
                p.rank = std::atoi(captureOf(h, "rank").c_str());
                p.identitySource = "nccl-init";
            }
        }
    }
    // Launcher prefixes on NCCL lines name the rank when no Init line did.
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const auto& sc = scans[s];
        for (std::uint32_t i = 0; i < sc.lines.size(); ++i) {
            ProcessId pid = lineProcessByKey(s, i);
            if (pid.valid() && sc.decoRank[i] >= 0 && !a.processes[pid.value].rank) {
                a.processes[pid.value].rank = sc.decoRank[i];
                a.processes[pid.value].identitySource = "launcher-prefix";
            }
        }
    }
    auto processWithRank = [&a](int rank) -> ProcessId {
        for (const auto& p : a.processes)
            if (p.rank && *p.rank == rank)
                return p.id;
        return {};
    };
    // The process each source's undecorated, unprefixed lines belong to.
    std::vector<ProcessId> defaultProcess(a.sources.size());
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        auto fileRank = rankFromFileName(a.sources[s].displayPath);
        if (keyProcess[s].size() == 1) {
            defaultProcess[s] = keyProcess[s][0];
            Process& p = a.processes[defaultProcess[s].value];
            if (!p.rank && fileRank) {
                p.rank = fileRank;
                p.identitySource = "file-name";
            }
        } else if (keyProcess[s].empty() && fileRank && processWithRank(*fileRank).valid()) {
            defaultProcess[s] = processWithRank(*fileRank);
        } else {
            Process& p = newProcess();
            if (keyProcess[s].empty() && fileRank) {
                p.rank = fileRank;
                p.identitySource = "file-name";
            }
            defaultProcess[s] = p.id;
        }
    }
    // PyTorch's "[Rank N]" on a source's own lines.
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        for (const auto& h : scans[s].hits) {
            if (scanner.patterns()[static_cast<std::size_t>(h.pattern)].builtin != Builtin::TorchRank)
                continue;
            ProcessId pid = lineProcessByKey(s, h.line);
            if (!pid.valid())
                pid = defaultProcess[s];
            Process& p = a.processes[pid.value];
            if (!p.rank) {
                p.rank = std::atoi(captureOf(h, "rank").c_str());
                p.identitySource = "pytorch";
            }
        }
    }
    // Assign every line.
    a.lines.resize(a.sources.size());
    std::map<int, ProcessId> rankProcess;
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        auto& sc = scans[s];
        for (std::uint32_t i = 0; i < sc.lines.size(); ++i) {
            ProcessId pid = lineProcessByKey(s, i);
            if (!pid.valid() && sc.decoRank[i] >= 0) {
                int r = sc.decoRank[i];
                auto it = rankProcess.find(r);
                if (it == rankProcess.end()) {
                    ProcessId found = processWithRank(r);
                    if (!found.valid()) {
                        Process& p = newProcess();
                        p.rank = r;
                        p.identitySource = "launcher-prefix";
                        found = p.id;
                    }
                    it = rankProcess.emplace(r, found).first;
                }
                pid = it->second;
            }
            if (!pid.valid() && keyProcess[s].size() > 1 && isBlank(a.sources[s].line(i))) {
                // In a stream shared by several processes, a blank line is the newline NCCL prints
                // in front of each WARN: it belongs to the next prefixed line.
                for (std::uint32_t j = i + 1; j < sc.lines.size() && j < i + 8; ++j)
                    if (sc.key[j] >= 0) {
                        pid = lineProcessByKey(s, j);
                        break;
                    }
            }
            if (!pid.valid())
                pid = defaultProcess[s];
            sc.lines[i].process = pid;
        }
        a.lines[s] = std::move(sc.lines);
        a.totalLines += a.lines[s].size();
    }
    // Which sources each process appears in; drop processes that own no line.
    {
        std::vector<std::vector<bool>> seen(a.processes.size(), std::vector<bool>(a.sources.size(), false));
        for (std::size_t s = 0; s < a.sources.size(); ++s)
            for (const auto& li : a.lines[s])
                seen[li.process.value][s] = true;
        std::vector<ProcessId> remap(a.processes.size());
        std::vector<Process> kept;
        for (auto& p : a.processes) {
            std::vector<SourceId> srcs;
            for (std::size_t s = 0; s < a.sources.size(); ++s)
                if (seen[p.id.value][s])
                    srcs.push_back(SourceId(static_cast<std::uint32_t>(s)));
            if (srcs.empty())
                continue;
            remap[p.id.value] = ProcessId(static_cast<std::uint32_t>(kept.size()));
            p.id = remap[p.id.value];
            p.sources = std::move(srcs);
            kept.push_back(std::move(p));
        }
        a.processes = std::move(kept);
        for (auto& v : a.lines)
            for (auto& li : v)
                li.process = remap[li.process.value];
        // Ranked processes first, in rank order; the rest after, in bundle order.
        std::vector<std::size_t> order(a.processes.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&a](std::size_t x, std::size_t y) {
            const auto& px = a.processes[x];
            const auto& py = a.processes[y];
            if (px.rank.has_value() != py.rank.has_value())
                return px.rank.has_value();
            return px.rank && *px.rank < *py.rank;
        });
        std::vector<ProcessId> reorder(a.processes.size());
        std::vector<Process> sorted;
        for (std::size_t i = 0; i < order.size(); ++i) {
            reorder[order[i]] = ProcessId(static_cast<std::uint32_t>(i));
            sorted.push_back(std::move(a.processes[order[i]]));
            sorted.back().id = reorder[order[i]];
        }
        a.processes = std::move(sorted);
        for (auto& v : a.lines)
            for (auto& li : v)
                li.process = reorder[li.process.value];
    }

    // Stage: events, addresses, versions.
    std::vector<Hit> hits;
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const SourceId sid(static_cast<std::uint32_t>(s));
        std::vector<bool> hasSymptom(a.lines[s].size(), false);
        for (const auto& h : scans[s].hits) {
            const auto& pat = scanner.patterns()[static_cast<std::size_t>(h.pattern)];
            const LineInfo& li = a.lines[s][h.line];
            Process& proc = a.processes[li.process.value];
            LineRef where{sid, h.line};
            std::vector<Capture> caps;
            for (const auto& [k, v] : h.captures)
                caps.push_back({k, v});
            switch (pat.builtin) {
            case Builtin::None: {
                // The same line may match two fingerprints of one symptom: keep one event.
                bool dup = std::any_of(hits.begin(), hits.end(), [&](const Hit& o) {
                    return o.where == where && o.entry == pat.entry && o.symptom == pat.symptom;
                });
                if (dup)
                    break;
                hits.push_back({where, pat.entry, pat.symptom, caps});
                Event e;
                e.where = where;
                e.process = li.process;
                e.tid = li.tid;
                e.kind = EventKind::Symptom;
                e.level = li.level;
                e.entry = pat.entry;
                e.symptom = pat.symptom;
                e.captures = std::move(caps);
                e.time = li.time;
                a.events.push_back(std::move(e));
                hasSymptom[h.line] = true;
                break;
            }
            case Builtin::NcclVersion: {
                auto v = Version::parse(captureOf(h, "version"));
                if (v && !proc.ncclVersion) {
                    proc.ncclVersion = v;
                    proc.ncclVersionLine = where;
                }
                break;
            }
            case Builtin::BootstrapAddress:
            case Builtin::SocketAddress:
                if (proc.address.empty()) {
                    proc.address = captureOf(h, "ip");
                    proc.interface = captureOf(h, "if");
                }
                break;
            case Builtin::Traceback:
            case Builtin::Exception: {
                Event e;
                e.where = where;
                e.process = li.process;
                e.tid = li.tid;
                e.kind = pat.builtin == Builtin::Traceback ? EventKind::Traceback : EventKind::Exception;
                e.level = Level::Error;
                e.captures = std::move(caps);
                e.time = li.time;
                a.events.push_back(std::move(e));
                hasSymptom[h.line] = true;
                break;
            }
            case Builtin::InitLine:
            case Builtin::TorchRank:
                break;
            }
        }
        for (std::uint32_t i = 0; i < a.lines[s].size(); ++i) {
            const LineInfo& li = a.lines[s][i];
            if (hasSymptom[i] ||
                (li.level != Level::Warn && li.level != Level::Error && li.level != Level::Fatal))
                continue;
            Event e;
            e.where = {sid, i};
            e.process = li.process;
            e.tid = li.tid;
            e.kind = li.level == Level::Warn ? EventKind::Warn : EventKind::Error;
            e.level = li.level;
            e.time = li.time;
            a.events.push_back(std::move(e));
        }
    }
    std::sort(a.events.begin(), a.events.end(), [](const Event& x, const Event& y) {
        return std::tie(x.time.lo, x.where) < std::tie(y.time.lo, y.where);
    });
    std::sort(hits.begin(), hits.end(), [](const Hit& x, const Hit& y) { return x.where < y.where; });

    // Versions as found in the logs, grouped.
    for (const auto& p : a.processes) {
        if (!p.ncclVersion)
            continue;
        auto it = std::find_if(a.nccl.logs.begin(), a.nccl.logs.end(),
                               [&](const LogVersion& lv) { return lv.version == *p.ncclVersion; });
        if (it == a.nccl.logs.end())
            a.nccl.logs.push_back({*p.ncclVersion, {p.id}, *p.ncclVersionLine});
        else
            it->processes.push_back(p.id);
    }
    if (options.probeLocalNccl)
        a.nccl.local = probeNccl(options.ncclLibrary);

    // Stage: merged order over every line.
    // The sort key keeps each source in its own order: a line before a source's first stamp sorts
    // at that stamp, not at the end of the stamp's interval.
    a.merged.reserve(a.totalLines);
    {
        std::vector<std::vector<std::int64_t>> keys(a.sources.size());
        for (std::size_t s = 0; s < a.sources.size(); ++s) {
            const auto& v = a.lines[s];
            keys[s].resize(v.size());
            std::int64_t nextLo = kTimeUnknownLo;
            for (std::size_t i = v.size(); i-- > 0;) {
                if (v[i].timeSource == TimeSource::Parsed)
                    nextLo = v[i].time.lo;
                keys[s][i] = v[i].time.knownLo() ? v[i].time.lo : nextLo;
            }
            for (std::uint32_t i = 0; i < v.size(); ++i)
                a.merged.push_back({SourceId(static_cast<std::uint32_t>(s)), i});
        }
        std::stable_sort(a.merged.begin(), a.merged.end(), [&keys](const LineRef& x, const LineRef& y) {
            return keys[x.source.value][x.line] < keys[y.source.value][y.line];
        });
    }
    for (const auto& v : a.lines) {
        for (const auto& li : v) {
            if (li.timeSource != TimeSource::Parsed)
                continue;
            if (!a.span.knownLo() || li.time.lo < a.span.lo)
                a.span.lo = li.time.lo;
            if (!a.span.knownHi() || li.time.hi > a.span.hi)
                a.span.hi = li.time.hi;
        }
    }

    buildFindings(a, hits);
    if (progress.report)
        progress.report("done", a.totalBytes, a.totalBytes);
    return result;
}

std::shared_ptr<const Analysis> analyzePaths(const std::vector<std::string>& paths,
                                             std::shared_ptr<const Encyclopedia> encyclopedia,
                                             const AnalyzeOptions& options, const ProgressSink& progress)
{
    Bundle b = readBundle(paths, options.limits, progress.cancelled);
    if (progress.isCancelled())
        return nullptr;
    return analyze(std::move(b), std::move(encyclopedia), options, progress);
}

} // namespace rl
