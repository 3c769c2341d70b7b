#pragma once
// Small helpers for the std::vectors that hold a bundle's per-line facts.

namespace rl
{

// Gives back a vector's growth slack beyond an eighth: shrinking copies the vector, which for a
// large source costs more (for a moment, twice its size) than a little slack saves.
template <class V> void shrinkSlack(V& v)
{
    if (v.capacity() - v.size() > v.size() / 8)
        v.shrink_to_fit();
}

} // namespace rl
