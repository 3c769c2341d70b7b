#pragma once
// Runs every fingerprint over a source the way rg does: one pass of a multi-literal matcher over
// the whole buffer finds candidate lines, and only those lines meet the full regexes. The pass is
// Hyperscan's literal matcher where the build has it (several GB/s); otherwise RE2's DFA over the
// literal alternation, which gives the same candidates at a quarter of the speed.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <re2/re2.h>
#include <re2/set.h>
#include <string>
#include <vector>

#include "bundle/bundle.h"
#include "encyclopedia/encyclopedia.h"
#include "engine/captures.h"

namespace rl
{

// Lines the pipeline itself needs (identity, versions), found by the same scanner.
enum class Builtin {
    None,
    NcclVersion,
    InitLine,
    InitPhase,
    BootstrapAddress,
    SocketAddress,
    TorchRank,
    Traceback,
    Exception,
    // Environment evidence (identity/environment_scan.h): versions, settings, interfaces.
    CudaDriver,
    NcclSetting,
    TorchVersion,
    TorchCuda,
    IbOob,
    // The NVIDIA driver's kernel lines that name a GPU by its bus (identity: whose GPU it is).
    NvrmGpu,
    // NCCL 2.20.3+: "comm %p rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL %d" once
    // per communicator (identity: local rank; coverage: the job's nodes).
    NodesLine,
    // nccl-tests' "# Using devices" listing, a line per rank: "#  Rank  2 Group  0 Pid  41007 on
    // node-a device  2 [0x52] NVIDIA A100" (identity: each GPU's rank, by host and pid).
    NcclTestsDevice
};

struct ScanPattern {
    int entry = -1;
    int symptom = -1;
    Builtin builtin = Builtin::None;
    Fingerprint fingerprint;
    bool wantCaptures = true; // false for context lines, which only need to be found
    bool progress = false;    // has a "seq" capture: every line counts (collective progress)
    // A context line that is no symptom of its own (an interface announcement an entry watches):
    // an event only when it is WARN or worse.
    bool contextOnly = false;

    // Whether each hit becomes an event whatever its line's level (a symptom, a traceback, an
    // exception); context lines do only on WARN lines, which are events anyway.
    bool eventAtAnyLevel() const
    {
        return (builtin == Builtin::None && !contextOnly) || builtin == Builtin::Traceback ||
               builtin == Builtin::Exception;
    }
};

struct ScanHit {
    std::uint32_t line = 0;
    int pattern = 0;
    Captures captures;
};

// How the candidate lines were found, for tests and `--timings`.
enum class PrefilterKind { Hyperscan, Re2 };

class Scanner
{
public:
    // `prefilter` asks for one kind; Hyperscan falls back to RE2 where the build or the CPU lacks
    // it (see prefilterKind()).
    explicit Scanner(const Encyclopedia& encyclopedia, PrefilterKind prefilter = PrefilterKind::Hyperscan);
    ~Scanner();
    Scanner(const Scanner&) = delete;
    Scanner& operator=(const Scanner&) = delete;

    const std::vector<ScanPattern>& patterns() const { return m_patterns; }
    PrefilterKind prefilterKind() const { return m_kind; }
    // Every (line, pattern) match in `source`, in line order. Thread-safe.
    std::vector<ScanHit> scan(const Source& source) const;
    // The same, with a say before each regex runs: `want(pattern, line)` false skips that pattern
    // on that line without matching it (callers cap repeats cheaply); hits go to `take` in line
    // order, patterns ascending within a line.
    void scan(const Source& source, const std::function<bool(int pattern, std::uint32_t line)>& want,
              const std::function<void(ScanHit&&)>& take) const;
    // Lines [first, last) of `source` only (a piece of a large file; line numbers stay the
    // source's). The pieces of a source give together what the whole scan gives.
    void scan(const Source& source, std::uint32_t first, std::uint32_t last,
              const std::function<bool(int pattern, std::uint32_t line)>& want,
              const std::function<void(ScanHit&&)>& take) const;
    // The full-regex test for one line (used for pasted snippets and tests).
    void matchLine(std::string_view line, std::uint32_t index, std::vector<ScanHit>& out) const;
    // One pattern on one line; false when it does not match.
    bool matchPattern(int pattern, std::string_view line, std::uint32_t index, ScanHit& hit) const;
    // Whether the Init line and init phase patterns are matched by hand and patterns that start
    // with a literal from where it occurs (the default), or every pattern by a search of the
    // whole line with its regex, which tests compare them with.
    void setHandMatched(bool on) { m_handMatched = on; }
    // The literals, for exporting an equivalent `rg -f` pattern file.
    const std::vector<std::string>& literals() const { return m_literals; }
    // Gives back what only matching needs (the literal automaton, the RE2 prefilter, the patterns'
    // compiled regexes and caches) once no more text will be scanned: the patterns' descriptions
    // stay. A scan after this finds nothing.
    void releaseMatchers();

private:
    // A literal found on a line; `offset` is where, for matching huge lines around it.
    struct LiteralAt {
        std::uint32_t line;
        std::uint32_t literal;
        std::uint64_t offset;
    };
    // Bytes [begin, end) of the source's text, which start and end at line boundaries.
    std::vector<LiteralAt> findLiterals(const Source& source, std::uint64_t begin, std::uint64_t end) const;
    std::vector<LiteralAt> findLiteralsRe2(const Source& source, std::uint64_t begin,
                                           std::uint64_t end) const;
    std::vector<LiteralAt> findLiteralsHyperscan(const Source& source, std::uint64_t begin,
                                                 std::uint64_t end) const;
    struct Hyperscan;

    PrefilterKind m_kind = PrefilterKind::Re2;
    bool m_handMatched = true;
    bool m_released = false; // releaseMatchers was called: nothing is matched any more
    std::vector<ScanPattern> m_patterns;
    std::vector<std::string> m_literals;
    std::vector<bool> m_literalAfterDigit; // see Fingerprint::literalAfterDigit
    std::vector<std::vector<int>> m_patternsByLiteral;
    std::vector<int> m_sameRegex;   // per pattern: the first pattern with the same regex
    std::vector<bool> m_hasTwin;    // another pattern has the same regex
    void buildRe2Prefilter() const; // m_prefilter and m_literalSet, once
    std::string m_alternation;      // the literals as one RE2 alternation
    mutable std::once_flag m_re2Once;
    mutable std::unique_ptr<re2::RE2> m_prefilter;
    // The same literals as a set: on a candidate line, one pass says which literals occur.
    mutable std::unique_ptr<re2::RE2::Set> m_literalSet;
    std::unique_ptr<Hyperscan> m_hs;
};

} // namespace rl
