// Fuzz target: readFlightDump on the input, as the analysis gives it a file whose first bytes look
// like a Flight Recorder dump (a pickle, or the JSON form). Whatever the bytes, it answers with a
// dump or an error that names the file, within the pickle reader's caps; a dump's views of its
// groups keep at most kKeptOps operations each.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "flight/flight_recorder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto d = rl::readFlightDump(bytes, "nccl_trace_rank_7");
    if (!d) {
        if (d.error().file != "nccl_trace_rank_7" || d.error().cause.empty())
            std::abort();
        return 0;
    }
    if (d->rank != 7)
        std::abort();
    for (const auto& g : d->groups)
        if (g.ops.size() > rl::FlightGroupView::kKeptOps)
            std::abort();
    std::vector<rl::FlightDump> two{*d, *d};
    two[1].rank = 8;
    (void)rl::flightSentence(rl::summarizeFlight(std::move(two)));
    return 0;
}
