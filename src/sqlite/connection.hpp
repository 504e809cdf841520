#pragma once

#include "util/error.hpp"
#include "util/interrupt.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

// The one place that speaks the SQLite C API: a connection and its prepared statements,
// each owned by an RAII handle. Error messages are SQLite's own text (sqlite3_errmsg), as
// upstream's go-sqlite3 driver reports them, e.g. "UNIQUE constraint failed: operatorbundle.name".
struct sqlite3;
struct sqlite3_stmt;

namespace opm::sqlite {

// util/c_free.hpp's CFree is not available here yet; these two deleters play its part.
struct CloseDb {
  void operator()(sqlite3* db) const noexcept;
};
struct FinalizeStmt {
  void operator()(sqlite3_stmt* stmt) const noexcept;
};
using DbHandle = std::unique_ptr<sqlite3, CloseDb>;
using StmtHandle = std::unique_ptr<sqlite3_stmt, FinalizeStmt>;

class Statement {
public:
  explicit Statement(StmtHandle stmt, sqlite3* db) : m_stmt(std::move(stmt)), m_db(db) {}

  // Parameters are 1-based, as in SQLite. A nullopt binds SQL NULL.
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, std::int64_t value);
  // Stored with BLOB affinity, as Go's database/sql stores a []byte.
  Statement& bind_blob(int index, std::string_view bytes);
  Statement& bind_optional(int index, const std::optional<std::string>& text);
  Statement& bind_null(int index);
  Statement& bind_named(const char* name, std::int64_t value);

  // Advance one row: true when a row is ready, false when done.
  Result<bool> step();
  // Step until done (statements without rows).
  Result<void> run();
  void reset();

  [[nodiscard]] int column_count() const;
  [[nodiscard]] bool is_null(int column) const;
  // The column as text; nullopt for SQL NULL.
  [[nodiscard]] std::optional<std::string> text(int column) const;
  [[nodiscard]] std::string text_or_empty(int column) const;
  [[nodiscard]] std::int64_t integer(int column) const;

private:
  void checked(int rc);
  StmtHandle m_stmt;
  sqlite3* m_db;
  std::optional<std::string> m_pending_error;
};

enum class OpenMode { read_only, read_write_create };

class Connection {
public:
  // Opens `path` with foreign keys enforced, as upstream opens every index database.
  // Errors read "unable to open database file" and the like. Read-only, a database that
  // SQLite must recover first (a hot journal) is read from a private copy instead, recovered
  // there, so that reading never writes the file.
  static Result<Connection> open(const std::filesystem::path& path, OpenMode mode);

  // Opens a private copy of `path` (with its journal or WAL, recovered by SQLite in the copy)
  // for changes that must not reach the file; the copy goes away with the connection.
  static Result<Connection> open_private_copy(const std::filesystem::path& path);

  // Opens the existing database `path` to replace it by a changed copy: read-write, so that
  // SQLite rolls back a hot journal and reads what a WAL holds, as an update in place would,
  // and holds SQLite's write lock (BEGIN IMMEDIATE) until the connection closes, so no other
  // writer changes the file in between.
  static Result<Connection> open_for_update(const std::filesystem::path& path);

  // Copies the whole database into `copy` (a new or empty file) with SQLite's backup API, the
  // copy left in rollback-journal mode so that no WAL file is needed or read beside it. Disk
  // errors are Errc::io and read as the system's text ("no space left on device").
  Result<void> backup_to(const std::filesystem::path& copy);

  // True when the database is in WAL mode.
  [[nodiscard]] Result<bool> in_wal_mode();

  // Run one or more statements without results.
  Result<void> exec(std::string_view sql);

  // For a database file no one else sees until it is synced and renamed into place: no
  // journal file, no sync per transaction, and the lock held for the whole run (which spares
  // every statement the locking and journal checks of a shared database).
  Result<void> hold_as_private_copy();

  // Upstream `registry serve`'s soft heap limit of one byte. Its driver reads the schema as it
  // connects, so a file that is not a database already fails this first statement.
  Result<void> limit_soft_heap();

  // VACUUM: rewrite the file without its free pages.
  Result<void> compact();
  Result<Statement> prepare(std::string_view sql);
  // Rows changed by the last INSERT/UPDATE/DELETE.
  [[nodiscard]] std::int64_t changes() const;
  [[nodiscard]] std::int64_t last_insert_rowid() const;

private:
  explicit Connection(DbHandle db) : m_db(std::move(db)) {}
  // The directory of a private copy, removed after the database is closed.
  std::unique_ptr<util::TempTree> m_private_dir;
  DbHandle m_db;
};

// BEGIN now; ROLLBACK when destroyed before commit(), so a failed change leaves nothing.
class Transaction {
public:
  static Result<Transaction> begin(Connection& db);
  Transaction(Transaction&& other) noexcept : m_db(other.m_db) { other.m_db = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();
  Result<void> commit();

private:
  explicit Transaction(Connection& db) : m_db(&db) {}
  Connection* m_db;
};

} // namespace opm::sqlite
