#pragma once
// The encyclopedia: failure entries as JSON data, each carrying its own worked examples. Loading
// compiles every fingerprint and checks it against every sample, so a bad entry fails at once
// with the entry, the pattern and the sample named.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"
#include "util/version.h"

namespace re2
{
class RE2;
}

namespace rl
{

struct Fingerprint {
    std::string pattern;
    std::shared_ptr<const re2::RE2> regex;
    // Literal text that every match contains (one per top-level alternative): the cheap prefilter
    // that keeps adding entries from slowing ingestion.
    std::vector<std::string> literals;
    // Per literal: the pattern requires a digit right before it (it follows `\d` or `\d+`).
    std::vector<bool> literalAfterDigit;
    // Text every match starts with (leadingLiteral), or "": the scanner matches the pattern only
    // from where that text occurs.
    std::string lead;
    // Text every match contains (requiredLiterals), less what the lead already shows: the scanner
    // runs the regex only on a line that holds one text of each set.
    std::vector<std::vector<std::string>> required;
};

// Text that every match of `pattern` (RE2 syntax) starts with, or "" where that is not plain from
// the pattern: read up to the first character that is not a literal one (a class, a group, an
// escape such as \d or \b, a non-ASCII byte), less the last one when a quantifier follows it, and
// nothing when an alternation reaches the top level. Deliberately simple: "" only means "search the
// whole line".
std::string leadingLiteral(std::string_view pattern);

// Literal text that every match of `pattern` (RE2 syntax) contains, as sets of which the line must
// hold one text each: each run of literal characters outside groups, and for a group that must
// match, the longest run of each of its alternatives (one of them is in every match). Only for a
// pattern without a top-level alternation, and nothing for one that sets flags ("(?i)") or quotes
// (\Q...\E): a condition every matching line meets, never more, so where the pattern is not plain
// it says less. Runs shorter than two characters are left out, and so is a group with an alternative
// that has none (nearly every line holds such text).
std::vector<std::vector<std::string>> requiredLiterals(std::string_view pattern);

// Compiles `pattern` and extracts its prefilter literals; an error names the problem.
Expected<Fingerprint> compileFingerprint(const std::string& pattern);

// Connect: a connect-phase failure; Failure: any other failure that can start a cascade; Trail: a
// line that follows a failure in the same process; Collateral: another process's report of it.
enum class Phase { Connect, Failure, Trail, Collateral, Context };

struct Symptom {
    std::string id;
    std::string signal;
    std::string why;
    Phase phase = Phase::Context;
    bool primary = false;
    // A '-> N' return-code line that stands in for a primary symptom where the logs hold no error
    // text at all (releases that fail silently): when no primary symptom of an entry that can
    // initiate matched in the bundle, such a line that opens its thread's trail makes the entry a
    // candidate. The loader checks that every sample is such a trail line.
    bool fallback = false;
    // The line reports which collective (SeqNum, captured as `seq`) the reporting rank reached.
    bool progress = false;
    // A framework's or test's report of the failure's error class ("unhandled cuda error"), which
    // names no cause: with no finding in the bundle, it still says which entry to read and what
    // would show the cause.
    bool surface = false;
    // What would decide, where this symptom's lines alone make a suggestion (the bundle has no
    // finding): empty for the engine's own words, which suit NCCL's error classes and connects.
    std::string wouldDecide;
    std::string label;
    std::vector<Fingerprint> fingerprints;
    std::vector<std::string> samples;
};

struct Evaluator {
    enum class Kind {
        SignalPresent,
        SignalAbsent,
        VersionInRange,
        ConnectFailedFast,
        CollateralPointsAtInitiator,
        SignalOnRanks, // a symptom seen on at least `minRanks` distinct processes (cross-rank condition)
    };
    Kind kind = Kind::SignalPresent;
    std::string symptom;
    // SignalOnRanks: processes that show any of these count (the entry's forms of one failure,
    // e.g. the WARN of newer releases and the trace of older ones); `symptom` is the first.
    std::vector<std::string> symptoms;
    std::string component;
    VersionRange range;
    double maxSeconds = 0;
    int minRanks = 2;
};

struct ConfirmItem {
    std::string id;
    std::string text;
    std::string why;
    std::string ifUnknown;
    Evaluator evaluator;
};

// A bug of some releases inside a range that is otherwise behaviour (no fix): the same failure
// printed for a reason an upgrade removes ('invalid argument' at transport.cc:154 on NCCL 2.18.1 to
// 2.18.5). It applies where its symptom matched on the finding's processes.
struct KnownBug {
    VersionRange range;
    Version fixedIn;
    std::string symptom; // a symptom id of the same entry
    std::string what;    // the bug in a few words, to open a sentence ("A foreign connection ...")
    std::string ifFixed; // where the job ran a release with the fix; empty: the generic sentence
};

struct AffectedVersions {
    std::string component;
    VersionRange range;
    std::optional<Version> fixedIn;
    std::string note;
    std::string ifFixed; // as KnownBug::ifFixed, for a range with a fix
    std::vector<KnownBug> bugs;
};

struct Reference {
    std::string title;
    std::string url;
};

struct Example {
    std::string stack;
    std::string snippet;
    std::string why;
};

struct Faq {
    std::string q;
    std::string a;
};

struct Entry {
    std::string id;
    std::string title;
    std::string category;
    std::vector<std::string> tags;
    std::string quickAnswer;
    // One sentence for a finding, with {placeholders}: {process}, {host}, {rank}, {target},
    // {connect_verdict}, {count}, and any named capture of the entry's fingerprints.
    std::string summary;
    // What a capture's values mean, for the summary's {meaning:<capture>} (an InfiniBand completion's
    // status 12 is "IBV_WC_RETRY_EXC_ERR, ..."): capture -> value -> text.
    std::map<std::string, std::map<std::string, std::string>> meanings;
    // Said on the "earliest-connect-failure" evidence when that line is the finding's own anchor.
    std::string earliestNote;
    std::string mechanism;
    std::vector<std::string> observations;
    std::vector<Symptom> symptoms;
    std::vector<std::string> affectedComponents;
    std::vector<AffectedVersions> affectedVersions;
    std::string affectedSystems;
    std::vector<ConfirmItem> confirm;
    std::string rootCause;
    std::vector<std::string> fixSteps;
    std::string verify;
    std::vector<std::string> prevention;
    bool canInitiate = false;
    std::string usualRole;
    std::vector<Example> examples;
    std::vector<Faq> faq;
    std::vector<std::string> related;
    // Entries this one is a special case of: where both make a finding on the same line, this one
    // explains it (an NVLS call's CUDA failure is a CUDA failure inside NCCL, with a known cause).
    std::vector<std::string> refines;
    // Entries whose failures follow this one's where nothing dates the lines: processes that print
    // at once interleave, so a crash report can stand in a file before the failure that caused it
    // (NVSHMEM's transport failure, then the segfaults of the processes it left half set up).
    std::vector<std::string> undatedConsequences;
    std::vector<Reference> references;

    const Symptom* symptom(const std::string& symptomId) const;
    // The version range for `component` ("nccl"), if the entry declares one.
    const AffectedVersions* affected(const std::string& component) const;
};

// A summary placeholder's name, without its "|default": "{process}" or a capture's "{name}"
// (Plain), "{all:<capture>}", "{quoted:<capture>}", "{meaning:<capture>}", "{pci:<capture>}". The
// loader checks them, the engine fills them, the scanner keeps the captures they read; all read the
// form here.
struct Placeholder {
    enum class Form { Plain, All, Quoted, Meaning, Pci };
    Form form = Form::Plain;
    std::string_view name; // the capture, for the forms that name one; else the whole name
};
Placeholder placeholderOf(std::string_view name);
// Each "{...}" of a summary, in order, as the name placeholderOf reads (without "|default"; empty
// where a "{" is never closed).
std::vector<std::string_view> summaryPlaceholders(std::string_view summary);

struct Encyclopedia {
    std::vector<Entry> entries;
    const Entry* find(const std::string& id) const;
    // Lets go of the fingerprints' compiled regexes (Fingerprint::regex becomes null), for a caller
    // whose scanner already holds them and that matches nothing else with this encyclopedia
    // (`rankline diagnose`): the scanner's releaseMatchers() then frees them before the stages after
    // the scan (1.1 MiB of peak RSS on ten thousand small files). A Scanner made from it afterwards
    // compiles them again.
    void releaseCompiledFingerprints();
};

// Parses one entry; `origin` names it in errors.
Expected<Entry> parseEntry(const std::string& jsonText, const std::string& origin);
// Loads every *.json in `folder`, checks samples and `related` ids.
Expected<Encyclopedia> loadEncyclopedia(const std::string& folder);

} // namespace rl
