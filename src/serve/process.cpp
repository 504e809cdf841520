#include "serve/process.hpp"

#include "util/fs.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <google/protobuf/stubs/logging.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <sys/stat.h>

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
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, mode);
  if (fd < 0) {
    log.log("warning", "unable to set termination log path",
            {{"error", fmt::format("open {}: {}", path, util::errno_text(errno))}});
    return false;
  }
  ::close(fd);
  return true;
}

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

SignalWatcher::SignalWatcher(Logger& log, std::vector<util::LogField> fields)
    : m_log(log), m_fields(std::move(fields)) {
  sigemptyset(&m_signals);
  sigaddset(&m_signals, SIGINT);
  sigaddset(&m_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &m_signals, &m_previous);
  m_thread = std::thread([this] { watch(); });
}

SignalWatcher::~SignalWatcher() {
  m_done = true;
  m_thread.join();
  pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
}

void SignalWatcher::serving(grpc::Server* server) {
  std::lock_guard lock(m_mutex);
  m_server = server;
}

void SignalWatcher::watch() {
  const timespec tick{0, 100'000'000};
  while (!m_done) {
    int sig = sigtimedwait(&m_signals, nullptr, &tick);
    if (sig > 0) {
      on_signal(sig);
      return;
    }
  }
}

void SignalWatcher::on_signal(int sig) {
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

Result<std::unique_ptr<grpc::Server>> start_grpc(int port, const std::string& port_text,
                                                 RegistryService& registry, OtherServices& others) {
  google::protobuf::SetLogHandler(keep_fatal_protobuf_logs);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Requests are a few bytes: probing the bandwidth of what clients send (a ping after each
  // request read) only costs every call a ping and its answer.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  builder.SetMaxSendMessageSize(-1);
  int bound = 0;
  builder.AddListeningPort(fmt::format("[::]:{}", port), grpc::InsecureServerCredentials(), &bound);
  // Reflection lists services in the order they are registered: this is grpc-go's sorted one.
  if (others.experimental != nullptr) {
    builder.RegisterService(others.experimental);
  }
  builder.RegisterService(&registry);
  builder.RegisterService(&others.health);
  builder.RegisterCallbackGenericService(&others.unknown);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || bound == 0) {
    return util::fail(Errc::io, fmt::format("failed to listen: listen tcp :{}: bind: address "
                                            "already in use",
                                            port_text));
  }
  return server;
}

} // namespace opm::serve
