#include "bundle/properties.hpp"

#include "json/text.hpp"
#include "json/unmarshal.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <unordered_set>

namespace opm::bundle {

namespace {

// Go's JSON kind name of a valid raw value, from its first byte.
std::string_view raw_kind(std::string_view raw) {
  switch (raw.empty() ? '\0' : raw.front()) {
  case '"':
    return "string";
  case '{':
    return "object";
  case '[':
    return "array";
  case 't':
  case 'f':
    return "bool";
  default:
    return "number";
  }
}

// json.Unmarshal(raw, &T{}) for a struct of string fields: `names` are the fields' JSON
// names; the result holds each field's value. Member names match ignoring case, the last
// non-null member wins, and the first type error (in text order) is reported.
template <std::size_t N>
Result<std::array<std::string, N>>
decode_string_struct(std::string_view raw, std::string_view strct,
                     const std::array<std::string_view, N>& names) {
  std::array<std::string, N> out{};
  if (raw.empty()) {
    return util::fail(Errc::invalid, "unexpected end of JSON input");
  }
  std::string_view trimmed = util::trim(raw);
  if (trimmed == "null") {
    return out;
  }
  auto members = json::text::object_members(trimmed);
  if (!members) {
    return util::fail(Errc::invalid, json::type_error(raw_kind(trimmed), "", "",
                                                      fmt::format("property.{}", strct)));
  }
  std::optional<Error> first_error;
  for (const auto& m : *members) {
    for (std::size_t i = 0; i < N; ++i) {
      if (!util::equal_fold(m.key, names[i])) {
        continue;
      }
      if (m.value == "null") {
        break;
      }
      if (m.value.front() != '"') {
        if (!first_error) {
          first_error =
              Error(Errc::invalid, json::type_error(raw_kind(m.value), strct, names[i], "string"));
        }
        break;
      }
      auto s = OPM_TRY(json::text::parse(m.value));
      out[i] = s.template get<std::string>();
      break;
    }
  }
  if (first_error) {
    return std::unexpected(std::move(*first_error));
  }
  return out;
}

constexpr std::array<std::string_view, 3> k_package_fields = {"packageName", "version", "release"};
constexpr std::array<std::string_view, 3> k_gvk_fields = {"group", "kind", "version"};

struct Gvk {
  std::string group;
  std::string kind;
  std::string version;
  friend auto operator<=>(const Gvk&, const Gvk&) = default;
};

Result<Gvk> decode_gvk(std::string_view raw) {
  auto f = OPM_TRY(decode_string_struct(raw, "GVK", k_gvk_fields));
  return Gvk{std::move(f[0]), std::move(f[1]), std::move(f[2])};
}

Error parse_error(std::size_t index, std::string_view type, const Error& err) {
  return Error(Errc::invalid, fmt::format("parse property[{}] of type {}: {}", index,
                                          util::go_quote(type), err.message()));
}

// One output property with the bytes it sorts by.
struct Entry {
  std::string type;
  std::string sort_value;
  catalog::Property property;
};

Entry generated(std::string type, std::string value_text, Json value, bool keep_text) {
  Entry e;
  e.type = type;
  e.property.type = std::move(type);
  e.property.value = std::move(value);
  if (keep_text) {
    e.property.raw = value_text;
  }
  e.sort_value = std::move(value_text);
  return e;
}

Result<Entry> passed_through(const RawProperty& p) {
  Entry e;
  e.type = p.type;
  e.sort_value = p.value;
  e.property.type = p.type;
  if (p.value.empty()) {
    e.property.raw = "null";
  } else {
    e.property.raw = json::text::compact(p.value);
    e.property.value = OPM_TRY(json::text::parse(e.property.raw));
  }
  return e;
}

Entry package_entry(std::string_view name, std::string_view version, std::string_view release) {
  Json value = {{"packageName", name}, {"version", version}};
  if (!release.empty()) {
    value["release"] = release;
  }
  return generated(std::string(catalog::k_prop_package), package_value(name, version, release),
                   std::move(value), true);
}

Entry gvk_entry(std::string_view type, const Gvk& gvk) {
  return generated(std::string(type), gvk_value(gvk.group, gvk.kind, gvk.version),
                   Json{{"group", gvk.group}, {"kind", gvk.kind}, {"version", gvk.version}}, false);
}

Entry package_required_entry(std::string_view name, std::string_view range) {
  json::text::Builder b;
  b.begin_object().key("packageName").string(name).key("versionRange").string(range).end_object();
  return generated(std::string(catalog::k_prop_package_required), std::move(b).text(),
                   Json{{"packageName", name}, {"versionRange", range}}, false);
}

} // namespace

std::vector<RawProperty> property_set(std::vector<RawProperty> properties) {
  std::vector<RawProperty> set;
  set.reserve(properties.size());
  std::unordered_set<std::string> seen;
  for (auto& p : properties) {
    // Upstream's key is fmt.Sprintf("type: %s, value: %s", type, value).
    if (seen.insert(fmt::format("type: {}, value: {}", p.type, p.value)).second) {
      set.push_back(std::move(p));
    }
  }
  return set;
}

std::vector<RawProperty> annotation_properties(std::string_view text) {
  std::vector<RawProperty> out;
  if (!json::text::is_valid(text)) {
    return out;
  }
  auto elements = json::text::array_elements(util::trim(text));
  if (!elements) {
    return out;
  }
  for (std::string_view element : *elements) {
    RawProperty p;
    if (auto members = json::text::object_members(element)) {
      for (const auto& m : *members) {
        if (util::equal_fold(m.key, "type")) {
          if (m.value.front() == '"') {
            if (auto s = json::text::parse(m.value)) {
              p.type = s->get<std::string>();
            }
          }
        } else if (util::equal_fold(m.key, "value")) {
          p.value = std::string(m.value);
        }
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::string package_value(std::string_view name, std::string_view version,
                          std::string_view release) {
  json::text::Builder b;
  b.begin_object().key("packageName").string(name).key("version").string(version);
  if (!release.empty()) {
    b.key("release").string(release);
  }
  b.end_object();
  return std::move(b).text();
}

std::string gvk_value(std::string_view group, std::string_view kind, std::string_view version) {
  json::text::Builder b;
  b.begin_object().key("group").string(group).key("kind").string(kind);
  b.key("version").string(version).end_object();
  return std::move(b).text();
}

Result<std::string> first_package_version(const std::vector<RawProperty>& properties) {
  for (const auto& p : properties) {
    if (p.type == catalog::k_prop_package) {
      auto fields = OPM_TRY(decode_string_struct(p.value, "Package", k_package_fields));
      return fields[1];
    }
  }
  return std::string();
}

namespace {

// The properties and dependencies of a bundle's metadata, sorted by what they become.
struct Collected {
  std::set<Gvk> provided;
  std::set<Gvk> required;
  std::optional<Entry> package;
  std::vector<Entry> package_required;
  std::vector<Entry> others;

  // A properties.yaml entry (`dependency` false) or a dependencies.yaml one (true).
  Result<void> add(const RawProperty& p, std::size_t index, bool dependency) {
    if (p.type == catalog::k_prop_gvk) {
      auto gvk = decode_gvk(p.value);
      if (!gvk) {
        return std::unexpected(parse_error(index, p.type, gvk.error()));
      }
      (dependency ? required : provided).insert(std::move(*gvk));
    } else if (p.type == catalog::k_prop_package) {
      auto f = decode_string_struct(p.value, "Package", k_package_fields);
      if (!f) {
        return std::unexpected(parse_error(index, p.type, f.error()));
      }
      if (dependency) {
        package_required.push_back(package_required_entry((*f)[0], (*f)[1]));
      } else {
        package = package_entry((*f)[0], (*f)[1], (*f)[2]);
      }
    } else {
      others.push_back(OPM_TRY(passed_through(p)));
    }
    return {};
  }
};

} // namespace

Result<std::vector<catalog::Property>> bundle_properties(const PropertyInputs& in) {
  Collected c;
  for (const auto* list : {&in.properties, &in.dependencies}) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      OPM_TRY(c.add((*list)[i], i, list == &in.dependencies));
    }
  }
  auto& [provided, required, package, package_required, others] = c;
  std::vector<Entry> entries;
  if (!in.version) {
    return util::fail(Errc::invalid, "get version: " + in.version.error().message());
  }
  if (!in.release) {
    return util::fail(Errc::invalid, "get release: " + in.release.error().message());
  }
  if (!in.required) {
    return util::fail(Errc::invalid, "get required apis: " + in.required.error().message());
  }
  for (const auto& api : in.provided) {
    provided.insert(Gvk{api.group, api.kind, api.version});
  }
  for (const auto& api : *in.required) {
    required.insert(Gvk{api.group, api.kind, api.version});
  }

  entries.reserve(in.object_json.size() + provided.size() + required.size() + others.size() +
                  package_required.size() + 1);
  for (const auto& object : in.object_json) {
    std::string data = util::base64_encode(object);
    std::string text;
    text.reserve(data.size() + 12);
    text += R"({"data":")";
    text += data;
    text += "\"}";
    entries.push_back(generated(std::string(catalog::k_prop_bundle_object), std::move(text),
                                Json{{"data", std::move(data)}}, false));
  }
  if (!package) {
    package = package_entry(in.package, *in.version, *in.release);
  }
  entries.push_back(std::move(*package));
  for (const auto& gvk : provided) {
    entries.push_back(gvk_entry(catalog::k_prop_gvk, gvk));
  }
  for (const auto& gvk : required) {
    entries.push_back(gvk_entry(catalog::k_prop_gvk_required, gvk));
  }
  for (auto& e : package_required) {
    entries.push_back(std::move(e));
  }
  for (auto& e : others) {
    entries.push_back(std::move(e));
  }

  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.type != b.type) {
      return a.type < b.type;
    }
    return a.sort_value < b.sort_value;
  });
  std::vector<catalog::Property> props;
  props.reserve(entries.size());
  for (auto& e : entries) {
    props.push_back(std::move(e.property));
  }
  return props;
}

} // namespace opm::bundle
