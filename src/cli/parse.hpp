#pragma once

#include "cli/meta.hpp"

#include <expected>
#include <optional>
#include <string>
#include <vector>

// The command line read the way cobra and pflag read it, so that flag syntax, error
// texts and the order of checks match upstream. CLI11 then receives an unambiguous,
// canonical argv (canonical_argv) to convert values and run the callbacks.
namespace opm::cli {

struct FlagSetting {
  const CLI::Option* option = nullptr;
  const CLI::App* owner = nullptr;
  std::vector<std::string> values; // a slice flag's elements; otherwise exactly one value
  bool slice = false;
};

struct CommandLine {
  const CLI::App* command = nullptr;
  std::vector<const CLI::App*> path; // root first, `command` last
  std::vector<std::string> args;     // positional arguments
  std::vector<FlagSetting> settings; // in the order given
  bool help = false;                 // -h/--help was given
  std::string notices;               // pflag's deprecation notices, for stderr
};

struct CommandLineError {
  const CLI::App* command = nullptr; // whose usage to print
  std::string message;
};

// cobra's Find: the deepest subcommand named by the non-flag words of `args`, and the
// arguments left once those names are removed.
std::pair<const CLI::App*, std::vector<std::string>>
find_command(const CLI::App& root, const CommandMeta& meta, const std::vector<std::string>& args);

// cobra's Find, then pflag's Parse of that command's flags.
std::expected<CommandLine, CommandLineError>
parse_command_line(const CLI::App& root, const CommandMeta& meta,
                   const std::vector<std::string>& args);

// cobra's checks between parsing and running: the argument rule, required flags and
// mutually exclusive flag groups. Returns cobra's message for the first failure.
std::optional<std::string> check_command_line(const CommandLine& line, const CommandMeta& meta);

// What CLI11 parses (program name excluded): each level's flags as --name=value at that
// level, the subcommand names, then "--" and the positional arguments.
std::vector<std::string> canonical_argv(const CommandLine& line);

} // namespace opm::cli
