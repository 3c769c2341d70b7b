#pragma once
// Runs every fingerprint over a source the way rg does: one pass of a literal alternation over the
// whole buffer finds candidate lines, and only those lines meet the full regexes.

#include <memory>
#include <re2/re2.h>
#include <re2/set.h>
#include <string>
#include <vector>

#include "bundle/bundle.h"
#include "encyclopedia/encyclopedia.h"

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
    IbOob
};

struct ScanPattern {
    int entry = -1;
    int symptom = -1;
    Builtin builtin = Builtin::None;
    Fingerprint fingerprint;
    bool wantCaptures = true; // false for context lines, which only need to be found
};

struct ScanHit {
    std::uint32_t line = 0;
    int pattern = 0;
    std::vector<std::pair<std::string, std::string>> captures;
};

class Scanner
{
public:
    explicit Scanner(const Encyclopedia& encyclopedia);
    ~Scanner();
    Scanner(const Scanner&) = delete;
    Scanner& operator=(const Scanner&) = delete;

    const std::vector<ScanPattern>& patterns() const { return m_patterns; }
    // Every (line, pattern) match in `source`, in line order. Thread-safe (RE2 is).
    std::vector<ScanHit> scan(const Source& source) const;
    // The full-regex test for one line (used for pasted snippets and tests).
    void matchLine(std::string_view line, std::uint32_t index, std::vector<ScanHit>& out) const;
    // The literals, for exporting an equivalent `rg -f` pattern file.
    const std::vector<std::string>& literals() const { return m_literals; }

private:
    std::vector<ScanPattern> m_patterns;
    std::vector<std::string> m_literals;
    std::vector<std::vector<int>> m_patternsByLiteral;
    std::unique_ptr<re2::RE2> m_prefilter;
    // The same literals as a set: on a candidate line, one pass says which literals occur.
    std::unique_ptr<re2::RE2::Set> m_literalSet;
};

} // namespace rl
