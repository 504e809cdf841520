#pragma once

#include "cli/meta.hpp"
#include "util/error.hpp"

#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace opm::cli {

// The environment, read once at start.
struct Environment {
  std::map<std::string, std::string> vars;
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const;
};

// This process's environment.
Environment read_environment();

// Whether stderr is a terminal that takes escape codes (colours, progress lines): not when
// it is no terminal, when NO_COLOR is set (no-color.org) or when TERM is "dumb".
bool stderr_takes_escapes(const Environment& env);

// What every command sees: the streams, the environment and the command descriptions.
struct Context {
  std::ostream& out; // the product only: catalogs, Dockerfiles, tables
  std::ostream& err; // diagnostics
  bool err_is_tty = false;
  Environment env;
  // Use lines, long help, argument rules, deprecations; and, after parsing, which flags
  // the user set (meta.changed(option), pflag's Changed).
  CommandMeta meta{};
  // Delivers what is still buffered for `out` and says whether all of it arrived; a
  // command that succeeded fails when it did not. Unset: `out` needs no such check.
  std::function<Result<void>()> deliver_out{};
  // Replaces this process with the executable that runs the commands marked
  // CommandSpec::in_serve_program, given the same command line; returns only when it cannot.
  std::function<void()> hand_over{};
};

// How a subcommand reports a fatal error, as upstream's command does.
enum class FatalStyle {
  logrus, // time="..." level=fatal msg="..." (validate, init, alpha list, generate)
  go_log, // 2026/11/21 22:53:42 message (render, render-graph, templates)
};

// What a subcommand's callback chose to run. `run` returns an error to report;
// Errc::usage errors print as cobra does ("Error: ..." plus the usage block).
// `run` may change `style` before returning an error when one command fails in both
// styles (generate dockerfile).
struct Action {
  std::function<Result<void>()> run;
  FatalStyle style = FatalStyle::logrus;
  const CLI::App* command = nullptr;
  // A server keeps running until it is stopped; every other command ends when its work is
  // done and may use the bulk heap (util/bulk_heap.hpp).
  bool long_running = false;
};

} // namespace opm::cli
