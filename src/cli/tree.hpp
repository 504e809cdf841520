#pragma once

#include "cli/meta.hpp"

#include <string>
#include <vector>

// The CLI11 command tree seen the way cobra and pflag see it: names, paths, flags
// with their pflag types and defaults, visibility. Parser, help, completion and man
// pages all read the tree through these functions.
namespace opm::cli {

enum class FlagType { boolean, string, string_slice, string_array, integer, other };

struct FlagView {
  const CLI::Option* option = nullptr; // nullptr: the built-in -h/--help flag
  const CLI::App* owner = nullptr;     // the command that defines it
  std::string name;                    // long name, without dashes
  char shorthand = 0;                  // 0 when none
  FlagType type = FlagType::string;
  std::string type_name;     // as pflag prints it: "string", "strings", "int"; "" for booleans
  std::string usage;         // help text (ALPHA prefix applied)
  std::string default_value; // pflag DefValue: "json", "[]", "false"
  bool hidden = false;
  const std::string* deprecated = nullptr;

  [[nodiscard]] bool takes_value() const { return type != FlagType::boolean; }
  [[nodiscard]] bool default_is_zero() const;
};

std::string command_name(const CLI::App& command);
// "opm generate dockerfile"
std::string command_path(const CLI::App& command);
// Every subcommand, hidden ones included, sorted by name (cobra sorts its commands).
std::vector<const CLI::App*> subcommands(const CLI::App& command);
const CLI::App* find_subcommand(const CLI::App& command, std::string_view name);

std::string short_text(const CLI::App& command, const CommandMeta& meta);
std::string long_text(const CLI::App& command, const CommandMeta& meta);
std::string use_text(const CLI::App& command, const CommandMeta& meta);
std::string example_text(const CLI::App& command, const CommandMeta& meta);
bool is_runnable(const CLI::App& command, const CommandMeta& meta);
bool is_hidden(const CLI::App& command, const CommandMeta& meta);
std::string deprecation(const CLI::App& command, const CommandMeta& meta);
// cobra IsAvailableCommand: listed in its parent's help.
bool is_available(const CLI::App& command, const CommandMeta& meta);
bool has_available_subcommands(const CLI::App& command, const CommandMeta& meta);
// A deprecated command that would be available otherwise: cobra leaves it out of its parent's
// help, but it still runs and, once typed, its flags complete; it keeps a man page.
bool is_deprecated_but_usable(const CLI::App& command, const CommandMeta& meta);
Args args_rule(const CLI::App& command, const CommandMeta& meta);
// The CLI11 positional options of `command`, in declaration order.
std::vector<const CLI::Option*> positional_options(const CLI::App& command);

// Flags defined on `command` itself, plus the built-in help flag, sorted by name.
std::vector<FlagView> local_flags(const CLI::App& command, const CommandMeta& meta);
// Persistent flags of its ancestors that it does not shadow, sorted by name.
std::vector<FlagView> inherited_flags(const CLI::App& command, const CommandMeta& meta);
// Both, as the flag set the command parses.
std::vector<FlagView> all_flags(const CLI::App& command, const CommandMeta& meta);

} // namespace opm::cli
