#include "bundle/json_records.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <ctime>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "parse/line_parser.h"
#include "util/text_kind.h"

namespace rl
{
namespace
{

// The fields of one record that say what it holds, as views of the line or, for strings with
// escapes, of their decoded copies in `decoded` (kept from line to line for their room).
struct Record {
    enum Key : std::uint8_t {
        Log,               // Docker's text (and some collectors')
        Time,              // Docker's RFC 3339 time; others' time as text or a number
        Stream,            // Docker's stdout/stderr: only says the record is Docker's
        JournalMessage,    // journald's MESSAGE
        JournalTime,       // __REALTIME_TIMESTAMP, microseconds since the epoch
        JournalHost,       // _HOSTNAME
        JournalIdentifier, // SYSLOG_IDENTIFIER
        JournalCommand,    // _COMM, when there is no identifier
        JournalPid,        // _PID
        JournalTransport,  // _TRANSPORT ("kernel" for the kernel's own lines)
        Message,           // message / msg
        Line,              // Loki's line
        OtherTime,         // @timestamp / timestamp / ts / date
        Level,             // level / levelname / severity
        TextPayload,       // Cloud Logging's textPayload
        PayloadMessage,    // Cloud Logging's jsonPayload.message
        PodName,           // kubernetes.pod_name (Fluent Bit, Vector), resource.labels.pod_name (GKE)
        ContainerName,     // kubernetes.container_name, resource.labels.container_name
        LogStream,         // CloudWatch Logs' logStreamName (aws logs filter-log-events)
        Count
    };
    std::array<std::string_view, Count> value{};
    std::array<bool, Count> present{};
    std::array<bool, Count> isString{};
    std::array<std::string, Count> decoded;
    std::string scratch; // the decoded strings of fields nobody reads

    void clear()
    {
        present.fill(false);
        isString.fill(false);
        value.fill({});
    }
    std::string_view text(Key k) const { return present[k] && isString[k] ? value[k] : std::string_view{}; }
    bool has(Key k) const { return present[k]; }
};

// Where in a record an object's members are: the top level, or one of the few nested objects
// that say something about the line (which pod wrote it; a structured payload's text).
enum class Within : std::uint8_t {
    Top,
    Kubernetes,          // Fluent Bit's and Vector's "kubernetes": {"pod_name", "container_name"}
    KubernetesPod,       // Filebeat's "kubernetes": {"pod": {"name"}}
    KubernetesContainer, // Filebeat's "kubernetes": {"container": {"name"}}
    Resource,            // Cloud Logging's "resource": {"type", "labels"}
    ResourceLabels,      // a k8s_container's "labels": {"pod_name", "container_name", ...}
    JsonPayload,         // Cloud Logging's "jsonPayload": {"message", ...}
    Nowhere,             // not a nested object anyone reads
};

// What a member named `key` is where it stands: a field of the record (Record::Key), or -1; and
// where its value's members are, when its value is an object that is read.
struct Field {
    int key = -1;
    Within nested = Within::Nowhere;
};

Field fieldOf(std::string_view key, Within within)
{
    struct Name {
        std::string_view name;
        int key;
        Within nested;
    };
    static constexpr Name top[] = {
        {"log", Record::Log, Within::Nowhere},
        {"time", Record::Time, Within::Nowhere},
        {"stream", Record::Stream, Within::Nowhere},
        {"MESSAGE", Record::JournalMessage, Within::Nowhere},
        {"__REALTIME_TIMESTAMP", Record::JournalTime, Within::Nowhere},
        {"_HOSTNAME", Record::JournalHost, Within::Nowhere},
        {"SYSLOG_IDENTIFIER", Record::JournalIdentifier, Within::Nowhere},
        {"_COMM", Record::JournalCommand, Within::Nowhere},
        {"_PID", Record::JournalPid, Within::Nowhere},
        {"_TRANSPORT", Record::JournalTransport, Within::Nowhere},
        {"message", Record::Message, Within::Nowhere},
        {"msg", Record::Message, Within::Nowhere},
        {"line", Record::Line, Within::Nowhere},
        {"@timestamp", Record::OtherTime, Within::Nowhere},
        {"timestamp", Record::OtherTime, Within::Nowhere},
        {"ts", Record::OtherTime, Within::Nowhere},
        {"date", Record::OtherTime, Within::Nowhere},
        {"level", Record::Level, Within::Nowhere},
        {"levelname", Record::Level, Within::Nowhere},
        {"severity", Record::Level, Within::Nowhere},
        {"textPayload", Record::TextPayload, Within::Nowhere},
        {"jsonPayload", -1, Within::JsonPayload},
        {"resource", -1, Within::Resource},
        {"kubernetes", -1, Within::Kubernetes},
        {"logStreamName", Record::LogStream, Within::Nowhere},
    };
    static constexpr Name kubernetes[] = {
        {"pod_name", Record::PodName, Within::Nowhere},
        {"container_name", Record::ContainerName, Within::Nowhere},
        {"pod", -1, Within::KubernetesPod},
        {"container", -1, Within::KubernetesContainer},
    };
    static constexpr Name resourceLabels[] = {
        {"pod_name", Record::PodName, Within::Nowhere},
        {"container_name", Record::ContainerName, Within::Nowhere},
    };
    std::span<const Name> names;
    switch (within) {
    case Within::Top:
        names = top;
        break;
    case Within::Kubernetes:
        names = kubernetes;
        break;
    case Within::ResourceLabels:
        names = resourceLabels;
        break;
    case Within::KubernetesPod:
        return key == "name" ? Field{Record::PodName, Within::Nowhere} : Field{};
    case Within::KubernetesContainer:
        return key == "name" ? Field{Record::ContainerName, Within::Nowhere} : Field{};
    case Within::Resource:
        return key == "labels" ? Field{-1, Within::ResourceLabels} : Field{};
    case Within::JsonPayload:
        return key == "message" ? Field{Record::PayloadMessage, Within::Nowhere} : Field{};
    case Within::Nowhere:
        return {};
    }
    for (const Name& n : names)
        if (n.name == key)
            return {n.key, n.nested};
    return {};
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

// A strict reader of one JSON object (on one line, or pretty-printed over several): the top
// level's keys and values, and the few nested objects Within names; other nested objects and
// arrays are passed over (journald's MESSAGE as an array of bytes excepted). Anything that is not
// JSON makes it no record.
class LineReader
{
public:
    explicit LineReader(std::string_view line) : m_s(line) {}

    bool object(Record& r)
    {
        r.clear();
        space();
        return members(r, Within::Top) && end();
    }

private:
    // An object's members, read into `r` as `within` says; true at its closing brace.
    bool members(Record& r, Within within)
    {
        if (!take('{'))
            return false;
        space();
        if (take('}'))
            return true;
        while (true) {
            std::string_view keyView;
            space();
            if (!string(keyView, m_key))
                return false;
            space();
            if (!take(':'))
                return false;
            space();
            if (!value(r, fieldOf(keyView, within)))
                return false;
            space();
            if (take(','))
                continue;
            return take('}');
        }
    }

    bool end()
    {
        space();
        return m_at == m_s.size();
    }
    void space()
    {
        // A line break too: a pretty-printed record spans lines (a JSON line has none outside its
        // strings).
        m_at = skipJsonSpace(m_s, m_at);
    }
    bool take(char c)
    {
        if (m_at < m_s.size() && m_s[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    int hex4()
    {
        if (m_s.size() - m_at < 4)
            return -1;
        int v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_s[m_at++];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= c - '0';
            else if (c >= 'a' && c <= 'f')
                v |= c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                v |= c - 'A' + 10;
            else
                return -1;
        }
        return v;
    }
    // A string: `view` is the line's own bytes where it has no escape, else `decoded`.
    bool string(std::string_view& view, std::string& decoded)
    {
        if (!take('"'))
            return false;
        const std::size_t from = m_at;
        while (m_at < m_s.size() && m_s[m_at] != '"' && m_s[m_at] != '\\')
            ++m_at;
        if (m_at < m_s.size() && m_s[m_at] == '"') {
            view = m_s.substr(from, m_at - from);
            ++m_at;
            return true;
        }
        decoded.assign(m_s.substr(from, m_at - from));
        while (m_at < m_s.size()) {
            const char c = m_s[m_at++];
            if (c == '"') {
                view = decoded;
                return true;
            }
            if (c != '\\') {
                decoded += c;
                continue;
            }
            if (m_at >= m_s.size())
                return false;
            switch (m_s[m_at++]) {
            case '"':
                decoded += '"';
                break;
            case '\\':
                decoded += '\\';
                break;
            case '/':
                decoded += '/';
                break;
            case 'b':
                decoded += '\b';
                break;
            case 'f':
                decoded += '\f';
                break;
            case 'n':
                decoded += '\n';
                break;
            case 'r':
                decoded += '\r';
                break;
            case 't':
                decoded += '\t';
                break;
            case 'u': {
                int cp = hex4();
                if (cp < 0)
                    return false;
                if (cp >= 0xd800 && cp < 0xdc00) {
                    // A surrogate pair's high half; a half left alone is shown as U+FFFD.
                    const std::size_t back = m_at;
                    int low = -1;
                    if (m_s.substr(m_at, 2) == "\\u") {
                        m_at += 2;
                        low = hex4();
                    }
                    if (low >= 0xdc00 && low < 0xe000) {
                        appendUtf8(decoded, 0x10000 + ((static_cast<std::uint32_t>(cp) - 0xd800) << 10) +
                                                (static_cast<std::uint32_t>(low) - 0xdc00));
                        break;
                    }
                    m_at = back;
                    cp = 0xfffd;
                } else if (cp >= 0xdc00 && cp < 0xe000) {
                    cp = 0xfffd;
                }
                appendUtf8(decoded, static_cast<std::uint32_t>(cp));
                break;
            }
            default:
                return false;
            }
        }
        return false;
    }
    bool literal(std::string_view word)
    {
        if (m_s.substr(m_at, word.size()) != word)
            return false;
        m_at += word.size();
        return true;
    }
    bool number(std::string_view& view)
    {
        const std::size_t from = m_at;
        take('-');
        while (m_at < m_s.size() &&
               ((m_s[m_at] >= '0' && m_s[m_at] <= '9') || m_s[m_at] == '.' || m_s[m_at] == 'e' ||
                m_s[m_at] == 'E' || m_s[m_at] == '+' || m_s[m_at] == '-'))
            ++m_at;
        view = m_s.substr(from, m_at - from);
        return m_at > from && !(view.size() == 1 && view[0] == '-');
    }
    // journald writes a MESSAGE that is not valid UTF-8 as an array of its bytes.
    bool byteArray(std::string& out)
    {
        space();
        if (take(']'))
            return true;
        while (true) {
            std::string_view n;
            if (!number(n))
                return false;
            int v = 0;
            for (const char c : n) {
                if (c < '0' || c > '9' || (v = v * 10 + (c - '0')) > 255)
                    return false;
            }
            out += static_cast<char>(v);
            space();
            if (take(']'))
                return true;
            if (!take(','))
                return false;
            space();
        }
    }
    // Passes over a nested object or array: strings read whole (their brackets are text).
    bool skipNested(std::string& scratch)
    {
        int depth = 0;
        while (m_at < m_s.size()) {
            const char c = m_s[m_at];
            if (c == '"') {
                std::string_view v;
                if (!string(v, scratch))
                    return false;
                continue;
            }
            ++m_at;
            if (c == '{' || c == '[')
                ++depth;
            else if ((c == '}' || c == ']') && --depth == 0)
                return true;
        }
        return false;
    }
    bool value(Record& r, Field field)
    {
        if (m_at >= m_s.size())
            return false;
        int key = field.key;
        const char c = m_s[m_at];
        if (c == '{' && field.nested != Within::Nowhere)
            return members(r, field.nested);
        std::string_view v;
        bool isString = false;
        // Only a field's first occurrence counts; a later one is read into the scratch.
        const bool kept = key >= 0 && !r.present[static_cast<std::size_t>(key)];
        std::string& decoded = kept ? r.decoded[static_cast<std::size_t>(key)] : r.scratch;
        if (c == '"') {
            if (!string(v, decoded))
                return false;
            isString = true;
        } else if (c == '[' && key == Record::JournalMessage) {
            ++m_at;
            decoded.clear();
            if (!byteArray(decoded))
                return false;
            v = decoded;
            isString = true;
        } else if (c == '{' || c == '[') {
            if (!skipNested(r.scratch))
                return false;
        } else if (c == 't') {
            if (!literal("true"))
                return false;
        } else if (c == 'f') {
            if (!literal("false"))
                return false;
        } else if (c == 'n') {
            if (!literal("null"))
                return false;
            key = -1; // a null field is as good as none
        } else if (!number(v)) {
            return false;
        }
        if (kept && key >= 0) {
            r.present[static_cast<std::size_t>(key)] = true;
            r.isString[static_cast<std::size_t>(key)] = isString;
            r.value[static_cast<std::size_t>(key)] = v;
        }
        return true;
    }
    std::string_view m_s;
    std::size_t m_at = 0;
    std::string m_key; // a key with escapes, decoded
};

// "2025-06-12T10:00:01.123456Z" (`zone` last) from seconds and microseconds since the epoch; empty
// where it is no plausible time (before 2000 or after 2100: a field of another meaning).
std::string isoFromEpoch(std::uint64_t seconds, std::uint64_t micros, const char* zone)
{
    if (seconds < 946684800 || seconds > 4102444800)
        return {};
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lld%s", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(micros), zone);
    return buf;
}

// A number of seconds, milliseconds, microseconds or nanoseconds since the epoch (told apart by
// its size, as collectors write any of them), possibly with a fraction, as an ISO time.
std::string isoFromNumber(std::string_view n, const char* zone)
{
    // Unsigned: any 19 digits fit (nanoseconds since the epoch have 19 until 2286).
    std::uint64_t whole = 0;
    std::size_t i = 0;
    int digits = 0;
    for (; i < n.size() && n[i] >= '0' && n[i] <= '9'; ++i, ++digits) {
        if (digits >= 19)
            return {};
        whole = whole * 10 + static_cast<std::uint64_t>(n[i] - '0');
    }
    if (digits == 0)
        return {};
    std::uint64_t fracMicros = 0;
    if (i < n.size() && n[i] == '.') {
        std::uint64_t scale = 100000;
        for (++i; i < n.size() && n[i] >= '0' && n[i] <= '9'; ++i, scale /= 10)
            fracMicros += scale * static_cast<std::uint64_t>(n[i] - '0');
    }
    if (i != n.size())
        return {}; // an exponent or a sign: no time anyone logs
    if (digits <= 10)
        return isoFromEpoch(whole, fracMicros, zone);
    if (digits <= 13)
        return isoFromEpoch(whole / 1000, (whole % 1000) * 1000, zone);
    if (digits <= 16)
        return isoFromEpoch(whole / 1000000, whole % 1000000, zone);
    return isoFromEpoch(whole / 1000000000, (whole % 1000000000) / 1000, zone);
}

// An ISO date and time as text is used as it is; a number is converted.
std::string timeOf(std::string_view v, bool isString)
{
    if (!isString)
        return isoFromNumber(v, "Z");
    if (v.size() >= 19 && v[4] == '-' && v[7] == '-' && (v[10] == 'T' || v[10] == ' ') && v[13] == ':')
        return std::string(v);
    if (!v.empty() && v.find_first_not_of("0123456789.") == std::string_view::npos)
        return isoFromNumber(v, "Z");
    return {};
}

// Appends `text` one line per line, each after `prefix`; a text that ends with a line break (as
// Docker's do) ends there, and CR LF ends a line as LF does.
void appendLines(std::string& out, std::string_view prefix, std::string_view text)
{
    if (!text.empty() && text.back() == '\n')
        text.remove_suffix(1);
    while (true) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        out += prefix;
        out += line;
        out += '\n';
        if (nl == std::string_view::npos)
            return;
        text.remove_prefix(nl + 1);
    }
}

// Docker's json-file record has these three, and nothing else writes all three: only then is a
// text without a line break the first piece of a line (a collector's record of one line, which
// ends with none, is no piece of anything).
bool dockerRecord(const Record& r)
{
    return r.has(Record::Log) && r.isString[Record::Log] && r.has(Record::Stream) &&
           r.isString[Record::Stream] && r.has(Record::Time);
}

// What a pod's or container's name is made of (DNS labels), as the line parser reads them back.
bool isPodChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

// The prefix and text of a record, or false when it holds no log line.
bool lineOf(const Record& r, std::string& prefix, std::string_view& text)
{
    prefix.clear();
    if (r.has(Record::JournalMessage)) {
        text = r.text(Record::JournalMessage);
        const std::string_view micros = r.text(Record::JournalTime);
        std::string when;
        if (!micros.empty() && micros.size() <= 19 &&
            micros.find_first_not_of("0123456789") == std::string_view::npos) {
            std::uint64_t us = 0;
            for (const char c : micros)
                us = us * 10 + static_cast<std::uint64_t>(c - '0');
            when = isoFromEpoch(us / 1000000, us % 1000000, "+0000");
        }
        std::string_view host = r.text(Record::JournalHost);
        const bool kernel = r.text(Record::JournalTransport) == "kernel";
        std::string_view ident = kernel ? std::string_view("kernel") : r.text(Record::JournalIdentifier);
        if (ident.empty())
            ident = r.text(Record::JournalCommand);
        if (!when.empty())
            prefix = when + " ";
        if (!host.empty() && !ident.empty()) {
            prefix.append(host).append(" ").append(ident);
            const std::string_view pid = r.text(Record::JournalPid);
            if (!kernel && !pid.empty())
                prefix.append("[").append(pid).append("]");
            prefix += ": ";
        }
        return true;
    }
    const bool docker = dockerRecord(r);
    Record::Key textKey = Record::Count;
    for (const Record::Key k :
         {Record::Message, Record::Log, Record::Line, Record::TextPayload, Record::PayloadMessage})
        if (r.has(k) && r.isString[k]) {
            textKey = k;
            break;
        }
    if (docker)
        textKey = Record::Log;
    if (textKey == Record::Count)
        return false;
    text = r.value[textKey];
    // The pod, as `kubectl logs --prefix` names it, which the line parser knows: a job's pods in
    // one export are then each a stream of their own, as they are in kubectl's. A CloudWatch log
    // stream of one host's console stands for one too: SageMaker names a training job's streams
    // "<job>/algo-<n>-<epoch seconds>", algo-<n> being the host's name.
    std::string_view pod = r.text(Record::PodName);
    if (pod.empty() && !r.text(Record::LogStream).empty()) {
        pod = r.text(Record::LogStream);
        pod.remove_prefix(std::min(pod.size(), pod.rfind('/') + 1));
        const std::size_t dash = pod.rfind('-');
        if (dash != std::string_view::npos && pod.size() - dash - 1 >= 9 &&
            pod.find_first_not_of("0123456789", dash + 1) == std::string_view::npos)
            pod = pod.substr(0, dash);
    }
    if (!pod.empty() && pod.size() <= 253 &&
        std::all_of(pod.begin(), pod.end(), [](char c) { return isPodChar(c) || c == '.'; })) {
        std::string_view container = r.text(Record::ContainerName);
        if (container.size() > 63 || !std::all_of(container.begin(), container.end(), isPodChar))
            container = {};
        prefix.append("[pod/").append(pod).append("/").append(container).append("] ");
    }
    std::string when;
    if (r.has(Record::Time))
        when = timeOf(r.value[Record::Time], r.isString[Record::Time]);
    if (when.empty() && r.has(Record::OtherTime))
        when = timeOf(r.value[Record::OtherTime], r.isString[Record::OtherTime]);
    if (!when.empty())
        prefix.append(when).append(" ");
    // Cloud Logging gives a container's plain text a severity by its stream (ERROR for all of
    // stderr, where Python's warnings and tracebacks go); only a structured payload's is the
    // program's own.
    if (!docker && textKey != Record::TextPayload) {
        std::string_view level = r.text(Record::Level);
        if (!level.empty() && level.size() <= 12) {
            for (const char c : level)
                prefix += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
            prefix += ' ';
        }
    }
    return true;
}

// One record read: the record whose line is written (`r`, or the record its text holds), its
// prefix and its text. A collector may send another's whole record as its text: Fluent Bit's
// record of a container's line ({"log": ..., "kubernetes": {...}}) as a CloudWatch event's
// message. The inner record then says what the line is; where it gives no time or pod, the
// outer one's stand.
struct ReadRecord {
    Record outer, inner;
    std::string prefix, innerPrefix;
    const Record* used = nullptr;
    std::string_view text;

    bool read(std::string_view json)
    {
        LineReader reader(json);
        if (!reader.object(outer) || !lineOf(outer, prefix, text))
            return false;
        used = &outer;
        std::string_view t = text;
        while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' '))
            t.remove_suffix(1);
        if (t.size() < 2 || t.front() != '{' || t.back() != '}')
            return true;
        // The inner record's strings are decoded into its own room, which `text` may then view.
        LineReader nested(t);
        if (!nested.object(inner))
            return true;
        auto lend = [&](std::initializer_list<Record::Key> keys) {
            for (const Record::Key k : keys)
                if (inner.has(k))
                    return;
            for (const Record::Key k : keys) {
                inner.present[k] = outer.present[k];
                inner.isString[k] = outer.isString[k];
                inner.value[k] = outer.value[k]; // a view of the outer record's room, alive as long
            }
        };
        lend({Record::Time, Record::OtherTime});
        lend({Record::PodName, Record::ContainerName});
        lend({Record::LogStream});
        std::string_view innerText;
        if (lineOf(inner, innerPrefix, innerText)) {
            used = &inner;
            text = innerText;
            prefix = innerPrefix;
        }
        return true;
    }
};

// Where the object that starts at text[from] ('{') ends (one past its '}'), strings read past
// whole; npos when it does not end in the text.
std::size_t objectEnd(std::string_view text, std::size_t from)
{
    int depth = 0;
    for (std::size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\')
                    ++i;
            if (i >= text.size())
                return std::string_view::npos;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

// The log lines the records make, one unit (a record's lines, or a line kept as it was) after
// another, with where each starts and whether their times mostly go down, so that an export
// written newest first can be put back in the order its lines were written.
class Lines
{
public:
    explicit Lines(std::size_t reserve) { m_out.reserve(reserve); }

    void record(const Record& r, const std::string& prefix, std::string_view text)
    {
        if (dockerRecord(r)) {
            // Docker's pieces of a long line, per stream and pod (stdout's and stderr's
            // interleave, and so do a collector's pods): the line is written where its last piece is.
            std::string stream(r.value[Record::Stream]);
            stream.append("\n")
                .append(r.text(Record::PodName))
                .append("\n")
                .append(r.text(Record::ContainerName));
            const bool piece = !text.empty() && text.back() != '\n';
            auto it =
                std::find_if(m_open.begin(), m_open.end(), [&](const Open& o) { return o.stream == stream; });
            if (it != m_open.end()) {
                it->text.append(text);
                if (!piece) {
                    unit(it->prefix);
                    appendLines(m_out, it->prefix, it->text);
                    m_open.erase(it);
                }
                return;
            }
            if (piece) {
                m_open.push_back({std::move(stream), prefix, std::string(text)});
                return;
            }
        }
        unit(prefix);
        appendLines(m_out, prefix, text);
    }
    // A line that is no record, kept as it is (without its carriage return).
    void kept(std::string_view line)
    {
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        m_units.push_back(m_out.size());
        m_out.append(line).append("\n");
    }
    // Text that is no record, each of its lines kept.
    void keptLines(std::string_view text)
    {
        while (!text.empty()) {
            const std::size_t nl = text.find('\n');
            kept(text.substr(0, nl));
            if (nl == std::string_view::npos)
                break;
            text.remove_prefix(nl + 1);
        }
    }

    std::string take()
    {
        // Pieces still open at the end: a file still being written, or cut short.
        for (const Open& o : m_open) {
            unit(o.prefix);
            appendLines(m_out, o.prefix, o.text);
        }
        m_open.clear();
        // `gcloud logging read` lists entries newest first unless told `--order=asc`: an export
        // whose times go down more often than up is read backwards, as its lines were written.
        // (Docker's and journald's records are in the order written; a collector's may step back
        // now and then.)
        if (m_down <= m_up)
            return std::move(m_out);
        std::string out;
        out.reserve(m_out.size());
        for (std::size_t u = m_units.size(); u-- > 0;) {
            const std::size_t end = u + 1 < m_units.size() ? m_units[u + 1] : m_out.size();
            out.append(m_out, m_units[u], end - m_units[u]);
        }
        return out;
    }

private:
    struct Open {
        std::string stream, prefix, text;
    };

    void unit(std::string_view prefix)
    {
        // The time is in the prefix, after the pod where one is named.
        std::string_view p = prefix;
        if (p.starts_with("[pod/"))
            p.remove_prefix(std::min(p.size(), p.find("] ") + 2));
        if (auto ts = parseTimestampAt(p, 1970)) {
            if (m_lastUs && ts->us > *m_lastUs)
                ++m_up;
            else if (m_lastUs && ts->us < *m_lastUs)
                ++m_down;
            m_lastUs = ts->us;
        }
        m_units.push_back(m_out.size());
    }

    std::string m_out;
    std::vector<std::size_t> m_units; // where each unit starts in m_out
    std::vector<Open> m_open;
    // How often a unit's time went up or down from the last unit's that had one.
    std::optional<std::int64_t> m_lastUs;
    std::size_t m_up = 0, m_down = 0;
};

// A JSON array of records, as `gcloud logging read --format=json` and other exports write them
// (pretty-printed, or all on one line): each element that is a record becomes its lines, each that
// is not is kept as it is. Several arrays one after another (exports appended to one file) are
// read alike. Nullopt when the first element is no record.
std::optional<std::string> arrayText(std::string_view text, std::size_t at)
{
    ReadRecord r;
    Lines lines(text.size() / 2);
    bool first = true;
    at = skipJsonSpace(text, at);
    while (at < text.size()) {
        if (text[at] == '[' || text[at] == ',' || text[at] == ']') {
            at = skipJsonSpace(text, at + 1);
            continue;
        }
        const std::size_t end = text[at] == '{' ? objectEnd(text, at) : std::string_view::npos;
        if (end == std::string_view::npos) {
            // Cut short, or no array of objects from here on: the rest as it is.
            if (first)
                return std::nullopt;
            lines.keptLines(text.substr(at));
            break;
        }
        const std::string_view element = text.substr(at, end - at);
        const bool record = r.read(element);
        if (first && !record)
            return std::nullopt;
        first = false;
        if (record)
            lines.record(*r.used, r.prefix, r.text);
        else
            lines.keptLines(element);
        at = skipJsonSpace(text, end);
    }
    if (first)
        return std::nullopt;
    return lines.take();
}

} // namespace

std::optional<std::string> jsonRecordsText(std::string_view text)
{
    std::size_t at = 0;
    if (text.substr(0, 3) == "\xef\xbb\xbf")
        at = 3;
    // The AWS CLI's answer to `aws logs filter-log-events` or `get-log-events`: {"events": [...],
    // "nextToken": ...}, the events oldest first; what follows the events says nothing of the job.
    const std::size_t open = skipJsonSpace(text, at);
    if (open < text.size() && text[open] == '{') {
        std::size_t p = skipJsonSpace(text, open + 1);
        if (text.substr(p, 8) == "\"events\"" && (p = skipJsonSpace(text, p + 8)) < text.size() &&
            text[p] == ':' && (p = skipJsonSpace(text, p + 1)) < text.size() && text[p] == '[') {
            const std::size_t end = objectEnd(text, p);
            return arrayText(text.substr(0, end == std::string_view::npos ? text.size() : end), p);
        }
    }
    if (open < text.size() && text[open] == '[') {
        if (const std::size_t element = skipJsonSpace(text, open + 1);
            element < text.size() && text[element] == '{')
            return arrayText(text, open);
        return std::nullopt;
    }
    ReadRecord r;
    std::optional<Lines> lines;
    std::size_t blank = 0; // blank lines before the first record, which keep their places
    while (at < text.size()) {
        const std::size_t nl = text.find('\n', at);
        const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
        const std::string_view line = text.substr(at, end - at);
        at = end + (nl == std::string_view::npos ? 0 : 1);
        if (!lines && line.find_first_not_of(" \t\r") == std::string_view::npos) {
            ++blank;
            continue;
        }
        const bool record = r.read(line);
        if (!lines) {
            if (!record)
                return std::nullopt;
            lines.emplace(text.size());
            for (; blank > 0; --blank)
                lines->kept({});
        }
        if (record)
            lines->record(*r.used, r.prefix, r.text);
        else
            lines->kept(line);
    }
    if (!lines)
        return std::nullopt;
    return lines->take();
}

} // namespace rl
