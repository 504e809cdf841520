#include "bundle/synthesised_csv.hpp"

#include "json/flat.hpp"
#include "json/text.hpp"
#include "json/writer.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <vector>

namespace opm::bundle {

namespace {

constexpr std::string_view k_null = "null";

// Go's json.Compact with HTML escaping, as json.Marshal writes a json.RawMessage.
std::string compact_escaped(std::string_view raw) {
  const std::string compact = json::text::compact(raw);
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

// A metadata value as JSON text (a JSON catalog's property, member order as written).
struct TextNode {
  using Member = json::text::Member;

  std::string_view raw; // empty: no such member

  static TextNode of(std::string_view value) { return {value}; }
  [[nodiscard]] bool absent() const { return raw.empty(); }
  [[nodiscard]] bool is_null() const { return raw == k_null; }
  [[nodiscard]] bool is_true() const { return raw == "true"; }
  [[nodiscard]] std::vector<Member> members() const {
    auto members = json::text::object_members(raw, json::text::Validity::known_valid);
    return members ? std::move(*members) : std::vector<Member>{};
  }
  [[nodiscard]] std::vector<TextNode> elements() const {
    std::vector<TextNode> out;
    if (auto elements = json::text::array_elements(raw, json::text::Validity::known_valid)) {
      out.reserve(elements->size());
      for (auto element : *elements) {
        out.push_back({element});
      }
    }
    return out;
  }
  [[nodiscard]] std::string string() const {
    if (raw.empty() || raw.front() != '"') {
      return {};
    }
    return json::text::string_value(raw).value_or(std::string());
  }
  [[nodiscard]] long long integer() const {
    auto value = raw.empty() ? Result<Json>(Json()) : json::text::parse(raw);
    if (!value || !value->is_number()) {
      return 0;
    }
    return value->is_number_float() ? static_cast<long long>(value->get<double>())
                                    : value->get<long long>();
  }
  [[nodiscard]] std::string compact_json() const { return compact_escaped(raw); }
};

// A decoded metadata value (a YAML catalog's property): read as its compact text would be,
// members in key order.
struct DomNode {
  struct Member {
    std::string_view key;
    const Json* value;
  };

  const Json* value = nullptr; // nullptr: no such member

  static DomNode of(const Json* v) { return {v}; }
  [[nodiscard]] bool absent() const { return value == nullptr; }
  [[nodiscard]] bool is_null() const { return value != nullptr && value->is_null(); }
  [[nodiscard]] bool is_true() const {
    return value != nullptr && value->is_boolean() && value->get<bool>();
  }
  [[nodiscard]] std::vector<Member> members() const {
    std::vector<Member> out;
    if (value != nullptr && value->is_object()) {
      const auto& object = value->get_ref<const Json::object_t&>();
      out.reserve(object.size());
      for (const auto& [key, member] : object) {
        out.push_back({key, &member});
      }
    }
    return out;
  }
  [[nodiscard]] std::vector<DomNode> elements() const {
    std::vector<DomNode> out;
    if (value != nullptr && value->is_array()) {
      const auto& array = value->get_ref<const Json::array_t&>();
      out.reserve(array.size());
      for (const auto& element : array) {
        out.push_back({&element});
      }
    }
    return out;
  }
  [[nodiscard]] std::string_view string() const {
    return value != nullptr && value->is_string()
               ? std::string_view(value->get_ref<const std::string&>())
               : std::string_view();
  }
  [[nodiscard]] long long integer() const {
    if (value == nullptr || !value->is_number()) {
      return 0;
    }
    return value->is_number_float() ? static_cast<long long>(value->get<double>())
                                    : value->get<long long>();
  }
  [[nodiscard]] std::string compact_json() const {
    return json::to_text(*value, {.indent = 0, .escape_html = true});
  }
};

// A decoded metadata value kept in json::Flattener's form: read as DomNode reads the value.
struct FlatNode {
  using Member = json::FlatNode::Member;

  json::FlatNode node; // absent: no such member

  static FlatNode of(json::FlatNode n) { return {n}; }
  [[nodiscard]] bool absent() const { return node.absent(); }
  [[nodiscard]] bool is_null() const { return node.is_null(); }
  [[nodiscard]] bool is_true() const { return node.is_true(); }
  [[nodiscard]] std::vector<Member> members() const { return node.members(); }
  [[nodiscard]] std::vector<FlatNode> elements() const {
    std::vector<FlatNode> out;
    for (const json::FlatNode& element : node.elements()) {
      out.push_back({element});
    }
    return out;
  }
  [[nodiscard]] std::string_view string() const { return node.string(); }
  [[nodiscard]] long long integer() const { return node.integer(); }
  [[nodiscard]] std::string compact_json() const {
    return json::to_text(node.to_json(), {.indent = 0, .escape_html = true});
  }
};

// ---- reading the metadata as Go's decoder does ----------------------------------------

template <typename Node> using Members = std::vector<typename Node::Member>;

// The last member named `name` (ignoring case), null included: what a slice or a
// json.RawMessage ends up holding.
template <typename Node> Node last_member(const Members<Node>& members, std::string_view name) {
  Node out;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name)) {
      out = Node::of(m.value);
    }
  }
  return out;
}

// The last non-null member named `name` (ignoring case): a scalar field, which null leaves as
// an earlier member set it.
template <typename Node>
Node last_non_null_member(const Members<Node>& members, std::string_view name) {
  Node found;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name) && !Node::of(m.value).is_null()) {
      found = Node::of(m.value);
    }
  }
  return found;
}

template <typename Node> auto string_member(const Members<Node>& members, std::string_view name) {
  return last_non_null_member<Node>(members, name).string();
}

template <typename Node>
long long integer_member(const Members<Node>& members, std::string_view name) {
  return last_non_null_member<Node>(members, name).integer();
}

template <typename Node> bool bool_member(const Members<Node>& members, std::string_view name) {
  return last_non_null_member<Node>(members, name).is_true();
}

// A struct field: every member of that name decodes into the same struct, so their members
// add up (later ones win).
template <typename Node>
Members<Node> struct_member(const Members<Node>& members, std::string_view name) {
  Members<Node> out;
  for (const auto& m : members) {
    if (util::equal_fold(m.key, name) && !Node::of(m.value).is_null()) {
      auto inner = Node::of(m.value).members();
      out.insert(out.end(), std::make_move_iterator(inner.begin()),
                 std::make_move_iterator(inner.end()));
    }
  }
  return out;
}

// A map[string]string's entries, their values as Node::string gives them: a view into a
// decoded tree, or text of their own.
template <typename Node>
using StringMap = std::vector<std::pair<std::string, decltype(Node{}.string())>>;

// A map[string]string field: members of that name add keys, null empties the map. Its
// entries in key order, as Go writes a map, each key's last value kept.
template <typename Node>
StringMap<Node> map_member(const Members<Node>& members, std::string_view name) {
  StringMap<Node> added;
  for (const auto& m : members) {
    if (!util::equal_fold(m.key, name)) {
      continue;
    }
    const auto node = Node::of(m.value);
    if (node.is_null()) {
      added.clear();
      continue;
    }
    for (const auto& entry : node.members()) {
      added.emplace_back(std::string(entry.key), Node::of(entry.value).string());
    }
  }
  std::ranges::stable_sort(added, {},
                           [](const auto& entry) -> std::string_view { return entry.first; });
  StringMap<Node> out;
  out.reserve(added.size());
  for (std::size_t i = 0; i < added.size(); ++i) {
    if (i + 1 == added.size() || added[i + 1].first != added[i].first) {
      out.push_back(std::move(added[i]));
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

template <typename Map> void string_map(json::Writer& w, std::string_view key, const Map& map) {
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
template <typename Node, typename Element>
void object_list(json::Writer& w, std::string_view key, const Node& list, Element element) {
  auto items = list.elements();
  if (items.empty()) {
    return;
  }
  w.key(key);
  w.begin_array();
  for (const auto& item : items) {
    w.begin_object();
    element(item.members());
    w.end_object();
  }
  w.end_array();
}

template <typename Node> void string_list(json::Writer& w, std::string_view key, const Node& list) {
  auto items = list.elements();
  if (items.empty()) {
    return;
  }
  w.key(key);
  w.begin_array();
  for (const auto& item : items) {
    w.string(item.string());
  }
  w.end_array();
}

template <typename Node>
void descriptors(json::Writer& w, std::string_view key, const Members<Node>& owner) {
  object_list(w, key, last_member<Node>(owner, key), [&w](const Members<Node>& d) {
    string_field(w, "path", string_member<Node>(d, "path"));
    omitempty_string(w, "displayName", string_member<Node>(d, "displayName"));
    omitempty_string(w, "description", string_member<Node>(d, "description"));
    string_list(w, "x-descriptors", last_member<Node>(d, "x-descriptors"));
    if (auto value = last_member<Node>(d, "value"); !value.absent()) {
      w.key("value");
      w.raw(value.compact_json());
    }
  });
}

template <typename Node>
void description(json::Writer& w, const Members<Node>& d, bool api_service) {
  string_field(w, "name", string_member<Node>(d, "name"));
  if (api_service) {
    string_field(w, "group", string_member<Node>(d, "group"));
  }
  string_field(w, "version", string_member<Node>(d, "version"));
  string_field(w, "kind", string_member<Node>(d, "kind"));
  if (api_service) {
    omitempty_string(w, "deploymentName", string_member<Node>(d, "deploymentName"));
    if (auto port = integer_member<Node>(d, "containerPort"); port != 0) {
      w.key("containerPort");
      w.literal(std::to_string(port));
    }
  }
  omitempty_string(w, "displayName", string_member<Node>(d, "displayName"));
  omitempty_string(w, "description", string_member<Node>(d, "description"));
  object_list(w, "resources", last_member<Node>(d, "resources"), [&w](const Members<Node>& r) {
    string_field(w, "name", string_member<Node>(r, "name"));
    string_field(w, "kind", string_member<Node>(r, "kind"));
    string_field(w, "version", string_member<Node>(r, "version"));
  });
  descriptors<Node>(w, "statusDescriptors", d);
  descriptors<Node>(w, "specDescriptors", d);
  descriptors<Node>(w, "actionDescriptors", d);
}

template <typename Node>
void definitions(json::Writer& w, std::string_view key, const Members<Node>& defs,
                 bool api_service) {
  w.key(key);
  w.begin_object();
  for (std::string_view list : {"owned", "required"}) {
    object_list(w, list, last_member<Node>(defs, list), [&w, api_service](const Members<Node>& d) {
      description<Node>(w, d, api_service);
    });
  }
  w.end_object();
}

template <typename Node>
void app_link(json::Writer& w, const Members<Node>& link, std::string_view second) {
  omitempty_string(w, "name", string_member<Node>(link, "name"));
  omitempty_string(w, second, string_member<Node>(link, second));
}

void icons(json::Writer& w, const std::optional<CsvStub::Icon>& icon) {
  if (!icon) {
    return;
  }
  w.key("icon");
  w.begin_array();
  w.begin_object();
  string_field(w, "base64data", icon->base64data);
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

template <typename Node> void spec(json::Writer& w, const Members<Node>& m, const CsvStub& stub) {
  w.key("spec");
  w.begin_object();
  install_stub(w);
  string_field(w, "version", stub.version);
  omitempty_string(w, "maturity", string_member<Node>(m, "maturity"));
  definitions<Node>(w, "customresourcedefinitions", struct_member<Node>(m, "crdDescriptions"),
                    false);
  definitions<Node>(w, "apiservicedefinitions", struct_member<Node>(m, "apiServiceDefinitions"),
                    true);
  object_list(w, "nativeAPIs", last_member<Node>(m, "nativeAPIs"), [&w](const Members<Node>& gvk) {
    string_field(w, "group", string_member<Node>(gvk, "group"));
    string_field(w, "version", string_member<Node>(gvk, "version"));
    string_field(w, "kind", string_member<Node>(gvk, "kind"));
  });
  omitempty_string(w, "minKubeVersion", string_member<Node>(m, "minKubeVersion"));
  string_field(w, "displayName", string_member<Node>(m, "displayName"));
  const auto own_description = string_member<Node>(m, "description");
  omitempty_string(w, "description",
                   own_description.empty() ? stub.package_description
                                           : std::string_view(own_description));
  string_list(w, "keywords", last_member<Node>(m, "keywords"));
  object_list(w, "maintainers", last_member<Node>(m, "maintainers"),
              [&w](const Members<Node>& maintainer) { app_link<Node>(w, maintainer, "email"); });
  w.key("provider");
  w.begin_object();
  app_link<Node>(w, struct_member<Node>(m, "provider"), "url");
  w.end_object();
  object_list(w, "links", last_member<Node>(m, "links"),
              [&w](const Members<Node>& link) { app_link<Node>(w, link, "url"); });
  icons(w, stub.icon);
  object_list(w, "installModes", last_member<Node>(m, "installModes"),
              [&w](const Members<Node>& mode) {
                string_field(w, "type", string_member<Node>(mode, "type"));
                w.key("supported");
                w.literal(bool_member<Node>(mode, "supported") ? "true" : "false");
              });
  w.key("cleanup");
  w.begin_object();
  w.key("enabled");
  w.literal("false");
  w.end_object();
  related_images(w, stub.related_images);
  w.end_object();
}

template <typename Node> std::string csv_from(const Node& metadata, const CsvStub& stub) {
  const Members<Node> m = metadata.members();
  std::string out;
  json::Writer w(out, {.indent = 0, .escape_html = true});
  w.begin_object();
  string_field(w, "kind", "ClusterServiceVersion");
  string_field(w, "apiVersion", "operators.coreos.com/v1alpha1");
  w.key("metadata");
  w.begin_object();
  omitempty_string(w, "name", stub.name);
  string_map(w, "labels", map_member<Node>(m, "labels"));
  string_map(w, "annotations", map_member<Node>(m, "annotations"));
  w.end_object();
  spec<Node>(w, m, stub);
  w.key("status");
  w.begin_object();
  w.key("cleanup");
  w.begin_object();
  w.end_object();
  w.end_object();
  w.end_object();
  return out;
}

} // namespace

std::string synthesised_csv(std::string_view metadata, const CsvStub& stub) {
  return csv_from(TextNode{metadata}, stub);
}

std::string synthesised_csv(const catalog::Property& metadata, const CsvStub& stub) {
  return metadata.raw.empty() ? csv_from(DomNode{&metadata.value}, stub)
                              : csv_from(TextNode{metadata.raw}, stub);
}

KeptCsvMetadata::Form KeptCsvMetadata::form_of(const catalog::Property& metadata,
                                               json::Flattener& flattener) {
  if (!metadata.raw.empty()) {
    return {.kept = metadata.raw, .made = {}, .flat = false};
  }
  if (auto flat = flattener.flatten(metadata.value)) {
    return {.kept = *flat, .made = {}, .flat = true};
  }
  return {.kept = {}, .made = json::to_text(metadata.value), .flat = false};
}

std::string KeptCsvMetadata::csv(const CsvStub& stub) const {
  return m_flat ? csv_from(FlatNode{json::FlatNode::root(m_kept)}, stub)
                : csv_from(TextNode{m_kept}, stub);
}

} // namespace opm::bundle
