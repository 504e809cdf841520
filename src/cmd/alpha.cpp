#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>

namespace opm::cmd {

// The `alpha` group: left out of help unless HELP_ALPHA=true. Its subcommands come from
// alpha_commands() in root.cpp; each is added like a top-level command, with the
// alpha App as parent.
void add_alpha(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* alpha = add_command(parent, ctx,
                            {.use = "alpha",
                             .short_text = "Run an alpha subcommand",
                             .args = Args::none(),
                             .alpha = true});
  for (const auto& entry : alpha_commands()) {
    entry.add(*alpha, ctx, chosen);
  }
}

} // namespace opm::cmd
