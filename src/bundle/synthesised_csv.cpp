#include "bundle/synthesised_csv.hpp"

#include "json/text.hpp"
#include "json/writer.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

#include <map>
#include <vector>

namespace opm::bundle {

namespace {

namespace text = json::text;
using Members = std::vector<text::Member>;

// ---- reading the metadata as Go's decoder does ----------------------------------------

constexpr std::string_view k_null = "null";

Members members_of(std::string_view raw) {
  auto members = text::object_members(raw, text::Validity::known_valid);
  return members ? std::move(*members) : Members{};
}

std::vector<std::string_view> elements_of(std::string_view raw) {
  auto elements = text::array_elements(raw, text::Validity::known_valid);
  return elements ? std::move(*elements) : std::vector<std::string_view>{};
}

// The last member named `name` (ignoring case), null included: what a slice or a
// json.RawMessage ends up holding.
std::string_view last_member(const Members& members, std::string_view name) {
  std::string_view out;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name)) {
      out = m.value;
    }
  }
  return out;
}

std::string string_of(std::string_view raw) {
  if (raw.empty() || raw.front() != '"') {
    return {};
  }
  return text::string_value(raw).value_or(std::string());
}

// A string field: null leaves what an earlier member set.
std::string string_member(const Members& members, std::string_view name) {
  std::string_view raw;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name) && m.value != k_null) {
      raw = m.value;
    }
  }
  return string_of(raw);
}

long long integer_member(const Members& members, std::string_view name) {
  std::string_view raw;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name) && m.value != k_null) {
      raw = m.value;
    }
  }
  auto value = raw.empty() ? Result<Json>(Json()) : text::parse(raw);
  if (!value || !value->is_number()) {
    return 0;
  }
  return value->is_number_float() ? static_cast<long long>(value->get<double>())
                                  : value->get<long long>();
}

bool bool_member(const Members& members, std::string_view name) {
  bool out = false;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name) && m.value != k_null) {
      out = m.value == "true";
    }
  }
  return out;
}

// A struct field: every member of that name decodes into the same struct, so their members
// add up (later ones win).
Members struct_member(const Members& members, std::string_view name) {
  Members out;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name) && m.value != k_null) {
      auto inner = members_of(m.value);
      out.insert(out.end(), inner.begin(), inner.end());
    }
  }
  return out;
}

// A map[string]string field: members of that name add keys, null empties the map.
std::map<std::string, std::string> map_member(const Members& members, std::string_view name) {
  std::map<std::string, std::string> out;
  for (const auto& m : members) {
    if (!util::equal_fold(m.key, name)) {
      continue;
    }
    if (m.value == k_null) {
      out.clear();
      continue;
    }
    for (const auto& entry : members_of(m.value)) {
      out[entry.key] = string_of(entry.value);
    }
  }
  return out;
}

// Go's json.Compact with HTML escaping, as json.Marshal writes a json.RawMessage.
std::string compact_escaped(std::string_view raw) {
  const std::string compact = text::compact(raw);
  std::string out;
  out.reserve(compact.size());
  for (std::size_t i = 0; i < compact.size(); ++i) {
    const auto c = static_cast<unsigned char>(compact[i]);
    if (c == '<' || c == '>' || c == '&') {
      constexpr std::string_view hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    } else if (c == 0xE2 && i + 2 < compact.size() &&
               static_cast<unsigned char>(compact[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(compact[i + 2]) & 0xFE) == 0xA8) {
      out += static_cast<unsigned char>(compact[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += compact[i];
    }
  }
  return out;
}

// ---- writing the CSV in the Go structs' member order ------------------------------------

void string_field(json::Writer& w, std::string_view key, std::string_view value) {
  w.key(key);
  w.string(value);
}

void omitempty_string(json::Writer& w, std::string_view key, std::string_view value) {
  if (!value.empty()) {
    string_field(w, key, value);
  }
}

void string_map(json::Writer& w, std::string_view key,
                const std::map<std::string, std::string>& map) {
  if (map.empty()) {
    return;
  }
  w.key(key);
  w.begin_object();
  for (const auto& [k, v] : map) {
    string_field(w, k, v);
  }
  w.end_object();
}

// A slice field with omitempty: each element written by `element` from its members.
template <typename Element>
void object_list(json::Writer& w, std::string_view key, std::string_view raw, Element element) {
  auto items = elements_of(raw);
  if (items.empty()) {
    return;
  }
  w.key(key);
  w.begin_array();
  for (auto item : items) {
    w.begin_object();
    element(members_of(item));
    w.end_object();
  }
  w.end_array();
}

void string_list(json::Writer& w, std::string_view key, std::string_view raw) {
  auto items = elements_of(raw);
  if (items.empty()) {
    return;
  }
  w.key(key);
  w.begin_array();
  for (auto item : items) {
    w.string(string_of(item));
  }
  w.end_array();
}

void descriptors(json::Writer& w, std::string_view key, const Members& owner) {
  object_list(w, key, last_member(owner, key), [&w](const Members& d) {
    string_field(w, "path", string_member(d, "path"));
    omitempty_string(w, "displayName", string_member(d, "displayName"));
    omitempty_string(w, "description", string_member(d, "description"));
    string_list(w, "x-descriptors", last_member(d, "x-descriptors"));
    if (auto value = last_member(d, "value"); !value.empty()) {
      w.key("value");
      w.raw(compact_escaped(value));
    }
  });
}

void description(json::Writer& w, const Members& d, bool api_service) {
  string_field(w, "name", string_member(d, "name"));
  if (api_service) {
    string_field(w, "group", string_member(d, "group"));
  }
  string_field(w, "version", string_member(d, "version"));
  string_field(w, "kind", string_member(d, "kind"));
  if (api_service) {
    omitempty_string(w, "deploymentName", string_member(d, "deploymentName"));
    if (auto port = integer_member(d, "containerPort"); port != 0) {
      w.key("containerPort");
      w.literal(std::to_string(port));
    }
  }
  omitempty_string(w, "displayName", string_member(d, "displayName"));
  omitempty_string(w, "description", string_member(d, "description"));
  object_list(w, "resources", last_member(d, "resources"), [&w](const Members& r) {
    string_field(w, "name", string_member(r, "name"));
    string_field(w, "kind", string_member(r, "kind"));
    string_field(w, "version", string_member(r, "version"));
  });
  descriptors(w, "statusDescriptors", d);
  descriptors(w, "specDescriptors", d);
  descriptors(w, "actionDescriptors", d);
}

void definitions(json::Writer& w, std::string_view key, const Members& defs, bool api_service) {
  w.key(key);
  w.begin_object();
  for (std::string_view list : {"owned", "required"}) {
    object_list(w, list, last_member(defs, list),
                [&w, api_service](const Members& d) { description(w, d, api_service); });
  }
  w.end_object();
}

void app_link(json::Writer& w, const Members& link, std::string_view second) {
  omitempty_string(w, "name", string_member(link, "name"));
  omitempty_string(w, second, string_member(link, second));
}

void icons(json::Writer& w, const catalog::Icon* icon) {
  if (icon == nullptr) {
    return;
  }
  w.key("icon");
  w.begin_array();
  w.begin_object();
  string_field(w, "base64data", util::base64_encode(icon->data.value_or(std::string())));
  string_field(w, "mediatype", icon->mediatype);
  w.end_object();
  w.end_array();
}

void related_images(json::Writer& w, std::span<const catalog::RelatedImage> images) {
  if (images.empty()) {
    return;
  }
  w.key("relatedImages");
  w.begin_array();
  for (const auto& image : images) {
    w.begin_object();
    string_field(w, "name", image.name);
    string_field(w, "image", image.image);
    w.end_object();
  }
  w.end_array();
}

void install_stub(json::Writer& w) {
  w.key("install");
  w.begin_object();
  string_field(w, "strategy", "deployment");
  w.key("spec");
  w.begin_object();
  w.key("deployments");
  w.literal("null");
  w.end_object();
  w.end_object();
}

void spec(json::Writer& w, const Members& m, const CsvStub& stub) {
  w.key("spec");
  w.begin_object();
  install_stub(w);
  string_field(w, "version", stub.version);
  omitempty_string(w, "maturity", string_member(m, "maturity"));
  definitions(w, "customresourcedefinitions", struct_member(m, "crdDescriptions"), false);
  definitions(w, "apiservicedefinitions", struct_member(m, "apiServiceDefinitions"), true);
  object_list(w, "nativeAPIs", last_member(m, "nativeAPIs"), [&w](const Members& gvk) {
    string_field(w, "group", string_member(gvk, "group"));
    string_field(w, "version", string_member(gvk, "version"));
    string_field(w, "kind", string_member(gvk, "kind"));
  });
  omitempty_string(w, "minKubeVersion", string_member(m, "minKubeVersion"));
  string_field(w, "displayName", string_member(m, "displayName"));
  const std::string own_description = string_member(m, "description");
  omitempty_string(w, "description",
                   own_description.empty() ? stub.package_description
                                           : std::string_view(own_description));
  string_list(w, "keywords", last_member(m, "keywords"));
  object_list(w, "maintainers", last_member(m, "maintainers"),
              [&w](const Members& maintainer) { app_link(w, maintainer, "email"); });
  w.key("provider");
  w.begin_object();
  app_link(w, struct_member(m, "provider"), "url");
  w.end_object();
  object_list(w, "links", last_member(m, "links"),
              [&w](const Members& link) { app_link(w, link, "url"); });
  icons(w, stub.icon);
  object_list(w, "installModes", last_member(m, "installModes"), [&w](const Members& mode) {
    string_field(w, "type", string_member(mode, "type"));
    w.key("supported");
    w.literal(bool_member(mode, "supported") ? "true" : "false");
  });
  w.key("cleanup");
  w.begin_object();
  w.key("enabled");
  w.literal("false");
  w.end_object();
  related_images(w, stub.related_images);
  w.end_object();
}

} // namespace

std::string synthesised_csv(std::string_view metadata, const CsvStub& stub) {
  const Members m = members_of(metadata);
  std::string out;
  json::Writer w(out, {.indent = 0, .escape_html = true});
  w.begin_object();
  string_field(w, "kind", "ClusterServiceVersion");
  string_field(w, "apiVersion", "operators.coreos.com/v1alpha1");
  w.key("metadata");
  w.begin_object();
  omitempty_string(w, "name", stub.name);
  string_map(w, "labels", map_member(m, "labels"));
  string_map(w, "annotations", map_member(m, "annotations"));
  w.end_object();
  spec(w, m, stub);
  w.key("status");
  w.begin_object();
  w.key("cleanup");
  w.begin_object();
  w.end_object();
  w.end_object();
  w.end_object();
  return out;
}

} // namespace opm::bundle
