#include "util/process.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>

extern char** environ;

namespace opm::util {

namespace {

struct Pipe {
  Fd read_end;
  Fd write_end;
  static Result<Pipe> make() {
    std::array<int, 2> fds{-1, -1};
    if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
      return fail(Errc::io, "pipe: " + errno_text(errno));
    }
    return Pipe{Fd(fds[0]), Fd(fds[1])};
  }
};

// Owns posix_spawn's file actions.
class SpawnActions {
public:
  SpawnActions() { ::posix_spawn_file_actions_init(&m_actions); }
  ~SpawnActions() { ::posix_spawn_file_actions_destroy(&m_actions); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  void dup_to(int fd, int target) { ::posix_spawn_file_actions_adddup2(&m_actions, fd, target); }
  void chdir_to(const std::filesystem::path& dir) {
    ::posix_spawn_file_actions_addchdir_np(&m_actions, dir.c_str());
  }
  [[nodiscard]] const posix_spawn_file_actions_t* get() const { return &m_actions; }

private:
  posix_spawn_file_actions_t m_actions{};
};

// A child that stops reading its input must not end this process with SIGPIPE: the signal is
// blocked in this thread while the input is written, and a pending one is swallowed.
class SigpipeBlocked {
public:
  SigpipeBlocked() {
    sigemptyset(&m_pipe);
    sigaddset(&m_pipe, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &m_pipe, &m_old);
  }
  ~SigpipeBlocked() {
    timespec zero{};
    while (::sigtimedwait(&m_pipe, nullptr, &zero) > 0) {
    }
    ::pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

private:
  sigset_t m_pipe{};
  sigset_t m_old{};
};

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) {
    out.push_back(s.data());
  }
  out.push_back(nullptr);
  return out;
}

struct Streams {
  std::optional<Pipe> input;
  Pipe out;
  std::optional<Pipe> err;
};

// Feeds the input and drains the outputs until the child closes them or time runs out.
void exchange(Streams& s, std::string_view input, const ProcessSpec& spec, pid_t pid,
              ProcessOutcome& outcome) {
  enum { in_slot, out_slot, err_slot };
  std::array<pollfd, 3> fds{pollfd{-1, POLLOUT, 0}, pollfd{s.out.read_end.fd, POLLIN, 0},
                            pollfd{s.err ? s.err->read_end.fd : -1, POLLIN, 0}};
  if (s.input) {
    ::fcntl(s.input->write_end.fd, F_SETFL, O_NONBLOCK);
    fds[in_slot].fd = input.empty() ? -1 : s.input->write_end.fd;
    if (input.empty()) {
      s.input->write_end.reset();
    }
  }
  std::array<std::string*, 3> sinks{nullptr, &outcome.out, &outcome.err};
  std::array<char, 65536> buffer{};
  auto deadline = spec.time_limit ? std::chrono::steady_clock::now() + *spec.time_limit
                                  : std::chrono::steady_clock::time_point::max();
  SigpipeBlocked quiet;
  while (fds[out_slot].fd >= 0 || fds[err_slot].fd >= 0) {
    int wait_ms = -1;
    if (spec.time_limit) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        outcome.timed_out = true;
        ::kill(pid, SIGKILL);
        return;
      }
      wait_ms = static_cast<int>(left.count());
    }
    if (::poll(fds.data(), fds.size(), wait_ms) < 0) {
      if (errno == EINTR) {
        continue;
      }
      return;
    }
    if (fds[in_slot].fd >= 0 && fds[in_slot].revents != 0) {
      auto n = ::write(fds[in_slot].fd, input.data(), input.size());
      if (n > 0) {
        input.remove_prefix(static_cast<std::size_t>(n));
      }
      if (input.empty() || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        fds[in_slot].fd = -1;
        s.input->write_end.reset();
      }
    }
    for (int slot : {out_slot, err_slot}) {
      auto& p = fds[static_cast<std::size_t>(slot)];
      if (p.fd < 0 || p.revents == 0) {
        continue;
      }
      auto n = ::read(p.fd, buffer.data(), buffer.size());
      if (n > 0) {
        auto& sink = *sinks[static_cast<std::size_t>(slot)];
        auto room = spec.output_limit - std::min(spec.output_limit, sink.size());
        sink.append(buffer.data(), std::min(room, static_cast<std::size_t>(n)));
      } else if (n == 0 || errno != EINTR) {
        p.fd = -1;
      }
    }
  }
}

} // namespace

std::optional<std::string> find_on_path(std::string_view name, std::string_view path) {
  if (name.find('/') != std::string_view::npos) {
    return std::string(name);
  }
  for (const auto& dir : split(path, ':')) {
    auto candidate = (dir.empty() ? std::string(".") : dir) + "/" + std::string(name);
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

std::optional<std::string> find_on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  return find_on_path(name, path != nullptr ? path : "");
}

bool ProcessOutcome::succeeded() const {
  return !timed_out && WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

int ProcessOutcome::exit_code() const {
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

std::string ProcessOutcome::exit_text() const {
  if (WIFSIGNALED(wait_status)) {
    return fmt::format("signal: {}", ::strsignal(WTERMSIG(wait_status)));
  }
  return fmt::format("exit status {}", WEXITSTATUS(wait_status));
}

Result<ProcessOutcome> run_process(const ProcessSpec& spec) {
  auto output = OPM_TRY(Pipe::make());
  Streams streams{std::nullopt, std::move(output), std::nullopt};
  SpawnActions actions;
  if (spec.input) {
    streams.input = OPM_TRY(Pipe::make());
    actions.dup_to(streams.input->read_end.fd, STDIN_FILENO);
  }
  actions.dup_to(streams.out.write_end.fd, STDOUT_FILENO);
  if (spec.capture_stderr) {
    streams.err = OPM_TRY(Pipe::make());
    actions.dup_to(streams.err->write_end.fd, STDERR_FILENO);
  }
  if (!spec.cwd.empty()) {
    actions.chdir_to(spec.cwd);
  }
  auto argv_strings = spec.argv;
  auto argv = c_strings(argv_strings);
  std::vector<std::string> env_strings = spec.env.value_or(std::vector<std::string>{});
  auto envp = c_strings(env_strings);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, spec.exe.c_str(), actions.get(), nullptr, argv.data(),
                         spec.env ? envp.data() : environ);
  if (rc != 0) {
    return fail(rc == ENOENT ? Errc::not_found : Errc::io, errno_text(rc));
  }
  // The child holds the only copies of its ends now.
  if (streams.input) {
    streams.input->read_end.reset();
  }
  streams.out.write_end.reset();
  if (streams.err) {
    streams.err->write_end.reset();
  }
  ProcessOutcome outcome;
  exchange(streams, spec.input.value_or(""), spec, pid, outcome);
  while (::waitpid(pid, &outcome.wait_status, 0) < 0 && errno == EINTR) {
  }
  return outcome;
}

} // namespace opm::util
