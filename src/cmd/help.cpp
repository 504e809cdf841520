#include "cli/parse.hpp"
#include "cli/usage.hpp"
#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace opm::cmd {

// cobra's default `help [command]`.
void add_help(CLI::App& parent, Context& ctx, Action& chosen) {
  auto topic = std::make_shared<std::vector<std::string>>();
  auto* sub = add_command(parent, ctx,
                          {.use = "help [command]",
                           .short_text = "Help about any command",
                           .long_text = "Help provides help for any command in the application.\n"
                                        "Simply type opm help [path to command] for full details."},
                          topic.get());
  sub->callback([&parent, &ctx, &chosen, sub, topic] {
    chosen.command = sub;
    chosen.run = [&parent, &ctx, topic]() -> Result<void> {
      auto [target, rest] = cli::find_command(parent, ctx.meta, *topic);
      ctx.out << cli::help_text(*target, ctx.meta);
      return {};
    };
  });
}

} // namespace opm::cmd
