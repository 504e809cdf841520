#include "registry/archive_library.hpp"

#include "util/shared_library.hpp"

namespace opm::registry {

namespace {

bool resolve_reading(const util::SharedLibrary& library, ArchiveLibrary& lib) {
  return library.resolve("archive_read_new", lib.read_new) &&
         library.resolve("archive_read_free", lib.read_free) &&
         library.resolve("archive_read_support_filter_gzip", lib.support_filter_gzip) &&
         library.resolve("archive_read_support_filter_zstd", lib.support_filter_zstd) &&
         library.resolve("archive_read_support_format_tar", lib.support_format_tar) &&
         library.resolve("archive_read_support_format_gnutar", lib.support_format_gnutar) &&
         library.resolve("archive_read_support_format_empty", lib.support_format_empty) &&
         library.resolve("archive_read_open_filename", lib.read_open_filename) &&
         library.resolve("archive_read_next_header", lib.read_next_header) &&
         library.resolve("archive_read_data_block", lib.read_data_block) &&
         library.resolve("archive_errno", lib.error_number) &&
         library.resolve("archive_error_string", lib.error_string) &&
         library.resolve("archive_format", lib.format);
}

bool resolve_entries(const util::SharedLibrary& library, ArchiveLibrary& lib) {
  return library.resolve("archive_entry_pathname", lib.entry_pathname) &&
         library.resolve("archive_entry_filetype", lib.entry_filetype) &&
         library.resolve("archive_entry_perm", lib.entry_perm) &&
         library.resolve("archive_entry_hardlink", lib.entry_hardlink) &&
         library.resolve("archive_entry_symlink", lib.entry_symlink) &&
         library.resolve("archive_entry_size_is_set", lib.entry_size_is_set) &&
         library.resolve("archive_entry_size", lib.entry_size);
}

Result<const ArchiveLibrary*> load_archive() {
  auto library = OPM_TRY(util::SharedLibrary::open(k_archive_soname));
  static ArchiveLibrary lib{};
  if (!resolve_reading(library, lib) || !resolve_entries(library, lib)) {
    return std::unexpected(library.missing_symbol());
  }
  return &lib;
}

util::LoadedOnce<ArchiveLibrary> g_archive(load_archive);

} // namespace

Result<const ArchiveLibrary*> archive_library() { return g_archive.get(); }

const ArchiveLibrary& loaded_archive() { return g_archive.loaded(); }

} // namespace opm::registry
