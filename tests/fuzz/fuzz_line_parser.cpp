// Fuzz target: parseLine over every line of the input (and its NCCL message's Channel and proxy
// ranks), and the path identity of each line taken as a file name; then the input's lines as a
// torchelastic box record. Checks that every view the parser returns lies inside the line it was
// given, and that a record lies inside its lines.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "identity/path_identity.h"
#include "parse/line_parser.h"

namespace
{

void inside(std::string_view part, std::string_view whole)
{
    if (part.empty())
        return;
    if (part.data() < whole.data() || part.data() + part.size() > whole.data() + whole.size())
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string_view all(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> bodies;
    while (!all.empty()) {
        std::size_t nl = all.find('\n');
        std::string_view line = all.substr(0, nl);
        all = nl == std::string_view::npos ? std::string_view{} : all.substr(nl + 1);

        rl::ParsedLine p = rl::parseLine(line, 2025);
        inside(p.text, line);
        inside(p.body, line);
        inside(p.decorationHost, line);
        if (p.nccl) {
            inside(p.nccl->host, line);
            // A host is a name: bounded, and without the control characters of a NUL block.
            if (p.nccl->host.size() > 253)
                std::abort();
            for (char c : p.nccl->host)
                if (static_cast<unsigned char>(c) < 0x20)
                    std::abort();
            inside(p.nccl->file, line);
            inside(p.nccl->function, line);
            inside(p.nccl->message, line);
            // The message's own readings: a rank is a number the line printed, never negative
            // but for "none".
            if (rl::channelLineRank(p.nccl->message) < -1 || rl::proxyServiceRank(p.nccl->message) < -1)
                std::abort();
        }
        if (p.trail)
            inside(p.trail->file, line);
        rl::identityFromPath(std::string(line));
        bodies.push_back(p.body);
    }
    // A record at each header, as the scan reads one.
    for (std::size_t h = 0; h < bodies.size(); ++h) {
        if (!rl::elasticRecordHeader(bodies[h]))
            continue;
        const std::span<const std::string_view> from(bodies.data() + h, bodies.size() - h);
        const auto r = rl::elasticRecordAt(from, 2025);
        if (!r)
            continue;
        if (r->lineCount == 0 || r->lineCount > from.size() || r->tracebackAt == 0 ||
            r->tracebackAt >= r->lineCount)
            std::abort();
        bool in = false;
        for (std::uint32_t i = 0; i < r->lineCount; ++i)
            in = in || (r->host.data() >= from[i].data() &&
                        r->host.data() + r->host.size() <= from[i].data() + from[i].size());
        if (!in || r->rank < 0)
            std::abort();
    }
    return 0;
}
