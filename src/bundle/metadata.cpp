#include "bundle/metadata.hpp"

#include "bundle/document.hpp"
#include "catalog/write.hpp"
#include "json/text.hpp"
#include "json/unmarshal.hpp"
#include "json/writer.hpp"
#include "util/fs.hpp"
#include "util/go_format.hpp"
#include "util/strings.hpp"

#include <array>

namespace opm::bundle {

namespace {

constexpr std::string_view k_package_key = "operators.operatorframework.io.bundle.package.v1";
constexpr std::string_view k_channels_key = "operators.operatorframework.io.bundle.channels.v1";
constexpr std::string_view k_default_key =
    "operators.operatorframework.io.bundle.channel.default.v1";

Error not_this_kind() { return Error(Errc::invalid, "not this kind of document"); }

// A value decoded into a Go string field. YAML numbers and booleans are turned into
// strings first (sigs.k8s.io/yaml does so for string targets); null leaves the field as is.
Result<std::optional<std::string>> go_string(const Json* v, Syntax syntax) {
  if (v == nullptr || v->is_null()) {
    return std::nullopt;
  }
  if (v->is_string()) {
    return v->get<std::string>();
  }
  if (syntax == Syntax::yaml) {
    if (v->is_boolean()) {
      return std::string(v->get<bool>() ? "true" : "false");
    }
    if (v->is_number_integer() && !v->is_number_unsigned()) {
      return std::to_string(v->get<long long>());
    }
    if (v->is_number_unsigned()) {
      return std::to_string(v->get<unsigned long long>());
    }
    if (v->is_number_float()) {
      return util::format_float(v->get<double>(), 'g', 32);
    }
  }
  return std::unexpected(not_this_kind());
}

Result<Annotations> annotations_from(const FirstDocument& doc) {
  Annotations out;
  if (doc.value.is_null()) {
    return out;
  }
  if (!doc.value.is_object()) {
    return std::unexpected(not_this_kind());
  }
  const Json* ann = json::find_member(doc.value, "annotations");
  if (ann == nullptr || ann->is_null()) {
    return out;
  }
  if (!ann->is_object()) {
    return std::unexpected(not_this_kind());
  }
  const std::array<std::pair<std::string_view, std::string*>, 3> fields = {{
      {k_package_key, &out.package},
      {k_channels_key, &out.channels},
      {k_default_key, &out.default_channel},
  }};
  for (const auto& [key, target] : fields) {
    auto s = OPM_TRY(go_string(json::find_member(*ann, key), doc.syntax));
    if (s) {
      *target = std::move(*s);
    }
  }
  return out;
}

// A list of {type, value} read from JSON text, keeping each value's bytes.
Result<std::vector<RawProperty>> list_from_json_text(std::string_view text,
                                                     std::string_view list_name) {
  std::vector<RawProperty> list;
  if (text == "null") {
    return list;
  }
  auto members = json::text::object_members(text);
  if (!members) {
    return std::unexpected(not_this_kind());
  }
  for (const auto& m : *members) {
    if (!util::equal_fold(m.key, list_name)) {
      continue;
    }
    list.clear();
    if (m.value == "null") {
      continue;
    }
    auto elements = json::text::array_elements(m.value);
    if (!elements) {
      return std::unexpected(not_this_kind());
    }
    for (std::string_view element : *elements) {
      RawProperty p;
      if (element != "null") {
        auto fields = json::text::object_members(element);
        if (!fields) {
          return std::unexpected(not_this_kind());
        }
        for (const auto& f : *fields) {
          if (util::equal_fold(f.key, "type")) {
            if (f.value == "null") {
              continue;
            }
            if (f.value.front() != '"') {
              return std::unexpected(not_this_kind());
            }
            p.type = OPM_TRY(json::text::parse(f.value)).get<std::string>();
          } else if (util::equal_fold(f.key, "value")) {
            p.value = std::string(f.value);
          }
        }
      }
      list.push_back(std::move(p));
    }
  }
  return list;
}

// The same from a YAML document: values are the JSON text sigs.k8s.io/yaml produces
// (compact, sorted keys, HTML-escaped).
Result<std::vector<RawProperty>> list_from_value(const Json& doc, std::string_view list_name) {
  std::vector<RawProperty> list;
  if (doc.is_null()) {
    return list;
  }
  if (!doc.is_object()) {
    return std::unexpected(not_this_kind());
  }
  const Json* items = json::find_member(doc, list_name);
  if (items == nullptr || items->is_null()) {
    return list;
  }
  if (!items->is_array()) {
    return std::unexpected(not_this_kind());
  }
  for (const auto& item : *items) {
    RawProperty p;
    if (!item.is_null()) {
      if (!item.is_object()) {
        return std::unexpected(not_this_kind());
      }
      auto type = OPM_TRY(go_string(json::find_member(item, "type"), Syntax::yaml));
      if (type) {
        p.type = std::move(*type);
      }
      if (const Json* value = json::find_member(item, "value")) {
        p.value = json::to_text(*value, {.indent = 0, .escape_html = true});
      }
    }
    list.push_back(std::move(p));
  }
  return list;
}

} // namespace

std::optional<Annotations> decode_annotations(std::string_view content) {
  auto decoded = decode_first_document(content, annotations_from);
  if (!decoded) {
    return std::nullopt;
  }
  if (decoded->package.empty() && decoded->channels.empty() && decoded->default_channel.empty()) {
    return std::nullopt;
  }
  return std::move(*decoded);
}

std::optional<std::vector<RawProperty>> decode_property_list(std::string_view content,
                                                             std::string_view list_name) {
  auto decoded = decode_first_document(
      content, [list_name](const FirstDocument& doc) -> Result<std::vector<RawProperty>> {
        if (doc.syntax == Syntax::json) {
          return list_from_json_text(doc.text, list_name);
        }
        return list_from_value(doc.value, list_name);
      });
  if (!decoded || decoded->empty()) {
    return std::nullopt;
  }
  return std::move(*decoded);
}

Result<Metadata> read_metadata(const std::filesystem::path& dir) {
  auto entries = OPM_TRY(util::sorted_entries(dir));
  std::optional<Annotations> annotations;
  std::optional<std::vector<RawProperty>> dependencies;
  std::optional<std::vector<RawProperty>> properties;
  for (const auto& entry : entries) {
    auto content = util::read_regular(dir / entry.name);
    if (!content) {
      continue;
    }
    if (!annotations) {
      annotations = decode_annotations(*content);
    }
    if (!dependencies) {
      dependencies = decode_property_list(*content, "dependencies");
    }
    if (!properties) {
      properties = decode_property_list(*content, "properties");
    }
  }
  if (!annotations) {
    return util::fail(Errc::invalid, "Could not find annotations file");
  }
  Metadata out;
  out.annotations = std::move(*annotations);
  if (dependencies) {
    out.dependencies = std::move(*dependencies);
  }
  if (properties) {
    out.properties = std::move(*properties);
  }
  return out;
}

std::vector<std::string> split_channels(std::string_view channels) {
  if (channels.empty()) {
    return {};
  }
  return util::split(channels, ',');
}

} // namespace opm::bundle
