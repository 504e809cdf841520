#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>

namespace opm::cmd {

void add_alpha(CLI::App& parent, Context& ctx, Action& chosen) {
  (void)parent;
  (void)ctx;
  (void)chosen;
}

} // namespace opm::cmd
