#pragma once

#include "cmd/context.hpp"

#include <string>
#include <vector>

namespace opm::cmd {
// Parse argv, run the chosen subcommand once, print its error, return the exit code
// (0 ok, 1 error, 2 bundle already added, 3 package version already added).
int run(int argc, char** argv);

// The root command `opm`, its global flags and every subcommand of the table.
void build_root(CLI::App& app, Context& ctx, Action& chosen);
// Everything run() does after reading the environment, for an already built root.
int execute(CLI::App& app, Context& ctx, Action& chosen, const std::vector<std::string>& args);
} // namespace opm::cmd
