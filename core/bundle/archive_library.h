#pragma once
// libarchive, loaded the first time an archive or a compressed log is opened rather than linked.
// Linked, it and what it links (libxml2, ICU, nettle, four compressors) were mapped into every
// run and held about 1.5 MiB of resident memory, a few percent of diagnosing a folder of plain
// logs, which never calls it. Only the types and constants come from its header.

#include <archive.h>
#include <archive_entry.h>
#include <string>

namespace rl
{

// The functions Rankline calls, each named once: `X(read_new)` stands for archive_read_new.
#define RL_ARCHIVE_FUNCTIONS(X)                                                                              \
    X(read_new)                                                                                              \
    X(read_support_filter_all)                                                                               \
    X(read_support_format_all)                                                                               \
    X(read_support_format_raw)                                                                               \
    X(read_open_filename)                                                                                    \
    X(read_open_memory)                                                                                      \
    X(read_next_header)                                                                                      \
    X(read_data)                                                                                             \
    X(read_free)                                                                                             \
    X(error_string)                                                                                          \
    X(entry_filetype)                                                                                        \
    X(entry_pathname)                                                                                        \
    X(entry_is_encrypted)                                                                                    \
    X(version_string)

// Those functions, resolved from the loaded library: `la.read_new()` calls archive_read_new.
struct ArchiveLibrary {
#define RL_ARCHIVE_POINTER(name) decltype(&::archive_##name) name = nullptr;
    RL_ARCHIVE_FUNCTIONS(RL_ARCHIVE_POINTER)
#undef RL_ARCHIVE_POINTER
};

// Loads libarchive once per process. Null when it cannot be loaded; `why` then says which library
// was looked for, what went wrong and what to install.
const ArchiveLibrary* archiveLibrary(std::string* why = nullptr);

} // namespace rl
