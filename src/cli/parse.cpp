#include "cli/parse.hpp"

#include "cli/tree.hpp"
#include "util/csv.hpp"
#include "util/go_parse.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace opm::cli {

namespace {

// Go's %q of a single byte, as pflag prints an unknown shorthand: 'x'.
std::string quote_char(unsigned char c) {
  switch (c) {
  case '\a':
    return "'\\a'";
  case '\b':
    return "'\\b'";
  case '\f':
    return "'\\f'";
  case '\n':
    return "'\\n'";
  case '\r':
    return "'\\r'";
  case '\t':
    return "'\\t'";
  case '\v':
    return "'\\v'";
  case '\'':
    return "'\\''";
  case '\\':
    return "'\\\\'";
  default:
    break;
  }
  if (c >= 0x20 && c < 0x7F) {
    return fmt::format("'{}'", static_cast<char>(c));
  }
  if (c < 0x80) {
    return fmt::format("'\\x{:02x}'", c);
  }
  if (c < 0xA1 || c == 0xAD) {
    return fmt::format("'\\u{:04x}'", c);
  }
  std::string out = "'";
  util::append_utf8(out, c);
  out += '\'';
  return out;
}

std::optional<bool> parse_go_bool(std::string_view s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") {
    return true;
  }
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") {
    return false;
  }
  return std::nullopt;
}

// strconv.ParseInt(s, 0, 64), without digit separators.
// pflag's int flags: strconv.ParseInt(s, 0, 64) and its error texts.
Result<long long> parse_go_int(std::string_view s) {
  auto n = util::parse_go_int(s);
  if (!n) {
    return util::fail(
        Errc::usage,
        fmt::format("strconv.ParseInt: parsing {}: {}", util::go_quote(s),
                    n.error() == util::NumError::range ? "value out of range" : "invalid syntax"));
  }
  return *n;
}

const FlagView* find_long(const std::vector<FlagView>& flags, std::string_view name) {
  for (const auto& f : flags) {
    if (f.name == name) {
      return &f;
    }
  }
  return nullptr;
}

const FlagView* find_short(const std::vector<FlagView>& flags, char c) {
  for (const auto& f : flags) {
    if (f.shorthand == c) {
      return &f;
    }
  }
  return nullptr;
}

// Flags known to cobra's Find at `command`: everything but the help flag, which cobra
// only adds to the command it finally executes.
std::vector<FlagView> find_flags(const CLI::App& command, const CommandMeta& meta) {
  auto flags = all_flags(command, meta);
  std::erase_if(flags, [](const FlagView& f) { return f.option == nullptr; });
  return flags;
}

bool long_is_bool(const std::vector<FlagView>& flags, std::string_view name) {
  const FlagView* f = find_long(flags, name);
  return f != nullptr && !f->takes_value();
}

bool short_is_bool(const std::vector<FlagView>& flags, std::string_view name) {
  if (name.empty()) {
    return false;
  }
  const FlagView* f = find_short(flags, name[0]);
  return f != nullptr && !f->takes_value();
}

// Whether argument `s` is a flag that consumes the next argument (cobra's stripFlags).
bool consumes_next(std::string_view s, const std::vector<FlagView>& flags) {
  if (s.find('=') != std::string_view::npos) {
    return false;
  }
  if (s.starts_with("--")) {
    return !long_is_bool(flags, s.substr(2));
  }
  return s.starts_with("-") && s.size() == 2 && !short_is_bool(flags, s.substr(1));
}

// cobra's stripFlags: the arguments that are neither flags nor flag values.
std::vector<std::string> strip_flags(const std::vector<std::string>& args,
                                     const std::vector<FlagView>& flags) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& s = args[i];
    if (s == "--") {
      break;
    }
    if ((s.starts_with("--") || s.starts_with("-")) && consumes_next(s, flags)) {
      if (args.size() - i - 1 <= 1) {
        break;
      }
      ++i;
      continue;
    }
    if (!s.empty() && s[0] != '-') {
      words.push_back(s);
    }
  }
  return words;
}

// cobra's argsMinusFirstX.
std::vector<std::string> minus_first(const std::vector<std::string>& args, const std::string& x,
                                     const std::vector<FlagView>& flags) {
  for (std::size_t pos = 0; pos < args.size(); ++pos) {
    const std::string& s = args[pos];
    if (s == "--") {
      break;
    }
    if (s.starts_with("-") && consumes_next(s, flags)) {
      ++pos;
      continue;
    }
    if (!s.starts_with("-") && s == x) {
      std::vector<std::string> out(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(pos));
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(pos) + 1, args.end());
      return out;
    }
  }
  return args;
}

std::string flag_label(const FlagView& f) {
  if (f.shorthand != 0) {
    return fmt::format("-{}, --{}", f.shorthand, f.name);
  }
  return "--" + f.name;
}

class FlagParser {
public:
  FlagParser(const std::vector<FlagView>& flags, CommandLine& line)
      : m_flags(flags), m_line(line) {}

  // pflag's parseArgs; returns its error text.
  std::optional<std::string> parse(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& s = args[i];
      if (s.size() < 2 || s[0] != '-') {
        m_line.args.push_back(s);
        continue;
      }
      std::optional<std::string> err;
      if (s[1] == '-') {
        if (s.size() == 2) {
          m_line.args.insert(m_line.args.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                             args.end());
          break;
        }
        err = parse_long(s, args, i);
      } else {
        err = parse_short(s, args, i);
      }
      if (err) {
        return err;
      }
    }
    return std::nullopt;
  }

private:
  std::optional<std::string> parse_long(const std::string& s, const std::vector<std::string>& args,
                                        std::size_t& i) {
    std::string_view name = std::string_view(s).substr(2);
    if (name.empty() || name[0] == '-' || name[0] == '=') {
      return fmt::format("bad flag syntax: {}", s);
    }
    auto eq = name.find('=');
    std::optional<std::string_view> inline_value;
    if (eq != std::string_view::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const FlagView* flag = find_long(m_flags, name);
    if (flag == nullptr) {
      return fmt::format("unknown flag: --{}", name);
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (!flag->takes_value()) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return fmt::format("flag needs an argument: {}", s);
    }
    return set(*flag, value);
  }

  std::optional<std::string> parse_short(const std::string& s, const std::vector<std::string>& args,
                                         std::size_t& i) {
    std::string_view shorthands = std::string_view(s).substr(1);
    while (!shorthands.empty()) {
      char c = shorthands[0];
      const FlagView* flag = find_short(m_flags, c);
      if (flag == nullptr) {
        return fmt::format("unknown shorthand flag: {} in -{}",
                           quote_char(static_cast<unsigned char>(c)), shorthands);
      }
      std::string value;
      std::string_view rest = shorthands.substr(1);
      if (shorthands.size() > 2 && shorthands[1] == '=') {
        value = shorthands.substr(2);
        rest = {};
      } else if (!flag->takes_value()) {
        value = "true";
      } else if (shorthands.size() > 1) {
        value = shorthands.substr(1);
        rest = {};
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return fmt::format("flag needs an argument: {} in -{}",
                           quote_char(static_cast<unsigned char>(c)), shorthands);
      }
      if (auto err = set(*flag, value)) {
        return err;
      }
      shorthands = rest;
    }
    return std::nullopt;
  }

  // pflag's FlagSet.Set.
  std::optional<std::string> set(const FlagView& flag, const std::string& value) {
    auto invalid = [&](std::string_view why) {
      return fmt::format("invalid argument {} for {} flag: {}", util::go_quote(value),
                         util::go_quote(flag_label(flag)), why);
    };
    FlagSetting setting{flag.option, flag.owner, {}, false};
    switch (flag.type) {
    case FlagType::boolean: {
      auto b = parse_go_bool(value);
      if (!b) {
        return invalid(
            fmt::format("strconv.ParseBool: parsing {}: invalid syntax", util::go_quote(value)));
      }
      if (flag.option == nullptr) {
        m_line.help = *b;
        return std::nullopt;
      }
      setting.values.emplace_back(*b ? "true" : "false");
      break;
    }
    case FlagType::string_slice: {
      setting.slice = true;
      if (!value.empty()) {
        auto record = util::read_csv_record(value);
        if (!record) {
          return invalid(record.error().message());
        }
        setting.values = std::move(*record);
      }
      break;
    }
    case FlagType::string_array:
      setting.slice = true;
      setting.values.push_back(value);
      break;
    case FlagType::integer: {
      auto n = parse_go_int(value);
      if (!n) {
        return invalid(n.error().message());
      }
      setting.values.push_back(std::to_string(*n));
      break;
    }
    case FlagType::string:
    case FlagType::other:
      setting.values.push_back(value);
      break;
    }
    m_line.settings.push_back(std::move(setting));
    if (flag.deprecated != nullptr) {
      m_line.notices +=
          fmt::format("Flag --{} has been deprecated, {}\n", flag.name, *flag.deprecated);
    }
    return std::nullopt;
  }

  const std::vector<FlagView>& m_flags;
  CommandLine& m_line;
};

bool was_set(const CommandLine& line, const CLI::Option* opt) {
  return std::any_of(line.settings.begin(), line.settings.end(),
                     [&](const FlagSetting& s) { return s.option == opt; });
}

} // namespace

std::pair<const CLI::App*, std::vector<std::string>>
find_command(const CLI::App& root, const CommandMeta& meta, const std::vector<std::string>& args) {
  const CLI::App* command = &root;
  std::vector<std::string> rest = args;
  for (;;) {
    auto flags = find_flags(*command, meta);
    auto words = strip_flags(rest, flags);
    if (words.empty()) {
      break;
    }
    const CLI::App* next = find_subcommand(*command, words[0]);
    if (next == nullptr) {
      break;
    }
    rest = minus_first(rest, words[0], flags);
    command = next;
  }
  return {command, std::move(rest)};
}

std::expected<CommandLine, CommandLineError>
parse_command_line(const CLI::App& root, const CommandMeta& meta,
                   const std::vector<std::string>& args) {
  CommandLine line;
  auto [command, rest] = find_command(root, meta, args);
  line.command = command;
  for (const CLI::App* c = command; c != nullptr; c = c->get_parent()) {
    line.path.insert(line.path.begin(), c);
  }

  auto flags = all_flags(*command, meta);
  FlagParser parser(flags, line);
  if (auto err = parser.parse(rest)) {
    return std::unexpected(CommandLineError{command, std::move(*err)});
  }
  return line;
}

std::optional<std::string> check_command_line(const CommandLine& line, const CommandMeta& meta) {
  const CLI::App& command = *line.command;
  if (auto err = args_rule(command, meta).check(line.args, command_path(command))) {
    return err;
  }

  std::vector<std::string> missing;
  for (const FlagView& f : all_flags(command, meta)) {
    if (f.option != nullptr && f.option->get_required() && !was_set(line, f.option)) {
      missing.push_back(f.name);
    }
  }
  if (!missing.empty()) {
    return fmt::format("required flag(s) \"{}\" not set", util::join(missing, "\", \""));
  }

  auto groups = meta.exclusive_groups(&command);
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return util::join(a, " ") < util::join(b, " "); });
  auto flags = all_flags(command, meta);
  for (const auto& group : groups) {
    std::vector<std::string> set;
    for (const auto& name : group) {
      const FlagView* f = find_long(flags, name);
      if (f != nullptr && f->option != nullptr && was_set(line, f->option)) {
        set.push_back(name);
      }
    }
    if (set.size() > 1) {
      std::sort(set.begin(), set.end());
      return fmt::format("if any flags in the group [{}] are set none of the others can be; [{}] "
                         "were all set",
                         util::join(group, " "), util::join(set, " "));
    }
  }
  return std::nullopt;
}

std::vector<std::string> canonical_argv(const CommandLine& line) {
  std::vector<std::string> argv;
  bool open_slice = false; // CLI11 lets a vector option swallow following words
  auto close_slice = [&] {
    if (open_slice) {
      argv.emplace_back("--");
      open_slice = false;
    }
  };
  for (std::size_t level = 0; level < line.path.size(); ++level) {
    const CLI::App* app = line.path[level];
    if (level > 0) {
      close_slice();
      argv.push_back(app->get_name());
    }
    for (std::size_t k = 0; k < line.settings.size(); ++k) {
      const FlagSetting& s = line.settings[k];
      if (s.owner != app) {
        continue;
      }
      if (!s.slice) {
        // pflag keeps the last value; CLI11 would reject a repeated scalar option.
        bool later = std::any_of(line.settings.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                                 line.settings.end(),
                                 [&](const FlagSetting& o) { return o.option == s.option; });
        if (later) {
          continue;
        }
      }
      const CLI::Option* opt = s.option;
      for (const std::string& v : s.values) {
        if (!opt->get_lnames().empty() && !v.empty()) {
          argv.push_back(fmt::format("--{}={}", opt->get_lnames().front(), v));
        } else if (!opt->get_lnames().empty()) {
          // CLI11 reads "--name=" as a missing value; a separate empty word is a value.
          argv.push_back("--" + opt->get_lnames().front());
          argv.emplace_back();
        } else {
          argv.push_back("-" + opt->get_snames().front());
          argv.push_back(v);
        }
        open_slice = s.slice;
      }
    }
  }
  if (!line.args.empty() && !positional_options(*line.command).empty()) {
    close_slice();
    argv.emplace_back("--");
    argv.insert(argv.end(), line.args.begin(), line.args.end());
  }
  return argv;
}

} // namespace opm::cli
