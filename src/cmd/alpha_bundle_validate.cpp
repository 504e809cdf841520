#include "cmd/alpha_bundle.hpp"

#include <CLI/CLI.hpp>

namespace opm::cmd::alpha_bundle {

void add_validate(CLI::App& parent, Context& ctx, Action& chosen) {
  (void)parent;
  (void)ctx;
  (void)chosen;
}

} // namespace opm::cmd::alpha_bundle
