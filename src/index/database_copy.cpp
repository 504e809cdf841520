#include "index/database_copy.hpp"

#include "util/fs.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>

namespace opm::index {

namespace fs = std::filesystem;

Result<DatabaseCopy> DatabaseCopy::make(const fs::path& database) {
  // Beside the original, so that the final rename stays on one file system.
  auto dir = database.parent_path().empty() ? fs::path(".") : database.parent_path();
  std::string pattern = (dir / ("." + database.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) {
    return util::fail(Errc::io,
                      fmt::format("open {}: {}", database.string(), util::errno_text(errno)));
  }
  ::close(fd);
  DatabaseCopy copy(database, pattern);
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
    : m_database(std::move(other.m_database)), m_copy(std::move(other.m_copy)) {
  other.m_copy.clear();
}

DatabaseCopy::~DatabaseCopy() {
  if (!m_copy.empty()) {
    std::error_code ec;
    fs::remove(m_copy, ec);
  }
}

Result<void> DatabaseCopy::commit() {
  std::error_code ec;
  fs::rename(m_copy, m_database, ec);
  if (ec) {
    return util::fail(Errc::io, fmt::format("rename {}: {}", m_database.string(), ec.message()));
  }
  m_copy.clear();
  return {};
}

} // namespace opm::index
