#include "cli/command.hpp"

#include <CLI/CLI.hpp>

namespace opm::cli {

CLI::App* add_command(CLI::App& parent, Context& ctx, CommandSpec spec,
                      std::vector<std::string>* positionals) {
  std::string name = spec.use.substr(0, spec.use.find(' '));
  CLI::App* sub = parent.add_subcommand(name, spec.short_text);
  // CLI11 copies the parent's group to a new subcommand; a hidden parent (alpha) must not
  // hide its children, as cobra lists them in the parent's own help.
  sub->group(spec.hidden || !spec.deprecated.empty() ? "" : "Subcommands");
  if (positionals != nullptr) {
    sub->add_option("arguments", *positionals);
  }
  ctx.meta.describe(sub, std::move(spec));
  return sub;
}

} // namespace opm::cli
