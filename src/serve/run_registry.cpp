#include "serve/listen.hpp"
#include "serve/process.hpp"
#include "serve/serve.hpp"
#include "serve/sqlite_backend.hpp"
#include "sqlite/migrations.hpp"
#include "util/fs.hpp"
#include "util/go_parse.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <optional>
#include <sys/stat.h>

namespace opm::serve {

namespace {

// A private copy of the database in $TMPDIR, named db-*, removed when this goes away: the
// server migrates and reads the copy, never the user's file.
class TempDbCopy {
public:
  static Result<TempDbCopy> make(const std::string& source);
  TempDbCopy(TempDbCopy&& other) noexcept : m_path(std::move(other.m_path)) {
    other.m_path.clear();
  }
  TempDbCopy& operator=(TempDbCopy&&) = delete;
  TempDbCopy(const TempDbCopy&) = delete;
  TempDbCopy& operator=(const TempDbCopy&) = delete;
  ~TempDbCopy() {
    if (!m_path.empty()) {
      ::unlink(m_path.c_str());
    }
  }
  [[nodiscard]] const std::string& path() const { return m_path; }

private:
  explicit TempDbCopy(std::string path) : m_path(std::move(path)) {}
  std::string m_path;
};

Result<void> copy_fd(int from, int to, const std::string& from_path, const std::string& to_path) {
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(from, buffer, sizeof buffer);
    if (n < 0) {
      return util::fail(Errc::io, fmt::format("read {}: {}", from_path, util::errno_text(errno)));
    }
    if (n == 0) {
      return {};
    }
    for (ssize_t done = 0; done < n;) {
      ssize_t w = ::write(to, buffer + done, static_cast<std::size_t>(n - done));
      if (w < 0) {
        return util::fail(Errc::io, fmt::format("write {}: {}", to_path, util::errno_text(errno)));
      }
      done += w;
    }
  }
}

// Upstream creates the temporary file first, then opens the source (os.Open, then a regular
// file check), then copies.
Result<TempDbCopy> TempDbCopy::make(const std::string& source) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string pattern = fmt::format("{}/db-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  util::Fd dst(::mkostemp(pattern.data(), O_CLOEXEC));
  if (dst.fd < 0) {
    return util::fail(Errc::io, fmt::format("open {}: {}", pattern, util::errno_text(errno)));
  }
  TempDbCopy copy(pattern);
  util::Fd src(::open(source.c_str(), O_RDONLY | O_CLOEXEC));
  if (src.fd < 0) {
    return util::fail(Errc::not_found, fmt::format("open {}: {}", source, util::errno_text(errno)));
  }
  struct stat st {};
  if (::fstat(src.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    return util::fail(Errc::invalid, fmt::format("{} is not a regular file", source));
  }
  OPM_TRY(copy_fd(src.fd, dst.fd, source, copy.path()));
  return copy;
}

// Go's strconv.ParseUint(text, 10, 16).
Result<unsigned> parse_timeout(const std::string& text) {
  auto value =
      text.find('_') == std::string::npos
          ? util::parse_go_uint(text, 10)
          : std::expected<std::uint64_t, util::NumError>(std::unexpected(util::NumError::syntax));
  if (value && *value > 0xFFFF) {
    value = std::unexpected(util::NumError::range);
  }
  if (!value) {
    return util::fail(Errc::invalid,
                      fmt::format("strconv.ParseUint: parsing {}: {}", util::go_quote(text),
                                  value.error() == util::NumError::syntax ? "invalid syntax"
                                                                          : "value out of range"));
  }
  return static_cast<unsigned>(*value);
}

// Opens the copy and readies it for queries. Every failure here is only a warning, as
// upstream's: a file that is not a database is still served, and every call then fails.
Result<sqlite::Connection> open_database(const std::string& path, const RegistryOptions& o,
                                         Logger& log) {
  auto db = OPM_TRY(sqlite::Connection::open(path, sqlite::OpenMode::read_write_create));
  auto warn = [&](std::string_view message, const Error& e) {
    log.log("warning", message,
            {{"database", o.database}, {"error", e.message()}, {"port", o.port}});
  };
  if (auto limited = db.limit_soft_heap(); !limited) {
    warn("error setting soft heap limit for sqlite", limited.error());
  }
  if (!o.skip_migrate) {
    if (auto migrated = sqlite::migrate(db); !migrated) {
      warn("couldn't migrate db", migrated.error());
    }
  }
  return db;
}

void check_tables(sqlite::Querier& querier, const RegistryOptions& o, Logger& log) {
  std::vector<util::LogField> fields{{"database", o.database}, {"port", o.port}};
  auto tables = querier.tables();
  if (!tables) {
    log.log("warning", "couldn't list tables in db",
            {{"database", o.database}, {"error", tables.error().message()}, {"port", o.port}});
  }
  if (!tables || tables->empty()) {
    log.log("warning", "no tables found in db", fields);
  }
}

// --timeout-seconds: stops the server gracefully once the time is up, unless it stopped
// before.
class StopTimer {
public:
  StopTimer(RunningServer& server, unsigned seconds, Logger& log,
            std::vector<util::LogField> fields)
      : m_thread([this, &server, seconds, &log, fields = std::move(fields)] {
          std::unique_lock lock(m_mutex);
          if (m_cancelled.wait_for(lock, std::chrono::seconds(seconds),
                                   [this] { return m_done; })) {
            return;
          }
          log.log("info", "Timeout expired. Gracefully stopping.", fields);
          server.shutdown(std::chrono::system_clock::now() + k_shutdown_grace);
        }) {}
  StopTimer(const StopTimer&) = delete;
  StopTimer& operator=(const StopTimer&) = delete;
  ~StopTimer() {
    {
      std::lock_guard lock(m_mutex);
      m_done = true;
    }
    m_cancelled.notify_all();
    m_thread.join();
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_cancelled;
  bool m_done = false;
  std::thread m_thread;
};

Result<void> serve_database(sqlite::Querier& querier, const RegistryOptions& o, Logger& log,
                            SignalWatcher& watcher) {
  std::vector<util::LogField> fields{{"database", o.database}, {"port", o.port}};
  int port = OPM_TRY(resolve_port(o.port));
  OPM_TRY(probe_bind(port, o.port));
  log.log("info", fmt::format("Keeping server open for {} seconds", o.timeout_seconds), fields);
  std::optional<unsigned> timeout;
  if (o.timeout_seconds != "infinite") {
    timeout = OPM_TRY(parse_timeout(o.timeout_seconds));
  }

  SqliteBackend backend(querier);
  RegistryService registry(backend);
  OtherServices others;
  auto running = OPM_TRY(start_grpc(port, o.port, registry, others));
  std::optional<StopTimer> timer;
  if (timeout) {
    timer.emplace(running, *timeout, log, fields);
  }
  log.log("info", "serving registry", fields);
  watcher.serving(&running);
  running.wait();
  watcher.serving(nullptr);
  return {};
}

} // namespace

Result<void> run_registry(const RegistryOptions& o, std::ostream& err) {
  bound_malloc_arenas();
  Logger log(err, err, o.err_is_tty);
  // Upstream sends the process-wide log through level hooks once the termination log opens:
  // info to stdout, warnings and errors to stderr, never coloured.
  std::optional<Logger> hooked;
  if (open_termination_log(o.termination_log, 0755, log) && o.out != nullptr) {
    hooked.emplace(*o.out, err, false);
  }
  Logger& logger = hooked ? *hooked : log;
  ensure_nsswitch(logger);
  SignalWatcher watcher(logger, {{"database", o.database}, {"port", o.port}});
  TempDbCopy copy = OPM_TRY(TempDbCopy::make(o.database));
  watcher.remove_on_early_exit(copy.path());
  sqlite::Querier querier(OPM_TRY(open_database(copy.path(), o, logger)));
  check_tables(querier, o, logger);
  return serve_database(querier, o, logger, watcher);
}

} // namespace opm::serve
