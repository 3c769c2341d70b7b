#pragma once
// Keeps memory-mapped files safe from other programs. A file that shrinks while it is mapped (a log
// rotated or truncated under us) makes every access past its new end raise SIGBUS, which would kill
// the whole program at some later, unrelated read. Registered mappings are guarded instead: the
// first such access maps zero-filled pages over the rest of that mapping, the read goes on, and the
// mapping is marked damaged so the reader can say the file changed while it was open (the same
// technique as systemd's journal reader).

#include <cstddef>
#include <optional>

namespace rl::sigbus
{

// A guarded range, identified by a slot; nullopt when every slot is taken (callers then read the
// file into memory instead of mapping it).
std::optional<std::size_t> guard(const void* begin, std::size_t length);
// Stops guarding; call before munmap.
void release(std::size_t slot);
// True once an access in this range faulted and was replaced by zero pages.
bool faulted(std::size_t slot);

} // namespace rl::sigbus
