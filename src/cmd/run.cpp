#include "cmd/run.hpp"

#include "cmd/commands.hpp"
#include "cmd/context.hpp"
#include "cmd/parse.hpp"
#include "cmd/tree.hpp"
#include "cmd/usage.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <iostream>

extern char** environ;

namespace opm::cmd {

std::optional<std::string> Environment::get(const std::string& name) const {
  auto it = vars.find(name);
  if (it == vars.end()) {
    return std::nullopt;
  }
  return it->second;
}

namespace {

Environment read_environment() {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string_view::npos) {
      env.vars.emplace(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    }
  }
  return env;
}

int exit_code(const Error& e) {
  switch (e.code()) {
  case Errc::bundle_exists:
    return 2;
  case Errc::version_exists:
    return 3;
  default:
    return 1;
  }
}

// cobra: "Error: <message>", the usage block, and one blank line.
void print_usage_error(Context& ctx, const CLI::App& command, std::string_view message) {
  ctx.err << "Error: " << message << "\n" << usage_text(command, ctx.meta) << "\n";
}

void print_fatal(Context& ctx, FatalStyle style, const Error& e) {
  if (style == FatalStyle::go_log) {
    ctx.err << util::go_log_line(e.describe());
    return;
  }
  ctx.err << util::logrus_line("fatal", e.describe(), ctx.err_is_tty);
}

} // namespace

void build_root(CLI::App& app, Context& ctx, Action& chosen) {
  app.set_help_flag(); // -h/--help is handled as cobra does, for every command
  app.option_defaults()->always_capture_default();
  ctx.meta.describe(
      &app, {.use = "opm",
             .short_text = "operator package manager",
             .long_text = "CLI to interact with operator-registry and build indexes of operator "
                          "content.\n\nTo view help related to alpha features, set HELP_ALPHA=true "
                          "in the environment.",
             .args = Args::none()});
  auto* skip_tls = app.add_flag("--skip-tls", ctx.global.skip_tls,
                                "skip TLS certificate verification for container image registries "
                                "while pulling bundles or index");
  auto* skip_verify = app.add_flag(
      "--skip-tls-verify", ctx.global.skip_tls_verify,
      "skip TLS certificate verification for container image registries while pulling bundles");
  auto* use_http =
      app.add_flag("--use-http", ctx.global.use_http,
                   "use plain HTTP for container image registries while pulling bundles");
  for (auto* flag : {skip_tls, skip_verify, use_http}) {
    ctx.meta.make_persistent(flag);
  }
  ctx.meta.deprecate(skip_tls, "use --use-http and --skip-tls-verify instead");
  app.add_flag("--debug", ctx.global.debug, "enable debug logging")->group("");

  for (const auto& entry : commands()) {
    entry.add(app, ctx, chosen);
  }
}

int execute(CLI::App& app, Context& ctx, Action& chosen, const std::vector<std::string>& args) {
  auto parsed = parse_command_line(app, ctx.meta, args);
  const CLI::App& command = parsed ? *parsed->command : *parsed.error().command;
  if (auto why = deprecation(command, ctx.meta); !why.empty()) {
    ctx.err << fmt::format("Command {} is deprecated, {}\n", util::go_quote(command.get_name()),
                           why);
  }
  if (!parsed) {
    print_usage_error(ctx, command, parsed.error().message);
    return 1;
  }
  ctx.err << parsed->notices;
  for (const auto& setting : parsed->settings) {
    ctx.meta.mark_changed(setting.option);
  }
  if (parsed->help || !is_runnable(command, ctx.meta)) {
    ctx.out << help_text(command, ctx.meta);
    return 0;
  }
  if (auto err = check_command_line(*parsed, ctx.meta)) {
    print_usage_error(ctx, command, *err);
    return 1;
  }

  auto argv = canonical_argv(*parsed);
  std::reverse(argv.begin(), argv.end()); // CLI11 takes the vector reversed
  try {
    app.parse(std::move(argv));
  } catch (const CLI::ParseError& e) {
    print_usage_error(ctx, command, e.what());
    return 1;
  }

  if (!chosen.run) {
    return 0; // a command without work of its own, like cobra's empty Run
  }
  if (chosen.command == nullptr) {
    chosen.command = &command;
  }
  auto result = chosen.run();
  ctx.out.flush();
  if (result) {
    return 0;
  }
  const Error& e = result.error();
  if (e.code() == Errc::usage) {
    print_usage_error(ctx, *chosen.command, e.message());
    return 1;
  }
  if (e.message().empty()) {
    return exit_code(e); // already reported on stdout (validate -o json|yaml)
  }
  if (chosen.before_fatal) {
    chosen.before_fatal();
  }
  print_fatal(ctx, chosen.style, e);
  return exit_code(e);
}

int run(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Context ctx{std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1, read_environment(), {}, {}};
  ctx.meta.show_alpha = ctx.env.get("HELP_ALPHA") == "true";

  CLI::App app{"", "opm"};
  Action chosen;
  build_root(app, ctx, chosen);
  std::vector<std::string> args(argv + 1, argv + argc);
  return execute(app, ctx, chosen, args);
}

} // namespace opm::cmd
