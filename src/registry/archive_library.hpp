#pragma once

#include "util/error.hpp"

#include <archive.h>
#include <archive_entry.h>

namespace opm::registry {

// libarchive's entry points for reading layers, loaded the first time a layer is unpacked
// (util/shared_library.hpp): linked in, it and the compression and XML libraries it pulls in
// cost every command 1.2 ms at start.
struct ArchiveLibrary {
  decltype(&::archive_read_new) read_new;
  decltype(&::archive_read_free) read_free;
  decltype(&::archive_read_support_filter_gzip) support_filter_gzip;
  decltype(&::archive_read_support_filter_zstd) support_filter_zstd;
  decltype(&::archive_read_support_format_tar) support_format_tar;
  decltype(&::archive_read_support_format_gnutar) support_format_gnutar;
  decltype(&::archive_read_support_format_empty) support_format_empty;
  decltype(&::archive_read_open_filename) read_open_filename;
  decltype(&::archive_read_next_header) read_next_header;
  decltype(&::archive_read_data_block) read_data_block;
  decltype(&::archive_errno) error_number;
  decltype(&::archive_error_string) error_string;
  decltype(&::archive_format) format;
  decltype(&::archive_entry_pathname) entry_pathname;
  decltype(&::archive_entry_filetype) entry_filetype;
  decltype(&::archive_entry_perm) entry_perm;
  decltype(&::archive_entry_hardlink) entry_hardlink;
  decltype(&::archive_entry_symlink) entry_symlink;
  decltype(&::archive_entry_size_is_set) entry_size_is_set;
  decltype(&::archive_entry_size) entry_size;
};

// The shared object loaded, by its soname.
inline constexpr const char* k_archive_soname = "libarchive.so.13";

// The library, loaded once per process (never unloaded), or why it could not be.
Result<const ArchiveLibrary*> archive_library();

// The loaded library; only after archive_library() succeeded.
const ArchiveLibrary& loaded_archive();

} // namespace opm::registry
