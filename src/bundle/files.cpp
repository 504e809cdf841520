#include "bundle/files.hpp"

#include "util/fs.hpp"

#include <fmt/format.h>

#include <dirent.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <sys/stat.h>

namespace opm::bundle {

namespace {
struct DirCloser {
  void operator()(DIR* d) const noexcept { ::closedir(d); }
};
} // namespace

Result<std::vector<DirEntry>> sorted_entries(const std::filesystem::path& dir) {
  std::unique_ptr<DIR, DirCloser> handle(::opendir(dir.c_str()));
  if (!handle) {
    return util::fail(errno == ENOENT ? Errc::not_found : Errc::io,
                      fmt::format("open {}: {}", dir.string(), util::errno_text(errno)));
  }
  std::vector<DirEntry> entries;
  while (const dirent* e = ::readdir(handle.get())) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") {
      continue;
    }
    bool is_dir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st {};
      is_dir = ::lstat((dir / name).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    entries.push_back({std::string(name), is_dir});
  }
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return entries;
}

Result<std::string> read_regular(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return util::fail(Errc::io, fmt::format("stat {}: {}", path.string(), util::errno_text(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    return util::fail(Errc::io, fmt::format("read {}: not a regular file", path.string()));
  }
  return util::read_file(path);
}

} // namespace opm::bundle
