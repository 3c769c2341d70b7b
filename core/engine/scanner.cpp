#include "engine/scanner.h"

#include <algorithm>
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
};

} // namespace

Scanner::Scanner(const Encyclopedia& encyclopedia)
{
    for (const auto& b : kBuiltins) {
        auto fp = compileFingerprint(b.pattern);
        if (!fp)
            throw std::logic_error("built-in pattern does not compile: " + fp.error().cause);
        m_patterns.push_back({-1, -1, b.kind, std::move(*fp)});
    }
    for (std::size_t e = 0; e < encyclopedia.entries.size(); ++e) {
        const Entry& entry = encyclopedia.entries[e];
        for (std::size_t s = 0; s < entry.symptoms.size(); ++s)
            for (const auto& fp : entry.symptoms[s].fingerprints)
                m_patterns.push_back({static_cast<int>(e), static_cast<int>(s), Builtin::None, fp});
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
}

Scanner::~Scanner() = default;

void Scanner::matchLine(std::string_view line, std::uint32_t index, std::vector<ScanHit>& out) const
{
    std::vector<int> tried;
    for (std::size_t l = 0; l < m_literals.size(); ++l) {
        if (line.find(m_literals[l]) == std::string_view::npos)
            continue;
        for (int p : m_patternsByLiteral[l]) {
            if (std::find(tried.begin(), tried.end(), p) != tried.end())
                continue;
            tried.push_back(p);
            const RE2& re = *m_patterns[static_cast<std::size_t>(p)].fingerprint.regex;
            int groups = re.NumberOfCapturingGroups();
            std::vector<re2::StringPiece> sub(static_cast<std::size_t>(groups) + 1);
            if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED,
                          sub.data(), groups + 1))
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
