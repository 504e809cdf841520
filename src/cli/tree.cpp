#include "cli/tree.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <limits>

namespace opm::cli {

namespace {

constexpr std::string_view k_alpha_prefix =
    "(ALPHA: This flag will be removed or renamed in a future release, potentially without "
    "notice) ";

FlagType flag_type(const CLI::Option& opt, std::string& type_name) {
  if (opt.get_expected_max() == 0) {
    type_name.clear();
    return FlagType::boolean;
  }
  std::string tn = opt.get_type_name();
  if (tn == "string") {
    type_name = tn;
    return FlagType::string;
  }
  if (tn == "strings" || tn == "stringSlice") {
    type_name = "strings";
    return FlagType::string_slice;
  }
  if (tn == "stringArray") {
    type_name = tn;
    return FlagType::string_array;
  }
  if (tn == "int" || tn == "INT") {
    type_name = "int";
    return FlagType::integer;
  }
  if (opt.get_expected_max() > 1) {
    type_name = "strings";
    return FlagType::string_slice;
  }
  if (tn == "TEXT" || tn.empty()) {
    type_name = "string";
    return FlagType::string;
  }
  if (tn == "UINT") {
    type_name = "uint";
  } else if (tn == "FLOAT") {
    type_name = "float";
  } else {
    type_name = tn;
  }
  return FlagType::other;
}

FlagView view_of(const CLI::App& owner, const CLI::Option& opt, const CommandMeta& meta) {
  FlagView v;
  v.option = &opt;
  v.owner = &owner;
  v.name = opt.get_lnames().empty() ? opt.get_snames().front() : opt.get_lnames().front();
  if (!opt.get_snames().empty() && opt.get_snames().front().size() == 1) {
    v.shorthand = opt.get_snames().front()[0];
  }
  v.type = flag_type(opt, v.type_name);
  v.usage = opt.get_description();
  v.default_value = opt.get_default_str();
  if (v.type == FlagType::boolean && v.default_value.empty()) {
    v.default_value = "false";
  }
  if ((v.type == FlagType::string_slice || v.type == FlagType::string_array) &&
      (v.default_value.empty() || v.default_value == "{}")) {
    v.default_value = "[]";
  }
  if (v.type == FlagType::integer && v.default_value.empty()) {
    v.default_value = "0";
  }
  v.hidden = opt.get_group().empty();
  v.deprecated = meta.deprecation(&opt);
  if (v.deprecated != nullptr) {
    v.hidden = true;
  }
  if (v.name.starts_with("alpha-")) {
    v.usage.insert(0, k_alpha_prefix);
    if (!meta.show_alpha) {
      v.hidden = true;
    }
  }
  return v;
}

FlagView help_flag(const CLI::App& command) {
  FlagView v;
  v.owner = &command;
  v.name = "help";
  v.shorthand = 'h';
  v.type = FlagType::boolean;
  v.usage = "help for " + command.get_name();
  v.default_value = "false";
  return v;
}

bool is_flag(const CLI::Option* opt) { return !opt->get_positional(); }

void sort_by_name(std::vector<FlagView>& flags) {
  std::sort(flags.begin(), flags.end(),
            [](const FlagView& a, const FlagView& b) { return a.name < b.name; });
}

} // namespace

bool FlagView::default_is_zero() const {
  switch (type) {
  case FlagType::boolean:
    return default_value == "false" || default_value.empty();
  case FlagType::string:
    return default_value.empty();
  case FlagType::string_slice:
  case FlagType::string_array:
    return default_value == "[]";
  case FlagType::integer:
    return default_value == "0";
  case FlagType::other:
    return default_value == "false" || default_value == "<nil>" || default_value.empty() ||
           default_value == "0";
  }
  return true;
}

std::string command_name(const CLI::App& command) { return command.get_name(); }

std::string command_path(const CLI::App& command) {
  const CLI::App* parent = command.get_parent();
  if (parent == nullptr) {
    return command.get_name();
  }
  return command_path(*parent) + " " + command.get_name();
}

std::vector<const CLI::App*> subcommands(const CLI::App& command) {
  auto subs = command.get_subcommands([](const CLI::App*) { return true; });
  std::sort(subs.begin(), subs.end(),
            [](const CLI::App* a, const CLI::App* b) { return a->get_name() < b->get_name(); });
  return subs;
}

const CLI::App* find_subcommand(const CLI::App& command, std::string_view name) {
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == name) {
      return sub;
    }
    for (const auto& alias : sub->get_aliases()) {
      if (alias == name) {
        return sub;
      }
    }
  }
  return nullptr;
}

std::string short_text(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  return spec != nullptr ? spec->short_text : command.get_description();
}

std::string long_text(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  if (spec != nullptr && !spec->long_text.empty()) {
    return spec->long_text;
  }
  return short_text(command, meta);
}

std::string use_text(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  if (spec != nullptr && !spec->use.empty()) {
    return spec->use;
  }
  return command.get_name();
}

std::string example_text(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  return spec != nullptr ? spec->example : std::string();
}

bool is_runnable(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  if (spec != nullptr) {
    return spec->runnable;
  }
  return command.get_subcommands([](const CLI::App*) { return true; }).empty();
}

bool is_hidden(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  if (spec != nullptr &&
      (spec->hidden || !spec->deprecated.empty() || (spec->alpha && !meta.show_alpha))) {
    return true;
  }
  return command.get_group().empty();
}

std::string deprecation(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  return spec != nullptr ? spec->deprecated : std::string();
}

bool is_available(const CLI::App& command, const CommandMeta& meta) {
  if (is_hidden(command, meta)) {
    return false;
  }
  const CLI::App* parent = command.get_parent();
  if (parent != nullptr && parent->get_parent() == nullptr && command.get_name() == "help") {
    return false; // cobra lists its help command separately
  }
  return is_runnable(command, meta) || has_available_subcommands(command, meta);
}

bool is_deprecated_but_usable(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  // Its group is empty as for a hidden command (cli/command.cpp); the spec tells them apart.
  if (spec == nullptr || spec->deprecated.empty() || spec->hidden ||
      (spec->alpha && !meta.show_alpha)) {
    return false;
  }
  return is_runnable(command, meta);
}

bool has_available_subcommands(const CLI::App& command, const CommandMeta& meta) {
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    if (is_available(*sub, meta)) {
      return true;
    }
  }
  return false;
}

std::vector<const CLI::Option*> positional_options(const CLI::App& command) {
  return command.get_options([](const CLI::Option* o) { return o->get_positional(); });
}

Args args_rule(const CLI::App& command, const CommandMeta& meta) {
  const CommandSpec* spec = meta.spec(&command);
  if (spec != nullptr && spec->args) {
    return *spec->args;
  }
  auto positionals = positional_options(command);
  if (positionals.empty()) {
    return Args::arbitrary();
  }
  std::size_t lo = 0;
  std::size_t hi = 0;
  bool unbounded = false;
  for (const CLI::Option* p : positionals) {
    auto max = static_cast<std::size_t>(std::max(p->get_items_expected_max(), 0));
    if (p->get_required()) {
      lo += static_cast<std::size_t>(std::max(p->get_items_expected_min(), 0));
    }
    if (max >= static_cast<std::size_t>(CLI::detail::expected_max_vector_size)) {
      unbounded = true;
    } else {
      hi += max;
    }
  }
  if (unbounded) {
    return Args::minimum(lo);
  }
  if (lo == hi) {
    return Args::exact(lo);
  }
  return lo == 0 ? Args::maximum(hi) : Args::range(lo, hi);
}

std::vector<FlagView> local_flags(const CLI::App& command, const CommandMeta& meta) {
  std::vector<FlagView> flags;
  for (const CLI::Option* opt : command.get_options(is_flag)) {
    flags.push_back(view_of(command, *opt, meta));
  }
  bool has_help =
      std::any_of(flags.begin(), flags.end(), [](const FlagView& f) { return f.name == "help"; });
  if (!has_help) {
    flags.push_back(help_flag(command));
  }
  sort_by_name(flags);
  return flags;
}

std::vector<FlagView> inherited_flags(const CLI::App& command, const CommandMeta& meta) {
  std::vector<FlagView> flags;
  auto local = local_flags(command, meta);
  auto known = [&](const std::string& name) {
    auto same = [&](const FlagView& f) { return f.name == name; };
    return std::any_of(local.begin(), local.end(), same) ||
           std::any_of(flags.begin(), flags.end(), same);
  };
  for (const CLI::App* p = command.get_parent(); p != nullptr; p = p->get_parent()) {
    for (const CLI::Option* opt : p->get_options(is_flag)) {
      if (!meta.is_persistent(opt)) {
        continue;
      }
      FlagView v = view_of(*p, *opt, meta);
      if (!known(v.name)) {
        flags.push_back(std::move(v));
      }
    }
  }
  sort_by_name(flags);
  return flags;
}

std::vector<FlagView> all_flags(const CLI::App& command, const CommandMeta& meta) {
  auto flags = local_flags(command, meta);
  auto inherited = inherited_flags(command, meta);
  flags.insert(flags.end(), std::make_move_iterator(inherited.begin()),
               std::make_move_iterator(inherited.end()));
  return flags;
}

} // namespace opm::cli
