#pragma once

#include "cli/context.hpp"

#include <string>
#include <vector>

namespace opm::cli {

// Parses `args` as cobra does for the built root `app`, runs the action its callback
// chose once, prints its error and returns the exit code (0 ok, 1 error, 2 bundle
// already added, 3 package version already added).
int execute(CLI::App& app, Context& ctx, Action& chosen, const std::vector<std::string>& args);

} // namespace opm::cli
