#include "serve/process.hpp"

#include "util/fs.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <google/protobuf/stubs/logging.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <thread>

namespace opm::serve {

namespace {

// A request whose string is not UTF-8 is refused with grpc-go's status; protobuf would also
// log it on stderr, as upstream does not. Only its fatal messages are kept.
void keep_fatal_protobuf_logs(google::protobuf::LogLevel level, const char* file, int line,
                              const std::string& message) {
  if (level == google::protobuf::LOGLEVEL_FATAL) {
    std::fprintf(stderr, "[libprotobuf FATAL %s:%d] %s\n", file, line, message.c_str());
  }
}

} // namespace

void Logger::log(std::string_view level, std::string_view message,
                 const std::vector<util::LogField>& fields) {
  std::ostream& out = level == "info" || level == "debug" ? m_info : m_warn;
  out << util::logrus_line(level, message, m_tty, fields);
  out.flush();
}

bool open_termination_log(const std::string& path, mode_t mode, Logger& log) {
  util::Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, mode));
  if (!fd.valid()) {
    log.log("warning", "unable to set termination log path",
            {{"error", fmt::format("open {}: {}", path, util::errno_text(errno))}});
    return false;
  }
  return true;
}

void ensure_nsswitch(Logger& log) {
  constexpr const char* path = "/etc/nsswitch.conf";
  struct stat st {};
  if (::stat(path, &st) == 0 || errno != ENOENT) {
    return;
  }
  util::Fd fd(::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  constexpr std::string_view text = "hosts: files dns";
  if (!fd.valid() ||
      ::write(fd.fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    log.log("warning", "unable to write default nsswitch config",
            {{"error", fmt::format("open {}: {}", path, util::errno_text(errno))}});
  }
}

int bound_malloc_arenas() {
  const unsigned processors = std::thread::hardware_concurrency(); // 0 when unknown
  const int bound = static_cast<int>(std::clamp(processors, 2U, 1024U));
  ::mallopt(M_ARENA_MAX, bound);
  return bound;
}

namespace {

bool ignored_by_parent(int sig) {
  struct sigaction current {};
  return ::sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
}

} // namespace

SignalWatcher::SignalWatcher(Logger& log, std::vector<util::LogField> fields)
    : m_log(log), m_fields(std::move(fields)), m_sigint_ignored(ignored_by_parent(SIGINT)) {
  sigemptyset(&m_signals);
  sigaddset(&m_signals, SIGINT);
  sigaddset(&m_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &m_signals, &m_previous);
  m_signal_fd.reset(::signalfd(-1, &m_signals, SFD_CLOEXEC));
  m_wake_fd.reset(::eventfd(0, EFD_CLOEXEC));
  m_thread = std::thread([this] { watch(); });
}

SignalWatcher::~SignalWatcher() {
  m_done = true;
  const std::uint64_t wake = 1;
  if (m_wake_fd.valid()) {
    // Nothing to do on failure: the watcher then sees m_done within a tick.
    (void)!::write(m_wake_fd.fd, &wake, sizeof wake);
  }
  m_thread.join();
  std::lock_guard lock(m_mutex);
  if (m_phase == Phase::loading) {
    pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
  }
}

void SignalWatcher::serving(RunningServer* server) {
  std::lock_guard lock(m_mutex);
  m_server = server;
  m_phase = server != nullptr ? Phase::serving : Phase::stopped;
}

void SignalWatcher::remove_on_early_exit(std::string path) {
  std::lock_guard lock(m_mutex);
  m_early_exit_path = std::move(path);
}

// Waits for a signal or the wake-up of the destructor, so that the process ends as soon as
// the command does. Without the descriptors (none left to open) it looks for both every tick.
void SignalWatcher::watch() {
  const timespec tick{0, 100'000'000};
  std::array<pollfd, 2> watched{{{m_signal_fd.fd, POLLIN, 0}, {m_wake_fd.fd, POLLIN, 0}}};
  const bool by_descriptor = m_signal_fd.valid() && m_wake_fd.valid();
  while (!m_done) {
    if (!by_descriptor) {
      if (int sig = sigtimedwait(&m_signals, nullptr, &tick); sig > 0) {
        on_signal(sig);
      }
      continue;
    }
    if (::poll(watched.data(), watched.size(), -1) <= 0) {
      continue; // EINTR
    }
    signalfd_siginfo info{};
    if ((watched[0].revents & POLLIN) != 0 &&
        ::read(m_signal_fd.fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
      on_signal(static_cast<int>(info.ssi_signo));
    }
  }
}

void SignalWatcher::on_signal(int sig) {
  std::lock_guard lock(m_mutex);
  // A blocked signal is queued even when its action is to ignore it: an ignored SIGINT is
  // dropped here, as the default action would. Once serving, it stops the server, as Go's
  // signal.Notify makes it do upstream.
  if (m_phase == Phase::loading && sig == SIGINT && m_sigint_ignored) {
    return;
  }
  if (m_phase == Phase::loading) {
    if (!m_early_exit_path.empty()) {
      ::unlink(m_early_exit_path.c_str());
    }
    ::signal(sig, SIG_DFL);
    pthread_sigmask(SIG_UNBLOCK, &m_signals, nullptr);
    ::raise(sig);
    return;
  }
  if (m_phase == Phase::stopped) {
    return;
  }
  m_phase = Phase::stopped;
  m_log.log("info", "shutting down...", m_fields);
  m_server->shutdown(std::chrono::system_clock::now() + k_shutdown_grace);
}

RunningServer::~RunningServer() {
  if (m_guard) {
    m_guard->stop_accepting();
  }
}

void RunningServer::shutdown(std::chrono::system_clock::time_point deadline) {
  m_guard->stop_accepting();
  m_server->Shutdown(deadline);
}

Result<RunningServer> start_grpc(int port, const std::string& port_text, RegistryService& registry,
                                 OtherServices& others) {
  google::protobuf::SetLogHandler(keep_fatal_protobuf_logs);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  auto guard = OPM_TRY(ConnectionGuard::listen(port, port_text));
  grpc::ServerBuilder builder;
  // Requests are a few bytes: probing the bandwidth of what clients send (a ping after each
  // request read) only costs every call a ping and its answer.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, k_max_streams_per_connection);
  // gRPC grows its reads toward what a connection delivers at once, up to 4 MiB each; requests
  // are small, and a client flooding frames should not make each read a large buffer.
  builder.AddChannelArgument(GRPC_ARG_TCP_MAX_READ_CHUNK_SIZE, k_max_read_chunk);
  builder.SetMaxSendMessageSize(-1);
  // Reflection lists services in the order they are registered: this is grpc-go's sorted one.
  std::vector<std::string> services;
  if (others.experimental != nullptr) {
    builder.RegisterService(others.experimental);
    services.emplace_back("api.ExperimentalRegistry");
  }
  builder.RegisterService(&registry);
  builder.RegisterService(&others.health);
  builder.RegisterService(&others.reflection_v1);
  services.insert(services.end(),
                  {"api.Registry", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
                   "grpc.reflection.v1alpha.ServerReflection"});
  others.reflection_v1.set_services(std::move(services));
  builder.RegisterCallbackGenericService(&others.unknown);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    return util::fail(Errc::io, fmt::format("failed to listen: listen tcp :{}: bind: address "
                                            "already in use",
                                            port_text));
  }
  guard->serve(*server);
  return RunningServer(std::move(guard), std::move(server));
}

} // namespace opm::serve
