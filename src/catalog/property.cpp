#include "catalog/property.hpp"

#include "json/unmarshal.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <initializer_list>
#include <utility>

namespace opm::catalog::property {

namespace {

using json::Field;
using json::Kind;
using json::Type;

const Type k_str = Type::scalar(Kind::string, "string");
const Type k_boolean = Type::scalar(Kind::boolean, "bool");
const Type k_int32 = Type::scalar(Kind::int32, "int32");
const Type k_bytes = Type::scalar(Kind::bytes, "[]uint8");
const Type k_raw_message = Type::scalar(Kind::raw, "json.RawMessage");
const Type k_strings = Type::container(Kind::slice, "[]string", k_str);
const Type k_string_map = Type::container(Kind::map, "map[string]string", k_str);

constexpr Type structure(std::string_view name, std::string_view short_name,
                         std::span<const Field> fields) {
  return Type::structure(name, short_name, fields);
}

// alpha/property types.
const Field k_package_fields[] = {
    {"packageName", &k_str}, {"version", &k_str}, {"release", &k_str}};
const Type k_package = structure("property.Package", "Package", k_package_fields);

const Field k_package_required_fields[] = {{"packageName", &k_str}, {"versionRange", &k_str}};
const Type k_package_required =
    structure("property.PackageRequired", "PackageRequired", k_package_required_fields);

const Field k_gvk_fields[] = {{"group", &k_str}, {"kind", &k_str}, {"version", &k_str}};
const Type k_gvk = structure("property.GVK", "GVK", k_gvk_fields);
const Type k_gvk_required = structure("property.GVKRequired", "GVKRequired", k_gvk_fields);

const Field k_bundle_object_fields[] = {{"data", &k_bytes}};
const Type k_bundle_object =
    structure("property.BundleObject", "BundleObject", k_bundle_object_fields);

const Field k_channel_fields[] = {{"channelName", &k_str}};
const Type k_channel = structure("property.Channel", "Channel", k_channel_fields);

// operator-framework/api v1alpha1 types used by CSVMetadata.
const Type k_install_mode_type = Type::scalar(Kind::string, "v1alpha1.InstallModeType");
const Field k_install_mode_fields[] = {{"type", &k_install_mode_type}, {"supported", &k_boolean}};
const Type k_install_mode = structure("v1alpha1.InstallMode", "InstallMode", k_install_mode_fields);
const Type k_install_modes = Type::container(Kind::slice, "[]v1alpha1.InstallMode", k_install_mode);

const Field k_app_link_fields[] = {{"name", &k_str}, {"url", &k_str}};
const Type k_app_link = structure("v1alpha1.AppLink", "AppLink", k_app_link_fields);
const Type k_app_links = Type::container(Kind::slice, "[]v1alpha1.AppLink", k_app_link);

const Field k_maintainer_fields[] = {{"name", &k_str}, {"email", &k_str}};
const Type k_maintainer = structure("v1alpha1.Maintainer", "Maintainer", k_maintainer_fields);
const Type k_maintainers = Type::container(Kind::slice, "[]v1alpha1.Maintainer", k_maintainer);

const Field k_group_version_kind_fields[] = {
    {"group", &k_str}, {"version", &k_str}, {"kind", &k_str}};
const Type k_group_version_kind =
    structure("v1.GroupVersionKind", "GroupVersionKind", k_group_version_kind_fields);
const Type k_group_version_kinds =
    Type::container(Kind::slice, "[]v1.GroupVersionKind", k_group_version_kind);

const Field k_resource_reference_fields[] = {
    {"name", &k_str}, {"kind", &k_str}, {"version", &k_str}};
const Type k_resource_reference =
    structure("v1alpha1.APIResourceReference", "APIResourceReference", k_resource_reference_fields);
const Type k_resource_references =
    Type::container(Kind::slice, "[]v1alpha1.APIResourceReference", k_resource_reference);

const Field k_descriptor_fields[] = {{"path", &k_str},
                                     {"displayName", &k_str},
                                     {"description", &k_str},
                                     {"x-descriptors", &k_strings},
                                     {"value", &k_raw_message}};
const Type k_status_descriptor =
    structure("v1alpha1.StatusDescriptor", "StatusDescriptor", k_descriptor_fields);
const Type k_spec_descriptor =
    structure("v1alpha1.SpecDescriptor", "SpecDescriptor", k_descriptor_fields);
const Type k_action_descriptor =
    structure("v1alpha1.ActionDescriptor", "ActionDescriptor", k_descriptor_fields);
const Type k_status_descriptors =
    Type::container(Kind::slice, "[]v1alpha1.StatusDescriptor", k_status_descriptor);
const Type k_spec_descriptors =
    Type::container(Kind::slice, "[]v1alpha1.SpecDescriptor", k_spec_descriptor);
const Type k_action_descriptors =
    Type::container(Kind::slice, "[]v1alpha1.ActionDescriptor", k_action_descriptor);

const Field k_api_service_description_fields[] = {{"name", &k_str},
                                                  {"group", &k_str},
                                                  {"version", &k_str},
                                                  {"kind", &k_str},
                                                  {"deploymentName", &k_str},
                                                  {"containerPort", &k_int32},
                                                  {"displayName", &k_str},
                                                  {"description", &k_str},
                                                  {"resources", &k_resource_references},
                                                  {"statusDescriptors", &k_status_descriptors},
                                                  {"specDescriptors", &k_spec_descriptors},
                                                  {"actionDescriptors", &k_action_descriptors}};
const Type k_api_service_description = structure(
    "v1alpha1.APIServiceDescription", "APIServiceDescription", k_api_service_description_fields);
const Type k_api_service_descriptions =
    Type::container(Kind::slice, "[]v1alpha1.APIServiceDescription", k_api_service_description);
const Field k_api_service_definitions_fields[] = {{"owned", &k_api_service_descriptions},
                                                  {"required", &k_api_service_descriptions}};
const Type k_api_service_definitions = structure(
    "v1alpha1.APIServiceDefinitions", "APIServiceDefinitions", k_api_service_definitions_fields);

const Field k_crd_description_fields[] = {{"name", &k_str},
                                          {"version", &k_str},
                                          {"kind", &k_str},
                                          {"displayName", &k_str},
                                          {"description", &k_str},
                                          {"resources", &k_resource_references},
                                          {"statusDescriptors", &k_status_descriptors},
                                          {"specDescriptors", &k_spec_descriptors},
                                          {"actionDescriptors", &k_action_descriptors}};
const Type k_crd_description =
    structure("v1alpha1.CRDDescription", "CRDDescription", k_crd_description_fields);
const Type k_crd_descriptions =
    Type::container(Kind::slice, "[]v1alpha1.CRDDescription", k_crd_description);
const Field k_crd_definitions_fields[] = {{"owned", &k_crd_descriptions},
                                          {"required", &k_crd_descriptions}};
const Type k_crd_definitions = structure("v1alpha1.CustomResourceDefinitions",
                                         "CustomResourceDefinitions", k_crd_definitions_fields);

const Field k_csv_metadata_fields[] = {{"annotations", &k_string_map},
                                       {"apiServiceDefinitions", &k_api_service_definitions},
                                       {"crdDescriptions", &k_crd_definitions},
                                       {"description", &k_str},
                                       {"displayName", &k_str},
                                       {"installModes", &k_install_modes},
                                       {"keywords", &k_strings},
                                       {"labels", &k_string_map},
                                       {"links", &k_app_links},
                                       {"maintainers", &k_maintainers},
                                       {"maturity", &k_str},
                                       {"minKubeVersion", &k_str},
                                       {"nativeAPIs", &k_group_version_kinds},
                                       {"provider", &k_app_link}};
const Type k_csv_metadata = structure("property.CSVMetadata", "CSVMetadata", k_csv_metadata_fields);

// Copy the string members of an already checked struct value (null leaves a field as is).
void read_strings(const Json& value,
                  std::initializer_list<std::pair<std::string_view, std::string*>> fields) {
  if (!value.is_object()) {
    return;
  }
  // Members in order, each overwriting its field, as Go does with differently cased
  // duplicates.
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (!it.value().is_string()) {
      continue;
    }
    for (auto [name, target] : fields) {
      if (json::key_matches(it.key(), name)) {
        *target = it.value().get<std::string>();
        break;
      }
    }
  }
}

Result<void> check_as(const Json& value, const Type& type) {
  if (auto error = json::check(value, type)) {
    return fail(Errc::invalid, std::move(*error));
  }
  return {};
}

Package read_package(const Json& value) {
  Package out;
  read_strings(
      value,
      {{"packageName", &out.package_name}, {"version", &out.version}, {"release", &out.release}});
  return out;
}

PackageRequired read_package_required(const Json& value) {
  PackageRequired out;
  read_strings(value, {{"packageName", &out.package_name}, {"versionRange", &out.version_range}});
  return out;
}

Gvk read_gvk(const Json& value) {
  Gvk out;
  read_strings(value, {{"group", &out.group}, {"kind", &out.kind}, {"version", &out.version}});
  return out;
}

Channel read_channel(const Json& value) {
  Channel out;
  read_strings(value, {{"channelName", &out.channel_name}});
  return out;
}

// The property types upstream decodes into structs: their Go type, for its decoding errors,
// and where a checked value of that type is kept.
struct KnownType {
  std::string_view name;
  const Type* go_type;
  void (*keep)(Properties& out, const Json& value);
};

const KnownType k_known_types[] = {
    {k_prop_package, &k_package,
     [](Properties& out, const Json& value) { out.packages.push_back(read_package(value)); }},
    {k_prop_package_required, &k_package_required,
     [](Properties& out, const Json& value) {
       out.packages_required.push_back(read_package_required(value));
     }},
    {k_prop_gvk, &k_gvk,
     [](Properties& out, const Json& value) { out.gvks.push_back(read_gvk(value)); }},
    {k_prop_gvk_required, &k_gvk_required,
     [](Properties& out, const Json& value) {
       Gvk g = read_gvk(value);
       out.gvks_required.push_back({std::move(g.group), std::move(g.kind), std::move(g.version)});
     }},
    {k_prop_bundle_object, &k_bundle_object,
     [](Properties& out, const Json& value) {
       const Json* data = json::find_member(value, "data");
       out.bundle_objects.push_back({data != nullptr && data->is_string()
                                         ? std::string_view(data->get_ref<const std::string&>())
                                         : std::string_view()});
     }},
    {k_prop_csv_metadata, &k_csv_metadata,
     [](Properties& out, const Json& value) { out.csv_metadatas.push_back({&value}); }},
    {k_prop_channel, &k_channel,
     [](Properties& out, const Json& value) { out.channels.push_back(read_channel(value)); }},
};

const KnownType* known_type(std::string_view name) {
  for (const KnownType& known : k_known_types) {
    if (known.name == name) {
      return &known;
    }
  }
  return nullptr;
}

} // namespace

std::optional<std::string> check_value(std::string_view type, const Json& value) {
  const KnownType* known = known_type(type);
  return json::check(value, known != nullptr ? *known->go_type : json::k_raw);
}

Result<Properties> parse(std::span<const Property> props) {
  Properties out;
  for (std::size_t i = 0; i < props.size(); ++i) {
    const Property& prop = props[i];
    const KnownType* known = known_type(prop.type);
    if (auto error = json::check(prop.value, known != nullptr ? *known->go_type : json::k_raw)) {
      return fail(Errc::invalid, fmt::format("parse property[{}] of type {}: {}", i,
                                             util::go_quote(prop.type), *error));
    }
    if (known != nullptr) {
      known->keep(out, prop.value);
    } else {
      out.others.push_back(&prop);
    }
  }
  return out;
}

Result<Package> decode_package(const Json& value) {
  OPM_TRY(check_as(value, k_package));
  return read_package(value);
}

Result<PackageRequired> decode_package_required(const Json& value) {
  OPM_TRY(check_as(value, k_package_required));
  return read_package_required(value);
}

Result<Gvk> decode_gvk(const Json& value) {
  OPM_TRY(check_as(value, k_gvk));
  return read_gvk(value);
}

Result<GvkRequired> decode_gvk_required(const Json& value) {
  OPM_TRY(check_as(value, k_gvk_required));
  Gvk g = read_gvk(value);
  return GvkRequired{std::move(g.group), std::move(g.kind), std::move(g.version)};
}

Result<Channel> decode_channel(const Json& value) {
  OPM_TRY(check_as(value, k_channel));
  return read_channel(value);
}

Gvk read_checked_gvk(const Json& value) { return read_gvk(value); }

} // namespace opm::catalog::property
