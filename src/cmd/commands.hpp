#pragma once

#include "cmd/context.hpp"

#include <span>
#include <string>
#include <vector>

namespace opm::cmd {

// Parse argv, run the chosen subcommand once, print its error, return the exit code
// (0 ok, 1 error, 2 bundle already added, 3 package version already added).
int run(int argc, char** argv);

// The root command `opm`, its global flags and every subcommand of the table.
void build_root(CLI::App& app, Context& ctx, Action& chosen);

using AddCommand = void (*)(CLI::App& parent, Context& ctx, Action& chosen);

struct CommandEntry {
  const char* name;
  AddCommand add;
};

// The whole command surface. Help lists commands sorted by name, as cobra does.
std::span<const CommandEntry> commands();
// The subcommands of the hidden `opm alpha` group.
std::span<const CommandEntry> alpha_commands();

void add_init(CLI::App& parent, Context& ctx, Action& chosen);
void add_render(CLI::App& parent, Context& ctx, Action& chosen);
void add_index(CLI::App& parent, Context& ctx, Action& chosen);
void add_registry(CLI::App& parent, Context& ctx, Action& chosen);
void add_migrate(CLI::App& parent, Context& ctx, Action& chosen);
void add_serve(CLI::App& parent, Context& ctx, Action& chosen);
void add_validate(CLI::App& parent, Context& ctx, Action& chosen);
void add_generate(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_bundle(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_cache(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_catalog(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_filter(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_list(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_pin(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_render_graph(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_render_template(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_convert_template(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha_diff(CLI::App& parent, Context& ctx, Action& chosen);
void add_version(CLI::App& parent, Context& ctx, Action& chosen);
void add_completion(CLI::App& parent, Context& ctx, Action& chosen);
void add_help(CLI::App& parent, Context& ctx, Action& chosen);
void add_generate_man(CLI::App& parent, Context& ctx, Action& chosen);

} // namespace opm::cmd
