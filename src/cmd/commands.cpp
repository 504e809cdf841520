#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>

#include <array>

namespace opm::cmd {

// Hidden `__pull`: drives the registry client for its test suite (pull_debug.cpp).
void add_pull_debug(CLI::App& parent, Context& ctx, Action& chosen);

namespace {
constexpr CommandEntry k_commands[] = {
    {"alpha", add_alpha},
    {"completion", add_completion},
    {"generate", add_generate},
    {"help", add_help},
    {"init", add_init},
    {"migrate", add_migrate},
    {"registry", add_registry},
    {"render", add_render},
    {"validate", add_validate},
    {"version", add_version},
    {"__generate-man", add_generate_man},
    {"__pull", add_pull_debug},
};

// Rows are added here as alpha subcommands are written, e.g. {"list", add_alpha_list}.
constexpr std::array<CommandEntry, 2> k_alpha_commands{
    {{"list", add_alpha_list}, {"render-graph", add_alpha_render_graph}}};
} // namespace

std::span<const CommandEntry> commands() { return k_commands; }
std::span<const CommandEntry> alpha_commands() { return k_alpha_commands; }

CLI::App* add_command(CLI::App& parent, Context& ctx, CommandSpec spec,
                      std::vector<std::string>* positionals) {
  std::string name = spec.use.substr(0, spec.use.find(' '));
  CLI::App* sub = parent.add_subcommand(name, spec.short_text);
  if (spec.hidden || !spec.deprecated.empty()) {
    sub->group("");
  }
  if (positionals != nullptr) {
    sub->add_option("arguments", *positionals);
  }
  ctx.meta.describe(sub, std::move(spec));
  return sub;
}

} // namespace opm::cmd
