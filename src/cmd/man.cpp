#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>

namespace opm::cmd {

void add_generate_man(CLI::App& parent, Context& ctx, Action& chosen) {
  (void)parent;
  (void)ctx;
  (void)chosen;
}

} // namespace opm::cmd
