#include "cli/execute.hpp"

#include "cli/parse.hpp"
#include "cli/tree.hpp"
#include "cli/usage.hpp"
#include "util/bulk_heap.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

namespace opm::cli {

namespace {

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

int run_chosen(Context& ctx, Action& chosen, const CLI::App& command) {
  if (!chosen.run) {
    return 0; // a command without work of its own, like cobra's empty Run
  }
  if (chosen.command == nullptr) {
    chosen.command = &command;
  }
  if (!chosen.long_running) {
    util::use_bulk_heap();
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
  if (e.reported()) {
    return exit_code(e);
  }
  print_fatal(ctx, chosen.style, e);
  return exit_code(e);
}

// Output that did not arrive whole (a full disk, a closed pipe) turns success into failure.
int check_delivered(Context& ctx, const Action& chosen, int code) {
  ctx.out.flush();
  Result<void> delivered;
  if (ctx.deliver_out) {
    delivered = ctx.deliver_out();
  } else if (!ctx.out) {
    delivered = util::fail(Errc::io, "write: the output stream failed");
  }
  if (delivered || code != 0) {
    return code;
  }
  print_fatal(ctx, chosen.style, delivered.error());
  return 1;
}

int execute_command_line(CLI::App& app, Context& ctx, Action& chosen,
                         const std::vector<std::string>& args) {
  auto parsed = parse_command_line(app, ctx.meta, args);
  const CLI::App& command = parsed ? *parsed->command : *parsed.error().command;
  if (const CommandSpec* spec = ctx.meta.spec(&command);
      parsed && ctx.hand_over && spec != nullptr && spec->in_serve_program) {
    ctx.hand_over();
  }
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
  return run_chosen(ctx, chosen, command);
}

} // namespace

int execute(CLI::App& app, Context& ctx, Action& chosen, const std::vector<std::string>& args) {
  const int code = execute_command_line(app, ctx, chosen, args);
  return check_delivered(ctx, chosen, code);
}

} // namespace opm::cli
