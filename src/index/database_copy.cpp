#include "index/database_copy.hpp"

#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/owned_temp.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sys/file.h>
#include <sys/stat.h>

namespace opm::index {

namespace fs = std::filesystem;

namespace {

// Waits for the exclusive lock of `dir`; returns its descriptor.
Result<util::Fd> lock_directory(const fs::path& dir) {
  util::Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    // SQLite's own words for a database in a directory that is not there.
    return util::fail(Errc::io,
                      fmt::format("unable to open database file: {}", util::errno_text(errno)));
  }
  while (::flock(fd.fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      return util::fail(Errc::io,
                        fmt::format("lock {}: {}", dir.string(), util::errno_text(errno)));
    }
  }
  return fd;
}

// The file a chain of symbolic links ends at (which need not exist yet).
fs::path resolve_links(fs::path path) {
  constexpr int k_max_links = 40; // the kernel's own limit
  for (int i = 0; i < k_max_links; ++i) {
    std::error_code ec;
    if (!fs::is_symlink(path, ec)) {
      break;
    }
    fs::path target = fs::read_symlink(path, ec);
    if (ec) {
      break;
    }
    path = target.is_absolute() ? target : path.parent_path() / target;
  }
  return path;
}

// The copy takes the original's owner, group and mode (a new database: SQLite's mode).
void copy_ownership(int fd, const struct stat* original) {
  if (original == nullptr) {
    mode_t mask = ::umask(0);
    ::umask(mask);
    (void)::fchmod(fd, 0666 & ~mask);
    return;
  }
  // Without the right to give the file away, at least the group is kept where allowed.
  if (::fchown(fd, original->st_uid, original->st_gid) != 0) {
    (void)::fchown(fd, static_cast<uid_t>(-1), original->st_gid);
  }
  (void)::fchmod(fd, original->st_mode & 07777);
}

} // namespace

Result<DatabaseCopy> DatabaseCopy::make(const fs::path& database) {
  fs::path target = resolve_links(database);
  // Beside the original, so that the final rename stays on one file system.
  auto dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  auto lock = OPM_TRY(lock_directory(dir));
  // Under the lock no live process is changing a database here: what is left is stale.
  std::string stem = "." + target.filename().string() + ".opm-";
  auto made = util::make_owned_temp_file(dir, stem);
  if (!made) {
    return util::fail(Errc::io,
                      fmt::format("open {}: {}", database.string(), made.error().message()));
  }
  DatabaseCopy copy(target, made->path, std::move(lock));
  struct stat original {};
  bool exists = ::stat(target.c_str(), &original) == 0;
  if (exists) {
    OPM_TRY(copy.fill(database));
  }
  copy_ownership(made->fd.fd, exists ? &original : nullptr);
  return copy;
}

Result<void> DatabaseCopy::fill(const fs::path& shown) {
  m_source = OPM_TRY(sqlite::Connection::open_for_update(m_database));
  m_source_wal = OPM_TRY(m_source->in_wal_mode());
  if (auto copied = m_source->backup_to(m_copy); !copied) {
    if (copied.error().code() == Errc::io) {
      return util::fail(Errc::io,
                        fmt::format("copy {}: {}", shown.string(), copied.error().message()));
    }
    return copied;
  }
  return {};
}

DatabaseCopy::DatabaseCopy(DatabaseCopy&& other) noexcept
    : m_database(std::move(other.m_database)), m_copy(std::move(other.m_copy)),
      m_lock(std::move(other.m_lock)), m_source(std::move(other.m_source)),
      m_source_wal(other.m_source_wal) {
  other.m_copy.clear();
  other.m_source.reset();
}

DatabaseCopy::~DatabaseCopy() {
  if (!m_copy.empty()) {
    std::error_code ec;
    fs::remove(m_copy, ec);
    util::unregister_temp_path(m_copy);
  }
  m_source.reset(); // SQLite's lock on the original goes before the directory's
  m_lock.reset();
}

Result<void> DatabaseCopy::commit() {
  // The copy's contents reach the disk before the rename makes them the database.
  {
    util::Fd fd(::open(m_copy.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.fd < 0 || ::fsync(fd.fd) != 0) {
      return util::fail(Errc::io,
                        fmt::format("write {}: {}", m_database.string(), util::errno_text(errno)));
    }
  }
  std::error_code ec;
  fs::rename(m_copy, m_database, ec);
  if (ec) {
    return util::fail(
        Errc::io, fmt::format("rename {}: {}", m_database.string(), util::errno_text(ec.value())));
  }
  util::unregister_temp_path(m_copy);
  m_copy.clear();
  // Closing checkpoints a WAL into the replaced file; one left by a reader that still has it
  // open would be read into the new file, which needs none.
  m_source.reset();
  if (m_source_wal) {
    for (const char* suffix : {"-wal", "-shm"}) {
      ::unlink((m_database.string() + suffix).c_str());
    }
  }
  return {};
}

} // namespace opm::index
