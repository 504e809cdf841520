#pragma once

#include "cli/meta.hpp"

#include <string>

// Shell completion scripts generated from the command tree: every visible command,
// its subcommands and flags, and which flags take a value. The scripts are static
// (they never call opm back), so they work with any shell setup.
namespace opm::cli {

enum class Shell { bash, zsh, fish, powershell };

std::string completion_script(const CLI::App& root, const CommandMeta& meta, Shell shell,
                              bool descriptions);

} // namespace opm::cli
