#include "serve/cache_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <sys/file.h>
#include <sys/stat.h>

namespace opm::serve {

namespace fs = std::filesystem;

namespace {

// How much larger than its source a cache file may be: JSON inside JSON strings is escaped
// (Go writes '<' as six bytes) and a CSV is kept twice, as csvJson and as an object.
constexpr std::uint64_t k_growth = 32;
constexpr std::uint64_t k_slack = 1 << 20;
constexpr std::uint64_t k_max_digest = 4096;

struct CatalogSizes {
  std::uint64_t total = 0;
  std::uint64_t largest = 0;
};

// Regular files and symbolic links to them, in directories that are not links (as
// fs.WalkDir goes); what cannot be read is left out.
void add_catalog_sizes(const fs::path& dir, CatalogSizes& sizes) {
  auto entries = util::sorted_entries(dir);
  if (!entries) {
    return;
  }
  for (const auto& entry : *entries) {
    const fs::path path = dir / entry.name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      add_catalog_sizes(path, sizes);
      continue;
    }
    if (S_ISLNK(st.st_mode) && ::stat(path.c_str(), &st) != 0) {
      continue;
    }
    if (S_ISREG(st.st_mode)) {
      auto size = static_cast<std::uint64_t>(st.st_size);
      sizes.total += size;
      sizes.largest = std::max(sizes.largest, size);
    }
  }
}

Error not_regular(const fs::path& path) {
  return {Errc::invalid, fmt::format("{} is not a regular file", path.string())};
}

Error too_large(const fs::path& path, std::uint64_t size, std::uint64_t limit) {
  return {Errc::invalid,
          fmt::format("{} is larger than a cache of this catalog can hold ({} bytes, at most {})",
                      path.string(), size, limit)};
}

Error open_error(const fs::path& path, int err) {
  return {err == ENOENT ? Errc::not_found : Errc::io,
          fmt::format("open {}: {}", path.string(), util::errno_text(err))};
}

// Reads at most `size` bytes of an open regular file into `out`.
Result<void> read_at_most(int fd, std::uint64_t size, const fs::path& path, std::string& out) {
  out.resize(size);
  std::size_t done = 0;
  while (done < out.size()) {
    std::size_t n = OPM_TRY(util::read_some(fd, out.data() + done, out.size() - done, path));
    if (n == 0) {
      break;
    }
    done += n;
  }
  out.resize(done);
  return {};
}

Result<void> check_regular(const fs::path& path, const struct stat& st, std::uint64_t limit) {
  if (S_ISDIR(st.st_mode)) {
    return util::fail(Errc::io, fmt::format("read {}: is a directory", path.string()));
  }
  if (!S_ISREG(st.st_mode)) {
    return std::unexpected(not_regular(path));
  }
  if (static_cast<std::uint64_t>(st.st_size) > limit) {
    return std::unexpected(too_large(path, static_cast<std::uint64_t>(st.st_size), limit));
  }
  return {};
}

// Opens `path` for reading only when it is a regular file of at most `limit` bytes, checked
// before opening (so that no device or FIFO is opened) and again on what was opened. Returns
// the file's size.
Result<std::uint64_t> open_regular(const fs::path& path, int flags, std::uint64_t limit,
                                   util::Fd& fd) {
  struct stat st {};
  bool follow = (flags & O_NOFOLLOW) == 0;
  if ((follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) {
    return std::unexpected(open_error(path, errno));
  }
  OPM_TRY(check_regular(path, st, limit));
  fd.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
  if (fd.fd < 0) {
    return std::unexpected(errno == ELOOP ? not_regular(path) : open_error(path, errno));
  }
  if (::fstat(fd.fd, &st) != 0) {
    return util::fail(Errc::io, fmt::format("stat {}: {}", path.string(), util::errno_text(errno)));
  }
  OPM_TRY(check_regular(path, st, limit));
  return static_cast<std::uint64_t>(st.st_size);
}

} // namespace

CacheDirLock::CacheDirLock(const fs::path& dir, bool create) : m_dir(dir) {
  std::error_code ec;
  if (create) {
    m_created = fs::create_directories(dir, ec);
    if (m_created) {
      ::chmod(dir.c_str(), 0750); // the mode upstream gives a cache directory it makes
    }
  }
  m_fd.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (m_fd.fd < 0) {
    return;
  }
  // Signals are blocked while serve loads (they are taken by its watcher thread), so the wait
  // is not interrupted and SIGTERM still ends the process at once.
  while (::flock(m_fd.fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      return; // no locks on this file system: go on unlocked
    }
  }
}

CacheDirLock::~CacheDirLock() {
  if (m_created) {
    ::rmdir(m_dir.c_str()); // only succeeds while nothing was written into it
  }
}

CacheLimits cache_limits(const fs::path& configs) {
  CatalogSizes sizes;
  add_catalog_sizes(configs, sizes);
  return CacheLimits{.bundle_file = sizes.largest * k_growth + k_slack,
                     .packages_file = sizes.total * k_growth + k_slack};
}

Result<void> survey_cache_files(const fs::path& json_dir, const CacheLimits& limits) {
  auto entries = util::sorted_entries(json_dir);
  if (!entries) {
    return entries.error().code() == Errc::not_found ? Result<void>{}
                                                     : std::unexpected(std::move(entries).error());
  }
  for (const auto& entry : *entries) {
    const fs::path path = json_dir / entry.name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || S_ISLNK(st.st_mode)) {
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      OPM_TRY(survey_cache_files(path, limits));
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      return std::unexpected(not_regular(path));
    }
    auto limit = entry.name == "packages.json" ? limits.packages_file : limits.bundle_file;
    if (static_cast<std::uint64_t>(st.st_size) > limit) {
      return std::unexpected(too_large(path, static_cast<std::uint64_t>(st.st_size), limit));
    }
  }
  return {};
}

Result<void> read_cache_file(const fs::path& path, std::uint64_t limit, std::string& out) {
  util::Fd fd;
  auto size = OPM_TRY(open_regular(path, O_NOFOLLOW, limit, fd));
  return read_at_most(fd.fd, size, path, out);
}

Result<std::string> read_digest_file(const fs::path& path) {
  util::Fd fd;
  auto size = OPM_TRY(open_regular(path, 0, k_max_digest, fd));
  std::string text;
  OPM_TRY(read_at_most(fd.fd, size, path, text));
  return text;
}

} // namespace opm::serve
