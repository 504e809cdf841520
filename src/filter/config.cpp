#include "filter/config.hpp"

#include "catalog/decode.hpp"
#include "json/unmarshal.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>

namespace opm::filter {

namespace {

constexpr std::string_view k_api_version = "olm.operatorframework.io/v1alpha1";
constexpr std::string_view k_kind = "FilterConfiguration";

using json::Field;
using json::Kind;
using json::Type;

constexpr std::array k_channel_fields{Field{"name", &json::k_string},
                                      Field{"versionRange", &json::k_string}};
constexpr Type k_channel = Type::structure("v1alpha1.Channel", "Channel", k_channel_fields);
constexpr Type k_channels = Type::container(Kind::slice, "[]v1alpha1.Channel", k_channel);
constexpr std::array k_package_fields{Field{"name", &json::k_string},
                                      Field{"defaultChannel", &json::k_string},
                                      Field{"channels", &k_channels}};
constexpr Type k_package = Type::structure("v1alpha1.Package", "Package", k_package_fields);
constexpr Type k_packages = Type::container(Kind::slice, "[]v1alpha1.Package", k_package);
constexpr std::array k_config_fields{Field{"apiVersion", &json::k_string},
                                     Field{"kind", &json::k_string},
                                     Field{"packages", &k_packages}};
constexpr Type k_config =
    Type::structure("v1alpha1.FilterConfiguration", "FilterConfiguration", k_config_fields);

std::string string_member(const Json& object, std::string_view field) {
  const Json* found = json::find_member(object, field);
  return found != nullptr && found->is_string() ? found->get<std::string>() : std::string();
}

const Json* array_member(const Json& object, std::string_view field) {
  const Json* found = json::find_member(object, field);
  return found != nullptr && found->is_array() ? found : nullptr;
}

// "yaml: line 3: ..." names a line of the file: it becomes the error's location.
Error located_in(Error error, std::string_view file) {
  std::string_view text = error.message();
  std::size_t line = 0;
  if (text.starts_with("yaml: line ")) {
    std::string_view digits = text.substr(11);
    std::from_chars(digits.data(), digits.data() + digits.size(), line);
  }
  return Error(Errc::invalid, std::string(text), Location{.file = std::string(file), .line = line});
}

// The line of each rule's `name:`, looked for in document order: rules are written in the
// order they are read, each name before the next rule. Not found (flow style, JSON, a
// name written after the rule's channels): no line.
class NameLines {
public:
  explicit NameLines(std::string_view text) : m_lines(util::split(text, '\n')) {}

  std::size_t next(const std::string& name) {
    for (std::size_t i = m_next; i < m_lines.size(); ++i) {
      if (names(m_lines[i], name)) {
        m_next = i + 1;
        return i + 1;
      }
    }
    return 0;
  }

private:
  static bool names(std::string_view line, const std::string& name) {
    line = util::trim(line);
    if (line.starts_with("- ")) {
      line = util::trim(line.substr(2));
    }
    if (!line.starts_with("name:")) {
      return false;
    }
    auto value = util::trim(line.substr(5));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    return value == name;
  }

  std::vector<std::string> m_lines;
  std::size_t m_next = 0;
};

Config read(const Json& doc, std::string_view text, std::string_view file) {
  NameLines lines(text);
  auto where = [&lines, file](const std::string& name) {
    return Location{.file = std::string(file), .line = name.empty() ? 0 : lines.next(name)};
  };
  Config cfg;
  const Json* packages = array_member(doc, "packages");
  if (packages == nullptr) {
    return cfg;
  }
  for (const Json& p : *packages) {
    PackageRule rule{.name = string_member(p, "name"),
                     .default_channel = string_member(p, "defaultChannel"),
                     .channels = {},
                     .where = {}};
    rule.where = where(rule.name);
    if (const Json* channels = array_member(p, "channels")) {
      for (const Json& c : *channels) {
        std::string name = string_member(c, "name");
        rule.channels.push_back({.name = name,
                                 .version_range = string_member(c, "versionRange"),
                                 .where = where(name)});
      }
    }
    cfg.packages.push_back(std::move(rule));
  }
  return cfg;
}

// The design's Validate, every problem in order.
std::vector<std::string> problems(const Json& doc, const Config& cfg) {
  std::vector<std::string> out;
  if (auto v = string_member(doc, "apiVersion"); v != k_api_version) {
    out.push_back(fmt::format("unexpected API version {}", util::go_quote(v)));
  }
  if (auto k = string_member(doc, "kind"); k != k_kind) {
    out.push_back(fmt::format("unexpected kind {}", util::go_quote(k)));
  }
  if (cfg.packages.empty()) {
    out.emplace_back("at least one package must be specified");
  }
  for (std::size_t i = 0; i < cfg.packages.size(); ++i) {
    const auto& pkg = cfg.packages[i];
    auto where = fmt::format("package {} at index [{}] is invalid", util::go_quote(pkg.name), i);
    if (pkg.name.empty()) {
      out.push_back(where + ": name must be specified");
    }
    for (std::size_t j = 0; j < pkg.channels.size(); ++j) {
      if (pkg.channels[j].name.empty()) {
        out.push_back(fmt::format("{}: channel {} at index [{}] is invalid: name must be specified",
                                  where, util::go_quote(pkg.channels[j].name), j));
      }
    }
  }
  return out;
}

} // namespace

Result<Config> parse_config(std::string_view text, std::string_view file) {
  auto doc = catalog::yaml_to_json(text);
  if (!doc) {
    return std::unexpected(located_in(std::move(doc).error(), file));
  }
  Location where{.file = std::string(file)};
  if (doc->is_null()) {
    *doc = Json::object();
  }
  if (auto type_problem = json::check(*doc, k_config)) {
    return util::fail(Errc::invalid, *type_problem, where);
  }
  Config cfg = read(*doc, text, file);
  if (auto found = problems(*doc, cfg); !found.empty()) {
    return util::fail(Errc::invalid, util::join(found, "; "), where);
  }
  return cfg;
}

} // namespace opm::filter
