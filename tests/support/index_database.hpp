#pragma once

// Index databases for tests: opened or made at the latest schema (the test stops when that
// fails), the fixtures under tests/data/sqlite, and what a query answers, as text.

#include "sqlite/connection.hpp"
#include "sqlite/migrations.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opm::test {

// The database at `path`; read_write_create makes it when missing.
inline sqlite::Connection
open_database(const std::filesystem::path& path,
              sqlite::OpenMode mode = sqlite::OpenMode::read_write_create) {
  auto db = sqlite::Connection::open(path, mode);
  REQUIRE_MESSAGE(db.has_value(), path.string());
  return std::move(*db);
}

// A new database at `path` at the latest schema, with the SQL `rows` run in it.
inline sqlite::Connection migrated_database(const std::filesystem::path& path,
                                            std::string_view rows = {}) {
  auto db = open_database(path);
  REQUIRE(sqlite::migrate(db));
  if (!rows.empty()) {
    auto inserted = db.exec(rows);
    REQUIRE_MESSAGE(inserted.has_value(), inserted.error().message());
  }
  return db;
}

// tests/data/sqlite/`name`.
inline std::filesystem::path data_database_path(std::string_view name) {
  return std::filesystem::path(OPM_TEST_DATA_DIR) / "sqlite" / name;
}

// tests/data/sqlite/`name`, read-only.
inline sqlite::Connection data_database(std::string_view name) {
  return open_database(data_database_path(name), sqlite::OpenMode::read_only);
}

// Calls `take` with the statement at each row `sql` answers in `db`, in its order.
template <typename Take>
void for_each_row(sqlite::Connection& db, std::string_view sql, Take take) {
  auto stmt = db.prepare(sql);
  REQUIRE(stmt);
  while (true) {
    auto row = stmt->step();
    REQUIRE(row);
    if (!*row) {
      return;
    }
    take(*stmt);
  }
}

// Every row `sql` answers in `db`, in its order, each its columns followed by "|" (NULL as
// "NULL").
inline std::vector<std::string> rows_of(sqlite::Connection& db, std::string_view sql) {
  std::vector<std::string> out;
  for_each_row(db, sql, [&out](sqlite::Statement& stmt) {
    std::string line;
    for (int i = 0; i < stmt.column_count(); ++i) {
      line += stmt.text(i).value_or("NULL") + "|";
    }
    out.push_back(std::move(line));
  });
  return out;
}

// The first column of every row `sql` answers in `db` (NULL as "NULL").
inline std::vector<std::string> column_of(sqlite::Connection& db, std::string_view sql) {
  std::vector<std::string> out;
  for_each_row(db, sql,
               [&out](sqlite::Statement& stmt) { out.push_back(stmt.text(0).value_or("NULL")); });
  return out;
}

} // namespace opm::test
