#pragma once

#include "serve/connection_guard.hpp"
#include "serve/reflection_v1.hpp"
#include "serve/service.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/log.hpp"

#include <signal.h>

#include <atomic>
#include <grpcpp/grpcpp.h>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

// The process side the serve commands share: logrus lines, the termination log, the default
// nsswitch.conf, signal handling and the gRPC server with every service registered.
namespace opm::serve {

// logrus text lines: info and debug to `info`, other levels to `warn`.
class Logger {
public:
  Logger(std::ostream& info, std::ostream& warn, bool tty)
      : m_info(info), m_warn(warn), m_tty(tty) {}

  void log(std::string_view level, std::string_view message,
           const std::vector<util::LogField>& fields = {});

private:
  std::ostream& m_info;
  std::ostream& m_warn;
  bool m_tty;
};

// Creates the termination log (never truncated) with `mode`; a failure is only a warning.
// True when the file could be opened.
bool open_termination_log(const std::string& path, mode_t mode, Logger& log);

// Go's resolver needs an nsswitch.conf; upstream writes a default when there is none.
void ensure_nsswitch(Logger& log);

// At most one glibc heap arena per processor, from here on. gRPC starts a dozen threads, and
// each would otherwise get an arena of its own at its first allocation (up to eight per
// processor): its own mapping and pages, touched once each, for threads that mostly wait.
// Returns the bound set.
int bound_malloc_arenas();

class RunningServer;

// SIGINT and SIGTERM, blocked in every thread and taken by one watcher thread until the
// process exits. Before the server runs, a signal ends the process as the default action
// would (upstream handles signals only once serving), after removing the path given to
// remove_on_early_exit; the first one while serving logs "shutting down..." with `fields` and
// stops the server gracefully; any later one is swallowed, so that a second signal (GNU
// timeout sends two) cannot cut the stop or the clean-up after it short. A SIGINT the parent
// left ignored (a background job of a script) stays ignored until the server runs; upstream
// too handles it from then on.
class SignalWatcher {
public:
  SignalWatcher(Logger& log, std::vector<util::LogField> fields);
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;
  // Once the server has run, the signals stay blocked: the command is ending.
  ~SignalWatcher();

  // The server now answering, or nullptr once it stopped.
  void serving(RunningServer* server);
  void remove_on_early_exit(std::string path);

private:
  enum class Phase { loading, serving, stopped };
  void watch();
  void on_signal(int sig);

  Logger& m_log;
  std::vector<util::LogField> m_fields;
  bool m_sigint_ignored;
  sigset_t m_signals{};
  sigset_t m_previous{};
  std::mutex m_mutex;
  RunningServer* m_server = nullptr;
  Phase m_phase = Phase::loading;
  std::string m_early_exit_path;
  std::atomic<bool> m_done = false;
  util::Fd m_signal_fd; // the signals, read when they arrive
  util::Fd m_wake_fd;   // written when the watcher is to stop
  std::thread m_thread;
};

// Streams one connection may have open at once; a client that opens more is disconnected.
inline constexpr int k_max_streams_per_connection = 256;
// The most gRPC reads from a connection at once.
inline constexpr int k_max_read_chunk = 1 << 16;

// How long a graceful stop waits for in-flight calls and streams before cancelling them.
inline constexpr auto k_shutdown_grace = std::chrono::seconds(10);

// The services besides api.Registry; they must outlive the server.
struct OtherServices {
  HealthService health;
  ReflectionV1Service reflection_v1;
  UnknownMethods unknown;
  ExperimentalService* experimental = nullptr; // `opm serve` only
};

// A started server and the guard that accepts its connections.
class RunningServer {
public:
  RunningServer(std::unique_ptr<ConnectionGuard> guard, std::unique_ptr<grpc::Server> server)
      : m_guard(std::move(guard)), m_server(std::move(server)) {}
  RunningServer(RunningServer&&) noexcept = default;
  RunningServer& operator=(RunningServer&&) = delete;
  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;
  // No connection is handed to a server that is going away.
  ~RunningServer();

  // Stops gracefully: no new connection is accepted, calls in flight get until `deadline`.
  void shutdown(std::chrono::system_clock::time_point deadline);
  // Returns once the server has stopped.
  void wait() { m_server->Wait(); }

private:
  std::unique_ptr<ConnectionGuard> m_guard; // goes after the server
  std::unique_ptr<grpc::Server> m_server;
};

// Listens on every interface at `port` (already resolved and probed) and starts serving
// api.Registry, health and reflection. `port_text` is the flag's text, for the error.
Result<RunningServer> start_grpc(int port, const std::string& port_text, RegistryService& registry,
                                 OtherServices& others);

} // namespace opm::serve
