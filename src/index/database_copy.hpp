#pragma once

#include "sqlite/connection.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

#include <filesystem>
#include <optional>

namespace opm::index {

// A private copy of an index database beside it (the file need not exist yet), for changes
// that must land all at once: commit() renames the copy over the database; otherwise the copy
// is removed when this goes away and the database stays as it was.
//
// A symbolic link is followed: the copy replaces the file it names and keeps that file's
// owner, group and mode. The copy is made by SQLite (its backup API), so a hot journal is
// rolled back and what a WAL holds is included, as opening the file would do; SQLite's write
// lock on the original is held until the copy replaces it. While a copy lives it holds an
// exclusive lock on the database's directory, so two processes changing one database take
// turns instead of one silently losing the other's changes. The copy is named
// ".<name>.opm-<pid>-XXXXXX"; copies of processes that were killed are removed by the next.
class DatabaseCopy {
public:
  static Result<DatabaseCopy> make(const std::filesystem::path& database);
  DatabaseCopy(DatabaseCopy&& other) noexcept;
  DatabaseCopy& operator=(DatabaseCopy&&) = delete;
  DatabaseCopy(const DatabaseCopy&) = delete;
  DatabaseCopy& operator=(const DatabaseCopy&) = delete;
  ~DatabaseCopy();

  [[nodiscard]] const std::filesystem::path& path() const { return m_copy; }
  Result<void> commit();

private:
  DatabaseCopy(std::filesystem::path database, std::filesystem::path copy, util::Fd lock)
      : m_database(std::move(database)), m_copy(std::move(copy)), m_lock(std::move(lock)) {}
  Result<void> fill(const std::filesystem::path& shown);
  std::filesystem::path m_database; // the file replaced, links resolved
  std::filesystem::path m_copy;
  util::Fd m_lock; // the directory, locked with flock
  std::optional<sqlite::Connection> m_source;
  bool m_source_wal = false;
};

} // namespace opm::index
