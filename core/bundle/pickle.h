#pragma once
// A reader of Python pickles that hold plain data: dicts, lists, tuples, sets, strings, bytes,
// numbers, booleans and None. That is what PyTorch's Flight Recorder writes (through the C++
// pickler of torch.jit, protocol 2) and what Python's own pickle module writes for such data
// (protocols 0 to 5). Nothing is ever executed: a global names no code to run. The few globals
// torch.jit uses to rebuild a typed list (torch.jit._pickle.build_intlist and its kin, and
// restore_type_tag) give back their argument, every other call gives null, so a dump holding an
// object the reader does not know still reads, with null where that object was.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "util/expected.h"

namespace rl
{

struct PickleLimits {
    // Values the pickle may build, counted through every copy a memo reference makes: a few bytes
    // of references can otherwise nest a list in itself into billions of values.
    std::uint64_t maxValues = std::uint64_t{64} << 20;
    std::uint32_t maxDepth = 512; // open MARKs and nested containers
};

// The value the pickle builds, as JSON (a tuple or set reads as an array, bytes as a string of
// those bytes, a dict key that is not a string by its JSON text). `file` names the input in errors.
Expected<nlohmann::json> readPickle(std::string_view bytes, const std::string& file = {},
                                    const PickleLimits& limits = {});

} // namespace rl
