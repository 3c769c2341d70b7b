#pragma once
// Reordering a large array of large records in place: each record is moved once, along the cycles
// of the order, with no second array (a second array of ten thousand processes or fifty thousand
// events is megabytes of fresh memory, and on virtual machines every first touch of a page costs).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rl
{

// Afterwards, items[j] is what items[order[j]] was, for every j. `order` must be a permutation of
// [0, items.size()); it is used up (every entry then names its own position).
template <class T> void permuteInPlace(std::vector<T>& items, std::vector<std::uint32_t>& order)
{
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (order[i] == i)
            continue;
        T held = std::move(items[i]);
        std::size_t j = i;
        while (true) {
            const std::size_t from = order[j];
            order[j] = static_cast<std::uint32_t>(j);
            if (from == i) {
                items[j] = std::move(held);
                break;
            }
            items[j] = std::move(items[from]);
            j = from;
        }
    }
}

} // namespace rl
