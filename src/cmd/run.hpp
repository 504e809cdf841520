#pragma once

namespace opm::cmd {
// Parse argv, run the chosen subcommand once, print its error, return the exit code
// (0 ok, 1 error, 2 bundle already added, 3 package version already added).
int run(int argc, char** argv);
} // namespace opm::cmd
