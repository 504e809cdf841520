#include "template/composite.hpp"

#include "catalog/decode.hpp"
#include "catalog/load.hpp"
#include "json/unmarshal.hpp"
#include "template/detail/common.hpp"
#include "util/fs.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"
#include "validate/validate.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace opm::templates {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_basic = "olm.builder.basic";
constexpr std::string_view k_semver = "olm.builder.semver";
constexpr std::string_view k_raw = "olm.builder.raw";
constexpr std::string_view k_custom = "olm.builder.custom";

// Go struct fields without json tags: matched case-insensitively; anything else is empty.
std::string text_of(const Json& object, std::string_view field) {
  const Json* found = object.is_object() ? json::find_member(object, field) : nullptr;
  return found != nullptr && found->is_string() ? found->get<std::string>() : std::string();
}

const Json& member_of(const Json& object, std::string_view field) {
  static const Json null;
  const Json* found = object.is_object() ? json::find_member(object, field) : nullptr;
  return found != nullptr ? *found : null;
}

std::vector<std::string> texts_of(const Json& list) {
  std::vector<std::string> out;
  if (list.is_array()) {
    for (const auto& item : list) {
      out.push_back(item.is_string() ? item.get<std::string>() : std::string());
    }
  }
  return out;
}

Result<Json> first_object(std::string_view text, std::string_view what) {
  auto doc = detail::first_document(text);
  if (!doc) {
    return std::unexpected(std::move(doc).error().wrap(fmt::format("decoding {}", what)));
  }
  if (!*doc) {
    return util::fail(Errc::invalid, fmt::format("decoding {}: EOF", what));
  }
  return std::move(**doc);
}

bool known_builder(std::string_view schema) {
  return schema == k_basic || schema == k_semver || schema == k_raw || schema == k_custom;
}

// ---- builders ------------------------------------------------------------------------------

struct Component {
  std::string name;
  std::string path;
  std::string schema;
  Json config;
};

// Go's path.Join: the non-empty elements joined and cleaned.
std::string join_path(std::initializer_list<std::string_view> parts) {
  std::string joined;
  for (auto part : parts) {
    if (part.empty()) {
      continue;
    }
    if (!joined.empty()) {
      joined += '/';
    }
    joined += part;
  }
  if (joined.empty()) {
    return "";
  }
  auto clean = fs::path(joined).lexically_normal().string();
  while (clean.size() > 1 && clean.back() == '/') {
    clean.pop_back();
  }
  return clean;
}

struct BuilderConfig {
  std::string input;
  std::string output;
  std::string command;
  std::vector<std::string> args;
};

// The builder's config, strictly: unknown members are errors.
Result<BuilderConfig> read_builder_config(const Component& c, std::string_view kind, bool custom) {
  static const json::Type k_strings =
      json::Type::container(json::Kind::slice, "[]string", json::k_string);
  static const json::Field k_file_fields[] = {{"input", &json::k_string},
                                              {"output", &json::k_string}};
  static const json::Field k_custom_fields[] = {
      {"command", &json::k_string}, {"args", &k_strings}, {"output", &json::k_string}};
  static const json::Type k_file_type =
      json::Type::structure("composite.Config", "Config", k_file_fields);
  static const json::Type k_custom_type =
      json::Type::structure("composite.CustomConfig", "CustomConfig", k_custom_fields);
  const auto& type = custom ? k_custom_type : k_file_type;
  std::optional<std::string> problem;
  if (c.config.is_object()) {
    for (const auto& [key, value] : c.config.items()) {
      if (std::ranges::none_of(
              type.fields, [&](const json::Field& f) { return json::key_matches(key, f.json); })) {
        problem = fmt::format("json: unknown field {}", util::go_quote(key));
        break;
      }
    }
  }
  if (!problem && !c.config.is_null()) {
    problem = json::check(c.config, type);
  }
  if (problem) {
    return util::fail(Errc::invalid,
                      fmt::format("unmarshalling {} template config: error unmarshaling JSON: "
                                  "while decoding JSON: {}",
                                  kind, *problem));
  }
  BuilderConfig out{text_of(c.config, "input"), text_of(c.config, "output"),
                    text_of(c.config, "command"), texts_of(member_of(c.config, "args"))};
  std::vector<std::string> missing;
  if (custom ? out.command.empty() : out.input.empty()) {
    missing.push_back(
        fmt::format("{0} template config must have a non-empty {1} (templateDefinition.config.{1})",
                    kind, custom ? "command" : "input"));
  }
  if (out.output.empty()) {
    missing.push_back(fmt::format(
        "{} template config must have a non-empty output (templateDefinition.config.output)",
        kind));
  }
  if (!missing.empty()) {
    return util::fail(Errc::invalid, fmt::format("{} template configuration is invalid: {}", kind,
                                                 util::join(missing, ",")));
  }
  return out;
}

std::string look_path(const std::string& command) {
  return util::find_on_path(command).value_or(command);
}

// The command's standard output; it runs in `dir` with this process's environment.
Result<std::string> run_command(const std::string& exe, const std::vector<std::string>& args,
                                const std::string& dir, const std::string& shown) {
  auto fail_run = [&](std::string why) {
    return util::fail(Errc::invalid,
                      fmt::format("running command {}: {}", util::go_quote(shown), why));
  };
  if (::access(exe.c_str(), X_OK) != 0) {
    return fail_run(
        exe.find('/') == std::string::npos
            ? fmt::format("exec: {}: executable file not found in $PATH", util::go_quote(exe))
            : fmt::format("fork/exec {}: {}", exe, util::errno_text(errno)));
  }
  std::vector<std::string> argv{exe};
  argv.insert(argv.end(), args.begin(), args.end());
  auto done =
      util::run_process({.exe = exe, .argv = std::move(argv), .cwd = dir, .capture_stderr = false});
  if (!done) {
    return fail_run(fmt::format("chdir {}: {}", dir, done.error().message()));
  }
  if (!done->succeeded()) {
    return fail_run(done->exit_text());
  }
  return std::move(done->out);
}

Result<std::string> read_input(const std::string& path, std::string_view doing) {
  auto text = util::read_file(path);
  if (!text) {
    return util::fail(Errc::invalid, fmt::format("{}{}", doing, text.error().message()));
  }
  return text;
}

Result<catalog::DeclarativeConfig> build_config(const Component& c, const CatalogEntry& catalog,
                                                const CompositeOptions& options,
                                                std::string& output) {
  if (c.schema == k_custom) {
    auto cfg = OPM_TRY(read_builder_config(c, "custom", true));
    output = cfg.output;
    auto exe = look_path(cfg.command);
    auto shown = util::join(
        [&] {
          std::vector<std::string> parts{exe};
          parts.insert(parts.end(), cfg.args.begin(), cfg.args.end());
          return parts;
        }(),
        " ");
    auto out = OPM_TRY(run_command(exe, cfg.args, catalog.working_dir, shown));
    auto loaded = detail::load_catalog_stream(out, "input");
    if (!loaded) {
      std::vector<std::string> parts{cfg.command};
      parts.insert(parts.end(), cfg.args.begin(), cfg.args.end());
      return util::fail(Errc::invalid,
                        fmt::format("error parsing custom command output: {}, {}",
                                    util::join(parts, "'"), loaded.error().message()));
    }
    return loaded;
  }
  std::string_view kind = c.schema == k_basic ? "basic" : c.schema == k_semver ? "semver" : "raw";
  auto cfg = OPM_TRY(read_builder_config(c, kind, false));
  output = cfg.output;
  if (kind == "raw") {
    auto text = OPM_TRY(
        read_input(cfg.input, fmt::format("error reading raw input file: {}, ", cfg.input)));
    auto loaded = detail::load_catalog_stream(text, "input");
    if (!loaded) {
      return util::fail(Errc::invalid, fmt::format("error parsing raw input file: {}, {}",
                                                   cfg.input, loaded.error().message()));
    }
    return loaded;
  }
  auto text = OPM_TRY(read_input(cfg.input, fmt::format("error reading {} template: ", kind)));
  auto rendered = kind == "basic" ? detail::render_basic_or_stream(text, options.render_bundles)
                                  : render_semver(text, options.render_bundles);
  if (!rendered) {
    return util::fail(Errc::invalid, fmt::format("error rendering {} template: {}", kind,
                                                 rendered.error().message()));
  }
  return rendered;
}

Result<void> write_output(const catalog::DeclarativeConfig& cfg, const std::string& path,
                          catalog::Format format) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) {
    return util::fail(Errc::invalid,
                      fmt::format("creating output directory {}: mkdir {}: {}",
                                  util::go_quote(path), fs::path(path).parent_path().string(),
                                  ec.message()));
  }
  std::ostringstream text;
  catalog::write(cfg, format, text);
  if (auto written = util::write_file_atomic(path, text.str()); !written) {
    return util::fail(Errc::invalid, fmt::format("creating output file {}: {}",
                                                 util::go_quote(path), written.error().message()));
  }
  return {};
}

Result<void> validate_dir(const CatalogEntry& catalog, const std::string& dir) {
  auto path = join_path({catalog.working_dir, dir});
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return util::fail(Errc::invalid,
                      fmt::format("directory not found. validation path needs to be composed of "
                                  "ContainerConfig.WorkingDir+Component[].Destination.Path: {}: "
                                  "stat {}: {}",
                                  util::go_quote(path), path, util::errno_text(errno)));
  }
  if (!S_ISDIR(st.st_mode)) {
    return util::fail(Errc::invalid, fmt::format("{} is not a directory", util::go_quote(path)));
  }
  auto problem = [&]() -> std::optional<std::string> {
    auto cfg = catalog::load_dir(path);
    if (!cfg) {
      return cfg.error().describe();
    }
    auto outcome = validate::check(*cfg);
    if (outcome.passed()) {
      return std::nullopt;
    }
    return validate::located_failure(std::move(outcome)).describe();
  }();
  if (problem) {
    return util::fail(Errc::invalid, fmt::format("validation failure in path {}: {}",
                                                 util::go_quote(path), *problem));
  }
  return {};
}

Result<void> build_component(const Component& c, const CatalogEntry& catalog,
                             const CompositeOptions& options) {
  std::string output;
  auto built = build_config(c, catalog, options, output);
  if (built) {
    auto path = join_path({catalog.working_dir, c.path, output});
    auto written = write_output(*built, path, options.output);
    if (!written) {
      return std::unexpected(std::move(written).error());
    }
    return {};
  }
  return std::unexpected(std::move(built).error());
}

std::vector<Component> components_of(const Json& config) {
  std::vector<Component> out;
  const Json& list = member_of(config, "components");
  if (!list.is_array()) {
    return out;
  }
  for (const auto& item : list) {
    const Json& tmpl = member_of(member_of(item, "strategy"), "template");
    out.push_back({text_of(item, "name"), text_of(member_of(item, "destination"), "path"),
                   text_of(tmpl, "schema"), member_of(tmpl, "config")});
  }
  return out;
}

Result<void> render_components(const std::vector<CatalogEntry>& catalogs,
                               const std::vector<Component>& components,
                               const CompositeOptions& options) {
  for (const auto& c : components) {
    auto catalog = std::ranges::find(catalogs, c.name, &CatalogEntry::name);
    if (catalog == catalogs.end()) {
      std::vector<std::string> names;
      for (const auto& known : catalogs) {
        names.push_back(known.name);
      }
      return util::fail(Errc::invalid,
                        fmt::format("building component {}: component does not exist in the "
                                    "catalog configuration. Available components are: [{}]",
                                    util::go_quote(c.name), util::join(names, " ")));
    }
    if (std::ranges::find(catalog->builders, c.schema) == catalog->builders.end()) {
      return util::fail(Errc::invalid,
                        fmt::format("building component {}: no builder found for template "
                                    "schema {}",
                                    util::go_quote(c.name), util::go_quote(c.schema)));
    }
    if (auto built = build_component(c, *catalog, options); !built) {
      return std::unexpected(std::move(built).error().wrap(
          fmt::format("building component {}", util::go_quote(c.name))));
    }
    if (options.validate) {
      if (auto valid = validate_dir(*catalog, c.path); !valid) {
        return std::unexpected(std::move(valid).error().wrap(
            fmt::format("validating component {}", util::go_quote(c.name))));
      }
    }
  }
  return {};
}

} // namespace

Result<std::vector<CatalogEntry>> read_catalog_config(std::string_view text) {
  auto config = OPM_TRY(first_object(text, "catalog config"));
  if (text_of(config, "schema") != "olm.composite.catalogs") {
    return util::fail(Errc::invalid, "catalog configuration file has unknown schema, should be "
                                     "\"olm.composite.catalogs\"");
  }
  std::vector<CatalogEntry> catalogs;
  std::string problems;
  const Json& list = member_of(config, "catalogs");
  for (const auto& item : list.is_array() ? list : Json::array()) {
    const Json& destination = member_of(item, "destination");
    CatalogEntry entry{text_of(item, "name"), text_of(destination, "baseImage"),
                       text_of(destination, "workingDir"), texts_of(member_of(item, "builders"))};
    std::vector<std::string> errs;
    if (entry.base_image.empty()) {
      errs.emplace_back("destination.baseImage must not be an empty string");
    }
    if (entry.working_dir.empty()) {
      errs.emplace_back("destination.workingDir must not be an empty string");
    }
    if (!errs.empty()) {
      problems += fmt::format("\nCatalog {}:\n", entry.name);
      for (const auto& e : errs) {
        problems += fmt::format("  - {}\n", e);
      }
      continue;
    }
    for (const auto& builder : entry.builders) {
      if (!known_builder(builder)) {
        return util::fail(Errc::invalid,
                          fmt::format("getting builder {} for catalog {}: unknown schema {}",
                                      util::go_quote(builder), util::go_quote(entry.name),
                                      util::go_quote(builder)));
      }
    }
    if (std::ranges::find(catalogs, entry.name, &CatalogEntry::name) == catalogs.end()) {
      catalogs.push_back(std::move(entry));
    }
  }
  if (!problems.empty()) {
    problems.pop_back(); // the log line ends it, as Go's log does for a final newline
    return util::fail(Errc::invalid,
                      "catalog configuration file field validation failed: " + problems);
  }
  return catalogs;
}

Result<void> render_composite(const std::vector<CatalogEntry>& catalogs, std::string_view text,
                              const std::string& file, const CompositeOptions& options) {
  auto config = OPM_TRY(first_object(text, "composite config"));
  if (text_of(config, "schema") != "olm.composite") {
    return util::fail(Errc::invalid, fmt::format("{} has unknown schema, should be "
                                                 "\"olm.composite\"",
                                                 util::go_quote(file)));
  }
  auto rendered = render_components(catalogs, components_of(config), options);
  if (!rendered) {
    return std::unexpected(std::move(rendered).error().wrap("rendering the composite template"));
  }
  return {};
}

} // namespace opm::templates
