#include "engine/scanner.h"

#include <algorithm>
#include <array>
#include <re2/re2.h>
#include <stdexcept>

namespace rl
{

namespace
{

struct BuiltinDef {
    Builtin kind;
    const char* pattern;
};

// Version from NCCL's own line (bare on rank 0 up to 2.21, INFO from 2.22) or from PyTorch's
// exception text ("..., NCCL version 2.18.3").
const BuiltinDef kBuiltins[] = {
    {Builtin::NcclVersion, R"(NCCL version (?P<version>\d+\.\d+\.\d+))"},
    {Builtin::InitLine,
     R"(comm (?P<comm>0x[0-9a-fA-F]+|\(nil\)) rank (?P<rank>\d+) nranks (?P<nranks>\d+) cudaDev (?P<dev>-?\d+))"},
    {Builtin::InitPhase, R"(commId (?P<commid>0x[0-9a-fA-F]+) ?- Init (?P<phase>START|COMPLETE))"},
    {Builtin::BootstrapAddress, R"(Bootstrap ?: Using (?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>)"},
    {Builtin::SocketAddress, R"(NET/Socket : Using \[\d+\](?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>)"},
    {Builtin::TorchRank, R"(\] \[Rank (?P<rank>\d+)\] )"},
    {Builtin::Traceback, R"(Traceback \(most recent call last\):)"},
    {Builtin::Exception, R"((?:^|\s)(?P<exc>[A-Za-z_][\w.]*)Error: )"},
    // NCCL's "cudaDriverVersion 12020" (the driver's CUDA version, nccl-log-formats §4.1).
    {Builtin::CudaDriver, R"(cudaDriverVersion (?P<code>\d+))"},
    // "NCCL_SOCKET_IFNAME set by environment to eth0", "... set to eth0", and NAME=value as jobs
    // print their environment; every setting on the line is read by identity/environment.
    {Builtin::NcclSetting, R"(NCCL_[A-Z0-9_]+(?: set (?:by environment )?to |=))"},
    // "torch 2.1.0a0+29c30b1", "PyTorch version: 2.1.0+cu121", "torch==2.3.1".
    {Builtin::TorchVersion,
     R"(\b(?:Py)?[Tt]orch(?: [Vv]ersion)?(?:==|: ?| v?)(?P<torch>\d+\.\d+(?:\.\d+)?[a-z0-9.+]*))"},
    {Builtin::TorchCuda, R"(CUDA used to build PyTorch: (?P<cuda>\d+\.\d+))"},
    {Builtin::IbOob, R"(NET/IB : Using .*; OOB (?P<if>[^\s:]+):(?P<ip>[^\s<]+)<\d+>)"},
};

} // namespace

Scanner::Scanner(const Encyclopedia& encyclopedia)
{
    for (const auto& b : kBuiltins) {
        auto fp = compileFingerprint(b.pattern);
        if (!fp)
            throw std::logic_error("built-in pattern does not compile: " + fp.error().cause);
        m_patterns.push_back({-1, -1, b.kind, std::move(*fp), true});
    }
    for (std::size_t e = 0; e < encyclopedia.entries.size(); ++e) {
        const Entry& entry = encyclopedia.entries[e];
        for (std::size_t s = 0; s < entry.symptoms.size(); ++s) {
            const Symptom& sym = entry.symptoms[s];
            const bool captures = sym.primary || sym.phase != Phase::Context || sym.progress;
            for (const auto& fp : sym.fingerprints)
                m_patterns.push_back({static_cast<int>(e), static_cast<int>(s), Builtin::None, fp, captures});
        }
    }
    std::string alternation;
    for (std::size_t p = 0; p < m_patterns.size(); ++p) {
        for (const auto& lit : m_patterns[p].fingerprint.literals) {
            auto it = std::find(m_literals.begin(), m_literals.end(), lit);
            std::size_t index = static_cast<std::size_t>(it - m_literals.begin());
            if (it == m_literals.end()) {
                m_literals.push_back(lit);
                m_patternsByLiteral.emplace_back();
                if (!alternation.empty())
                    alternation += '|';
                alternation += RE2::QuoteMeta(lit);
            }
            auto& list = m_patternsByLiteral[index];
            if (std::find(list.begin(), list.end(), static_cast<int>(p)) == list.end())
                list.push_back(static_cast<int>(p));
        }
    }
    RE2::Options opts;
    opts.set_log_errors(false);
    opts.set_max_mem(std::int64_t{64} << 20);
    m_prefilter = std::make_unique<RE2>("(" + alternation + ")", opts);
    if (!m_prefilter->ok())
        throw std::logic_error("prefilter does not compile: " + m_prefilter->error());
    m_literalSet = std::make_unique<RE2::Set>(opts, RE2::UNANCHORED);
    for (const auto& lit : m_literals)
        if (m_literalSet->Add(RE2::QuoteMeta(lit), nullptr) < 0)
            throw std::logic_error("literal does not compile: " + lit);
    if (!m_literalSet->Compile())
        throw std::logic_error("literal set does not compile");
}

Scanner::~Scanner() = default;

void Scanner::matchLine(std::string_view line, std::uint32_t index, std::vector<ScanHit>& out) const
{
    std::vector<int> tried;
    std::vector<int> present;
    if (!m_literalSet->Match(re2::StringPiece(line.data(), line.size()), &present))
        return;
    std::sort(present.begin(), present.end());
    for (int li : present) {
        const auto l = static_cast<std::size_t>(li);
        for (int p : m_patternsByLiteral[l]) {
            if (std::find(tried.begin(), tried.end(), p) != tried.end())
                continue;
            tried.push_back(p);
            const ScanPattern& sp = m_patterns[static_cast<std::size_t>(p)];
            const RE2& re = *sp.fingerprint.regex;
            const re2::StringPiece text(line.data(), line.size());
            if (!sp.wantCaptures) {
                // Context lines only need to be found: the DFA alone answers, with no submatches.
                if (!re.Match(text, 0, line.size(), RE2::UNANCHORED, nullptr, 0))
                    continue;
                out.push_back({index, p, {}});
                continue;
            }
            int groups = re.NumberOfCapturingGroups();
            std::array<re2::StringPiece, 24> fixed;
            std::vector<re2::StringPiece> dynamic;
            re2::StringPiece* sub = fixed.data();
            if (groups + 1 > static_cast<int>(fixed.size())) {
                dynamic.resize(static_cast<std::size_t>(groups) + 1);
                sub = dynamic.data();
            }
            if (!re.Match(text, 0, line.size(), RE2::UNANCHORED, sub, groups + 1))
                continue;
            ScanHit hit;
            hit.line = index;
            hit.pattern = p;
            for (const auto& [name, i] : re.NamedCapturingGroups()) {
                const auto& piece = sub[static_cast<std::size_t>(i)];
                if (piece.data())
                    hit.captures.emplace_back(name, std::string(piece.data(), piece.size()));
            }
            out.push_back(std::move(hit));
        }
    }
}

std::vector<ScanHit> Scanner::scan(const Source& source) const
{
    std::vector<ScanHit> hits;
    std::string_view text = source.text();
    re2::StringPiece input(text.data(), text.size());
    const auto& starts = source.lineStarts;
    while (!input.empty()) {
        re2::StringPiece found;
        if (!m_prefilter->Match(input, 0, input.size(), RE2::UNANCHORED, &found, 1))
            break;
        auto offset = static_cast<std::uint64_t>(found.data() - text.data());
        auto lineIndex = static_cast<std::uint32_t>(starts.lineOf(offset));
        std::string_view line = source.line(lineIndex);
        // A huge line (a progress bar that never printed a line break) is matched around the
        // candidate only: one pass over a gigabyte line, not one per literal and pattern.
        constexpr std::size_t kWindow = 64 * 1024;
        if (line.size() > 2 * kWindow) {
            const auto at = static_cast<std::size_t>(offset - starts[lineIndex]);
            line = line.substr(at > kWindow ? at - kWindow : 0, 2 * kWindow);
        }
        matchLine(line, lineIndex, hits);
        // Resume at the next line: one candidate per line is enough.
        std::uint64_t next = lineIndex + 1 < starts.size() ? starts[lineIndex + 1] : text.size();
        input = re2::StringPiece(text.data() + next, text.size() - next);
    }
    return hits;
}

} // namespace rl
