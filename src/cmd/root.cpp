#include "cli/execute.hpp"
#include "cmd/commands.hpp"
#include "cmd/serve_program.hpp"
#include "util/fd_output.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <array>
#include <iostream>

namespace opm::cmd {

// Hidden `__pull`: drives the registry client for its test suite (pull_debug.cpp).
void add_pull_debug(CLI::App& parent, Context& ctx, Action& chosen);
// Hidden `__push`: pushes an OCI layout image with the registry client (push_debug.cpp).
void add_push_debug(CLI::App& parent, Context& ctx, Action& chosen);
// Hidden `__build-image`: an image of a root directory, for scripts/build-image.sh.
void add_build_image_debug(CLI::App& parent, Context& ctx, Action& chosen);

namespace {
// clang-format off
constexpr CommandEntry k_commands[] = {
    {"alpha", add_alpha},
    {"completion", add_completion},
    {"generate", add_generate},
    {"help", add_help},
    {"index", add_index},
    {"init", add_init},
    {"migrate", add_migrate},
    {"registry", add_registry},
    {"render", add_render},
    {"serve", add_serve},
    {"validate", add_validate},
    {"version", add_version},
    {"__build-image", add_build_image_debug},
    {"__generate-man", add_generate_man},
    {"__pull", add_pull_debug},
    {"__push", add_push_debug},
};
// clang-format on

// Rows are added here as alpha subcommands are written, e.g. {"list", add_alpha_list}.
constexpr std::array<CommandEntry, 10> k_alpha_commands{
    {{"bundle", add_alpha_bundle},
     {"cache", add_alpha_cache},
     {"catalog", add_alpha_catalog},
     {"convert-template", add_alpha_convert_template},
     {"diff", add_alpha_diff},
     {"filter", add_alpha_filter},
     {"list", add_alpha_list},
     {"pin", add_alpha_pin},
     {"render-graph", add_alpha_render_graph},
     {"render-template", add_alpha_render_template}}};
} // namespace

std::span<const CommandEntry> commands() { return k_commands; }
std::span<const CommandEntry> alpha_commands() { return k_alpha_commands; }

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

int run(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  util::FdOutput stdout_buffer(STDOUT_FILENO, "/dev/stdout");
  std::ostream out(&stdout_buffer);
  auto env = cli::read_environment();
  bool escapes = cli::stderr_takes_escapes(env);
  Context ctx{{out, std::cerr, escapes, std::move(env), {}, [&stdout_buffer] {
                 return stdout_buffer.flush();
               }}};
  ctx.meta.show_alpha = ctx.env.get("HELP_ALPHA") == "true";
  ctx.hand_over = [argv] { hand_over_to_serve_program(argv); };

  CLI::App app{"", "opm"};
  Action chosen;
  build_root(app, ctx, chosen);
  std::vector<std::string> args(argv + 1, argv + argc);
  return cli::execute(app, ctx, chosen, args);
}

} // namespace opm::cmd
