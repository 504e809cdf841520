#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

// What a cobra command knows that a CLI11 App does not: its use line, long help,
// examples, argument rule, deprecations, persistent flags and flag groups.
// Help, usage, completion scripts and man pages are all generated from CLI11's
// definitions plus these facts, so they cannot drift apart.
namespace opm::cli {

// How many positional arguments a command accepts, with cobra's messages.
struct Args {
  enum class Kind { arbitrary, none, exact, minimum, maximum, range };
  Kind kind = Kind::arbitrary;
  std::size_t min = 0;
  std::size_t max = 0;

  static Args arbitrary() { return {}; }
  static Args none() { return {Kind::none, 0, 0}; }
  static Args exact(std::size_t n) { return {Kind::exact, n, n}; }
  static Args minimum(std::size_t n) { return {Kind::minimum, n, 0}; }
  static Args maximum(std::size_t n) { return {Kind::maximum, 0, n}; }
  static Args range(std::size_t lo, std::size_t hi) { return {Kind::range, lo, hi}; }

  // Cobra's error for `args`, or nullopt when they are acceptable.
  // `command_path` is e.g. "opm alpha" (used by Args::none()).
  [[nodiscard]] std::optional<std::string> check(const std::vector<std::string>& args,
                                                 std::string_view command_path) const;
};

// A cobra.Command's documentation and argument rule.
struct CommandSpec {
  std::string use{}; // cobra Use: the name, then the argument synopsis ("init <packageName>")
  std::string short_text{}; // one line, shown in the parent's command list
  std::string long_text{};  // shown at the top of --help; short_text when empty
  std::string example{};    // printed verbatim under "Examples:"
  // When unset: derived from the positional options (a command without any accepts
  // and ignores arguments, as cobra does when Args is nil).
  std::optional<Args> args{};
  bool hidden = false;
  // An alpha command: left out of help unless HELP_ALPHA=true (CommandMeta::show_alpha), as
  // upstream hides it, but always in the completion scripts and manual pages.
  bool alpha = false;
  bool runnable = true;          // false: a group that prints its help when called
  std::string deprecated{};      // non-empty: hidden, and `Command "x" is deprecated, <text>`
  bool flags_in_use_line = true; // append " [flags]" to the use line (cobra default)
  // Run by opm-serve, which has gRPC: Context::hand_over is called once the command line
  // parses, before anything is said.
  bool in_serve_program = false;
};

// The registry, owned by the Context. All pointers are CLI11 objects that live as long
// as the root App.
class CommandMeta {
public:
  void describe(const CLI::App* command, CommandSpec spec);
  // The spec given to describe(), or nullptr for a plain CLI11 subcommand.
  [[nodiscard]] const CommandSpec* spec(const CLI::App* command) const;

  // pflag MarkDeprecated: hidden from help, and a notice on stderr each time it is set.
  void deprecate(const CLI::Option* flag, std::string message);
  [[nodiscard]] const std::string* deprecation(const CLI::Option* flag) const;

  // cobra PersistentFlags: also accepted by, and listed under "Global Flags:" of, every
  // descendant command.
  void make_persistent(const CLI::Option* flag);
  [[nodiscard]] bool is_persistent(const CLI::Option* flag) const;

  // cobra MarkFlagsMutuallyExclusive, by long flag names.
  void mutually_exclusive(const CLI::App* command, std::vector<std::string> names);
  [[nodiscard]] std::vector<std::vector<std::string>>
  exclusive_groups(const CLI::App* command) const;

  // Flags named "alpha-*" are hidden and their usage gets an ALPHA prefix unless
  // HELP_ALPHA=true (upstream's configureAlphaFlags).
  bool show_alpha = false;

  // Filled by the parser: every flag the user set (pflag's Changed), even to its default.
  void mark_changed(const CLI::Option* flag) { m_changed.insert(flag); }
  [[nodiscard]] bool changed(const CLI::Option* flag) const { return m_changed.contains(flag); }

private:
  std::map<const CLI::App*, CommandSpec> m_specs;
  std::map<const CLI::Option*, std::string> m_deprecated;
  std::set<const CLI::Option*> m_persistent;
  std::map<const CLI::App*, std::vector<std::vector<std::string>>> m_exclusive;
  std::set<const CLI::Option*> m_changed;
};

} // namespace opm::cli
