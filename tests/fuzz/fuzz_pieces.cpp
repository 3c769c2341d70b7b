// Fuzz target: a source cut into pieces (AnalyzeOptions::pieceBytes) must be diagnosed exactly as
// the whole source is. Large files are scanned piece by piece on every core and joined afterwards
// (analysis.cpp: lineStartAfter, joinPiece, mergePieces); tst_pieces checks that on the fixtures
// and the real logs, this on whatever the fuzzer makes of them. The first byte picks the piece
// size (16 to 526 bytes, so that a small input is cut many times), the first line after it names
// the file (as in fuzz_demux), the rest is its text. One thread: a difference found has to replay.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "analysis.h"
#include "report/diagnosis_report.h"
#include "shipped.h"

namespace
{

std::string diagnose(const std::string& name, const std::string& text, std::uint64_t pieceBytes)
{
    rl::Bundle bundle;
    bundle.sources.push_back(rl::sourceFromText(name, text));
    rl::AnalyzeOptions options;
    options.probeLocalNccl = false;
    options.mergedOrder = false;
    options.threads = 1;
    options.pieceBytes = pieceBytes;
    auto analysis = rl::analyze(std::move(bundle), rl::fuzz::shippedEncyclopedia(), options);
    if (!analysis)
        std::abort();
    return rl::diagnosisJson(*analysis, 1, 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const std::uint64_t pieceBytes = 16 + std::uint64_t{data[0]} * 2;
    std::string all(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::size_t nl = all.find('\n');
    std::string name =
        nl == std::string::npos ? std::string("rank0.log") : all.substr(0, std::min<std::size_t>(nl, 200));
    const std::string text = nl == std::string::npos ? all : all.substr(nl + 1);
    if (name.empty())
        name = "log.txt";
    // Too short to be cut (a source is cut from twice the piece size on): nothing to compare.
    if (text.size() < 2 * pieceBytes)
        return 0;
    const std::string whole = diagnose(name, text, std::uint64_t{1} << 40);
    const std::string pieces = diagnose(name, text, pieceBytes);
    if (whole != pieces) {
        std::fprintf(stderr, "pieces of %llu bytes diagnose %s differently from the whole source\n",
                     static_cast<unsigned long long>(pieceBytes), name.c_str());
        std::abort();
    }
    return 0;
}
