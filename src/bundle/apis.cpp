#include "bundle/apis.hpp"

#include "json/unmarshal.hpp"

#include <fmt/format.h>

namespace opm::bundle {

std::string Api::describe() const {
  return fmt::format("{}/{}/{} ({})", group, version, kind, plural);
}

std::optional<GroupVersion> parse_group_version(std::string_view api_version) {
  auto slash = api_version.find('/');
  if (slash == std::string_view::npos) {
    return GroupVersion{{}, std::string(api_version)};
  }
  if (api_version.find('/', slash + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  return GroupVersion{std::string(api_version.substr(0, slash)),
                      std::string(api_version.substr(slash + 1))};
}

namespace {

// Decoding into the typed CRD (case-sensitive member names, as Kubernetes' serializer).
class CrdReader {
public:
  explicit CrdReader(std::string_view version) : m_version(version) {}

  Result<std::vector<Api>> read(const Json& crd) const {
    OPM_TRY(check_meta(crd));
    std::vector<Api> apis;
    auto spec_it = crd.find("spec");
    if (spec_it == crd.end() || spec_it->is_null()) {
      return apis;
    }
    const Json& spec = *spec_it;
    if (!spec.is_object()) {
      return fail(spec, "CustomResourceDefinition", "spec", type("CustomResourceDefinitionSpec"));
    }
    std::string group =
        OPM_TRY(string_member(spec, "group", "CustomResourceDefinitionSpec", "spec.group"));
    std::string kind;
    std::string plural;
    if (auto names = spec.find("names"); names != spec.end() && !names->is_null()) {
      if (!names->is_object()) {
        return fail(*names, "CustomResourceDefinitionSpec", "spec.names",
                    type("CustomResourceDefinitionNames"));
      }
      kind = OPM_TRY(
          string_member(*names, "kind", "CustomResourceDefinitionNames", "spec.names.kind"));
      plural = OPM_TRY(
          string_member(*names, "plural", "CustomResourceDefinitionNames", "spec.names.plural"));
    }
    if (auto versions = spec.find("versions"); versions != spec.end() && !versions->is_null()) {
      if (!versions->is_array()) {
        return fail(*versions, "CustomResourceDefinitionSpec", "spec.versions",
                    "[]" + type("CustomResourceDefinitionVersion"));
      }
      for (const auto& v : *versions) {
        if (!v.is_null() && !v.is_object()) {
          return fail(v, "CustomResourceDefinitionSpec", "spec.versions",
                      type("CustomResourceDefinitionVersion"));
        }
        std::string name = OPM_TRY(
            string_member(v, "name", "CustomResourceDefinitionVersion", "spec.versions.name"));
        apis.push_back({group, std::move(name), kind, plural});
      }
    }
    if (m_version == "v1beta1") {
      std::string version =
          OPM_TRY(string_member(spec, "version", "CustomResourceDefinitionSpec", "spec.version"));
      if (!version.empty()) {
        apis.push_back({group, std::move(version), kind, plural});
      }
    }
    return apis;
  }

private:
  [[nodiscard]] std::string type(std::string_view name) const {
    return fmt::format("{}.{}", m_version, name);
  }

  [[nodiscard]] std::unexpected<Error> fail(const Json& v, std::string_view strct,
                                            std::string_view field,
                                            std::string_view go_type) const {
    auto err = Error(Errc::invalid, json::type_error(json::kind_name(v), strct, field, go_type));
    return util::fail(Errc::invalid,
                      fmt::format("error decoding {} CRD: {}", m_version, err.message()));
  }

  Result<std::string> string_member(const Json& obj, std::string_view name, std::string_view strct,
                                    std::string_view field) const {
    if (!obj.is_object()) {
      return std::string();
    }
    auto it = obj.find(name);
    if (it == obj.end() || it->is_null()) {
      return std::string();
    }
    if (!it->is_string()) {
      return fail(*it, strct, field, "string");
    }
    return it->get<std::string>();
  }

  Result<void> check_string_map(const Json& meta, std::string_view name) const {
    auto it = meta.find(name);
    if (it == meta.end() || it->is_null()) {
      return {};
    }
    std::string field = fmt::format("metadata.{}", name);
    if (!it->is_object()) {
      return fail(*it, "ObjectMeta", field, "map[string]string");
    }
    for (const auto& v : *it) {
      if (!v.is_null() && !v.is_string()) {
        return fail(v, "ObjectMeta", field, "string");
      }
    }
    return {};
  }

  Result<void> check_meta(const Json& crd) const {
    auto meta = crd.find("metadata");
    if (meta == crd.end() || meta->is_null()) {
      return {};
    }
    if (!meta->is_object()) {
      return fail(*meta, "CustomResourceDefinition", "metadata", "v1.ObjectMeta");
    }
    OPM_TRY(check_string_map(*meta, "annotations"));
    OPM_TRY(check_string_map(*meta, "labels"));
    OPM_TRY(string_member(*meta, "name", "ObjectMeta", "metadata.name"));
    return {};
  }

  std::string_view m_version;
};

Result<Api> api_from_crd_name(const DefinitionKey& def) {
  auto dot = def.name.find('.');
  if (dot == std::string::npos) {
    return util::fail(Errc::invalid, "couldn't parse plural.group from crd name: " + def.name);
  }
  return Api{def.name.substr(dot + 1), def.version, def.kind, def.name.substr(0, dot)};
}

Api api_from_service(const DefinitionKey& def) {
  return Api{def.group, def.version, def.kind, def.name};
}

} // namespace

Result<std::vector<Api>> crd_apis(const Json& crd, std::string_view version) {
  if (version != "v1" && version != "v1beta1") {
    return std::vector<Api>{};
  }
  return CrdReader(version).read(crd);
}

Result<ApiSet> provided_apis(const std::vector<Api>& crd_apis, const Csv& csv) {
  ApiSet provided(crd_apis.begin(), crd_apis.end());
  auto services = csv_api_service_definitions(csv);
  if (!services) {
    return util::fail(Errc::invalid,
                      "error getting apiservice definitions: " + services.error().message());
  }
  for (const auto& def : services->owned) {
    provided.insert(api_from_service(def));
  }
  return provided;
}

Result<ApiSet> required_apis(const Csv& csv) {
  ApiSet required;
  auto crds = OPM_TRY(csv_crd_definitions(csv));
  for (const auto& def : crds.required) {
    required.insert(OPM_TRY(api_from_crd_name(def)));
  }
  auto services = OPM_TRY(csv_api_service_definitions(csv));
  for (const auto& def : services.required) {
    required.insert(api_from_service(def));
  }
  return required;
}

Result<void> check_owned_crds(const Csv& csv, const ApiSet& provided) {
  auto crds = OPM_TRY(csv_crd_definitions(csv));
  std::vector<Api> owned;
  owned.reserve(crds.owned.size());
  for (const auto& def : crds.owned) {
    owned.push_back(OPM_TRY(api_from_crd_name(def)));
  }
  for (const auto& api : owned) {
    if (provided.contains(api)) {
      continue;
    }
    std::string found;
    for (const auto& p : provided) {
      if (!found.empty()) {
        found += ' ';
      }
      found += p.describe();
      found += ":{}";
    }
    return util::fail(Errc::invalid, fmt::format("couldn't find {} in bundle. found: map[{}]",
                                                 api.describe(), found));
  }
  return {};
}

} // namespace opm::bundle
