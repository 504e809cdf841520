#pragma once

#include "cmd/context.hpp"

#include <span>
#include <string>
#include <vector>

namespace opm::cmd {

using AddCommand = void (*)(CLI::App& parent, Context& ctx, Action& chosen);

struct CommandEntry {
  const char* name;
  AddCommand add;
};

// The whole command surface. Help lists commands sorted by name, as cobra does.
std::span<const CommandEntry> commands();
// The subcommands of the hidden `opm alpha` group.
std::span<const CommandEntry> alpha_commands();

// Adds a subcommand described as upstream's cobra.Command (name = first word of
// spec.use). When `positionals` is given it receives every positional argument; the
// argument count is checked against spec.args before the callback runs.
CLI::App* add_command(CLI::App& parent, Context& ctx, CommandSpec spec,
                      std::vector<std::string>* positionals = nullptr);

void add_init(CLI::App& parent, Context& ctx, Action& chosen);
void add_render(CLI::App& parent, Context& ctx, Action& chosen);
void add_registry(CLI::App& parent, Context& ctx, Action& chosen);
void add_migrate(CLI::App& parent, Context& ctx, Action& chosen);
void add_validate(CLI::App& parent, Context& ctx, Action& chosen);
void add_generate(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_list(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_render_graph(CLI::App& parent, Context& ctx, Action& chosen);
void add_version(CLI::App& parent, Context& ctx, Action& chosen);
void add_completion(CLI::App& parent, Context& ctx, Action& chosen);
void add_help(CLI::App& parent, Context& ctx, Action& chosen);
void add_generate_man(CLI::App& parent, Context& ctx, Action& chosen);

} // namespace opm::cmd
