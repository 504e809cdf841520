#pragma once

#include "cli/context.hpp"

#include <string>
#include <vector>

namespace opm::cli {

// Adds a subcommand described as upstream's cobra.Command (name = first word of
// spec.use). When `positionals` is given it receives every positional argument; the
// argument count is checked against spec.args before the callback runs.
CLI::App* add_command(CLI::App& parent, Context& ctx, CommandSpec spec,
                      std::vector<std::string>* positionals = nullptr);

} // namespace opm::cli
