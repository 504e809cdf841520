#pragma once

#include "util/error.hpp"

#include <filesystem>

namespace opm::index {

// A private copy of an index database beside it (the file need not exist yet), for changes
// that must land all at once: commit() renames the copy over the database; otherwise the copy
// is removed when this goes away and the database stays as it was. While a copy lives it holds
// an exclusive lock on the database's directory, so two processes changing one database take
// turns instead of one silently losing the other's changes.
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
  DatabaseCopy(std::filesystem::path database, std::filesystem::path copy, int lock)
      : m_database(std::move(database)), m_copy(std::move(copy)), m_lock(lock) {}
  std::filesystem::path m_database;
  std::filesystem::path m_copy;
  int m_lock = -1; // the directory, locked with flock
};

} // namespace opm::index
