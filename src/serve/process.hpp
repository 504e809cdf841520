#pragma once

#include "serve/service.hpp"
#include "util/error.hpp"
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

// SIGINT and SIGTERM, blocked in every thread and taken by one watcher thread. Before the
// server runs, a signal ends the process as the default action would (upstream handles
// signals only once serving); afterwards it logs "shutting down..." with `fields` and stops
// the server gracefully.
class SignalWatcher {
public:
  SignalWatcher(Logger& log, std::vector<util::LogField> fields);
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;
  ~SignalWatcher();

  void serving(grpc::Server* server);

private:
  void watch();
  void on_signal(int sig);

  Logger& m_log;
  std::vector<util::LogField> m_fields;
  sigset_t m_signals{};
  sigset_t m_previous{};
  std::mutex m_mutex;
  grpc::Server* m_server = nullptr;
  std::atomic<bool> m_done = false;
  std::thread m_thread;
};

// How long a graceful stop waits for in-flight calls and streams before cancelling them.
inline constexpr auto k_shutdown_grace = std::chrono::seconds(10);

// The services besides api.Registry; they must outlive the server.
struct OtherServices {
  HealthService health;
  UnknownMethods unknown;
  ExperimentalService* experimental = nullptr; // `opm serve` only
};

// Listens on every interface at `port` (already resolved and probed) and starts serving
// api.Registry, health and reflection. `port_text` is the flag's text, for the error.
Result<std::unique_ptr<grpc::Server>> start_grpc(int port, const std::string& port_text,
                                                 RegistryService& registry, OtherServices& others);

} // namespace opm::serve
