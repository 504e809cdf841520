#include "registry/cache_dir.hpp"

#include "registry/layout.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_lock_file = "use.lock";
constexpr std::string_view k_leftover_prefix = ".pruning-";

int open_lock(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path path = dir / k_lock_file;
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) {
    return fd;
  }
  // flock needs no write access: a lock file made by another user still locks. Failing that,
  // the first reason is the one to report.
  int why = errno;
  fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    errno = why;
  }
  return fd;
}

bool lock(int fd, int operation) {
  while (::flock(fd, operation) != 0) {
    if (errno != EINTR) {
      return false;
    }
  }
  return true;
}

CacheClock::time_point modified(const struct stat& st) {
  return CacheClock::time_point(std::chrono::duration_cast<CacheClock::duration>(
      std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec)));
}

// Bytes of the regular files at or under `path`, not following links.
std::uint64_t bytes_under(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return 0;
  }
  if (!S_ISDIR(st.st_mode)) {
    return S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
  }
  std::uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    total += bytes_under(it->path());
  }
  return total;
}

std::optional<CacheEntry> entry_at(const fs::path& path, const fs::path& stamp) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return std::nullopt;
  }
  struct stat used {};
  CacheEntry e{path, bytes_under(path), modified(st), false};
  if (::stat(stamp.c_str(), &used) == 0) {
    e.last_used = modified(used);
  }
  e.leftover = path.filename().string().starts_with(k_leftover_prefix);
  return e;
}

// Every child of `dir` is one entry; `stamp` names the file in a directory entry whose time is
// its last use (the entry's own time when it has none).
void add_children(const fs::path& dir, std::string_view stamp, std::vector<CacheEntry>& out) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (auto e = entry_at(it->path(), stamp.empty() ? it->path() : it->path() / stamp)) {
      out.push_back(std::move(*e));
    }
  }
}

// renders/<build>/<entry>: each file is one entry; the build directories are not.
void add_renders(const fs::path& dir, std::vector<CacheEntry>& out) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec) && !it->is_symlink(type_ec)) {
      add_children(it->path(), {}, out);
    } else if (auto e = entry_at(it->path(), it->path())) {
      out.push_back(std::move(*e));
    }
  }
}

std::vector<CacheEntry> entries_of(const fs::path& dir) {
  std::vector<CacheEntry> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir / "blobs", ec), end; !ec && it != end; it.increment(ec)) {
    add_children(it->path(), {}, out);
  }
  add_children(dir / "ingest", {}, out);
  add_renders(dir / k_render_cache_dir, out);
  add_children(dir / k_layer_cache_dir, "layers.json", out);
  return out;
}

Result<void> remove_entry(const CacheEntry& e) {
  fs::path doomed =
      e.leftover ? e.path
                 : e.path.parent_path() / fmt::format("{}{}-{}", k_leftover_prefix, ::getpid(),
                                                      e.path.filename().string());
  if (!e.leftover && ::rename(e.path.c_str(), doomed.c_str()) != 0) {
    if (errno == ENOENT) {
      return {};
    }
    return util::fail(Errc::io,
                      fmt::format("remove {}: {}", e.path.string(), util::errno_text(errno)));
  }
  std::error_code ec;
  fs::remove_all(doomed, ec);
  if (ec) {
    return util::fail(Errc::io, fmt::format("remove {}: {}", doomed.string(), ec.message()));
  }
  return {};
}

} // namespace

CacheUse CacheUse::shared(const fs::path& dir) {
  util::Fd fd(open_lock(dir));
  if (fd.fd < 0 || !lock(fd.fd, LOCK_SH)) {
    return CacheUse(-1);
  }
  CacheUse held(fd.fd);
  fd.fd = -1;
  return held;
}

Result<CacheUse> CacheUse::exclusive(const fs::path& dir, const std::function<void()>& on_wait) {
  util::Fd fd(open_lock(dir));
  if (fd.fd < 0) {
    return util::fail(Errc::io, fmt::format("open {}: {}", (dir / k_lock_file).string(),
                                            util::errno_text(errno)));
  }
  if (::flock(fd.fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return util::fail(Errc::io, fmt::format("lock {}: {}", (dir / k_lock_file).string(),
                                              util::errno_text(errno)));
    }
    on_wait();
    if (!lock(fd.fd, LOCK_EX)) {
      return util::fail(Errc::io, fmt::format("lock {}: {}", (dir / k_lock_file).string(),
                                              util::errno_text(errno)));
    }
  }
  CacheUse held(fd.fd);
  fd.fd = -1;
  return held;
}

Result<CacheInventory> cache_inventory(const fs::path& dir) {
  CacheInventory inventory;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return inventory;
  }
  if (!fs::is_directory(dir, ec)) {
    return util::fail(Errc::invalid, fmt::format("{} is not a directory", dir.string()));
  }
  inventory.entries = entries_of(dir);
  inventory.total_bytes = bytes_under(dir);
  return inventory;
}

Result<PruneTotals> prune_cache(const fs::path& dir, std::optional<CacheClock::time_point> cutoff) {
  PruneTotals totals;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return totals;
  }
  for (const auto& e : entries_of(dir)) {
    if (e.leftover || !cutoff || e.last_used < *cutoff) {
      OPM_TRY(remove_entry(e));
      ++totals.removed_entries;
      totals.removed_bytes += e.bytes;
    }
  }
  OPM_TRY(forget_missing_manifests(dir));
  return totals;
}

} // namespace opm::registry
