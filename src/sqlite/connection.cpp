#include "sqlite/connection.hpp"

#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/owned_temp.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <stdlib.h>

#include <cerrno>

namespace opm::sqlite {

void CloseDb::operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
void FinalizeStmt::operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }

namespace {

// SQLite's text, as upstream's driver reports it; a full disk names the database instead (for
// an update's copy, the database it will replace).
std::unexpected<Error> db_error(sqlite3* db) {
  if (db == nullptr) {
    return util::fail(Errc::io, "out of memory");
  }
  if ((sqlite3_errcode(db) & 0xff) == SQLITE_FULL) {
    const char* file = sqlite3_db_filename(db, "main");
    auto shown = util::owned_copy_original(file ? file : "", ".opm-");
    return util::fail(Errc::io,
                      fmt::format("write {}: {}", shown.string(), util::errno_text(ENOSPC)));
  }
  return util::fail(Errc::io, sqlite3_errmsg(db));
}

std::unexpected<Error> interrupted_error() { return util::fail(Errc::io, "interrupted"); }

// Ends a long statement (a VACUUM, a scan of a large table) once SIGINT or SIGTERM arrived,
// so the command stops as promptly inside SQLite as between statements. ROLLBACK runs far
// fewer instructions than an interval, so undoing an interrupted change is never stopped.
extern "C" int stop_when_interrupted(void* /*unused*/) { return util::interrupted() ? 1 : 0; }

// SQLite virtual machine instructions between checks: a few microseconds of work.
constexpr int k_interrupt_check_interval = 1000;

Result<DbHandle> open_handle(const std::filesystem::path& path, int flags) {
  sqlite3* raw = nullptr;
  int rc =
      sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr);
  DbHandle db(raw);
  if (rc == SQLITE_CANTOPEN) {
    // As upstream's driver words it: SQLite's text, then the system's.
    return util::fail(Errc::io, std::string(sqlite3_errstr(rc)) + ": " +
                                    util::errno_text(sqlite3_system_errno(db.get())));
  }
  if (rc != SQLITE_OK) {
    return db_error(db.get());
  }
  sqlite3_extended_result_codes(db.get(), 0);
  sqlite3_progress_handler(db.get(), k_interrupt_check_interval, stop_when_interrupted, nullptr);
  return db;
}

// A read-only connection cannot roll back a hot journal or rebuild a WAL index: SQLite then
// refuses to read at all (SQLITE_READONLY_ROLLBACK, _RECOVERY, _CANTINIT).
bool needs_recovery(sqlite3* db) {
  if (sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", nullptr, nullptr, nullptr) ==
      SQLITE_OK) {
    return false;
  }
  return (sqlite3_extended_errcode(db) & 0xff) == SQLITE_READONLY;
}

// A directory of its own in the temporary directory, removed by an interrupt too.
Result<util::TempTree> private_dir() {
  std::error_code ec;
  auto tmp = std::filesystem::temp_directory_path(ec);
  if (ec) {
    tmp = "/tmp";
  }
  util::remove_stale_owned(tmp, "opm-sqlite-");
  std::string pattern = (tmp / (util::owned_prefix("opm-sqlite-") + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return util::fail(Errc::io, fmt::format("create temporary database copy in {}: {}",
                                            tmp.string(), util::errno_text(errno)));
  }
  util::register_temp_path(pattern);
  return util::TempTree(pattern);
}

Result<void> copy_if_present(const std::filesystem::path& from, const std::filesystem::path& to,
                             bool required) {
  std::error_code ec;
  if (!required && !std::filesystem::exists(from, ec)) {
    return {};
  }
  std::filesystem::copy_file(from, to, ec);
  if (ec) {
    return util::fail(Errc::io,
                      fmt::format("copy {}: {}", from.string(), util::errno_text(ec.value())));
  }
  return {};
}

// The error of a failed backup: the system's text for disk errors, else SQLite's.
std::unexpected<Error> backup_error(int rc, sqlite3* dest) {
  int primary = rc & 0xff;
  if (primary == SQLITE_FULL || primary == SQLITE_IOERR) {
    int err = sqlite3_system_errno(dest);
    return util::fail(Errc::io, util::errno_text(err != 0                 ? err
                                                 : primary == SQLITE_FULL ? ENOSPC
                                                                          : EIO));
  }
  return util::fail(Errc::invalid, sqlite3_errstr(rc));
}

struct FinishBackup {
  void operator()(sqlite3_backup* b) const noexcept { sqlite3_backup_finish(b); }
};

} // namespace

Result<Connection> Connection::open(const std::filesystem::path& path, OpenMode mode) {
  int flags = mode == OpenMode::read_only ? SQLITE_OPEN_READONLY
                                          : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  auto db = OPM_TRY(open_handle(path, flags));
  if (mode == OpenMode::read_only && needs_recovery(db.get())) {
    db.reset();
    return open_private_copy(path);
  }
  Connection conn(std::move(db));
  OPM_TRY(conn.exec("PRAGMA foreign_keys = ON"));
  return conn;
}

Result<Connection> Connection::open_private_copy(const std::filesystem::path& path) {
  auto dir = std::make_unique<util::TempTree>(OPM_TRY(private_dir()));
  auto copy = dir->path() / path.filename();
  OPM_TRY(copy_if_present(path, copy, true));
  for (std::string_view suffix : {"-journal", "-wal"}) {
    OPM_TRY(copy_if_present(path.string() + std::string(suffix),
                            copy.string() + std::string(suffix), false));
  }
  auto conn = OPM_TRY(open(copy, OpenMode::read_write_create));
  // The first read recovers the copy, before anything else opens it.
  OPM_TRY(conn.exec("SELECT 1 FROM sqlite_master LIMIT 1"));
  conn.m_private_dir = std::move(dir);
  return conn;
}

Result<Connection> Connection::open_for_update(const std::filesystem::path& path) {
  Connection conn(OPM_TRY(open_handle(path, SQLITE_OPEN_READWRITE)));
  // Another writer gets the time upstream's driver gives it by default.
  sqlite3_busy_timeout(conn.m_db.get(), 5000);
  OPM_TRY(conn.exec("BEGIN IMMEDIATE"));
  return conn;
}

Result<void> Connection::backup_to(const std::filesystem::path& copy) {
  // SQLite refuses to back up from a connection in a write transaction (open_for_update's):
  // a second one reads the file, which the first one's lock keeps from changing.
  const char* file = sqlite3_db_filename(m_db.get(), "main");
  auto source = OPM_TRY(open_handle(file ? file : "", SQLITE_OPEN_READONLY));
  auto dest = OPM_TRY(open_handle(copy, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  {
    std::unique_ptr<sqlite3_backup, FinishBackup> backup(
        sqlite3_backup_init(dest.get(), "main", source.get(), "main"));
    if (!backup) {
      return db_error(dest.get());
    }
    int rc = sqlite3_backup_step(backup.get(), -1);
    if (rc != SQLITE_DONE) {
      return backup_error(rc, dest.get());
    }
  }
  // The header came from the source; a WAL source would leave the copy wanting a WAL file.
  if (sqlite3_exec(dest.get(), "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr) !=
      SQLITE_OK) {
    return backup_error(sqlite3_errcode(dest.get()), dest.get());
  }
  return {};
}

Result<bool> Connection::in_wal_mode() {
  auto stmt = OPM_TRY(prepare("PRAGMA journal_mode"));
  return OPM_TRY(stmt.step()) && stmt.text_or_empty(0) == "wal";
}

Result<void> Connection::exec(std::string_view sql) {
  std::string text(sql);
  if (sqlite3_exec(m_db.get(), text.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    return db_error(m_db.get());
  }
  return {};
}

Result<Statement> Connection::prepare(std::string_view sql) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(m_db.get(), sql.data(), static_cast<int>(sql.size()), &raw, nullptr) !=
      SQLITE_OK) {
    return db_error(m_db.get());
  }
  return Statement(StmtHandle(raw), m_db.get());
}

std::int64_t Connection::changes() const { return sqlite3_changes64(m_db.get()); }
std::int64_t Connection::last_insert_rowid() const { return sqlite3_last_insert_rowid(m_db.get()); }

// A failed bind is reported by the next step().
void Statement::checked(int rc) {
  if (rc != SQLITE_OK && !m_pending_error) {
    m_pending_error = sqlite3_errmsg(m_db);
  }
}

Statement& Statement::bind(int index, std::string_view text) {
  checked(sqlite3_bind_text(m_stmt.get(), index, text.data(), static_cast<int>(text.size()),
                            SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
  // A zero-length blob still needs a non-null pointer, or SQLite binds NULL.
  static const char k_empty = 0;
  checked(sqlite3_bind_blob(m_stmt.get(), index, bytes.empty() ? &k_empty : bytes.data(),
                            static_cast<int>(bytes.size()), SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
  checked(sqlite3_bind_int64(m_stmt.get(), index, value));
  return *this;
}

Statement& Statement::bind_optional(int index, const std::optional<std::string>& text) {
  return text ? bind(index, std::string_view(*text)) : bind_null(index);
}

Statement& Statement::bind_null(int index) {
  checked(sqlite3_bind_null(m_stmt.get(), index));
  return *this;
}

Statement& Statement::bind_named(const char* name, std::int64_t value) {
  int index = sqlite3_bind_parameter_index(m_stmt.get(), name);
  return index > 0 ? bind(index, value) : *this;
}

Result<bool> Statement::step() {
  if (m_pending_error) {
    return util::fail(Errc::io, *m_pending_error);
  }
  // Every loop over rows or along a chain of bundles steps a statement each round, so this
  // one check ends them all when the user interrupts.
  if (util::interrupted()) {
    return interrupted_error();
  }
  int rc = sqlite3_step(m_stmt.get());
  if (rc == SQLITE_ROW) {
    return true;
  }
  if (rc == SQLITE_DONE) {
    return false;
  }
  return db_error(m_db);
}

Result<void> Statement::run() {
  while (OPM_TRY(step())) {
  }
  return {};
}

void Statement::reset() {
  sqlite3_reset(m_stmt.get());
  sqlite3_clear_bindings(m_stmt.get());
  m_pending_error.reset();
}

int Statement::column_count() const { return sqlite3_column_count(m_stmt.get()); }

bool Statement::is_null(int column) const {
  return sqlite3_column_type(m_stmt.get(), column) == SQLITE_NULL;
}

std::optional<std::string> Statement::text(int column) const {
  if (is_null(column)) {
    return std::nullopt;
  }
  const auto* bytes = sqlite3_column_text(m_stmt.get(), column);
  auto size = static_cast<std::size_t>(sqlite3_column_bytes(m_stmt.get(), column));
  return std::string(reinterpret_cast<const char*>(bytes), size);
}

std::string Statement::text_or_empty(int column) const { return text(column).value_or(""); }

std::int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(m_stmt.get(), column);
}

Result<Transaction> Transaction::begin(Connection& db) {
  OPM_TRY(db.exec("BEGIN"));
  return Transaction(db);
}

Transaction::~Transaction() {
  if (m_db != nullptr) {
    (void)m_db->exec("ROLLBACK");
  }
}

Result<void> Transaction::commit() {
  Connection* db = m_db;
  m_db = nullptr;
  if (auto done = db->exec("COMMIT"); !done) {
    (void)db->exec("ROLLBACK");
    return done;
  }
  return {};
}

Result<void> Connection::hold_as_private_copy() {
  OPM_TRY(exec("PRAGMA journal_mode = MEMORY"));
  OPM_TRY(exec("PRAGMA synchronous = OFF"));
  return exec("PRAGMA locking_mode = EXCLUSIVE");
}

Result<void> Connection::limit_soft_heap() {
  return exec("PRAGMA soft_heap_limit=1; SELECT count(*) FROM sqlite_master");
}

Result<void> Connection::compact() { return exec("VACUUM"); }

} // namespace opm::sqlite
