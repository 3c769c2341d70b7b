// Fuzz target: the whole pipeline over one in-memory source, which is where interleaved launcher
// prefixes ([rankN]:, srun "N: ", mpirun [1,N], Ray, pdsh, journald) are split into processes. The
// first line names the file, so path identity (rank3.log, node-07/gpu2.log, torchrun trees) joins in.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "analysis.h"
#include "shipped.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string all(reinterpret_cast<const char*>(data), size);
    std::size_t nl = all.find('\n');
    std::string name =
        nl == std::string::npos ? std::string("rank0.log") : all.substr(0, std::min<std::size_t>(nl, 200));
    std::string text = nl == std::string::npos ? all : all.substr(nl + 1);
    if (name.empty())
        name = "log.txt";

    rl::Bundle bundle;
    bundle.sources.push_back(rl::sourceFromText(name, std::move(text)));
    rl::AnalyzeOptions options;
    options.probeLocalNccl = false;
    options.threads = 1;
    auto analysis = rl::analyze(std::move(bundle), rl::fuzz::shippedEncyclopedia(), options);
    if (!analysis)
        std::abort();
    return 0;
}
