#pragma once
// Ranks listed compactly for people: "0–3, 5, 7" (runs of three or more folded, pairs kept).

#include <algorithm>
#include <string>
#include <vector>

namespace rl
{

inline std::string rankRuns(std::vector<int> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::string s;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (!s.empty())
            s += ", ";
        s += std::to_string(ranks[i]);
        if (j > i)
            s += (j == i + 1 ? ", " : "–") + std::to_string(ranks[j]);
        i = j + 1;
    }
    return s;
}

} // namespace rl
