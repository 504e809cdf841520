#include "catalog/decode.hpp"
#include "catalog/load.hpp"
#include "json/unmarshal.hpp"
#include "json/writer.hpp"
#include "template/detail/common.hpp"
#include "template/template.hpp"
#include "yaml/value.hpp"

#include <fmt/format.h>

namespace opm::templates {

namespace {

// Upstream keeps only the schema and image of a bundle, in that member order.
bool reduce_to_image(const Json& doc, std::string_view type) {
  if (type != "basic") {
    return false;
  }
  const Json* schema = json::find_member(doc, "schema");
  return schema != nullptr && *schema == "olm.bundle";
}

std::string image_of(const Json& bundle) {
  const Json* image = json::find_member(bundle, "image");
  return image != nullptr && image->is_string() ? image->get<std::string>() : std::string();
}

std::string schema_of(std::string_view type) {
  return type == "basic" ? "olm.template.basic" : "olm.template.substitutes";
}

std::string as_json(const std::vector<Json>& entries, std::string_view type) {
  std::string out;
  json::Writer w(out, {.indent = 4, .escape_html = true});
  w.begin_object();
  w.key("schema");
  w.string(schema_of(type));
  w.key("entries");
  if (entries.empty()) {
    w.literal("null");
  } else {
    w.begin_array();
    for (const auto& doc : entries) {
      if (reduce_to_image(doc, type)) {
        w.begin_object();
        w.key("schema");
        w.string("olm.bundle");
        w.key("image");
        w.string(image_of(doc));
        w.end_object();
      } else {
        w.value(doc);
      }
    }
    w.end_array();
  }
  if (type == "substitutes") {
    w.key("substitutions");
    w.begin_array();
    w.end_array();
  }
  w.end_object();
  out += '\n';
  return out;
}

std::string as_yaml(const std::vector<Json>& entries, std::string_view type) {
  Json doc = Json::object();
  doc["schema"] = schema_of(type);
  if (entries.empty()) {
    doc["entries"] = nullptr;
  } else {
    doc["entries"] = Json::array();
    for (const auto& entry : entries) {
      if (reduce_to_image(entry, type)) {
        doc["entries"].push_back({{"schema", "olm.bundle"}, {"image", image_of(entry)}});
      } else {
        doc["entries"].push_back(entry);
      }
    }
  }
  if (type == "substitutes") {
    doc["substitutions"] = Json::array();
  }
  std::string out = "---\n";
  yaml::append(out, doc);
  out += '\n';
  return out;
}

} // namespace

Result<std::string> convert(std::string_view fbc, std::string_view type, ConvertFormat format) {
  if (type != "basic" && type != "substitutes") {
    return util::fail(Errc::invalid, fmt::format("unknown template type {}", type));
  }
  auto decoded = catalog::decode_stream_until_error(fbc, "input");
  std::vector<Json> entries;
  entries.reserve(decoded.documents.size());
  // Documents are read one at a time: a bad document fails before a later syntax error.
  for (auto& doc : decoded.documents) {
    OPM_TRY(catalog::check_envelope(doc.value));
    json::normalize_numbers(doc.value);
    entries.push_back(std::move(doc.value));
  }
  if (decoded.error) {
    return std::unexpected(detail::without_location(std::move(*decoded.error)));
  }
  return format == ConvertFormat::json ? as_json(entries, type) : as_yaml(entries, type);
}

} // namespace opm::templates
