#include "registry/keychain.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <sys/stat.h>
#include <sys/wait.h>

namespace opm::registry {

namespace {

constexpr auto k_helper_time_limit = std::chrono::seconds(60);
constexpr std::string_view k_not_found = "credentials not found in native keychain";

struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (::pipe2(fd, O_CLOEXEC) != 0) {
      fd[0] = fd[1] = -1;
    }
  }
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_end(int i) {
    if (fd[i] >= 0) {
      ::close(fd[i]);
      fd[i] = -1;
    }
  }
  [[nodiscard]] bool ok() const { return fd[0] >= 0; }
};

std::string find_on_path(const Options& options, const std::string& program) {
  std::string path = options.getenv("PATH").value_or("/usr/local/bin:/usr/bin:/bin");
  std::size_t start = 0;
  for (;;) {
    auto colon = path.find(':', start);
    std::string candidate = colon == start ? std::string(".") : path.substr(start, colon - start);
    candidate.reserve(candidate.size() + 1 + program.size());
    candidate.append(1, '/').append(program);
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string::npos) {
      return {};
    }
    start = colon + 1;
  }
}

struct HelperRun {
  int status = -1;
  std::string out;
  std::string err;
  bool timed_out = false;
};

Result<HelperRun> run(const Options& options, const std::string& program,
                      const std::string& input) {
  std::string exe = find_on_path(options, program);
  if (exe.empty()) {
    return util::fail(
        Errc::not_found,
        fmt::format("credential helper {}: executable file not found in $PATH", program));
  }
  Pipe in;
  Pipe out;
  Pipe err;
  if (!in.ok() || !out.ok() || !err.ok()) {
    return util::fail(Errc::io, "credential helper: cannot create pipes");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<std::string> env_strings;
  env_strings.reserve(options.env.size());
  for (const auto& [k, v] : options.env) {
    env_strings.push_back(k + "=" + v);
  }
  std::vector<char*> envp;
  for (auto& e : env_strings) {
    envp.push_back(e.data());
  }
  envp.push_back(nullptr);
  std::string arg0 = program;
  std::string arg1 = "get";
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return util::fail(Errc::io,
                      fmt::format("credential helper {}: {}", program, std::strerror(rc)));
  }
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);
  // The input is tiny: a server name fits in the pipe buffer.
  // A helper that exits without reading must not kill us with SIGPIPE: block it for this
  // thread during the write and swallow a pending one.
  sigset_t pipe_set;
  sigset_t old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  ssize_t written = ::write(in.fd[1], input.data(), input.size());
  if (written < 0 && errno == EPIPE) {
    timespec zero{};
    ::sigtimedwait(&pipe_set, nullptr, &zero);
  }
  ::pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  in.close_end(1);

  HelperRun result;
  auto deadline = std::chrono::steady_clock::now() + k_helper_time_limit;
  pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[4096];
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    int n = ::poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
        if (got <= 0) {
          fds[i].fd = -1;
          --open_fds;
        } else if ((i == 0 ? result.out : result.err).size() < (1U << 20)) {
          (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(got));
        }
      }
    }
  }
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  return result;
}

Result<std::optional<Credentials>> ask(const Options& options, const std::string& helper,
                                       const std::string& server) {
  std::string program = "docker-credential-" + helper;
  auto r = OPM_TRY(run(options, program, server));
  if (r.timed_out) {
    return util::fail(Errc::network,
                      fmt::format("credential helper {} timed out after 60s", program));
  }
  if (r.status != 0) {
    if (r.out.find(k_not_found) != std::string::npos ||
        r.err.find(k_not_found) != std::string::npos) {
      return std::optional<Credentials>{};
    }
    // The helper's output is not echoed: it might hold part of a secret.
    return util::fail(Errc::network, fmt::format("error getting credentials from helper {}: "
                                                 "exit status {}",
                                                 program, r.status));
  }
  auto doc = nlohmann::json::parse(r.out, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return util::fail(
        Errc::invalid,
        fmt::format("error getting credentials from helper {}: invalid JSON output", program));
  }
  Credentials c;
  c.source = "credential helper " + program;
  std::string user = doc.value("Username", "");
  std::string secret = doc.value("Secret", "");
  if (user == "<token>") {
    c.identity_token = secret;
  } else {
    c.username = user;
    c.password = secret;
  }
  if (c.username.empty() && c.password.empty() && c.identity_token.empty()) {
    return std::optional<Credentials>{};
  }
  return std::optional<Credentials>{std::move(c)};
}

} // namespace

Result<std::optional<Credentials>> run_credential_helper(const Options& options,
                                                         const std::string& helper,
                                                         const std::string& server) {
  if (server == "docker.io") {
    auto first = OPM_TRY(ask(options, helper, "https://index.docker.io/v1/"));
    if (first) {
      return first;
    }
  }
  options.log.debug("asking credential helper docker-credential-{} for {}", helper, server);
  return ask(options, helper, server);
}

} // namespace opm::registry
