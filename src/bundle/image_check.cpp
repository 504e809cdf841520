#include "bundle/image_check.hpp"

#include "bundle/apis.hpp"
#include "bundle/document.hpp"
#include "bundle/generate.hpp"
#include "bundle/metadata.hpp"
#include "bundle/object_rules.hpp"
#include "json/parse.hpp"
#include "json/value.hpp"
#include "util/fs.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace opm::bundle {

namespace {

namespace fs = std::filesystem;

void debug(const CheckLog& log, const std::string& message) {
  if (log) {
    log("debug", message);
  }
}

// A Go string field filled from YAML or JSON: YAML scalars become their text.
std::optional<std::string> scalar_text(const Json& v, Syntax syntax) {
  if (v.is_string()) {
    return v.get<std::string>();
  }
  if (v.is_null()) {
    return std::string();
  }
  if (syntax == Syntax::yaml && (v.is_boolean() || v.is_number())) {
    return v.dump();
  }
  return std::nullopt;
}

// The annotations of an annotations document, or none when the file is not one.
std::optional<std::map<std::string, std::string>> read_annotations(std::string_view content) {
  auto doc = read_first_document(content);
  if (!doc || !doc->value.is_object()) {
    return std::nullopt;
  }
  auto it = doc->value.find("annotations");
  if (it == doc->value.end() || !it->is_object()) {
    return std::nullopt;
  }
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : it->items()) {
    auto text = scalar_text(value, doc->syntax);
    if (!text) {
      return std::nullopt;
    }
    out[key] = std::move(*text);
  }
  return out;
}

std::vector<std::string> check_annotations(const std::string& media_type,
                                           const std::map<std::string, std::string>& found) {
  std::vector<std::string> problems;
  const std::array<std::string_view, 6> labels = {k_mediatype_label, k_manifests_label,
                                                  k_metadata_label,  k_package_label,
                                                  k_channels_label,  k_default_channel_label};
  for (std::string_view label : labels) {
    auto it = found.find(std::string(label));
    bool present = it != found.end();
    std::string value = present ? it->second : "";
    if (!present && label != k_default_channel_label) {
      problems.push_back(fmt::format("Missing annotation {}", util::go_quote(label)));
    }
    if (label == k_mediatype_label && value != media_type) {
      problems.push_back(fmt::format("Expecting annotation {} to have value {} instead of {}",
                                     util::go_quote(label), util::go_quote(media_type),
                                     util::go_quote(value)));
    }
    bool must_have_value =
        label == k_channels_label || (label == k_default_channel_label && present);
    if (must_have_value && value.empty()) {
      problems.push_back(
          fmt::format("Expecting annotation {} to have non-empty value", util::go_quote(label)));
    }
  }
  return problems;
}

// Whether `value` decodes into upstream's typed dependency: an object (or null) whose
// `fields` are strings when present.
bool decodes_as(const Json& value, std::initializer_list<std::string_view> fields) {
  if (value.is_null()) {
    return true;
  }
  return value.is_object() && std::all_of(fields.begin(), fields.end(), [&value](auto field) {
           auto it = value.find(field);
           return it == value.end() || it->is_string() || it->is_null();
         });
}

std::vector<std::string> check_dependency(const RawProperty& dep) {
  Json value = dep.value.empty() ? Json() : json::parse_text(dep.value, false);
  bool known = dep.type == "olm.gvk" || dep.type == "olm.package" || dep.type == "olm.label" ||
               dep.type == "olm.constraint";
  bool decodes = known && !dep.value.empty() && !value.is_discarded();
  if (decodes && dep.type == "olm.gvk") {
    decodes = decodes_as(value, {"group", "version", "kind"});
  } else if (decodes && dep.type == "olm.package") {
    decodes = decodes_as(value, {"packageName", "version"});
  } else if (decodes && dep.type == "olm.label") {
    decodes = decodes_as(value, {"label"});
  } else if (decodes) {
    const Json& cel = value.is_object() && value.contains("cel") ? value["cel"] : Json();
    decodes = decodes_as(value, {"failureMessage"}) && decodes_as(cel, {"rule"});
  }
  // Upstream's switch has a case for unknown types, but they never decode to reach it.
  if (!decodes) {
    return {fmt::format("couldn't parse dependency of type {}", dep.type)};
  }
  std::vector<std::string> problems;
  auto require = [&](std::string_view key, std::string_view message) {
    if (json::string_member_or_empty(value, key).empty()) {
      problems.emplace_back(message);
    }
  };
  if (dep.type == "olm.gvk") {
    require("group", "API Group is empty");
    require("version", "API Version is empty");
    require("kind", "API Kind is empty");
  } else if (dep.type == "olm.package") {
    require("packageName", "Package name is empty");
    std::string version = json::string_member_or_empty(value, "version");
    if (version.empty()) {
      problems.emplace_back("Package version is empty");
    } else if (!util::semver::parse_range(version)) {
      problems.emplace_back("Invalid semver format version");
    }
  } else if (dep.type == "olm.label") {
    require("label", "Label information is missing");
  } else {
    const Json& cel = value.is_object() && value.contains("cel") ? value["cel"] : Json();
    if (cel.is_null()) {
      problems.emplace_back("The CEL field is missing");
    } else if (json::string_member_or_empty(cel, "rule").empty()) {
      problems.emplace_back("The CEL expression is missing");
    }
  }
  return problems;
}

void add_located(std::vector<std::string>& problems, std::string_view where,
                 const std::vector<std::string>& found) {
  for (const auto& p : found) {
    problems.push_back(fmt::format("{}: {}", where, p));
  }
}

// Why metadata/annotations.yaml, when there is one, is no annotations document: ": <where>:
// <parser message>", or "" when it parses (or is not there).
std::string unparsed_annotations(const fs::path& metadata_dir) {
  auto content = util::read_regular(metadata_dir / "annotations.yaml");
  if (!content) {
    return "";
  }
  auto doc = read_first_document(*content);
  if (doc) {
    return "";
  }
  return ": metadata/annotations.yaml: " + doc.error().message();
}

} // namespace

std::vector<std::string> check_format(const fs::path& dir, const CheckLog& log) {
  std::vector<std::string> problems;
  auto entries = util::sorted_entries(dir);
  if (!entries) {
    problems.push_back(entries.error().message());
  }
  bool manifests = false;
  bool metadata = false;
  for (const auto& entry : entries ? *entries : std::vector<util::DirEntry>{}) {
    if (entry.is_dir && entry.name == "manifests") {
      debug(log, "Found manifests directory");
      manifests = true;
    } else if (entry.is_dir && entry.name == "metadata") {
      debug(log, "Found metadata directory");
      metadata = true;
    }
  }
  if (!manifests) {
    problems.emplace_back("Unable to locate manifests directory");
  }
  if (!metadata) {
    problems.emplace_back("Unable to locate metadata directory");
  }
  if (!problems.empty()) {
    return problems;
  }

  debug(log, "Getting mediaType info from manifests directory");
  std::string media_type;
  if (auto detected = detect_media_type(dir / "manifests", "manifests")) {
    media_type = *detected;
  } else {
    problems.push_back(detected.error().message());
  }
  auto files = util::sorted_entries(dir / "metadata");
  if (!files) {
    problems.push_back(files.error().message());
  }
  std::optional<std::pair<std::string, std::map<std::string, std::string>>> annotations;
  std::optional<std::pair<std::string, std::vector<RawProperty>>> dependencies;
  for (const auto& f : files ? *files : std::vector<util::DirEntry>{}) {
    auto content = util::read_regular(dir / "metadata" / f.name);
    if (!content) {
      continue;
    }
    std::string where = "metadata/" + f.name;
    if (!annotations) {
      if (auto found = read_annotations(*content)) {
        annotations.emplace(where, std::move(*found));
        continue;
      }
    }
    if (!dependencies) {
      auto deps = decode_property_list(*content, "dependencies");
      if (deps && !deps->empty()) {
        dependencies.emplace(where, std::move(*deps));
      }
    }
  }
  if (!annotations) {
    problems.push_back("Could not find annotations file" + unparsed_annotations(dir / "metadata"));
  } else {
    debug(log, "Found annotations file");
    add_located(problems, annotations->first, check_annotations(media_type, annotations->second));
  }
  if (!dependencies) {
    debug(log, "Could not find optional dependencies file");
  } else {
    debug(log, "Found dependencies file");
    for (const auto& dep : dependencies->second) {
      add_located(problems, dependencies->first, check_dependency(dep));
    }
  }
  return problems;
}

namespace {

constexpr std::string_view k_v1beta1_crd_warning =
    "GroupVersionKind apiextensions.k8s.io/v1beta1, Kind=CustomResourceDefinition was "
    "deprecated in Kubernetes 1.16+, removed in 1.22. Supportfor apiextensions.k8s.io/"
    "v1beta1 CustomResourceDefinitions will be removed in the future in favor of "
    "apiextensions.k8s.io/v1 CustomResourceDefinitions.";

// One file of manifests/: read, decoded and checked on its own. Every object decoded is
// kept for the checks across files, those of unsupported kinds too, as upstream keeps them.
void check_manifest_file(const fs::path& manifests_dir, const std::string& name, bool registry_v1,
                         const CheckLog& log, std::vector<std::string>& problems,
                         ManifestObjects& objects) {
  std::string where = "manifests/" + name;
  auto content = util::read_regular(manifests_dir / name);
  if (!content) {
    problems.push_back(fmt::format("Unable to read file {} in supported types", where));
    return;
  }
  auto doc = read_first_document(*content);
  if (!doc) {
    problems.push_back(fmt::format("{}: {}", where, doc.error().message()));
    return;
  }
  std::string kind = json::string_member_or_empty(doc->value, "kind");
  if (kind.empty()) {
    problems.push_back(fmt::format("{}: Object 'Kind' is missing", where));
    return;
  }
  std::string api_version = json::string_member_or_empty(doc->value, "apiVersion");
  auto gv = parse_group_version(api_version).value_or(GroupVersion{});
  debug(log, fmt::format("Validating \"{}/{}, Kind={}\" from file \"{}\"", gv.group, gv.version,
                         kind, name));
  const Json& object = objects.emplace_back(where, std::move(doc->value)).second;
  if (registry_v1 && !is_supported_kind(kind)) {
    problems.push_back(
        fmt::format("{} is not supported type for registryV1 bundle: {}", kind, where));
    return;
  }
  if (log && kind == "CustomResourceDefinition" && api_version == "apiextensions.k8s.io/v1beta1") {
    log("warning", std::string(k_v1beta1_crd_warning));
  }
  add_located(problems, where, check_object(object, kind, api_version));
}

void check_optional(const ManifestObjects& objects, const ContentChecks& checks,
                    const CheckLog& log, std::vector<std::string>& problems) {
  if (checks.optional.contains(std::string(k_operatorhub_validator))) {
    debug(log, "Performing operatorhub validation");
    for (const auto& [where, object] : objects) {
      if (json::string_member_or_empty(object, "kind") == "ClusterServiceVersion") {
        add_located(problems, where,
                    check_operatorhub(object, checks.categories ? &*checks.categories : nullptr));
        break;
      }
    }
  }
  if (checks.optional.contains(std::string(k_bundle_objects_validator))) {
    debug(log, "Performing bundle objects validation");
    for (const auto& [where, object] : objects) {
      add_located(problems, where, check_bundle_object(object));
    }
  }
}

} // namespace

std::vector<std::string> check_content(const fs::path& manifests_dir, const ContentChecks& checks,
                                       const CheckLog& log) {
  debug(log, "Validating bundle contents");
  std::vector<std::string> problems;
  auto media_type = detect_media_type(manifests_dir, "manifests");
  if (!media_type) {
    problems.push_back(media_type.error().message());
  } else if (*media_type == k_helm_type) {
    return {};
  }
  bool registry_v1 = media_type && *media_type == k_registry_v1_type;
  auto entries = util::sorted_entries(manifests_dir);
  if (!entries) {
    problems.push_back(entries.error().message());
  }
  ManifestObjects objects;
  for (const auto& entry : entries ? *entries : std::vector<util::DirEntry>{}) {
    check_manifest_file(manifests_dir, entry.name, registry_v1, log, problems, objects);
  }
  add_located(problems, "manifests", check_owned_crds_present(objects));
  check_optional(objects, checks, log, problems);
  return problems;
}

Result<std::set<std::string>> read_custom_categories(const fs::path& path) {
  auto content = util::read_file(path);
  if (!content) {
    return util::fail(Errc::io, "reading category file: " + content.error().message());
  }
  Json doc = json::parse_text(*content, false);
  const Json* list = doc.is_object() && doc.contains("categories") ? &doc["categories"] : nullptr;
  bool strings = list == nullptr || list->is_null() ||
                 (list->is_array() && std::all_of(list->begin(), list->end(),
                                                  [](const Json& c) { return c.is_string(); }));
  if (doc.is_discarded() || !doc.is_object() || !strings) {
    return util::fail(Errc::invalid, "unmarshaling category file: not a JSON object with a "
                                     "\"categories\" list of strings");
  }
  std::set<std::string> out;
  if (list != nullptr && list->is_array()) {
    for (const auto& c : *list) {
      out.insert(c.get<std::string>());
    }
  }
  return out;
}

std::string validation_errors_text(const std::vector<std::string>& problems) {
  return "Bundle validation errors: " + util::join(problems, ",");
}

std::set<std::string> parse_optional_validators(std::string_view flag) {
  std::set<std::string> out;
  for (const auto& part : util::split(flag, ',')) {
    out.insert(std::string(util::trim(part)));
  }
  return out;
}

} // namespace opm::bundle
