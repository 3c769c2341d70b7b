#include "parse/line_parser.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstring>

#include "util/ascii.h"
#include "util/text_kind.h"

namespace rl
{

const char* levelName(Level level)
{
    switch (level) {
    case Level::None:
        return "";
    case Level::Trace:
        return "TRACE";
    case Level::Info:
        return "INFO";
    case Level::Warn:
        return "WARN";
    case Level::Error:
        return "ERROR";
    case Level::Fatal:
        return "FATAL";
    }
    return "";
}

namespace
{

// Reads exactly `n` digits at `pos`.
bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out)
{
    if (pos + n > s.size())
        return false;
    int v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        char c = s[pos + i];
        if (!isDigit(c))
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}

// Reads 1..max digits; returns count read.
std::size_t someDigits(std::string_view s, std::size_t pos, std::int64_t& out, std::size_t max = 18)
{
    std::size_t i = 0;
    std::int64_t v = 0;
    while (pos + i < s.size() && i < max && isDigit(s[pos + i])) {
        v = v * 10 + (s[pos + i] - '0');
        ++i;
    }
    out = v;
    return i;
}

// Fractional seconds "123" / "123456789" -> microseconds and resolution.
std::size_t fraction(std::string_view s, std::size_t pos, std::int64_t& us, std::int64_t& resolution)
{
    std::size_t n = 0;
    std::int64_t v = 0;
    while (pos + n < s.size() && isDigit(s[pos + n])) {
        if (n < 6)
            v = v * 10 + (s[pos + n] - '0');
        ++n;
    }
    std::size_t used = n < 6 ? n : 6;
    std::int64_t scale = 1;
    for (std::size_t i = used; i < 6; ++i)
        scale *= 10;
    us = v * scale;
    resolution = scale;
    return n;
}

bool validDate(int month, int day, int hour, int minute, int second)
{
    return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60;
}

// Past the fraction of a second at `p` ('.' or ',' and at least a digit), added to `ts`; `p` itself
// where there is none.
std::size_t afterFraction(std::string_view s, std::size_t p, Timestamp& ts)
{
    if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
        std::int64_t us = 0, res = 1000000;
        if (const std::size_t n = fraction(s, p + 1, us, res)) {
            ts.us += us;
            ts.resolutionUs = res;
            return p + 1 + n;
        }
    }
    return p;
}

// "YYYY-MM-DD[ T]HH:MM:SS[.,frac][Z|+hh:mm]" at pos.
std::optional<Timestamp> isoAt(std::string_view s, std::size_t pos, std::size_t& end)
{
    int y, mo, d, h, mi, se = 0;
    // "2025/06/12 14:03:17" too, as Go's log package writes it.
    if (!digits(s, pos, 4, y) || pos + 16 > s.size() || (s[pos + 4] != '-' && s[pos + 4] != '/') ||
        !digits(s, pos + 5, 2, mo) || s[pos + 7] != s[pos + 4] || !digits(s, pos + 8, 2, d) ||
        (s[pos + 10] != ' ' && s[pos + 10] != 'T') || !digits(s, pos + 11, 2, h) || s[pos + 13] != ':' ||
        !digits(s, pos + 14, 2, mi))
        return std::nullopt;
    // To the minute, then a space: how some job consoles' log views stamp each line they collected
    // ("2025-02-18 12:54 [rank13]:[E218 04:54:22.86 ...]", NVIDIA/nccl#1610). The line happened
    // somewhere in that minute.
    if (pos + 16 == s.size() || s[pos + 16] == ' ') {
        if (!validDate(mo, d, h, mi, 0))
            return std::nullopt;
        Timestamp ts;
        ts.us = civilToUnixSeconds(y, mo, d, h, mi, 0) * 1000000;
        ts.resolutionUs = 60 * 1000000;
        end = pos + 16;
        return ts;
    }
    if (pos + 19 > s.size() || s[pos + 16] != ':' || !digits(s, pos + 17, 2, se) ||
        !validDate(mo, d, h, mi, se))
        return std::nullopt;
    Timestamp ts;
    ts.us = civilToUnixSeconds(y, mo, d, h, mi, se) * 1000000;
    ts.resolutionUs = 1000000;
    std::size_t p = afterFraction(s, pos + 19, ts);
    if (p < s.size() && s[p] == 'Z') {
        ++p;
    } else if (p + 5 < s.size() + 0 && (s[p] == '+' || s[p] == '-') && isDigit(s[p + 1])) {
        int oh = 0, om = 0;
        std::size_t q = p + 1;
        if (digits(s, q, 2, oh)) {
            q += 2;
            if (q < s.size() && s[q] == ':')
                ++q;
            if (digits(s, q, 2, om))
                q += 2;
            std::int64_t off = (oh * 3600 + om * 60) * std::int64_t{1000000};
            ts.us += s[p] == '+' ? -off : off;
            p = q;
        }
    }
    end = p;
    return ts;
}

// The year (proleptic Gregorian, UTC) of a time in microseconds since 1970.
int yearOf(std::int64_t us)
{
    using namespace std::chrono;
    return static_cast<int>(year_month_day(floor<days>(sys_time<microseconds>(microseconds(us)))).year());
}

// A logger's stamp (`inner`) inside a collector's coarser one (`outer`: the second or minute when
// it collected the line), as the collector's clock tells it. The two clocks may be in different
// zones (NVIDIA/nccl#1610: the collector's 12:54 and glog's 04:54:22, eight hours apart), so the
// inner one is moved by the whole quarter-hours nearest the gap (every zone's offset is one, and
// none is more than 14 hours); it counts only if it then falls inside the collector's stamp, which
// a clock merely off by some minutes, or a line collected a second late, does not. Nullopt where
// it does not fit or is no finer.
std::optional<Timestamp> withinCollectorStamp(const Timestamp& outer, const Timestamp& inner)
{
    constexpr std::int64_t kQuarterHour = std::int64_t{15} * 60 * 1'000'000;
    constexpr std::int64_t kLargestZone = std::int64_t{14} * 3600 * 1'000'000;
    if (inner.resolutionUs >= outer.resolutionUs)
        return std::nullopt;
    const std::int64_t gap = outer.us - inner.us;
    const std::int64_t quarters =
        gap >= 0 ? (gap + kQuarterHour / 2) / kQuarterHour : -((kQuarterHour / 2 - gap) / kQuarterHour);
    const std::int64_t offset = quarters * kQuarterHour;
    if (offset > kLargestZone || offset < -kLargestZone)
        return std::nullopt;
    const std::int64_t at = inner.us + offset;
    if (at < outer.us || at - outer.us >= outer.resolutionUs)
        return std::nullopt;
    return Timestamp{at, inner.resolutionUs, outer.yearGuessed};
}

// Where a stamp whose seconds end at `p` ends: past a fraction ('.' or ',' and digits, added to
// `ts`), at a space, a ']' or the line's end; npos where something else runs on ("14:03:17x").
std::size_t stampEnd(std::string_view s, std::size_t p, Timestamp& ts)
{
    p = afterFraction(s, p, ts);
    return p < s.size() && s[p] != ' ' && s[p] != ']' ? std::string_view::npos : p;
}

// "06/12/2025 14:03:17[.,frac]" at pos: the month first, as Hugging Face's example scripts and
// accelerate log (datefmt "%m/%d/%Y %H:%M:%S"); the day first where the first number is no month.
std::optional<Timestamp> monthDayYearAt(std::string_view s, std::size_t pos, std::size_t& end)
{
    int a, b, y, h, mi, se;
    if (pos + 19 > s.size() || !digits(s, pos, 2, a) || s[pos + 2] != '/' || !digits(s, pos + 3, 2, b) ||
        s[pos + 5] != '/' || !digits(s, pos + 6, 4, y) || s[pos + 10] != ' ' || !digits(s, pos + 11, 2, h) ||
        s[pos + 13] != ':' || !digits(s, pos + 14, 2, mi) || s[pos + 16] != ':' ||
        !digits(s, pos + 17, 2, se))
        return std::nullopt;
    const int mo = a > 12 ? b : a;
    const int d = a > 12 ? a : b;
    if (!validDate(mo, d, h, mi, se))
        return std::nullopt;
    Timestamp ts;
    ts.us = civilToUnixSeconds(y, mo, d, h, mi, se) * 1000000;
    ts.resolutionUs = 1000000;
    end = stampEnd(s, pos + 19, ts);
    if (end == std::string_view::npos)
        return std::nullopt;
    return ts;
}

// glog: "[IWEF]MMDD HH:MM:SS[.frac]" at pos.
std::optional<Timestamp> glogAt(std::string_view s, std::size_t pos, int year, std::size_t& end, Level& level)
{
    if (pos + 13 > s.size())
        return std::nullopt;
    char c = s[pos];
    Level lv;
    switch (c) {
    case 'I':
        lv = Level::Info;
        break;
    case 'W':
        lv = Level::Warn;
        break;
    case 'E':
        lv = Level::Error;
        break;
    case 'F':
        lv = Level::Fatal;
        break;
    default:
        return std::nullopt;
    }
    int mo, d, h, mi, se;
    // glog prints MMDD; PyTorch's own c10 logger prints the month unpadded ("E321" is March 21).
    std::size_t md = 4;
    if (pos + 4 < s.size() && s[pos + 4] == ' ')
        md = 3;
    if (!digits(s, pos + 1, md - 2, mo) || !digits(s, pos + md - 1, 2, d))
        return std::nullopt;
    const std::size_t t = pos + 1 + md + 1; // first digit of the hour
    if (t + 8 > s.size() || s[t - 1] != ' ' || !digits(s, t, 2, h) || s[t + 2] != ':' ||
        !digits(s, t + 3, 2, mi) || s[t + 5] != ':' || !digits(s, t + 6, 2, se) ||
        !validDate(mo, d, h, mi, se))
        return std::nullopt;
    Timestamp ts;
    ts.us = civilToUnixSeconds(year, mo, d, h, mi, se) * 1000000;
    ts.resolutionUs = 1000000;
    ts.yearGuessed = true;
    std::size_t p = t + 8;
    if (p < s.size() && s[p] == '.') {
        std::int64_t us = 0, res = 1000000;
        std::size_t n = fraction(s, p + 1, us, res);
        ts.us += us;
        ts.resolutionUs = res;
        p += 1 + n;
    }
    end = p;
    level = lv;
    return ts;
}

// The month of "Jan" ... "Dec" (1-12), else 0.
int monthOf(std::string_view s)
{
    static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (int i = 0; i < 12; ++i)
        if (s == kMonths[i])
            return i + 1;
    return 0;
}

// syslog's stamp, and journalctl's in its default output ("short", "short-precise"): "Jun 12
// 14:03:17" or "Jun 12 14:03:17.412004", the day padded with a space ("Jun  2"), no year.
std::optional<Timestamp> syslogAt(std::string_view s, std::size_t pos, int year, std::size_t& end)
{
    if (pos + 15 > s.size() || s[pos + 3] != ' ' || s[pos] < 'A' || s[pos] > 'Z')
        return std::nullopt;
    const int mo = monthOf(s.substr(pos, 3));
    int d, h, mi, se;
    const std::size_t dp = s[pos + 4] == ' ' ? pos + 5 : pos + 4;
    if (mo == 0 || !digits(s, dp, pos + 6 - dp, d) || s[pos + 6] != ' ' || !digits(s, pos + 7, 2, h) ||
        s[pos + 9] != ':' || !digits(s, pos + 10, 2, mi) || s[pos + 12] != ':' ||
        !digits(s, pos + 13, 2, se) || !validDate(mo, d, h, mi, se))
        return std::nullopt;
    Timestamp ts;
    ts.us = civilToUnixSeconds(year, mo, d, h, mi, se) * 1000000;
    ts.resolutionUs = 1000000;
    ts.yearGuessed = true;
    end = stampEnd(s, pos + 15, ts);
    if (end == std::string_view::npos)
        return std::nullopt;
    return ts;
}

Level pythonLevel(std::string_view word)
{
    if (word == "INFO")
        return Level::Info;
    if (word == "WARNING" || word == "WARN")
        return Level::Warn;
    if (word == "ERROR")
        return Level::Error;
    if (word == "CRITICAL" || word == "FATAL")
        return Level::Fatal;
    if (word == "DEBUG")
        return Level::Trace;
    return Level::None;
}

// vLLM's logger ("%(levelname)s %(asctime)s" with datefmt "%m-%d %H:%M:%S"): "INFO 10-03
// 11:23:19 " at pos, the level then a stamp without a year.
std::optional<Timestamp> levelMonthDayAt(std::string_view s, std::size_t pos, int year, std::size_t& end,
                                         Level& level)
{
    if (pos >= s.size() ||
        (s[pos] != 'I' && s[pos] != 'W' && s[pos] != 'E' && s[pos] != 'D' && s[pos] != 'C'))
        return std::nullopt;
    const std::size_t sp = s.find(' ', pos);
    if (sp == std::string_view::npos || sp - pos > 8)
        return std::nullopt;
    const Level lv = pythonLevel(s.substr(pos, sp - pos));
    const std::size_t p = sp + 1;
    int mo, d, h, mi, se;
    if (lv == Level::None || p + 14 > s.size() || !digits(s, p, 2, mo) || s[p + 2] != '-' ||
        !digits(s, p + 3, 2, d) || s[p + 5] != ' ' || !digits(s, p + 6, 2, h) || s[p + 8] != ':' ||
        !digits(s, p + 9, 2, mi) || s[p + 11] != ':' || !digits(s, p + 12, 2, se) ||
        !validDate(mo, d, h, mi, se) || (p + 14 < s.size() && s[p + 14] != ' '))
        return std::nullopt;
    Timestamp ts;
    ts.us = civilToUnixSeconds(year, mo, d, h, mi, se) * 1000000;
    ts.resolutionUs = 1000000;
    ts.yearGuessed = true;
    end = p + 14;
    level = lv;
    return ts;
}

// "<stdout>:", "<stderr>:" or "<stddiag>:" (and one space, which Open MPI 5 prints) at `pos`: the
// characters up to its end, else 0.
std::size_t streamTagAt(std::string_view s, std::size_t pos)
{
    const std::string_view rest = s.substr(std::min(pos, s.size()));
    if (rest.size() < 9 || rest[0] != '<')
        return 0;
    for (std::string_view tag :
         {std::string_view("<stdout>:"), std::string_view("<stderr>:"), std::string_view("<stddiag>:")}) {
        if (rest.starts_with(tag)) {
            std::size_t used = pos + tag.size();
            if (used < s.size() && s[used] == ' ')
                ++used;
            return used;
        }
    }
    return 0;
}

} // namespace

bool onlyEllipsis(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r'))
        s.remove_suffix(1);
    if (s == "…")
        return true;
    return s.size() >= 2 && s.find_first_not_of('.') == std::string_view::npos;
}

namespace
{

// Where the job of an Open MPI tag ("[1," or "[prterun-node-a-4242@1,") ends at its comma, else 0.
std::size_t mpiJobEnd(std::string_view s)
{
    std::size_t p = 1;
    while (p < s.size() && p <= 128 &&
           (isAlnum(s[p]) || s[p] == '-' || s[p] == '_' || s[p] == '.' || s[p] == '@'))
        ++p;
    return p > 1 && p < s.size() && s[p] == ',' ? p : 0;
}

// Open MPI's tag on each line of a process's output, at the start of `s` (0 if none), then its
// stream's: mpirun --tag-output (Open MPI 4 and 5) "[1,3]<stdout>:"; Open MPI 5's --output
// tag-fullname "[prterun-node-a-4242@1,3]<stdout>: " (the namespace for the job id) and
// tag-detailed "[1,3][node-a:4242]<stdout>: " (host and pid, each "unknown" where PMIx lacked it),
// as PRRTE's and PMIx's I/O forwarding print them; and "[1,mpirank:3,algo-1]<stdout>:", the form
// SageMaker's MPI jobs show (posted in its training toolkit's tests and in Accelerate's docs).
//
// The job, a number or a PMIx namespace, ends at the comma `mpiJobEnd` found.
std::size_t mpiTagAt(std::string_view s, std::size_t jobEnd, int& rank, std::string_view& host,
                     std::int64_t& pid)
{
    std::size_t p = jobEnd + 1;
    std::int64_t n = 0;
    const bool sageMaker = s.substr(p, 8) == "mpirank:";
    if (sageMaker)
        p += 8;
    const std::size_t k = someDigits(s, p, n, 7);
    if (k == 0)
        return 0;
    p += k;
    std::string_view tagHost;
    std::int64_t tagPid = -1;
    if (sageMaker) {
        if (p >= s.size() || s[p] != ',')
            return 0;
        const std::size_t b = ++p;
        while (p < s.size() && p - b <= 253 && s[p] != ']' && s[p] != ' ')
            ++p;
        tagHost = s.substr(b, p - b);
    }
    if (p >= s.size() || s[p] != ']')
        return 0;
    ++p;
    if (!sageMaker && p < s.size() && s[p] == '[') {
        // tag-detailed: "[host:pid]"
        const std::size_t b = p + 1;
        const std::size_t colon = s.find(':', b);
        if (colon == std::string_view::npos || colon == b || colon - b > 253)
            return 0;
        std::size_t e = colon + 1;
        while (e < s.size() && isAlnum(s[e]))
            ++e;
        if (e >= s.size() || s[e] != ']')
            return 0;
        const std::string_view pidText = s.substr(colon + 1, e - colon - 1);
        std::int64_t v = -1;
        if (!pidText.empty() && someDigits(pidText, 0, v, 10) == pidText.size())
            tagPid = v;
        tagHost = s.substr(b, colon - b);
        if (tagHost == "unknown")
            tagHost = {};
        p = e + 1;
    }
    const std::size_t used = streamTagAt(s, p);
    if (used == 0)
        return 0;
    rank = static_cast<int>(n);
    host = tagHost;
    pid = tagPid;
    return used;
}

// Whether `s`, what follows a bracketed number, is the rest of an NCCL line whose host:pid:tid was
// cut before its "[dev]": "NCCL INFO ..." or "<file>:<line> NCCL WARN ...".
bool redactedNcclDevice(std::string_view s)
{
    if (s.starts_with("NCCL "))
        return true;
    const std::size_t sp = s.find(' ');
    if (sp == std::string_view::npos || sp == 0 || !s.substr(sp + 1).starts_with("NCCL "))
        return false;
    const std::size_t colon = s.rfind(':', sp);
    return colon != std::string_view::npos && colon + 1 < sp && isDigit(s[colon + 1]);
}

// One launcher decoration at the start of `s`; returns the characters consumed (0 if none). An MPI
// tag that names the host (and pid) gives them too.
std::size_t decorationAt(std::string_view s, Decoration& kind, int& rank, std::string_view& host,
                         std::int64_t& pid)
{
    std::int64_t n = 0;
    if (s.size() > 12 && s[0] == '[') {
        // A job and a comma: an MPI tag or nothing (torchrun's and horovodrun's prefixes below have
        // no comma there).
        if (const std::size_t jobEnd = mpiJobEnd(s)) {
            const std::size_t used = mpiTagAt(s, jobEnd, rank, host, pid);
            if (used)
                kind = Decoration::MpirunTag;
            return used;
        }
    }
    // Lightning's messages from every rank ("[rank: 1] Seed set to 42"): the global rank.
    if (s.starts_with("[rank: ")) {
        const std::size_t k = someDigits(s, 7, n, 7);
        if (k > 0 && 7 + k + 1 < s.size() && s[7 + k] == ']' && s[8 + k] == ' ') {
            kind = Decoration::TorchrunRank;
            rank = static_cast<int>(n);
            return 9 + k;
        }
        return 0;
    }
    if (s.size() > 3 && s[0] == '[') {
        // torchrun's worker prefix is "[${role_name}${local_rank}]:": "[default3]:", or
        // "[trainer3]:" under --role trainer. Its template can be changed
        // (TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE), the documented example being "[${rank}]:";
        // "[rank3]:" is the global rank too, and a second number ("[trainer0|0]:") is read past.
        // horovodrun tags its workers' lines "[3]<stdout>:" (mpirun's "[1,3]<stdout>:" is above).
        std::size_t p = 1;
        while (p < s.size() && p <= 32 && (isAlpha(s[p]) || s[p] == '_' || s[p] == '-'))
            ++p;
        const std::string_view role = s.substr(1, p - 1);
        const std::size_t k = someDigits(s, p, n, 7);
        if (k == 0)
            return 0;
        p += k;
        if (p < s.size() && s[p] == '|') {
            std::int64_t second = 0;
            const std::size_t k2 = someDigits(s, p + 1, second, 7);
            if (k2 == 0)
                return 0;
            p += 1 + k2;
        }
        // A logger's "[rank/world]" glued to the bracket after it ("[0604/1024][2025-02-16 ...]"):
        // with a space after it the same form is ninja's or a progress counter's ("[12/345] ").
        if (role.empty() && p < s.size() && s[p] == '/') {
            std::int64_t world = 0;
            const std::size_t kw = someDigits(s, p + 1, world, 7);
            const std::size_t close = p + 1 + kw;
            if (kw == 0 || n >= world || close + 1 >= s.size() || s[close] != ']' || s[close + 1] != '[')
                return 0;
            kind = Decoration::RankOfWorld;
            rank = static_cast<int>(n);
            return close + 1;
        }
        if (p >= s.size() || s[p] != ']')
            return 0;
        // torchelastic's failure summary heads each failed rank's entry with a bare "[3]:": that
        // is the box's own line, not a prefix of the global rank's.
        if (p + 1 < s.size() && s[p + 1] == ':' && (!role.empty() || p + 2 < s.size())) {
            std::size_t used = p + 2;
            if (used < s.size() && s[used] == ' ')
                ++used;
            // The same entry with its fields elided by whoever posted the box ("[2]: ....", "[2]:
            // …"): nothing of rank 2's own, and read as its prefix it would make a process of it.
            if (role.empty() && used == p + 3 && onlyEllipsis(s.substr(used)))
                return 0;
            kind = role.empty() || role == "rank" ? Decoration::TorchrunRank : Decoration::TorchrunDefault;
            rank = static_cast<int>(n);
            return used;
        }
        if (role.empty()) {
            if (std::size_t used = streamTagAt(s, p + 1)) {
                kind = Decoration::MpirunTag;
                rank = static_cast<int>(n);
                return used;
            }
            // mpiexec -prepend-rank: "[3] " and the line (an empty one too: the blank line NCCL
            // prints before a WARN). Not NCCL's "[dev]" where a reporter cut the host:pid:tid
            // before it ("[0] NCCL INFO ...", "[1] misc/shmutils.cc:103 NCCL WARN ..."), and not
            // a second number ("[3|0]").
            if (p == 1 + k && p + 1 < s.size() && s[p + 1] == ' ' && !redactedNcclDevice(s.substr(p + 2))) {
                kind = Decoration::PrependRank;
                rank = static_cast<int>(n);
                return p + 2;
            }
        }
        return 0;
    }
    // srun -l: "3: " — but never the start of a date ("2025-") or a time ("14:03:17"). Slurm pads
    // the task id to the width of the step's largest ("%*d: "): a step of 10 to 99 tasks labels
    // " 3: " beside "13: ", of 100 or more "  3: ".
    std::size_t pad = 0;
    while (pad < s.size() && pad < 4 && s[pad] == ' ')
        ++pad;
    if (pad < s.size() && isDigit(s[pad])) {
        std::size_t k = someDigits(s, pad, n, 6);
        if (k > 0 && pad + k <= 6 && pad + k + 1 < s.size() && s[pad + k] == ':' && s[pad + k + 1] == ' ') {
            kind = Decoration::Srun;
            rank = static_cast<int>(n);
            return pad + k + 2;
        }
    }
    return 0;
}

// "(RayWorkerVllm pid=409241) " or "(RayWorker pid=12, ip=10.0.0.3) ", and vLLM's own workers'
// "(VllmWorkerProcess pid=652775) " and "(VllmWorker rank=0 pid=12191) ", whose rank goes to `rank`.
std::size_t rayAt(std::string_view s, std::string_view& host, std::int64_t& pid, int& rank)
{
    if (s.size() < 8 || s[0] != '(')
        return 0;
    std::size_t p = 1;
    while (p < s.size() && (isAlnum(s[p]) || s[p] == '_' || s[p] == ':'))
        ++p;
    if (p > 1 && s.substr(p, 6) == " rank=") {
        std::int64_t r = 0;
        const std::size_t k = someDigits(s, p + 6, r, 7);
        if (k == 0)
            return 0;
        rank = static_cast<int>(r);
        p += 6 + k;
    }
    if (p == 1 || s.substr(p, 5) != " pid=")
        return 0;
    p += 5;
    std::size_t k = someDigits(s, p, pid, 10);
    if (k == 0)
        return 0;
    p += k;
    if (s.substr(p, 5) == ", ip=") {
        std::size_t b = p + 5, e = b;
        while (e < s.size() && s[e] != ')' && s[e] != ' ')
            ++e;
        host = s.substr(b, e - b);
        p = e;
    }
    if (p >= s.size() || s[p] != ')')
        return 0;
    ++p;
    if (p < s.size() && s[p] == ' ')
        ++p;
    return p;
}

// libfabric's own log line (FI_LOG_LEVEL=warn and up), which it writes to stderr beside NCCL's:
// "libfabric:<pid>:<seconds since 1970>:<FI_LOG_PREFIX>:<provider>:<subsystem>:<function>():<line>
// <level> message" ("libfabric:17778:1732779731::efa:cq:efa_rdm_cq_open():688<warn> Unable to create
// extended CQ: Invalid argument"). Releases before the pid and time were added print
// "libfabric:<provider>:<subsystem>:<function>():<line><level> ": `pid` stays -1 and `seconds` 0.
// Returns the length up to the message (0: no such line).
std::size_t libfabricAt(std::string_view s, std::int64_t& pid, std::int64_t& seconds, Level& level)
{
    constexpr std::string_view kTag = "libfabric:";
    if (s.size() < 24 || s[0] != 'l' || !s.starts_with(kTag))
        return 0;
    std::size_t p = kTag.size();
    std::int64_t n = 0, t = 0;
    if (const std::size_t k = someDigits(s, p, n, 10); k > 0 && s.substr(p + k, 1) == ":")
        if (const std::size_t kt = someDigits(s, p + k + 1, t, 12);
            kt > 0 && s.substr(p + k + 1 + kt, 1) == ":") {
            pid = n;
            seconds = t;
            p += k + 1 + kt + 1;
        }
    // The function's "():", its line number, then the level in angle brackets.
    const std::size_t call = s.substr(0, std::min<std::size_t>(s.size(), p + 256)).find("():", p);
    if (call == std::string_view::npos)
        return 0;
    std::size_t q = call + 3;
    if (const std::size_t k = someDigits(s, q, n, 7); k > 0)
        q += k;
    else
        return 0;
    if (q >= s.size() || s[q] != '<')
        return 0;
    const std::size_t close = s.find('>', q);
    if (close == std::string_view::npos || close - q > 6)
        return 0;
    const std::string_view word = s.substr(q + 1, close - q - 1);
    if (word == "warn")
        level = Level::Warn;
    else if (word == "info")
        level = Level::Info;
    else if (word == "trace" || word == "debug")
        level = Level::Trace;
    else
        return 0;
    q = close + 1;
    if (q < s.size() && s[q] == ' ')
        ++q;
    return q;
}

// A runtime's own "[host:pid...]" tag. UCX: "[host:pid:thread_idx:tid] Caught signal 11 (...)" from
// its signal handler and "[host:pid:thread_idx] ..." (the pid left-aligned in five columns) in its
// log. Open MPI's signal handler: "[host:pid] *** Process received signal ***", the pid padded to
// five digits. And a logger's "[host:pid=N]", which names its field. The host must hold a letter
// and every field after it be a number; with UCX's two or three fields it must start with a letter,
// and Open MPI's one field must be a padded pid (container hosts are often hex, "1a62e574072d"), so
// that a bracketed time ("[2025-08-12T01:37:03]") or mpirun's "[1,3]" is not taken for one.
// nccl-tests' trace of a failed test step, " .. node-a pid 41007: Test failure common.cu:842"
// (TESTCHECK: hostname cut at its first dot, getpid()): the process that printed it. The length up
// to "Test failure", which stays the line's text.
std::size_t ncclTestsTraceAt(std::string_view s, std::string_view& host, std::int64_t& pid)
{
    std::size_t p = 0;
    while (p < s.size() && s[p] == ' ')
        ++p;
    if (s.substr(p, 3) != ".. ")
        return 0;
    p += 3;
    const std::size_t hostAt = p;
    while (p < s.size() && s[p] != ' ')
        ++p;
    if (p == hostAt || s.substr(p, 5) != " pid ")
        return 0;
    const std::string_view h = s.substr(hostAt, p - hostAt);
    std::int64_t n = 0;
    const std::size_t k = someDigits(s, p + 5, n, 10);
    if (k == 0 || s.substr(p + 5 + k, 15) != ": Test failure ")
        return 0;
    host = h;
    pid = n;
    return p + 5 + k + 2;
}

std::size_t processTagAt(std::string_view s, std::string_view& host, std::int64_t& pid)
{
    if (s.size() < 8 || s[0] != '[')
        return 0;
    std::size_t p = 1;
    bool letter = false;
    while (p < s.size() && p < 254 && (isAlnum(s[p]) || s[p] == '.' || s[p] == '-' || s[p] == '_')) {
        letter = letter || isAlpha(s[p]);
        ++p;
    }
    if (!letter || p >= s.size() || s[p] != ':')
        return 0;
    const std::size_t hostEnd = p;
    std::int64_t n = 0, first = 0;
    // A logger's own tag that says what its number is: "[s12gn3064:pid=3942408]".
    if (s.substr(p, 5) == ":pid=") {
        const std::size_t k = someDigits(s, p + 5, n, 10);
        if (k == 0 || p + 5 + k >= s.size() || s[p + 5 + k] != ']')
            return 0;
        host = s.substr(1, hostEnd - 1);
        pid = n;
        p += 6 + k;
        while (p < s.size() && s[p] == ' ')
            ++p;
        return p;
    }
    std::size_t firstDigits = 0;
    int fields = 0;
    while (p < s.size() && s[p] == ':') {
        std::size_t k = someDigits(s, p + 1, n, 10);
        if (k == 0)
            return 0;
        if (fields++ == 0) {
            first = n;
            firstDigits = k;
        }
        p += 1 + k;
        while (p < s.size() && s[p] == ' ')
            ++p;
    }
    // UCX: "[host:pid:thread:tid]", the pid padded to five ("[%s:%-5d:%d:%d]", ucs_log_fatal_error).
    // A host that starts with a digit must be a container's hex id ("8d6bf97c3bf4", pipedream#76):
    // a bracketed ISO time ("[2025-08-12T01:37:03]") has the same shape otherwise.
    const std::string_view tagHost = s.substr(1, hostEnd - 1);
    const bool hexId =
        tagHost.size() >= 8 && tagHost.find_first_not_of("0123456789abcdef") == std::string_view::npos;
    const bool ucx = fields >= 2 && fields <= 3 && (isAlpha(s[1]) || hexId);
    const bool openMpi = fields == 1 && firstDigits >= 5;
    if (!(ucx || openMpi) || p >= s.size() || s[p] != ']')
        return 0;
    host = s.substr(1, hostEnd - 1);
    pid = first;
    ++p;
    while (p < s.size() && s[p] == ' ')
        ++p;
    return p;
}

// A logger's bracketed source location, "[misc/socket.cc:586] ": a file's name with a dot, a colon and
// its line; the characters up to the next field, else 0.
std::size_t sourceLocationAt(std::string_view s)
{
    if (s.size() < 6 || s[0] != '[')
        return 0;
    std::size_t p = 1;
    bool dot = false;
    while (p < s.size() && p < 256 &&
           (isAlnum(s[p]) || s[p] == '.' || s[p] == '/' || s[p] == '_' || s[p] == '-')) {
        dot = dot || s[p] == '.';
        ++p;
    }
    std::int64_t line = 0;
    const std::size_t k = p < s.size() && s[p] == ':' ? someDigits(s, p + 1, line, 7) : 0;
    p += 1 + k;
    if (!dot || k == 0 || p + 1 >= s.size() || s[p] != ']' || s[p + 1] != ' ')
        return 0;
    return p + 2;
}

// Whether `n` ends as a log file's name does: ".log", ".txt", ".out", ".err", ".stdout", ".stderr",
// also rotated ("train.log.1"), with something before the suffix.
bool logFileName(std::string_view n)
{
    std::size_t k = n.size();
    while (k > 0 && isDigit(n[k - 1]))
        --k;
    if (k < n.size() && k > 0 && n[k - 1] == '.')
        n = n.substr(0, k - 1);
    for (std::string_view suffix : {".log", ".txt", ".out", ".err", ".stdout", ".stderr"})
        if (n.size() > suffix.size() && n.ends_with(suffix))
            return true;
    return false;
}

// grep's file name at the start of a line of `grep -r` / `-H` output: a name without spaces or colons
// that ends as a log file's does (".log", ".txt", ".out", ".err", ".stdout", ".stderr", a rotated
// ".log.1"), then ':' (a match) or '-' (a context line, -A/-B/-C), with -n ":N:" or "-N-". The suffix
// keeps a Python "train.py:57" or NCCL's "host:pid:tid" out, and a log file's name with a hyphen
// glued after it opens no line but grep's.
std::size_t grepFileAt(std::string_view s, std::string_view& name)
{
    // Every suffix has a dot: most lines (NCCL's "host:pid:tid", a date, a glog letter) have none
    // before their first colon or space, and are done with in one look at their first word.
    bool dot = false;
    for (std::size_t q = 0; q < s.size() && q < 1024 && s[q] != ':' && s[q] != ' ' && s[q] != '\t'; ++q)
        dot = dot || s[q] == '.';
    if (!dot)
        return 0;
    std::size_t p = 0;
    while (p < s.size() && p < 1024 && s[p] != ':' && s[p] != ' ' && s[p] != '\t' && s[p] != '-')
        ++p;
    // A hyphen may be part of the name ("job-worker-3.log"): past it only while no suffix ends there.
    auto suffixEndsAt = [&](std::size_t end) { return logFileName(s.substr(0, end)); };
    while (p < s.size() && s[p] == '-' && !suffixEndsAt(p)) {
        ++p;
        while (p < s.size() && p < 1024 && s[p] != ':' && s[p] != ' ' && s[p] != '\t' && s[p] != '-')
            ++p;
    }
    if (p == 0 || p >= s.size() || !suffixEndsAt(p) ||
        !(isAlnum(s[0]) || s[0] == '.' || s[0] == '/' || s[0] == '_'))
        return 0;
    const char sep = s[p];
    if (sep != ':' && sep != '-')
        return 0;
    // Without -n, the line's own text follows the separator, and a date ("rank3.log-2025-02-16
    // 22:31:34 ...") or a time ("rank3.log:14:03:17 ...") there would read as -n's line number.
    int a = 0, b = 0, c = 0;
    const bool dated = sep == '-'
                           ? digits(s, p + 1, 4, a) && s.substr(p + 5, 1) == "-" && digits(s, p + 6, 2, b) &&
                                 s.substr(p + 8, 1) == "-" && digits(s, p + 9, 2, c)
                           : digits(s, p + 1, 2, a) && s.substr(p + 3, 1) == ":" && digits(s, p + 4, 2, b) &&
                                 s.substr(p + 6, 1) == ":" && digits(s, p + 7, 2, c);
    std::int64_t n = 0;
    const std::size_t k = dated ? 0 : someDigits(s, p + 1, n, 9);
    name = s.substr(0, p);
    if (k > 0 && p + 1 + k < s.size() && s[p + 1 + k] == sep)
        return p + 2 + k;
    return p + 1;
}

} // namespace

int channelLineRank(std::string_view m)
{
    constexpr std::string_view kChannel = "Channel ";
    if (m.size() < 24 || m[0] != 'C' || !m.starts_with(kChannel))
        return -1;
    std::size_t p = kChannel.size();
    std::int64_t n = 0;
    std::size_t k = someDigits(m, p, n, 4);
    if (k == 0)
        return -1;
    p += k;
    if (m.substr(p, 1) == "/") {
        k = someDigits(m, p + 1, n, 4);
        if (k == 0)
            return -1;
        p += 1 + k;
    }
    if (m.substr(p, 3) != " : ")
        return -1;
    p += 3;
    // "R[dev]" twice, with " -> " between.
    auto endpoint = [&](std::int64_t& rank) {
        const std::size_t d = someDigits(m, p, rank, 7);
        if (d == 0 || m.substr(p + d, 1) != "[")
            return false;
        std::size_t q = p + d + 1;
        while (q < m.size() && q - p < 24 && isHex(m[q]))
            ++q;
        if (q == p + d + 1 || m.substr(q, 1) != "]")
            return false;
        p = q + 1;
        return true;
    };
    std::int64_t from = 0, to = 0;
    if (!endpoint(from) || m.substr(p, 4) != " -> ")
        return -1;
    p += 4;
    if (!endpoint(to))
        return -1;
    if (m.substr(p, 11) == " [receive] ")
        return static_cast<int>(to);
    if (m.substr(p, 8) == " [send] " || m.substr(p, 5) == " via ")
        return static_cast<int>(from);
    return -1;
}

int proxyServiceRank(std::string_view m)
{
    constexpr std::string_view kOpen = "[Proxy Service ", kWhat = "] Failed to execute operation ";
    if (m.size() < kOpen.size() + 1 + kWhat.size() || m[0] != '[' || !m.starts_with(kOpen))
        return -1;
    std::int64_t rank = 0;
    const std::size_t k = someDigits(m, kOpen.size(), rank, 7);
    if (k == 0 || m.substr(kOpen.size() + k, kWhat.size()) != kWhat)
        return -1;
    return static_cast<int>(rank);
}

std::optional<RayRepeat> rayRepeatIn(std::string_view line)
{
    constexpr std::string_view kOpen = "[repeated ", kClose = "x across cluster]";
    const std::size_t open = line.rfind(kOpen);
    if (open == std::string_view::npos)
        return std::nullopt;
    std::int64_t n = 0;
    const std::size_t k = someDigits(line, open + kOpen.size(), n, 9);
    if (k == 0 || line.substr(open + kOpen.size() + k, kClose.size()) != kClose)
        return std::nullopt;
    // Back over the colour code and the space Ray puts before it.
    std::size_t at = open;
    for (;;) {
        if (at > 0 && line[at - 1] == ' ') {
            --at;
            continue;
        }
        const std::size_t esc = line.substr(0, at).rfind('\x1b');
        if (esc != std::string_view::npos && esc + terminalCodeAt(line.substr(esc)) == at && at > esc) {
            at = esc;
            continue;
        }
        break;
    }
    return RayRepeat{static_cast<int>(n), at};
}

std::string_view listingHeader(std::string_view line)
{
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    if (line.size() > 8 && line.starts_with("==> ") && line.ends_with(" <=="))
        return line.substr(4, line.size() - 8);
    // A script's own banner between the files it printed ("=== logs/rank2.log ===", "----- rank2.out
    // -----", "### node-b/rank3.log ###"): three or more of one mark on each side of a log file's
    // name. Without the name's suffix, a banner is a section of some other kind.
    if (line.size() < 9)
        return {};
    const char mark = line.front();
    if (mark != '=' && mark != '-' && mark != '#' && mark != '*')
        return {};
    std::size_t lead = 0, trail = 0;
    while (lead < line.size() && line[lead] == mark)
        ++lead;
    while (trail < line.size() - lead && line[line.size() - 1 - trail] == mark)
        ++trail;
    if (lead < 3 || trail < 3)
        return {};
    std::string_view name = line.substr(lead, line.size() - lead - trail);
    if (name.size() < 3 || name.front() != ' ' || name.back() != ' ')
        return {};
    name = name.substr(1, name.size() - 2);
    if (name.find_first_of(" \t") != std::string_view::npos || !logFileName(name))
        return {};
    return name;
}

namespace
{

// pdsh/DeepSpeed: a host name or IPv4 address and ": " at the start of the line. To keep words like
// "ERROR: " out, the name must carry a digit and be host-like.
std::size_t hostPrefixAt(std::string_view s, std::string_view& host)
{
    std::size_t p = 0;
    bool digit = false, letterOrDot = false;
    while (p < s.size() && p < 253) {
        char c = s[p];
        if (isDigit(c))
            digit = true;
        else if (isAlpha(c) || c == '.' || c == '-' || c == '_')
            letterOrDot = true;
        else
            break;
        ++p;
    }
    if (p < 2 || !letterOrDot || p + 1 >= s.size() || s[p] != ':' || s[p + 1] != ' ')
        return 0;
    // A name without a digit is a word ("Error: ", "Note: ") unless nccl-tests printed its
    // hostname before a failed check ("%s: Test NCCL failure %s:%d '%s / %s'", and its CUDA twin).
    if (!digit && s.substr(p + 2, 18) != "Test NCCL failure " && s.substr(p + 2, 18) != "Test CUDA failure ")
        return 0;
    if (!isAlnum(s[0]))
        return 0;
    host = s.substr(0, p);
    return p + 2;
}

// SkyPilot's tag on each node's output of a job on several nodes: "(head, rank=0, pid=21170) ",
// "(worker1, rank=1, pid=20075, ip=10.164.15.193) ". Its rank is the node's, its pid the job's
// script on that node: the node's console, as pdsh's prefix, named by the node's name (`host`).
std::size_t skyPilotAt(std::string_view s, std::string_view& host)
{
    if (s.size() < 16 || s[0] != '(')
        return 0;
    std::size_t p = 1;
    while (p < s.size() && p < 64 && (isAlnum(s[p]) || s[p] == '-' || s[p] == '_'))
        ++p;
    if (p == 1 || s.substr(p, 7) != ", rank=")
        return 0;
    const std::size_t nameEnd = p;
    std::int64_t n = 0;
    std::size_t k = someDigits(s, p + 7, n, 6);
    if (k == 0 || s.substr(p + 7 + k, 6) != ", pid=")
        return 0;
    p += 7 + k + 6;
    k = someDigits(s, p, n, 10);
    if (k == 0)
        return 0;
    p += k;
    if (s.substr(p, 5) == ", ip=") {
        p += 5;
        while (p < s.size() && s[p] != ')' && s[p] != ' ')
            ++p;
    }
    if (p >= s.size() || s[p] != ')')
        return 0;
    host = s.substr(1, nameEnd - 1);
    ++p;
    if (p < s.size() && s[p] == ' ')
        ++p;
    return p;
}

// kubectl logs --prefix (with -l or --all-containers, the pods of a job in one stream):
// "[pod/<pod>/<container>] ", the container empty where kubectl did not learn it. A pod's name is
// the host name its processes see (gethostname), so NCCL's own prefix names the same host. Its
// lines that NCCL's prefix does not name are the pod's console, not a process's: a pod of eight
// GPUs runs eight ranks (analysis gives them to the pod's one NCCL process where there is one).
std::size_t kubectlPodAt(std::string_view s, std::string_view& host)
{
    if (!s.starts_with("[pod/"))
        return 0;
    std::size_t p = 5;
    while (p < s.size() && p < 5 + 253 && (isAlnum(s[p]) || s[p] == '-' || s[p] == '.'))
        ++p;
    if (p == 5 || p >= s.size() || s[p] != '/')
        return 0;
    host = s.substr(5, p - 5);
    std::size_t q = p + 1;
    while (q < s.size() && q < p + 1 + 63 && (isAlnum(s[q]) || s[q] == '-'))
        ++q;
    if (q + 1 >= s.size() || s[q] != ']' || s[q + 1] != ' ')
        return 0;
    return q + 2;
}

// journald short-iso, after its stamp: "host ident[pid]: ", or the kernel's "host kernel: "
std::size_t journaldAt(std::string_view s, std::string_view& host, std::int64_t& pid)
{
    std::size_t sp = s.find(' ');
    if (sp == std::string_view::npos || sp == 0 || sp > 253)
        return 0;
    // The second word is the whole "ident[pid]:" (no space inside), so it is cut at the next space
    // rather than searched for "]: " through the rest of the line.
    std::size_t sp2 = s.find(' ', sp + 1);
    // The kernel's own lines ("journalctl -k", kern.log, syslog) name no pid: "host kernel: ". A
    // word of capitals is a level ("INFO kernel: "), not a host.
    if (sp2 == sp + 8 && s.substr(sp + 1, 8) == "kernel: " &&
        std::any_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(sp),
                    [](char c) { return isDigit(c) || (c >= 'a' && c <= 'z'); })) {
        host = s.substr(0, sp);
        pid = -1;
        return sp2 + 1;
    }
    if (sp2 == std::string_view::npos || sp2 < sp + 5 || s[sp2 - 1] != ':' || s[sp2 - 2] != ']')
        return 0;
    std::size_t colon = sp2 - 2;
    std::size_t open = s.find('[', sp + 1);
    if (open == std::string_view::npos || open > colon)
        return 0;
    if (someDigits(s, open + 1, pid, 10) != colon - open - 1)
        return 0;
    host = s.substr(0, sp);
    return colon + 3;
}

// body.find(" NCCL ", from), found through the 'N': std::string_view::find looks for the first
// character with memchr, and a space is in every word of every line.
std::size_t findNcclWord(std::string_view s, std::size_t from)
{
    const char* begin = s.data();
    const char* end = begin + s.size();
    const char* p = begin + from + 1;
    while (p + 5 <= end) {
        p = static_cast<const char*>(std::memchr(p, 'N', static_cast<std::size_t>(end - p)));
        if (!p || end - p < 5)
            return std::string_view::npos;
        if (p[-1] == ' ' && std::memcmp(p, "NCCL ", 5) == 0)
            return static_cast<std::size_t>(p - 1 - begin);
        ++p;
    }
    return std::string_view::npos;
}

// What each byte is to the host before ":pid:tid" (ncclAt): a hostname's own; one no hostname has
// (text glued before it, a redacted "<cluster_name>"); or one nothing before which is the host (a
// control byte, a quote). A table: this is looked at for every character of every NCCL line's host.
enum class HostChar : std::uint8_t { Name, Other, Cut };
constexpr std::array<HostChar, 256> kHostChars = [] {
    std::array<HostChar, 256> t{};
    for (int c = 0; c < 256; ++c) {
        const bool name = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          c == '-' || c == '.' || c == '_';
        const bool cut = c < 0x20 || c == 0x7f || c == '`' || c == '"' || c == '\'';
        t[static_cast<std::size_t>(c)] = cut ? HostChar::Cut : name ? HostChar::Name : HostChar::Other;
    }
    return t;
}();

std::optional<NcclPrefix> ncclAt(std::string_view body)
{
    // A message quoted without its prefix ("NCCL WARN NET/IB : Got async event : port error", as
    // threads and tickets often show it): NCCL's line all the same, its host unknown.
    for (const auto& [word, level] : {std::pair{std::string_view("NCCL WARN "), Level::Warn},
                                      std::pair{std::string_view("NCCL INFO "), Level::Info}})
        if (body.starts_with(word)) {
            NcclPrefix p;
            p.level = level;
            p.message = body.substr(word.size());
            p.host = body.substr(0, 0);
            return p;
        }
    // Find " NCCL <LEVEL> " and read the prefix backwards from there, so decorations before the
    // host:pid:tid (launchers, collectors, the 2.26+ "[date time] ") never confuse it.
    std::size_t from = 0;
    while (true) {
        std::size_t at = findNcclWord(body, from);
        if (at == std::string_view::npos)
            return std::nullopt;
        from = at + 1;
        std::string_view after = body.substr(at + 6);
        Level level;
        std::size_t levelLen;
        if (after.starts_with("INFO ") || after == "INFO") {
            level = Level::Info;
            levelLen = 4;
        } else if (after.starts_with("WARN ") || after == "WARN") {
            level = Level::Warn;
            levelLen = 4;
        } else if (after.starts_with("TRACE ")) {
            level = Level::Trace;
            levelLen = 5;
        } else if (after.starts_with("CALL ")) {
            level = Level::Trace;
            levelLen = 4;
        } else {
            continue;
        }
        NcclPrefix p;
        p.level = level;
        std::size_t msgStart = at + 6 + levelLen + 1;
        p.message = msgStart <= body.size() ? body.substr(msgStart) : std::string_view{};

        std::string_view left = body.substr(0, at);
        auto lastToken = [&left]() {
            std::size_t sp = left.rfind(' ');
            std::string_view tok = sp == std::string_view::npos ? left : left.substr(sp + 1);
            left = sp == std::string_view::npos ? std::string_view{} : left.substr(0, sp);
            return tok;
        };
        std::string_view tok = lastToken();
        if (level == Level::Warn && tok.size() >= 2 && tok.front() == '(' && tok.back() == ')') {
            // 2.30.7+: "file:line (function) NCCL WARN"
            p.function = tok.substr(1, tok.size() - 2);
            tok = lastToken();
        }
        if (level == Level::Warn || level == Level::Trace) {
            std::size_t colon = tok.rfind(':');
            if (colon != std::string_view::npos && colon + 1 < tok.size() && isDigit(tok[colon + 1])) {
                std::int64_t ln = 0;
                someDigits(tok, colon + 1, ln, 9);
                p.file = tok.substr(0, colon);
                p.fileLine = static_cast<int>(ln);
                tok = lastToken();
                if (level == Level::Trace && !tok.empty() && isDigit(tok[0]))
                    tok = lastToken(); // TRACE's "ms since init" float
            }
        }
        // A WARN posted without its host:pid:tid [dev] ("misc/ibvwrap.cc:288 NCCL WARN ...", as
        // threads quote it): the location opens the line, and the line is NCCL's all the same.
        if (!p.file.empty() && tok.empty() && left.empty()) {
            p.host = body.substr(0, 0); // empty, but where a host would be (callers measure from it)
            return p;
        }
        // "[dev]" (absent on CALL lines)
        if (tok.size() >= 3 && tok.front() == '[' && tok.back() == ']') {
            std::int64_t dev = 0;
            std::size_t k = someDigits(tok, tok[1] == '-' ? 2 : 1, dev, 6);
            if (k > 0)
                p.device = static_cast<int>(tok[1] == '-' ? -dev : dev);
            tok = lastToken();
        }
        // host:pid:tid, or a redacted "host"
        std::size_t c2 = tok.rfind(':');
        std::size_t c1 =
            c2 == std::string_view::npos || c2 == 0 ? std::string_view::npos : tok.rfind(':', c2 - 1);
        std::int64_t pid = 0, tid = 0;
        if (c1 != std::string_view::npos && (c1 > 0 || c2 > 1) &&
            someDigits(tok, c1 + 1, pid) == c2 - c1 - 1 &&
            someDigits(tok, c2 + 1, tid) == tok.size() - c2 - 1 && c2 + 1 < tok.size()) {
            p.host = tok.substr(0, c1);
            p.pid = pid;
            p.tid = tid;
            // NCCL printed an empty host name (":166:1226 [0] misc/socket.cc:484 NCCL WARN ...",
            // NVIDIA/nccl#1808 behind a pdsh prefix): the line is NCCL's, its host unknown.
            if (c1 == 0)
                return p;
        } else if (!tok.empty() && tok.find(':') == std::string_view::npos &&
                   tok.find('[') == std::string_view::npos) {
            // A number there is no host (a blog's 'ibvwrap.c: 106 NCCL WARN ...' shows the
            // source line after a space): the line is NCCL's, its host unknown.
            if (std::all_of(tok.begin(), tok.end(), isDigit)) {
                p.host = tok.substr(tok.size());
                return p;
            }
            p.host = tok;
        } else {
            continue;
        }
        // A bracketed or decorated host (e.g. "[1,0]<stdout>:host") keeps only the host part.
        std::size_t lastColon = p.host.rfind(':');
        if (lastColon != std::string_view::npos)
            p.host = p.host.substr(lastColon + 1);
        // No control characters in a host: a crash's block of NUL bytes runs into the line after
        // it with no line break. No quotes either: a log pasted into a ticket or chat often
        // carries the opening backtick of inline code on its first line ("error log `H100-2:..."),
        // which made a second host of the same name. Nor more than a DNS name's 253 bytes.
        // A progress bar that redraws itself with carriage returns (tqdm's "\r 45%|####  | 45/100
        // [00:10<00:12, 4.5it/s]") ends no line: the next line NCCL prints is glued to its last
        // drawing. Where the line holds a carriage return, the host is the hostname characters
        // before ":pid:tid". Only there: a redacted "<cluster_name>" is a host elsewhere. One pass
        // over the host finds both (this runs on every NCCL line).
        std::size_t odd = std::string_view::npos; // the last character no hostname has
        for (std::size_t k = p.host.size(); k-- > 0;) {
            const HostChar c = kHostChars[static_cast<unsigned char>(p.host[k])];
            if (c == HostChar::Name)
                continue;
            if (c == HostChar::Cut) {
                p.host.remove_prefix(k + 1);
                if (odd != std::string_view::npos)
                    odd -= k + 1; // found to the right of k
                break;
            }
            if (odd == std::string_view::npos)
                odd = k;
        }
        if (odd != std::string_view::npos && body.substr(0, at).find('\r') != std::string_view::npos)
            p.host.remove_prefix(odd + 1);
        if (p.host.empty() || p.host.size() > 253)
            continue;
        return p;
    }
}

std::optional<TrailStep> trailAt(std::string_view msg)
{
    // "file:line -> code", "file:line -> code (strerror)", "... [Async thread]", 2.30.7's
    // "file:line (function) -> code".
    // The location is the first word, so the arrow (or the function) follows the first space.
    std::size_t sp = msg.find(' ');
    if (sp == std::string_view::npos || sp == 0)
        return std::nullopt;
    std::size_t arrow = sp;
    if (msg.substr(sp).starts_with(" (")) {
        arrow = msg.find(" -> ", sp);
        if (arrow == std::string_view::npos)
            return std::nullopt;
    } else if (!msg.substr(sp).starts_with(" -> ")) {
        return std::nullopt;
    }
    std::string_view left = msg.substr(0, sp);
    std::size_t colon = left.rfind(':');
    if (colon == std::string_view::npos || colon + 1 >= left.size())
        return std::nullopt;
    std::int64_t ln = 0, code = 0;
    if (someDigits(left, colon + 1, ln, 9) != left.size() - colon - 1)
        return std::nullopt;
    if (someDigits(msg, arrow + 4, code, 4) == 0)
        return std::nullopt;
    return TrailStep{left.substr(0, colon), static_cast<int>(ln), static_cast<int>(code)};
}

// ctime form, as mpirun --timestamp-output prints it: "Mon Jun 12 14:03:16 2025"
std::optional<Timestamp> ctimeAt(std::string_view s, std::size_t& end)
{
    if (s.size() < 24 || s[3] != ' ' || s[7] != ' ')
        return std::nullopt;
    const int mo = monthOf(s.substr(4, 3));
    if (mo == 0)
        return std::nullopt;
    int d, h, mi, se, y;
    std::size_t dp = s[8] == ' ' ? 9 : 8;
    if (!digits(s, dp, 10 - dp, d) || s[10] != ' ' || !digits(s, 11, 2, h) || s[13] != ':' ||
        !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se) || s[19] != ' ' ||
        !digits(s, 20, 4, y) || !validDate(mo, d, h, mi, se))
        return std::nullopt;
    Timestamp ts;
    ts.us = civilToUnixSeconds(y, mo, d, h, mi, se) * 1000000;
    ts.resolutionUs = 1000000;
    end = 24;
    return ts;
}

} // namespace

std::int64_t civilToUnixSeconds(int year, int month, int day, int hour, int minute, int second)
{
    // Days from civil (Howard Hinnant's algorithm), valid for the proleptic Gregorian calendar.
    year -= month <= 2;
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(year - era * 400);
    const unsigned mp = static_cast<unsigned>(month > 2 ? month - 3 : month + 9);
    const unsigned doy = (153 * mp + 2) / 5 + static_cast<unsigned>(day) - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = era * 146097 + static_cast<std::int64_t>(doe) - 719468;
    return days * 86400 + hour * 3600 + minute * 60 + second;
}

std::optional<Timestamp> parseTimestampAt(std::string_view s, int defaultYear, std::size_t* consumed,
                                          Level* glogLevel)
{
    if (s.empty())
        return std::nullopt;
    std::size_t end = 0;
    bool bracket = s[0] == '[';
    std::size_t start = bracket ? 1 : 0;
    std::optional<Timestamp> ts = isoAt(s, start, end);
    Level lv = Level::None;
    // The other forms start with a digit (month/day/year) or a capital (glog's level, a month,
    // vLLM's level): most NCCL lines, whose host is in lower case, are spared their tries.
    if (!ts && start < s.size() && (isDigit(s[start]) || (s[start] >= 'A' && s[start] <= 'Z'))) {
        ts = glogAt(s, start, defaultYear, end, lv);
        if (!ts)
            ts = syslogAt(s, start, defaultYear, end);
        if (!ts)
            ts = monthDayYearAt(s, start, end);
        if (!ts)
            ts = levelMonthDayAt(s, start, defaultYear, end, lv);
    }
    if (!ts)
        return std::nullopt;
    if (bracket) {
        // "[2025-03-20 14:02:11] " closes right away; "[E0612 14:03:17.1 file.cpp:12] " runs on.
        std::size_t close = s.find(']', end);
        if (close == std::string_view::npos)
            return std::nullopt;
        end = close + 1;
    }
    if (end < s.size() && s[end] == ' ')
        ++end;
    if (consumed)
        *consumed = end;
    if (glogLevel)
        *glogLevel = lv;
    return ts;
}

namespace
{

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// "N" then " (<word>: M)", as the box's rank and exitcode fields print them; N may be negative
// (an exit code -9 is signal 9).
bool numberAndParenthesised(std::string_view v, std::string_view word, std::int64_t& n, std::int64_t& m)
{
    std::size_t p = v.starts_with('-') ? 1 : 0;
    const std::size_t k = someDigits(v, p, n, 10);
    if (k == 0)
        return false;
    if (p == 1)
        n = -n;
    p += k;
    if (v.substr(p, 2) != " (" || v.substr(p + 2, word.size()) != word)
        return false;
    p += 2 + word.size();
    if (v.substr(p, 2) != ": ")
        return false;
    p += 2;
    const std::size_t k2 = someDigits(v, p, m, 10);
    return k2 > 0 && v.substr(p + k2) == ")";
}

} // namespace

bool elasticRecordHeader(std::string_view body)
{
    body = trimmed(body);
    std::int64_t n = 0;
    return body.size() >= 4 && body.front() == '[' && someDigits(body, 1, n, 7) == body.size() - 3 &&
           body.ends_with("]:");
}

std::optional<ElasticRecord> elasticRecordAt(std::span<const std::string_view> bodies, int defaultYear)
{
    if (bodies.empty() || !elasticRecordHeader(bodies[0]))
        return std::nullopt;
    ElasticRecord r;
    bool sawRank = false, sawExit = false, inTraceback = false;
    std::uint32_t i = 1;
    for (; i < bodies.size(); ++i) {
        const std::string_view b = bodies[i];
        // Every line of a record is indented; the next record's header, the box's rules and
        // whatever follows the box are not.
        if (b.empty() || (b.front() != ' ' && b.front() != '\t') || trimmed(b).empty())
            break;
        if (inTraceback)
            continue; // the traceback's later lines
        const std::string_view t = trimmed(b);
        const std::size_t colon = t.find(':');
        if (colon == std::string_view::npos)
            break;
        const std::string_view name = trimmed(t.substr(0, colon));
        const std::string_view value = trimmed(t.substr(colon + 1));
        if (name == "time") {
            // "2024-03-05_07:01:51": datetime.isoformat(sep="_") of the failure's whole second.
            char iso[32];
            if (value.size() >= sizeof iso)
                break;
            value.copy(iso, value.size());
            if (value.size() > 10 && iso[10] == '_')
                iso[10] = 'T';
            r.time = parseTimestampAt(std::string_view(iso, value.size()), defaultYear);
        } else if (name == "host") {
            // NCCL's prefix holds gethostname() up to its first dot; the box, the fully
            // qualified name. An address stays whole.
            const bool address = value.find_first_not_of("0123456789.") == std::string_view::npos;
            r.host = address ? value : value.substr(0, value.find('.'));
        } else if (name == "rank") {
            std::int64_t rank = 0, local = 0;
            if (!numberAndParenthesised(value, "local_rank", rank, local) || rank < 0)
                break;
            r.rank = static_cast<int>(rank);
            r.localRank = static_cast<int>(local);
            sawRank = true;
        } else if (name == "exitcode") {
            std::int64_t code = 0;
            if (!numberAndParenthesised(value, "pid", code, r.pid))
                break;
            sawExit = true;
        } else if (name == "traceback") {
            inTraceback = true;
            r.tracebackAt = i;
        } else if (name == "error_file") {
            // torchrun writes each worker's error file under attempt_<n>/<local rank>/.
            const std::size_t at = value.rfind("/attempt_");
            std::int64_t n = 0;
            const std::size_t k = at == std::string_view::npos ? 0 : someDigits(value, at + 9, n, 6);
            if (k > 0 && value.substr(at + 9 + k, 1) == "/")
                r.attempt = static_cast<int>(n);
        } else {
            break;
        }
    }
    if (!sawRank || !sawExit || r.host.empty() || r.tracebackAt == 0)
        return std::nullopt;
    r.lineCount = i;
    return r;
}

ParsedLine parseLine(std::string_view line, int defaultYear)
{
    ParsedLine out;
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    // The byte order mark of a file `cat` joined to the one before (the file's own first line
    // starts after it: indexLines). One byte looked at on most lines.
    if (!line.empty() && line.front() == '\xEF' && line.starts_with("\xEF\xBB\xBF"))
        line.remove_prefix(3);
    out.text = line;
    std::string_view rest = line;

    // grep's file name, where it searched several files, comes before whatever the file's own line
    // holds; a launcher's prefix inside (a console grep searched) names the line better.
    if (!rest.empty() && rest.front() != '[' && rest.front() != ' ' && !rest.starts_with("libfabric:")) {
        std::string_view name;
        if (const std::size_t n = grepFileAt(rest, name)) {
            out.decorationFile = name;
            rest.remove_prefix(n);
        }
    }
    // Collector stamp and launcher decorations can nest ("[rank3]:[E0612 ...]",
    // "2024-05-01T12:00:00.1Z 3: ...", "[80746] [rank0]:..."); peel them off a few times.
    for (int round = 0; round < 4 && !rest.empty(); ++round) {
        // Terminal colours around a decoration (Ray colours its workers' tags, "\x1b[36m(RayWorker
        // pid=4101)\x1b[0m ", where its output was a terminal's) are no part of it: passed over,
        // with the space after the colour's end where a decoration came before.
        while (!rest.empty() && rest.front() == '\x1b') {
            const std::size_t n = terminalCodeAt(rest);
            if (n == 0)
                break;
            rest.remove_prefix(n);
            if (!rest.empty() && rest.front() == ' ' && (out.decoration != Decoration::None || out.stamp))
                rest.remove_prefix(1);
        }
        if (rest.empty())
            break;
        Decoration kind = Decoration::None;
        int rank = -1;
        std::string_view decoHost;
        std::int64_t decoPid = -1;
        std::size_t usedDeco = decorationAt(rest, kind, rank, decoHost, decoPid);
        // mpiexec's "[3] " opens the line it prefixes: after a stamp or another prefix the same form
        // is a pid or a counter ("2025-06-12 14:03:16 [37266] ..."), read past only where another
        // bracket follows ("[80746] [rank0]:...", a viewer's line number before torchrun's prefix).
        if (usedDeco && kind == Decoration::PrependRank &&
            (out.stamp || out.decoration != Decoration::None)) {
            if (usedDeco < rest.size() && rest[usedDeco] == '[') {
                rest.remove_prefix(usedDeco);
                continue;
            }
            usedDeco = 0;
        }
        if (usedDeco) {
            // Behind kubectl's pod prefix, a launcher's prefix is read off but does not key the
            // line: torchrun's [default3] is a local rank, the same in every pod. Behind a bare
            // "[N] " the inner prefix is the one to go by: the number may be a line number.
            if (out.decoration == Decoration::None || out.decoration == Decoration::PrependRank) {
                out.decoration = kind;
                out.decorationRank = rank;
                out.decorationHost = decoHost;
                out.decorationPid = decoPid;
            }
            rest.remove_prefix(usedDeco);
            continue;
        }
        std::string_view host;
        std::int64_t pid = -1;
        // libfabric's own line: its pid, its time and its level.
        std::int64_t seconds = 0;
        Level libfabricLevel = Level::None;
        if (const std::size_t usedLf = libfabricAt(rest, pid, seconds, libfabricLevel)) {
            if (pid >= 0) {
                if (out.decoration == Decoration::None)
                    out.decoration = Decoration::Libfabric;
                if (out.decorationPid < 0)
                    out.decorationPid = pid;
            }
            // Whole seconds since 1970 in UTC; a collector's stamp before it is finer.
            if (!out.stamp && seconds >= 1'000'000'000 && seconds < 5'000'000'000)
                out.stamp = Timestamp{seconds * 1'000'000, 1'000'000, false};
            out.level = libfabricLevel;
            // The line stays whole, as NCCL's own keep their prefix: its provider, subsystem and
            // call say what failed.
            break;
        }
        // A tag that names the process: Ray's "(RayWorker pid=N, ip=A)", UCX's or Open MPI's
        // "[host:pid...]".
        Decoration tagKind = Decoration::Ray;
        int tagRank = -1;
        std::size_t usedTag = rayAt(rest, host, pid, tagRank);
        if (!usedTag) {
            tagKind = Decoration::ProcessTag;
            usedTag = processTagAt(rest, host, pid);
            if (!usedTag)
                usedTag = ncclTestsTraceAt(rest, host, pid);
            // Behind a logger's time, its source location may come before its process tag
            // ("[2025-02-16 22:31:34,422] [misc/socket.cc:586] [s12gn3064:pid=3942408] NCCL WARN"):
            // read past with the tag, which says whose line it is.
            if (!usedTag && out.stamp)
                if (const std::size_t loc = sourceLocationAt(rest))
                    if (const std::size_t tag = processTagAt(rest.substr(loc), host, pid))
                        usedTag = loc + tag;
        }
        if (usedTag) {
            // A Ray tag behind another is the process that printed, relayed by the one outside
            // (vLLM's engine core, "(EngineCore_DP0 pid=1088) (RayWorkerWrapper pid=285,
            // ip=10.0.0.2) "): the inner one names it.
            if (out.decoration == Decoration::None ||
                (out.decoration == Decoration::Ray && tagKind == Decoration::Ray)) {
                out.decoration = tagKind;
                out.decorationHost = host;
                out.decorationPid = pid;
                out.decorationRank = tagRank;
            } else {
                // Behind a launcher's rank prefix ("[1,3]<stderr>:[gpu15:85054:0:85088] Caught
                // signal 11"): the prefix gives the rank, the tag the host and pid, where the prefix
                // did not (SageMaker's names the host, Ray's the pid).
                if (out.decorationHost.empty())
                    out.decorationHost = host;
                if (out.decorationPid < 0)
                    out.decorationPid = pid;
            }
            rest.remove_prefix(usedTag);
            continue;
        }
        // CloudWatch exports: "  | 2024-11-28T07:42:14.532Z | message"
        if (!out.stamp && (rest.front() == ' ' || rest.front() == '|')) {
            std::size_t q = rest.find_first_not_of(' ');
            if (q != std::string_view::npos && rest[q] == '|' && q + 2 < rest.size() && rest[q + 1] == ' ') {
                std::size_t usedTs = 0;
                if (auto ts = parseTimestampAt(rest.substr(q + 2), defaultYear, &usedTs)) {
                    out.stamp = ts;
                    rest.remove_prefix(q + 2 + usedTs);
                    if (rest.starts_with("| "))
                        rest.remove_prefix(2);
                    continue;
                }
            }
        }
        // A line indented by whoever copied it (a forum post's, a viewer's column): the stamp or
        // launcher prefix after the spaces is the line's own, as unindented. Only a stamp that
        // opens with a digit, or torchrun's or mpirun's rank prefix, is looked for there: an
        // indented word is a traceback's or a record's continuation.
        if (round == 0 && rest.front() == ' ' && out.decoration == Decoration::None && !out.stamp) {
            std::size_t q = 1;
            while (q < rest.size() && q < 8 && rest[q] == ' ')
                ++q;
            if (q < rest.size() && isDigit(rest[q])) {
                std::size_t usedTs = 0;
                if (auto ts = parseTimestampAt(rest.substr(q), defaultYear, &usedTs)) {
                    out.stamp = ts;
                    rest.remove_prefix(q + usedTs);
                    continue;
                }
            } else if (q < rest.size() && rest[q] == '[') {
                Decoration indented = Decoration::None;
                int indentedRank = -1;
                std::string_view indentedHost;
                std::int64_t indentedPid = -1;
                if (const std::size_t n =
                        decorationAt(rest.substr(q), indented, indentedRank, indentedHost, indentedPid);
                    n && (indented == Decoration::TorchrunRank || indented == Decoration::TorchrunDefault ||
                          indented == Decoration::MpirunTag)) {
                    out.decoration = indented;
                    out.decorationRank = indentedRank;
                    out.decorationHost = indentedHost;
                    out.decorationPid = indentedPid;
                    rest.remove_prefix(q + n);
                    continue;
                }
            }
        }
        std::size_t used = 0;
        // mpirun --timestamp-output: Open MPI 4 prints the ctime(3) time bare before its tag, Open
        // MPI 5 in brackets; with no tag, the stream's ("<stdout>:") follows the time.
        if (!out.stamp && rest.size() >= 24 && (isAlpha(rest[0]) || (rest[0] == '[' && isAlpha(rest[1])))) {
            const bool bracketed = rest[0] == '[';
            auto ts = ctimeAt(rest.substr(bracketed ? 1 : 0), used);
            if (ts && bracketed && (used + 1 >= rest.size() || rest[used + 1] != ']'))
                ts.reset();
            if (ts) {
                out.stamp = ts;
                rest.remove_prefix(used + (bracketed ? 2 : 0));
                if (const std::size_t stream = streamTagAt(rest, 0))
                    rest.remove_prefix(stream);
                else if (!rest.empty() && rest.front() == ' ')
                    rest.remove_prefix(1);
                continue;
            }
        }
        Level glog = Level::None;
        if (!out.stamp) {
            if (auto ts = parseTimestampAt(rest, defaultYear, &used, &glog)) {
                out.stamp = ts;
                if (glog != Level::None)
                    out.level = glog;
                rest.remove_prefix(used);
                if (std::size_t usedJ = journaldAt(rest, host, pid); usedJ && glog == Level::None) {
                    out.decoration = Decoration::Journald;
                    out.decorationHost = host;
                    out.decorationPid = pid;
                    rest.remove_prefix(usedJ);
                }
                continue;
            }
        }
        if (out.decoration == Decoration::None) {
            if (std::size_t usedPod = kubectlPodAt(rest, host)) {
                out.decoration = Decoration::KubectlPod;
                out.decorationHost = host;
                rest.remove_prefix(usedPod);
                continue;
            }
            if (std::size_t usedNode = skyPilotAt(rest, host)) {
                out.decoration = Decoration::HostPrefix;
                out.decorationHost = host;
                rest.remove_prefix(usedNode);
                continue;
            }
            if (std::size_t usedHost = hostPrefixAt(rest, host)) {
                out.decoration = Decoration::HostPrefix;
                out.decorationHost = host;
                rest.remove_prefix(usedHost);
                continue;
            }
        }
        // A bare "[123456789] " (line numbers or pids that some reporters prepend) before a
        // decoration, longer than decorationAt reads.
        if (rest.size() > 3 && rest[0] == '[' && isDigit(rest[1])) {
            std::int64_t n = 0;
            std::size_t k = someDigits(rest, 1, n, 9);
            if (1 + k + 1 < rest.size() && rest[1 + k] == ']' && rest[2 + k] == ' ' && rest.size() > 3 + k &&
                rest[3 + k] == '[') {
                rest.remove_prefix(3 + k);
                continue;
            }
        }
        break;
    }
    if (out.decoration == Decoration::None && !out.decorationFile.empty())
        out.decoration = Decoration::GrepFile;
    out.body = rest;

    if (auto nccl = ncclAt(rest)) {
        out.nccl = nccl;
        out.level = nccl->level;
        if (nccl->level == Level::Info)
            out.trail = trailAt(nccl->message);
        return out;
    }
    // The logger's own stamp behind a collector's, which took the line's time ("2025-02-18 12:54
    // [rank13]:[E218 04:54:22.86 ProcessGroupNCCL.cpp:616] ...", journald's second before Python's
    // milliseconds): glog's letter is still the level, and a finer stamp says when in the
    // collector's second or minute the line was written (withinCollectorStamp). Only behind a stamp
    // of a second or coarser: a finer one has nothing to gain, and most lines are spared the tries.
    const bool glogBracket = rest.size() > 4 && rest[0] == '[' && isDigit(rest[2]);
    if (out.stamp && ((out.level == Level::None && glogBracket) ||
                      (out.stamp->resolutionUs >= 1'000'000 && rest.size() > 4 &&
                       (rest[0] == '[' || isDigit(rest[0]) || (rest[0] >= 'A' && rest[0] <= 'Z'))))) {
        Level glogLevel = Level::None;
        const int year = yearOf(out.stamp->us);
        if (const auto inner = parseTimestampAt(rest, year, nullptr, &glogLevel)) {
            if (out.level == Level::None)
                out.level = glogLevel;
            if (auto finer = withinCollectorStamp(*out.stamp, *inner))
                out.stamp = finer;
            else if (inner->yearGuessed)
                // A year-less stamp of 31 December behind a collector's of 1 January (or the
                // reverse) is of the year next to the collector's.
                for (const int next : {year - 1, year + 1})
                    if (auto other = parseTimestampAt(rest, next))
                        if ((finer = withinCollectorStamp(*out.stamp, *other))) {
                            out.stamp = finer;
                            break;
                        }
        }
    }
    // glog without time: "[E ProcessGroupNCCL.cpp:475] ..."
    if (out.level == Level::None && rest.size() > 4 && rest[0] == '[' && rest[2] == ' ') {
        switch (rest[1]) {
        case 'I':
            out.level = Level::Info;
            break;
        case 'W':
            out.level = Level::Warn;
            break;
        case 'E':
            out.level = Level::Error;
            break;
        case 'F':
            out.level = Level::Fatal;
            break;
        default:
            break;
        }
    }
    // Python logging: "<stamp> LEVEL ..." or "<stamp> - name - LEVEL - ..."
    if (out.level == Level::None && out.stamp) {
        std::string_view r = rest;
        for (int i = 0; i < 4 && !r.empty(); ++i) {
            // A plain loop: find_first_of calls memchr on " \t" once per character of the line.
            std::size_t sp = 0;
            while (sp < r.size() && r[sp] != ' ' && r[sp] != '\t')
                ++sp;
            if (sp == r.size())
                sp = std::string_view::npos;
            std::string_view word = r.substr(0, sp);
            // A coloured level ("\x1b[31mERROR\x1b[0m"): the word inside the colours.
            if (!word.empty() && (word.front() == '\x1b' || word.back() == 'm')) {
                while (const std::size_t n = terminalCodeAt(word))
                    word.remove_prefix(n);
                if (const std::size_t esc = word.rfind('\x1b');
                    esc != std::string_view::npos && terminalCodeAt(word.substr(esc)) == word.size() - esc)
                    word = word.substr(0, esc);
            }
            if (!word.empty() && (word.front() == '[' || word.front() == '('))
                word = word.substr(1, word.size() >= 2 ? word.size() - 2 : 0);
            Level lv = pythonLevel(word);
            if (lv != Level::None) {
                out.level = lv;
                break;
            }
            if (sp == std::string_view::npos)
                break;
            r = r.substr(sp + 1);
            while (!r.empty() && (r.front() == ' ' || r.front() == '-' || r.front() == '|'))
                r.remove_prefix(1);
        }
    }
    return out;
}

} // namespace rl
