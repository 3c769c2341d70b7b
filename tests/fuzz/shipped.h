#pragma once
// The encyclopedia that ships in resources/, loaded once per fuzz target that runs the pipeline
// (demux, pieces). A fuzz run without it would test nothing: it aborts instead.

#include <cstdlib>
#include <memory>
#include <string>

#include "encyclopedia/encyclopedia.h"

namespace rl::fuzz
{

inline std::shared_ptr<const Encyclopedia> shippedEncyclopedia()
{
    static const auto enc = [] {
        auto e = loadEncyclopedia(std::string(RANKLINE_RESOURCES_DIR) + "/encyclopedia");
        if (!e)
            std::abort();
        return std::make_shared<const Encyclopedia>(std::move(*e));
    }();
    return enc;
}

} // namespace rl::fuzz
