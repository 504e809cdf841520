#include "cmd/usage.hpp"

#include <CLI/CLI.hpp>

namespace opm::cmd {

std::string usage_text(const CLI::App& command) {
  return "Usage:\n  " + command.get_name() + " [flags]\n";
}

std::string help_text(const CLI::App& command) {
  return command.get_description() + "\n\n" + usage_text(command);
}

} // namespace opm::cmd
