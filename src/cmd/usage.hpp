#pragma once

#include <string>

namespace CLI {
class App;
}

namespace opm::cmd {
// The usage block cobra prints after "Error: ..." and for --help.
std::string usage_text(const CLI::App& command);
// Full help: long description, then the usage block.
std::string help_text(const CLI::App& command);
} // namespace opm::cmd
