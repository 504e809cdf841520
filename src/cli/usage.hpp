#pragma once

#include "cli/meta.hpp"
#include "cli/tree.hpp"

#include <string>
#include <vector>

// cobra's default usage and help templates and pflag's flag table, generated from the
// command definitions so the help text never drifts from what the parser accepts.
namespace opm::cli {

// The usage block cobra prints for --help and after "Error: ...". Ends with "\n".
std::string usage_text(const CLI::App& command, const CommandMeta& meta);
// Full help: the long description (or short), a blank line, then the usage block.
std::string help_text(const CLI::App& command, const CommandMeta& meta);
// pflag's FlagUsages: one line per visible flag, aligned, each ending with "\n".
std::string flag_usages(const std::vector<FlagView>& flags);
// cobra's UseLine: "opm init <packageName> [flags]".
std::string use_line(const CLI::App& command, const CommandMeta& meta);

} // namespace opm::cli
