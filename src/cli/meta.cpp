#include "cli/meta.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::cli {

std::optional<std::string> Args::check(const std::vector<std::string>& args,
                                       std::string_view command_path) const {
  std::size_t n = args.size();
  switch (kind) {
  case Kind::arbitrary:
    return std::nullopt;
  case Kind::none:
    if (n > 0) {
      return fmt::format("unknown command {} for {}", util::go_quote(args[0]),
                         util::go_quote(command_path));
    }
    return std::nullopt;
  case Kind::exact:
    if (n != min) {
      return fmt::format("accepts {} arg(s), received {}", min, n);
    }
    return std::nullopt;
  case Kind::minimum:
    if (n < min) {
      return fmt::format("requires at least {} arg(s), only received {}", min, n);
    }
    return std::nullopt;
  case Kind::maximum:
    if (n > max) {
      return fmt::format("accepts at most {} arg(s), received {}", max, n);
    }
    return std::nullopt;
  case Kind::range:
    if (n < min || n > max) {
      return fmt::format("accepts between {} and {} arg(s), received {}", min, max, n);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

void CommandMeta::describe(const CLI::App* command, CommandSpec spec) {
  m_specs.insert_or_assign(command, std::move(spec));
}

const CommandSpec* CommandMeta::spec(const CLI::App* command) const {
  auto it = m_specs.find(command);
  return it == m_specs.end() ? nullptr : &it->second;
}

void CommandMeta::deprecate(const CLI::Option* flag, std::string message) {
  m_deprecated.insert_or_assign(flag, std::move(message));
}

const std::string* CommandMeta::deprecation(const CLI::Option* flag) const {
  auto it = m_deprecated.find(flag);
  return it == m_deprecated.end() ? nullptr : &it->second;
}

void CommandMeta::make_persistent(const CLI::Option* flag) { m_persistent.insert(flag); }

bool CommandMeta::is_persistent(const CLI::Option* flag) const {
  return m_persistent.contains(flag);
}

void CommandMeta::mutually_exclusive(const CLI::App* command, std::vector<std::string> names) {
  m_exclusive[command].push_back(std::move(names));
}

std::vector<std::vector<std::string>> CommandMeta::exclusive_groups(const CLI::App* command) const {
  auto it = m_exclusive.find(command);
  return it == m_exclusive.end() ? std::vector<std::vector<std::string>>{} : it->second;
}

} // namespace opm::cli
