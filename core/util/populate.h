#pragma once
// Faulting in, with one system call, memory that is about to be written from start to end.
//
// The stages after the scan fill arrays of one element per rank, event or hit (tens of thousands
// on a bundle of ten thousand ranks), each freshly allocated. Written one element after another,
// such an array takes a page fault per 4 KiB page, and on a virtual machine each fault is a trap
// to the hypervisor as well: 2,700 of them were 15 ms of the identity stage on 10,000 small files
// (a fifth of it). MADV_POPULATE_WRITE (Linux 5.14) faults the same pages in from inside the
// kernel without a trap each. Where the kernel lacks it the call fails and nothing changes: the
// pages fault as before. Only what will be written is populated: it adds no resident memory.

#include <cstddef>
#include <vector>

namespace rl
{

// The whole pages inside [p, p + bytes); ranges under 64 KiB are left alone (a system call costs
// more than the few faults it would save).
void populate(const void* p, std::size_t bytes);

// reserve(n), then the capacity beyond the vector's size faulted in: for about n elements that
// are written next.
template <class T, class A> void reservePopulated(std::vector<T, A>& v, std::size_t n)
{
    v.reserve(n);
    populate(v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T));
}

} // namespace rl
