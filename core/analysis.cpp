#include "analysis.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <future>
#include <iterator>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

#include "engine/engine.h"
#include "engine/scanner.h"
#include "identity/environment_scan.h"
#include "identity/path_identity.h"
#include "util/ascii.h"
#include "util/mapped_file.h"
#include "util/parallel.h"
#include "util/permute.h"
#include "util/populate.h"
#include "util/rank_runs.h"
#include "util/strings.h"

namespace fs = std::filesystem;

namespace rl
{

std::vector<int> Process::deviceList() const
{
    std::vector<int> out;
    for (int d = 0; d < 64; ++d)
        if (devices & deviceBit(d))
            out.push_back(d);
    return out;
}

std::optional<int> Process::rankOnDevice(int device) const
{
    for (const auto& [d, r] : deviceRanks)
        if (d == device)
            return r;
    return std::nullopt;
}

namespace
{

// "(gpu-b:39965", "(pid 39965", "(gpu-b" or "", the parenthesis left open for what follows.
std::string openWhere(const Process& p)
{
    if (!p.host.empty())
        return " (" + p.host + (p.pid >= 0 ? ":" + std::to_string(p.pid) : std::string());
    return p.pid >= 0 ? " (pid " + std::to_string(p.pid) : std::string();
}

std::string closeWhere(std::string s, std::string_view more)
{
    if (s.empty())
        return more.empty() ? s : " (" + std::string(more.substr(2)) + ")";
    return s.append(more).append(")");
}

// What the label says of a process's GPUs where no rank of each is known.
std::string drivingGpus(const Process& p)
{
    return ", one process driving GPUs " + rankRuns(p.deviceList());
}

} // namespace

std::string Process::rankText() const
{
    if (deviceRanks.size() > 1) {
        std::vector<int> ranks;
        for (const auto& dr : deviceRanks)
            ranks.push_back(dr.second);
        return rankRuns(ranks);
    }
    return rank ? std::to_string(*rank) : std::string();
}

std::string Process::label() const
{
    std::string s;
    if (deviceRanks.size() > 1) {
        s = "ranks " + rankText();
    } else {
        s = rank ? "rank " + std::to_string(*rank)
                 : std::string(severalDevices() ? "unknown ranks" : "unknown rank");
    }
    // Which GPUs, where no rank of each says it: the thread of each prints its own.
    const std::string gpus = severalDevices() && deviceRanks.size() < 2 ? drivingGpus(*this) : std::string();
    return s + closeWhere(openWhere(*this), gpus);
}

std::string Process::labelOnDevice(int device) const
{
    if (!severalDevices() || device < 0 || (devices & deviceBit(device)) == 0)
        return label();
    const std::optional<int> r = rankOnDevice(device);
    const std::string s = (r ? "rank " + std::to_string(*r) : std::string("unknown rank")) + " on GPU " +
                          std::to_string(device);
    return s + closeWhere(openWhere(*this), r ? std::string() : drivingGpus(*this));
}

namespace
{

// The line's process, or null: its process only, not the time info() works out.
const Process* processOfLine(const Analysis& a, LineRef r)
{
    const ProcessId p = a.lines[r.source.value].process(r.line);
    return p.valid() && p.value < a.processes.size() ? &a.processes[p.value] : nullptr;
}

int deviceOfLine(const Analysis& a, const Process* p, LineRef r)
{
    if (!p || !p->severalDevices())
        return -1;
    const ParsedLine parsed = parseLine(a.text(r));
    return parsed.nccl ? parsed.nccl->device : -1;
}

} // namespace

int Analysis::deviceAt(LineRef r) const
{
    return deviceOfLine(*this, processOfLine(*this, r), r);
}

std::string Analysis::labelAt(LineRef r) const
{
    const Process* p = processOfLine(*this, r);
    return p ? p->labelOnDevice(deviceOfLine(*this, p, r)) : Process{}.label();
}

std::optional<int> Analysis::rankAt(LineRef r) const
{
    const Process* p = processOfLine(*this, r);
    if (!p)
        return std::nullopt;
    if (const int d = deviceOfLine(*this, p, r); d >= 0 && !p->deviceRanks.empty())
        return p->rankOnDevice(d);
    return p->rank;
}

std::string Coverage::missingDisplay(std::size_t maxRanges) const
{
    return rankRuns(missing, maxRanges);
}

namespace
{

// Which ranks of the largest communicator have logs here (Coverage): every process with a rank in
// it, however that rank was learned.
void measureCoverage(Analysis& a)
{
    Coverage& c = a.coverage;
    if (c.worldRanks <= 0)
        return;
    std::vector<char> seen(static_cast<std::size_t>(c.worldRanks), 0);
    c.unranked = 0;
    std::unordered_set<std::string_view> hosts;
    for (const Process& p : a.processes) {
        // A process of several GPUs holds a rank on each.
        for (const auto& dr : p.deviceRanks)
            if (dr.second >= 0 && dr.second < c.worldRanks)
                seen[static_cast<std::size_t>(dr.second)] = 1;
        if (p.rank && *p.rank >= 0 && *p.rank < c.worldRanks) {
            seen[static_cast<std::size_t>(*p.rank)] = 1;
            if (!p.host.empty())
                hosts.insert(p.host);
        } else if (!p.rank && p.pid >= 0) {
            ++c.unranked;
        }
    }
    c.hostsWithLogs = static_cast<int>(hosts.size());
    c.missing.clear();
    for (int r = 0; r < c.worldRanks; ++r)
        if (!seen[static_cast<std::size_t>(r)])
            c.missing.push_back(r);
}

} // namespace

std::string Event::capture(const std::string& name) const
{
    return std::string(captures.get(name));
}

std::vector<Evidence> evidenceByLine(const std::vector<Evidence>& evidence)
{
    std::vector<Evidence> out;
    std::map<LineRef, std::size_t> at; // line -> its place in out
    for (const auto& x : evidence) {
        auto [it, added] = at.try_emplace(x.where, out.size());
        if (added) {
            out.push_back(x);
            continue;
        }
        Evidence& same = out[it->second];
        if ((", " + same.label + ", ").find(", " + x.label + ", ") == std::string::npos)
            same.label += ", " + x.label;
        if (!x.note.empty() && same.note.find(x.note) == std::string::npos)
            same.note += (same.note.empty() ? "" : " ") + x.note;
    }
    return out;
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

std::string executableDir()
{
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return {};
    return fs::path(std::string(buf, static_cast<std::size_t>(n))).parent_path().string();
}

std::string resourcesDir()
{
    if (const char* env = std::getenv("RANKLINE_RESOURCES"); env && *env)
        return env;
    if (const std::string exe = executableDir(); !exe.empty()) {
        fs::path installed = fs::path(exe) / ".." / "share" / "rankline";
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

void SourceLines::addStamp(const LineStamp& s)
{
    // A power of ten of microseconds, or a minute (a job console's "2025-02-18 12:54"), which no
    // power of ten covers without claiming the next 40 seconds too.
    std::int64_t code = 0;
    if (s.resolutionUs == kMinuteUs)
        code = kMinuteCode;
    else
        for (std::int64_t r = 1; r < s.resolutionUs && code < kMinuteCode - 1; r *= 10)
            ++code;
    // Multiplying, not shifting, keeps a (nonsensical but parseable) stamp before 1970 defined.
    m_stamps.push_back(s.line, s.us * (std::int64_t{1} << kCodeBits) + code);
}

void StampStore::push_back(std::uint32_t line, std::int64_t packed)
{
    const std::size_t off = m_count % kBlock;
    if (off == 0)
        m_blocks.push_back({line, packed, m_line.size() / kBlock, false});
    Block& b = m_blocks.back();
    if (!b.wide) {
        const std::int64_t dLine = std::int64_t{line} - b.line;
        const std::int64_t dPacked = packed - b.packed;
        if (dLine >= 0 && dLine <= UINT16_MAX && dPacked >= INT32_MIN && dPacked <= INT32_MAX) {
            m_line.push_back(static_cast<std::uint16_t>(dLine));
            m_packed.push_back(static_cast<std::int32_t>(dPacked));
            ++m_count;
            return;
        }
        // This block cannot be narrow: it moves, with what it holds so far, to the wide arrays.
        // It is the last narrow block, so its entries are the narrow arrays' last ones.
        const std::size_t from = b.slot * kBlock;
        const std::size_t slot = m_wideLine.size() / kBlock;
        for (std::size_t k = from; k < m_line.size(); ++k) {
            m_wideLine.push_back(b.line + m_line[k]);
            m_widePacked.push_back(b.packed + m_packed[k]);
        }
        m_line.resize(from);
        m_packed.resize(from);
        b.slot = slot;
        b.wide = true;
    }
    m_wideLine.push_back(line);
    m_widePacked.push_back(packed);
    ++m_count;
}

std::size_t StampStore::lowerBound(std::uint32_t line) const
{
    std::size_t lo = 0, hi = m_count;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (this->line(mid) < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void StampStore::reserve(std::size_t n)
{
    m_line.reserve(n);
    m_packed.reserve(n);
    m_blocks.reserve(n / kBlock + 1);
}

void StampStore::shrink()
{
    shrinkSlack(m_blocks);
    shrinkSlack(m_line);
    shrinkSlack(m_packed);
    shrinkSlack(m_wideLine);
    shrinkSlack(m_widePacked);
}

std::size_t StampStore::bytesUsed() const
{
    return m_blocks.capacity() * sizeof(Block) + m_line.capacity() * 2 + m_packed.capacity() * 4 +
           m_wideLine.capacity() * 4 + m_widePacked.capacity() * 8;
}

void SourceLines::appendStamps(SourceLines&& later)
{
    if (m_stamps.empty() && m_stamps.bytesUsed() == 0) { // nothing held, nothing reserved
        m_stamps = std::move(later.m_stamps);
    } else {
        for (std::size_t i = 0; i < later.m_stamps.size(); ++i)
            m_stamps.push_back(later.m_stamps.line(i), later.m_stamps.packed(i));
    }
    later = SourceLines{};
}

void SourceLines::append(const SourceLines& piece, const std::vector<std::uint32_t>& remap,
                         const SourceLines& stamps)
{
    const auto offset = static_cast<std::uint32_t>(size());
    const std::size_t n = piece.size();
    m_level.resize(offset + n);
    // The new lines take the form's "no process" until set: set() widens the form where needed.
    // The form's lines grow as the levels do (reserve()), not by doubling.
    if (!m_wide.empty()) {
        m_wide.reserve(m_level.capacity());
        m_wide.resize(offset + n, kProcessMask);
    } else if (!m_narrow.empty()) {
        m_narrow.reserve(m_level.capacity());
        m_narrow.resize(offset + n, kNarrowNone);
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t local = piece.process(i).value;
        const std::uint32_t v = local == kProcessMask || local >= remap.size() ? kProcessMask : remap[local];
        if (offset == 0 && i == 0 && m_narrow.empty() && m_wide.empty())
            m_same = v; // the first line sets the form's one process (no line had another)
        set(offset + i, ProcessId(v), piece.level(i));
    }
    for (std::size_t i = 0; i < stamps.m_stamps.size(); ++i)
        m_stamps.push_back(offset + stamps.m_stamps.line(i), stamps.m_stamps.packed(i));
    m_byProcess = m_byProcess || piece.m_byProcess;
}

std::pair<std::size_t, std::size_t> SourceLines::sameProcessStamps(std::uint32_t line, std::size_t at) const
{
    constexpr std::size_t npos = std::string::npos;
    const ProcessId p = process(line);
    std::size_t before = npos, after = npos;
    for (std::size_t i = at; i < m_stamps.size() && i < at + kNearbyStamps; ++i)
        if (process(m_stamps.line(i)) == p) {
            after = i;
            break;
        }
    for (std::size_t i = at; i > 0 && at - i < kNearbyStamps; --i)
        if (process(m_stamps.line(i - 1)) == p) {
            before = i - 1;
            break;
        }
    return {before, after};
}

void SourceLines::reserveStamps(std::size_t n)
{
    m_stamps.reserve(n);
}

void SourceLines::moveStamps(const std::function<std::int64_t(std::int64_t)>& move)
{
    StampStore was = std::move(m_stamps);
    m_stamps = StampStore{};
    m_stamps.reserve(was.size());
    const std::int64_t codeMask = (std::int64_t{1} << kCodeBits) - 1;
    for (std::size_t i = 0; i < was.size(); ++i) {
        const std::int64_t packed = was.packed(i);
        m_stamps.push_back(was.line(i),
                           move(packed >> kCodeBits) * (std::int64_t{1} << kCodeBits) + (packed & codeMask));
    }
    m_stamps.shrink();
}

void SourceLines::widen(std::uint32_t line, std::uint32_t v)
{
    const std::size_t n = m_level.size();
    if (m_narrow.empty() && fitsByte(v) && fitsByte(m_same)) {
        m_narrow.reserve(m_level.capacity()); // as many lines as the levels have room for (append)
        m_narrow.assign(n, toByte(m_same));
        m_narrow[line] = toByte(v);
        return;
    }
    m_wide.reserve(m_level.capacity());
    if (m_narrow.empty()) {
        m_wide.assign(n, m_same);
    } else {
        m_wide.resize(n);
        std::transform(m_narrow.begin(), m_narrow.end(), m_wide.begin(), fromByte);
        std::vector<std::uint8_t>().swap(m_narrow);
    }
    m_wide[line] = v;
}

void SourceLines::shrink()
{
    auto collapse = [this](const auto& v, auto expand) {
        if (v.empty() || std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) != v.end())
            return false;
        m_same = expand(v.front());
        return true;
    };
    if (collapse(m_wide, [](std::uint32_t x) { return x; })) {
        std::vector<std::uint32_t>().swap(m_wide);
    } else if (!m_wide.empty() && std::all_of(m_wide.begin(), m_wide.end(), fitsByte)) {
        m_narrow.resize(m_wide.size());
        std::transform(m_wide.begin(), m_wide.end(), m_narrow.begin(), toByte);
        std::vector<std::uint32_t>().swap(m_wide);
    }
    if (collapse(m_narrow, fromByte))
        std::vector<std::uint8_t>().swap(m_narrow);
    shrinkSlack(m_level);
    shrinkSlack(m_narrow);
    shrinkSlack(m_wide);
    m_stamps.shrink();
}

LineStamp SourceLines::stamp(std::size_t i) const
{
    const std::int64_t packed = m_stamps.packed(i);
    const std::int64_t code = packed & ((std::int64_t{1} << kCodeBits) - 1);
    std::int64_t resolution = 1;
    if (code == kMinuteCode)
        resolution = kMinuteUs;
    else
        for (std::int64_t c = code; c > 0; --c)
            resolution *= 10;
    return {m_stamps.line(i), packed >> kCodeBits, resolution};
}

TimeInterval SourceLines::time(std::uint32_t line, TimeSource* source) const
{
    // The first stamp at or after the line; the one before it bounds the line from below.
    const std::size_t at = m_stamps.lowerBound(line);
    TimeInterval t;
    if (at < m_stamps.size() && m_stamps.line(at) == line) {
        if (source)
            *source = TimeSource::Parsed;
        const LineStamp st = stamp(at);
        return {st.us, st.us + st.resolutionUs};
    }
    if (m_byProcess) {
        const auto [before, after] = sameProcessStamps(line, at);
        if (after != std::string::npos) {
            const LineStamp st = stamp(after);
            t.hi = st.us + st.resolutionUs;
        }
        if (before != std::string::npos)
            t.lo = stampUs(before);
        if (source)
            *source = t.known() ? TimeSource::Inferred : TimeSource::Unknown;
        return t;
    }
    if (at < m_stamps.size()) {
        const LineStamp st = stamp(at);
        t.hi = st.us + st.resolutionUs;
    }
    if (at > 0)
        t.lo = stampUs(at - 1);
    // Stamps that run backwards around the line (ranks' logs concatenated into one file, a block
    // of each): the next stamp is another process's, earlier than this one, and bounds nothing.
    // The line goes with the block it ends (a traceback after its rank's last logged line).
    if (t.knownLo() && t.knownHi() && t.lo > t.hi)
        t.hi = kTimeUnknownHi;
    if (source)
        *source = t.known() ? TimeSource::Inferred : TimeSource::Unknown;
    return t;
}

std::int64_t SourceLines::orderUs(std::uint32_t line) const
{
    // An unstamped line's interval reaches the end of the next stamp's resolution (a line logged
    // before "17:08:31,569" happened before 17:08:31.570): its middle, or that end where no stamp
    // precedes it, would put it after the stamped line below it, and an NCCL WARN above a
    // framework's stamped exception would sort after the exception that quotes it.
    const std::size_t at = m_stamps.lowerBound(line);
    auto middle = [this](std::size_t i) {
        const LineStamp st = stamp(i);
        return st.us + st.resolutionUs / 2;
    };
    if (m_byProcess && !(at < m_stamps.size() && m_stamps.line(at) == line)) {
        // A listing: the middle of time()'s interval, or the one stamp of its process near it.
        const TimeInterval t = time(line);
        if (t.knownLo() && t.knownHi())
            return t.lo + (t.hi - t.lo) / 2;
        return t.knownLo() ? t.lo : t.knownHi() ? t.hi : kTimeUnknownHi;
    }
    if (at < m_stamps.size() && (m_stamps.line(at) == line || at == 0))
        return middle(at);
    if (at == m_stamps.size())
        return at == 0 ? kTimeUnknownHi : middle(at - 1);
    // Between two stamps: the middle of time()'s interval, from the stamp before to the end of
    // the one after.
    const LineStamp next = stamp(at);
    const std::int64_t lo = stampUs(at - 1), hi = next.us + next.resolutionUs;
    // Stamps running backwards (time() above): the line goes with the block it ends.
    if (lo > hi)
        return middle(at - 1);
    return lo + (hi - lo) / 2;
}

std::int64_t shownResolution(const LineInfo& li)
{
    if (li.timeSource == TimeSource::Parsed && li.time.knownLo() && li.time.knownHi())
        return li.time.hi - li.time.lo;
    if (li.timeSource != TimeSource::Inferred)
        return 1;
    // Both bounds on whole minutes or seconds: the stamps around the line were printed so.
    auto whole = [&li](std::int64_t unit) {
        return (!li.time.knownLo() || li.time.lo % unit == 0) &&
               (!li.time.knownHi() || li.time.hi % unit == 0);
    };
    return whole(60'000'000) ? 60'000'000 : whole(1'000'000) ? 1'000'000 : 1;
}

std::int64_t shownInstant(const LineInfo& li)
{
    if (li.time.knownLo())
        return li.time.lo;
    // The interval ends where the stamp after the line stops covering: [.., 06:22:12) is
    // 06:22:11 at the latest, and so shown, not as 06:22:12.
    return li.time.knownHi() ? li.time.hi - 1 : li.time.hi;
}

LineInfo SourceLines::info(std::uint32_t line) const
{
    LineInfo li;
    li.process = process(line);
    li.level = level(line);
    li.time = time(line, &li.timeSource);
    return li;
}

LineRef MergedOrder::operator[](std::size_t row) const
{
    std::uint32_t g = m_order[row];
    auto it = std::upper_bound(m_base.begin(), m_base.end(), g);
    auto s = static_cast<std::uint32_t>(it - m_base.begin() - 1);
    return {SourceId(s), g - m_base[s]};
}

void MergedOrder::build(const std::vector<SourceLines>& lines, const std::vector<std::int64_t>& offsets,
                        const std::vector<std::int64_t>& unstampedKeys)
{
    // A k-way merge: each source is already in its own (written) order, so only the heads compete.
    // The sort key of a line is its lower time bound; a line before a source's first stamp sorts
    // at that stamp. Ties go to the source listed first.
    m_base.clear();
    m_order.clear();
    std::uint64_t total = 0;
    for (const auto& sl : lines) {
        m_base.push_back(static_cast<std::uint32_t>(total));
        total += sl.size();
    }
    m_order.reserve(total);
    struct Cursor {
        std::uint32_t line = 0;
        std::size_t stamp = 0; // index of the first stamp at or after `line`
    };
    std::vector<Cursor> cur(lines.size());
    auto key = [&](std::size_t s) -> std::int64_t {
        const SourceLines& sl = lines[s];
        const std::size_t count = sl.stampCount();
        const Cursor& c = cur[s];
        const std::int64_t off = s < offsets.size() ? offsets[s] : 0;
        if (c.stamp < count && sl.stampLine(c.stamp) == c.line)
            return sl.stampUs(c.stamp) + off;
        if (c.stamp > 0)
            return sl.stampUs(c.stamp - 1) + off;
        if (c.stamp < count)
            return sl.stampUs(c.stamp) + off;
        return s < unstampedKeys.size() ? unstampedKeys[s] : kTimeUnknownLo;
    };
    // An unstamped line stays with the line before it: tracebacks, NCCL's blank line before a
    // WARN, torchelastic's summary box and other multi-line records are never split, and nothing
    // about its time says it belongs anywhere else.
    auto stamped = [&](std::size_t s) {
        return cur[s].stamp < lines[s].stampCount() && lines[s].stampLine(cur[s].stamp) == cur[s].line;
    };
    // A binary heap of source heads, smallest (key, source) on top. When a source's run ends it
    // usually goes straight back in: replacing the top and sifting down once costs half of a
    // pop and a push, and runs are a line or two long when hosts interleave.
    using Head = std::pair<std::int64_t, std::uint32_t>;
    std::vector<Head> heap;
    for (std::size_t s = 0; s < lines.size(); ++s)
        if (lines[s].size() > 0)
            heap.push_back({key(s), static_cast<std::uint32_t>(s)});
    std::make_heap(heap.begin(), heap.end(), std::greater<>());
    auto siftDown = [&heap]() {
        const std::size_t n = heap.size();
        std::size_t i = 0;
        const Head moving = heap[0];
        while (true) {
            std::size_t child = 2 * i + 1;
            if (child >= n)
                break;
            if (child + 1 < n && heap[child + 1] < heap[child])
                ++child;
            if (!(heap[child] < moving))
                break;
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = moving;
    };
    while (!heap.empty()) {
        const std::size_t s = heap.front().second;
        Cursor& c = cur[s];
        const SourceLines& sl = lines[s];
        const std::size_t stampCount = sl.stampCount();
        const std::uint32_t n = static_cast<std::uint32_t>(sl.size());
        const std::uint32_t base = m_base[s];
        // The smaller child is the next head to beat.
        const bool alone = heap.size() == 1;
        const Head next = alone ? Head{} : heap.size() == 2 || heap[1] < heap[2] ? heap[1] : heap[2];
        // Take this source's lines while it still sorts before the next source's head.
        do {
            m_order.push_back(base + c.line);
            ++c.line;
            while (c.stamp < stampCount && sl.stampLine(c.stamp) < c.line)
                ++c.stamp;
        } while (c.line < n && (alone || !stamped(s) || Head{key(s), static_cast<std::uint32_t>(s)} < next));
        if (c.line < n) {
            heap.front() = {key(s), static_cast<std::uint32_t>(s)};
        } else {
            heap.front() = heap.back();
            heap.pop_back();
            if (heap.empty())
                break;
        }
        siftDown();
    }
}

// Events in (time, line) order; events of one line keep their order. Their keys are sorted, then
// each event is moved once: sorting the events themselves moved each many times. The keys sit in
// an array of their own, 24 bytes an event for the length of the sort (1.3 MB for the 54,000
// events of 10,000 small files): sorting indices compared through the events, as before, read two
// scattered 64-byte records a comparison and took twice as long.
void sortEvents(std::vector<Event>& events)
{
    struct Key {
        std::int64_t time;
        std::uint64_t where; // (source, line), in LineRef's order
        std::uint32_t index;
    };
    std::vector<Key> keys(events.size());
    for (std::size_t i = 0; i < events.size(); ++i)
        keys[i] = {events[i].time.lo,
                   std::uint64_t{events[i].where.source.value} << 32 | events[i].where.line,
                   static_cast<std::uint32_t>(i)};
    auto before = [](const Key& x, const Key& y) {
        return std::tie(x.time, x.where, x.index) < std::tie(y.time, y.where, y.index);
    };
    // Sorted again after clock alignment, which moves no event where no host's clock is shifted.
    if (std::is_sorted(keys.begin(), keys.end(), before))
        return;
    std::sort(keys.begin(), keys.end(), before);
    std::vector<std::uint32_t> order(events.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        order[i] = keys[i].index;
    permuteInPlace(events, order);
}

namespace
{

// A process as a source sees it before processes are merged across the bundle: (host, pid) from
// NCCL's prefix, or only a launcher rank for undecorated lines of a combined stream.
struct LocalKey {
    std::string host;
    std::int64_t pid = -1;
    int rank = -1; // set for rank-only keys
    // The lines a launcher or collector prefixes with a host only (pdsh's "worker-3: ", kubectl's
    // "[pod/<pod>/<container>] ") that NCCL's prefix does not name: the host's console, which may
    // be one process's or several's (identity decides).
    bool hostStream = false;
    bool byRank() const { return host.empty() && pid < 0 && rank >= 0; }
    bool operator==(const LocalKey& o) const
    {
        return pid == o.pid && rank == o.rank && hostStream == o.hostStream && host == o.host;
    }
};
// Keys are numbered in order of first appearance, so their index needs no order: hashed, as a
// piece of a combined stream of thousands of ranks looks up tens of thousands of them.
struct LocalKeyHash {
    std::size_t operator()(const LocalKey& k) const
    {
        return std::hash<std::string_view>{}(k.host) ^
               (std::hash<std::int64_t>{}(k.pid) * 0x9e3779b97f4a7c15ULL) ^ static_cast<std::size_t>(k.rank) ^
               static_cast<std::size_t>(k.hostStream);
    }
};
using LocalKeyIndex = std::unordered_map<LocalKey, std::uint32_t, LocalKeyHash>;

constexpr std::uint32_t kNoKey = SourceLines::kProcessMask;
// How far after a blank line the line whose process it takes may be (analyze, SourceScan).
constexpr std::uint32_t kBlankLookahead = 7;
constexpr int kKeepHitsPerProcess = 16;
// More ranks than any job has had: a line that says more (a corrupt or hostile one) sizes no
// per-rank table (coverage keeps a byte per rank of the world).
constexpr int kMostRanks = 1 << 20;
// Cells (pattern x key) up to which a piece counts its hits in a table rather than a hash map
// (scanPiece): 512 KiB of counts, a few hundred keys with the shipped encyclopedia.
constexpr std::size_t kDenseHitQuota = std::size_t{1} << 18;
// How many lines a torchelastic box record may take, its traceback included.
constexpr std::uint32_t kElasticRecordLines = 256;
// PyTorch "[Rank R]" lines of no prefix a piece keeps beyond that, for consoles of several ranks.
constexpr std::size_t kConsoleRankLines = 65536;

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// A line of a C++ exception's what() after its first: "Exception raised from checkTimeout at ...",
// "frame #3: c10d::...". c10's logger puts its prefix ("[rank2]:[E1119 ...]") on the message's first
// line only, so in a stream several processes wrote these lines name no one.
bool cppTraceContinuation(std::string_view body)
{
    if (body.starts_with("Exception raised from "))
        return true;
    if (!body.starts_with("frame #"))
        return false;
    std::size_t p = 7;
    while (p < body.size() && body[p] >= '0' && body[p] <= '9')
        ++p;
    return p > 7 && p + 1 < body.size() && body[p] == ':' && body[p + 1] == ' ';
}

// Whether a pattern's hits are capped per process (kKeepHitsPerProcess): progress lines (SeqNum)
// count to their maximum and init phases are reduced as they come, so those are all seen.
bool cappedPerProcess(const ScanPattern& sp)
{
    // nccl-tests' listing: every rank's line, in the first process's output.
    return !sp.progress && sp.builtin != Builtin::InitPhase && sp.builtin != Builtin::NcclTestsDevice;
}

// An NCCL init-phase line and its raw time. During the scan `where.source` is left 0 (every line
// of a scan is in one source); alignClocks sets it when it gathers the sources together.
struct PhaseLine {
    LineRef where;
    TimeInterval t;
};

// Keeps the latest start (ties: the earlier line) and the earliest completion (ties: the earlier
// line), so that reducing in any order gives the same answer.
void keepLatestStart(std::optional<PhaseLine>& slot, const PhaseLine& p)
{
    if (p.t.knownLo() && (!slot || p.t.lo > slot->t.lo || (p.t.lo == slot->t.lo && p.where < slot->where)))
        slot = p;
}
void keepEarliestEnd(std::optional<PhaseLine>& slot, const PhaseLine& p)
{
    if (p.t.knownHi() && (!slot || p.t.hi < slot->t.hi || (p.t.hi == slot->t.hi && p.where < slot->where)))
        slot = p;
}

// What the scan keeps once per distinct value rather than once per line (util/intern_pool.h). Lives
// until the analysis is built: the environment's hits and the init phases point into it.
struct ScanPools {
    EnvironmentLinePool environment;
    StringPool commIds;
};

struct InitPhases {
    const std::string* commId = nullptr; // in the run's pool (ScanPools)
    std::optional<PhaseLine> start;
    std::optional<PhaseLine> complete;
};

// A key whose lines are a worker's record in torchelastic's failure box (elasticRecordAt), with
// the rank and local rank the record names, and what orders the failures its lines quote
// (Analysis::elasticRecords).
struct ElasticKey {
    std::uint32_t key = 0;
    int rank = -1;
    int localRank = -1;
    std::uint32_t from = 0, end = 0; // the traceback's lines
    std::optional<std::int64_t> timeUs;
    bool rootCause = false;
    std::optional<int> attempt;
};

// A key's NCCL "[Proxy Service R] Failed to execute operation ..." WARN (proxyServiceRank): its
// rank R in the failing communicator, on that communicator's GPU. Only failing runs print one, so
// a short list per source rather than a field per key.
struct ProxyRank {
    std::uint32_t key = 0;
    int device = -1;
    int rank = -1;
};

// One value seen so far (-1: none yet), or kSeveral once two differ: a key's own rank as its NCCL
// "Channel" lines name it (a process in several communicators has a rank in each, which names
// none).
constexpr int kSeveral = -2;
int mergeOne(int was, int seen)
{
    if (seen == -1 || was == seen || was == kSeveral)
        return was;
    return was == -1 ? seen : kSeveral;
}

// What the scan of a source found besides its per-line facts, which it writes straight into the
// analysis's SourceLines (no second copy of them per source while identity runs).
struct SourceScan {
    // The year the stamps that print none (glog, syslog, vLLM) were given: the first the text
    // shows, or else the current one (`yearFromText` false), which the bundle's may replace.
    int year = 0;
    bool yearFromText = false;
    bool guessedYear = false; // some stamp took `year`
    std::vector<LocalKey> keys;
    std::vector<int> keyDecoRank; // per key: a launcher rank seen on its NCCL lines, or -1
    std::vector<std::string>
        keyDecoHost;           // per key: a launcher/collector host or address seen on its NCCL lines
    std::vector<char> keyBare; // per key: 1 where one of its NCCL lines had no prefix before it
    // per key: the rank its NCCL "Channel" lines name as its own (channelLineRank), -1 where none
    // does, kSeveral where they name several (it is in several communicators)
    std::vector<int> keyChannelRank;
    // per key: the CUDA devices its NCCL lines name in their "[dev]" (deviceBit): one process
    // driving several GPUs, as nccl-tests' -g does, is a rank per GPU
    std::vector<std::uint64_t> keyDevices;
    std::vector<ProxyRank> proxyRanks; // the keys' proxy WARNs, in line order
    std::vector<ElasticKey> elastic;   // keys of torchelastic box records
    // The first line with text, where it is a step of NCCL's return-code trail ("proxy.cc:698 ->
    // 6"): an excerpt that starts inside a back-trace, after the WARN that began it; -1 elsewhere.
    std::int64_t openingTrail = -1;
    std::vector<ScanHit> hits;
    // NCCL thread ids of the lines that may become events (WARN or worse, NCCL prefixed), so that
    // building events later need not read the text again.
    std::vector<std::pair<std::uint32_t, std::int32_t>> tids;
    // NCCL init phases ("commId 0x.. - Init START/COMPLETE") reduced per communicator and local
    // key: a job that builds thousands of communicators prints them on every rank, and the clock
    // needs only the latest start and the earliest completion (see alignClocks).
    std::vector<InitPhases> initPhases;
    // What the text of environment lines says (identity/environment_scan.h), read while the scan
    // holds the source's text: (index in hits, text), for the hits whose text says anything more.
    std::vector<std::pair<std::size_t, const EnvironmentLine*>> envText; // in the run's pool
    // What the lines that may become events say about the version (collectEnvironment's step 2).
    ScannedEventLines eventLines;
    // Blank lines: in a stream several processes share, the newline NCCL prints before a WARN
    // belongs to the process of the line after it (see analyze). Known from the scan, so that
    // assigning lines never reads a file's text again; only those that a line with a process key
    // follows within kBlankLookahead lines, the only ones that can take a process from it.
    std::vector<std::uint32_t> blankLines;
    // The ranks that Init lines ("rank R nranks N") and PyTorch's "[Rank R]" state, in hit order,
    // read from the hits' captures on the scan's thread: identity needs only these of all the hits.
    struct RankLine {
        std::uint32_t line;
        bool init; // an Init line; else "[Rank R]"
        int nranks;
        int rank;
        std::uint64_t bus = 0; // an Init line's busId (1b000: PCI 0000:1b:00.0), 0 where it has none
        int device = -1;       // an Init line's cudaDev
    };
    std::vector<RankLine> rankLines;
    // NCCL 2.20.3+'s "comm … nRanks N nNodes M localRanks L localRank R" of each key's largest
    // communicator: the local rank and how many nodes the job has.
    struct NodesLine {
        std::uint32_t line;
        int nranks;
        int nnodes;
        int localRank;
    };
    std::vector<NodesLine> nodesLines;
    // The NVIDIA driver's kernel lines that name a GPU by its bus (its Xids, "GPU has fallen off the
    // bus"), each with the bus (busId's form, function 0) and, where an Xid gives one, the pid of a
    // process using the GPU: identity gives each to the rank on that GPU.
    struct GpuLine {
        std::uint32_t line;
        std::uint64_t bus;
        std::int64_t pid; // -1: none given
    };
    std::vector<GpuLine> gpuLines;
    // nccl-tests' listing of its ranks (Builtin::NcclTestsDevice), in line order.
    struct TestsDevice {
        std::uint32_t line;
        int rank;
        std::int64_t pid;
        std::string host;
        int device;
    };
    std::vector<TestsDevice> testsDevices;
    // A console several ranks wrote into with no prefix (torchrun without --tee or --log-dir):
    // every line of no process key whose PyTorch "[Rank R]" names one of two or more ranks, as
    // (line, R). Empty where such lines name one rank only (a rank's own file).
    std::vector<std::pair<std::uint32_t, int>> consoleRanks;
};

// What the stages after identity read of a source's scan (its event lines go to the environment
// on their own). Moved out of the SourceScan, whose array is then freed whole before the events
// and hits are reserved: on ten thousand sources it was 4 MiB, 400 bytes a source of which the
// 176 moved here are needed, and the heap after identity 1.4 MiB smaller without it.
struct ScanAfterIdentity {
    std::vector<ScanHit> hits;
    std::vector<std::pair<std::size_t, const EnvironmentLine*>> envText;
    std::vector<std::pair<std::uint32_t, std::int32_t>> tids;
    std::vector<InitPhases> initPhases;
};

std::string captureOf(const ScanHit& h, const char* name)
{
    return std::string(h.captures.get(name));
}

// Two names of one host: the same, or one the other's first labels ("node-b" and "node-b.cluster":
// NCCL prints a host up to its first dot, a kernel log or path may name it whole).
bool sameHost(std::string_view x, std::string_view y)
{
    if (x.size() > y.size())
        std::swap(x, y);
    return x == y || (!x.empty() && y.starts_with(x) && y[x.size()] == '.');
}

// The host of `processes` that `path` names, as a whole word (not "node-1" in "node-12"): the
// longest where several do ("node-b" over "node"); empty where none does, or two of one length.
std::string hostNamedIn(const std::string& path, const std::vector<Process>& processes)
{
    auto word = [](char c) { return isAlnum(c) || c == '_'; };
    std::string best;
    bool tie = false;
    std::unordered_set<std::string_view> seen;
    for (const auto& p : processes) {
        if (p.host.empty() || p.host.size() < best.size() || !seen.insert(p.host).second)
            continue;
        for (std::size_t at = path.find(p.host); at != std::string::npos; at = path.find(p.host, at + 1)) {
            const std::size_t end = at + p.host.size();
            if ((at > 0 && word(path[at - 1])) || (end < path.size() && word(path[end])))
                continue;
            tie = p.host.size() == best.size() && p.host != best;
            best = p.host;
            break;
        }
    }
    return tie ? std::string{} : best;
}

// `us` in year `to` where it falls in year `from` (the same month, day and time; a 29 February
// that `to` lacks is its 1 March), else as it is. A yearless 29 February read in a year without
// one was already 1 March, and stays so: the stamp no longer says which it was.
std::int64_t withYear(std::int64_t us, int from, int to)
{
    std::int64_t seconds = us / 1000000;
    if (us % 1000000 < 0)
        --seconds;
    const auto t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    if (tm.tm_year + 1900 != from)
        return us;
    return civilToUnixSeconds(to, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec) * 1000000 +
           (us - seconds * 1000000);
}

// Stamps that print no year (glog, syslog, vLLM) took the current year in a file that shows none.
// A bundle whose other files show a year is of that year (the most files', the latest of a tie):
// such stamps move to it, with the init phases timed by them. Otherwise a journal or a glog-only
// rank file of last year's job stands a year after the rest. Where no file shows a year, a file
// whose stamps would fall after today (a glog "E1224" read on December 7) is of last year.
void rebaseGuessedYears(Analysis& a, std::vector<SourceScan>& scans)
{
    auto moveTo = [&a, &scans](std::size_t s, int to) {
        SourceScan& sc = scans[s];
        const int from = sc.year;
        auto move = [from, to](std::int64_t us) { return withYear(us, from, to); };
        a.lines[s].moveStamps(move);
        auto moveTime = [&move](TimeInterval& t) {
            if (t.knownLo())
                t.lo = move(t.lo);
            if (t.knownHi())
                t.hi = move(t.hi);
        };
        for (auto& ip : sc.initPhases) {
            if (ip.start)
                moveTime(ip.start->t);
            if (ip.complete)
                moveTime(ip.complete->t);
        }
        sc.year = to;
    };
    std::map<int, std::size_t> years;
    for (const auto& sc : scans)
        if (sc.yearFromText)
            ++years[sc.year];
    if (years.empty()) {
        // A day's margin: the stamps are the host's wall clock, in whatever zone it kept.
        const std::int64_t tomorrowUs =
            std::chrono::duration_cast<std::chrono::microseconds>(
                (std::chrono::system_clock::now() + std::chrono::hours(36)).time_since_epoch())
                .count();
        for (std::size_t s = 0; s < scans.size(); ++s) {
            const SourceLines& sl = a.lines[s];
            if (!scans[s].guessedYear || sl.stampCount() == 0)
                continue;
            std::int64_t latest = sl.stampUs(0);
            for (std::size_t i = 1; i < sl.stampCount(); ++i)
                latest = std::max(latest, sl.stampUs(i));
            if (latest > tomorrowUs)
                moveTo(s, scans[s].year - 1);
        }
        return;
    }
    int bundleYear = 0;
    std::size_t most = 0;
    for (const auto& [year, files] : years)
        if (files >= most) {
            most = files;
            bundleYear = year;
        }
    for (std::size_t s = 0; s < scans.size(); ++s) {
        const SourceScan& sc = scans[s];
        if (sc.yearFromText || !sc.guessedYear || sc.year == bundleYear)
            continue;
        moveTo(s, bundleYear);
    }
}

// What a list of (line, value) sorted by line gives `line`, or T{} (no process, no bus).
template <class T> T atLine(const std::vector<std::pair<std::uint32_t, T>>& byLine, std::uint32_t line)
{
    const auto it = std::lower_bound(byLine.begin(), byLine.end(), line,
                                     [](const auto& x, std::uint32_t v) { return x.first < v; });
    return it != byLine.end() && it->first == line ? it->second : T{};
}

// The process a sorted list of (line, process) gives `line`, or none.
ProcessId ownerOf(const std::vector<std::pair<std::uint32_t, ProcessId>>& owners, std::uint32_t line)
{
    return atLine(owners, line);
}

// A run of hex digits as a number; 0 where it is empty or longer than 15 digits (no bus id is).
std::uint64_t hexValue(std::string_view hex)
{
    if (hex.empty() || hex.size() > 15)
        return 0;
    std::uint64_t v = 0;
    for (char c : hex)
        v = v << 4 | static_cast<std::uint64_t>(isDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    return v;
}

// An Init line's "busId 1b000" (its GPU, PCI 0000:1b:00.0), 0 where it has none. Read from the
// line of the Init hit identity keeps, not captured by the matcher: every rank prints the line
// for every communicator, and only one per process is kept.
std::uint64_t busOf(std::string_view initLine)
{
    const std::size_t at = initLine.find(" busId ");
    if (at == std::string_view::npos)
        return 0;
    std::size_t e = at + 7;
    while (e < initLine.size() && isHex(initLine[e]))
        ++e;
    return hexValue(initLine.substr(at + 7, e - at - 7));
}

int currentYear()
{
    auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    return 1970 + static_cast<int>(now / 31556952);
}

// Python logging, ISO and collector stamps carry the year; glog stamps do not, so they borrow it:
// the first year the first 2,000 lines of `text` show near their start.
int yearHint(std::string_view text, bool* fromText = nullptr)
{
    if (fromText)
        *fromText = true;
    std::size_t at = 0;
    for (int i = 0; i < 2000 && at < text.size(); ++i) {
        const std::size_t nl = text.find('\n', at);
        std::string_view l = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
        at = nl == std::string_view::npos ? text.size() : nl + 1;
        while (!l.empty() && (l.back() == '\n' || l.back() == '\r'))
            l.remove_suffix(1);
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
    if (fromText)
        *fromText = false;
    return currentYear();
}

// What the "[N] " that opens lines of a stretch of a file looked like: mpiexec -prepend-rank names
// ranks 0 to n-1, many lines each; a viewer's line numbers rise by one a line; pids are large.
struct PrependStats {
    std::uint32_t lines = 0;
    std::uint32_t steps = 0; // lines whose number is the one before's plus one
    int lowest = std::numeric_limits<int>::max();
    int last = -2;
    std::unordered_set<int> distinct;
    void add(int n)
    {
        ++lines;
        steps += n == last + 1 ? 1 : 0;
        last = n;
        lowest = std::min(lowest, n);
        distinct.insert(n);
    }
};

// Whether the "[N] " prefixes of a stretch are mpiexec's ranks: more than one line of them; not
// numbered line by line (most numbers one more than the line before's and never seen again: ranks
// that print in turn repeat theirs); and either starting near rank 0 or as many different numbers
// as a job's ranks from the lowest would be (a stretch of a large job's stream in which ranks 0 to
// 7 printed nothing). A pid, or a few processes' pids, is neither.
bool prependRanksPlausible(const PrependStats& st)
{
    constexpr int kLowestRank = 7;
    const bool numbered = std::uint64_t{st.steps} * 2 > st.lines && st.distinct.size() * 2 > st.lines;
    const bool dense =
        st.lowest <= kLowestRank || st.distinct.size() * 8 >= static_cast<std::size_t>(st.lowest);
    return st.lines >= 2 && dense && !numbered;
}

// What the scan of lines [first, last) of a source found. A large file is scanned in pieces on
// every core; each piece numbers the processes (keys) it meets on its own, and mergePieces puts
// the pieces together as one scan of the whole source would have found them.
struct SourcePiece {
    std::uint32_t first = 0, last = 0;
    std::vector<LocalKey> keys;
    std::vector<int> keyDecoRank;
    std::vector<std::string> keyDecoHost;
    std::vector<char> keyBare;
    std::vector<int> keyChannelRank;
    std::vector<std::uint64_t> keyDevices;
    std::vector<ProxyRank> proxyRanks;
    std::vector<ElasticKey> elastic;
    std::int64_t openingTrail = -1; // in the piece's numbering (SourceScan::openingTrail)
    std::vector<ScanHit> hits;      // capped per (pattern, key) within the piece only
    std::vector<std::pair<std::uint32_t, std::int32_t>> tids;
    std::vector<std::pair<std::size_t, const EnvironmentLine*>> envText; // in the run's pool
    ScannedEventLines eventLines;
    std::vector<std::uint32_t> blankLines;
    SourceLines stamps;       // the piece's stamps only (no per-line facts)
    bool guessedYear = false; // some stamp printed no year
    // Lines that open with mpiexec's "[N] " (Decoration::PrependRank) and what their numbers look
    // like, for prependRanksPlausible.
    PrependStats prepend;
    std::vector<std::uint32_t> remap; // its keys' numbers in the whole source (joinPiece)
    // (line, bus) of the Init lines on which their key's communicator grew, in line order: identity
    // keeps one of them per process (the first of the largest) and its GPU's bus is read here, while
    // the text is in hand. Read later, a combined stream's Init lines, scattered over the whole
    // file, mapped its pages back in: 12-20 MiB more at the peak on 10,000 ranks in one stream.
    std::vector<std::pair<std::uint32_t, std::uint64_t>> initBus;
    // Init phases per (commId, key). A line's time needs the stamps around it, which may lie in the
    // next or previous piece: a START before the piece's first stamp (its lower bound is the
    // previous piece's last stamp, shared by all such lines) and a COMPLETE after its last stamp
    // are kept as the earliest such line, and every candidate's time is taken again once the
    // source's stamps are whole.
    struct Phases {
        const std::string* commId = nullptr;
        std::uint32_t key = kNoKey;
        std::optional<PhaseLine> start, complete;
        std::optional<std::uint32_t> startBeforeStamps, completeAfterStamps;
    };
    std::vector<Phases> phases;
};

// What the lines of a piece that may become events say about the NCCL version, read now rather
// than by collectEnvironment, which would read the source again for them: WARN-or-worse lines and
// symptom, traceback and exception hits, the first kEventLinesPerKey of each key (collectEnvironment
// looks at 64 events per rank, and reads any it finds unread). The version lines' form too.
// `sourceEndsHere`: the piece's last line is its source's (else the source goes on after it).
void readEventLines(const Source& source, const Scanner& scanner, const SourceLines& lines, SourcePiece& out,
                    bool sourceEndsHere)
{
    constexpr std::uint16_t kEventLinesPerKey = 64;
    ScannedEventLines& read = out.eventLines;
    read.scanned = true;
    std::vector<std::uint32_t> candidates;
    for (std::uint32_t i = out.first; i < out.last; ++i)
        if (lines.level(i) >= Level::Warn)
            candidates.push_back(i);
    for (const auto& h : out.hits) {
        const ScanPattern& pat = scanner.patterns()[static_cast<std::size_t>(h.pattern)];
        // As analyze makes events of them (a WARN line is a candidate already).
        if (pat.eventAtAnyLevel())
            candidates.push_back(h.line);
        else if (pat.builtin == Builtin::NcclVersion && versionLineInException(source.line(h.line)))
            read.exceptionVersions.push_back(h.line);
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::vector<std::uint16_t> perKey(out.keys.size() + 1, 0); // the last: lines of no key
    for (const std::uint32_t line : candidates) {
        const std::uint32_t key = lines.process(line).value;
        std::uint16_t& n = perKey[key == kNoKey ? out.keys.size() : key];
        if (n >= kEventLinesPerKey)
            continue;
        ++n;
        const std::string_view text = source.line(line);
        EventLineText t = readEventLine(text);
        if (lines.level(line) == Level::Warn) {
            if (const auto w = connectAbortWarn(text)) {
                // The WARN's thread's next NCCL line of the same process. A line with a host and pid
                // is that process's exactly when they are the WARN's; without a host, or past this
                // piece, the process is not known here: left to collectEnvironment.
                if (w->host.empty())
                    continue;
                const std::uint64_t trailEnd = std::uint64_t{line} + kConnectAbortTrailLines;
                const std::uint64_t end =
                    sourceEndsHere ? std::min<std::uint64_t>(trailEnd, out.last) : trailEnd;
                bool decided = false;
                std::uint32_t i = line + 1;
                for (; i < end && i < out.last; ++i) {
                    const ParsedLine next = parseLine(source.line(i));
                    if (!next.nccl)
                        continue;
                    if (next.nccl->host.empty())
                        break;
                    if (next.nccl->host != w->host || next.nccl->pid != w->pid || next.nccl->tid != w->tid)
                        continue;
                    t.connectAbort = connectAbortAfter(*w, next);
                    decided = true;
                    break;
                }
                if (!decided && i != end)
                    continue;
            }
        }
        read.lines.push_back(line);
        if (!t.empty())
            read.texts.emplace_back(line, std::make_unique<EventLineText>(std::move(t)));
    }
}

// Lines [first, last) of an indexed source: parse every line (its key and level go to `lines`),
// then run the fingerprints over them. `sourceEndsHere` as for readEventLines.
// `prependRanks`: whether mpiexec's "[N] " keys the lines it opens; a scan that found them
// implausible (prependRanksPlausible) is run again without.
// Whether a source is tail's or head's listing of several files (its first line is a header), and
// the section a scan of it starts in (none for the whole source; a piece may start inside one).
struct ListingContext {
    bool listing = false;
    std::string_view section;
};

// The listing context of the piece of `text` that starts at byte `at` (the header before it).
ListingContext listingContextAt(std::string_view text, std::uint64_t at)
{
    ListingContext c;
    c.listing = !listingHeader(text.substr(0, text.find('\n'))).empty();
    for (std::size_t end = at; c.listing && end > 0;) {
        const std::size_t start = text.rfind('\n', end - 1);
        const std::size_t from = start == std::string_view::npos ? 0 : start + 1;
        if (from < end) {
            c.section = listingHeader(text.substr(from, end - from));
            if (!c.section.empty())
                break;
        }
        if (start == std::string_view::npos)
            break;
        end = start;
    }
    return c;
}

SourcePiece scanPiece(const Source& source, const Scanner& scanner, std::uint32_t first, std::uint32_t last,
                      int year, SourceLines& lines, ScanPools& pools, bool sourceEndsHere,
                      const ListingContext& context, bool prependRanks = true)
{
    SourcePiece out;
    out.first = first;
    out.last = last;
    // At most a stamp a line: room for them at once, rather than the eight doublings a small file's
    // hundred stamps took (the slack goes when the source is joined, as the doublings' did).
    out.stamps.reserveStamps(last - first);
    LocalKeyIndex keyIndex;
    auto keyFor = [&](LocalKey k) {
        auto [it, inserted] = keyIndex.emplace(std::move(k), static_cast<std::uint32_t>(out.keys.size()));
        if (inserted) {
            out.keys.push_back(it->first);
            out.keyDecoRank.push_back(-1);
            out.keyDecoHost.emplace_back();
            out.keyBare.push_back(0);
            out.keyChannelRank.push_back(-1);
            out.keyDevices.push_back(0);
        }
        return it->second;
    };
    // NCCL lines come in runs from one process: the last key answers most of them without a
    // string and a map lookup per line. In a combined stream the processes take turns line by
    // line: the key last seen for the line's pid (or launcher rank) answers those.
    std::uint32_t lastNcclKey = kNoKey;
    std::unordered_map<std::int64_t, std::uint32_t> keyOfPid;
    std::vector<std::uint32_t> keyOfRank;
    constexpr int kRanksCached = 1 << 16;
    // Blank lines not yet followed by a keyed line, none more than kBlankLookahead lines back (so
    // at most eight): a file of millions of blank lines keeps none of them, not four bytes each.
    // A vector: nothing is allocated for a file without blank lines.
    std::vector<std::uint32_t> pendingBlanks;
    // The host of the last pdsh-style prefix ("worker-3: "), for its empty lines whose trailing space
    // a paste lost.
    std::string lastPrefixHost;
    // A worker's record in torchelastic's failure box: its traceback, from recordFrom up to
    // recordEnd, quotes that worker, though the agent printed it; the fields before it (rank,
    // exit code, pid) stay the agent's, as its finding reads the box whole. Their time stays the
    // agent's: the record's own ("time :") would stand among the agent's stamps of the same
    // source, which give the time of every unstamped line between them. Pieces are not cut inside
    // a record (lineStartAfter in analyze).
    std::uint32_t recordFrom = first, recordEnd = first, recordKey = kNoKey;
    std::vector<std::string_view> recordBodies;
    // grep's file names (`grep -r` output): each name's rank as the name says it, read once.
    std::unordered_map<std::string_view, int> rankOfGrepFile;
    // tail's or head's listing of several files ("==> logs/rank2.log <==" before each file's last
    // lines): a section's undecorated lines are that file's, as grep's named lines are. Only where
    // the source opens with such a header, as tail and head print it. `context` says (a piece of a
    // larger source has no lines before its own, and listingContextAt looks back for its header).
    const bool listing = context.listing;
    std::string_view section = context.section;
    // The key of the line before, for the lines of a C++ exception that follow it unprefixed
    // (cppTraceContinuation); a piece never starts among them (lineStartAfter in analyze).
    std::uint32_t traceKey = kNoKey;
    bool textSeen = false; // a line with text, for openingTrail
    for (std::uint32_t i = first; i < last; ++i) {
        ParsedLine p = parseLine(source.line(i), year);
        if (!textSeen && !isBlank(p.text)) {
            textSeen = true;
            if (p.trail && p.trail->code != 0)
                out.openingTrail = i;
        }
        bool header = false;
        if (listing) {
            if (const std::string_view h = listingHeader(p.text); !h.empty()) {
                section = h;
                header = true;
            } else if (p.decoration == Decoration::None && !section.empty()) {
                p.decoration = Decoration::GrepFile;
                p.decorationFile = section;
            }
        }
        if (p.decoration == Decoration::GrepFile) {
            if (rankOfGrepFile.empty())
                lines.setStampsByProcess();
            auto [it, added] = rankOfGrepFile.try_emplace(p.decorationFile, -1);
            if (added)
                it->second = identityFromPath(std::string(p.decorationFile)).rank.value_or(-1);
            p.decorationRank = it->second;
        }
        if (p.decoration == Decoration::PrependRank) {
            out.prepend.add(p.decorationRank);
            if (!prependRanks) {
                p.decoration = Decoration::None;
                p.decorationRank = -1;
            }
        }
        if (i >= recordEnd && !p.nccl && elasticRecordHeader(p.body)) {
            recordBodies.assign(1, p.body);
            for (std::uint32_t j = i + 1; j < last && j - i < kElasticRecordLines; ++j) {
                const std::string_view b = parseLine(source.line(j), year).body;
                recordBodies.push_back(b);
                if (b.empty() || (b.front() != ' ' && b.front() != '\t'))
                    break;
            }
            if (const auto r = elasticRecordAt(recordBodies, year)) {
                recordFrom = i + r->tracebackAt;
                recordEnd = i + r->lineCount;
                recordKey = keyFor({std::string(r->host), r->pid, -1});
                // The box puts its root cause under this heading, on the line before the record
                // (a piece never starts between them: lineStartAfter in analyze).
                const bool rootCause =
                    i > first &&
                    parseLine(source.line(i - 1), year).body.find("Root Cause (first observed failure):") !=
                        std::string_view::npos;
                std::optional<std::int64_t> timeUs;
                if (r->time)
                    timeUs = r->time->us;
                out.elastic.push_back(
                    {recordKey, r->rank, r->localRank, recordFrom, recordEnd, timeUs, rootCause, r->attempt});
            }
        }
        std::uint32_t key = kNoKey;
        bool filler = false;
        if (p.decoration == Decoration::None && !p.nccl && traceKey != kNoKey &&
            cppTraceContinuation(p.body)) {
            key = traceKey;
        } else if (i >= recordFrom && i < recordEnd) {
            key = recordKey;
        } else if (p.nccl && !p.nccl->host.empty()) {
            if (lastNcclKey != kNoKey && out.keys[lastNcclKey].pid == p.nccl->pid &&
                out.keys[lastNcclKey].host == p.nccl->host) {
                key = lastNcclKey;
            } else {
                auto [seen, added] = keyOfPid.try_emplace(p.nccl->pid, kNoKey);
                if (added || out.keys[seen->second].host != p.nccl->host)
                    seen->second = keyFor({std::string(p.nccl->host), p.nccl->pid, -1});
                key = lastNcclKey = seen->second;
            }
            if (p.decorationRank >= 0 && out.keyDecoRank[key] < 0)
                out.keyDecoRank[key] = p.decorationRank;
            if (!p.decorationHost.empty() && out.keyDecoHost[key].empty())
                out.keyDecoHost[key] = std::string(p.decorationHost);
            if (p.decoration == Decoration::None)
                out.keyBare[key] = 1;
            if (p.level == Level::Info && out.keyChannelRank[key] != kSeveral)
                if (const int r = channelLineRank(p.nccl->message); r >= 0)
                    out.keyChannelRank[key] = mergeOne(out.keyChannelRank[key], r);
            if (p.level == Level::Warn)
                if (const int r = proxyServiceRank(p.nccl->message); r >= 0)
                    out.proxyRanks.push_back({key, p.nccl->device, r});
            out.keyDevices[key] |= deviceBit(p.nccl->device);
        } else if (p.decorationRank >= 0 && !p.decorationHost.empty() && p.decorationPid >= 0) {
            // A launcher's rank prefix, then a tag that names the process ("[1,3]<stderr>:[gpu15:
            // 85054:0:85088] Caught signal 11"): the process's own key, as its NCCL lines would give,
            // with the rank the prefix says.
            key = keyFor({std::string(p.decorationHost), p.decorationPid, -1});
            if (out.keyDecoRank[key] < 0)
                out.keyDecoRank[key] = p.decorationRank;
        } else if (p.decorationRank >= 0) {
            if (p.decorationRank < kRanksCached) {
                if (static_cast<std::size_t>(p.decorationRank) >= keyOfRank.size())
                    keyOfRank.resize(static_cast<std::size_t>(p.decorationRank) + 1, kNoKey);
                std::uint32_t& k = keyOfRank[static_cast<std::size_t>(p.decorationRank)];
                if (k == kNoKey)
                    k = keyFor({std::string{}, -1, p.decorationRank});
                key = k;
            } else {
                key = keyFor({std::string{}, -1, p.decorationRank});
            }
            // A tag that names the rank's host and not its pid (SageMaker's "[1,mpirank:3,algo-1]")
            if (!p.decorationHost.empty() && out.keyDecoHost[key].empty())
                out.keyDecoHost[key] = std::string(p.decorationHost);
        } else if (p.decoration == Decoration::Ray || p.decoration == Decoration::Journald ||
                   p.decoration == Decoration::ProcessTag || p.decoration == Decoration::HostPrefix ||
                   p.decoration == Decoration::KubectlPod || p.decoration == Decoration::Libfabric) {
            // A collector or launcher prefix names the process (Ray, journald) or at least the host
            // (pdsh, kubectl's pod): its lines form their own stream. libfabric's lines name their
            // pid alone: identity joins them to the NCCL process of that pid in the same stream.
            const bool hostOnly =
                (p.decoration == Decoration::HostPrefix || p.decoration == Decoration::KubectlPod) &&
                p.decorationPid < 0;
            // A host's prefix and nothing after it (pdsh's "10.0.0.1: " for an empty line) is no
            // line of the host's console: with several ranks on the host that console would stand
            // as a process of its own. It goes with the next line, as a blank line does.
            if (hostOnly && isBlank(p.body))
                filler = true;
            else
                key = keyFor({std::string(p.decorationHost), p.decorationPid, -1, hostOnly});
        } else if (p.decoration == Decoration::None && !lastPrefixHost.empty() &&
                   p.text.size() == lastPrefixHost.size() + 1 && p.text.back() == ':' &&
                   p.text.starts_with(lastPrefixHost)) {
            // The same empty line where a web page's copy lost pdsh's space after the colon
            // ("compute-dy-p4d24xlarge-5:" alone between two ranks' lines, NVIDIA/nccl#520): it is
            // no line of a process of the file's own either.
            filler = true;
        }
        if (p.decoration == Decoration::HostPrefix && p.decorationHost != lastPrefixHost)
            lastPrefixHost.assign(p.decorationHost);
        lines.set(i, ProcessId(key), p.level);
        // The key an exception's later lines would take: the line's own, while they follow it.
        traceKey = key;
        while (!pendingBlanks.empty() && pendingBlanks.front() + kBlankLookahead < i)
            pendingBlanks.erase(pendingBlanks.begin());
        if (key != kNoKey) {
            out.blankLines.insert(out.blankLines.end(), pendingBlanks.begin(), pendingBlanks.end());
            pendingBlanks.clear();
        }
        // grep's "--" between the groups of a listing's context lines is no line of any file's:
        // it goes with the next, as a blank line does (so does any line of two hyphens alone, a
        // separator with nothing of its own).
        // So does a poster's ellipsis for the lines left out ("..."), and a collector's stamp on a
        // line of its own before each message (a CloudWatch console copy, aws-ofi-nccl#715).
        if (filler || isBlank(p.text) || p.text == "--" || header ||
            (key == kNoKey &&
             (onlyEllipsis(p.body) || (p.stamp && p.decoration == Decoration::None && isBlank(p.body)))))
            pendingBlanks.push_back(i);
        if (p.nccl && p.nccl->tid >= 0 && p.level >= Level::Warn)
            out.tids.push_back({i, static_cast<std::int32_t>(p.nccl->tid)});
        if (p.stamp) {
            out.stamps.addStamp({i, p.stamp->us, p.stamp->resolutionUs});
            out.guessedYear |= p.stamp->yearGuessed;
        }
    }
    // The keyed line that follows the last of them may start the next piece; at the source's end,
    // the line before them takes them (assignProcesses).
    out.blankLines.insert(out.blankLines.end(), pendingBlanks.begin(), pendingBlanks.end());
    // (commId, key): interned, so the pointer names the communicator
    std::map<std::pair<const std::string*, std::uint32_t>, std::size_t> phaseIndex;
    // A rank keeps the first version clue of each kind (collectEnvironment), and its Init lines
    // all have the same form: a clue an earlier line of the same key gave is not kept twice.
    // (key, clue id): the ids are literals, so a view of them is kept.
    struct ClueKeyHash {
        std::size_t operator()(const std::pair<std::uint32_t, std::string_view>& k) const
        {
            return std::hash<std::string_view>{}(k.second) ^ (std::size_t{k.first} * 0x9e3779b97f4a7c15ULL);
        }
    };
    std::unordered_set<std::pair<std::uint32_t, std::string_view>, ClueKeyHash> clueSeen;
    auto readEnvironmentText = [&clueSeen, &pools](Builtin b, std::string_view line,
                                                   std::uint32_t key) -> const EnvironmentLine* {
        auto text = readEnvironmentLine(b, line);
        if (text && !text->clues.empty()) {
            std::erase_if(text->clues, [&](const LineClue& c) {
                return !clueSeen.emplace(key, std::string_view(c.id)).second;
            });
            if (text->empty())
                text.reset();
        }
        return text ? pools.environment.intern(std::move(*text)) : nullptr;
    };
    std::vector<int> initRanks; // per key (the last: lines of no key): the largest nranks so far
    auto noteInitBus = [&](const ScanHit& h, std::string_view line) {
        const std::uint32_t k = lines.process(h.line).value;
        const std::size_t at = k == kNoKey ? 0 : std::size_t{k} + 1;
        if (at >= initRanks.size())
            initRanks.resize(std::max(at + 1, out.keys.size() + 1), 0);
        const std::string_view n = h.captures.get("nranks");
        int nranks = 0;
        std::from_chars(n.data(), n.data() + n.size(), nranks);
        if (nranks <= initRanks[at])
            return;
        initRanks[at] = nranks;
        if (const std::uint64_t bus = busOf(line))
            out.initBus.push_back({h.line, bus});
    };
    auto addInitPhase = [&](const ScanHit& h) {
        const std::string* comm = pools.commIds.intern(h.captures.get("commid"));
        const std::uint32_t key = lines.process(h.line).value;
        auto [it, inserted] = phaseIndex.emplace(std::make_pair(comm, key), out.phases.size());
        if (inserted)
            out.phases.push_back({comm, key, {}, {}, {}, {}});
        SourcePiece::Phases& ip = out.phases[it->second];
        const PhaseLine p{{SourceId(0), h.line}, out.stamps.time(h.line)};
        if (captureOf(h, "phase") == "START") {
            if (p.t.knownLo())
                keepLatestStart(ip.start, p);
            else if (!ip.startBeforeStamps)
                ip.startBeforeStamps = h.line;
        } else {
            if (p.t.knownHi())
                keepEarliestEnd(ip.complete, p);
            else if (!ip.completeAfterStamps)
                ip.completeAfterStamps = h.line;
        }
    };
    // A symptom repeated thousands of times on one process adds nothing after its first few lines
    // (findings use the first, checklists the first per process); keep memory bounded by the
    // number of processes, not of lines, and do not even run a pattern's regex once its quota for
    // the line's process is full. Progress lines (SeqNum) are all kept: their maximum counts.
    {
        const std::size_t keys = out.keys.size() + 1; // the last column: lines of no key
        std::size_t consoleRankHits = 0;
        // The hits kept so far per (pattern, key): a table of every pattern for every key where
        // the piece has a few hundred keys at most (a file one process or one node wrote). A
        // piece of a combined stream of thousands of ranks has tens of thousands of keys, each
        // with a few lines in the piece: there the table was 20 MB a piece to clear and fault
        // in, for a few dozen counts a key, and they are kept in a hash map instead.
        const std::size_t cells = scanner.patterns().size() * keys;
        const bool dense = cells <= kDenseHitQuota;
        std::vector<std::uint16_t> seen(dense ? cells : 0, 0);
        std::unordered_map<std::uint64_t, std::uint16_t> seenSparse;
        auto slot = [&](int pattern, std::uint32_t line) -> std::uint16_t& {
            const std::uint32_t k = lines.process(line).value;
            const std::size_t column = k == kNoKey ? keys - 1 : k;
            if (dense)
                return seen[static_cast<std::size_t>(pattern) * keys + column];
            return seenSparse[std::uint64_t{static_cast<std::uint32_t>(pattern)} << 32 | column];
        };
        scanner.scan(
            source, first, last,
            [&](int pattern, std::uint32_t line) {
                const ScanPattern& sp = scanner.patterns()[static_cast<std::size_t>(pattern)];
                if (!cappedPerProcess(sp) || slot(pattern, line) < kKeepHitsPerProcess)
                    return true;
                // Identity needs every "[Rank R]" of the lines no prefix names: they may be several
                // ranks' (consoleRanks). Bounded, so that a file of nothing else keeps its memory
                // bounded too; past the bound, such lines stay with the file's process.
                return sp.builtin == Builtin::TorchRank && lines.process(line).value == kNoKey &&
                       consoleRankHits++ < kConsoleRankLines;
            },
            [&](ScanHit&& h) {
                if (scanner.patterns()[static_cast<std::size_t>(h.pattern)].builtin == Builtin::InitPhase) {
                    addInitPhase(h);
                    return;
                }
                std::uint16_t& count = slot(h.pattern, h.line);
                if (count < kKeepHitsPerProcess)
                    ++count;
                if (const Builtin b = scanner.patterns()[static_cast<std::size_t>(h.pattern)].builtin;
                    isEnvironmentBuiltin(b)) {
                    const std::string_view line = source.line(h.line);
                    if (b == Builtin::InitLine)
                        noteInitBus(h, line);
                    if (auto text = readEnvironmentText(b, line, lines.process(h.line).value))
                        out.envText.emplace_back(out.hits.size(), text);
                }
                out.hits.push_back(std::move(h));
            });
    }
    // Symptom lines at INFO level (trails, retries) need their thread id too: those that become
    // events, once per line (the built-in lines' and context lines' ids are never asked for).
    std::uint32_t parsed = UINT32_MAX;
    for (const auto& h : out.hits) {
        const ScanPattern& pat = scanner.patterns()[static_cast<std::size_t>(h.pattern)];
        if (!pat.eventAtAnyLevel() || h.line == parsed || lines.level(h.line) >= Level::Warn)
            continue;
        parsed = h.line;
        ParsedLine p = parseLine(source.line(h.line), year);
        if (p.nccl && p.nccl->tid >= 0)
            out.tids.push_back({h.line, static_cast<std::int32_t>(p.nccl->tid)});
    }
    std::sort(out.tids.begin(), out.tids.end());
    out.tids.erase(std::unique(out.tids.begin(), out.tids.end()), out.tids.end());
    readEventLines(source, scanner, lines, out, sourceEndsHere);
    return out;
}

// Where the pieces of one source meet, in line order (joinPiece, as each piece's turn comes, while
// later pieces may still be scanning) and then as one scan (mergePieces).
struct PieceJoin {
    SourceScan out;
    LocalKeyIndex keyIndex;
};

// The piece's keys renumbered in order of first appearance over the source (piece.remap), in
// line order of the pieces.
void remapKeys(PieceJoin& join, SourcePiece& piece)
{
    SourceScan& out = join.out;
    piece.remap.resize(piece.keys.size());
    for (std::size_t k = 0; k < piece.keys.size(); ++k) {
        auto [it, inserted] =
            join.keyIndex.emplace(piece.keys[k], static_cast<std::uint32_t>(out.keys.size()));
        if (inserted) {
            out.keys.push_back(piece.keys[k]);
            out.keyDecoRank.push_back(-1);
            out.keyDecoHost.emplace_back();
            out.keyBare.push_back(0);
            out.keyChannelRank.push_back(-1);
            out.keyDevices.push_back(0);
        }
        const std::uint32_t g = it->second;
        out.keyBare[g] |= piece.keyBare[k];
        out.keyChannelRank[g] = mergeOne(out.keyChannelRank[g], piece.keyChannelRank[k]);
        out.keyDevices[g] |= piece.keyDevices[k];
        piece.remap[k] = g;
        if (piece.keyDecoRank[k] >= 0 && out.keyDecoRank[g] < 0)
            out.keyDecoRank[g] = piece.keyDecoRank[k];
        if (!piece.keyDecoHost[k].empty() && out.keyDecoHost[g].empty())
            out.keyDecoHost[g] = std::move(piece.keyDecoHost[k]);
    }
    for (ElasticKey e : piece.elastic) {
        e.key = piece.remap[e.key];
        out.elastic.push_back(e);
    }
    for (ProxyRank r : piece.proxyRanks) {
        r.key = piece.remap[r.key];
        out.proxyRanks.push_back(r);
    }
    std::vector<ProxyRank>().swap(piece.proxyRanks);
    std::vector<ElasticKey>().swap(piece.elastic);
    // From here the source's numbers stand for the piece's keys (piece.remap). Each piece of a
    // stream of thousands of ranks holds tens of thousands of keys, and kept them until the last
    // piece of its source joined: with 10,000 ranks in one `srun -l` stream, 26 MB of the peak.
    std::vector<LocalKey>().swap(piece.keys);
    std::vector<int>().swap(piece.keyDecoRank);
    std::vector<std::string>().swap(piece.keyDecoHost);
    std::vector<char>().swap(piece.keyBare);
    std::vector<int>().swap(piece.keyChannelRank);
    std::vector<std::uint64_t>().swap(piece.keyDevices);
}

// A source scanned whole, as one piece: its lines already hold the piece's keys, which are the
// source's (they are numbered in order of first appearance either way), and its stamps join the
// source's.
void joinWhole(PieceJoin& join, SourcePiece& piece, SourceLines& lines)
{
    // What remapKeys would build key by key (a map of the keys, copies of each), moved whole: the
    // piece's keys are distinct, so each maps to itself.
    SourceScan& out = join.out;
    out.keys = std::move(piece.keys);
    out.keyDecoRank = std::move(piece.keyDecoRank);
    out.keyDecoHost = std::move(piece.keyDecoHost);
    out.keyBare = std::move(piece.keyBare);
    out.keyChannelRank = std::move(piece.keyChannelRank);
    out.keyDevices = std::move(piece.keyDevices);
    out.proxyRanks = std::move(piece.proxyRanks);
    out.elastic = std::move(piece.elastic);
    out.openingTrail = piece.openingTrail;
    piece.remap.resize(out.keys.size());
    std::iota(piece.remap.begin(), piece.remap.end(), 0u);
    lines.appendStamps(std::move(piece.stamps));
}

// Bytes [begin, end) of a source's text as a source of their own, valid while that text is.
struct PieceView {
    ViewBuffer bytes;
    Source source;

    PieceView(const Source& of, std::uint64_t begin, std::uint64_t end)
    {
        bytes.bytes = of.text().substr(begin, end - begin);
        source.id = of.id;
        source.size = end - begin;
        source.buffer = bytes.unowned(); // this object's, which lives as long as the source
    }
    PieceView(const PieceView&) = delete;
    PieceView& operator=(const PieceView&) = delete;
};

// A piece of a large source, scanned as a source of its own: bytes [begin, end) of the source,
// its lines numbered from 0 until it joins the pieces before it (joinPiece).
struct ScannedPiece {
    std::uint64_t begin = 0, end = 0;
    LineOffsets starts; // from its first byte
    SourceLines lines;  // its lines' levels and processes (its own keys)
    SourcePiece scan;
};

// scanPiece, and once more without mpiexec's "[N] " as ranks where the piece's were not (a viewer's
// line numbers, pids): rare enough that the second pass costs nothing on any other file.
SourcePiece scanPieceChecked(const Source& source, const Scanner& scanner, std::uint32_t first,
                             std::uint32_t last, int year, SourceLines& lines, ScanPools& pools,
                             bool sourceEndsHere, const ListingContext& context)
{
    SourcePiece piece = scanPiece(source, scanner, first, last, year, lines, pools, sourceEndsHere, context);
    if (piece.prepend.lines == 0 || prependRanksPlausible(piece.prepend))
        return piece;
    piece = SourcePiece{};
    return scanPiece(source, scanner, first, last, year, lines, pools, sourceEndsHere, context, false);
}

// Moves what a piece found from its own line numbers to the source's: from line `offset` on.
void shiftLines(SourcePiece& piece, std::uint32_t offset)
{
    piece.first += offset;
    piece.last += offset;
    for (auto& h : piece.hits)
        h.line += offset;
    for (auto& t : piece.tids)
        t.first += offset;
    for (auto& l : piece.eventLines.lines)
        l += offset;
    for (auto& t : piece.eventLines.texts)
        t.first += offset;
    for (auto& l : piece.eventLines.exceptionVersions)
        l += offset;
    for (auto& l : piece.blankLines)
        l += offset;
    for (auto& b : piece.initBus)
        b.first += offset;
    for (auto& e : piece.elastic) {
        e.from += offset;
        e.end += offset;
    }
    for (auto& ph : piece.phases) {
        if (ph.start)
            ph.start->where.line += offset;
        if (ph.complete)
            ph.complete->where.line += offset;
        if (ph.startBeforeStamps)
            *ph.startBeforeStamps += offset;
        if (ph.completeAfterStamps)
            *ph.completeAfterStamps += offset;
    }
}

// The next piece in line order joins the source: its keys take the source's numbers, its line
// starts, lines and stamps follow those of the pieces before it, and what it found is numbered by
// the source's lines. What it held on its own is let go.
void joinPiece(PieceJoin& join, ScannedPiece& piece, Source& source, SourceLines& lines)
{
    const auto offset = static_cast<std::uint32_t>(lines.size());
    if (offset == 0)
        join.out.openingTrail = piece.scan.openingTrail; // the source's first lines are this piece's
    shiftLines(piece.scan, offset); // first: remapKeys hands the box records over to the source
    remapKeys(join, piece.scan);
    lines.append(piece.lines, piece.scan.remap, piece.scan.stamps);
    for (std::size_t i = 0; i < piece.starts.size(); ++i)
        source.lineStarts.push_back(piece.begin + piece.starts[i]);
    piece.lines = SourceLines{};
    piece.scan.stamps = SourceLines{};
    piece.starts = LineOffsets{};
}

// The joined pieces as one scan: the per-process cap on repeated hits applied across pieces, and
// init phases reduced with the times the whole source gives.
// `lines` (the source's, whose "process" field holds a local key index until identity) are read and
// shrunk in place.
SourceScan mergePieces(PieceJoin&& join, SourceLines& lines, std::vector<SourcePiece>&& pieces,
                       const Scanner& scanner)
{
    SourceScan out = std::move(join.out);
    // The buses of the Init lines identity may keep (SourcePiece::initBus), in line order.
    std::vector<std::pair<std::uint32_t, std::uint64_t>> initBus;
    for (auto& piece : pieces) {
        out.guessedYear |= piece.guessedYear;
        if (initBus.empty())
            initBus = std::move(piece.initBus);
        else
            initBus.insert(initBus.end(), piece.initBus.begin(), piece.initBus.end());
    }
    // Hits and phases once every line has its key and the stamps are whole.
    std::unordered_map<std::uint64_t, std::uint16_t> kept; // pattern << 32 | key -> hits kept
    std::map<std::pair<const std::string*, std::uint32_t>, std::size_t> phaseIndex;
    if (pieces.size() == 1) {
        // A source scanned whole (every small file): its piece is the scan. Its keys are the
        // source's, its stamps were whole when its phases were timed, and a phase before the first
        // stamp or after the last has no time on that side either way.
        SourcePiece& piece = pieces.front();
        out.hits = std::move(piece.hits);
        out.envText = std::move(piece.envText);
        out.tids = std::move(piece.tids);
        out.eventLines = std::move(piece.eventLines);
        out.blankLines = std::move(piece.blankLines);
        out.initPhases.reserve(piece.phases.size());
        for (auto& ph : piece.phases)
            if (ph.start || ph.complete)
                out.initPhases.push_back({ph.commId, ph.start, ph.complete});
        pieces.clear();
    }
    for (std::size_t pi = 0; pi < pieces.size(); ++pi) {
        SourcePiece& piece = pieces[pi];
        auto envText = piece.envText.begin();
        for (std::size_t hi = 0; hi < piece.hits.size(); ++hi) {
            ScanHit& h = piece.hits[hi];
            const EnvironmentLine* text = nullptr;
            if (envText != piece.envText.end() && envText->first == hi)
                text = (envText++)->second;
            if (pieces.size() > 1 &&
                cappedPerProcess(scanner.patterns()[static_cast<std::size_t>(h.pattern)])) {
                // A piece keeps at most the cap per key; across pieces, the first ones in line order.
                const std::uint64_t slot =
                    std::uint64_t{static_cast<std::uint32_t>(h.pattern)} << 32 | lines.process(h.line).value;
                std::uint16_t& n = kept[slot];
                if (n >= kKeepHitsPerProcess)
                    continue;
                ++n;
            }
            if (text)
                out.envText.emplace_back(out.hits.size(), text);
            out.hits.push_back(std::move(h));
        }
        std::vector<ScanHit>().swap(piece.hits);
        out.tids.insert(out.tids.end(), piece.tids.begin(), piece.tids.end());
        ScannedEventLines& read = out.eventLines;
        read.scanned = true;
        read.lines.insert(read.lines.end(), piece.eventLines.lines.begin(), piece.eventLines.lines.end());
        std::move(piece.eventLines.texts.begin(), piece.eventLines.texts.end(),
                  std::back_inserter(read.texts));
        out.blankLines.insert(out.blankLines.end(), piece.blankLines.begin(), piece.blankLines.end());
        read.exceptionVersions.insert(read.exceptionVersions.end(),
                                      piece.eventLines.exceptionVersions.begin(),
                                      piece.eventLines.exceptionVersions.end());
        for (auto& ph : piece.phases) {
            const std::uint32_t key = ph.key == kNoKey ? kNoKey : piece.remap[ph.key];
            auto [it, inserted] = phaseIndex.emplace(std::make_pair(ph.commId, key), out.initPhases.size());
            if (inserted)
                out.initPhases.push_back({ph.commId, {}, {}});
            InitPhases& ip = out.initPhases[it->second];
            auto at = [&lines](std::uint32_t line) {
                return PhaseLine{{SourceId(0), line}, lines.time(line)};
            };
            if (ph.start)
                keepLatestStart(ip.start, at(ph.start->where.line));
            if (ph.startBeforeStamps)
                keepLatestStart(ip.start, at(*ph.startBeforeStamps));
            if (ph.complete)
                keepEarliestEnd(ip.complete, at(ph.complete->where.line));
            if (ph.completeAfterStamps)
                keepEarliestEnd(ip.complete, at(*ph.completeAfterStamps));
        }
    }
    // A communicator whose lines have no time at all tells the clock nothing.
    std::erase_if(out.initPhases, [](const InitPhases& ip) { return !ip.start && !ip.complete; });
    // Of a key's lines, identity takes the first Init line with the most ranks and the first
    // "[Rank R]" (a key is one process here, and only a larger communicator replaces a rank): the
    // others are not kept.
    {
        struct Seen {
            int nranks = 0;
            std::uint64_t devices = 0; // of the Init lines kept with `nranks`
            bool torch = false;
        };
        std::vector<Seen> seen(out.keys.size() + 1); // the last: lines of no key
        std::optional<std::size_t> noKeyTorch;       // its entry in rankLines
        std::vector<int> nodesSeen;                  // per key, the largest nRanks kept
        for (const auto& h : out.hits) {
            const Builtin b = scanner.patterns()[static_cast<std::size_t>(h.pattern)].builtin;
            if (b == Builtin::NodesLine) {
                const std::uint32_t key = lines.process(h.line).value;
                if (key == kNoKey || out.keys[key].hostStream)
                    continue; // whose it is, nothing says
                nodesSeen.resize(out.keys.size(), 0);
                const int nranks = std::atoi(captureOf(h, "nranks").c_str());
                if (nranks > nodesSeen[key]) {
                    nodesSeen[key] = nranks;
                    out.nodesLines.push_back({h.line, nranks, std::atoi(captureOf(h, "nnodes").c_str()),
                                              std::atoi(captureOf(h, "localrank").c_str())});
                }
                continue;
            }
            if (b == Builtin::NcclTestsDevice) {
                out.testsDevices.push_back({h.line, std::atoi(captureOf(h, "rank").c_str()),
                                            std::atoll(captureOf(h, "pid").c_str()), captureOf(h, "host"),
                                            std::atoi(captureOf(h, "dev").c_str())});
                continue;
            }
            if (b == Builtin::NvrmGpu) {
                // "0000:3b:00" -> 0x3b000, as NCCL prints the bus of "0000:3b:00.0"
                std::string hex;
                for (char c : h.captures.get("pci"))
                    if (c != ':')
                        hex += c;
                const std::string_view pid = h.captures.get("pid");
                out.gpuLines.push_back(
                    {h.line, hexValue(hex) << 4,
                     pid.empty() || pid.size() > 10 ? -1 : std::atoll(std::string(pid).c_str())});
                continue;
            }
            if (b != Builtin::InitLine && b != Builtin::TorchRank)
                continue;
            const std::uint32_t key = lines.process(h.line).value;
            // A host's console (LocalKey::hostStream) is read as lines of no key are: several ranks
            // may have written it.
            const bool console = key == kNoKey || out.keys[key].hostStream;
            if (b == Builtin::TorchRank && console) {
                out.consoleRanks.push_back({h.line, std::atoi(captureOf(h, "rank").c_str())});
                if (!seen.back().torch)
                    noKeyTorch = out.rankLines.size();
            }
            Seen& k = seen[key == kNoKey || (console && b == Builtin::TorchRank) ? out.keys.size() : key];
            if (b == Builtin::InitLine) {
                const int nranks = std::atoi(captureOf(h, "nranks").c_str());
                const int device = std::atoi(captureOf(h, "dev").c_str());
                if (nranks > k.nranks) {
                    k.nranks = nranks;
                    k.devices = 0;
                }
                // The largest communicator's line once per device: one process driving eight GPUs
                // prints eight, one rank each; a process of one GPU, one however many communicators
                // of that size it creates.
                const std::uint64_t bit = device >= 0 ? deviceBit(device) : deviceBit(63);
                if (nranks == k.nranks && (k.devices & bit) == 0) {
                    k.devices |= bit;
                    out.rankLines.push_back({h.line, true, nranks, std::atoi(captureOf(h, "rank").c_str()),
                                             atLine(initBus, h.line), device});
                }
            } else if (!k.torch) {
                k.torch = true;
                out.rankLines.push_back({h.line, false, 0, std::atoi(captureOf(h, "rank").c_str())});
            }
        }
        const bool severalRanks =
            std::any_of(out.consoleRanks.begin(), out.consoleRanks.end(),
                        [&](const auto& r) { return r.second != out.consoleRanks.front().second; });
        if (severalRanks) {
            // Each such line is its rank's, not the file's: the file's own process takes no rank
            // from them.
            out.rankLines.erase(out.rankLines.begin() + static_cast<std::ptrdiff_t>(*noKeyTorch));
        } else {
            decltype(out.consoleRanks)().swap(out.consoleRanks);
        }
        out.rankLines.shrink_to_fit();
        out.nodesLines.shrink_to_fit();
    }
    // Init lines and "[Rank R]" lines have given identity all it reads (rankLines), and setting
    // lines all the environment reads (their text): such hits with no text kept are not kept either.
    // Most of a rank's hits on a job that builds many communicators; the others keep their order,
    // and the environment text its hit.
    {
        std::size_t alive = 0;
        auto text = out.envText.begin();
        for (std::size_t i = 0; i < out.hits.size(); ++i) {
            const bool hasText = text != out.envText.end() && text->first == i;
            const Builtin b = scanner.patterns()[static_cast<std::size_t>(out.hits[i].pattern)].builtin;
            if (!hasText &&
                (b == Builtin::InitLine || b == Builtin::TorchRank || b == Builtin::NcclSetting ||
                 b == Builtin::NvrmGpu || b == Builtin::NodesLine || b == Builtin::NcclTestsDevice))
                continue;
            if (hasText)
                (text++)->first = alive;
            if (alive != i)
                out.hits[alive] = std::move(out.hits[i]);
            ++alive;
        }
        out.hits.resize(alive);
    }
    // Every source is held until the identity stage: give back the growth slack of its vectors
    // now, not after all of them have been scanned.
    lines.shrink();
    out.tids.shrink_to_fit();
    out.hits.shrink_to_fit();
    out.envText.shrink_to_fit();
    shrinkSlack(out.eventLines.lines);
    shrinkSlack(out.blankLines);
    return out;
}

// The hash of a text's first bytes: copies of a file share it (copiesOf), and other files of the
// same size almost never do (their first line already differs: another pid, another time). Its
// first 256 bytes: the bench's 10,000 small files, most of which share a size with another, spent
// 2 % of their time hashing 4 KiB.
std::uint64_t headHash(std::string_view text)
{
    return std::hash<std::string_view>{}(text.substr(0, 256));
}

// `head`, where not null, gets headHash of the source's text, taken from the scan's own read.
SourceScan scanSource(Source& source, const Scanner& scanner, ScanPools& pools, SourceLines& lines,
                      std::uint64_t* head)
{
    // A small file is read into this thread's buffer for the scan, not mapped (SourcePass).
    thread_local std::string scratch;
    SourcePass pass(source, scratch);
    if (source.buffer && source.buffer->binary())
        return {}; // found binary by this first read: analyze skips it
    Source& src = pass.read() ? pass.copy() : source;
    if (head)
        *head = headHash(src.text());
    indexLines(src);
    lines.resize(src.lineCount());
    std::vector<SourcePiece> pieces;
    bool yearFromText = false;
    const int year = yearHint(src.text(), &yearFromText);
    pieces.push_back(scanPieceChecked(src, scanner, 0, static_cast<std::uint32_t>(src.lineCount()), year,
                                      lines, pools, true, listingContextAt(src.text(), 0)));
    PieceJoin join;
    joinWhole(join, pieces.front(), lines);
    SourceScan out = mergePieces(std::move(join), lines, std::move(pieces), scanner);
    out.year = year;
    out.yearFromText = yearFromText;
    if (pass.read())
        source.lineStarts = std::move(src.lineStarts);
    return out;
}

// Happened-before constraints between hosts, found in the logs (see timeline/clock.h), then the
// offsets that satisfy them with the smallest correction.
void alignClocks(Analysis& a, const std::vector<ScanAfterIdentity>& scans, const AnalyzeOptions& options)
{
    a.processOffset.assign(a.processes.size(), 0);
    // Hosts by number: thousands of ranks on a thousand hosts make the maps below keyed by host
    // pairs and (communicator, host) the bulk of this stage when keyed by strings. Every host a
    // constraint names is a process's, and the names are views of Process::host.
    std::unordered_map<std::string_view, std::uint32_t> hostNumber;
    std::vector<std::string_view> hostName;
    // Each process's host by number: the passes below ask for the host of tens of thousands of
    // events and init lines, which hashed its name each time.
    std::vector<std::uint32_t> hostOfProcess(a.processes.size());
    for (const auto& p : a.processes) {
        auto [it, added] = hostNumber.try_emplace(p.host, static_cast<std::uint32_t>(hostName.size()));
        if (added)
            hostName.push_back(p.host);
        hostOfProcess[p.id.value] = it->second;
    }
    auto hostNumberOf = [&a, &hostOfProcess](LineRef r) {
        return hostOfProcess[a.lines[r.source.value].process(r.line).value];
    };
    std::vector<std::string> hosts; // the named ones, in first-seen order, for solveClocks
    for (const std::string_view h : hostName)
        if (!h.empty())
            hosts.emplace_back(h);
    auto pairKey = [](std::uint32_t before, std::uint32_t after) {
        return std::uint64_t{before} << 32 | after;
    };
    // The tightest constraint per (before, after) host pair; the first one found wins a tie.
    std::unordered_map<std::uint64_t, ClockConstraint> tightest;
    // `before` and `after`: the numbers of c's hosts.
    auto add = [&](ClockConstraint&& c, std::uint32_t before, std::uint32_t after) {
        if (c.beforeHost == c.afterHost || c.beforeHost.empty() || c.afterHost.empty())
            return;
        const std::uint64_t key = pairKey(before, after);
        auto it = tightest.find(key);
        if (it == tightest.end())
            tightest.emplace(key, std::move(c));
        else if (c.bound() < it->second.bound())
            it->second = std::move(c);
    };
    // Whether a constraint between these hosts with this bound would be kept: thousands of
    // communicators give the same host pairs, and most are looser than one already found, so
    // their explanation need not be written.
    auto wouldKeep = [&](std::uint32_t before, std::uint32_t after, std::int64_t bound) {
        auto it = tightest.find(pairKey(before, after));
        return it == tightest.end() || bound < it->second.bound();
    };
    auto hostOf = [&a](LineRef r) -> const std::string& {
        return a.process(a.lines[r.source.value].process(r.line)).host;
    };
    auto shortName = [](std::string h) {
        auto dot = h.find('.');
        if (dot != std::string::npos && !std::isdigit(static_cast<unsigned char>(h[0])))
            h.resize(dot);
        return h;
    };

    // The host a peer named in a report is: the last process (in id order) whose address or host
    // name matches, looked up rather than searched for on each of thousands of reports.
    std::unordered_map<std::string_view, std::size_t> lastByAddress, lastByHost;
    for (std::size_t i = 0; i < a.processes.size(); ++i) {
        const Process& p = a.processes[i];
        if (p.host.empty())
            continue;
        if (!p.address.empty())
            lastByAddress[p.address] = i;
        lastByHost[p.host] = i;
    }
    // The process whose host that is, if any.
    auto peerProcessOf = [&](const std::string& peer) -> std::optional<std::size_t> {
        std::optional<std::size_t> last;
        if (auto it = lastByAddress.find(peer); it != lastByAddress.end())
            last = it->second;
        if (auto it = lastByHost.find(shortName(peer));
            it != lastByHost.end() && (!last || it->second > *last))
            last = it->second;
        return last;
    };

    // 1. A collateral line that names a peer ("Connection closed by remote peer gpu-b<port>") comes
    //    after that peer host's first failure: its first WARN, error or symptom line.
    // Events still carry their raw (unaligned) times here: alignment is what this computes.
    std::vector<const Event*> firstFailure(hostName.size(), nullptr); // by host number
    for (const auto& e : a.events) {
        // A failure: a WARN or error line, a traceback, or a failure symptom — not context lines
        // such as an interface announcement that an entry merely watches.
        bool failure = e.level == Level::Warn || e.level == Level::Error || e.level == Level::Fatal ||
                       e.kind == EventKind::Traceback || e.kind == EventKind::Exception;
        if (e.entry >= 0 && e.symptom >= 0) {
            Phase ph = a.entry(e.entry).symptoms[static_cast<std::size_t>(e.symptom)].phase;
            failure = failure || ph == Phase::Connect || ph == Phase::Failure;
        }
        if (!failure)
            continue;
        if (!e.time.knownLo())
            continue;
        const Event*& first = firstFailure[hostNumberOf(e.where)];
        if (!first || e.time.lo < first->time.lo)
            first = &e;
    }
    for (const auto& e : a.events) {
        if (e.entry < 0 || e.symptom < 0)
            continue;
        const Symptom& sym = a.entry(e.entry).symptoms[static_cast<std::size_t>(e.symptom)];
        if (sym.phase != Phase::Collateral)
            continue;
        std::string peer = e.capture("peer");
        if (peer.empty())
            continue;
        const TimeInterval report = e.time;
        if (!report.knownHi())
            continue;
        const std::optional<std::size_t> peerProcess = peerProcessOf(peer);
        if (!peerProcess)
            continue;
        // A process found by address or name has a host (those without one are not listed).
        const std::string& peerHost = a.processes[*peerProcess].host;
        const Event* first = firstFailure[hostOfProcess[*peerProcess]];
        if (!first)
            continue;
        ClockConstraint c;
        c.beforeHost = peerHost;
        c.afterHost = hostOf(e.where);
        c.before = first->where;
        c.after = e.where;
        c.beforeLo = a.rawTime(c.before).lo;
        c.afterHi = report.hi;
        c.why = c.afterHost + " reported its connection to " + peer + " lost (" +
                a.source(c.after.source).displayPath + ":" + std::to_string(c.after.line + 1) + ") after " +
                peerHost + " first failed (" + a.source(c.before.source).displayPath + ":" +
                std::to_string(c.before.line + 1) + ")";
        add(std::move(c), hostOfProcess[*peerProcess], hostNumberOf(e.where));
    }

    // 2. NCCL init is collective: no rank completes a communicator before every rank has started it.
    // Per (communicator, host): the latest start and the earliest completion on that host.
    struct HostPhases {
        std::uint32_t host;
        std::optional<PhaseLine> start, complete;
    };
    std::unordered_map<const std::string*, std::size_t> commNumber; // interned commIds
    std::vector<std::string_view> commName;
    std::vector<std::vector<HostPhases>> byComm;
    std::unordered_map<std::uint64_t, std::size_t> slotOf; // comm << 32 | host -> index in byComm[comm]
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const SourceId sid(static_cast<std::uint32_t>(s));
        auto inSource = [sid](PhaseLine p) {
            p.where.source = sid;
            return p;
        };
        for (const auto& ip : scans[s].initPhases) {
            // Every line of one local key belongs to one process, so either line names the host.
            const std::uint32_t anyLine = ip.start ? ip.start->where.line : ip.complete->where.line;
            const std::uint32_t h = hostNumberOf({sid, anyLine});
            if (hostName[h].empty())
                continue;
            auto [c, newComm] = commNumber.try_emplace(ip.commId, commName.size());
            if (newComm) {
                commName.push_back(*ip.commId);
                byComm.emplace_back();
            }
            auto [at, newHost] = slotOf.try_emplace(pairKey(static_cast<std::uint32_t>(c->second), h),
                                                    byComm[c->second].size());
            if (newHost)
                byComm[c->second].push_back({h, {}, {}});
            HostPhases& slot = byComm[c->second][at->second];
            if (ip.start)
                keepLatestStart(slot.start, inSource(*ip.start));
            if (ip.complete)
                keepEarliestEnd(slot.complete, inSource(*ip.complete));
        }
    }
    // Communicators in commId order and hosts in name order: the order constraints are found in
    // decides which of two equally tight ones explains a pair. Each host's place in name order
    // is found once (thousands of communicators each sorted their hosts by comparing names).
    std::vector<std::uint32_t> nameOrder(hostName.size());
    {
        std::vector<std::uint32_t> byName(hostName.size());
        std::iota(byName.begin(), byName.end(), 0u);
        std::sort(byName.begin(), byName.end(),
                  [&](std::uint32_t x, std::uint32_t y) { return hostName[x] < hostName[y]; });
        for (std::size_t i = 0; i < byName.size(); ++i)
            nameOrder[byName[i]] = static_cast<std::uint32_t>(i);
    }
    std::vector<std::size_t> commOrder(commName.size());
    std::iota(commOrder.begin(), commOrder.end(), 0);
    std::sort(commOrder.begin(), commOrder.end(),
              [&](std::size_t x, std::size_t y) { return commName[x] < commName[y]; });
    // Every (start host, completion host) pair is quadratic in hosts: beyond 64 hosts only the pairs
    // through the latest start and through the earliest completion are kept (the tight ones; each
    // is valid, the set is merely weaker).
    for (const std::size_t ci : commOrder) {
        const std::string_view comm = commName[ci];
        std::vector<HostPhases>& perHost = byComm[ci];
        std::sort(perHost.begin(), perHost.end(), [&](const HostPhases& x, const HostPhases& y) {
            return nameOrder[x.host] < nameOrder[y.host];
        });
        const HostPhases* latestStart = nullptr;
        const HostPhases* earliestEnd = nullptr;
        for (const HostPhases& hp : perHost) {
            if (hp.start && (!latestStart || hp.start->t.lo > latestStart->start->t.lo))
                latestStart = &hp;
            if (hp.complete && (!earliestEnd || hp.complete->t.hi < earliestEnd->complete->t.hi))
                earliestEnd = &hp;
        }
        auto pair = [&](const HostPhases& hs, const HostPhases& hc) {
            const auto& start = hs.start;
            const auto& end = hc.complete;
            if (hs.host == hc.host || !start || !end || !wouldKeep(hs.host, hc.host, end->t.hi - start->t.lo))
                return;
            ClockConstraint c;
            c.beforeHost = hostName[hs.host];
            c.afterHost = hostName[hc.host];
            c.before = start->where;
            c.after = end->where;
            c.beforeLo = start->t.lo;
            c.afterHi = end->t.hi;
            c.why = "communicator ";
            c.why.append(comm).append(" completed init on ").append(c.afterHost);
            c.why.append(" only after it started on ").append(c.beforeHost);
            add(std::move(c), hs.host, hc.host);
        };
        if (perHost.size() <= 64) {
            for (const HostPhases& hs : perHost)
                for (const HostPhases& hc : perHost)
                    pair(hs, hc);
            continue;
        }
        for (const HostPhases& h : perHost) {
            if (latestStart)
                pair(*latestStart, h);
            if (earliestEnd)
                pair(h, *earliestEnd);
        }
    }

    // In (before host, after host) name order, as solveClocks has always been given them.
    std::vector<ClockConstraint> constraints;
    constraints.reserve(tightest.size());
    for (auto& [k, c] : tightest)
        constraints.push_back(std::move(c));
    std::sort(constraints.begin(), constraints.end(), [](const ClockConstraint& x, const ClockConstraint& y) {
        return std::tie(x.beforeHost, x.afterHost) < std::tie(y.beforeHost, y.afterHost);
    });
    std::vector<PinnedPair> pins;
    for (const auto& [x, y] : options.pinnedLines) {
        if (x.source.value >= a.sources.size() || y.source.value >= a.sources.size())
            continue;
        TimeInterval tx = a.rawTime(x), ty = a.rawTime(y);
        if (tx.knownLo() && ty.knownLo())
            pins.push_back({hostOf(x), hostOf(y), tx.lo, ty.lo});
    }
    a.clock = solveClocks(hosts, constraints, options.clockOverrides, pins);
    // ClockModel::offsetOf searches the hosts in order, once per process: 12 million string
    // compares for 10,000 ranks on 1,250 hosts. The first entry of a name wins, as there.
    std::vector<std::optional<std::int64_t>> offsetOfHost(hostName.size()); // by host number
    for (const auto& h : a.clock.hosts)
        if (auto it = hostNumber.find(h.host); it != hostNumber.end() && !offsetOfHost[it->second])
            offsetOfHost[it->second] = h.offsetUs;
    for (const auto& p : a.processes)
        a.processOffset[p.id.value] = offsetOfHost[hostOfProcess[p.id.value]].value_or(0);
    // Where no host moves (the usual case: the constraints hold as the clocks stand), the events
    // stay as identity sorted them.
    if (std::all_of(a.processOffset.begin(), a.processOffset.end(),
                    [](std::int64_t off) { return off == 0; }))
        return;
    // An event's raw time moved by its process's offset, as Analysis::info gives it (the event's
    // process is its line's).
    for (auto& e : a.events) {
        const std::int64_t off =
            e.process.value < a.processOffset.size() ? a.processOffset[e.process.value] : 0;
        if (e.time.knownLo())
            e.time.lo += off;
        if (e.time.knownHi())
            e.time.hi += off;
    }
    sortEvents(a.events);
}

// Keeps the sources `keep(i)` says yes to, in order, with the entries of `alongside` (arrays
// indexed like the sources) that go with them, and numbers them anew; moved in place, so nothing
// moves where every source is kept.
template <class Keep, class... Alongside>
void keepSources(std::vector<Source>& sources, const Keep& keep, std::vector<Alongside>&... alongside)
{
    std::size_t kept = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (!keep(i))
            continue;
        if (kept != i) {
            sources[kept] = std::move(sources[i]);
            ((alongside[kept] = std::move(alongside[i])), ...);
        }
        sources[kept].id = SourceId(static_cast<std::uint32_t>(kept));
        ++kept;
    }
    sources.resize(kept);
    (alongside.resize(kept), ...);
}

// Files whose bytes another file of the bundle holds too: a log downloaded twice ("rank5 (1).log"),
// a folder copied beside itself. Read as two, each line would be two events of one process, and the
// evidence could quote the copy. For each such file, the one kept in its stead (the shortest name,
// then the first): the scan's headHash of every file that shares its size with another finds the
// candidates, and only they are compared whole. The same bytes prove a copy only where they carry
// their writer's marks, a timestamp or NCCL's host:pid (their scan found stamps or process keys),
// and only between files whose paths say the same of who wrote them: two ranks' stderr, or the
// same file name in two nodes' tarballs, can hold the same unstamped traceback, and both printed it.
std::vector<std::optional<std::size_t>> copiesOf(const Analysis& a, const std::vector<SourceScan>& scans,
                                                 const std::vector<std::uint64_t>& heads,
                                                 const std::vector<char>& hashed,
                                                 const std::vector<PathIdentity>& pathIdentity)
{
    std::vector<std::optional<std::size_t>> copyOf(a.sources.size());
    // (size, head, source), sorted: a run of equal (size, head) is a group of candidates.
    std::vector<std::tuple<std::uint64_t, std::uint64_t, std::size_t>> candidates;
    for (std::size_t i = 0; i < a.sources.size(); ++i)
        if (hashed[i] && !(a.sources[i].buffer && a.sources[i].buffer->binary()) &&
            (!scans[i].keys.empty() || a.lines[i].stampCount() > 0))
            candidates.emplace_back(a.sources[i].size, heads[i], i);
    std::sort(candidates.begin(), candidates.end());
    std::vector<std::size_t> members;
    for (std::size_t from = 0, to; from < candidates.size(); from = to) {
        to = from + 1;
        while (to < candidates.size() && std::get<0>(candidates[to]) == std::get<0>(candidates[from]) &&
               std::get<1>(candidates[to]) == std::get<1>(candidates[from]))
            ++to;
        if (to - from < 2)
            continue;
        members.clear();
        for (std::size_t c = from; c < to; ++c)
            members.push_back(std::get<2>(candidates[c]));
        std::stable_sort(members.begin(), members.end(), [&a](std::size_t x, std::size_t y) {
            return a.sources[x].displayPath.size() < a.sources[y].displayPath.size();
        });
        std::vector<std::size_t> kept;
        for (std::size_t m : members) {
            const std::string_view text = a.sources[m].text();
            const auto same = std::find_if(kept.begin(), kept.end(), [&](std::size_t k) {
                return pathIdentity[k] == pathIdentity[m] && a.sources[k].text() == text;
            });
            if (same == kept.end())
                kept.push_back(m);
            else
                copyOf[m] = *same;
        }
        for (std::size_t m : members)
            if (a.sources[m].buffer)
                a.sources[m].buffer->dropResident();
    }
    return copyOf;
}

// PyTorch Flight Recorder dumps, read on every core (one per rank, megabytes each with their stack
// traces), each one's pages given back once read: the dump, or why it does not read.
std::vector<std::optional<Expected<FlightDump>>> readFlightDumps(const std::vector<FlightDumpBytes>& dumps,
                                                                 unsigned workers)
{
    std::vector<std::optional<Expected<FlightDump>>> read(dumps.size());
    parallelFor(dumps.size(), workers, [&](std::size_t i) {
        read[i].emplace(readFlightDump(dumps[i].buffer->text(), dumps[i].displayPath));
        dumps[i].buffer->dropResident();
    });
    return read;
}

// What a dump that does not read is skipped with.
Skipped unreadDump(const FlightDumpBytes& d, const Error& e)
{
    return {d.displayPath, e.cause + "; " + e.hint};
}

// A small file is first read by the scan (see SmallFileBuffer in bundle.cpp), which is when it is
// found binary: it leaves the analysis then, skipped where readBundle would have said so. So does
// a copy of another file (copiesOf), said where the copy was read.
void dropBinaryAndCopies(Analysis& a, std::vector<SourceScan>& scans, std::vector<PathIdentity>& pathIdentity,
                         std::uint64_t& totalBytes, const std::vector<std::optional<std::size_t>>& copyOf,
                         unsigned workers)
{
    std::vector<std::pair<std::size_t, Skipped>> binary; // (Source::skippedBefore, what is said)
    std::vector<FlightDumpBytes> dumps;
    std::vector<std::size_t> dumpSkippedBefore; // each dump's Source::skippedBefore
    // Names first: keepSources moves the sources it keeps.
    std::vector<std::string> copyReason(a.sources.size());
    for (std::size_t i = 0; i < a.sources.size(); ++i)
        if (copyOf[i])
            copyReason[i] =
                "the same bytes as " + a.sources[*copyOf[i]].displayPath +
                ", its stamps and process ids included (a copy of it): read once, under that name";
    keepSources(
        a.sources,
        [&](std::size_t i) {
            const Source& s = a.sources[i];
            if (copyOf[i]) {
                binary.emplace_back(s.skippedBefore, Skipped{s.displayPath, std::move(copyReason[i])});
                totalBytes -= s.size;
                return false;
            }
            if (!s.buffer || !s.buffer->binary())
                return true;
            totalBytes -= s.size;
            const char* format = s.buffer->binaryFormat();
            if (format && std::string_view(format) == "flight-recorder") {
                dumps.push_back({s.displayPath, s.buffer});
                dumpSkippedBefore.push_back(s.skippedBefore);
                return false;
            }
            binary.emplace_back(s.skippedBefore, Skipped{s.displayPath, binaryReason(format, s.displayPath)});
            return false;
        },
        a.lines, scans, pathIdentity);
    // One that does not read is skipped where the file was read.
    auto read = readFlightDumps(dumps, workers);
    for (std::size_t i = 0; i < dumps.size(); ++i) {
        if (read[i]->ok())
            a.flight.dumps.push_back(std::move(read[i]->value()));
        else
            binary.emplace_back(dumpSkippedBefore[i], unreadDump(dumps[i], read[i]->error()));
    }
    if (binary.empty())
        return;
    // Sources are in path order, skips in reading order: each binary file goes before the skip
    // that was read after it.
    std::stable_sort(binary.begin(), binary.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<Skipped> merged;
    merged.reserve(a.skipped.size() + binary.size());
    std::size_t next = 0;
    for (std::size_t k = 0; k <= a.skipped.size(); ++k) {
        for (; next < binary.size() && binary[next].first <= k; ++next)
            merged.push_back(std::move(binary[next].second));
        if (k < a.skipped.size())
            merged.push_back(std::move(a.skipped[k]));
    }
    a.skipped = std::move(merged);
}

// A file still being written when the bundle was opened: what was read, what was not, what to do.
std::string grownReason(std::uint64_t readBytes, std::uint64_t more)
{
    return std::string(kGrewReasonStart) + byteCount(more) +
           " while it was being read (still being written?): it was diagnosed as it was when opened (" +
           withThousands(readBytes) +
           " bytes); reload (F5 in the window, or run the command again) to include the rest";
}

void residentBytes(std::uint64_t& anon, std::uint64_t& file)
{
    // statm: size resident shared ... in pages; "shared" is the file-backed part of resident.
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
        unsigned long long size = 0, resident = 0, shared = 0;
        if (std::fscanf(f, "%llu %llu %llu", &size, &resident, &shared) == 3) {
            const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
            anon = (resident - std::min(resident, shared)) * page;
            file = shared * page;
        }
        std::fclose(f);
    }
}

// A line as a run of the program prints it each time: what follows its launcher's prefix and its
// timestamp, each run of digits one '#' (times, pids, addresses differ from run to run).
std::string runOpening(std::string_view line)
{
    const std::string_view body = parseLine(line).body;
    std::string out;
    out.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] >= '0' && body[i] <= '9') {
            if (out.empty() || out.back() != '#')
                out += '#';
            while (i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '9')
                ++i;
        } else {
            out += body[i];
        }
    }
    return out;
}

// Several runs of one job in one stream: a log that a job restarted with the same output
// appended to (`>>`, Slurm's --open-mode=append), or a console on which torchrun restarted its
// workers. Each rank is printed by one process per run, one run after the other.
struct StreamRuns {
    // Per process: its run among its rank's processes where they follow one another in a source
    // (0 for the first), or -1. Empty where no rank has two processes.
    std::vector<int> run;
    // Per source: the line its latest run starts on (the first line of a rank's last process, the
    // earliest of them), or 0: what comes before it in the stream is the earlier runs'.
    std::vector<std::uint32_t> latestFrom;
    // Per source: the processes of repeated ranks with lines in it (those that may be set aside).
    std::vector<std::vector<std::uint32_t>> repeatedHere;
};

StreamRuns runsInStreams(const Analysis& a)
{
    std::unordered_map<int, int> perRank;
    bool repeated = false;
    for (const auto& p : a.processes)
        if (p.rank && !p.attempt)
            repeated = ++perRank[*p.rank] > 1 || repeated;
    if (!repeated)
        return {};
    StreamRuns out;
    out.run.assign(a.processes.size(), -1);
    out.latestFrom.assign(a.lines.size(), 0);
    out.repeatedHere.resize(a.lines.size());
    for (std::size_t s = 0; s < a.lines.size(); ++s) {
        const SourceLines& sl = a.lines[s];
        // Each repeated rank's processes by their first and last line here.
        std::unordered_map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> lines;
        for (std::uint32_t i = 0; i < sl.size(); ++i) {
            const ProcessId p = sl.process(i);
            if (!p.valid() || p.value >= a.processes.size())
                continue;
            const Process& proc = a.processes[p.value];
            if (!proc.rank || proc.attempt || perRank[*proc.rank] < 2)
                continue;
            auto [it, first] = lines.try_emplace(p.value, i, i);
            if (!first)
                it->second.second = i;
        }
        std::map<int, std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>>> byRank;
        for (const auto& [p, range] : lines) {
            byRank[*a.processes[p].rank].emplace_back(range.first, range.second, p);
            out.repeatedHere[s].push_back(p);
        }
        std::uint32_t latestFrom = UINT32_MAX;
        for (auto& [rank, list] : byRank) {
            if (list.size() < 2)
                continue;
            std::sort(list.begin(), list.end());
            bool apart = true; // each starts after the one before it ended
            for (std::size_t k = 1; k < list.size(); ++k)
                apart = apart && std::get<0>(list[k]) > std::get<1>(list[k - 1]);
            if (!apart)
                continue;
            for (std::size_t k = 0; k < list.size(); ++k)
                out.run[std::get<2>(list[k])] = std::max(out.run[std::get<2>(list[k])], static_cast<int>(k));
            latestFrom = std::min(latestFrom, std::get<0>(list.back()));
        }
        if (latestFrom != UINT32_MAX)
            out.latestFrom[s] = latestFrom;
    }
    if (std::none_of(out.run.begin(), out.run.end(), [](int r) { return r > 0; }))
        return {};
    return out;
}

} // namespace

double processCpuSeconds()
{
    timespec ts{};
    if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::shared_ptr<const Analysis> analyze(Bundle bundle, std::shared_ptr<const Encyclopedia> encyclopedia,
                                        const AnalyzeOptions& options, const ProgressSink& progress)
{
    return analyze(std::move(bundle), std::move(encyclopedia), nullptr, options, progress);
}

std::shared_ptr<const Analysis> analyze(Bundle bundle, std::shared_ptr<const Encyclopedia> encyclopedia,
                                        std::unique_ptr<Scanner> prebuilt, const AnalyzeOptions& options,
                                        const ProgressSink& progress)
{
    auto result = std::make_shared<Analysis>();
    Analysis& a = *result;
    a.encyclopedia = encyclopedia;
    a.sources = std::move(bundle.sources);
    shrinkSlack(a.sources); // read one by one: up to half of a large bundle's array is growth slack
    a.skipped = std::move(bundle.skipped);
    auto stageStart = std::chrono::steady_clock::now();
    double cpuStart = processCpuSeconds();
    auto stageDone = [&a, &stageStart, &cpuStart, &options](const char* name) {
        const auto now = std::chrono::steady_clock::now();
        const double cpuNow = processCpuSeconds();
        StageTime t{name, std::chrono::duration<double>(now - stageStart).count()};
        residentBytes(t.anonBytes, t.fileBytes);
        t.cpuSeconds = cpuNow - cpuStart;
        a.timings.push_back(std::move(t));
        if (options.afterStage)
            options.afterStage(name);
        stageStart = now;
        cpuStart = cpuNow;
    };
    // This machine's NCCL, looked for while the bundle is read: the dynamic loader searches its
    // paths and, on a GPU node, maps and initialises a library of a few hundred megabytes, which
    // needs nothing from the logs. Joined where the versions are compared (a cancelled analysis
    // waits for it on the way out, as it would have without it).
    std::future<NcclProbeResult> localNccl;
    if (options.probeLocalNccl)
        localNccl =
            std::async(std::launch::async, [library = options.ncclLibrary] { return probeNccl(library); });
    const std::unique_ptr<Scanner> built =
        prebuilt ? std::move(prebuilt) : std::make_unique<Scanner>(*encyclopedia);
    Scanner& scanner = *built;
    stageDone("compile fingerprints");

    const unsigned workers = threadsOrCores(options.threads);
    // What each source's path says about its writer, worked out once per source, on every core
    // (a few microseconds a path; ten thousand of them were the last thing before the scan that
    // ran on one core).
    std::vector<PathIdentity> pathIdentity;
    reservePopulated(pathIdentity, a.sources.size()); // util/populate.h
    pathIdentity.resize(a.sources.size());
    parallelFor(a.sources.size(), workers,
                [&](std::size_t i) { pathIdentity[i] = identityFromPath(a.sources[i].displayPath); });
    {
        std::vector<std::string_view> paths(a.sources.size());
        std::vector<std::uint64_t> sizes(a.sources.size());
        for (std::size_t i = 0; i < a.sources.size(); ++i) {
            paths[i] = a.sources[i].displayPath;
            sizes[i] = a.sources[i].size;
        }
        deepSpeedLaunches(pathIdentity, paths);
        numberedSeries(pathIdentity, paths, sizes);
    }
    // torchrun restarts and DeepSpeed launches: each attempt is a separate run. Unless asked for
    // all, diagnose the latest of each kind and say which files were set aside.
    int latest[2] = {-1, -1}; // torchrun, DeepSpeed
    std::string latestRun[2];
    for (const auto& pi : pathIdentity)
        if (pi.attempt && *pi.attempt > latest[pi.deepSpeed]) {
            latest[pi.deepSpeed] = *pi.attempt;
            latestRun[pi.deepSpeed] = pi.run;
        }
    if (!options.allAttempts && (latest[0] >= 0 || latest[1] >= 0))
        keepSources(
            a.sources,
            [&](std::size_t i) {
                const PathIdentity& pi = pathIdentity[i];
                if (!pi.attempt || *pi.attempt >= latest[pi.deepSpeed])
                    return true;
                a.skipped.push_back(
                    {a.sources[i].displayPath,
                     pi.run + " (" + latestRun[pi.deepSpeed] +
                         " is the latest and is the one diagnosed; to include older ones: "
                         "--all-attempts, or View > Include Earlier Attempts in the window)"});
                return false;
            },
            pathIdentity);

    // Stage: index + parse + scan on every core: a task per source, and per piece of a large
    // source (see scanPiece), whose pages are given back piece by piece.
    // One of each per source, all constructed now: their pages faulted in at once (util/populate.h).
    std::vector<SourceScan> scans;
    reservePopulated(scans, a.sources.size());
    scans.resize(a.sources.size());
    reservePopulated(a.lines, a.sources.size());
    a.lines.resize(a.sources.size());
    ScanPools pools; // what the environment hits' texts and the init phases' commIds point into
    {
        std::atomic<std::uint64_t> doneBytes{0}, doneFiles{0}, doneLines{0};
        std::uint64_t totalBytes = 0;
        for (const auto& s : a.sources)
            totalBytes += s.size;
        std::mutex reportMutex;
        const auto interval = std::chrono::duration_cast<std::chrono::nanoseconds>(progress.interval).count();
        std::atomic<std::int64_t> lastReport{std::numeric_limits<std::int64_t>::min() / 2};
        // `lastOfStage`: the call after which no other comes in this stage, never held back.
        // Only the task whose file made the count complete says so: another task that finished
        // just before it may report after it, and would be a second report past the throttle.
        auto report = [&](const char* stage, bool lastOfStage) {
            if (!progress.report)
                return;
            if (interval > 0 && !lastOfStage) {
                const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::steady_clock::now().time_since_epoch())
                                             .count();
                std::int64_t last = lastReport.load(std::memory_order_relaxed);
                // Too soon, or another thread has just taken this turn.
                if (now - last < interval || !lastReport.compare_exchange_strong(last, now))
                    return;
            }
            std::lock_guard<std::mutex> lock(reportMutex);
            progress.report(
                {stage, doneFiles.load(), a.sources.size(), doneBytes.load(), totalBytes, doneLines.load()});
        };
        // A large source is scanned in pieces of about pieceBytes, each cut at a line start and
        // indexed and scanned on its own by one task while its bytes are fresh (a first pass to
        // index the whole source would read every byte twice, and the second time from memory
        // the first has given back). The pieces join the source in line order as they are done.
        struct Pieces {
            std::size_t source = 0;
            int year = 0;
            bool yearFromText = false;
            SourceLines lines;
            std::vector<ScannedPiece> done;
            // Pieces join (joinPiece) as soon as every piece before them has; the task that joins
            // the last one merges them.
            std::mutex joinMutex;
            PieceJoin join;
            std::vector<char> finished;
            std::size_t joined = 0;
        };
        std::vector<std::unique_ptr<Pieces>> large;
        const std::uint64_t pieceBytes =
            std::clamp<std::uint64_t>(options.pieceBytes, 1, std::uint64_t{1} << 30);
        for (std::size_t i = 0; i < a.sources.size(); ++i)
            if (a.sources[i].size >= 2 * pieceBytes) {
                auto p = std::make_unique<Pieces>();
                p->source = i;
                Source& src = a.sources[i];
                p->year = yearHint(src.text(), &p->yearFromText);
                src.lineStarts.clear();
                p->done.resize((src.size + pieceBytes - 1) / pieceBytes);
                p->finished.assign(p->done.size(), 0);
                large.push_back(std::move(p));
            }
        struct Task {
            std::size_t source;
            Pieces* pieces = nullptr; // null: the whole source
            std::size_t piece = 0;
        };
        // Files that share their size with another: the scan takes the hash of their first bytes
        // (copiesOf), the others are spared it.
        std::vector<char> hashed(a.sources.size(), 0);
        std::vector<std::uint64_t> heads(a.sources.size(), 0);
        {
            std::vector<std::size_t> bySize(a.sources.size());
            std::iota(bySize.begin(), bySize.end(), std::size_t{0});
            std::sort(bySize.begin(), bySize.end(),
                      [&a](std::size_t x, std::size_t y) { return a.sources[x].size < a.sources[y].size; });
            for (std::size_t k = 1; k < bySize.size(); ++k)
                if (a.sources[bySize[k]].size > 0 &&
                    a.sources[bySize[k]].size == a.sources[bySize[k - 1]].size)
                    hashed[bySize[k]] = hashed[bySize[k - 1]] = 1;
        }
        std::vector<Task> tasks;
        std::vector<char> inPieces(a.sources.size(), 0);
        for (auto& p : large) {
            inPieces[p->source] = 1;
            for (std::size_t k = 0; k < p->done.size(); ++k)
                tasks.push_back({p->source, p.get(), k});
        }
        for (std::size_t i = 0; i < a.sources.size(); ++i)
            if (!inPieces[i])
                tasks.push_back({i, nullptr, 0});
        // Where the line after byte `at` starts: the byte after the first line break at or after
        // it, or the end of the text; and past record headers and indented lines there, up to a
        // box record's length, so that a worker's record in torchelastic's failure box (a header,
        // then indented lines) is read whole by one piece with the line before it, as the whole
        // scan reads it (scanPiece). Lines are looked at as the scan reads a record: after the
        // stamp or prefix a collector or launcher put before them (kubectl --timestamps, srun -l).
        auto lineStartAfter = [](std::string_view text, std::uint64_t at) -> std::uint64_t {
            auto nextLine = [text](std::uint64_t from) -> std::uint64_t {
                if (from >= text.size())
                    return text.size();
                const void* nl = std::memchr(text.data() + from, '\n', text.size() - from);
                return nl ? static_cast<std::uint64_t>(static_cast<const char*>(nl) - text.data()) + 1
                          : text.size();
            };
            // An indented line, or a record's header: never the first line of a piece (a header's
            // line before, the root cause's heading, says which record the box names the root
            // cause); nor a C++ exception's later line, which goes with the line before.
            auto insideRecord = [text](std::uint64_t from) {
                const std::size_t nl = text.find('\n', from);
                std::string_view line = text.substr(from, nl == std::string_view::npos ? nl : nl - from);
                if (!line.empty() && line.back() == '\r')
                    line.remove_suffix(1);
                const ParsedLine p = parseLine(line);
                const std::string_view b = p.body;
                return !b.empty() &&
                       (b.front() == ' ' || b.front() == '\t' ||
                        (b.front() == '[' && !p.nccl && elasticRecordHeader(b)) ||
                        (p.decoration == Decoration::None && !p.nccl && cppTraceContinuation(b)));
            };
            std::uint64_t start = nextLine(at);
            for (std::uint32_t n = 0; n < kElasticRecordLines && start < text.size() && insideRecord(start);
                 ++n)
                start = nextLine(start);
            return start;
        };
        parallelFor(tasks.size(), workers, [&](std::size_t t) {
            if (progress.isCancelled())
                return; // the remaining sources are passed over at once
            const Task& task = tasks[t];
            Source& src = a.sources[task.source];
            if (!task.pieces) {
                scans[task.source] = scanSource(src, scanner, pools, a.lines[task.source],
                                                hashed[task.source] ? &heads[task.source] : nullptr);
                if (src.buffer) {
                    src.buffer->dropResident();
                    src.buffer->checkGrowth(src.path);
                }
                doneBytes += src.size;
                doneLines += src.lineCount();
                report("reading", ++doneFiles == a.sources.size());
                return;
            }
            Pieces& p = *task.pieces;
            ScannedPiece& piece = p.done[task.piece];
            const std::string_view text = src.text();
            if (task.piece == 0 && hashed[task.source])
                heads[task.source] = headHash(text);
            const std::uint64_t nominal = task.piece * pieceBytes;
            piece.begin = task.piece == 0 ? 0 : lineStartAfter(text, nominal);
            piece.end =
                nominal + pieceBytes < text.size() ? lineStartAfter(text, nominal + pieceBytes) : text.size();
            // A line longer than a piece leaves the pieces it covers empty.
            if (piece.begin < piece.end) {
                PieceView view(src, piece.begin, piece.end);
                indexLines(view.source);
                const auto n = static_cast<std::uint32_t>(view.source.lineCount());
                piece.lines.resize(n);
                const ListingContext listing = listingContextAt(text, piece.begin);
                piece.scan = scanPieceChecked(view.source, scanner, 0, n, p.year, piece.lines, pools,
                                              piece.end == text.size(), listing);
                piece.starts = std::move(view.source.lineStarts);
                if (src.buffer)
                    src.buffer->dropResident(piece.begin, piece.end - piece.begin);
                doneBytes += piece.end - piece.begin;
                doneLines += n;
            } else {
                piece.end = piece.begin;
            }
            bool allJoined = false;
            {
                std::lock_guard<std::mutex> lock(p.joinMutex);
                p.finished[task.piece] = 1;
                const std::size_t before = p.joined;
                for (; p.joined < p.done.size() && p.finished[p.joined]; ++p.joined) {
                    ScannedPiece& next = p.done[p.joined];
                    if (p.joined == 0 && next.end > 0) {
                        // The first piece tells how many lines and stamps to expect, with a margin
                        // small enough that giving it back (shrinkSlack) does not copy them.
                        auto expect = [&](std::size_t n) {
                            return static_cast<std::size_t>(static_cast<double>(n) * 1.0625 *
                                                            static_cast<double>(src.size) /
                                                            static_cast<double>(next.end)) +
                                   1;
                        };
                        src.lineStarts.reserve(expect(next.starts.size()), src.size);
                        p.lines.reserve(expect(next.lines.size()));
                        p.lines.reserveStamps(expect(next.scan.stamps.stampCount()));
                    }
                    joinPiece(p.join, next, src, p.lines);
                }
                // Only the task whose turn joins the last piece sees this, once.
                allJoined = p.joined == p.done.size() && before < p.joined;
            }
            bool lastOfStage = false;
            if (allJoined) {
                src.lineStarts.shrinkSlack();
                std::vector<SourcePiece> scanned;
                scanned.reserve(p.done.size());
                for (auto& d : p.done)
                    if (d.begin < d.end)
                        scanned.push_back(std::move(d.scan));
                std::vector<ScannedPiece>().swap(p.done);
                scans[task.source] = mergePieces(std::move(p.join), p.lines, std::move(scanned), scanner);
                scans[task.source].year = p.year;
                scans[task.source].yearFromText = p.yearFromText;
                a.lines[task.source] = std::move(p.lines);
                if (src.buffer) {
                    src.buffer->dropResident();
                    src.buffer->checkGrowth(src.path);
                }
                lastOfStage = ++doneFiles == a.sources.size();
            }
            report("reading", lastOfStage);
        });
        if (progress.isCancelled())
            return nullptr;
        report("diagnosing", true);
        // The last small files read are still marked, not given back (MappedFile::flushDropped).
        MappedFile::flushDropped();
        // Every line is scanned: the matchers' memory (several MiB with their caches) goes before
        // the per-rank stages, where a bundle of many ranks has its peak.
        scanner.releaseMatchers();
        stageDone("index, parse, scan");
        dropBinaryAndCopies(a, scans, pathIdentity, totalBytes,
                            copiesOf(a, scans, heads, hashed, pathIdentity), workers);
        {
            // The dumps the reader met (large files, archive members, standard input) and those
            // an earlier analysis read.
            auto read = readFlightDumps(bundle.flightDumps, workers);
            for (std::size_t i = 0; i < read.size(); ++i) {
                if (read[i]->ok())
                    a.flight.dumps.push_back(std::move(read[i]->value()));
                else
                    a.skipped.push_back(unreadDump(bundle.flightDumps[i], read[i]->error()));
            }
            std::vector<FlightDumpBytes>().swap(bundle.flightDumps);
            for (FlightDump& d : bundle.flightRead)
                a.flight.dumps.push_back(std::move(d));
            if (!a.flight.dumps.empty())
                a.flight = summarizeFlight(std::move(a.flight.dumps));
            for (const auto& [file, rank, kept] : a.flight.notCompared) {
                Skipped s{file,
                          "a second Flight Recorder dump of rank " + std::to_string(rank) + " (" + kept +
                              " is the one compared; this one is listed, not compared): two runs' dumps "
                              "side by side? Open each run's dumps in a folder of their own"};
                // A re-analysis brings what was said before along: said once.
                if (std::none_of(a.skipped.begin(), a.skipped.end(),
                                 [&](const Skipped& x) { return x.file == s.file && x.reason == s.reason; }))
                    a.skipped.push_back(std::move(s));
            }
        }
        rebaseGuessedYears(a, scans);
        a.totalBytes = totalBytes;
        // Every byte has been read by now: say which files changed under us while they were open.
        // A re-analysis of sources read before (the window's clock settings) brings what was said
        // of them then along in `skipped`: said afresh here, not twice.
        std::erase_if(a.skipped, [](const Skipped& s) { return readInPart(s.reason); });
        for (const auto& s : a.sources) {
            if (!s.buffer)
                continue;
            if (s.buffer->damaged()) {
                a.skipped.push_back({s.displayPath, kShrankReason});
            } else if (const std::uint64_t more = s.buffer->grownBy()) {
                a.grown.push_back(s.id);
                a.skipped.push_back({s.displayPath, grownReason(s.size, more)});
            }
        }
    }

    // Stage: identity. Processes keyed by (host, pid) across the bundle; rank-only keys (lines of a
    // combined stream that carry only a launcher prefix) are resolved once ranks are known.
    // The scans' own keys, hashed: ten thousand ranks cost a tree of copied host names as much
    // as the rest of identity.
    struct KeyHash {
        std::size_t operator()(const LocalKey* k) const { return LocalKeyHash{}(*k); }
    };
    struct KeyEqual {
        bool operator()(const LocalKey* x, const LocalKey* y) const { return *x == *y; }
    };
    std::unordered_map<const LocalKey*, ProcessId, KeyHash, KeyEqual> byKey;
    std::vector<std::vector<ProcessId>> keyProcess(a.sources.size());
    {
        // Mostly a process per key: no doubling vector of thousands of processes holding two
        // copies for a moment.
        std::size_t keys = 0;
        for (const auto& sc : scans)
            keys += sc.keys.size();
        reservePopulated(a.processes, keys);
        byKey.reserve(keys);
    }
    auto newProcess = [&a]() -> Process& {
        Process p;
        p.id = ProcessId(static_cast<std::uint32_t>(a.processes.size()));
        a.processes.push_back(std::move(p));
        return a.processes.back();
    };
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        keyProcess[s].resize(scans[s].keys.size());
        for (std::size_t k = 0; k < scans[s].keys.size(); ++k) {
            const LocalKey& key = scans[s].keys[k];
            if (key.byRank())
                continue;
            auto it = byKey.find(&key);
            if (it == byKey.end()) {
                Process& p = newProcess();
                p.host = key.host;
                p.pid = key.pid;
                it = byKey.emplace(&key, p.id).first;
            }
            keyProcess[s][k] = it->second;
        }
    }
    auto keyedProcess = [&](std::size_t s, std::uint32_t line) -> ProcessId {
        std::uint32_t k = a.lines[s].process(line).value;
        return k == kNoKey ? ProcessId{} : keyProcess[s][k];
    };
    // The GPUs each process's NCCL lines name.
    for (std::size_t s = 0; s < a.sources.size(); ++s)
        for (std::size_t k = 0; k < scans[s].keyDevices.size(); ++k)
            if (keyProcess[s][k].valid())
                a.processes[keyProcess[s][k].value].devices |= scans[s].keyDevices[k];
    // Ranks from Init lines: the communicator with the most ranks is the world. A process driving
    // several GPUs prints that communicator's line once per GPU, a rank each (deviceRanks).
    {
        std::vector<int> firstDevice(a.processes.size(), -1); // of the line that gave `rank`
        for (std::size_t s = 0; s < a.sources.size(); ++s) {
            for (const auto& r : scans[s].rankLines) {
                if (!r.init)
                    continue;
                ProcessId pid = keyedProcess(s, r.line);
                if (!pid.valid())
                    continue;
                Process& p = a.processes[pid.value];
                if (r.nranks > a.coverage.worldRanks && r.nranks <= kMostRanks) {
                    a.coverage.worldRanks = r.nranks;
                    a.coverage.source = LineRef{SourceId(static_cast<std::uint32_t>(s)), r.line};
                }
                if (r.nranks > p.nranks) {
                    p.nranks = r.nranks;
                    p.rank = r.rank;
                    p.identitySource = "nccl-init";
                    if (r.bus)
                        p.busId = r.bus;
                    p.deviceRanks.clear();
                    firstDevice[pid.value] = r.device;
                } else if (r.nranks == p.nranks && r.device >= 0 && firstDevice[pid.value] >= 0 &&
                           r.device != firstDevice[pid.value] && !p.rankOnDevice(r.device)) {
                    // Only a process of several GPUs holds a list: ten thousand others, none.
                    if (p.deviceRanks.empty())
                        p.deviceRanks.emplace_back(firstDevice[pid.value], *p.rank);
                    p.deviceRanks.emplace_back(r.device, r.rank);
                }
            }
        }
        for (Process& p : a.processes) {
            std::sort(p.deviceRanks.begin(), p.deviceRanks.end());
            const int first = firstDevice[p.id.value];
            if (!p.deviceRanks.empty() || first < 0 || !p.rank)
                continue;
            // Init lines of one GPU and prefixes of no other but GPU 0: a thread that never
            // selected a device prints "[0]" (cudaGetDevice's default) in a process that drives
            // GPU 3, which is one rank. Other GPUs' lines are other ranks', whose Init lines the
            // logs lack (an excerpt): the Init line says its own GPU's rank only.
            if ((p.devices & ~deviceBit(first) & ~deviceBit(0)) == 0)
                p.devices = deviceBit(first);
            else
                p.deviceRanks.emplace_back(first, *p.rank);
        }
    }
    // nccl-tests' listing of its ranks names each GPU's rank by host, pid and device, whichever
    // file lists it (its first process prints every process's lines): the witness where NCCL_DEBUG
    // printed no Init line (WARN, or unset), and the GPUs a process drives where no thread of one
    // of them printed a line. After the Init lines, which say the same where both are.
    {
        std::vector<std::vector<std::pair<int, int>>> listed(a.processes.size()); // (device, rank)
        // Without an Init line, the listing says how many ranks the job has: one line each.
        const bool worldFromInit = a.coverage.worldRanks > 0;
        for (std::size_t s = 0; s < scans.size(); ++s)
            for (const auto& t : scans[s].testsDevices) {
                if (!worldFromInit && t.rank >= a.coverage.worldRanks && t.rank < kMostRanks) {
                    a.coverage.worldRanks = t.rank + 1;
                    a.coverage.source = LineRef{SourceId(static_cast<std::uint32_t>(s)), t.line};
                    a.coverage.fromTestsListing = true;
                }
                const LocalKey key{t.host, t.pid};
                const auto it = byKey.find(&key);
                if (it == byKey.end())
                    continue; // a process with no line of its own in the bundle
                auto& l = listed[it->second.value];
                if (std::none_of(l.begin(), l.end(), [&](const auto& dr) { return dr.first == t.device; }))
                    l.emplace_back(t.device, t.rank);
            }
        for (std::size_t i = 0; i < listed.size(); ++i) {
            auto& l = listed[i];
            if (l.empty())
                continue;
            Process& p = a.processes[i];
            std::sort(l.begin(), l.end());
            for (const auto& dr : l)
                p.devices |= deviceBit(dr.first);
            if (p.rank)
                continue;
            p.rank = l.front().second;
            p.identitySource = "nccl-tests";
            if (l.size() > 1)
                p.deviceRanks = std::move(l);
        }
    }
    // NCCL 2.20.3+ says each process's local rank on its node and how many nodes the job has, once
    // per communicator: the largest communicator's line says it of the job.
    {
        std::vector<int> nodesRanks(a.processes.size(), 0); // per process, the nRanks of the line read
        int largest = 0;
        for (std::size_t s = 0; s < a.sources.size(); ++s)
            for (const auto& nl : scans[s].nodesLines) {
                const ProcessId pid = keyedProcess(s, nl.line);
                if (!pid.valid())
                    continue;
                if (nl.nranks > largest) {
                    largest = nl.nranks;
                    a.coverage.worldNodes = nl.nnodes;
                }
                if (nl.nranks <= nodesRanks[pid.value])
                    continue;
                nodesRanks[pid.value] = nl.nranks;
                a.processes[pid.value].localRank = nl.localRank;
            }
        if (largest != a.coverage.worldRanks)
            a.coverage.worldNodes = 0; // a line of another communicator than the Init lines' largest
    }
    // Launcher prefixes on NCCL lines name the rank when no Init line did.
    for (std::size_t s = 0; s < a.sources.size(); ++s)
        for (std::size_t k = 0; k < scans[s].keys.size(); ++k)
            if (keyProcess[s][k].valid() && scans[s].keyDecoRank[k] >= 0 &&
                !a.processes[keyProcess[s][k].value].rank) {
                a.processes[keyProcess[s][k].value].rank = scans[s].keyDecoRank[k];
                a.processes[keyProcess[s][k].value].identitySource = "launcher-prefix";
            }
    // A worker's record in torchelastic's failure box names its global and local rank: after NCCL's
    // Init lines and a launcher's prefix, which the worker printed itself.
    for (std::size_t s = 0; s < a.sources.size(); ++s)
        for (const ElasticKey& e : scans[s].elastic) {
            a.elasticRecords.push_back(
                {SourceId(static_cast<std::uint32_t>(s)), e.from, e.end, e.timeUs, e.rootCause});
            const ProcessId id = keyProcess[s][e.key];
            if (!id.valid())
                continue;
            Process& p = a.processes[id.value];
            if (!p.rank) {
                p.rank = e.rank;
                p.identitySource = "torchelastic-box";
            } else if (*p.rank != e.rank) {
                p.identityConflicts.push_back("torchelastic's failure box in " + a.sources[s].displayPath +
                                              " says rank " + std::to_string(e.rank) + "; kept rank " +
                                              std::to_string(*p.rank) + " from " + p.identitySource);
            }
            if (!p.localRank && e.localRank >= 0)
                p.localRank = e.localRank;
            if (!p.attempt)
                p.attempt = e.attempt;
        }
    // A pdsh/collector prefix that is an address gives a process its address when NCCL did not.
    for (std::size_t s = 0; s < a.sources.size(); ++s)
        for (std::size_t k = 0; k < scans[s].keys.size(); ++k)
            if (keyProcess[s][k].valid() && !scans[s].keyDecoHost[k].empty() &&
                a.processes[keyProcess[s][k].value].address.empty() &&
                scans[s].keyDecoHost[k].find_first_not_of("0123456789.:abcdefABCDEF") == std::string::npos)
                a.processes[keyProcess[s][k].value].address = scans[s].keyDecoHost[k];
    // A host's console in a launcher's or collector's stream (pdsh's "worker-3: ", kubectl's
    // "[pod/<pod>/<container>] ": LocalKey::hostStream) is the process's whose NCCL lines carry the
    // same prefix in this source, where they are one process's: as a file's other lines are where
    // one process wrote its NCCL lines. With several, it stays the host's, its rank unknown (a pod
    // of eight GPUs runs eight ranks, and kubectl writes their output as one).
    std::set<std::pair<std::size_t, std::uint32_t>> sharedConsoles; // (source, key) that stayed the host's
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const auto& keys = scans[s].keys;
        if (std::none_of(keys.begin(), keys.end(), [](const LocalKey& k) { return k.hostStream; }))
            continue;
        std::unordered_map<std::string_view, ProcessId> only; // a prefix's host -> its one NCCL process
        for (std::size_t k = 0; k < keys.size(); ++k)
            if (!keys[k].hostStream && keys[k].pid >= 0 && keyProcess[s][k].valid() &&
                !scans[s].keyDecoHost[k].empty()) {
                auto [it, added] = only.try_emplace(scans[s].keyDecoHost[k], keyProcess[s][k]);
                if (!added && it->second != keyProcess[s][k])
                    it->second = ProcessId{};
            }
        // Where no NCCL line carries the prefix, "host: " is a program's own (nccl-tests' "node-a:
        // Test NCCL failure common.cu:958 '...'", printed with its hostname): the line is the
        // process's whose NCCL prefix names that host, where one does in this source.
        std::unordered_map<std::string_view, ProcessId> ownHost; // NCCL prefix host -> its one process
        for (std::size_t k = 0; k < keys.size(); ++k)
            if (!keys[k].hostStream && keys[k].pid >= 0 && !keys[k].host.empty() &&
                keyProcess[s][k].valid()) {
                auto [it, added] = ownHost.try_emplace(keys[k].host, keyProcess[s][k]);
                if (!added && it->second != keyProcess[s][k])
                    it->second = ProcessId{};
            }
        for (std::size_t k = 0; k < keys.size(); ++k) {
            if (!keys[k].hostStream)
                continue;
            if (auto it = only.find(keys[k].host); it != only.end()) {
                if (it->second.valid())
                    keyProcess[s][k] = it->second;
                else
                    sharedConsoles.emplace(s, static_cast<std::uint32_t>(k));
            } else if (auto own = ownHost.find(keys[k].host);
                       own != ownHost.end() && own->second.valid() && only.empty()) {
                keyProcess[s][k] = own->second;
            }
        }
    }
    // A Ray worker's lines carry its tag, "(RayWorker pid=285, ip=10.0.0.2) " (no address on the
    // driver's own node), NCCL's among them, whose own prefix names the host: a line with the tag
    // alone is the process's whose NCCL lines carry the same tag in this source (the same pid at
    // that address, or the one NCCL process of that pid), not one of its own.
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const auto& keys = scans[s].keys;
        if (std::none_of(keys.begin(), keys.end(),
                         [](const LocalKey& k) {
                             return !k.byRank() && !k.hostStream && k.pid >= 0 && k.host.empty();
                         }) &&
            std::all_of(scans[s].keyDecoHost.begin(), scans[s].keyDecoHost.end(),
                        [](const std::string& h) { return h.empty(); }))
            continue;
        // (the tag's address, pid) -> the NCCL process, or none where two share it.
        std::map<std::pair<std::string_view, std::int64_t>, ProcessId> tagged;
        for (std::size_t k = 0; k < keys.size(); ++k)
            if (!keys[k].byRank() && !keys[k].hostStream && keys[k].pid >= 0 && !keys[k].host.empty() &&
                keyProcess[s][k].valid() && scans[s].keyDecoHost[k] != keys[k].host) {
                auto [it, added] =
                    tagged.try_emplace({scans[s].keyDecoHost[k], keys[k].pid}, keyProcess[s][k]);
                if (!added && it->second != keyProcess[s][k])
                    it->second = ProcessId{};
            }
        for (std::size_t k = 0; k < keys.size(); ++k)
            if (!keys[k].byRank() && !keys[k].hostStream && keys[k].pid >= 0)
                if (const auto it = tagged.find({keys[k].host, keys[k].pid});
                    it != tagged.end() && it->second.valid())
                    keyProcess[s][k] = it->second;
    }
    // The first process (lowest id) with each rank. Built when the ranks it depends on are known and
    // kept up to date as processes are added, so that looking a rank up per source or per key does
    // not scan every process (quadratic on bundles of thousands of files).
    std::unordered_map<int, ProcessId> firstWithRank;
    auto indexRanks = [&] {
        firstWithRank.clear();
        for (const auto& p : a.processes) {
            if (p.rank)
                firstWithRank.emplace(*p.rank, p.id);
            for (const auto& dr : p.deviceRanks)
                firstWithRank.emplace(dr.second, p.id);
        }
    };
    auto processWithRank = [&firstWithRank](int rank) -> ProcessId {
        auto it = firstWithRank.find(rank);
        return it == firstWithRank.end() ? ProcessId{} : it->second;
    };
    // The process each source's undecorated, unprefixed lines belong to. The path is the weakest
    // witness: it fills gaps and is reported when it disagrees with NCCL's own lines.
    std::vector<ProcessId> defaultProcess(a.sources.size());
    std::vector<std::size_t> ncclKeys(a.sources.size(), 0);
    auto applyPath = [](Process& p, const PathIdentity& pi, const std::string& file) {
        if (pi.rank) {
            if (!p.rank) {
                p.rank = pi.rank;
                p.identitySource = pi.series >= 0 ? "file-name-series" : "file-name";
            } else if (*p.rank != *pi.rank) {
                p.identityConflicts.push_back("file name " + file + " says rank " + std::to_string(*pi.rank) +
                                              "; kept rank " + std::to_string(*p.rank) + " from " +
                                              p.identitySource);
            }
        }
        if (pi.localRank && !p.localRank)
            p.localRank = pi.localRank;
        else if (pi.localRank && *p.localRank != *pi.localRank)
            p.identityConflicts.push_back("file name " + file + " says local rank " +
                                          std::to_string(*pi.localRank) + "; kept local rank " +
                                          std::to_string(*p.localRank) + " from the process's own lines");
        if (pi.attempt && !p.attempt)
            p.attempt = pi.attempt;
        if (!pi.host.empty()) {
            if (p.host.empty())
                p.host = pi.host;
            else if (p.host != pi.host && pi.host.rfind(p.host, 0) != 0)
                p.identityConflicts.push_back("path " + file + " suggests host " + pi.host + "; kept " +
                                              p.host + " from the NCCL prefix");
        }
    };
    // A key that only box records gave (the agent printed the box; no line of that worker's own
    // is in the file) says whose the records are, not whose the file is.
    auto boxOnlyKeys = [&](std::size_t s) {
        std::vector<char> only;
        if (scans[s].elastic.empty())
            return only;
        only.assign(scans[s].keys.size(), 0);
        for (const ElasticKey& e : scans[s].elastic)
            only[e.key] = 1;
        const SourceLines& sl = a.lines[s];
        std::size_t record = 0; // the records are in line order
        for (std::uint32_t i = 0; i < sl.size(); ++i) {
            while (record < scans[s].elastic.size() && scans[s].elastic[record].end <= i)
                ++record;
            const bool inRecord = record < scans[s].elastic.size() && scans[s].elastic[record].from <= i;
            const std::uint32_t k = sl.process(i).value;
            if (!inRecord && k != kNoKey && k < only.size())
                only[k] = 0;
        }
        return only;
    };
    // A torchrun --log-dir worker's folder ("<run_id>/attempt_<n>/<local_rank>"): its stdout.log,
    // stderr.log and error.json are one worker's, whether or not the path names the node (a tree
    // opened from inside a node's folder, or tarred there, does not).
    auto workerFolder = [&](std::size_t s) -> std::string_view {
        const PathIdentity& pi = pathIdentity[s];
        if (!pi.attempt || pi.deepSpeed || !pi.localRank)
            return {};
        const std::string_view path = a.sources[s].displayPath;
        const std::size_t cut = path.find_last_of("/!");
        return cut == std::string_view::npos ? std::string_view{} : path.substr(0, cut);
    };
    // A numbered series of files (numberedSeries) counts something other than ranks where one of
    // its files holds several processes, or its own lines name a rank other than its number (nodes
    // of eight GPUs each, a job per file): the number is taken back from all of them.
    {
        std::set<int> notRanks;
        for (std::size_t s = 0; s < a.sources.size(); ++s) {
            const PathIdentity& pi = pathIdentity[s];
            if (pi.series < 0)
                continue;
            ProcessId one;
            bool several = !scans[s].consoleRanks.empty();
            for (std::size_t k = 0; k < scans[s].keys.size() && !several; ++k) {
                const LocalKey& key = scans[s].keys[k];
                if (key.hostStream || (key.byRank() && key.rank != *pi.rank) ||
                    (scans[s].keyDecoRank[k] >= 0 && scans[s].keyDecoRank[k] != *pi.rank))
                    several = true;
                else if (keyProcess[s][k].valid() && !key.byRank()) {
                    several = one.valid() && one != keyProcess[s][k];
                    one = keyProcess[s][k];
                }
            }
            if (one.valid() && a.processes[one.value].rank && *a.processes[one.value].rank != *pi.rank)
                several = true;
            for (const auto& r : scans[s].rankLines)
                if (!r.init && r.rank != *pi.rank)
                    several = true;
            if (several)
                notRanks.insert(pi.series);
        }
        for (PathIdentity& pi : pathIdentity)
            if (pi.series >= 0 && notRanks.count(pi.series)) {
                pi.rank.reset();
                pi.series = -1;
            }
    }
    std::map<std::string_view, ProcessId> lastInFolder;
    // The process of each (series, number) of a numbered series: "train-88200-3.err" is the process
    // of "train-88200-3.out", not of another job's rank 3 in the same folder ("train-88123-3.out").
    std::map<std::pair<int, int>, ProcessId> seriesProcess;
    // First the files that one named process wrote, so their path facts are known before the
    // files that need them (stderr.log beside stdout.log).
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        ProcessId only;
        const std::vector<char> boxOnly = boxOnlyKeys(s);
        for (std::size_t k = 0; k < keyProcess[s].size(); ++k)
            if (keyProcess[s][k].valid() && !scans[s].keys[k].byRank() && scans[s].keys[k].pid >= 0 &&
                (boxOnly.empty() || !boxOnly[k])) {
                ++ncclKeys[s];
                only = keyProcess[s][k];
            }
        if (ncclKeys[s] == 1) {
            defaultProcess[s] = only;
            applyPath(a.processes[only.value], pathIdentity[s], a.sources[s].displayPath);
            if (pathIdentity[s].series >= 0)
                seriesProcess.emplace(std::pair{pathIdentity[s].series, *pathIdentity[s].rank}, only);
            if (const std::string_view folder = workerFolder(s); !folder.empty())
                lastInFolder[folder] = only;
        } else if (ncclKeys[s] > 1) {
            // A driver among tagged workers (Ray's and vLLM's "(RayWorker pid=N) " before the
            // workers' lines only): where exactly one process printed NCCL lines with nothing
            // before them, the file's other lines with nothing before them are its too. The path
            // says nothing of it: the file is several processes'.
            ProcessId bare;
            std::size_t bareKeys = 0;
            for (std::size_t k = 0; k < keyProcess[s].size(); ++k)
                if (keyProcess[s][k].valid() && scans[s].keyBare[k] && (boxOnly.empty() || !boxOnly[k]) &&
                    keyProcess[s][k] != bare) {
                    ++bareKeys;
                    bare = keyProcess[s][k];
                }
            if (bareKeys == 1)
                defaultProcess[s] = bare;
        }
    }
    // The last process (highest id) on each (host, local rank, attempt), for the files of one local
    // rank that name no process; kept up to date like firstWithRank.
    using LocalSlot = std::tuple<std::string, int, std::optional<int>>;
    std::map<LocalSlot, ProcessId> lastInSlot;
    auto indexSlot = [&lastInSlot](const Process& p) {
        if (!p.host.empty() && p.localRank)
            lastInSlot[LocalSlot{p.host, *p.localRank, p.attempt}] = p.id;
    };
    indexRanks();
    for (const auto& p : a.processes)
        indexSlot(p);
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const std::string& file = a.sources[s].displayPath;
        const PathIdentity& pi = pathIdentity[s];
        const auto sibling =
            pi.series >= 0 ? seriesProcess.find(std::pair{pi.series, *pi.rank}) : seriesProcess.end();
        if (defaultProcess[s].valid()) {
            continue;
        } else if (ncclKeys[s] == 0 && sibling != seriesProcess.end()) {
            defaultProcess[s] = sibling->second;
        } else if (ncclKeys[s] == 0 && pi.rank && processWithRank(*pi.rank).valid()) {
            defaultProcess[s] = processWithRank(*pi.rank);
            if (pi.series >= 0)
                seriesProcess.emplace(std::pair{pi.series, *pi.rank}, defaultProcess[s]);
        } else {
            // Several processes share this file (or none is named): undecorated lines get a
            // process of the file's own, which the path may identify.
            ProcessId same;
            const std::string_view folder = ncclKeys[s] == 0 ? workerFolder(s) : std::string_view{};
            if (auto it = lastInFolder.find(folder); !folder.empty() && it != lastInFolder.end())
                same = it->second;
            if (!same.valid() && ncclKeys[s] == 0 && !pi.host.empty() && pi.localRank) {
                // stdout.log and stderr.log of one local rank
                auto it = lastInSlot.find(LocalSlot{pi.host, *pi.localRank, pi.attempt});
                if (it != lastInSlot.end())
                    same = it->second;
            }
            if (same.valid()) {
                defaultProcess[s] = same;
            } else {
                Process& p = newProcess();
                if (ncclKeys[s] == 0)
                    applyPath(p, pi, file);
                // A kernel log with the driver's GPU lines ("node-b/dmesg.txt", "dmesg-node-b.txt"):
                // the host its path names, of those the job's processes name, says whose GPUs.
                if (p.host.empty() && !scans[s].gpuLines.empty())
                    p.host = hostNamedIn(file, a.processes);
                if (p.rank)
                    firstWithRank.emplace(*p.rank, p.id);
                if (ncclKeys[s] == 0 && pi.series >= 0)
                    seriesProcess.emplace(std::pair{pi.series, *pi.rank}, p.id);
                indexSlot(p);
                if (!folder.empty())
                    lastInFolder[folder] = p.id;
                defaultProcess[s] = p.id;
            }
        }
    }
    // PyTorch's "[Rank N]" on a source's own lines.
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        for (const auto& r : scans[s].rankLines) {
            if (r.init)
                continue;
            ProcessId pid = keyedProcess(s, r.line);
            const std::uint32_t key = a.lines[s].process(r.line).value;
            if (!pid.valid() && key == kNoKey)
                pid = defaultProcess[s];
            // A host's console that several processes' NCCL lines share the prefix of is not the
            // rank's its "[Rank N]" names.
            if (!pid.valid() || sharedConsoles.count({s, key}))
                continue;
            Process& p = a.processes[pid.value];
            if (!p.rank) {
                p.rank = r.rank;
                p.identitySource = "pytorch";
            }
        }
    }
    indexRanks(); // "[Rank N]" lines may have named more ranks
    // A console several ranks wrote into without prefixes: PyTorch's "[Rank R]" lines are rank R's
    // (the process with that rank, or one of its own on the file's host); the file's other lines
    // stay with the file's process.
    std::vector<std::vector<std::pair<std::uint32_t, ProcessId>>> consoleLines(a.sources.size());
    for (std::size_t s = 0; s < a.sources.size(); ++s)
        for (const auto& [line, rank] : scans[s].consoleRanks) {
            ProcessId pid = processWithRank(rank);
            if (!pid.valid()) {
                const std::string host =
                    defaultProcess[s].valid() ? a.processes[defaultProcess[s].value].host : std::string{};
                Process& p = newProcess();
                p.rank = rank;
                p.host = host;
                p.identitySource = "pytorch";
                firstWithRank.emplace(rank, p.id);
                pid = p.id;
            }
            consoleLines[s].push_back({line, pid});
        }
    // Rank-only keys now map to the process with that rank, or a process of their own. The source's
    // own process comes first: the one whose NCCL lines carry the same prefix (torchrun's
    // "[default1]:" is a local rank: in a second node's file it is that node's local rank 1), else
    // the one with that rank (with every attempt or launch read, rank 2's "[rank2]:" lines in the
    // second launch's file are that launch's rank 2, not the first's).
    std::map<int, ProcessId> rankProcess;
    // Per source, the ranks that several of its NCCL processes printed under (a job that ran again
    // with its output appended to the same stream): their rank-only lines are placed by position
    // when every line is assigned (below), rather than all given to the first run's process.
    std::vector<std::unordered_map<int, std::vector<ProcessId>>> repeatedRanks(a.sources.size());
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        std::unordered_map<int, ProcessId> byPrefix, byRank;
        bool ownKnown = false;
        for (std::size_t k = 0; k < scans[s].keys.size(); ++k) {
            if (!scans[s].keys[k].byRank())
                continue;
            int r = scans[s].keys[k].rank;
            if (!ownKnown) {
                ownKnown = true;
                std::unordered_map<int, std::vector<ProcessId>> several;
                auto note = [&several](int rank, ProcessId id) {
                    auto& list = several[rank];
                    if (std::find(list.begin(), list.end(), id) == list.end())
                        list.push_back(id);
                };
                auto add = [&](ProcessId id) {
                    if (id.valid() && a.processes[id.value].rank)
                        byRank.emplace(*a.processes[id.value].rank, id);
                };
                for (std::size_t k2 = 0; k2 < scans[s].keys.size(); ++k2) {
                    if (scans[s].keys[k2].byRank() || !keyProcess[s][k2].valid())
                        continue;
                    add(keyProcess[s][k2]);
                    if (scans[s].keyDecoRank[k2] >= 0) {
                        byPrefix.emplace(scans[s].keyDecoRank[k2], keyProcess[s][k2]);
                        note(scans[s].keyDecoRank[k2], keyProcess[s][k2]);
                    } else if (const auto& rank = a.processes[keyProcess[s][k2].value].rank;
                               rank && scans[s].keys[k2].pid >= 0) {
                        note(*rank, keyProcess[s][k2]);
                    }
                }
                add(defaultProcess[s]);
                for (auto& [rank, list] : several)
                    if (list.size() > 1)
                        repeatedRanks[s].emplace(rank, std::move(list));
            }
            if (const auto mine = byPrefix.find(r); mine != byPrefix.end()) {
                keyProcess[s][k] = mine->second;
                continue;
            }
            if (const auto mine = byRank.find(r); mine != byRank.end()) {
                keyProcess[s][k] = mine->second;
                continue;
            }
            auto it = rankProcess.find(r);
            if (it == rankProcess.end()) {
                ProcessId found = processWithRank(r);
                if (!found.valid()) {
                    Process& p = newProcess();
                    p.rank = r;
                    p.host = scans[s].keyDecoHost[k];
                    p.identitySource = "launcher-prefix";
                    found = p.id;
                }
                it = rankProcess.emplace(r, found).first;
            }
            keyProcess[s][k] = it->second;
        }
    }
    // In a stream the job ran in again (a rank printed by several NCCL processes one after the
    // other), a rank that started again but failed before NCCL printed anything has one NCCL
    // process, the earlier run's. Where its first line comes again (runOpening) after that
    // process's last line of its own and before the latest run's first NCCL line, its lines from
    // there are a process of their own, of the latest run: not the earlier one's, set aside with it.
    // (rank, the line it starts on, the process) per source, placed when lines are assigned.
    std::vector<std::vector<std::tuple<int, std::uint32_t, ProcessId>>> restartedRanks(a.sources.size());
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        if (repeatedRanks[s].empty())
            continue;
        const SourceLines& sl = a.lines[s];
        const auto n = static_cast<std::uint32_t>(sl.size());
        // The latest run's first NCCL line: the earliest of the repeated ranks' last processes'.
        std::unordered_map<std::uint32_t, std::uint32_t> firstKeyed, lastKeyed; // process -> line
        std::unordered_map<int, std::uint32_t> firstOfRank; // a rank of one NCCL process: its first line
        std::unordered_map<int, ProcessId> onlyProcess;
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t k = sl.process(i).value;
            if (k == kNoKey || !keyProcess[s][k].valid())
                continue;
            const ProcessId p = keyProcess[s][k];
            const Process& proc = a.processes[p.value];
            if (!proc.rank || proc.pid < 0)
                continue;
            if (!scans[s].keys[k].byRank()) {
                firstKeyed.try_emplace(p.value, i);
                lastKeyed[p.value] = i;
            }
            if (!repeatedRanks[s].count(*proc.rank)) {
                firstOfRank.try_emplace(*proc.rank, i);
                onlyProcess.try_emplace(*proc.rank, p);
            }
        }
        std::uint32_t latestStart = n;
        for (const auto& [rank, list] : repeatedRanks[s]) {
            std::uint32_t last = 0;
            for (ProcessId p : list)
                if (const auto it = firstKeyed.find(p.value); it != firstKeyed.end())
                    last = std::max(last, it->second);
            latestStart = std::min(latestStart, last);
        }
        for (const auto& [rank, p] : onlyProcess) {
            const auto last = lastKeyed.find(p.value);
            if (last == lastKeyed.end() || last->second >= latestStart)
                continue;
            const std::string opening = runOpening(a.sources[s].line(firstOfRank[rank]));
            for (std::uint32_t i = latestStart; !opening.empty() && i-- > last->second + 1;) {
                const std::uint32_t k = sl.process(i).value;
                if (k == kNoKey || !scans[s].keys[k].byRank() || scans[s].keys[k].rank != rank ||
                    runOpening(a.sources[s].line(i)) != opening)
                    continue;
                const std::string host = a.processes[p.value].host;
                Process& again = newProcess();
                again.rank = rank;
                again.host = host;
                again.identitySource = "launcher-prefix";
                repeatedRanks[s][rank] = {p, again.id};
                restartedRanks[s].emplace_back(rank, i, again.id);
                break;
            }
        }
    }
    // The driver's kernel lines (an Xid, "GPU has fallen off the bus") name a GPU by its bus, and the
    // host is the kernel log's own (journalctl's "host kernel: ", or a host its path names): such a
    // line is the rank's that ran on that GPU.
    // Where the driver gave a pid, it decides between several; where the host is unknown, and
    // several hosts have a GPU on that bus (identical machines do), the line stays where it is.
    std::vector<std::vector<std::pair<std::uint32_t, ProcessId>>> gpuOwners(a.sources.size());
    if (std::any_of(scans.begin(), scans.end(), [](const SourceScan& sc) { return !sc.gpuLines.empty(); })) {
        std::unordered_multimap<std::uint64_t, ProcessId> onBus; // function 0 of each bus
        for (const auto& p : a.processes)
            if (p.busId)
                onBus.emplace(*p.busId & ~std::uint64_t{0xf}, p.id);
        for (std::size_t s = 0; s < a.sources.size(); ++s) {
            for (const auto& x : scans[s].gpuLines) {
                const std::uint32_t k = a.lines[s].process(x.line).value;
                const ProcessId from = k == kNoKey ? defaultProcess[s] : keyProcess[s][k];
                const std::string host = from.valid() ? a.processes[from.value].host : std::string{};
                std::vector<ProcessId> onGpu, withPid;
                for (auto [it, end] = onBus.equal_range(x.bus); it != end; ++it) {
                    const Process& p = a.processes[it->second.value];
                    if (!host.empty() && !sameHost(p.host, host))
                        continue;
                    onGpu.push_back(p.id);
                    if (x.pid >= 0 && p.pid == x.pid)
                        withPid.push_back(p.id);
                }
                if (withPid.size() == 1)
                    gpuOwners[s].push_back({x.line, withPid.front()});
                else if (onGpu.size() == 1 && (x.pid < 0 || withPid.empty()))
                    gpuOwners[s].push_back({x.line, onGpu.front()});
                else if (onGpu.size() > 1)
                    a.gpuCandidates.push_back(
                        {{SourceId(static_cast<std::uint32_t>(s)), x.line}, x.bus, std::move(onGpu)});
                // The stream the driver's line is in is a kernel log (a host's, where known), not a
                // process of the job: said as such where nothing else named it.
                if (from.valid()) {
                    Process& log = a.processes[from.value];
                    if (!log.rank && log.pid < 0 && log.identitySource.empty())
                        log.identitySource = "kernel-log";
                }
            }
        }
    }
    // NCCL's "Channel" connection lines name the printing process's rank in the communicator they
    // connect, and its proxy thread's "[Proxy Service R] Failed to execute operation ..." WARN its
    // rank R in the communicator that failed (the WARN of a connect failure at NCCL_DEBUG=WARN,
    // where no Init or Channel line is printed: nccl#952, nccl#914, nccl#795, nccl-tests#166).
    // The last witnesses, for a process that nothing else gave a rank (a paste without Init lines, a
    // release that prints "Init START" only after bootstrap). Only where every such line of the
    // process names one rank (several communicators give several), and no other process has it
    // already (a sub-communicator's rank 0 is not the world's). A Channel line is printed by
    // whichever thread connects, so it is taken only where the process's NCCL lines name one device
    // (a process driving eight GPUs is eight ranks: nccl-tests#166); the proxy thread runs on its
    // communicator's GPU, so its WARN names that GPU's rank in a process of several.
    {
        const std::size_t n = a.processes.size();
        std::vector<int> channelRank(n, -1);
        for (std::size_t s = 0; s < a.sources.size(); ++s)
            for (std::size_t k = 0; k < scans[s].keyChannelRank.size(); ++k)
                if (keyProcess[s][k].valid()) {
                    int& c = channelRank[keyProcess[s][k].value];
                    c = mergeOne(c, scans[s].keyChannelRank[k]);
                }
        // (process, device) -> the rank its proxy WARNs name, kSeveral where they differ.
        std::map<std::pair<std::size_t, int>, int> proxyOnDevice;
        for (std::size_t s = 0; s < a.sources.size(); ++s)
            for (const ProxyRank& r : scans[s].proxyRanks)
                if (const ProcessId pid = keyProcess[s][r.key]; pid.valid()) {
                    auto [it, added] = proxyOnDevice.try_emplace({pid.value, r.device}, r.rank);
                    if (!added)
                        it->second = mergeOne(it->second, r.rank);
                }
        struct Witness {
            std::size_t process;
            const char* source;
            std::vector<std::pair<int, int>> deviceRanks; // a process of several GPUs: (device, rank)
        };
        std::map<int, std::vector<Witness>> byRank;
        for (std::size_t i = 0; i < n; ++i) {
            const Process& p = a.processes[i];
            if (p.rank)
                continue;
            // The process's proxy WARNs: its rank on each GPU they name, and over all of them.
            std::vector<std::pair<int, int>> deviceRanks;
            int x = -1;
            for (auto it = proxyOnDevice.lower_bound({i, INT_MIN});
                 it != proxyOnDevice.end() && it->first.first == i; ++it) {
                x = mergeOne(x, it->second);
                if (it->second >= 0)
                    deviceRanks.emplace_back(it->first.second, it->second);
            }
            if (!p.severalDevices()) {
                const int c = channelRank[i];
                if (c == kSeveral || x == kSeveral || (c >= 0 && x >= 0 && c != x))
                    continue; // the witnesses disagree: none is taken
                if (c >= 0)
                    byRank[c].push_back({i, "nccl-channel", {}});
                else if (x >= 0)
                    byRank[x].push_back({i, "nccl-proxy", {}});
                continue;
            }
            if (!deviceRanks.empty()) {
                const int first = deviceRanks.front().second;
                byRank[first].push_back({i, "nccl-proxy", std::move(deviceRanks)});
            }
        }
        // Each rank a witness would give, and how many witnesses would give it: a rank is taken only
        // where one process's witness names it and no process holds it already.
        std::map<int, int> claims;
        for (const auto& [rank, witnesses] : byRank)
            for (const Witness& w : witnesses) {
                if (w.deviceRanks.empty())
                    ++claims[rank];
                for (const auto& dr : w.deviceRanks)
                    ++claims[dr.second];
            }
        auto unclaimed = [&](int rank) { return claims[rank] == 1 && !processWithRank(rank).valid(); };
        bool named = false;
        for (auto& [rank, witnesses] : byRank)
            for (Witness& w : witnesses) {
                if (!unclaimed(rank) || !std::all_of(w.deviceRanks.begin(), w.deviceRanks.end(),
                                                     [&](const auto& dr) { return unclaimed(dr.second); }))
                    continue;
                Process& p = a.processes[w.process];
                p.rank = rank;
                p.identitySource = w.source;
                p.deviceRanks = std::move(w.deviceRanks);
                named = true;
            }
        if (named)
            indexRanks();
    }
    for (std::size_t s = 0; s < scans.size(); ++s)
        if (scans[s].openingTrail >= 0)
            a.openingTrails.push_back(
                {SourceId(static_cast<std::uint32_t>(s)), static_cast<std::uint32_t>(scans[s].openingTrail)});
    // Assign every line, source by source on every core; note which processes each source holds.
    std::vector<std::vector<std::uint32_t>> sourceProcesses(a.sources.size());
    parallelFor(a.sources.size(), workers, [&](std::size_t s) {
        SourceLines& sl = a.lines[s];
        const std::uint32_t n = static_cast<std::uint32_t>(sl.size());
        std::vector<std::uint32_t>& held = sourceProcesses[s];
        // The processes seen, each once: a combined stream changes process every few lines, and
        // keeping every change would sort a list as long as the file's runs.
        std::unordered_set<std::uint32_t> heldSet;
        auto hold = [&held, &heldSet](std::uint32_t p) {
            if (!held.empty() && held.back() == p)
                return;
            if (held.size() < 32) {
                if (std::find(held.begin(), held.end(), p) == held.end())
                    held.push_back(p);
                if (held.size() == 32)
                    heldSet.insert(held.begin(), held.end());
            } else if (heldSet.insert(p).second) {
                held.push_back(p);
            }
        };
        // A source whose keys all name its default process (a file one rank wrote) gives every line
        // that process, blank lines included (they take a key's process, which is the same one):
        // nothing to do per line.
        if (consoleLines[s].empty() && gpuOwners[s].empty() &&
            std::all_of(keyProcess[s].begin(), keyProcess[s].end(),
                        [&](ProcessId p) { return !p.valid() || p == defaultProcess[s]; })) {
            if (n > 0) {
                sl.assignAll(defaultProcess[s]);
                held.push_back(defaultProcess[s].value);
            }
            sl.shrink();
            return;
        }
        // A repeated rank's processes (repeatedRanks) by the line each run of it starts on, in line
        // order: a rank-only line is the one's that started last before it (the first one's before
        // any of them).
        std::unordered_map<int, std::vector<std::pair<std::uint32_t, ProcessId>>> runsOfRank;
        if (!repeatedRanks[s].empty()) {
            std::unordered_map<std::uint32_t, int> rankOf; // process -> its repeated rank
            for (const auto& [rank, list] : repeatedRanks[s])
                for (ProcessId p : list)
                    rankOf.emplace(p.value, rank);
            std::unordered_map<std::uint32_t, std::uint32_t> lastKeyed; // process -> its last own line
            std::unordered_map<int, std::uint32_t> firstOfRank;         // the rank's first line here
            for (std::uint32_t i = 0; i < n; ++i) {
                const std::uint32_t k = sl.process(i).value;
                if (k == kNoKey)
                    continue;
                const LocalKey& key = scans[s].keys[k];
                if (key.byRank()) {
                    if (repeatedRanks[s].count(key.rank))
                        firstOfRank.try_emplace(key.rank, i);
                    continue;
                }
                if (!keyProcess[s][k].valid())
                    continue;
                const ProcessId p = keyProcess[s][k];
                const auto it = rankOf.find(p.value);
                if (it == rankOf.end())
                    continue;
                firstOfRank.try_emplace(it->second, i);
                if (lastKeyed.insert_or_assign(p.value, i).second)
                    runsOfRank[it->second].push_back({i, p});
            }
            // A run's own lines begin before its first NCCL line: its start-up lines, and whatever
            // it printed before NCCL did (a rank that failed loading its model, say). The program
            // prints what it printed the first time, so where the rank's first line here comes
            // again, after the run before had printed its last line of its own, the next run has
            // begun (numbers aside: times, pids). The last such line before the next run's first
            // NCCL line: a first line printed again and again within a run (a warning each epoch)
            // would otherwise cut the run before short. Without one, the next run begins at its
            // first NCCL line, and what comes before is the run before's.
            for (auto& [rank, runs] : runsOfRank) {
                const std::string opening = runOpening(a.sources[s].line(firstOfRank[rank]));
                for (std::size_t r = 1; r < runs.size() && !opening.empty(); ++r) {
                    const std::uint32_t after = lastKeyed[runs[r - 1].second.value];
                    for (std::uint32_t i = runs[r].first; i-- > after + 1;) {
                        const std::uint32_t k = sl.process(i).value;
                        if (k != kNoKey && scans[s].keys[k].byRank() && scans[s].keys[k].rank == rank &&
                            runOpening(a.sources[s].line(i)) == opening) {
                            runs[r].first = i;
                            break;
                        }
                    }
                }
            }
            for (const auto& [rank, from, again] : restartedRanks[s]) {
                auto& runs = runsOfRank[rank];
                runs.emplace_back(from, again);
                std::sort(runs.begin(), runs.end(),
                          [](const auto& x, const auto& y) { return x.first < y.first; });
            }
        }
        sl.assignProcesses([&](std::uint32_t i) {
            if (const ProcessId gpu = ownerOf(gpuOwners[s], i); gpu.valid())
                return gpu;
            std::uint32_t k = sl.process(i).value;
            if (!runsOfRank.empty() && k != kNoKey && scans[s].keys[k].byRank())
                if (const auto it = runsOfRank.find(scans[s].keys[k].rank); it != runsOfRank.end()) {
                    const auto& runs = it->second;
                    auto next =
                        std::upper_bound(runs.begin(), runs.end(), std::make_pair(i, ProcessId{}),
                                         [](const auto& x, const auto& y) { return x.first < y.first; });
                    return next == runs.begin() ? runs.front().second : std::prev(next)->second;
                }
            // A "[Rank N]" line of a host's console (LocalKey::hostStream) several ranks wrote is
            // rank N's, as such a line with no prefix at all.
            if (!consoleLines[s].empty() && k != kNoKey && scans[s].keys[k].hostStream)
                if (const ProcessId console = ownerOf(consoleLines[s], i); console.valid())
                    return console;
            ProcessId pid = k == kNoKey ? ProcessId{} : keyProcess[s][k];
            if (!pid.valid() && ncclKeys[s] != 1 &&
                std::binary_search(scans[s].blankLines.begin(), scans[s].blankLines.end(), i)) {
                // In a stream shared by several processes, a blank line is the newline NCCL prints
                // in front of each WARN: it belongs to the next prefixed line. (A stream of one NCCL
                // process gives its blank lines to it; one whose prefixes name ranks or hosts only,
                // to the next line's too, rather than to a process of the file's own.)
                for (std::uint32_t j = i + 1; j < n && j <= i + kBlankLookahead; ++j) {
                    std::uint32_t kj = sl.process(j).value;
                    if (kj != kNoKey && keyProcess[s][kj].valid()) {
                        pid = keyProcess[s][kj];
                        break;
                    }
                }
                // None follows, nothing does but more of them (the stream's last lines): the line
                // before takes them.
                const auto& blanks = scans[s].blankLines;
                const bool tail =
                    static_cast<std::size_t>(blanks.end() -
                                             std::upper_bound(blanks.begin(), blanks.end(), i)) == n - 1 - i;
                for (std::uint32_t j = i; tail && !pid.valid() && j > 0 && j + kBlankLookahead > i; --j) {
                    std::uint32_t kj = sl.process(j - 1).value;
                    if (kj != kNoKey && keyProcess[s][kj].valid())
                        pid = keyProcess[s][kj];
                }
            }
            if (!pid.valid() && k == kNoKey)
                pid = ownerOf(consoleLines[s], i);
            return pid.valid() ? pid : defaultProcess[s];
        });
        for (std::uint32_t i = 0; i < n; ++i)
            hold(sl.process(i).value);
        std::sort(held.begin(), held.end());
        sl.shrink();
    });
    for (const auto& sl : a.lines)
        a.totalLines += sl.size();
    // Which sources each process appears in; drop processes that own no line; ranked first.
    std::vector<ProcessId> remap;
    {
        // Sources are visited in order, so each process's list comes out sorted.
        for (std::size_t s = 0; s < a.sources.size(); ++s)
            for (std::uint32_t p : sourceProcesses[s])
                a.processes[p].sources.push_back(SourceId(static_cast<std::uint32_t>(s)));
        std::vector<std::uint32_t> order;
        order.reserve(a.processes.size());
        for (std::size_t i = 0; i < a.processes.size(); ++i)
            if (!a.processes[i].sources.empty())
                order.push_back(static_cast<std::uint32_t>(i));
        std::stable_sort(order.begin(), order.end(), [&a](std::uint32_t x, std::uint32_t y) {
            const auto& px = a.processes[x];
            const auto& py = a.processes[y];
            if (px.rank.has_value() != py.rank.has_value())
                return px.rank.has_value();
            return px.rank && *px.rank < *py.rank;
        });
        remap.assign(a.processes.size(), ProcessId{});
        const std::size_t kept = order.size();
        for (std::size_t i = 0; i < kept; ++i)
            remap[order[i]] = ProcessId(static_cast<std::uint32_t>(i));
        // The processes dropped go last, then away: moved in place, not into a second array.
        for (std::size_t i = 0; i < a.processes.size(); ++i)
            if (a.processes[i].sources.empty())
                order.push_back(static_cast<std::uint32_t>(i));
        permuteInPlace(a.processes, order);
        a.processes.erase(a.processes.begin() + static_cast<std::ptrdiff_t>(kept), a.processes.end());
        for (std::size_t i = 0; i < kept; ++i)
            a.processes[i].id = ProcessId(static_cast<std::uint32_t>(i));
        for (auto& g : a.gpuCandidates) {
            for (ProcessId& p : g.processes)
                p = remap[p.value];
            std::erase_if(g.processes, [](ProcessId p) { return !p.valid(); });
            std::sort(g.processes.begin(), g.processes.end());
        }
    }
    // Every line has its process: what identity needed is not needed again. Given back before the
    // events and hits are reserved (their pages faulted in at once) rather than after them, so that
    // the stages after identity, where ten thousand ranks have their peak, start with less: on
    // 10,000 small files the heap after identity 52.5 -> 50.8 MiB, the peak 0.4 MiB lower.
    auto release = [](auto& v) { std::remove_reference_t<decltype(v)>().swap(v); };
    release(byKey); // points into the scans' keys, freed below
    release(keyProcess);
    release(pathIdentity);
    release(firstWithRank);
    release(defaultProcess);
    release(ncclKeys);
    release(lastInSlot);
    release(rankProcess);
    release(sourceProcesses);
    release(consoleLines);
    release(repeatedRanks);
    // What the stages after identity read of the scans, moved out of them, and the scans freed.
    std::vector<ScanAfterIdentity> later(scans.size());
    std::vector<ScannedEventLines> scannedEvents(scans.size());
    parallelFor(scans.size(), workers, [&](std::size_t s) {
        SourceScan& scan = scans[s];
        later[s] = {std::move(scan.hits), std::move(scan.envText), std::move(scan.tids),
                    std::move(scan.initPhases)};
        scannedEvents[s] = std::move(scan.eventLines);
        scan = SourceScan{};
    });
    release(scans);
    std::size_t environmentHits = 0, fingerprintHits = 0, environmentCaptures = 0;
    // Per source: its first WARN or worse line (its size when none): the loop below that makes an
    // event of each such line, on one core, starts there (most small files have none).
    std::vector<std::uint32_t> firstWarn(a.sources.size());
    // Renumber every line's process and count the lines that will become events, on every core.
    // Reserving the events (and hits) up front spares a doubling vector of hundreds of thousands
    // briefly holding two copies.
    {
        // Per source: events at most, environment hits, fingerprint hits at most, environment hits
        // whose captures are read.
        std::vector<std::array<std::size_t, 4>> counts(a.sources.size());
        parallelFor(a.sources.size(), workers, [&](std::size_t s) {
            SourceLines& sl = a.lines[s];
            std::size_t events = 0, environment = 0, fingerprints = 0, withCaptures = 0;
            sl.renumberProcesses(remap);
            firstWarn[s] = static_cast<std::uint32_t>(sl.size());
            for (std::uint32_t i = 0; i < sl.size(); ++i)
                if (sl.level(i) >= Level::Warn) {
                    firstWarn[s] = std::min(firstWarn[s], i);
                    ++events;
                }
            auto envText = later[s].envText.begin();
            for (std::size_t hi = 0; hi < later[s].hits.size(); ++hi) {
                const ScanHit& h = later[s].hits[hi];
                const ScanPattern& pat = scanner.patterns()[static_cast<std::size_t>(h.pattern)];
                // Context lines below WARN are not events (see below).
                events += pat.eventAtAnyLevel() ||
                          (pat.builtin == Builtin::None && sl.level(h.line) >= Level::Warn);
                const bool readsCaptures = environmentReadsCaptures(pat.builtin);
                // Exactly the hits passed on below: a text the scan read, or captures to read.
                const bool text = envText != later[s].envText.end() && envText->first == hi;
                if (text)
                    ++envText;
                environment += text || readsCaptures;
                withCaptures += readsCaptures;
                fingerprints += pat.builtin == Builtin::None;
            }
            counts[s] = {events, environment, fingerprints, withCaptures};
        });
        release(remap);
        std::size_t n = 0;
        for (const auto& [events, environment, fingerprints, withCaptures] : counts) {
            n += events;
            environmentHits += environment;
            fingerprintHits += fingerprints;
            environmentCaptures += withCaptures;
        }
        // These counts are what the loop below writes, or within a few of it (a symptom and a
        // context hit on one line make one event): their pages are faulted in at once.
        reservePopulated(a.events, n);
    }
    // Several runs of the job in one stream (runsInStreams): each process is numbered by its run,
    // and unless every attempt is asked for, the earlier runs' lines stay readable but make no
    // events and no findings (their processes', and in each stream whatever precedes its latest
    // run), as a torchrun log folder's earlier attempts are set aside.
    std::vector<char> setAside(a.processes.size(), 0);
    std::vector<std::uint32_t> asideBefore(a.sources.size(), 0);
    if (const StreamRuns runs = runsInStreams(a); !runs.run.empty()) {
        std::unordered_map<int, int> lastRun; // rank -> its latest run
        for (const auto& p : a.processes)
            if (runs.run[p.id.value] >= 0)
                lastRun[*p.rank] = std::max(lastRun[*p.rank], runs.run[p.id.value]);
        for (auto& p : a.processes)
            if (runs.run[p.id.value] >= 0) {
                p.attempt = runs.run[p.id.value];
                setAside[p.id.value] = !options.allAttempts && runs.run[p.id.value] < lastRun[*p.rank];
            }
        for (std::size_t s = 0; s < a.sources.size(); ++s) {
            if (!options.allAttempts)
                asideBefore[s] = runs.latestFrom[s];
            // The earlier runs' processes with lines here: repeated ranks' all, as runsInStreams
            // found them while reading the lines.
            const auto& here = runs.repeatedHere[s];
            const auto aside = static_cast<std::size_t>(std::count_if(
                here.begin(), here.end(), [&setAside](std::uint32_t p) { return setAside[p] != 0; }));
            if (aside > 0 || asideBefore[s] > 0)
                a.skipped.push_back(
                    {a.sources[s].displayPath,
                     "lines " +
                         std::string(asideBefore[s] > 0
                                         ? "1 to " + std::to_string(asideBefore[s]) + " and those of "
                                         : "of ") +
                         std::to_string(aside) +
                         " process(es) are an earlier run of the job and make no findings (its "
                         "ranks printed here again, each by a new process, after they had "
                         "ended): the latest run is the one diagnosed; to include earlier ones: "
                         "--all-attempts, or View > Include Earlier Attempts in the window"});
        }
    }
    std::vector<Hit> hits;
    reservePopulated(hits, fingerprintHits);
    EnvironmentHits envHits; // read by collectEnvironment once events exist
    reservePopulated(envHits.hits, environmentHits);
    reservePopulated(envHits.captures, environmentCaptures);
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const SourceId sid(static_cast<std::uint32_t>(s));
        auto makeEvent = [&](std::uint32_t line, EventKind kind) {
            Event e;
            e.where = {sid, line};
            LineInfo li = a.lines[s].info(line);
            e.process = li.process;
            e.level = li.level;
            e.kind = kind;
            e.time = li.time;
            auto t =
                std::lower_bound(later[s].tids.begin(), later[s].tids.end(), std::make_pair(line, INT32_MIN));
            if (t != later[s].tids.end() && t->first == line)
                e.tid = t->second;
            return e;
        };
        std::vector<std::uint32_t> symptomLines;
        // The scan's hits are read once, here: their captures move on (to events, hits, the
        // environment) rather than being copied, and each source's hits are freed when done.
        auto envText = later[s].envText.begin();
        for (std::size_t hi = 0; hi < later[s].hits.size(); ++hi) {
            ScanHit& h = later[s].hits[hi];
            const auto& pat = scanner.patterns()[static_cast<std::size_t>(h.pattern)];
            LineRef where{sid, h.line};
            Process& proc = a.processes[a.lines[s].process(h.line).value];
            // An earlier run's symptoms, tracebacks and exceptions (setAside): no events, no hits.
            const bool aside = setAside[proc.id.value] || h.line < asideBefore[s];
            auto takeCaptures = [&h] {
                Captures caps = std::move(h.captures);
                caps.shrink();
                return caps;
            };
            switch (pat.builtin) {
            case Builtin::None: {
                if (aside)
                    break;
                // The same line may match two fingerprints of one symptom: keep one. Hits come in
                // line order, so only this line's hits need checking.
                bool dup = false;
                for (auto it = hits.rbegin(); it != hits.rend() && it->where == where; ++it)
                    dup = dup || (it->entry == pat.entry && it->symptom == pat.symptom);
                if (dup)
                    break;
                Captures caps = takeCaptures();
                hits.push_back({where, pat.entry, pat.symptom, caps});
                // Context lines (an interface announcement an entry watches) inform checklists but
                // are not marks on the timeline, unless they are WARN or worse.
                if (pat.contextOnly && a.lines[s].level(h.line) < Level::Warn)
                    break;
                // A context line that another entry's symptom marks (a watchdog timeout one entry
                // reads as the failure and another as a condition) is one mark: the symptom's.
                if (!a.events.empty() && a.events.back().where == where &&
                    a.events.back().kind == EventKind::Symptom) {
                    if (pat.contextOnly)
                        break;
                    const Event& last = a.events.back();
                    const Symptom& was = a.entry(last.entry).symptoms[static_cast<std::size_t>(last.symptom)];
                    if (was.phase == Phase::Context && !was.primary)
                        a.events.pop_back();
                }
                Event e = makeEvent(h.line, EventKind::Symptom);
                e.entry = pat.entry;
                e.symptom = pat.symptom;
                e.captures = std::move(caps);
                a.events.push_back(std::move(e));
                symptomLines.push_back(h.line);
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
                if (aside)
                    break;
                Event e = makeEvent(h.line, pat.builtin == Builtin::Traceback ? EventKind::Traceback
                                                                              : EventKind::Exception);
                e.level = Level::Error;
                e.captures = takeCaptures();
                a.events.push_back(std::move(e));
                symptomLines.push_back(h.line);
                break;
            }
            case Builtin::InitLine:
            case Builtin::NodesLine:
            case Builtin::InitPhase:
            case Builtin::TorchRank:
            case Builtin::CudaDriver:
            case Builtin::NcclSetting:
            case Builtin::TorchVersion:
            case Builtin::TorchCuda:
            case Builtin::IbOob:
            case Builtin::NvrmGpu:
            case Builtin::NcclTestsDevice:
                break;
            }
            // After the switch, which still reads the captures of version and address lines.
            if (isEnvironmentBuiltin(pat.builtin)) {
                const EnvironmentLine* text = nullptr;
                if (envText != later[s].envText.end() && envText->first == hi)
                    text = (envText++)->second;
                // Most Init lines say nothing new to the environment (their clues were kept once
                // per process by the scan): only hits that tell it something go on.
                // Their captures go with them only where the environment reads them: the others'
                // are freed with the scan's hits, long before the environment stage.
                const bool captures = environmentReadsCaptures(pat.builtin);
                if (text || captures)
                    envHits.add(where, pat.builtin, text, captures ? &h.captures : nullptr);
            }
        }
        std::vector<ScanHit>().swap(later[s].hits);
        decltype(later[s].envText)().swap(later[s].envText);
        std::sort(symptomLines.begin(), symptomLines.end());
        const SourceLines& sl = a.lines[s];
        for (std::uint32_t i = firstWarn[s]; i < sl.size(); ++i) {
            Level lv = sl.level(i);
            if ((lv != Level::Warn && lv != Level::Error && lv != Level::Fatal) ||
                std::binary_search(symptomLines.begin(), symptomLines.end(), i) || i < asideBefore[s] ||
                (sl.process(i).valid() && setAside[sl.process(i).value]))
                continue;
            a.events.push_back(makeEvent(i, lv == Level::Warn ? EventKind::Warn : EventKind::Error));
        }
    }
    sortEvents(a.events);
    // Made source by source in line order: already sorted (checked, as sorting them again is a
    // tenth of this stage on ten thousand ranks).
    auto byLine = [](const Hit& x, const Hit& y) { return x.where < y.where; };
    if (!std::is_sorted(hits.begin(), hits.end(), byLine))
        std::sort(hits.begin(), hits.end(), byLine);

    release(firstWarn);
    // A process known only by an address (a Ray worker's tag, "ip=10.20.0.7", whose lines include
    // no NCCL line) is on the host whose NCCL lines announce that address as theirs ("Bootstrap :
    // Using eth0:10.20.0.7<0>"): one host, one clock, one row of the timeline. Only where one host
    // name has that address (a container network can give two hosts one).
    {
        auto isAddress = [](const std::string& h) {
            return !h.empty() && (h.find('.') != std::string::npos || h.find(':') != std::string::npos) &&
                   h.find_first_of("0123456789") != std::string::npos &&
                   h.find_first_not_of("0123456789.:abcdefABCDEF") == std::string::npos;
        };
        // Most bundles name every host by name: nothing to look up.
        const bool anyAddressHost = std::any_of(a.processes.begin(), a.processes.end(),
                                                [&](const Process& p) { return isAddress(p.host); });
        std::unordered_map<std::string_view, std::string_view> hostAt; // address -> host ("" if several)
        if (anyAddressHost)
            for (const Process& p : a.processes)
                if (!p.address.empty() && !p.host.empty() && !isAddress(p.host)) {
                    auto [it, added] = hostAt.try_emplace(p.address, p.host);
                    if (!added && it->second != p.host)
                        it->second = std::string_view{};
                }
        if (!hostAt.empty()) {
            // Not where that host already has a process of the same pid (another file's NCCL lines
            // of it): two processes would then bear one name.
            std::set<std::pair<std::string_view, std::int64_t>> named;
            for (const Process& p : a.processes)
                if (!isAddress(p.host))
                    named.emplace(p.host, p.pid);
            std::vector<std::pair<std::size_t, std::string>> renamed;
            for (std::size_t i = 0; i < a.processes.size(); ++i)
                if (const Process& p = a.processes[i]; isAddress(p.host))
                    if (const auto it = hostAt.find(p.host);
                        it != hostAt.end() && !it->second.empty() && !named.count({it->second, p.pid}))
                        renamed.emplace_back(i, std::string(it->second));
            for (auto& [i, host] : renamed) {
                Process& p = a.processes[i];
                if (p.address.empty())
                    p.address = p.host;
                p.host = std::move(host);
            }
        }
    }
    stageDone("identity, events");
    alignClocks(a, later, options);
    // The clock was the last reader (of the init phases; the events read the thread ids). Freed
    // on every core: ten thousand sources' worth of small vectors.
    parallelFor(later.size(), workers, [&later](std::size_t s) { later[s] = ScanAfterIdentity{}; });
    release(later);
    stageDone("clock alignment");

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
    // And as the Flight Recorder dumps name it. "Unknown NCCL version" (PyTorch could not ask
    // NCCL) is no version.
    for (const FlightDump& d : a.flight.dumps) {
        const std::optional<Version> v = Version::parse(d.commLibVersion);
        if (!v || v->major == 0)
            continue;
        auto it = std::find_if(a.nccl.dumps.begin(), a.nccl.dumps.end(),
                               [&](const DumpVersion& dv) { return dv.version == *v; });
        if (it == a.nccl.dumps.end())
            it = a.nccl.dumps.insert(a.nccl.dumps.end(), DumpVersion{*v, d.commLibVersion, {}, {}});
        if (d.rank)
            it->ranks.push_back(*d.rank);
        it->files.push_back(d.file);
    }
    std::sort(a.nccl.dumps.begin(), a.nccl.dumps.end(),
              [](const DumpVersion& x, const DumpVersion& y) { return x.version < y.version; });
    for (DumpVersion& dv : a.nccl.dumps)
        std::sort(dv.ranks.begin(), dv.ranks.end());
    if (localNccl.valid())
        a.nccl.local = localNccl.get();
    collectEnvironment(a, std::move(envHits), std::move(scannedEvents), workers);
    MappedFile::flushDropped();
    stageDone("versions, environment, local NCCL");

    // Stage: merged order over every line on the aligned clock, and the span of parsed time.
    std::vector<std::int64_t> sourceOffsets(a.sources.size(), 0);
    // Each source's span on every core (a stamp of every line, more than a million on ten thousand
    // files), then the bundle's.
    std::vector<TimeInterval> sourceSpans(a.sources.size());
    // And each process's last stamped line in each source: (process, the middle of its interval);
    // most files hold one process, kept without a list of its own (ten thousand small files).
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::pair<std::uint32_t, std::int64_t>> lastStampOne(a.sources.size(), {kNone, 0});
    std::vector<std::vector<std::pair<std::uint32_t, std::int64_t>>> lastStamps(a.sources.size());
    parallelFor(a.sources.size(), workers, [&](std::size_t s) {
        const SourceLines& sl = a.lines[s];
        if (sl.stampCount() == 0)
            return;
        // A source is shifted by its first stamped line's process (combined streams of several
        // hosts keep their written order).
        sourceOffsets[s] = a.processOffset[sl.process(sl.stampLine(0)).value];
        TimeInterval& span = sourceSpans[s];
        const bool one = sl.oneProcess();
        // Where each process is in lastStamps[s]; a run of one process's lines looks it up once. A
        // file with more stamps than the run has processes (a combined stream of thousands of
        // ranks) keeps them in an array by process instead, cheaper than a lookup a line.
        const bool dense = !one && sl.stampCount() >= a.processes.size();
        std::vector<std::int64_t> byProcess(dense ? a.processes.size() : 0, kTimeUnknownLo);
        auto& last = lastStamps[s];
        std::unordered_map<std::uint32_t, std::size_t> slotOf;
        std::size_t lastSlot = 0;
        auto slot = [&](std::uint32_t p) -> std::size_t {
            if (lastSlot < last.size() && last[lastSlot].first == p)
                return lastSlot;
            const auto [it, added] = slotOf.try_emplace(p, last.size());
            if (added)
                last.push_back({p, kTimeUnknownLo});
            return lastSlot = it->second;
        };
        for (std::size_t i = 0; i < sl.stampCount(); ++i) {
            const LineStamp st = sl.stamp(i);
            const ProcessId p = sl.process(st.line);
            const std::int64_t off = a.processOffset[p.value];
            if (!span.knownLo() || st.us + off < span.lo)
                span.lo = st.us + off;
            if (!span.knownHi() || st.us + st.resolutionUs + off > span.hi)
                span.hi = st.us + st.resolutionUs + off;
            if (dense)
                byProcess[p.value] = st.us + st.resolutionUs / 2 + off;
            else if (!one)
                last[slot(p.value)].second = st.us + st.resolutionUs / 2 + off;
        }
        for (std::uint32_t p = 0; p < byProcess.size(); ++p)
            if (byProcess[p] != kTimeUnknownLo)
                last.push_back({p, byProcess[p]});
        if (one) {
            const LineStamp st = sl.stamp(sl.stampCount() - 1);
            const ProcessId p = sl.process(0);
            lastStampOne[s] = {p.value, st.us + st.resolutionUs / 2 + a.processOffset[p.value]};
        }
    });
    a.processLastStamp.assign(a.processes.size(), kTimeUnknownLo);
    auto keepLatest = [&](std::uint32_t p, std::int64_t t) {
        if (p < a.processLastStamp.size())
            a.processLastStamp[p] = std::max(a.processLastStamp[p], t);
    };
    for (const auto& [p, t] : lastStampOne)
        if (p != kNone)
            keepLatest(p, t);
    for (const auto& perSource : lastStamps)
        for (const auto& [p, t] : perSource)
            keepLatest(p, t);
    for (const TimeInterval& span : sourceSpans) {
        if (span.knownLo() && (!a.span.knownLo() || span.lo < a.span.lo))
            a.span.lo = span.lo;
        if (span.knownHi() && (!a.span.knownHi() || span.hi > a.span.hi))
            a.span.hi = span.hi;
    }
    // A file with no stamps sorts at the last stamped line of the process that wrote its first line.
    std::vector<std::int64_t> unstampedKeys(a.sources.size(), kTimeUnknownLo);
    for (std::size_t s = 0; s < a.sources.size(); ++s) {
        const SourceLines& sl = a.lines[s];
        if (sl.stampCount() == 0 && sl.size() > 0) {
            const ProcessId p = sl.process(0);
            if (p.value < a.processLastStamp.size())
                unstampedKeys[s] = a.processLastStamp[p.value];
        }
    }
    if (options.mergedOrder)
        a.merged.build(a.lines, sourceOffsets, unstampedKeys);
    stageDone("merged order");

    measureCoverage(a);
    buildFindings(a, hits);
    // What the late stages read (evidence, checklists) mapped pages again: the analysis keeps
    // line offsets, not text, so let them go; a view reads lines back on demand.
    for (const auto& src : a.sources)
        if (src.buffer)
            src.buffer->dropResident();
    MappedFile::flushDropped();
    stageDone("findings");
    if (progress.report)
        progress.report(
            {"done", a.sources.size(), a.sources.size(), a.totalBytes, a.totalBytes, a.totalLines});
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
