#pragma once

#include "util/error.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Running another program and collecting what it prints: the one place that spawns
// processes (credential helpers, container tools, composite template commands).
namespace opm::util {

// The first executable `dir/name` of the colon-separated `path` (an empty entry is the
// current directory), as Go's exec.LookPath searches; a name with a slash is returned as it
// is. nullopt when there is none.
std::optional<std::string> find_on_path(std::string_view name, std::string_view path);
// The same with this process's PATH.
std::optional<std::string> find_on_path(std::string_view name);

struct ProcessSpec {
  std::string exe;               // the file to run, already looked up
  std::vector<std::string> argv; // argv[0] included
  // Written to the child's standard input, which is then closed; nullopt: the child shares
  // this process's standard input.
  std::optional<std::string> input = std::nullopt;
  std::filesystem::path cwd = {}; // empty: this process's
  // "KEY=value" entries; nullopt: this process's environment.
  std::optional<std::vector<std::string>> env = std::nullopt;
  // Killed (SIGKILL) once it has run this long.
  std::optional<std::chrono::milliseconds> time_limit = std::nullopt;
  // false: the child writes to this process's standard error.
  bool capture_stderr = true;
  // Bytes kept of each stream; the rest is read and dropped.
  std::size_t output_limit = std::numeric_limits<std::size_t>::max();
};

struct ProcessOutcome {
  std::string out;
  std::string err;
  int wait_status = 0;
  bool timed_out = false;
  [[nodiscard]] bool succeeded() const;
  // The exit code; -1 when a signal ended it.
  [[nodiscard]] int exit_code() const;
  // Go's *exec.ExitError text: "exit status N" or "signal: <name>".
  [[nodiscard]] std::string exit_text() const;
};

// Run the program to its end. A program that cannot be started is an error whose message is
// the system's reason ("No such file or directory"; Errc::not_found for a missing file,
// Errc::io otherwise), for the caller to word as its command does.
Result<ProcessOutcome> run_process(const ProcessSpec& spec);

} // namespace opm::util
