#include "index/container_tool.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <sys/wait.h>

extern char** environ;

namespace opm::index {

namespace {

struct Finished {
  std::string out;
  std::string err;
  int status = 0;
  [[nodiscard]] bool ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }
  // Go's *exec.ExitError text.
  [[nodiscard]] std::string exit_text() const {
    if (WIFSIGNALED(status)) {
      return fmt::format("signal: {}", ::strsignal(WTERMSIG(status)));
    }
    return fmt::format("exit status {}", WEXITSTATUS(status));
  }
};

class Pipe {
public:
  Pipe() {
    if (::pipe2(m_fds.data(), O_CLOEXEC) != 0) {
      m_fds = {-1, -1};
    }
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  [[nodiscard]] bool valid() const { return m_fds[0] >= 0; }
  [[nodiscard]] int read_end() const { return m_fds[0]; }
  [[nodiscard]] int write_end() const { return m_fds[1]; }
  void close_read() { close_fd(m_fds[0]); }
  void close_write() { close_fd(m_fds[1]); }

private:
  static void close_fd(int& fd) {
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  }
  std::array<int, 2> m_fds{-1, -1};
};

// Drains both pipes until the child closes them.
void collect(Pipe& out, Pipe& err, Finished& done) {
  std::array<pollfd, 2> fds{pollfd{out.read_end(), POLLIN, 0}, pollfd{err.read_end(), POLLIN, 0}};
  std::array<std::string*, 2> sinks{&done.out, &done.err};
  std::array<char, 8192> buffer{};
  int open = 2;
  while (open > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) {
        continue;
      }
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) {
        continue;
      }
      auto n = ::read(fds[i].fd, buffer.data(), buffer.size());
      if (n > 0) {
        sinks[i]->append(buffer.data(), static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

Result<Finished> run(const std::vector<std::string>& argv) {
  Pipe out;
  Pipe err;
  if (!out.valid() || !err.valid()) {
    return util::fail(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, out.write_end(), STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, err.write_end(), STDERR_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return util::fail(Errc::io, rc == ENOENT
                                    ? fmt::format("exec: \"{}\": executable file not "
                                                  "found in $PATH",
                                                  argv[0])
                                    : fmt::format("fork/exec {}: {}", argv[0], std::strerror(rc)));
  }
  out.close_write();
  err.close_write();
  Finished done;
  collect(out, err, done);
  while (::waitpid(pid, &done.status, 0) < 0 && errno == EINTR) {
  }
  return done;
}

void note(const ToolLog& log, std::string_view level, const std::string& message) {
  if (log.write) {
    log.write(level, message);
  }
}

// Go's fmt of a []string: "[podman create REF ]".
std::string argv_text(const std::vector<std::string>& argv) {
  std::string text = "[";
  for (const auto& a : argv) {
    text += (text.size() > 1 ? " " : "") + a;
  }
  return text + "]";
}

// Runs one tool command as upstream's runner does for every verb but pull and build:
// "running <tool> <verb>" at info, the argv at debug.
Result<Finished> run_verb(const std::vector<std::string>& argv, const ToolLog& log) {
  note(log, "info", fmt::format("running {} {}", argv[0], argv[1]));
  note(log, "debug", argv_text(argv));
  return run(argv);
}

} // namespace

ContainerTool container_tool(const std::string& name, ContainerTool fallback) {
  if (name == "podman") {
    return ContainerTool::podman;
  }
  if (name == "docker") {
    return ContainerTool::docker;
  }
  if (name == "none") {
    return ContainerTool::none;
  }
  return fallback;
}

std::string tool_name(ContainerTool tool) {
  switch (tool) {
  case ContainerTool::podman:
    return "podman";
  case ContainerTool::docker:
    return "docker";
  case ContainerTool::none:
    break;
  }
  return "";
}

Result<void> build_image(ContainerTool tool, const std::filesystem::path& dockerfile,
                         const std::string& tag, const ToolLog& log) {
  if (tool == ContainerTool::none) {
    return util::fail(Errc::invalid,
                      "unable to perform build: \"build\" is not supported by tool \"\"");
  }
  std::vector<std::string> argv{tool_name(tool), "build"};
  if (tool == ContainerTool::podman) {
    argv.insert(argv.end(), {"--format", "docker"});
  }
  argv.insert(argv.end(), {"-f", dockerfile.string(), "-t", tag, "."});
  note(log, "info", fmt::format("running {} build", argv[0]));
  note(log, "info", argv_text(argv));
  auto done = OPM_TRY(run(argv));
  if (!done.ok()) {
    note(log, "error", done.out + done.err);
    return util::fail(Errc::io, fmt::format("error building image: {}. {}", done.out + done.err,
                                            done.exit_text()));
  }
  return {};
}

Result<void> pull_image(ContainerTool tool, const std::string& ref, bool plain_http,
                        const ToolLog& log) {
  std::vector<std::string> pull{tool_name(tool), "pull"};
  if (tool == ContainerTool::podman && plain_http) {
    pull.emplace_back("--tls-verify=false");
  }
  pull.push_back(ref);
  std::string shown = log.path.empty() ? pull[0] : log.path;
  for (std::size_t i = 1; i < pull.size(); ++i) {
    shown += " " + pull[i];
  }
  note(log, "info", "running " + shown);
  auto pulled = OPM_TRY(run(pull));
  if (!pulled.ok()) {
    note(log, "error", pulled.out + pulled.err);
    return util::fail(Errc::io, fmt::format("error pulling image: {}. {}", pulled.out + pulled.err,
                                            pulled.exit_text()));
  }
  return {};
}

Result<std::map<std::string, std::string>> pull_labels(ContainerTool tool, const std::string& ref,
                                                       bool plain_http, const ToolLog& log) {
  OPM_TRY(pull_image(tool, ref, plain_http, log));
  note(log, "info", "Getting label data from previous image");
  auto inspected = OPM_TRY(run_verb({tool_name(tool), "inspect", ref}, log));
  if (!inspected.ok()) {
    note(log, "error", inspected.out);
  }
  auto data = nlohmann::json::parse(inspected.out, nullptr, false);
  const char* key = tool == ContainerTool::podman ? "/0/Labels" : "/0/Config/Labels";
  if (!inspected.ok() || data.is_discarded() || !data.contains(nlohmann::json::json_pointer(key))) {
    return util::fail(Errc::invalid, "Unable to parse label data from container");
  }
  std::map<std::string, std::string> labels;
  for (const auto& [name, value] : data.at(nlohmann::json::json_pointer(key)).items()) {
    if (value.is_string()) {
      labels[name] = value.get<std::string>();
    }
  }
  return labels;
}

Result<void> copy_image_files(ContainerTool tool, const std::string& ref,
                              const std::filesystem::path& dir, const ToolLog& log) {
  const auto name = tool_name(tool);
  auto created = OPM_TRY(run_verb({name, "create", ref, ""}, log));
  if (!created.ok()) {
    return util::fail(Errc::io, fmt::format("error creating container {}: {}: {}", created.out,
                                            created.exit_text(), created.err));
  }
  std::string id = created.out;
  while (!id.empty() && id.back() == '\n') {
    id.pop_back();
  }
  auto copied = OPM_TRY(run_verb({name, "cp", id + ":/.", dir.string()}, log));
  if (!copied.ok()) {
    note(log, "error", copied.out + copied.err);
  }
  auto removed = OPM_TRY(run_verb({name, "rm", id}, log));
  if (!copied.ok()) {
    return util::fail(Errc::io, fmt::format("error copying container directory {}: {}",
                                            copied.out + copied.err, copied.exit_text()));
  }
  if (!removed.ok()) {
    note(log, "error", removed.out + removed.err);
    return util::fail(Errc::io, fmt::format("error removing container {}: {}",
                                            removed.out + removed.err, removed.exit_text()));
  }
  return {};
}

} // namespace opm::index
