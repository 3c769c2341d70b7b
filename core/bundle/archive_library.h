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

// The functions Rankline calls, resolved from the loaded library.
struct ArchiveLibrary {
    decltype(&::archive_read_new) read_new = nullptr;
    decltype(&::archive_read_support_filter_all) read_support_filter_all = nullptr;
    decltype(&::archive_read_support_format_all) read_support_format_all = nullptr;
    decltype(&::archive_read_support_format_raw) read_support_format_raw = nullptr;
    decltype(&::archive_read_open_filename) read_open_filename = nullptr;
    decltype(&::archive_read_open_memory) read_open_memory = nullptr;
    decltype(&::archive_read_next_header) read_next_header = nullptr;
    decltype(&::archive_read_data) read_data = nullptr;
    decltype(&::archive_read_free) read_free = nullptr;
    decltype(&::archive_error_string) error_string = nullptr;
    decltype(&::archive_entry_filetype) entry_filetype = nullptr;
    decltype(&::archive_entry_pathname) entry_pathname = nullptr;
    decltype(&::archive_version_string) version_string = nullptr;
};

// Loads libarchive once per process. Null when it cannot be loaded; `why` then says which library
// was looked for, what went wrong and what to install.
const ArchiveLibrary* archiveLibrary(std::string* why = nullptr);

} // namespace rl
