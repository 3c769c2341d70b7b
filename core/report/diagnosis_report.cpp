#include "report/diagnosis_report.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "engine/engine.h"
#include "identity/environment_scan.h"
#include "util/parallel.h"
#include "util/strings.h"
#include "util/text_kind.h"
#include "util/utf8.h"

using nlohmann::json;

namespace rl
{

namespace
{

// Log text may be any bytes; JSON needs UTF-8, so invalid sequences become U+FFFD.
std::string validUtf8(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        const auto [len, ok] = utf8SequenceAt(s, i);
        if (ok && c < 0x20 && c != '\t') {
            out += ' ';
            ++i;
            continue;
        }
        if (ok) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

// A line can be a gigabyte (a progress bar that never printed a line break): quote its start,
// and say so, as the window does.
std::string quoted(std::string_view line)
{
    constexpr std::size_t kMaxQuoted = 4000;
    // As shown (util/text_kind.h): a crash's zeros marked before the cut, so that the text after
    // them is quoted too; a redrawn progress bar as a terminal leaves it.
    std::string marked;
    const std::string_view shown = shownLine(line, marked);
    if (shown.size() <= kMaxQuoted)
        return validUtf8(shown);
    return validUtf8(shown.substr(0, kMaxQuoted)) + " … [line cut at " + std::to_string(kMaxQuoted) + " of " +
           std::to_string(line.size()) + " bytes]";
}

// Writes JSON text exactly as nlohmann::json::dump(indent) prints the same tree, without building the
// tree: a diagnosis of 10,000 ranks is a 20 MB document, and building it as nlohmann objects (one
// allocation per value, keys kept in maps) and printing those took longer than most of the analysis.
// Keys must be given in the order dump prints them, which is std::map's: byte order (tests compare
// every document with json::parse(text).dump(indent)).
class JsonWriter
{
public:
    // Appends to `out`, which holds exactly what was written once finish() is called.
    JsonWriter(std::string& out, int indent) : m_out(out), m_indent(indent), m_len(out.size())
    {
        m_out.resize(std::max(m_out.capacity(), m_len + 4096));
    }
    // Hands what is written so far to `sink` (and clears it) once it holds more than `chunk` bytes,
    // checked between elements: a document streamed to a file never sits whole in memory.
    JsonWriter(std::string& out, int indent, const JsonSink& sink, std::size_t chunk)
        : m_out(out), m_indent(indent), m_sink(&sink), m_chunk(chunk), m_len(out.size())
    {
        m_out.resize(std::max(m_out.capacity(), m_len + 4096));
    }
    void flush()
    {
        if (m_sink && m_len > 0) {
            (*m_sink)(std::string_view(m_out.data(), m_len));
            m_len = 0;
        }
    }
    void finish() { m_out.resize(m_len); }

    // The elements [0, n) of the array being written, element i written by write(writer, i), on
    // up to `threads` threads: ten thousand ranks are half of a 20 MB document, printed on one
    // core after every other stage is done. Each thread writes a batch of elements into a buffer,
    // as this writer would at this depth, and the batches join the document in order (the sink is
    // called from whichever thread's batch is next, never by two at once).
    template <class Write> void elements(std::size_t n, unsigned threads, const Write& write)
    {
        assert(!m_levels.empty() && !m_levels.back().object && !m_afterKey);
        constexpr std::size_t kBatch = 64;
        const std::size_t batches = (n + kBatch - 1) / kBatch;
        if (threads < 2 || batches < 4) {
            for (std::size_t i = 0; i < n; ++i)
                write(*this, i);
            return;
        }
        flush();
        const std::size_t before = m_levels.back().elements;
        // A thread takes its next batch only once its last one has joined, and batches are handed
        // out and joined in order: those being written are always `threads` consecutive ones at
        // most, so batch b can have buffer b % threads to itself.
        std::vector<std::string> text(threads);
        std::mutex joinMutex;
        std::condition_variable joinedOne;
        std::size_t joined = 0;
        parallelFor(batches, threads, [&](std::size_t b) {
            std::string& out = text[b % threads];
            out.clear();
            JsonWriter part(out, m_indent);
            part.m_levels = m_levels;
            part.m_levels.back().elements = before + b * kBatch;
            for (std::size_t i = b * kBatch; i < std::min(n, (b + 1) * kBatch); ++i)
                write(part, i);
            part.finish();
            std::unique_lock<std::mutex> lock(joinMutex);
            joinedOne.wait(lock, [&] { return joined == b; });
            if (!m_sink)
                put(out);
            // A batch of large elements is handed over in pieces of the chunk's size, as the
            // sink is promised.
            const std::size_t piece = std::max<std::size_t>(m_chunk, 1);
            for (std::size_t at = 0; m_sink && at < out.size(); at += piece)
                (*m_sink)(std::string_view(out).substr(at, piece));
            ++joined;
            joinedOne.notify_all();
        });
        m_levels.back().elements = before + n;
    }

    JsonWriter& beginObject()
    {
        open('{');
        return *this;
    }
    void endObject() { close('}'); }
    JsonWriter& beginArray()
    {
        open('[');
        return *this;
    }
    void endArray() { close(']'); }

    // A key written in the code: printable ASCII, nothing to escape.
    template <std::size_t N> JsonWriter& key(const char (&k)[N])
    {
        const std::string_view name(k, N - 1);
        assert(!m_levels.empty() && m_levels.back().object);
        assert(m_levels.back().elements == 0 || m_levels.back().lastKey < name);
        element();
        m_levels.back().lastKey = name;
        // Written out rather than through quote(): the name's length is known at compile time,
        // so these copies are a few fixed stores (a shared helper measured +0.5 % instructions on
        // the 10,000-file bundle, all of it in this one-core stage).
        char* p = room(name.size() + 4);
        *p++ = '"';
        std::memcpy(p, name.data(), name.size());
        p += name.size();
        *p++ = '"';
        *p++ = ':';
        if (m_indent >= 0)
            *p++ = ' ';
        advanceTo(p);
        m_afterKey = true;
        return *this;
    }
    JsonWriter& key(std::string_view k)
    {
        assert(!m_levels.empty() && m_levels.back().object);
        assert(m_levels.back().elements == 0 || m_levels.back().lastKey < k);
        element();
        m_levels.back().lastKey = k;
        quote(k);
        put(m_indent >= 0 ? std::string_view(": ") : std::string_view(":"));
        m_afterKey = true;
        return *this;
    }

    void null() { scalar("null"); }
    void boolean(bool b) { scalar(b ? "true" : "false"); }
    template <typename Int> void integer(Int v)
    {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        scalar(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    }
    // Doubles take nlohmann's shortest round-trip form ("600352.0"): few in a document, so printed by it.
    void number(double d) { scalar(json(d).dump()); }
    void string(std::string_view s)
    {
        if (!m_afterKey)
            element();
        m_afterKey = false;
        quote(s);
    }
    // An empty string as null, as several fields print it.
    void stringOrNull(std::string_view s)
    {
        if (s.empty())
            null();
        else
            string(s);
    }
    template <class Strings> void stringArray(const Strings& v)
    {
        beginArray();
        for (const auto& s : v)
            string(s);
        endArray();
    }

private:
    // Room for `n` more bytes after those written: every token reserves once and writes through
    // the pointer, rather than appending to a std::string piece by piece (each append checks the
    // capacity and moves the end and its terminator; 10,000 ranks are half a million pieces).
    char* room(std::size_t n)
    {
        if (m_out.size() - m_len < n)
            m_out.resize(std::max(2 * m_out.size(), m_len + n + 4096));
        return m_out.data() + m_len;
    }
    void advanceTo(const char* p) { m_len = static_cast<std::size_t>(p - m_out.data()); }
    void put(char c)
    {
        *room(1) = c;
        ++m_len;
    }
    void put(std::string_view s)
    {
        std::memcpy(room(s.size()), s.data(), s.size());
        m_len += s.size();
    }
    void quote(std::string_view s)
    {
        // Most strings need no escape and no check of their UTF-8: copied whole.
        const bool plain = std::all_of(s.begin(), s.end(), [](char ch) {
            const auto c = static_cast<unsigned char>(ch);
            return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
        });
        if (!plain) {
            std::string escaped;
            appendJsonString(escaped, s);
            put(escaped);
            return;
        }
        char* p = room(s.size() + 2);
        *p++ = '"';
        std::memcpy(p, s.data(), s.size());
        p += s.size();
        *p++ = '"';
        advanceTo(p);
    }

    struct Level {
        bool object;
        std::size_t elements = 0;
        std::string_view lastKey;
    };

    // A line break and the indentation of `depth`, after `p` (which has room for them).
    char* newlineAt(char* p, std::size_t depth) const
    {
        const std::size_t spaces = depth * static_cast<std::size_t>(m_indent);
        *p++ = '\n';
        std::memset(p, ' ', spaces);
        return p + spaces;
    }
    std::size_t newlineBytes(std::size_t depth) const
    {
        return m_indent >= 0 ? 1 + depth * static_cast<std::size_t>(m_indent) : 0;
    }
    // Before a value in an array, or before a key in an object.
    void element()
    {
        if (m_levels.empty())
            return;
        if (m_sink && m_len > m_chunk)
            flush();
        Level& l = m_levels.back();
        const std::size_t depth = m_levels.size();
        char* p = room(1 + newlineBytes(depth));
        if (l.elements++ > 0)
            *p++ = ',';
        if (m_indent >= 0)
            p = newlineAt(p, depth);
        advanceTo(p);
    }
    void scalar(std::string_view text)
    {
        if (!m_afterKey)
            element();
        m_afterKey = false;
        put(text);
    }
    void open(char c)
    {
        if (!m_afterKey)
            element();
        m_afterKey = false;
        put(c);
        m_levels.push_back({c == '{', 0, {}});
    }
    void close(char c)
    {
        const bool empty = m_levels.back().elements == 0;
        m_levels.pop_back();
        char* p = room(1 + newlineBytes(m_levels.size()));
        if (!empty && m_indent >= 0)
            p = newlineAt(p, m_levels.size());
        *p++ = c;
        advanceTo(p);
    }

    // Its size is the writer's room: the text written is its first m_len bytes.
    std::string& m_out;
    int m_indent;
    const JsonSink* m_sink = nullptr;
    std::size_t m_chunk = 0;
    std::size_t m_len = 0;
    std::vector<Level> m_levels;
    bool m_afterKey = false;
};

// displayFile without the copy.
const std::string& pathOf(const Analysis& a, LineRef where)
{
    return a.source(where.source).displayPath;
}

void writeRank(JsonWriter& w, std::optional<int> rank)
{
    if (rank)
        w.integer(*rank);
    else
        w.null();
}

void writeRank(JsonWriter& w, const Process& p)
{
    writeRank(w, p.rank);
}

std::string isoTime(std::int64_t us)
{
    std::time_t t = static_cast<std::time_t>(us / 1000000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    char frac[12];
    std::snprintf(frac, sizeof frac, ".%03d", static_cast<int>((us % 1000000) / 1000));
    return std::string(buf) + frac;
}

void writeTime(JsonWriter& w, const TimeInterval& t)
{
    w.beginObject();
    w.key("hi");
    if (t.knownHi())
        w.string(isoTime(t.hi));
    else
        w.null();
    w.key("lo");
    if (t.knownLo())
        w.string(isoTime(t.lo));
    else
        w.null();
    w.endObject();
}

void writeHypotheses(JsonWriter& w, const Analysis& a, const std::vector<Hypothesis>& hs)
{
    w.beginArray();
    for (const auto& h : hs) {
        w.beginObject();
        w.key("decider").string(h.decider);
        w.key("entry");
        if (h.entry >= 0)
            w.string(a.entry(h.entry).id);
        else
            w.null();
        if (h.line) {
            w.key("file").string(a.source(h.line->source).displayPath);
            w.key("line").integer(h.line->line + 1);
        }
        w.key("text").string(h.text);
        w.endObject();
    }
    w.endArray();
}

// Values shown by several ranks, in first-seen order, each with its processes.
struct ValueGroup {
    std::string value;
    std::vector<ProcessId> processes;
};

template <typename Get> std::vector<ValueGroup> groupBy(const Analysis& a, Get get)
{
    std::vector<ValueGroup> out;
    for (const auto& p : a.processes) {
        if (p.id.value >= a.environment.ranks.size())
            continue;
        std::string v(get(a.environment.ranks[p.id.value]));
        if (v.empty())
            continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const ValueGroup& g) { return g.value == v; });
        if (it == out.end())
            out.push_back({v, {p.id}});
        else
            it->processes.push_back(p.id);
    }
    return out;
}

void writeRankList(JsonWriter& w, const Analysis& a, const std::vector<ProcessId>& processes)
{
    w.beginArray();
    for (auto pid : processes)
        writeRank(w, a.process(pid));
    w.endArray();
}

void writeHostList(JsonWriter& w, const Analysis& a, const std::vector<ProcessId>& processes)
{
    w.beginArray();
    std::unordered_set<std::string_view> seen; // a flag can name thousands of processes
    for (auto pid : processes) {
        const std::string& h = a.process(pid).host;
        if (!h.empty() && seen.insert(h).second)
            w.string(h);
    }
    w.endArray();
}

void writeRange(JsonWriter& w, const VersionRange& r)
{
    auto end = [&](const Version& v, bool low) {
        if ((low && v == Version{0, 0, 0}) || (!low && v == Version{999, 0, 0}))
            w.null();
        else if (v.patch == 999)
            w.string(std::to_string(v.major) + "." + std::to_string(v.minor) + ".x");
        else
            w.string(v.toString());
    };
    w.beginObject();
    w.key("from");
    end(r.from, true);
    w.key("to");
    end(r.to, false);
    w.endObject();
}

void writeFileLine(JsonWriter& w, const Analysis& a, LineRef where)
{
    w.beginObject();
    w.key("file").string(a.source(where.source).displayPath);
    w.key("line").integer(where.line + 1);
    w.endObject();
}

void writeFinding(JsonWriter& w, const Analysis& a, const Finding& f)
{
    const Entry& e = a.entry(f.entry);
    const Process& p = a.process(f.process);
    w.beginObject();
    w.key("checklist").beginArray();
    for (const auto& c : f.checklist) {
        w.beginObject();
        w.key("detail").string(c.detail);
        if (c.line)
            w.key("file").string(pathOf(a, *c.line));
        w.key("id").string(c.id);
        if (c.line)
            w.key("line").integer(c.line->line + 1);
        w.key("status").string(checkStatusName(c.status));
        w.key("text").string(c.text);
        w.endObject();
    }
    w.endArray();
    w.key("confidence").number(f.confidence);
    if (!f.connectVerdict.empty())
        w.key("connect_failure").string(f.connectVerdict);
    // The GPU whose thread printed the finding's line, where its process drives several.
    if (const int d = a.deviceAt(f.anchor); d >= 0)
        w.key("device").integer(d);
    w.key("entry").string(e.id);
    w.key("evidence").beginArray();
    for (const auto& x : f.evidence) {
        const Process& xp = a.process(x.process);
        w.beginObject();
        if (const int d = a.deviceAt(x.where); d >= 0)
            w.key("device").integer(d);
        w.key("file").string(pathOf(a, x.where));
        w.key("host").string(xp.host);
        w.key("label").string(x.label);
        w.key("line").integer(x.where.line + 1);
        if (!x.note.empty())
            w.key("note").string(x.note);
        w.key("rank");
        writeRank(w, a.rankAt(x.where));
        w.key("text").string(quoted(a.text(x.where)));
        w.endObject();
    }
    w.endArray();
    w.key("file").string(pathOf(a, f.anchor));
    w.key("host").stringOrNull(p.host);
    w.key("hypotheses");
    writeHypotheses(w, a, f.hypotheses);
    if (f.inferredFromTrail)
        w.key("inferred_from_trail").boolean(true);
    w.key("line").integer(f.anchor.line + 1);
    w.key("pid");
    if (p.pid >= 0)
        w.integer(p.pid);
    else
        w.null();
    if (f.pointsAt || !f.pointsAtNote.empty()) {
        w.key("points_at").beginObject();
        if (f.pointsAt) {
            const Process& t = a.process(*f.pointsAt);
            w.key("host").string(t.host);
            w.key("note").string(f.pointsAtNote);
            w.key("rank");
            writeRank(w, t);
        } else {
            w.key("host").null();
            w.key("note").string(f.pointsAtNote);
            w.key("rank").null();
        }
        w.endObject();
    }
    w.key("rank");
    writeRank(w, a.rankAt(f.anchor));
    w.key("ranks");
    writeRankList(w, a, f.processes);
    w.key("role").string(roleName(f.role));
    w.key("summary").string(f.summary);
    w.key("suspects").beginArray();
    for (const auto& su : f.suspects) {
        const Process& sp = a.process(su.process);
        w.beginObject();
        w.key("host").string(sp.host);
        w.key("rank");
        writeRank(w, sp);
        w.key("reason").string(su.reason());
        w.endObject();
    }
    w.endArray();
    w.key("symptoms").beginArray();
    for (const auto& s : f.symptoms) {
        w.beginObject();
        if (s.line)
            w.key("file").string(pathOf(a, *s.line));
        w.key("id").string(s.id);
        if (s.line)
            w.key("line").integer(s.line->line + 1);
        w.key("observed").boolean(s.observed);
        w.key("signal").string(s.signal);
        w.endObject();
    }
    w.endArray();
    w.key("time");
    writeTime(w, f.time);
    w.key("title").string(e.title);
    w.endObject();
}

// The clues matter where no line states the version, or where one contradicts it.
bool cluesShown(const RankEnvironment& re)
{
    const bool contradicted =
        std::any_of(re.clues.begin(), re.clues.end(), [](const VersionClue& c) { return !c.agrees; });
    return !re.clues.empty() && (!re.ncclVersion || contradicted);
}

// Each rule's wording as the first rank shown with it states it (a clue gives its own only where it
// differs).
using ClueRules = std::map<std::string, std::string, std::less<>>;

void writeProcess(JsonWriter& w, const Analysis& a, const Process& p, const ClueRules& clueRules)
{
    const RankEnvironment* re =
        p.id.value < a.environment.ranks.size() ? &a.environment.ranks[p.id.value] : nullptr;
    w.beginObject();
    if (!p.address.empty())
        w.key("address").string(p.address);
    if (p.attempt)
        w.key("attempt").integer(*p.attempt);
    if (p.busId)
        w.key("bus_id").string(pciBusId(*p.busId));
    if (re && !re->cudaDriver.empty()) {
        w.key("cuda_driver").string(re->cudaDriver);
        w.key("cuda_driver_code").integer(re->cudaDriverCode);
    }
    // One process driving several GPUs: each GPU's rank where the Init lines said it, and the GPUs.
    if (!p.deviceRanks.empty()) {
        w.key("device_ranks").beginArray();
        for (const auto& [device, rank] : p.deviceRanks) {
            w.beginObject();
            w.key("device").integer(device);
            w.key("rank").integer(rank);
            w.endObject();
        }
        w.endArray();
    }
    if (p.severalDevices()) {
        w.key("devices").beginArray();
        for (int d : p.deviceList())
            w.integer(d);
        w.endArray();
    }
    if (re && !re->flags.empty()) {
        w.key("environment_flags");
        w.stringArray(re->flags);
    }
    w.key("files").beginArray();
    for (auto s : p.sources)
        w.string(a.source(s).displayPath);
    w.endArray();
    w.key("host").stringOrNull(p.host);
    if (!p.identityConflicts.empty()) {
        w.key("identity_conflicts");
        w.stringArray(p.identityConflicts);
    }
    w.key("identity_source").stringOrNull(p.identitySource);
    if (re && !re->addresses.empty()) {
        w.key("interfaces").beginArray();
        for (const auto& ad : re->addresses) {
            w.beginObject();
            w.key("address").string(ad.address);
            w.key("file").string(pathOf(a, ad.where));
            w.key("interface").string(ad.interface);
            w.key("line").integer(ad.where.line + 1);
            w.key("via").string(ad.via);
            w.endObject();
        }
        w.endArray();
    }
    if (p.localRank)
        w.key("local_rank").integer(*p.localRank);
    if (re && !re->ncclCuda.empty())
        w.key("nccl_cuda").string(re->ncclCuda);
    if (p.ncclVersion)
        w.key("nccl_version").string(p.ncclVersion->toString());
    else if (re && re->ncclVersion)
        w.key("nccl_version").string(re->ncclVersion->toString());
    if (re && cluesShown(*re)) {
        // The rule's wording is given once, under environment.clue_rules.
        w.key("nccl_version_clues").beginArray();
        for (const auto& c : re->clues) {
            w.beginObject();
            w.key("agrees").boolean(c.agrees);
            if (clueRules.find(c.id())->second != c.basis())
                w.key("basis").string(c.basis());
            w.key("display").string(c.display());
            w.key("file").string(pathOf(a, c.where));
            w.key("id").string(c.id());
            w.key("line").integer(c.where.line + 1);
            w.key("range");
            writeRange(w, c.range());
            w.endObject();
        }
        w.endArray();
    }
    if (re && re->ncclRange) {
        w.key("nccl_version_range");
        writeRange(w, *re->ncclRange);
    }
    if (re && !re->ncclRangeDisplay.empty())
        w.key("nccl_version_range_display").string(re->ncclRangeDisplay);
    if (re && !re->ncclVersionSource.empty())
        w.key("nccl_version_source").string(re->ncclVersionSource);
    w.key("pid");
    if (p.pid >= 0)
        w.integer(p.pid);
    else
        w.null();
    w.key("rank");
    writeRank(w, p);
    if (re && !re->torchCuda.empty())
        w.key("torch_cuda").string(re->torchCuda);
    if (re && !re->torchVersion.empty())
        w.key("torch_version").string(re->torchVersion);
    w.endObject();
}

void writeEnvironment(JsonWriter& w, const Analysis& a, const ClueRules& clueRules)
{
    w.beginObject();
    w.key("clue_rules").beginObject();
    for (const auto& [id, basis] : clueRules)
        w.key(id).string(basis);
    w.endObject();

    w.key("flags").beginArray();
    for (const auto& f : a.environment.flags) {
        w.beginObject();
        if (!f.address.empty())
            w.key("address").string(f.address);
        w.key("detail").string(f.detail);
        if (f.where)
            w.key("file").string(pathOf(a, *f.where));
        w.key("hosts");
        writeHostList(w, a, f.processes);
        if (!f.interface.empty())
            w.key("interface").string(f.interface);
        w.key("kind").string(f.kind);
        if (f.where)
            w.key("line").integer(f.where->line + 1);
        w.key("ranks");
        writeRankList(w, a, f.processes);
        w.key("severity").string(f.severity);
        w.endObject();
    }
    w.endArray();

    w.key("interfaces").beginArray();
    {
        struct Use {
            std::string interface, address;
            std::vector<std::string> via;
            std::vector<ProcessId> processes;
        };
        std::vector<Use> uses;
        // (interface, address) -> its index in uses: one use per host or rank on a large job
        std::map<std::pair<std::string_view, std::string_view>, std::size_t> useIndex;
        for (const auto& p : a.processes) {
            if (p.id.value >= a.environment.ranks.size())
                continue;
            for (const auto& ad : a.environment.ranks[p.id.value].addresses) {
                auto [at, added] = useIndex.emplace(
                    std::make_pair(std::string_view(ad.interface), std::string_view(ad.address)),
                    uses.size());
                if (added)
                    uses.push_back({ad.interface, ad.address, {}, {}});
                auto it = uses.begin() + static_cast<std::ptrdiff_t>(at->second);
                if (std::find(it->via.begin(), it->via.end(), ad.via) == it->via.end())
                    it->via.push_back(ad.via);
                // Processes come in id order: p is the last one listed or not listed yet.
                if (it->processes.empty() || it->processes.back() != p.id)
                    it->processes.push_back(p.id);
            }
        }
        for (const auto& u : uses) {
            w.beginObject();
            w.key("address").string(u.address);
            w.key("hosts");
            writeHostList(w, a, u.processes);
            w.key("interface").string(u.interface);
            w.key("ranks");
            writeRankList(w, a, u.processes);
            w.key("subnet").stringOrNull(assumedSubnet(u.address));
            w.key("via");
            w.stringArray(u.via);
            w.endObject();
        }
    }
    w.endArray();

    w.key("settings").beginArray();
    for (const auto& st : a.environment.settings) {
        w.beginObject();
        w.key("file").string(pathOf(a, st.where));
        w.key("how").string(st.how);
        w.key("line").integer(st.where.line + 1);
        w.key("name").string(st.name);
        w.key("ranks");
        writeRankList(w, a, st.processes);
        w.key("value").string(st.value);
        w.endObject();
    }
    w.endArray();
    w.key("subnet_note").string(a.environment.subnetNote);

    auto versionList = [&](auto get) {
        w.beginArray();
        for (const auto& g : groupBy(a, get)) {
            w.beginObject();
            w.key("ranks");
            writeRankList(w, a, g.processes);
            w.key("version").string(g.value);
            w.endObject();
        }
        w.endArray();
    };
    w.key("versions").beginObject();
    w.key("cuda_driver");
    versionList([](const RankEnvironment& r) { return r.cudaDriver; });
    // A rank known only by the form of its lines shows a range instead of a version.
    w.key("nccl").beginArray();
    for (const auto& g : groupBy(a, [](const RankEnvironment& r) {
             return r.ncclVersion ? r.ncclVersion->toString()
                    : r.ncclRange ? "range " + std::string(r.ncclRangeDisplay)
                                  : std::string{};
         })) {
        const bool range = g.value.rfind("range ", 0) == 0;
        w.beginObject();
        w.key("range");
        if (range)
            w.string(std::string_view(g.value).substr(6));
        else
            w.null();
        w.key("ranks");
        writeRankList(w, a, g.processes);
        w.key("version");
        if (range)
            w.null();
        else
            w.string(g.value);
        w.endObject();
    }
    w.endArray();
    w.key("nccl_cuda");
    versionList([](const RankEnvironment& r) { return r.ncclCuda; });
    w.key("torch");
    versionList([](const RankEnvironment& r) { return r.torchVersion; });
    w.key("torch_cuda");
    versionList([](const RankEnvironment& r) { return r.torchCuda; });
    w.endObject();
    w.endObject();
}

void writeClock(JsonWriter& w, const Analysis& a)
{
    w.beginObject();
    w.key("conflicts");
    w.stringArray(a.clock.conflicts);
    w.key("constraints").integer(a.clock.constraintCount);
    w.key("feasible").boolean(a.clock.feasible);
    w.key("hosts").beginArray();
    for (const auto& h : a.clock.hosts) {
        w.beginObject();
        w.key("basis").beginArray();
        for (const auto& b : h.basis)
            w.string(b);
        if (h.reference)
            w.string("reference clock");
        if (h.userSet)
            w.string("set by the user");
        w.endArray();
        w.key("hi_ms");
        if (h.hiUs)
            w.number(static_cast<double>(*h.hiUs) / 1000.0);
        else
            w.null();
        w.key("host").string(h.host);
        w.key("lo_ms");
        if (h.loUs)
            w.number(static_cast<double>(*h.loUs) / 1000.0);
        else
            w.null();
        w.key("offset_ms").number(static_cast<double>(h.offsetUs) / 1000.0);
        w.endObject();
    }
    w.endArray();
    if (!a.clock.feasible)
        w.key("note").string(
            "the ordering constraints in these logs contradict each other; no clock correction was applied");
    w.key("unordered").beginArray();
    for (const auto& [x, y] : a.unordered) {
        w.beginObject();
        w.key("a");
        writeFileLine(w, a, x);
        w.key("b");
        writeFileLine(w, a, y);
        w.key("note").string("these two lines' aligned times overlap: the logs cannot say which came first");
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void writeCoverage(JsonWriter& w, const Analysis& a)
{
    const Coverage& c = a.coverage;
    if (c.worldRanks <= 0) {
        w.null();
        return;
    }
    // Keys in nlohmann's order (sorted), as everywhere in this document.
    w.beginObject();
    // The Init line that names the largest communicator.
    if (c.source)
        w.key("file").string(pathOf(a, *c.source));
    w.key("hosts_with_logs").integer(c.hostsWithLogs);
    if (c.source)
        w.key("line").integer(c.source->line + 1);
    w.key("missing_display").string(c.missingDisplay());
    w.key("missing_ranks").beginArray();
    for (int r : c.missing)
        w.integer(r);
    w.endArray();
    w.key("ranks_with_logs").integer(c.ranksWithLogs());
    w.key("unranked_processes").integer(c.unranked);
    // What said how many ranks the job has: an Init line, or nccl-tests' listing of its ranks.
    w.key("world_from").string(c.fromTestsListing ? "nccl-tests" : "nccl-init");
    w.key("world_nodes");
    if (c.worldNodes > 0)
        w.integer(c.worldNodes);
    else
        w.null();
    w.key("world_ranks").integer(c.worldRanks);
    w.endObject();
}

// PyTorch Flight Recorder dumps (flight/flight_recorder.h): null when the bundle holds none.
void writeFlight(JsonWriter& w, const Analysis& a)
{
    const FlightRecorder& f = a.flight;
    if (f.empty()) {
        w.null();
        return;
    }
    auto ints = [&w](const std::vector<int>& v) {
        w.beginArray();
        for (int r : v)
            w.integer(r);
        w.endArray();
    };
    auto seq = [&w](std::int64_t v) {
        if (v >= 0)
            w.integer(v);
        else
            w.null();
    };
    w.beginObject();
    w.key("dumps").beginArray();
    for (const FlightDump& d : f.dumps) {
        w.beginObject();
        w.key("comm_lib_version").stringOrNull(d.commLibVersion);
        w.key("entries").integer(d.entries);
        w.key("file").string(d.file);
        w.key("groups").beginArray();
        for (const FlightGroupView& g : d.groups) {
            w.beginObject();
            w.key("desc").stringOrNull(g.desc);
            w.key("last_completed");
            seq(g.lastCompleted);
            w.key("last_enqueued");
            seq(g.lastEnqueued);
            w.key("last_started");
            seq(g.lastStarted);
            w.key("name").string(g.name);
            w.key("pending_p2p").stringOrNull(g.pendingP2p);
            w.key("ranks");
            ints(g.ranks);
            w.endObject();
        }
        w.endArray();
        w.key("rank");
        if (d.rank)
            w.integer(*d.rank);
        else
            w.null();
        w.key("version").stringOrNull(d.version);
        w.endObject();
    }
    w.endArray();
    w.key("groups_complete").integer(f.groupsComplete);
    w.key("sentence").stringOrNull(flightSentence(f));
    w.key("verdicts").beginArray();
    for (const FlightGroupVerdict& v : f.verdicts) {
        w.beginObject();
        w.key("awaited");
        seq(v.awaited);
        w.key("awaited_op").stringOrNull(v.awaitedOp);
        w.key("behind");
        ints(v.behind());
        w.key("behind_last").beginArray();
        for (const auto& [rank, last] : v.behindLast) {
            w.beginObject();
            w.key("last_enqueued");
            seq(last);
            w.key("rank").integer(rank);
            w.endObject();
        }
        w.endArray();
        w.key("desc").stringOrNull(v.desc);
        w.key("kind").string(flightVerdictKindName(v.kind));
        const bool p2p = v.kind == FlightGroupVerdict::Kind::PointToPoint;
        // v.ops under the key of its kind, an empty array under the other.
        auto ops = [&w, &v](bool these) {
            w.beginArray();
            if (these)
                for (const auto& [rank, op] : v.ops) {
                    w.beginObject();
                    w.key("op").string(op);
                    w.key("rank").integer(rank);
                    w.endObject();
                }
            w.endArray();
        };
        w.key("mismatch");
        ops(!p2p);
        w.key("name").string(v.name);
        w.key("pending_p2p");
        ops(p2p);
        w.key("ranks");
        ints(v.ranks);
        w.key("sites").beginArray();
        for (const auto& s : v.sites) {
            w.beginObject();
            w.key("file").string(s.site.file);
            w.key("function").stringOrNull(s.site.function);
            w.key("line").integer(s.site.line);
            w.key("op").stringOrNull(s.op);
            w.key("rank").integer(s.rank);
            w.key("seq");
            seq(s.seq);
            w.endObject();
        }
        w.endArray();
        w.key("waiting");
        ints(v.waiting);
        w.key("without_dump");
        ints(v.withoutDump);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void writeNccl(JsonWriter& w, const Analysis& a)
{
    w.beginObject();
    w.key("fix_applies");
    if (a.nccl.fixApplies)
        w.boolean(*a.nccl.fixApplies);
    else
        w.null();
    // The versions the Flight Recorder dumps name (comm_lib_version).
    w.key("flight_recorder").beginArray();
    for (const auto& dv : a.nccl.dumps) {
        w.beginObject();
        w.key("files").beginArray();
        for (const auto& f : dv.files)
            w.string(f);
        w.endArray();
        w.key("ranks").beginArray();
        for (int r : dv.ranks)
            w.integer(r);
        w.endArray();
        w.key("text").string(dv.text);
        w.key("version").string(dv.version.toString());
        w.endObject();
    }
    w.endArray();
    w.key("hints").beginArray();
    for (const auto& h : a.nccl.hints) {
        w.beginObject();
        w.key("basis").string(h.basis);
        w.key("file").string(pathOf(a, h.where));
        w.key("from").string(h.range.from.toString());
        w.key("line").integer(h.where.line + 1);
        w.key("to").string(h.range.to.toString());
        w.endObject();
    }
    w.endArray();
    w.key("local");
    if (a.nccl.local && a.nccl.local->found) {
        w.beginObject();
        w.key("path").string(a.nccl.local->path);
        w.key("version").string(a.nccl.local->version.toString());
        w.endObject();
    } else {
        w.null();
    }
    w.key("logs").beginArray();
    for (const auto& lv : a.nccl.logs) {
        w.beginObject();
        w.key("ranks");
        writeRankList(w, a, lv.processes);
        w.key("version").string(lv.version.toString());
        w.endObject();
    }
    w.endArray();
    w.key("mismatch").beginArray();
    for (const auto& g : a.nccl.mismatch) {
        w.beginObject();
        w.key("basis").string(g.basis);
        w.key("display").string(g.display);
        if (g.where.source.valid())
            w.key("file").string(pathOf(a, g.where));
        w.key("hosts");
        writeHostList(w, a, g.processes);
        if (g.where.source.valid())
            w.key("line").integer(g.where.line + 1);
        w.key("range");
        writeRange(w, g.range);
        w.key("ranks");
        writeRankList(w, a, g.processes);
        w.key("version");
        if (g.version)
            w.string(g.version->toString());
        else
            w.null();
        w.endObject();
    }
    w.endArray();
    w.key("mismatch_note").stringOrNull(a.nccl.mismatchNote);
    w.key("verdict").string(a.nccl.verdict());
    w.endObject();
}

} // namespace

std::string displayFile(const Analysis& a, LineRef where)
{
    return a.source(where.source).displayPath;
}

namespace
{

void writeDiagnosis(JsonWriter& w, const Analysis& a, unsigned threads)
{
    // Each rule's wording, as the first rank whose clues are shown states it: printed under
    // environment, before the ranks.
    ClueRules clueRules;
    for (const auto& p : a.processes)
        if (p.id.value < a.environment.ranks.size() && cluesShown(a.environment.ranks[p.id.value]))
            for (const auto& c : a.environment.ranks[p.id.value].clues)
                if (clueRules.find(c.id()) == clueRules.end())
                    clueRules.emplace(std::string(c.id()), std::string(c.basis()));

    w.beginObject();
    w.key("clock");
    writeClock(w, a);
    w.key("coverage");
    writeCoverage(w, a);
    w.key("environment");
    writeEnvironment(w, a, clueRules);
    w.key("findings").beginArray();
    for (const auto& f : a.findings)
        writeFinding(w, a, f);
    w.endArray();
    w.key("flight_recorder");
    writeFlight(w, a);
    w.key("hypotheses");
    writeHypotheses(w, a, a.hypotheses);
    w.key("initiating");
    if (const Finding* f = a.initiatingFinding()) {
        const Process& p = a.process(f->process);
        w.beginObject();
        if (const int d = a.deviceAt(f->anchor); d >= 0)
            w.key("device").integer(d);
        w.key("entry").string(a.entry(f->entry).id);
        w.key("file").string(pathOf(a, f->anchor));
        w.key("host").stringOrNull(p.host);
        w.key("line").integer(f->anchor.line + 1);
        w.key("rank");
        writeRank(w, a.rankAt(f->anchor));
        w.endObject();
    } else {
        w.null();
    }
    w.key("nccl");
    writeNccl(w, a);
    w.key("ranks").beginArray();
    w.elements(a.processes.size(), threads,
               [&](JsonWriter& pw, std::size_t i) { writeProcess(pw, a, a.processes[i], clueRules); });
    w.endArray();
    w.key("schema_version").integer(kDiagnosisSchemaVersion);
    w.key("skipped").beginArray();
    for (const auto& s : a.skipped) {
        w.beginObject();
        w.key("file").string(s.file);
        w.key("reason").string(s.reason);
        w.endObject();
    }
    w.endArray();
    w.key("stats").beginObject();
    w.key("bytes").integer(a.totalBytes);
    w.key("events").integer(a.events.size());
    w.key("files").integer(a.sources.size());
    w.key("lines").integer(a.totalLines);
    w.endObject();
    w.key("tool").string("rankline");
    w.key("tool_version").string(RANKLINE_VERSION);
    w.endObject();
}

} // namespace

void appendJsonString(std::string& out, std::string_view s)
{
    // Printable text, ASCII or well-formed UTF-8 (the en dash and the signs of version ranges), is
    // copied with only quotes and backslashes escaped, as dump copies it; anything else (a control
    // byte, a broken sequence) goes through nlohmann itself, so the bytes stay dump's.
    const std::size_t start = out.size();
    out += '"';
    std::size_t from = 0;
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out.append(s.data() + from, i - from);
            out += '\\';
            from = i++;
        } else if (c >= 0x20 && c < 0x80) {
            ++i;
        } else if (const std::size_t n = c >= 0x80 ? wellFormedUtf8At(s, i) : 0; n > 0) {
            i += n;
        } else {
            out.resize(start);
            out += json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
            return;
        }
    }
    out.append(s.data() + from, s.size() - from);
    out += '"';
}

std::string diagnosisJson(const Analysis& a, int indent, unsigned threads)
{
    std::string out;
    // About a kilobyte per process when pretty-printed: most of the document.
    out.reserve(4096 + a.processes.size() * (indent >= 0 ? 1100 : 600));
    JsonWriter w(out, indent);
    writeDiagnosis(w, a, threadsOrCores(threads));
    w.finish();
    return out;
}

void writeDiagnosisJson(const Analysis& a, const JsonSink& sink, int indent, std::size_t chunkBytes,
                        unsigned threads)
{
    std::string buffer;
    buffer.reserve(chunkBytes + 4096);
    JsonWriter w(buffer, indent, sink, chunkBytes);
    writeDiagnosis(w, a, threadsOrCores(threads));
    w.flush();
}

std::vector<char> sourcesQuoted(const Analysis& a)
{
    std::vector<char> quoted(a.sources.size(), 0);
    for (const auto& f : a.findings)
        for (const auto& x : f.evidence)
            if (x.where.source.value < quoted.size())
                quoted[x.where.source.value] = 1;
    return quoted;
}

std::string coverageSentence(const Analysis& a)
{
    const Coverage& c = a.coverage;
    if (c.worldRanks <= 0)
        return {};
    std::string s =
        "Logs of " + std::to_string(c.ranksWithLogs()) + " of the " + std::to_string(c.worldRanks) +
        (c.fromTestsListing ? " ranks nccl-tests lists" : " ranks in NCCL's largest communicator");
    if (c.source)
        s += " (" + displayFile(a, *c.source) + ":" + std::to_string(c.source->line + 1) + ")";
    if (c.worldNodes > 0 && c.hostsWithLogs < c.worldNodes)
        s += ", from " + std::to_string(c.hostsWithLogs) + " of its " + std::to_string(c.worldNodes) +
             " nodes";
    if (c.missing.empty())
        return s + ".";
    const bool one = c.missing.size() == 1;
    s += (one ? "; rank " : "; ranks ") + c.missingDisplay() + (one ? " has" : " have");
    if (c.unranked == 0)
        s += " no lines here";
    else
        s += std::string(" no line here known to be ") + (one ? "its own" : "theirs") + " (" +
             (c.unranked == 1 ? std::string("1 process here has")
                              : std::to_string(c.unranked) + " processes here have") +
             " no known rank)";
    return s + ". The failure may have started on " + (one ? "it" : "one of them") + ": add " +
           (one ? "its" : "their") + " logs to be sure.";
}

std::string diagnosisText(const Analysis& a)
{
    std::ostringstream o;
    o << "Rankline " RANKLINE_VERSION " diagnosis: " << a.sources.size() << " file(s), " << a.totalLines
      << " lines, " << a.processes.size() << " process(es)";
    if (!a.flight.empty())
        o << ", " << a.flight.dumps.size() << " Flight Recorder dump(s)";
    o << "\n\n";
    if (!a.coverage.complete())
        o << coverageSentence(a) << "\n\n";
    if (const std::string fr = flightSentence(a.flight); !fr.empty())
        o << fr << "\n\n";
    const Finding* init = a.initiatingFinding();
    if (init) {
        const Entry& e = a.entry(init->entry);
        o << "INITIATING  " << e.title << "  [" << e.id << "]  confidence " << init->confidence << "\n";
        o << "  " << init->summary << "\n";
        o << "  at " << displayFile(a, init->anchor) << ":" << init->anchor.line + 1 << "\n\n";
        o << "  Evidence:\n";
        for (const auto& x : evidenceByLine(init->evidence)) {
            o << "    " << x.label << "  " << displayFile(a, x.where) << ":" << x.where.line + 1 << "\n";
            o << "      " << quoted(a.text(x.where)) << "\n";
            if (!x.note.empty())
                o << "      (" << x.note << ")\n";
        }
        o << "\n  Checklist:\n";
        for (const auto& c : init->checklist) {
            const char* mark = c.status == CheckStatus::Confirmed      ? "[x]"
                               : c.status == CheckStatus::Contradicted ? "[!]"
                                                                       : "[ ]";
            o << "    " << mark << " " << c.text << "\n        " << c.detail;
            if (c.line)
                o << "  (" << displayFile(a, *c.line) << ":" << c.line->line + 1 << ")";
            o << "\n";
        }
        o << "\n  Root cause: " << e.rootCause << "\n\n  Fix:\n";
        int n = 1;
        for (const auto& s : e.fixSteps)
            o << "    " << n++ << ". " << s << "\n";
        if (!e.verify.empty())
            o << "  Verify: " << e.verify << "\n";
    } else if (a.sources.empty() && !a.flight.empty()) {
        // Dumps alone: what they say is above; no log was there to find a failure in.
        o << "No log in the bundle to find the initiating failure in: add " << kFlightLogsWanted
          << " beside the dumps.\n";
    } else {
        o << "No initiating failure identified.\n";
    }
    // When thousands of ranks fail the same way, each is a finding of its own with an explanation
    // on the initiating one: past kPerEntry of one entry (and role) the text counts the rest,
    // which --json keeps every one of.
    constexpr std::size_t kPerEntry = 8;
    std::map<std::pair<int, Role>, std::size_t> findingsOf;
    for (const auto& f : a.findings)
        if (&f != init)
            ++findingsOf[{f.entry, f.role}];
    std::map<std::pair<int, Role>, std::size_t> listed;
    bool header = false;
    for (const auto& f : a.findings) {
        if (&f == init)
            continue;
        if (!header) {
            o << "\nOther findings:\n";
            header = true;
        }
        const std::size_t n = ++listed[{f.entry, f.role}];
        const std::size_t of = findingsOf[{f.entry, f.role}];
        if (n <= kPerEntry)
            o << "  " << roleName(f.role) << "  " << a.entry(f.entry).id << "  " << f.summary << "\n";
        if (n == kPerEntry && of > kPerEntry)
            o << "  " << roleName(f.role) << "  " << a.entry(f.entry).id << "  and " << of - kPerEntry
              << " more on other processes (every one in --json: findings)\n";
    }
    const auto& hyps = init ? init->hypotheses : a.hypotheses;
    if (!hyps.empty()) {
        o << "\n" << (init ? "Competing explanations:\n" : "What the logs suggest:\n");
        std::map<int, std::size_t> hypothesesOf, said;
        for (const auto& h : hyps)
            ++hypothesesOf[h.entry];
        for (const auto& h : hyps) {
            // Entry -1: the checklist's open questions and other remarks, each one different.
            const std::size_t n = ++said[h.entry];
            if (h.entry >= 0 && n > kPerEntry) {
                if (n == kPerEntry + 1)
                    o << "  - and " << hypothesesOf[h.entry] - kPerEntry << " more of " << a.entry(h.entry).id
                      << " (every one in --json: hypotheses)\n";
                continue;
            }
            o << "  - " << h.text;
            // The entry to read: the JSON gives its id, and the text should too.
            if (h.entry >= 0)
                o << "  [" << a.entry(h.entry).id << "]";
            if (h.line)
                o << "  (" << displayFile(a, *h.line) << ":" << h.line->line + 1 << ")";
            o << "\n      would decide: " << h.decider << "\n";
        }
    }
    // A suspect that is the initiating failure's own rank (a timeout it explains) competes with
    // nothing: the finding's summary says it follows that failure, and --json keeps the suspect.
    for (const auto& f : a.findings) {
        std::vector<Suspect> others;
        for (const Suspect& s : f.suspects)
            if (!init || s.process != init->process)
                others.push_back(s);
        for (const std::string& line : suspectLines(a, others))
            o << "  suspect " << line << "\n";
    }
    o << "\nNCCL: " << a.nccl.verdict() << "\n";
    if (a.nccl.local && !a.nccl.local->found)
        o << "  local libnccl.so.2: not found (" << a.nccl.local->error << ")\n";
    {
        std::vector<std::string> lines;
        auto versions = [&](const char* what, auto get) {
            auto groups = groupBy(a, get);
            if (groups.empty())
                return;
            std::string l = std::string(what) + " ";
            for (std::size_t i = 0; i < groups.size(); ++i)
                l += (i ? "; " : "") + groups[i].value + " (" + describeProcesses(a, groups[i].processes) +
                     ")";
            lines.push_back(l);
        };
        versions("NCCL", [](const RankEnvironment& r) {
            return r.ncclVersion ? r.ncclVersion->toString() + (r.ncclVersionSource == "flight-recorder"
                                                                    ? " (from its Flight Recorder dump)"
                                                                    : "")
                   : r.ncclRangeDisplay.empty()
                       ? std::string{}
                       : std::string(r.ncclRangeDisplay) + " (from the form of its log lines)";
        });
        versions("NCCL built with CUDA", [](const RankEnvironment& r) { return r.ncclCuda; });
        versions("CUDA driver", [](const RankEnvironment& r) { return r.cudaDriver; });
        versions("PyTorch", [](const RankEnvironment& r) { return r.torchVersion; });
        versions("PyTorch's CUDA", [](const RankEnvironment& r) { return r.torchCuda; });
        {
            std::vector<std::pair<std::string, std::vector<ProcessId>>> uses;
            std::unordered_map<std::string, std::size_t> useOf;
            for (const auto& p : a.processes)
                if (p.id.value < a.environment.ranks.size())
                    for (const auto& ad : a.environment.ranks[p.id.value].addresses) {
                        auto [it, added] = useOf.try_emplace(ad.interface + " " + ad.address, uses.size());
                        if (added)
                            uses.push_back({it->first, {}});
                        // A process's addresses come together: its own last entry is the one to check.
                        std::vector<ProcessId>& users = uses[it->second].second;
                        if (users.empty() || users.back() != p.id)
                            users.push_back(p.id);
                    }
            if (!uses.empty()) {
                // A job of a thousand hosts has a thousand addresses: the first few say what they
                // look like, the JSON has them all.
                constexpr std::size_t kShown = 8;
                std::string l = "Interfaces ";
                for (std::size_t i = 0; i < uses.size() && i < kShown; ++i)
                    l += (i ? "; " : "") + uses[i].first + " (" + describeProcesses(a, uses[i].second) + ")";
                if (uses.size() > kShown)
                    l += "; and " + std::to_string(uses.size() - kShown) +
                         " more (every one in --json: environment.interfaces)";
                lines.push_back(l);
            }
        }
        for (const auto& st : a.environment.settings)
            lines.push_back(st.name + "=" + st.value + " (" + st.how + "; " +
                            describeProcesses(a, st.processes) + ")");
        for (const auto& f : a.environment.flags)
            lines.push_back("[" + f.severity + "] " + f.kind + ": " + f.detail);
        if (!lines.empty()) {
            o << "\nEnvironment:\n";
            for (const auto& l : lines)
                o << "  " << l << "\n";
        }
    }
    o << "\nRanks:\n";
    if (a.processes.empty())
        o << "  none: no log was read\n";
    // A job of thousands of ranks: how they were identified, the first few, and where the rest
    // are, so that what was skipped (below) is not ten thousand lines down.
    constexpr std::size_t kListed = 32;
    const bool many = a.processes.size() > 2 * kListed;
    if (many) {
        std::vector<std::pair<std::string, std::size_t>> how; // identity source, processes
        for (const auto& p : a.processes) {
            const std::string source = p.identitySource.empty() ? "unidentified" : p.identitySource;
            auto it = std::find_if(how.begin(), how.end(), [&](const auto& h) { return h.first == source; });
            if (it == how.end())
                how.push_back({source, 1});
            else
                ++it->second;
        }
        o << "  " << a.processes.size() << " processes, identified by ";
        for (std::size_t i = 0; i < how.size(); ++i)
            o << (i ? ", " : "") << how[i].first << " (" << how[i].second << ")";
        o << "\n";
    }
    for (std::size_t i = 0; i < a.processes.size() && (!many || i < kListed); ++i) {
        const Process& p = a.processes[i];
        o << "  " << p.label();
        if (!p.identitySource.empty())
            o << "  via " << p.identitySource;
        o << "  files:";
        for (auto s : p.sources)
            o << " " << a.source(s).displayPath;
        o << "\n";
    }
    if (many)
        o << "  and " << a.processes.size() - kListed << " more (every one in --json: ranks)\n";
    if (!a.skipped.empty()) {
        o << "\nSkipped:\n";
        for (const auto& s : a.skipped)
            o << "  " << s.file << ": " << s.reason << "\n";
    }
    return o.str();
}

} // namespace rl
