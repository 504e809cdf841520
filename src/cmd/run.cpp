#include "cmd/run.hpp"

#include "cmd/commands.hpp"
#include "cmd/context.hpp"
#include "cmd/usage.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

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
  ctx.err << "Error: " << message << "\n" << usage_text(command) << "\n";
}

void print_fatal(Context& ctx, FatalStyle style, const Error& e) {
  if (style == FatalStyle::go_log) {
    ctx.err << util::go_log_line(e.describe());
    return;
  }
  ctx.err << util::logrus_line("fatal", e.describe(), ctx.err_is_tty);
}

} // namespace

int run(int argc, char** argv) {
  Context ctx{std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1, read_environment(), {}};
  std::ios::sync_with_stdio(false);

  CLI::App app{"", "opm"};
  app.set_help_flag("-h,--help", "help for opm");
  app.require_subcommand(0, 1);
  app.add_flag("--use-http", ctx.global.use_http,
               "use plain HTTP for container image registries while pulling bundles");
  app.add_flag("--skip-tls-verify", ctx.global.skip_tls_verify,
               "skip TLS certificate verification for container image registries while pulling "
               "bundles");
  app.add_flag("--skip-tls", ctx.global.skip_tls,
               "use plain HTTP for container image registries while pulling bundles")
      ->group("");

  Action chosen;
  for (const auto& entry : commands()) {
    entry.add(app, ctx, chosen);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    const CLI::App* target = &app;
    while (!target->get_subcommands().empty()) {
      target = target->get_subcommands().front();
    }
    ctx.out << help_text(*target);
    return 0;
  } catch (const CLI::ParseError& e) {
    const CLI::App* target = &app;
    while (!target->get_subcommands().empty()) {
      target = target->get_subcommands().front();
    }
    print_usage_error(ctx, *target, e.what());
    return 1;
  }

  if (!chosen.run) {
    ctx.out << help_text(app);
    return 0;
  }
  auto result = chosen.run();
  ctx.out.flush();
  if (result) {
    return 0;
  }
  const Error& e = result.error();
  if (e.code() == Errc::usage && chosen.command != nullptr) {
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

} // namespace opm::cmd
