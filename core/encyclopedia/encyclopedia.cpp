#include "encyclopedia/encyclopedia.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <re2/re2.h>
#include <set>
#include <sstream>

#include "parse/line_parser.h"
#include "util/ascii.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rl
{

namespace
{

struct ExtractedLiteral {
    std::string text;
    bool afterDigit = false; // the pattern puts a digit right before it (":\\d+ -> 4")
};

// A reading of RE2's syntax that gives up (false, npos or nothing) on anything it does not know:
// the literals and lead below, and requiredLiterals, must never claim more than a pattern does.

// The index of the ']' closing the class that opens at `at`, or npos. A ']' first in the class is
// one of its members, and so is a "[:alpha:]" inside it.
std::size_t classEnd(std::string_view re, std::size_t at)
{
    std::size_t i = at + 1;
    if (i < re.size() && re[i] == '^')
        ++i;
    if (i < re.size() && re[i] == ']')
        ++i;
    for (; i < re.size(); ++i) {
        if (re[i] == '\\') {
            ++i;
        } else if (re[i] == '[' && i + 1 < re.size() && re[i + 1] == ':') {
            const std::size_t close = re.find(":]", i + 2);
            if (close == std::string_view::npos)
                return std::string_view::npos;
            i = close + 1;
        } else if (re[i] == ']') {
            return i;
        }
    }
    return std::string_view::npos;
}

// The index of the ')' closing the group that opens at `at`, or npos.
std::size_t groupEnd(std::string_view re, std::size_t at)
{
    int depth = 0;
    for (std::size_t i = at; i < re.size(); ++i) {
        if (re[i] == '\\') {
            ++i;
        } else if (re[i] == '[') {
            i = classEnd(re, i);
            if (i == std::string_view::npos)
                return i;
        } else if (re[i] == '(') {
            ++depth;
        } else if (re[i] == ')' && --depth == 0) {
            return i;
        }
    }
    return std::string_view::npos;
}

// The alternatives of `re` outside its groups and classes, or nothing where they do not close.
std::optional<std::vector<std::string_view>> alternatives(std::string_view re)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i < re.size(); ++i) {
        if (re[i] == '\\') {
            ++i;
        } else if (re[i] == '[' || re[i] == '(') {
            i = re[i] == '[' ? classEnd(re, i) : groupEnd(re, i);
            if (i == std::string_view::npos)
                return std::nullopt;
        } else if (re[i] == ')') {
            return std::nullopt;
        } else if (re[i] == '|') {
            out.push_back(re.substr(start, i - start));
            start = i + 1;
        }
    }
    out.push_back(re.substr(start));
    return out;
}

// Longest run of literal text outside groups and classes, per top-level alternative.
std::vector<ExtractedLiteral> extractLiterals(const std::string& re)
{
    // Unbalanced as this reading sees it ("\Q(\E"): read as one alternative.
    const std::vector<std::string_view> branches =
        alternatives(re).value_or(std::vector<std::string_view>{re});
    std::vector<ExtractedLiteral> out;
    // Text on most lines of an NCCL log makes a useless prefilter: prefer any other run.
    auto common = [](const std::string& r) {
        for (const char* c : {"NCCL INFO", "NCCL WARN", " NCCL ", "NCCL TRACE"})
            if (r.find(c) != std::string::npos && r.size() <= std::string(c).size() + 2)
                return true;
        return false;
    };
    for (const std::string_view b : branches) {
        std::string run;
        ExtractedLiteral best, bestCommon;
        // Whether the run being built follows a `\d` or `\d+` directly: a digit must then stand
        // right before the literal, a cheap test that spares NCCL's "1[1] -> 4[4]" channel lines the
        // regex of every "file.cc:123 -> 4" trail fingerprint.
        bool runAfterDigit = false;
        bool digitPending = false; // the last atom was \d (or \d+), not optional
        auto flush = [&] {
            if (common(run)) {
                if (run.size() > bestCommon.text.size())
                    bestCommon = {run, runAfterDigit};
            } else if (run.size() > best.text.size()) {
                best = {run, runAfterDigit};
            }
            run.clear();
        };
        int d = 0;
        bool cls = false;
        for (std::size_t i = 0; i < b.size(); ++i) {
            char c = b[i];
            char next = i + 1 < b.size() ? b[i + 1] : '\0';
            bool optionalNext = next == '?' || next == '*' || next == '{';
            const bool digitBefore = digitPending;
            // Only `\d` itself and a `+` right after it keep the flag alive.
            digitPending =
                (c == '+' && digitBefore) ||
                (c == '\\' && next == 'd' && d == 0 && !cls &&
                 std::string_view("?*{").find(i + 2 < b.size() ? b[i + 2] : '\0') == std::string_view::npos);
            if (cls) {
                if (c == '\\')
                    ++i;
                else if (c == ']')
                    cls = false;
                continue;
            }
            if (c == '[') {
                flush();
                cls = true;
                continue;
            }
            if (c == '(' && d == 0) {
                // A group holding nothing but literal text ("-> (?P<code>3)") is literal text too,
                // unless a quantifier makes it optional: without this the run would stop at " -> ",
                // which every "Channel 00/0 : 1[1] -> 3[3]" line contains.
                std::size_t body = i + 1;
                if (b.compare(body, 3, "?P<") == 0) {
                    const std::size_t close = b.find('>', body);
                    body = close == std::string::npos ? b.size() : close + 1;
                } else if (b.compare(body, 2, "?:") == 0) {
                    body += 2;
                }
                std::string text;
                std::size_t j = body;
                bool plain = true;
                for (; j < b.size() && b[j] != ')'; ++j) {
                    const char g = b[j];
                    if (g == '\\' && j + 1 < b.size() &&
                        !std::isalnum(static_cast<unsigned char>(b[j + 1]))) {
                        text.push_back(b[++j]);
                    } else if (std::string_view("\\.^$*+?{}[]|(").find(g) != std::string_view::npos) {
                        plain = false;
                        break;
                    } else {
                        text.push_back(g);
                    }
                }
                const char after = j + 1 < b.size() ? b[j + 1] : '\0';
                if (plain && j < b.size() && !text.empty() && after != '?' && after != '*' && after != '{' &&
                    after != '+') {
                    if (run.empty())
                        runAfterDigit = digitBefore;
                    run += text;
                    i = j; // the closing parenthesis
                    continue;
                }
            }
            if (c == '(') {
                flush();
                ++d;
                continue;
            }
            if (c == ')') {
                --d;
                continue;
            }
            if (d > 0) {
                if (c == '\\')
                    ++i;
                continue;
            }
            char lit = '\0';
            if (c == '\\') {
                char e = next;
                ++i;
                next = i + 1 < b.size() ? b[i + 1] : '\0';
                optionalNext = next == '?' || next == '*' || next == '{';
                if (e != '\0' && !std::isalnum(static_cast<unsigned char>(e)))
                    lit = e;
                else {
                    flush();
                    continue;
                }
            } else if (c == '{') {
                // Counted repetition: "{2,5}" is not literal text.
                flush();
                while (i < b.size() && b[i] != '}')
                    ++i;
                continue;
            } else if (std::string_view(".^$*+?}|").find(c) != std::string_view::npos) {
                flush();
                continue;
            } else {
                lit = c;
            }
            if (optionalNext) {
                flush();
                continue;
            }
            if (run.empty())
                runAfterDigit = digitBefore;
            run.push_back(lit);
            if (next == '+')
                flush();
        }
        flush();
        out.push_back(best.text.size() >= 4 || bestCommon.text.empty() ? best : bestCommon);
    }
    return out;
}

std::string str(const json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::vector<std::string> strings(const json& j, const char* key)
{
    std::vector<std::string> out;
    auto it = j.find(key);
    if (it != j.end() && it->is_array())
        for (const auto& v : *it)
            if (v.is_string())
                out.push_back(v.get<std::string>());
    return out;
}

Expected<Version> versionField(const json& j, const char* key, const std::string& origin)
{
    std::string s = str(j, key);
    auto v = Version::parse(s);
    if (!v)
        return Error{origin, std::string("field '") + key + "' is not a version: '" + s + "'",
                     "write versions as X.Y.Z"};
    return *v;
}

// The escape at `at` (a backslash): how many bytes it takes, and the character it stands for when it is
// one (\. \[ \-); 0 bytes for an escape not read here (\Q, octal, unknown letters).
struct Escape {
    std::size_t length = 0;
    std::optional<char> literal;
};
Escape escapeAt(std::string_view re, std::size_t at)
{
    if (at + 1 >= re.size())
        return {};
    const char e = re[at + 1];
    if (static_cast<unsigned char>(e) >= 0x80)
        return {};
    if (!isAlnum(e))
        return {2, e};
    // Classes, assertions and control characters: no literal text (a newline is, but reading
    // it as none only says less).
    if (std::string_view("dDsSwWbBAzCntrfva").find(e) != std::string_view::npos)
        return {2, std::nullopt};
    if (e == 'x' || e == 'p' || e == 'P') {
        if (at + 2 < re.size() && re[at + 2] == '{') {
            const std::size_t close = re.find('}', at + 3);
            return close == std::string_view::npos ? Escape{} : Escape{close + 1 - at, std::nullopt};
        }
        const std::size_t length = e == 'x' ? 4 : 3;
        return at + length <= re.size() ? Escape{length, std::nullopt} : Escape{};
    }
    return {};
}

// Reads the sequence `re` (no alternation outside its groups): calls run(text) for each run of
// literal characters that every match of it holds, in order, and group(body) for each group it
// must match at least once. False where the syntax is beyond this reading, or where group() says so.
template <class Run, class Group> bool readSequence(std::string_view re, Run&& run, Group&& group)
{
    std::string text;
    auto flush = [&] {
        if (!text.empty())
            run(std::move(text));
        text.clear();
    };
    // What follows an atom ending before `at`: '?', '*' and a counted repetition may take it zero
    // times ("{1,3}" too: read as optional, which only says less).
    auto optionalAt = [&re](std::size_t at) {
        return at < re.size() && (re[at] == '?' || re[at] == '*' || re[at] == '{');
    };
    for (std::size_t i = 0; i < re.size();) {
        const char c = re[i];
        if (c == '(') {
            flush();
            const std::size_t close = groupEnd(re, i);
            if (close == std::string_view::npos)
                return false;
            std::string_view body = re.substr(i + 1, close - i - 1);
            if (body.starts_with("?P<")) {
                const std::size_t name = body.find('>');
                if (name == std::string_view::npos)
                    return false;
                body.remove_prefix(name + 1);
            } else if (body.starts_with("?:")) {
                body.remove_prefix(2);
            } else if (body.starts_with("?")) {
                return false; // flags: "(?i)", "(?s:...)"
            }
            if (!optionalAt(close + 1) && !group(body))
                return false;
            i = close + 1;
            continue;
        }
        if (c == '[') {
            flush();
            const std::size_t close = classEnd(re, i);
            if (close == std::string_view::npos)
                return false;
            i = close + 1;
            continue;
        }
        if (c == ')' || c == '|')
            return false;
        if (c == '{') {
            // A counted repetition ("{2}", "{1,3}", "{2,}") of the atom before it, whose digits
            // are no text; a '{' that starts none is a literal, read as none.
            std::size_t j = i + 1;
            while (j < re.size() && (isDigit(re[j]) || re[j] == ','))
                ++j;
            flush();
            i = j > i + 1 && j < re.size() && re[j] == '}' ? j + 1 : i + 1;
            continue;
        }
        std::size_t length = 1;
        std::optional<char> literal;
        if (c == '\\') {
            const Escape e = escapeAt(re, i);
            if (e.length == 0)
                return false;
            length = e.length;
            literal = e.literal;
        } else if (static_cast<unsigned char>(c) < 0x80 &&
                   std::string_view(".^$*+?{}").find(c) == std::string_view::npos) {
            literal = c;
        }
        // A quantifier that follows a multi-byte character takes all of it: bytes of such
        // characters are never part of a run.
        if (!literal || optionalAt(i + length)) {
            flush();
        } else {
            text.push_back(*literal);
            if (i + length < re.size() && re[i + length] == '+')
                flush(); // the character repeats: what follows need not come right after it
        }
        i += length;
    }
    flush();
    return true;
}

// Into `out`, the sets of requiredLiterals for the sequence `re`.
bool requiredOfSequence(std::string_view re, std::vector<std::vector<std::string>>& out)
{
    auto run = [&out](std::string&& text) {
        if (text.size() >= 2)
            out.push_back({std::move(text)});
    };
    auto group = [&out](std::string_view body) {
        const auto alts = alternatives(body);
        if (!alts)
            return false;
        if (alts->size() == 1) // the group's sequence is part of every match
            return requiredOfSequence(body, out);
        // One alternative matches: each gives its longest run, and one of them is in the line.
        std::vector<std::string> anyOf;
        bool each = true;
        for (const std::string_view alt : *alts) {
            std::string longest;
            const bool read = readSequence(
                alt,
                [&longest](std::string&& text) {
                    if (text.size() > longest.size())
                        longest = std::move(text);
                },
                [](std::string_view) { return true; }); // a group inside: no run of its own here
            if (!read)
                return false;
            each = each && longest.size() >= 2;
            anyOf.push_back(std::move(longest));
        }
        if (each) {
            std::sort(anyOf.begin(), anyOf.end());
            anyOf.erase(std::unique(anyOf.begin(), anyOf.end()), anyOf.end());
            out.push_back(std::move(anyOf));
        }
        return true;
    };
    return readSequence(re, run, group);
}

} // namespace

std::string leadingLiteral(std::string_view pattern)
{
    // An alternation at the top level lets a match start with something else (and where the reading
    // above cannot follow the pattern, nothing is claimed).
    const auto alts = alternatives(pattern);
    if (!alts || alts->size() != 1)
        return {};
    std::string lead;
    std::size_t i = 0;
    while (i < pattern.size()) {
        const auto c = static_cast<unsigned char>(pattern[i]);
        if (c >= 0x80 ||
            std::string_view(".^$|?*+()[]{}").find(static_cast<char>(c)) != std::string_view::npos)
            break;
        if (c == '\\') {
            if (i + 1 >= pattern.size())
                break;
            const auto n = static_cast<unsigned char>(pattern[i + 1]);
            if (n >= 0x80 || isAlnum(static_cast<char>(n)))
                break; // \d, \w, \b, \x41, \Q...: not one plain character
            lead += static_cast<char>(n);
            i += 2;
        } else {
            lead += static_cast<char>(c);
            ++i;
        }
    }
    // "Bootstrap ?:": the space before '?' may be absent, so it is not part of every match.
    if (!lead.empty() && i < pattern.size() &&
        std::string_view("?*{").find(pattern[i]) != std::string_view::npos)
        lead.pop_back();
    return lead;
}

std::vector<std::vector<std::string>> requiredLiterals(std::string_view pattern)
{
    const auto alts = alternatives(pattern);
    if (!alts || alts->size() != 1)
        return {};
    std::vector<std::vector<std::string>> out;
    if (!requiredOfSequence(pattern, out))
        return {};
    return out;
}

Expected<Fingerprint> compileFingerprint(const std::string& pattern)
{
    RE2::Options opts;
    opts.set_log_errors(false);
    auto re = std::make_shared<RE2>(pattern, opts);
    if (!re->ok())
        return Error{"", "fingerprint does not compile: " + re->error() + " in /" + pattern + "/",
                     "RE2 syntax: no lookarounds or backreferences"};
    Fingerprint f;
    f.pattern = pattern;
    f.regex = re;
    f.lead = leadingLiteral(pattern);
    // A set with a text the lead holds says nothing more: the scanner has found the lead first.
    for (auto& anyOf : requiredLiterals(pattern))
        if (std::none_of(anyOf.begin(), anyOf.end(),
                         [&f](const std::string& t) { return f.lead.find(t) != std::string::npos; }))
            f.required.push_back(std::move(anyOf));
    for (auto& l : extractLiterals(pattern)) {
        f.literals.push_back(std::move(l.text));
        f.literalAfterDigit.push_back(l.afterDigit);
    }
    for (const auto& l : f.literals)
        if (l.size() < 4)
            return Error{
                "", "fingerprint /" + pattern + "/ has an alternative with no literal text of 4+ characters",
                "add a fixed word to every alternative so the prefilter can skip lines cheaply"};
    return f;
}

const Symptom* Entry::symptom(const std::string& symptomId) const
{
    for (const auto& s : symptoms)
        if (s.id == symptomId)
            return &s;
    return nullptr;
}

const AffectedVersions* Entry::affected(const std::string& component) const
{
    for (const auto& a : affectedVersions)
        if (a.component == component)
            return &a;
    return nullptr;
}

Placeholder placeholderOf(std::string_view name)
{
    using F = Placeholder::Form;
    for (const auto& [prefix, form] :
         {std::pair{std::string_view("all:"), F::All}, std::pair{std::string_view("quoted:"), F::Quoted},
          std::pair{std::string_view("meaning:"), F::Meaning}, std::pair{std::string_view("pci:"), F::Pci}})
        if (name.starts_with(prefix))
            return {form, name.substr(prefix.size())};
    return {F::Plain, name};
}

std::vector<std::string_view> summaryPlaceholders(std::string_view summary)
{
    std::vector<std::string_view> names;
    for (std::size_t at = summary.find('{'); at != std::string_view::npos; at = summary.find('{', at + 1)) {
        const std::size_t end = summary.find('}', at);
        const std::string_view name =
            end == std::string_view::npos ? std::string_view{} : summary.substr(at + 1, end - at - 1);
        names.push_back(name.substr(0, name.find('|'))); // "{name|default}"
    }
    return names;
}

const Entry* Encyclopedia::find(const std::string& id) const
{
    for (const auto& e : entries)
        if (e.id == id)
            return &e;
    return nullptr;
}

void Encyclopedia::releaseCompiledFingerprints()
{
    for (auto& e : entries)
        for (auto& s : e.symptoms)
            for (auto& fp : s.fingerprints)
                fp.regex.reset();
}

// A function-try-block: a field of the wrong type ("primary": [] where a boolean belongs) makes
// nlohmann::json throw from any of the reads below (found by fuzz_encyclopedia).
Expected<Entry> parseEntry(const std::string& jsonText, const std::string& origin)
try {
    json j = json::parse(jsonText, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Error{origin, "not valid JSON", "check the file with python3 -m json.tool"};
    Entry e;
    e.id = str(j, "id");
    if (e.id.empty())
        return Error{origin, "entry has no 'id'", "every entry needs an id"};
    std::string where = origin + " [" + e.id + "]";
    e.title = str(j, "title");
    e.category = str(j, "category");
    e.tags = strings(j, "tags");
    e.quickAnswer = str(j, "quick_answer");
    e.summary = str(j, "summary");
    if (auto m = j.find("meanings"); m != j.end()) {
        if (!m->is_object())
            return Error{where, "'meanings' is not an object",
                         "write \"meanings\": {\"<capture>\": {\"<value>\": \"<what it means>\"}}"};
        for (const auto& [capture, values] : m->items()) {
            if (!values.is_object() || values.empty())
                return Error{where, "'meanings." + capture + "' is not an object of values",
                             "map each value the capture takes to what it means"};
            for (const auto& [value, text] : values.items()) {
                if (!text.is_string() || text.get<std::string>().empty())
                    return Error{where, "'meanings." + capture + "." + value + "' is not a text",
                                 "say what the value means in a sentence's words"};
                e.meanings[capture][value] = text.get<std::string>();
            }
        }
    }
    e.earliestNote = str(j, "earliest_note");
    e.mechanism = str(j, "mechanism");
    e.observations = strings(j, "observations");
    e.rootCause = str(j, "root_cause");
    e.prevention = strings(j, "prevention");
    e.related = strings(j, "related");
    e.refines = strings(j, "refines");
    e.undatedConsequences = strings(j, "undated_consequences");
    if (e.title.empty() || e.quickAnswer.empty() || e.rootCause.empty())
        return Error{where, "entry lacks 'title', 'quick_answer' or 'root_cause'",
                     "fill in every required field"};

    std::set<std::string> symptomIds;
    for (const auto& js : j.value("symptoms", json::array())) {
        Symptom s;
        s.id = str(js, "id");
        if (s.id.empty() || !symptomIds.insert(s.id).second)
            return Error{where, "symptom id '" + s.id + "' is empty or repeated",
                         "give each symptom a unique id"};
        s.signal = str(js, "signal");
        s.why = str(js, "why");
        std::string phase = str(js, "phase");
        if (phase == "connect")
            s.phase = Phase::Connect;
        else if (phase == "failure")
            s.phase = Phase::Failure;
        else if (phase == "trail")
            s.phase = Phase::Trail;
        else if (phase == "collateral")
            s.phase = Phase::Collateral;
        else if (phase == "context")
            s.phase = Phase::Context;
        else
            return Error{where, "symptom '" + s.id + "' has unknown phase '" + phase + "'",
                         "use connect, failure, trail, collateral or context"};
        s.primary = js.value("primary", false);
        s.progress = js.value("progress", false);
        s.fallback = js.value("fallback", false);
        s.surface = js.value("surface", false);
        if (s.surface && s.primary)
            return Error{where, "symptom '" + s.id + "' is both primary and a surface",
                         "a surface names no cause: it suggests the entry only where nothing else did"};
        if (s.fallback && s.primary)
            return Error{where, "symptom '" + s.id + "' is both primary and a fallback",
                         "a fallback stands in for a primary symptom: keep one of the two"};
        s.label = str(js, "label");
        s.wouldDecide = str(js, "would_decide");
        for (const auto& jf : js.value("fingerprints", json::array())) {
            auto fp = compileFingerprint(str(jf, "re"));
            if (!fp)
                return Error{where, "symptom '" + s.id + "': " + fp.error().cause, fp.error().hint};
            s.fingerprints.push_back(std::move(*fp));
        }
        s.samples = strings(js, "samples");
        if (s.fingerprints.empty() || s.samples.empty())
            return Error{where, "symptom '" + s.id + "' needs at least one fingerprint and one sample",
                         "samples are the worked examples that keep fingerprints honest"};
        // The samples run against copies compiled for the check and dropped after it: a search
        // leaves DFA states in its RE2 object (about 15 KB a fingerprint), which every analysis
        // would then carry for each fingerprint, found in its bundle or not (3.5 MiB for 229). The
        // copies cost about 4 ms for all of them, on the thread that loads while the bundle is read.
        std::vector<std::unique_ptr<RE2>> checkers;
        for (const auto& f : s.fingerprints)
            checkers.push_back(std::make_unique<RE2>(f.pattern, f.regex->options()));
        // Both ways: every sample is matched by some fingerprint, and every fingerprint matches
        // some sample (a fingerprint without a worked example is one nobody has seen work).
        std::vector<char> used(checkers.size(), 0);
        for (const auto& sample : s.samples) {
            bool matched = false;
            for (std::size_t f = 0; f < checkers.size(); ++f)
                if (RE2::PartialMatch(sample, *checkers[f])) {
                    matched = true;
                    used[f] = 1;
                }
            if (!matched) {
                std::string patterns;
                for (const auto& f : s.fingerprints)
                    patterns += " /" + f.pattern + "/";
                return Error{where,
                             "symptom '" + s.id + "': sample does not match any fingerprint:" + patterns +
                                 " sample: " + sample,
                             "fix the pattern or the sample"};
            }
        }
        // The engine reads a fallback's line as the top of an NCCL return-code trail: its thread
        // (pid:tid) and its '-> N' step. A sample it reads as another NCCL line would never stand
        // in, and one sample at least must show a line that does. (A sample whose prefix a reporter
        // redacted past reading is no NCCL line to the engine: kept as evidence, never a fallback.)
        if (s.fallback) {
            bool readable = false;
            for (const auto& sample : s.samples) {
                const ParsedLine pl = parseLine(sample);
                if (pl.nccl && !pl.trail)
                    return Error{where,
                                 "symptom '" + s.id +
                                     "' is a fallback, but this sample is an NCCL line "
                                     "without a return code ('file:line -> N'): " +
                                     sample,
                                 "a fallback stands in only as a '-> N' trail line; remove \"fallback\" or "
                                 "the sample"};
                readable = readable || (pl.nccl && pl.trail);
            }
            if (!readable)
                return Error{where,
                             "symptom '" + s.id +
                                 "' is a fallback, but none of its samples is an NCCL "
                                 "return-code line ('host:pid:tid [dev] NCCL INFO file:line -> N')",
                             "add a real return-code line that the fingerprints match"};
        }
        for (std::size_t f = 0; f < used.size(); ++f)
            if (!used[f])
                return Error{where,
                             "symptom '" + s.id + "': no sample matches fingerprint /" +
                                 s.fingerprints[f].pattern + "/",
                             "add a real log line that it matches to the symptom's samples"};
        e.symptoms.push_back(std::move(s));
    }
    if (e.symptoms.empty() ||
        std::none_of(e.symptoms.begin(), e.symptoms.end(), [](auto& s) { return s.primary; }))
        return Error{where, "entry has no primary symptom",
                     "mark the symptom that identifies the entry primary"};

    std::set<std::string> meaningsSaid; // the captures the summary says {meaning:...} of
    if (!e.summary.empty()) {
        // Every placeholder must be one the engine fills, or a capture the fingerprints define.
        std::set<std::string> captures;
        for (const auto& s : e.symptoms)
            for (const auto& f : s.fingerprints)
                for (const auto& [name, index] : f.regex->NamedCapturingGroups())
                    captures.insert(name);
        std::set<std::string> known{"process", "processes",       "host", "rank",
                                    "target",  "connect_verdict", "count"};
        known.insert(captures.begin(), captures.end());
        // Optional parts "[[...]]" neither nest nor stay open.
        for (std::size_t at = e.summary.find("[["); at != std::string::npos;
             at = e.summary.find("[[", at + 2)) {
            const std::size_t end = e.summary.find("]]", at + 2);
            if (end == std::string::npos ||
                e.summary.substr(at + 2, end - at - 2).find("[[") != std::string::npos)
                return Error{where,
                             "summary has an optional part '[[' that is not closed by ']]' before the next",
                             "close each [[...]] part; they do not nest"};
            at = end;
        }
        for (const std::string_view placeholder : summaryPlaceholders(e.summary)) {
            const std::string name(placeholder);
            const Placeholder ph = placeholderOf(name);
            const std::string named(ph.name);
            // "{meaning:capture}": what the capture's value means, from the entry's "meanings"
            if (ph.form == Placeholder::Form::Meaning) {
                if (!captures.count(named) || !e.meanings.count(named))
                    return Error{where, "summary uses {" + name + "} without that capture and its meanings",
                                 "name a capture of the fingerprints and list its values under \"meanings\""};
                meaningsSaid.insert(named);
                continue;
            }
            // "{all:capture}": every value of a capture; "{quoted:capture}": each in quotes;
            // "{pci:capture}": a bus id NCCL prints in compact hex, as the kernel writes it
            if (ph.form != Placeholder::Form::Plain ? !captures.count(named) : !known.count(named))
                return Error{
                    where, "summary uses unknown placeholder {" + name + "}",
                    "use {process}, {processes}, {host}, {rank}, {target}, {connect_verdict}, {count}, a "
                    "capture name, {all:<capture name>}, {quoted:<capture name>}, "
                    "{meaning:<capture name>} or {pci:<capture name>}"};
        }
    }
    for (const auto& [capture, values] : e.meanings)
        if (!meaningsSaid.count(capture))
            return Error{where,
                         "'meanings." + capture +
                             "' is listed but the summary never says {meaning:" + capture + "}",
                         "use it in the summary or leave it out"};
    if (auto a = j.find("affected"); a != j.end() && a->is_object()) {
        e.affectedComponents = strings(*a, "components");
        e.affectedSystems = str(*a, "systems");
        for (const auto& jv : a->value("versions", json::array())) {
            AffectedVersions av;
            av.component = str(jv, "component");
            auto from = versionField(jv, "from", where);
            if (!from)
                return from.error();
            Version to{999, 0, 0};
            if (jv.contains("to") && jv["to"].is_string()) {
                auto t = versionField(jv, "to", where);
                if (!t)
                    return t.error();
                to = *t;
            }
            av.range = {*from, to};
            if (jv.contains("fixed_in") && jv["fixed_in"].is_string())
                av.fixedIn = Version::parse(jv["fixed_in"].get<std::string>());
            av.note = str(jv, "note");
            av.ifFixed = str(jv, "if_fixed");
            for (const auto& jb : jv.value("bugs", json::array())) {
                KnownBug b;
                auto bFrom = versionField(jb, "from", where);
                if (!bFrom)
                    return bFrom.error();
                auto bTo = versionField(jb, "to", where);
                if (!bTo)
                    return bTo.error();
                auto bFixed = versionField(jb, "fixed_in", where);
                if (!bFixed)
                    return bFixed.error();
                b.range = {*bFrom, *bTo};
                b.fixedIn = *bFixed;
                b.symptom = str(jb, "symptom");
                b.what = str(jb, "what");
                b.ifFixed = str(jb, "if_fixed");
                if (!symptomIds.count(b.symptom))
                    return Error{where,
                                 "a known bug of " + av.component + " names unknown symptom '" + b.symptom +
                                     "'",
                                 "give \"symptom\": the id of this entry's symptom that shows the bug"};
                if (b.what.empty())
                    return Error{where, "a known bug of " + av.component + " has no \"what\"",
                                 "say in a few words what the bug is; it opens the NCCL verdict"};
                if (!(*bFrom <= *bTo) || !(*bTo < *bFixed))
                    return Error{where, "a known bug of " + av.component + " has its versions out of order",
                                 "give from <= to < fixed_in"};
                if (av.fixedIn)
                    return Error{where, "a range with a fix lists known bugs",
                                 "known bugs are for a range of behaviour (\"fixed_in\": null)"};
                av.bugs.push_back(std::move(b));
            }
            e.affectedVersions.push_back(std::move(av));
        }
    }

    for (const auto& jc : j.value("confirm", json::array())) {
        ConfirmItem c;
        c.id = str(jc, "id");
        c.text = str(jc, "text");
        c.why = str(jc, "why");
        c.ifUnknown = str(jc, "if_unknown");
        const json ev = jc.value("evaluator", json::object());
        std::string kind = str(ev, "kind");
        // "symptom": one id, or "symptoms": several (a line of any of them counts): one failure
        // reported in several launchers' words (torchrun's exit code, DeepSpeed's return code).
        auto symptomList = [&]() -> std::optional<Error> {
            c.evaluator.symptoms = ev.contains("symptoms") ? strings(ev, "symptoms")
                                                           : std::vector<std::string>{str(ev, "symptom")};
            if (c.evaluator.symptoms.empty())
                return Error{where, "checklist item '" + c.id + "' names no symptom",
                             "give \"symptom\" or a non-empty \"symptoms\" list"};
            for (const auto& id : c.evaluator.symptoms)
                if (!symptomIds.count(id))
                    return Error{where, "checklist item '" + c.id + "' names unknown symptom '" + id + "'",
                                 "use a symptom id of this entry"};
            c.evaluator.symptom = c.evaluator.symptoms.front();
            return std::nullopt;
        };
        if (kind == "signal_present" || kind == "signal_absent") {
            c.evaluator.kind =
                kind == "signal_present" ? Evaluator::Kind::SignalPresent : Evaluator::Kind::SignalAbsent;
            if (auto bad = symptomList())
                return *bad;
        } else if (kind == "version_in_range") {
            c.evaluator.kind = Evaluator::Kind::VersionInRange;
            c.evaluator.component = str(ev, "component");
            auto from = versionField(ev, "from", where);
            auto to = versionField(ev, "to", where);
            if (!from)
                return from.error();
            if (!to)
                return to.error();
            c.evaluator.range = {*from, *to};
        } else if (kind == "connect_failed_fast") {
            c.evaluator.kind = Evaluator::Kind::ConnectFailedFast;
            c.evaluator.maxSeconds = ev.value("max_seconds", 20.0);
        } else if (kind == "signal_on_ranks") {
            c.evaluator.kind = Evaluator::Kind::SignalOnRanks;
            c.evaluator.minRanks = ev.value("min_ranks", 2);
            if (auto bad = symptomList())
                return *bad;
        } else if (kind == "collateral_points_at_initiator") {
            c.evaluator.kind = Evaluator::Kind::CollateralPointsAtInitiator;
        } else {
            return Error{where, "checklist item '" + c.id + "' has unknown evaluator kind '" + kind + "'",
                         "see resources/encyclopedia/SCHEMA.md"};
        }
        e.confirm.push_back(std::move(c));
    }

    if (auto f = j.find("fix"); f != j.end() && f->is_object()) {
        e.fixSteps = strings(*f, "steps");
        e.verify = str(*f, "verify");
    }
    if (auto r = j.find("role"); r != j.end() && r->is_object()) {
        e.canInitiate = r->value("can_initiate", false);
        e.usualRole = str(*r, "usually");
    }
    for (const auto& x : j.value("examples", json::array()))
        e.examples.push_back({str(x, "stack"), str(x, "snippet"), str(x, "why")});
    for (const auto& x : j.value("faq", json::array()))
        e.faq.push_back({str(x, "q"), str(x, "a")});
    for (const auto& x : j.value("references", json::array()))
        e.references.push_back({str(x, "title"), str(x, "url")});
    return e;
} catch (const std::exception& e) { // nlohmann::json::exception above all
    return Error{origin, std::string("malformed entry (a field of the wrong type?): ") + e.what(),
                 "compare the entry with resources/encyclopedia/SCHEMA.md"};
}

Expected<Encyclopedia> loadEncyclopedia(const std::string& folder)
{
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        return Error{folder, "encyclopedia folder not found", "reinstall Rankline or set RANKLINE_RESOURCES"};
    std::vector<fs::path> files;
    for (const auto& de : fs::directory_iterator(folder, ec))
        if (de.path().extension() == ".json")
            files.push_back(de.path());
    std::sort(files.begin(), files.end());
    Encyclopedia enc;
    for (const auto& f : files) {
        std::ifstream in(f);
        std::stringstream ss;
        ss << in.rdbuf();
        auto e = parseEntry(ss.str(), f.string());
        if (!e)
            return e.error();
        if (e->id != f.stem().string())
            return Error{f.string(), "entry id '" + e->id + "' differs from its file name",
                         "name the file <id>.json"};
        enc.entries.push_back(std::move(*e));
    }
    if (enc.entries.empty())
        return Error{folder, "no encyclopedia entries found", "the folder should hold <id>.json files"};
    for (const auto& e : enc.entries) {
        for (const auto& r : e.related)
            if (!enc.find(r))
                return Error{folder + "/" + e.id + ".json", "related id '" + r + "' does not exist",
                             "fix or remove the related id"};
        for (const auto& r : e.undatedConsequences)
            if (!enc.find(r) || r == e.id)
                return Error{folder + "/" + e.id + ".json",
                             "undated_consequences id '" + r + "' does not name another entry",
                             "fix or remove the id"};
        for (const auto& r : e.refines) {
            if (!enc.find(r) || r == e.id)
                return Error{folder + "/" + e.id + ".json",
                             "refines id '" + r + "' does not name another entry", "fix or remove the id"};
            if (const Entry* other = enc.find(r);
                std::find(other->refines.begin(), other->refines.end(), e.id) != other->refines.end())
                return Error{folder + "/" + e.id + ".json",
                             "'" + e.id + "' and '" + r + "' refine each other",
                             "only the more specific entry says that it refines the other"};
        }
    }
    return enc;
}

} // namespace rl
