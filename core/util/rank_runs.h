#pragma once
// Ranks listed compactly for people: "0–3, 5, 7" (runs of three or more folded, pairs kept).

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rl
{

// At most `maxRuns` runs, the ranks of the rest counted: "0–3, 5 and 12 more".
inline std::string rankRuns(std::vector<int> ranks, std::size_t maxRuns = SIZE_MAX)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::string s;
    std::size_t runs = 0, rest = 0;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (runs < maxRuns) {
            if (!s.empty())
                s += ", ";
            s += std::to_string(ranks[i]);
            if (j > i)
                s += (j == i + 1 ? ", " : "–") + std::to_string(ranks[j]);
            ++runs;
        } else {
            rest += j - i + 1;
        }
        i = j + 1;
    }
    if (rest)
        s += " and " + std::to_string(rest) + " more";
    return s;
}

} // namespace rl
