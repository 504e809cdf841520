#include "bundle/object_rules.hpp"

#include "json/parse.hpp"
#include "json/value.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

namespace opm::bundle {

namespace {

constexpr std::array<std::string_view, 22> k_supported_kinds = {"ClusterServiceVersion",
                                                                "CustomResourceDefinition",
                                                                "ClusterRole",
                                                                "ClusterRoleBinding",
                                                                "Service",
                                                                "ServiceAccount",
                                                                "Role",
                                                                "RoleBinding",
                                                                "PrometheusRule",
                                                                "ServiceMonitor",
                                                                "Secret",
                                                                "ConfigMap",
                                                                "PodDisruptionBudget",
                                                                "PriorityClass",
                                                                "VerticalPodAutoscaler",
                                                                "ConsoleYAMLSample",
                                                                "ConsoleQuickStart",
                                                                "ConsoleCLIDownload",
                                                                "ConsoleLink",
                                                                "ConsolePlugin",
                                                                "NetworkPolicy",
                                                                "PodMonitor"};

const Json& member(const Json& v, std::string_view key) { return json::member_or_null(v, key); }

std::string string_at(const Json& v, std::string_view key) {
  return json::string_member_or_empty(v, key);
}

const Json& path(const Json& v, std::initializer_list<std::string_view> keys) {
  const Json* at = &v;
  for (auto key : keys) {
    at = &member(*at, key);
  }
  return *at;
}

bool is_alnum_lower(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Kubernetes' IsDNS1123Subdomain: its violations, none when valid.
std::vector<std::string> dns1123_subdomain_violations(std::string_view name) {
  std::vector<std::string> out;
  if (name.size() > 253) {
    out.emplace_back("must be no more than 253 characters");
  }
  bool valid = !name.empty();
  for (const auto& label : util::split(name, '.')) {
    valid = valid && !label.empty() && is_alnum_lower(label.front()) &&
            is_alnum_lower(label.back()) && std::all_of(label.begin(), label.end(), [](char c) {
              return is_alnum_lower(c) || c == '-';
            });
  }
  if (!valid) {
    out.emplace_back("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                     "characters, '-' or '.', and must start and end with an alphanumeric "
                     "character (e.g. 'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return out;
}

// operator-framework/api's parseCSVNameFormat: "" when `name` is <operator>.(v)X.Y.Z.
std::string csv_name_problem(const std::string& name) {
  auto violations = dns1123_subdomain_violations(name);
  if (!violations.empty()) {
    return fmt::format("{} is invalid:\n[{}]", util::go_quote(name), util::join(violations, " "));
  }
  auto dot = name.find('.');
  if (dot == std::string::npos) {
    return fmt::format("{} must have format: {{operator name}}.(v)X.Y.Z", util::go_quote(name));
  }
  std::string_view version = std::string_view(name).substr(dot + 1);
  std::string_view trimmed =
      version.substr(std::min(version.find_first_not_of('v'), version.size()));
  if (!util::semver::parse(trimmed)) {
    return fmt::format("{} contains an invalid semver {}", util::go_quote(name),
                       util::go_quote(version));
  }
  return "";
}

std::string csv_error(const std::string& csv_name, std::string_view detail) {
  return fmt::format("Error: Value : ({}) {}", csv_name, detail);
}

std::string gvk_text(std::string_view group, std::string_view version, std::string_view kind) {
  return fmt::format("{}/{}, Kind={}", group, version, kind);
}

std::vector<std::string> check_examples(const Json& csv, const std::string& name) {
  const Json& annotations = path(csv, {"metadata", "annotations"});
  std::string examples = string_at(annotations, "alm-examples");
  if (examples.empty()) {
    examples = string_at(annotations, "olm.examples");
  }
  if (examples.empty()) {
    return {};
  }
  Json parsed = json::parse_text(examples, false);
  if (parsed.is_discarded() || !parsed.is_array()) {
    return {"Error: Value : error decoding example CustomResource"};
  }
  std::set<std::string> provided;
  for (const auto& owned : path(csv, {"spec", "customresourcedefinitions", "owned"})) {
    std::string crd = string_at(owned, "name");
    auto dot = crd.find('.');
    if (dot != std::string::npos) {
      provided.insert(
          gvk_text(crd.substr(dot + 1), string_at(owned, "version"), string_at(owned, "kind")));
    }
  }
  for (const auto& owned : path(csv, {"spec", "apiservicedefinitions", "owned"})) {
    provided.insert(
        gvk_text(string_at(owned, "group"), string_at(owned, "version"), string_at(owned, "kind")));
  }
  std::set<std::string> problems;
  for (const auto& example : parsed) {
    std::string api_version = string_at(example, "apiVersion");
    auto slash = api_version.find('/');
    std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
    std::string version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
    std::string gvk = gvk_text(group, version, string_at(example, "kind"));
    if (!provided.contains(gvk)) {
      problems.insert(fmt::format("Error: Value {}: example must have a provided API", gvk));
    }
  }
  (void)name;
  return {problems.begin(), problems.end()};
}

bool is_empty(const Json& v) {
  return v.is_null() || ((v.is_object() || v.is_array() || v.is_string()) && v.empty());
}

// operator-framework/api's checkEmptyFields: the CSV fields its Go type requires (no
// `omitempty`), as "Field <Go path>, Value struct|field".
std::vector<std::string> check_required_fields(const Json& csv) {
  std::vector<std::string> problems;
  auto missing = [&problems](std::string_view field, std::string_view what) {
    problems.push_back(fmt::format("Error: Field {}, Value {}", field, what));
  };
  if (is_empty(member(csv, "metadata"))) {
    missing("ObjectMeta", "struct");
  }
  const Json& spec = member(csv, "spec");
  if (is_empty(spec)) {
    missing("Spec", "struct");
    return problems;
  }
  const Json& install = member(spec, "install");
  if (is_empty(install)) {
    missing("Spec.InstallStrategy", "struct");
  } else {
    if (string_at(install, "strategy").empty()) {
      missing("Spec.InstallStrategy.StrategyName", "field");
    }
    // An empty Go struct is one whose fields are all empty; only a non-empty one is looked into.
    const Json& details = member(install, "spec");
    bool details_set = !is_empty(member(details, "permissions")) ||
                       !is_empty(member(details, "clusterPermissions"));
    if (details_set && is_empty(member(details, "deployments"))) {
      missing("Spec.InstallStrategy.StrategySpec.DeploymentSpecs", "field");
    }
  }
  if (string_at(spec, "displayName").empty()) {
    missing("Spec.DisplayName", "field");
  }
  return problems;
}

std::vector<std::string> check_csv(const Json& csv) {
  std::string name = string_at(member(csv, "metadata"), "name");
  std::vector<std::string> problems;
  if (auto p = csv_name_problem(name); !p.empty()) {
    problems.push_back(csv_error(name, "metadata.name " + p));
  }
  std::string replaces = string_at(member(csv, "spec"), "replaces");
  if (!replaces.empty()) {
    if (auto p = csv_name_problem(replaces); !p.empty()) {
      problems.push_back(csv_error(name, "spec.replaces " + p));
    } else if (replaces == name) {
      problems.push_back(csv_error(name, "spec.replaces names the CSV itself"));
    }
  }
  auto examples = check_examples(csv, name);
  problems.insert(problems.end(), examples.begin(), examples.end());
  const Json& modes = path(csv, {"spec", "installModes"});
  if (!modes.is_array() || modes.empty()) {
    problems.push_back(csv_error(name, "install modes not found"));
  } else if (std::none_of(modes.begin(), modes.end(), [](const Json& m) {
               return member(m, "supported").is_boolean() && member(m, "supported").get<bool>();
             })) {
    problems.push_back(csv_error(name, "none of InstallModeTypes are supported"));
  }
  auto fields = check_required_fields(csv);
  problems.insert(problems.end(), fields.begin(), fields.end());
  return problems;
}

std::vector<std::string> check_crd(const Json& crd, std::string_view api_version) {
  if (api_version != "apiextensions.k8s.io/v1" && api_version != "apiextensions.k8s.io/v1beta1") {
    return {fmt::format("Unsupported api version of CRD: {}", api_version)};
  }
  std::vector<std::string> problems;
  const Json& spec = member(crd, "spec");
  std::string group = string_at(spec, "group");
  std::string plural = string_at(member(spec, "names"), "plural");
  if (group.empty()) {
    problems.emplace_back("spec.group: Required value");
  }
  if (plural.empty()) {
    problems.emplace_back("spec.names.plural: Required value");
  }
  if (string_at(member(spec, "names"), "kind").empty()) {
    problems.emplace_back("spec.names.kind: Required value");
  }
  std::string name = string_at(member(crd, "metadata"), "name");
  if (!group.empty() && !plural.empty() && name != plural + "." + group) {
    problems.push_back(
        fmt::format("metadata.name: Invalid value: {}: must be spec.names.plural+\".\"+spec.group",
                    util::go_quote(name)));
  }
  const Json& versions = member(spec, "versions");
  bool v1 = api_version == "apiextensions.k8s.io/v1";
  if (v1 && (!versions.is_array() || versions.empty())) {
    problems.emplace_back("spec.versions: Invalid value: must have exactly one version marked as "
                          "storage version");
    return problems;
  }
  int storage = 0;
  for (std::size_t i = 0; versions.is_array() && i < versions.size(); ++i) {
    const Json& version = versions[i];
    storage += member(version, "storage").is_boolean() && member(version, "storage").get<bool>();
    bool has_schema = member(path(version, {"schema"}), "openAPIV3Schema").is_object() ||
                      member(member(spec, "validation"), "openAPIV3Schema").is_object();
    if (v1 && !has_schema) {
      problems.push_back(fmt::format(
          "spec.versions[{}].schema.openAPIV3Schema: Required value: schemas are required", i));
    }
  }
  if (versions.is_array() && !versions.empty() && storage != 1) {
    problems.emplace_back("spec.versions: Invalid value: must have exactly one version marked as "
                          "storage version");
  }
  return problems;
}

std::vector<std::string> string_list(const Json& v) {
  std::vector<std::string> out;
  if (v.is_array()) {
    for (const auto& s : v) {
      if (s.is_string()) {
        out.push_back(s.get<std::string>());
      }
    }
  }
  return out;
}

bool contains_any(const std::vector<std::string>& list,
                  std::initializer_list<std::string_view> items) {
  return std::any_of(items.begin(), items.end(), [&list](std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  });
}

} // namespace

bool is_supported_kind(std::string_view kind) {
  return std::find(k_supported_kinds.begin(), k_supported_kinds.end(), kind) !=
         k_supported_kinds.end();
}

std::vector<std::string> check_object(const Json& object, std::string_view kind,
                                      std::string_view api_version) {
  if (kind == "ClusterServiceVersion") {
    return check_csv(object);
  }
  if (kind == "CustomResourceDefinition") {
    return check_crd(object, api_version);
  }
  const Json& metadata = member(object, "metadata");
  if (string_at(metadata, "name").empty() && string_at(metadata, "generateName").empty()) {
    return {"error validating object metadata: metadata.name: Required value: name or "
            "generateName is required"};
  }
  return {};
}

std::vector<std::string> check_owned_crds_present(const ManifestObjects& objects) {
  const Json* csv = nullptr;
  std::set<std::string> crd_keys; // name/version
  for (const auto& [where, object] : objects) {
    std::string kind = string_at(object, "kind");
    if (kind == "ClusterServiceVersion" && csv == nullptr) {
      csv = &object;
    } else if (kind == "CustomResourceDefinition") {
      std::string name = string_at(member(object, "metadata"), "name");
      const Json& spec = member(object, "spec");
      if (!string_at(spec, "version").empty()) {
        crd_keys.insert(name + "/" + string_at(spec, "version"));
      }
      for (const auto& version : member(spec, "versions")) {
        crd_keys.insert(name + "/" + string_at(version, "name"));
      }
    }
  }
  if (csv == nullptr) {
    return {};
  }
  std::string csv_name = string_at(member(*csv, "metadata"), "name");
  std::vector<std::string> problems;
  for (const auto& owned : path(*csv, {"spec", "customresourcedefinitions", "owned"})) {
    std::string key = string_at(owned, "name") + "/" + string_at(owned, "version");
    if (!crd_keys.contains(key)) {
      problems.push_back(fmt::format("Error: Value {{{} {} {} {}}}: owned CRD {} not found in "
                                     "bundle {}",
                                     "", string_at(owned, "kind"), string_at(owned, "name"),
                                     string_at(owned, "version"), key, util::go_quote(csv_name)));
    }
  }
  return problems;
}

std::vector<std::string> check_bundle_object(const Json& object) {
  std::string kind = string_at(object, "kind");
  std::vector<std::string> problems;
  if (kind == "PodDisruptionBudget") {
    const Json& max = path(object, {"spec", "maxUnavailable"});
    if ((max.is_number_integer() && max.get<long long>() == 0) || max == "0%") {
      problems.emplace_back("Error: maxUnavailable field cannot be set to 0 or 0%");
    }
    if (path(object, {"spec", "minAvailable"}) == "100%") {
      problems.emplace_back("Error: minAvailable field cannot be set to 100%");
    }
  } else if (kind == "PriorityClass") {
    if (member(object, "globalDefault") == true) {
      problems.emplace_back("Error: globalDefault field cannot be set to true");
    }
  } else if (kind == "Role" || kind == "ClusterRole") {
    for (const auto& rule : member(object, "rules")) {
      if (contains_any(string_list(member(rule, "apiGroups")), {"security.openshift.io"}) &&
          contains_any(string_list(member(rule, "resources")), {"securitycontextconstraints"}) &&
          contains_any(string_list(member(rule, "verbs")), {"*", "delete", "update", "patch"}) &&
          contains_any(string_list(member(rule, "resourceNames")),
                       {"privileged", "restricted", "anyuid", "hostaccess", "hostmount-anyuid",
                        "hostnetwork", "node-exporter", "nonroot"})) {
        problems.emplace_back("Error: RBAC includes permission to modify default "
                              "securitycontextconstraints, which could impact cluster stability");
      }
    }
  }
  return problems;
}

namespace {

constexpr std::array<std::string_view, 5> k_capability_levels = {
    "Basic Install", "Seamless Upgrades", "Full Lifecycle", "Deep Insights", "Auto Pilot"};
constexpr std::array<std::string_view, 4> k_icon_media_types = {"image/gif", "image/jpeg",
                                                                "image/png", "image/svg+xml"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// Go's url.ParseRequestURI accepts an absolute URL or an absolute path.
bool is_request_uri(std::string_view url) {
  if (url.starts_with('/')) {
    return true;
  }
  auto colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0 || std::isalpha(url[0]) == 0) {
    return false;
  }
  return std::all_of(url.begin(), url.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '-' || c == '.';
  });
}

void check_people_and_links(const Json& spec, std::vector<std::string>& errs) {
  for (const auto& maintainer : member(spec, "maintainers")) {
    std::string email = string_at(maintainer, "email");
    if (string_at(maintainer, "name").empty() || email.empty()) {
      errs.emplace_back("csv.Spec.Maintainers elements should contain both name and email");
    }
    if (!email.empty() && email.find('@') == std::string::npos) {
      errs.push_back(fmt::format(
          "csv.Spec.Maintainers email {} is invalid: mail: missing '@' or angle-addr", email));
    }
  }
  for (const auto& link : member(spec, "links")) {
    std::string url = string_at(link, "url");
    if (string_at(link, "name").empty() || url.empty()) {
      errs.emplace_back("csv.Spec.Links elements should contain both name and url");
    }
    if (!url.empty() && !is_request_uri(url)) {
      errs.push_back(fmt::format("csv.Spec.Links url {} is invalid: parse {}: invalid URI for "
                                 "request",
                                 url, util::go_quote(url)));
    }
  }
}

void check_icon(const Json& spec, std::vector<std::string>& errs) {
  const Json& icons = member(spec, "icon");
  if (icons.is_null()) {
    errs.emplace_back("csv.Spec.Icon not specified");
    return;
  }
  if (!icons.is_array() || icons.size() != 1) {
    errs.emplace_back("csv.Spec.Icon should only have one element");
  }
  if (!icons.is_array() || icons.empty()) {
    return; // upstream reads the first element regardless, and crashes
  }
  std::string media_type = string_at(icons[0], "mediatype");
  if (media_type.empty() || string_at(icons[0], "base64data").empty()) {
    errs.emplace_back("csv.Spec.Icon elements should contain both data and mediatype");
  }
  if (!media_type.empty() && !one_of(k_icon_media_types, media_type)) {
    errs.push_back(fmt::format("csv.Spec.Icon {} does not have a valid mediatype", media_type));
  }
}

void check_categories(const Json& annotations, const std::set<std::string>* custom,
                      std::vector<std::string>& errs) {
  static const std::set<std::string> k_categories = {"AI/Machine Learning",
                                                     "Application Runtime",
                                                     "Big Data",
                                                     "Cloud Provider",
                                                     "Developer Tools",
                                                     "Database",
                                                     "Integration & Delivery",
                                                     "Logging & Tracing",
                                                     "Monitoring",
                                                     "Networking",
                                                     "OpenShift Optional",
                                                     "Security",
                                                     "Storage",
                                                     "Streaming & Messaging"};
  if (!member(annotations, "categories").is_string()) {
    return;
  }
  for (const auto& category : util::split(string_at(annotations, "categories"), ',')) {
    if (!(custom != nullptr ? *custom : k_categories).contains(category)) {
      errs.push_back(fmt::format("csv.Metadata.Annotations.Categories {} is not a valid {}",
                                 category, custom != nullptr ? "custom category" : "category"));
    }
  }
}

} // namespace

std::vector<std::string> check_operatorhub(const Json& csv,
                                           const std::set<std::string>* custom_categories) {
  const Json& spec = member(csv, "spec");
  const Json& annotations = path(csv, {"metadata", "annotations"});
  std::vector<std::string> errs;
  if (string_at(member(spec, "provider"), "name").empty()) {
    errs.emplace_back("csv.Spec.Provider.Name not specified");
  }
  check_people_and_links(spec, errs);
  const Json& capability = member(annotations, "capabilities");
  if (capability.is_string() && !one_of(k_capability_levels, capability.get<std::string>())) {
    errs.push_back(
        fmt::format("csv.Metadata.Annotations.Capabilities {} is not a valid capabilities level",
                    capability.get<std::string>()));
  }
  std::string version = string_at(spec, "version");
  if (version.empty() || version == "0.0.0") {
    errs.emplace_back("csv.Spec.Version is not set");
  }
  check_icon(spec, errs);
  check_categories(annotations, custom_categories, errs);
  std::string name = string_at(member(csv, "metadata"), "name");
  std::vector<std::string> problems;
  for (const auto& e : errs) {
    problems.push_back(csv_error(name, e));
  }
  return problems;
}

} // namespace opm::bundle
