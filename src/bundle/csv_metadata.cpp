#include "bundle/csv_metadata.hpp"

#include "bundle/detail/csv_metadata_model.hpp"
#include "json/text.hpp"
#include "json/writer.hpp"

#include <map>
#include <vector>

namespace opm::bundle {

namespace {

// ---- writing, in the Go structs' field order ------------------------------------------

using json::text::Builder;

void write_string_map(Builder& b, const std::map<std::string, std::string>& m) {
  b.begin_object();
  for (const auto& [k, v] : m) {
    b.key(k).string(v);
  }
  b.end_object();
}

void write_descriptors(Builder& b, std::string_view key,
                       const std::vector<detail::Descriptor>& list) {
  if (list.empty()) {
    return;
  }
  b.key(key).begin_array();
  for (const auto& d : list) {
    b.begin_object().key("path").string(d.path);
    if (!d.display_name.empty()) {
      b.key("displayName").string(d.display_name);
    }
    if (!d.description.empty()) {
      b.key("description").string(d.description);
    }
    if (!d.x_descriptors.empty()) {
      b.key("x-descriptors").begin_array();
      for (const auto& x : d.x_descriptors) {
        b.string(x);
      }
      b.end_array();
    }
    if (!d.value.empty()) {
      b.key("value").raw(d.value);
    }
    b.end_object();
  }
  b.end_array();
}

void write_description(Builder& b, const detail::Description& d, bool api_service) {
  b.begin_object().key("name").string(d.name);
  if (api_service) {
    b.key("group").string(d.group);
  }
  b.key("version").string(d.version).key("kind").string(d.kind);
  if (api_service) {
    if (!d.deployment_name.empty()) {
      b.key("deploymentName").string(d.deployment_name);
    }
    if (d.container_port != 0) {
      b.key("containerPort").integer(d.container_port);
    }
  }
  if (!d.display_name.empty()) {
    b.key("displayName").string(d.display_name);
  }
  if (!d.description.empty()) {
    b.key("description").string(d.description);
  }
  if (!d.resources.empty()) {
    b.key("resources").begin_array();
    for (const auto& r : d.resources) {
      b.begin_object().key("name").string(r.name).key("kind").string(r.kind);
      b.key("version").string(r.version).end_object();
    }
    b.end_array();
  }
  write_descriptors(b, "statusDescriptors", d.status_descriptors);
  write_descriptors(b, "specDescriptors", d.spec_descriptors);
  write_descriptors(b, "actionDescriptors", d.action_descriptors);
  b.end_object();
}

void write_definitions(Builder& b, std::string_view key, const detail::Definitions& defs,
                       bool api_service) {
  b.key(key).begin_object();
  for (const auto& [name, list] : {std::pair{"owned", &defs.owned}, {"required", &defs.required}}) {
    if (list->empty()) {
      continue;
    }
    b.key(name).begin_array();
    for (const auto& d : *list) {
      write_description(b, d, api_service);
    }
    b.end_array();
  }
  b.end_object();
}

void write_pairs(Builder& b, std::string_view key, const std::vector<detail::Pair>& list,
                 std::string_view first, std::string_view second) {
  if (list.empty()) {
    return;
  }
  b.key(key).begin_array();
  for (const auto& p : list) {
    b.begin_object();
    if (!p.first.empty()) {
      b.key(first).string(p.first);
    }
    if (!p.second.empty()) {
      b.key(second).string(p.second);
    }
    b.end_object();
  }
  b.end_array();
}

std::string write(const detail::CsvMetadata& m) {
  Builder b;
  b.begin_object();
  if (!m.annotations.empty()) {
    b.key("annotations");
    write_string_map(b, m.annotations);
  }
  write_definitions(b, "apiServiceDefinitions", m.api_services, true);
  write_definitions(b, "crdDescriptions", m.crds, false);
  if (!m.description.empty()) {
    b.key("description").string(m.description);
  }
  if (!m.display_name.empty()) {
    b.key("displayName").string(m.display_name);
  }
  if (!m.install_modes.empty()) {
    b.key("installModes").begin_array();
    for (const auto& im : m.install_modes) {
      b.begin_object().key("type").string(im.type).key("supported").boolean(im.supported);
      b.end_object();
    }
    b.end_array();
  }
  if (!m.keywords.empty()) {
    b.key("keywords").begin_array();
    for (const auto& k : m.keywords) {
      b.string(k);
    }
    b.end_array();
  }
  if (!m.labels.empty()) {
    b.key("labels");
    write_string_map(b, m.labels);
  }
  write_pairs(b, "links", m.links, "name", "url");
  write_pairs(b, "maintainers", m.maintainers, "name", "email");
  if (!m.maturity.empty()) {
    b.key("maturity").string(m.maturity);
  }
  if (!m.min_kube_version.empty()) {
    b.key("minKubeVersion").string(m.min_kube_version);
  }
  if (!m.native_apis.empty()) {
    b.key("nativeAPIs").begin_array();
    for (const auto& g : m.native_apis) {
      b.begin_object().key("group").string(g.name).key("version").string(g.version);
      b.key("kind").string(g.kind).end_object();
    }
    b.end_array();
  }
  b.key("provider").begin_object();
  if (!m.provider.first.empty()) {
    b.key("name").string(m.provider.first);
  }
  if (!m.provider.second.empty()) {
    b.key("url").string(m.provider.second);
  }
  b.end_object();
  b.end_object();
  return std::move(b).text();
}

} // namespace

Result<std::string> csv_metadata_json(std::string_view csv_json) {
  auto csv = OPM_TRY(json::text::parse(csv_json));
  auto metadata = OPM_TRY(detail::decode_csv(csv));
  return write(metadata);
}

} // namespace opm::bundle
