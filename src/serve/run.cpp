#include "serve/cache.hpp"
#include "serve/listen.hpp"
#include "serve/serve.hpp"
#include "serve/service.hpp"
#include "util/fs.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <mutex>
#include <sys/stat.h>
#include <thread>

namespace opm::serve {

namespace {

// How long a signal-initiated stop waits for in-flight calls and streams before
// cancelling them.
constexpr auto k_shutdown_grace = std::chrono::seconds(10);

class Logger {
public:
  Logger(std::ostream& err, bool tty) : m_err(err), m_tty(tty) {}

  void log(std::string_view level, std::string_view message,
           const std::vector<util::LogField>& fields = {}) {
    m_err << util::logrus_line(level, message, m_tty, fields);
    m_err.flush();
  }

private:
  std::ostream& m_err;
  bool m_tty;
};

// Upstream hooks the file to the process-wide logger, which `opm serve` does not use: the
// file is created (never truncated) and stays empty.
void open_termination_log(const std::string& path, Logger& log) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    log.log("warning", "unable to set termination log path",
            {{"error", fmt::format("open {}: {}", path, util::errno_text(errno))}});
    return;
  }
  ::close(fd);
}

// Go's resolver needs an nsswitch.conf; upstream writes a default when there is none.
void ensure_nsswitch(Logger& log) {
  constexpr const char* path = "/etc/nsswitch.conf";
  struct stat st {};
  if (::stat(path, &st) == 0 || errno != ENOENT) {
    return;
  }
  int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  constexpr std::string_view text = "hosts: files dns";
  if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    log.log("warning", "unable to write default nsswitch config",
            {{"error", fmt::format("open {}: {}", path, util::errno_text(errno))}});
  }
  if (fd >= 0) {
    ::close(fd);
  }
}

// SIGINT and SIGTERM, blocked in every thread and taken by one watcher thread. Before the
// server runs, a signal ends the process as the default action would (upstream handles
// signals only once serving); afterwards it stops the server gracefully.
class SignalWatcher {
public:
  SignalWatcher(Logger& log, std::vector<util::LogField> fields)
      : m_log(log), m_fields(std::move(fields)) {
    sigemptyset(&m_signals);
    sigaddset(&m_signals, SIGINT);
    sigaddset(&m_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_signals, &m_previous);
    m_thread = std::thread([this] { watch(); });
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;
  ~SignalWatcher() {
    m_done = true;
    m_thread.join();
    pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
  }

  void serving(grpc::Server* server) {
    std::lock_guard lock(m_mutex);
    m_server = server;
  }

private:
  void watch() {
    const timespec tick{0, 100'000'000};
    while (!m_done) {
      int sig = sigtimedwait(&m_signals, nullptr, &tick);
      if (sig > 0) {
        on_signal(sig);
        return;
      }
    }
  }

  void on_signal(int sig) {
    std::lock_guard lock(m_mutex);
    if (m_server == nullptr) {
      ::signal(sig, SIG_DFL);
      pthread_sigmask(SIG_UNBLOCK, &m_signals, nullptr);
      ::raise(sig);
      return;
    }
    m_log.log("info", "shutting down...", m_fields);
    m_server->Shutdown(std::chrono::system_clock::now() + k_shutdown_grace);
  }

  Logger& m_log;
  std::vector<util::LogField> m_fields;
  sigset_t m_signals{};
  sigset_t m_previous{};
  std::mutex m_mutex;
  grpc::Server* m_server = nullptr;
  std::atomic<bool> m_done = false;
  std::thread m_thread;
};

Result<void> serve_store(const Store& store, const Options& o, Logger& log,
                         SignalWatcher& watcher) {
  int port = OPM_TRY(resolve_port(o.port));
  OPM_TRY(probe_bind(port, o.port));

  RegistryService registry(store);
  HealthService health;
  UnknownMethods unknown;
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxSendMessageSize(-1);
  int bound = 0;
  builder.AddListeningPort(fmt::format("[::]:{}", port), grpc::InsecureServerCredentials(), &bound);
  builder.RegisterService(&registry);
  builder.RegisterService(&health);
  builder.RegisterCallbackGenericService(&unknown);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || bound == 0) {
    return util::fail(Errc::io, fmt::format("failed to listen: listen tcp :{}: bind: address "
                                            "already in use",
                                            o.port));
  }
  log.log("info", "serving registry", {{"configs", o.configs_dir}, {"port", o.port}});
  watcher.serving(server.get());
  server->Wait();
  watcher.serving(nullptr);
  return {};
}

} // namespace

Result<void> run(const Options& o, std::ostream& err) {
  Logger log(err, o.err_is_tty);
  if (!o.pprof_addr.empty()) {
    OPM_TRY(check_listen_address(o.pprof_addr));
  }
  open_termination_log(o.termination_log, log);
  ensure_nsswitch(log);
  if (o.cache_dir.empty() && o.enforce_integrity) {
    return util::fail(Errc::invalid,
                      "--cache-dir must be specified with --cache-enforce-integrity");
  }
  SignalWatcher watcher(log, {{"configs", o.configs_dir}, {"port", o.port}});
  Store store = OPM_TRY(load_store(o));
  if (o.cache_only) {
    return {};
  }
  return serve_store(store, o, log, watcher);
}

} // namespace opm::serve
