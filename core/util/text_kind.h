#pragma once
// Whether a file is a text log or something else, from its first bytes.

#include <cstring>
#include <string>
#include <string_view>

namespace rl
{

// PyTorch's Flight Recorder dump in its JSON form (c10d's dump_json: compact, keys sorted, so the
// entries come first and "version" last): text, but no log, and read as the pickled dump is.
inline bool flightRecorderJsonHead(std::string_view head)
{
    head = head.substr(0, 4096);
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return false;
    auto has = [head](std::string_view key) { return head.find(key) != std::string_view::npos; };
    return (has("\"collective_seq_id\":") && has("\"profiling_name\":") && has("\"process_group\":")) ||
           (has("\"version\":") && has("\"pg_config\":"));
}

// True when `head` (a file's first bytes) is not text. NUL bytes mark binary files (core dumps,
// checkpoints, compressed data, UTF-16), which hold one before their first line ends, and
// control bytes besides; so does a Flight Recorder dump in JSON (flightRecorderJsonHead), read as
// the pickled dump is rather than as a log. NUL bytes that come after whole lines of text, with nothing but
// text around them, are what a crash leaves in a log: the file's size reached the disk and its last blocks
// did not, so they read as zeros (and a restarted process may append after them). That log is often the one
// that holds the failure, so it stays text.
inline bool binaryHead(std::string_view head)
{
    if (!head.empty() && (head.front() == '{' || head.front() == ' ' || head.front() == '\n') &&
        flightRecorderJsonHead(head))
        return true;
    const void* nul = std::memchr(head.data(), '\0', head.size());
    if (!nul)
        return false;
    const std::string_view before(head.data(),
                                  static_cast<std::size_t>(static_cast<const char*>(nul) - head.data()));
    if (before.find('\n') == std::string_view::npos)
        return true;
    for (const char c : head) {
        const auto u = static_cast<unsigned char>(c);
        // Tab, line feed, vertical tab, form feed, carriage return, escape (terminal colours) and
        // backspace are text; so is any byte of 0x80 or more (UTF-8, or Latin-1 shown safely).
        if ((u < 0x20 && u != 0 && (u < 0x08 || u > 0x0d) && u != 0x1b) || u == 0x7f)
            return true;
    }
    return false;
}

// A line as shown to people (the window, reports, --json's quoted text): each run of NUL bytes,
// the zeros of a crash that binaryHead lets through, becomes one "[N NUL bytes]" so that the text
// after it stays in view and the gap is seen for what it is. Any other byte is left as it is.
inline std::string markNulRuns(std::string_view line)
{
    std::string out;
    std::size_t from = 0;
    while (from < line.size()) {
        const void* hit = std::memchr(line.data() + from, '\0', line.size() - from);
        if (!hit) {
            out.append(line.substr(from));
            break;
        }
        const auto at = static_cast<std::size_t>(static_cast<const char*>(hit) - line.data());
        std::size_t end = at;
        while (end < line.size() && line[end] == '\0')
            ++end;
        out.append(line.substr(from, at - from));
        out += "[" + std::to_string(end - at) + (end - at == 1 ? " NUL byte]" : " NUL bytes]");
        from = end;
    }
    return out;
}

// The length of the terminal control sequence at the start of `s` (ESC '[', parameters, a final
// byte: the colours of a program that wrote to a terminal, "\x1b[1;31m"), or 0.
inline std::size_t terminalCodeAt(std::string_view s)
{
    if (s.size() < 3 || s[0] != '\x1b' || s[1] != '[')
        return 0;
    std::size_t p = 2;
    while (p < s.size() && static_cast<unsigned char>(s[p]) >= 0x20 &&
           static_cast<unsigned char>(s[p]) <= 0x3f)
        ++p;
    if (p < s.size() && static_cast<unsigned char>(s[p]) >= 0x40 && static_cast<unsigned char>(s[p]) <= 0x7e)
        return p + 1;
    return 0;
}

// `s` without its terminal control sequences (terminalCodeAt), as a terminal shows it.
inline std::string withoutTerminalCodes(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (const std::size_t n = s[i] == '\x1b' ? terminalCodeAt(s.substr(i)) : 0) {
            i += n - 1;
            continue;
        }
        out += s[i];
    }
    return out;
}

// The line as shown to people (the window, reports, quoted text), where it differs from its bytes:
// - A progress bar that redraws itself with carriage returns (tqdm's "\r 45%|####  | 45/100
//   [00:10<00:12]") ends no line, and the next line printed is glued to its drawings. A terminal
//   shows what follows the last carriage return, and so does this, after "[N bytes overwritten
//   by \r] " for what it leaves out: the line that matters is no longer cut off behind them.
// - Each run of NUL bytes is marked (markNulRuns).
// - Terminal colours are not shown as codes (withoutTerminalCodes).
// Itself where none applies (most lines: no copy), else the text, kept in `storage`.
inline std::string_view shownLine(std::string_view line, std::string& storage)
{
    std::string_view drawn = line;
    while (!drawn.empty() && drawn.back() == '\r') // a line break's, not a redraw
        drawn.remove_suffix(1);
    const std::size_t cr = drawn.rfind('\r');
    const bool nul = std::memchr(line.data(), '\0', line.size()) != nullptr;
    const bool esc = std::memchr(line.data(), '\x1b', line.size()) != nullptr;
    if (cr == std::string_view::npos && !nul && !esc)
        return line;
    if (cr == std::string_view::npos) {
        storage = nul ? markNulRuns(line) : std::string(line);
    } else {
        storage.clear();
        // Carriage returns alone before the text (a bar's first drawing) leave nothing out.
        if (drawn.find_first_not_of('\r') < cr)
            storage = "[" + std::to_string(cr) + (cr == 1 ? " byte" : " bytes") + " overwritten by \\r] ";
        storage += nul ? markNulRuns(drawn.substr(cr + 1)) : std::string(drawn.substr(cr + 1));
    }
    if (esc)
        storage = withoutTerminalCodes(storage);
    return storage;
}

// The first position from `at` that is not JSON's white space (space, tab, CR, LF).
inline std::size_t skipJsonSpace(std::string_view text, std::size_t at)
{
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n'))
        ++at;
    return at;
}

// Whether a text's first bytes could open a log kept as JSON records (bundle/json_records.h): its
// first line that is not blank is an object that names a field holding a log line, or it opens an
// array of objects (a pretty-printed export) and a field holding a log line is named in the head.
// A hint cheap enough for every file's head (most logs fail it at their first byte);
// jsonRecordsText decides.
inline bool jsonRecordsHead(std::string_view head)
{
    std::size_t at = skipJsonSpace(head, head.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0);
    std::string_view within;
    if (at < head.size() && head[at] == '{' && head.substr(skipJsonSpace(head, at + 1), 9) == "\"events\":") {
        within = head.substr(at); // the AWS CLI's {"events": [...]}, pretty-printed
    } else if (at < head.size() && head[at] == '{') {
        within = head.substr(at, head.find('\n', at) - at);
    } else if (at < head.size() && head[at] == '[') {
        at = skipJsonSpace(head, at + 1);
        if (at >= head.size() || head[at] != '{')
            return false;
        within = head.substr(at);
    } else {
        return false;
    }
    for (const std::string_view key :
         {"\"log\"", "\"MESSAGE\"", "\"message\"", "\"msg\"", "\"line\"", "\"textPayload\""})
        if (within.find(key) != std::string_view::npos)
            return true;
    return false;
}

} // namespace rl
