#include "cli/usage.hpp"

#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

namespace opm::cli {

namespace {

constexpr std::size_t k_min_name_padding = 11;

bool is_go_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string trim_right(std::string s) {
  while (!s.empty() && is_go_space(static_cast<unsigned char>(s.back()))) {
    s.pop_back();
  }
  return s;
}

bool any_visible(const std::vector<FlagView>& flags) {
  return std::any_of(flags.begin(), flags.end(), [](const FlagView& f) { return !f.hidden; });
}

// pflag UnquoteUsage: a `name` in back quotes names the value and loses its quotes.
std::pair<std::string, std::string> unquote_usage(const FlagView& flag) {
  const std::string& usage = flag.usage;
  auto open = usage.find('`');
  if (open != std::string::npos) {
    auto close = usage.find('`', open + 1);
    if (close != std::string::npos) {
      std::string name = usage.substr(open + 1, close - open - 1);
      return {name, usage.substr(0, open) + name + usage.substr(close + 1)};
    }
  }
  return {flag.type_name, usage};
}

std::size_t name_padding(const CLI::App& command) {
  const CLI::App* parent = command.get_parent();
  if (parent == nullptr) {
    return k_min_name_padding;
  }
  std::size_t longest = 0;
  for (const CLI::App* sibling : subcommands(*parent)) {
    // Internal "__x" commands are left out: upstream's own (__complete) are never
    // wider than the minimum.
    if (!sibling->get_name().starts_with("__")) {
      longest = std::max(longest, sibling->get_name().size());
    }
  }
  return std::max(k_min_name_padding, longest);
}

} // namespace

std::string flag_usages(const std::vector<FlagView>& flags) {
  struct Line {
    std::string head;
    std::string text;
  };
  std::vector<Line> lines;
  std::size_t width = 0;
  for (const FlagView& f : flags) {
    if (f.hidden) {
      continue;
    }
    Line line;
    line.head = f.shorthand != 0 ? fmt::format("  -{}, --{}", f.shorthand, f.name)
                                 : fmt::format("      --{}", f.name);
    auto [var, usage] = unquote_usage(f);
    if (!var.empty()) {
      line.head += " " + var;
    }
    width = std::max(width, line.head.size() + 1);
    line.text = std::move(usage);
    if (!f.default_is_zero()) {
      if (f.type == FlagType::string) {
        line.text += fmt::format(" (default {})", util::go_quote(f.default_value));
      } else {
        line.text += fmt::format(" (default {})", f.default_value);
      }
    }
    if (f.deprecated != nullptr) {
      line.text += fmt::format(" (DEPRECATED: {})", *f.deprecated);
    }
    lines.push_back(std::move(line));
  }
  std::string out;
  std::string indent = "\n" + std::string(width + 2, ' ');
  for (const Line& line : lines) {
    out += line.head;
    out += ' ';
    out.append(width - line.head.size(), ' ');
    out += ' ';
    std::string text = line.text;
    for (std::size_t pos = text.find('\n'); pos != std::string::npos;
         pos = text.find('\n', pos + indent.size())) {
      text.replace(pos, 1, indent);
    }
    out += text;
    out += '\n';
  }
  return out;
}

std::string use_line(const CLI::App& command, const CommandMeta& meta) {
  std::string line = use_text(command, meta);
  if (const CLI::App* parent = command.get_parent()) {
    line = command_path(*parent) + " " + line;
  }
  const CommandSpec* spec = meta.spec(&command);
  if (spec != nullptr && !spec->flags_in_use_line) {
    return line;
  }
  if (any_visible(all_flags(command, meta)) && line.find("[flags]") == std::string::npos) {
    line += " [flags]";
  }
  return line;
}

std::string usage_text(const CLI::App& command, const CommandMeta& meta) {
  std::string out = "Usage:";
  bool runnable = is_runnable(command, meta);
  bool has_subs = has_available_subcommands(command, meta);
  if (runnable) {
    out += "\n  " + use_line(command, meta);
  }
  std::string path = command_path(command);
  if (has_subs) {
    out += "\n  " + path + " [command]";
  }
  const auto& aliases = command.get_aliases();
  if (!aliases.empty()) {
    out += "\n\nAliases:\n  " + command.get_name();
    for (const auto& a : aliases) {
      out += ", " + a;
    }
  }
  std::string example = example_text(command, meta);
  if (!example.empty()) {
    out += "\n\nExamples:\n" + example;
  }
  if (has_subs) {
    out += "\n\nAvailable Commands:";
    for (const CLI::App* sub : subcommands(command)) {
      bool help_command = command.get_parent() == nullptr && sub->get_name() == "help";
      if (is_available(*sub, meta) || help_command) {
        std::string name = sub->get_name();
        name.resize(std::max(name.size(), name_padding(*sub)), ' ');
        out += "\n  " + name + " " + short_text(*sub, meta);
      }
    }
  }
  auto local = local_flags(command, meta);
  if (any_visible(local)) {
    out += "\n\nFlags:\n" + trim_right(flag_usages(local));
  }
  auto inherited = inherited_flags(command, meta);
  if (any_visible(inherited)) {
    out += "\n\nGlobal Flags:\n" + trim_right(flag_usages(inherited));
  }
  if (has_subs) {
    out +=
        fmt::format("\n\nUse \"{} [command] --help\" for more information about a command.", path);
  }
  out += "\n";
  return out;
}

std::string help_text(const CLI::App& command, const CommandMeta& meta) {
  std::string out;
  std::string text = trim_right(long_text(command, meta));
  if (!text.empty()) {
    out += text + "\n\n";
  }
  bool has_subs = !command.get_subcommands([](const CLI::App*) { return true; }).empty();
  if (is_runnable(command, meta) || has_subs) {
    out += usage_text(command, meta);
  }
  return out;
}

} // namespace opm::cli
