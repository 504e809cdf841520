#include "bundle/csv.hpp"

#include "catalog/typed_decode.hpp"
#include "json/go_json.hpp"
#include "json/text.hpp"
#include "json/unmarshal.hpp"
#include "util/go_format.hpp"

#include <fmt/format.h>

#include <cmath>

namespace opm::bundle {

namespace {

constexpr std::string_view k_definitions_type =
    R"(struct { Owned []*registry.DefinitionKey "json:\"owned\""; Required []*registry.DefinitionKey "json:\"required\"" })";

// Go's UnmarshalTypeError text; `strct`/`field` empty gives the "Go value" form.
Error type_error(const Json& value, std::string_view strct, std::string_view field,
                 std::string_view go_type) {
  return Error(Errc::invalid, json::type_error(json::kind_name(value), strct, field, go_type));
}

// Go's json.Unmarshal(spec, &map[string]*json.RawMessage{}).
Result<const Json*> spec_object(const Csv& csv) {
  if (!csv.spec) {
    return util::fail(Errc::invalid, "unexpected end of JSON input");
  }
  if (csv.spec->is_null()) {
    return nullptr;
  }
  if (!csv.spec->is_object()) {
    return std::unexpected(type_error(*csv.spec, "", "", "map[string]*json.RawMessage"));
  }
  return &*csv.spec;
}

// A spec member by exact key; null counts as absent.
Result<const Json*> spec_entry(const Csv& csv, std::string_view key) {
  const Json* spec = OPM_TRY(spec_object(csv));
  if (spec == nullptr) {
    return nullptr;
  }
  auto it = spec->find(key);
  if (it == spec->end() || it->is_null()) {
    return nullptr;
  }
  return &*it;
}

Result<std::string> spec_string(const Csv& csv, std::string_view key) {
  const Json* v = OPM_TRY(spec_entry(csv, key));
  if (v == nullptr) {
    return std::string();
  }
  if (!v->is_string()) {
    return std::unexpected(type_error(*v, "", "", "string"));
  }
  return v->get<std::string>();
}

// Decode a string field: null keeps the current value.
Result<void> read_string(const Json* v, std::string& out, std::string_view strct,
                         std::string_view field) {
  if (v == nullptr || v->is_null()) {
    return {};
  }
  if (!v->is_string()) {
    return std::unexpected(type_error(*v, strct, field, "string"));
  }
  out = v->get<std::string>();
  return {};
}

Result<std::vector<DefinitionKey>> read_definition_list(const Json* list, std::string_view field) {
  std::vector<DefinitionKey> keys;
  if (list == nullptr || list->is_null()) {
    return keys;
  }
  if (!list->is_array()) {
    return std::unexpected(type_error(*list, "", field, "[]*registry.DefinitionKey"));
  }
  for (const auto& item : *list) {
    DefinitionKey key;
    if (!item.is_null() && !item.is_object()) {
      return std::unexpected(type_error(item, "", field, "registry.DefinitionKey"));
    }
    auto path = [&](std::string_view name) { return fmt::format("{}.{}", field, name); };
    OPM_TRY(
        read_string(json::find_member(item, "group"), key.group, "DefinitionKey", path("group")));
    OPM_TRY(read_string(json::find_member(item, "kind"), key.kind, "DefinitionKey", path("kind")));
    OPM_TRY(read_string(json::find_member(item, "name"), key.name, "DefinitionKey", path("name")));
    OPM_TRY(read_string(json::find_member(item, "version"), key.version, "DefinitionKey",
                        path("version")));
    keys.push_back(std::move(key));
  }
  return keys;
}

Result<Definitions> read_definitions(const Csv& csv, std::string_view key) {
  const Json* v = OPM_TRY(spec_entry(csv, key));
  Definitions defs;
  if (v == nullptr) {
    return defs;
  }
  if (!v->is_object()) {
    return std::unexpected(type_error(*v, "", "", k_definitions_type));
  }
  defs.owned = OPM_TRY(read_definition_list(json::find_member(*v, "owned"), "owned"));
  defs.required = OPM_TRY(read_definition_list(json::find_member(*v, "required"), "required"));
  return defs;
}

// Type errors found while converting the CSV's metadata are reported as upstream's
// prettyunmarshaler does, pointing into the object's JSON text.
struct MetaReader {
  const Json& object;
  std::string_view object_json;

  // The JSON text position Go reports for a type error at `raw`.
  std::size_t offset_of(std::string_view raw) const {
    auto start = static_cast<std::size_t>(raw.data() - object_json.data());
    if (!raw.empty() && (raw.front() == '{' || raw.front() == '[')) {
      return start + 1;
    }
    return start + raw.size();
  }

  Error pretty(Error err, std::initializer_list<std::string_view> path) const {
    std::string_view raw = json::text::find_raw(object_json, path);
    if (raw.data() == nullptr) {
      return err;
    }
    return Error(Errc::invalid,
                 json::pretty_unmarshal_error(object_json, err.message(), offset_of(raw)));
  }
};

// The key under which `member` sits in `obj` (for locating it in the JSON text).
std::string key_of(const Json& obj, const Json* member) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (&it.value() == member) {
      return it.key();
    }
  }
  return {};
}

Result<void> read_string_map(const MetaReader& reader, const Json& meta, std::string_view meta_key,
                             std::string_view name, std::map<std::string, std::string>& out) {
  const Json* v = json::find_member(meta, name);
  if (v == nullptr || v->is_null()) {
    return {};
  }
  std::string field = fmt::format("metadata.{}", name);
  std::string key = key_of(meta, v);
  if (!v->is_object()) {
    return std::unexpected(
        reader.pretty(type_error(*v, "ObjectMeta", field, "map[string]string"), {meta_key, key}));
  }
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (it->is_null()) {
      out[it.key()];
      continue;
    }
    if (!it->is_string()) {
      return std::unexpected(
          reader.pretty(type_error(*it, "ObjectMeta", field, "string"), {meta_key, key, it.key()}));
    }
    out[it.key()] = it->get<std::string>();
  }
  return {};
}

} // namespace

Result<Csv> csv_from_object(const Json& object, std::string_view object_json) {
  Csv csv;
  if (auto it = object.find("spec"); it != object.end()) {
    csv.spec = *it;
  }
  MetaReader reader{object, object_json};
  const Json* api_version = json::find_member(object, "apiVersion");
  if (api_version != nullptr && !api_version->is_null() && !api_version->is_string()) {
    return std::unexpected(
        reader.pretty(type_error(*api_version, "TypeMeta", "apiVersion", "string"),
                      {key_of(object, api_version)}));
  }
  const Json* meta = json::find_member(object, "metadata");
  if (meta == nullptr || meta->is_null()) {
    return csv;
  }
  std::string meta_key = key_of(object, meta);
  if (!meta->is_object()) {
    return std::unexpected(
        reader.pretty(type_error(*meta, "", "metadata", "v1.ObjectMeta"), {meta_key}));
  }
  OPM_TRY(read_string_map(reader, *meta, meta_key, "annotations", csv.annotations));
  OPM_TRY(read_string_map(reader, *meta, meta_key, "labels", csv.labels));
  const Json* name = json::find_member(*meta, "name");
  if (auto ok = read_string(name, csv.name, "ObjectMeta", "metadata.name"); !ok) {
    return std::unexpected(reader.pretty(std::move(ok).error(), {meta_key, key_of(*meta, name)}));
  }
  return csv;
}

Result<std::string> csv_version(const Csv& csv) { return spec_string(csv, "version"); }

Result<std::string> csv_release(const Csv& csv) {
  const Json* v = OPM_TRY(spec_entry(csv, "release"));
  if (v == nullptr) {
    return std::string();
  }
  if (v->is_string()) {
    return v->get<std::string>();
  }
  if (!v->is_number()) {
    return util::fail(Errc::invalid, "release field must be a string or number");
  }
  auto num = v->get<double>();
  constexpr double k_two_63 = 9223372036854775808.0;
  if (std::isfinite(num) && std::trunc(num) == num && num >= -k_two_63 && num < k_two_63) {
    return std::to_string(static_cast<long long>(num));
  }
  return util::format_float_g(num);
}

Result<std::string> csv_replaces(const Csv& csv) { return spec_string(csv, "replaces"); }

Result<std::vector<std::string>> csv_skips(const Csv& csv) {
  const Json* v = OPM_TRY(spec_entry(csv, "skips"));
  std::vector<std::string> skips;
  if (v == nullptr) {
    return skips;
  }
  if (!v->is_array()) {
    return std::unexpected(type_error(*v, "", "", "[]string"));
  }
  for (const auto& item : *v) {
    std::string s;
    if (!item.is_null() && !item.is_string()) {
      return std::unexpected(type_error(item, "", "", "string"));
    }
    if (item.is_string()) {
      s = item.get<std::string>();
    }
    skips.push_back(std::move(s));
  }
  return skips;
}

std::string csv_skip_range(const Csv& csv) {
  auto it = csv.annotations.find("olm.skipRange");
  return it == csv.annotations.end() ? std::string() : it->second;
}

std::string csv_substitutes_for(const Csv& csv) {
  auto it = csv.annotations.find("olm.substitutesFor");
  return it == csv.annotations.end() ? std::string() : it->second;
}

Result<Definitions> csv_crd_definitions(const Csv& csv) {
  return read_definitions(csv, "customresourcedefinitions");
}

Result<Definitions> csv_api_service_definitions(const Csv& csv) {
  if (auto spec = spec_object(csv); !spec) {
    return util::fail(Errc::invalid,
                      "error unmarshaling into object map: " + spec.error().message());
  }
  return read_definitions(csv, "apiservicedefinitions");
}

Result<std::vector<catalog::RelatedImage>> csv_related_images(const Csv& csv) {
  const Json* v = OPM_TRY(spec_entry(csv, "relatedImages"));
  std::vector<catalog::RelatedImage> images;
  if (v == nullptr) {
    return images;
  }
  if (!v->is_array()) {
    return std::unexpected(type_error(*v, "", "", "[]declcfg.RelatedImage"));
  }
  images.reserve(v->size());
  for (const auto& item : *v) {
    catalog::RelatedImage image;
    if (!item.is_null() && !item.is_object()) {
      return std::unexpected(type_error(item, "", "", "declcfg.RelatedImage"));
    }
    OPM_TRY(read_string(json::find_member(item, "name"), image.name, "RelatedImage", "name"));
    OPM_TRY(read_string(json::find_member(item, "image"), image.image, "RelatedImage", "image"));
    images.push_back(std::move(image));
  }
  return images;
}

namespace {

// One level of the typed walk down to the container images: an object (or null) member.
Result<const Json*> typed_object(const Json* parent, std::string_view name, std::string_view strct,
                                 std::string_view path, std::string_view go_type) {
  const Json* v = json::find_member(*parent, name);
  if (v == nullptr || v->is_null()) {
    return nullptr;
  }
  if (!v->is_object()) {
    return std::unexpected(type_error(*v, strct, path, go_type));
  }
  return v;
}

Result<void> container_images(const Json* pod_spec, std::string_view list_name,
                              std::string_view path, std::set<std::string>& images) {
  const Json* list = json::find_member(*pod_spec, list_name);
  if (list == nullptr || list->is_null()) {
    return {};
  }
  std::string field = fmt::format("{}.{}", path, list_name);
  if (!list->is_array()) {
    return std::unexpected(type_error(*list, "PodSpec", field, "[]v1.Container"));
  }
  for (const auto& container : *list) {
    if (!container.is_null() && !container.is_object()) {
      return std::unexpected(type_error(container, "PodSpec", field, "v1.Container"));
    }
    std::string image;
    OPM_TRY(
        read_string(json::find_member(container, "image"), image, "Container", field + ".image"));
    images.insert(std::move(image));
  }
  return {};
}

} // namespace

Result<std::set<std::string>> csv_operator_images(const Csv& csv) {
  if (!csv.spec) {
    return util::fail(Errc::invalid, "unexpected end of JSON input");
  }
  std::set<std::string> images;
  const Json& spec = *csv.spec;
  if (spec.is_null()) {
    return images;
  }
  if (!spec.is_object()) {
    return std::unexpected(type_error(spec, "", "", "registry.csvSpec"));
  }
  const Json* install =
      OPM_TRY(typed_object(&spec, "Install", "csvSpec", "Install", "registry.strategy"));
  if (install == nullptr) {
    return images;
  }
  std::string strategy;
  OPM_TRY(read_string(json::find_member(*install, "strategy"), strategy, "strategy",
                      "Install.strategy"));
  const Json* strategy_spec =
      OPM_TRY(typed_object(install, "spec", "strategy", "Install.spec", "registry.strategySpec"));
  std::set<std::string> found;
  if (strategy_spec != nullptr) {
    const Json* deployments = json::find_member(*strategy_spec, "Deployments");
    constexpr std::string_view k_path = "Install.spec.Deployments";
    if (deployments != nullptr && !deployments->is_null()) {
      if (!deployments->is_array()) {
        return std::unexpected(type_error(*deployments, "strategySpec", k_path, "[]registry.dep"));
      }
      for (const auto& dep : *deployments) {
        if (dep.is_null()) {
          continue;
        }
        if (!dep.is_object()) {
          return std::unexpected(type_error(dep, "strategySpec", k_path, "registry.dep"));
        }
        const Json* dep_spec = OPM_TRY(typed_object(
            &dep, "Spec", "dep", "Install.spec.Deployments.Spec", "v1.DeploymentSpec"));
        if (dep_spec == nullptr) {
          continue;
        }
        const Json* tmpl =
            OPM_TRY(typed_object(dep_spec, "template", "DeploymentSpec",
                                 "Install.spec.Deployments.Spec.template", "v1.PodTemplateSpec"));
        if (tmpl == nullptr) {
          continue;
        }
        constexpr std::string_view k_pod = "Install.spec.Deployments.Spec.template.spec";
        const Json* pod =
            OPM_TRY(typed_object(tmpl, "spec", "PodTemplateSpec", k_pod, "v1.PodSpec"));
        if (pod == nullptr) {
          continue;
        }
        OPM_TRY(container_images(pod, "containers", k_pod, found));
        OPM_TRY(container_images(pod, "initContainers", k_pod, found));
      }
    }
  }
  if (strategy != "deployment") {
    return images;
  }
  return found;
}

} // namespace opm::bundle
