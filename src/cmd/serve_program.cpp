#include "cmd/serve_program.hpp"

#include "cmd/health_probe.hpp"

#include <climits>
#include <fmt/format.h>

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <sys/prctl.h>

// Defined by the serve module (src/serve/module.cpp, src/serve/probe.cpp), which only opm-serve
// links: null in `opm`.
extern "C" const opm::serve::ModuleEntry* opm_serve_module_entry() __attribute__((weak));
extern "C" const opm::serve::ProbeEntry* opm_serve_probe_entry() __attribute__((weak));

namespace opm::cmd {

namespace fs = std::filesystem;

namespace {

// errno of the last hand-over that did not happen; 0 when none was tried. Plain data, so that
// hand_over_before_start() can set it.
int g_hand_over_errno = 0;

// Where opm-serve is looked for: next to the running executable, then in ../lib/opm relative
// to it. Built from system calls and byte copies only (see hand_over_before_start()).
struct ProgramPaths {
  std::array<char, PATH_MAX> beside{};
  std::array<char, PATH_MAX> installed{};
  bool known = false;
};

bool join(std::array<char, PATH_MAX>& out, std::string_view dir, std::string_view tail) {
  if (dir.size() + tail.size() + 1 > out.size()) {
    return false;
  }
  std::memcpy(out.data(), dir.data(), dir.size());
  std::memcpy(out.data() + dir.size(), tail.data(), tail.size());
  out[dir.size() + tail.size()] = '\0';
  return true;
}

ProgramPaths program_paths() {
  ProgramPaths paths;
  std::array<char, PATH_MAX> exe{};
  const ssize_t length = ::readlink("/proc/self/exe", exe.data(), exe.size() - 1);
  if (length <= 0) {
    return paths;
  }
  const std::string_view path(exe.data(), static_cast<std::size_t>(length));
  const std::string_view dir = path.substr(0, path.rfind('/') + 1);
  paths.known = join(paths.beside, dir, serve::k_program_file) &&
                join(paths.installed, dir, serve::k_installed_program);
  return paths;
}

// The first of the places that exists, or null.
const char* existing_program(const ProgramPaths& paths) {
  for (const auto* path : {paths.beside.data(), paths.installed.data()}) {
    if (paths.known && ::access(path, F_OK) == 0) {
      return path;
    }
  }
  return nullptr;
}

// execve() of the first opm-serve that exists; returns, with g_hand_over_errno set, when
// none could be run.
void exec_program(char** argv, char** envp) {
  const ProgramPaths paths = program_paths();
  if (const char* path = existing_program(paths)) {
    ::execve(path, argv, envp);
    g_hand_over_errno = errno;
  }
}

// The first opm-serve that exists, or the error naming where it was looked for.
Result<fs::path> find_program() {
  const ProgramPaths paths = program_paths();
  if (!paths.known) {
    return util::fail(Errc::not_found,
                      fmt::format("serve program not found: install {} next to the opm executable",
                                  serve::k_program_file));
  }
  if (const char* path = existing_program(paths)) {
    return fs::path(path).lexically_normal();
  }
  return util::fail(Errc::not_found,
                    fmt::format("serve program not found: install {} at {} or {}",
                                serve::k_program_file, paths.beside.data(),
                                fs::path(paths.installed.data()).lexically_normal().string()));
}

Error missing_program() {
  auto program = find_program();
  if (!program) {
    return program.error();
  }
  return Error(Errc::io, fmt::format("cannot run {}: {}", program->string(),
                                     g_hand_over_errno != 0 ? std::strerror(g_hand_over_errno)
                                                            : "this command was not handed over"));
}

} // namespace

bool serve_linked() { return &opm_serve_module_entry != nullptr; }

bool handed_over_at_start(int argc, char** argv) {
  return argc > 0 &&
         (invoked_as_health_probe(argv[0]) || (argc > 1 && std::string_view(argv[1]) == "serve"));
}

void hand_over_before_start(int argc, char** argv, char** envp) {
  if (!serve_linked() && handed_over_at_start(argc, argv)) {
    exec_program(argv, envp);
  }
}

void hand_over_to_serve_program(char** argv) {
  if (!serve_linked()) {
    exec_program(argv, environ);
  }
}

void keep_invoked_name(const char* argv0) {
  if (!serve_linked() || argv0 == nullptr) {
    return;
  }
  const std::string name = fs::path(argv0).filename().string();
  if (!name.empty()) {
    ::prctl(PR_SET_NAME, name.c_str()); // the kernel keeps the first 15 bytes
  }
}

Result<const serve::ModuleEntry*> serve_module() {
  if (!serve_linked()) {
    return std::unexpected(missing_program());
  }
  return opm_serve_module_entry();
}

Result<const serve::ProbeEntry*> probe_module() {
  if (&opm_serve_probe_entry == nullptr) {
    return std::unexpected(missing_program());
  }
  return opm_serve_probe_entry();
}

} // namespace opm::cmd
