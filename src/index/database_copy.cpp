#include "index/database_copy.hpp"

#include "util/fs.hpp"

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
Result<int> lock_directory(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    // SQLite's own words for a database in a directory that is not there.
    return util::fail(Errc::io,
                      fmt::format("unable to open database file: {}", util::errno_text(errno)));
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      int err = errno;
      ::close(fd);
      return util::fail(Errc::io, fmt::format("lock {}: {}", dir.string(), util::errno_text(err)));
    }
  }
  return fd;
}

} // namespace

Result<DatabaseCopy> DatabaseCopy::make(const fs::path& database) {
  // Beside the original, so that the final rename stays on one file system.
  auto dir = database.parent_path().empty() ? fs::path(".") : database.parent_path();
  int lock = OPM_TRY(lock_directory(dir));
  std::string pattern = (dir / ("." + database.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) {
    ::close(lock);
    return util::fail(Errc::io,
                      fmt::format("open {}: {}", database.string(), util::errno_text(errno)));
  }
  ::close(fd);
  DatabaseCopy copy(database, pattern, lock);
  std::error_code ec;
  if (fs::exists(database, ec)) {
    fs::copy_file(database, pattern, fs::copy_options::overwrite_existing, ec);
    if (!ec) {
      fs::permissions(pattern, fs::status(database).permissions(), ec);
    }
    if (ec) {
      return util::fail(Errc::io, fmt::format("copy {}: {}", database.string(), ec.message()));
    }
  } else {
    // A new database gets the mode SQLite would have created it with.
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(pattern.c_str(), 0666 & ~mask);
  }
  return copy;
}

DatabaseCopy::DatabaseCopy(DatabaseCopy&& other) noexcept
    : m_database(std::move(other.m_database)), m_copy(std::move(other.m_copy)),
      m_lock(other.m_lock) {
  other.m_copy.clear();
  other.m_lock = -1;
}

DatabaseCopy::~DatabaseCopy() {
  if (!m_copy.empty()) {
    std::error_code ec;
    fs::remove(m_copy, ec);
  }
  if (m_lock >= 0) {
    ::close(m_lock); // releases the lock
  }
}

Result<void> DatabaseCopy::commit() {
  // The copy's contents reach the disk before the rename makes them the database.
  if (int fd = ::open(m_copy.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  std::error_code ec;
  fs::rename(m_copy, m_database, ec);
  if (ec) {
    return util::fail(Errc::io, fmt::format("rename {}: {}", m_database.string(), ec.message()));
  }
  m_copy.clear();
  return {};
}

} // namespace opm::index
