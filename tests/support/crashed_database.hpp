#pragma once

// Index databases in the states a writer killed mid-way leaves them: committed changes still
// only in the WAL, or pages already changed in the file with their originals in a hot journal.
// Both are made from a live connection whose files are copied before it finishes.

#include "sqlite/connection.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <sys/wait.h>

namespace opm::test {

inline void copy_files(const std::filesystem::path& from, const std::filesystem::path& to,
                       std::initializer_list<const char*> suffixes) {
  for (const char* suffix : suffixes) {
    std::filesystem::copy_file(from.string() + suffix, to.string() + suffix,
                               std::filesystem::copy_options::overwrite_existing);
  }
}

// `to` and `to`-wal: `from` in WAL mode with `change` committed to the WAL and not yet
// checkpointed into the file.
inline void make_wal_database(const std::filesystem::path& from, const std::filesystem::path& to,
                              const std::string& change) {
  auto work = to.string() + ".live";
  std::filesystem::copy_file(from, work);
  auto db = sqlite::Connection::open(work, sqlite::OpenMode::read_write_create);
  REQUIRE(db);
  REQUIRE(db->exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0"));
  REQUIRE(db->exec(change));
  copy_files(work, to, {"", "-wal"});
}

// `to` and `to`-journal: `from` with `change` begun, its pages spilled into the file, and the
// originals in the journal, which is hot.
inline void make_hot_journal_database(const std::filesystem::path& from,
                                      const std::filesystem::path& to, const std::string& change) {
  auto work = to.string() + ".live";
  std::filesystem::copy_file(from, work);
  auto db = sqlite::Connection::open(work, sqlite::OpenMode::read_write_create);
  REQUIRE(db);
  REQUIRE(db->exec("PRAGMA cache_size = 1; BEGIN"));
  REQUIRE(db->exec(change));
  copy_files(work, to, {"", "-journal"});
}

// The id of a process that has ended.
inline pid_t ended_pid() {
  pid_t child = ::fork();
  if (child == 0) {
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

} // namespace opm::test
