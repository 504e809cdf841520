#include "template/detail/common.hpp"

#include "catalog/decode.hpp"
#include "catalog/load.hpp"
#include "json/go_json.hpp"
#include "json/unmarshal.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::templates::detail {

namespace {

constexpr std::string_view k_input_name = "template";

} // namespace

Error without_location(Error error) { return Error(error.code(), error.message()); }

Result<catalog::DeclarativeConfig> load_catalog_stream(std::string_view text,
                                                       std::string_view name) {
  auto docs = catalog::decode_stream(text, name);
  if (!docs) {
    return std::unexpected(without_location(std::move(docs).error()));
  }
  catalog::DeclarativeConfig cfg;
  if (auto added = catalog::add_documents(std::move(*docs), name, cfg); !added) {
    return std::unexpected(without_location(std::move(added).error()));
  }
  return cfg;
}

Result<std::optional<Json>> first_document(std::string_view input) {
  auto decoded = catalog::decode_stream_until_error(input, k_input_name);
  if (!decoded.documents.empty()) {
    return std::optional<Json>(std::move(decoded.documents.front().value));
  }
  if (decoded.error) {
    return std::unexpected(without_location(std::move(*decoded.error)));
  }
  return std::optional<Json>();
}

Result<std::optional<Json>> first_value(std::string_view input) {
  auto decoded = catalog::decode_values_until_error(input, k_input_name);
  if (!decoded.documents.empty()) {
    return std::optional<Json>(std::move(decoded.documents.front().value));
  }
  if (decoded.error) {
    return std::unexpected(without_location(std::move(*decoded.error)));
  }
  return std::optional<Json>();
}

Result<Json> wrapped_template(std::string_view input, std::string_view schema) {
  auto doc = first_value(input);
  if (!doc) {
    return std::unexpected(std::move(doc).error().wrap("decoding template schema"));
  }
  if (!*doc) {
    return util::fail(Errc::invalid, "decoding template schema: EOF");
  }
  Json& value = **doc;
  if (!value.is_object() && !value.is_null()) {
    std::string_view go_type = schema == "olm.template.basic"
                                   ? "basic.BasicTemplateData"
                                   : "substitutes.SubstitutesTemplateData";
    return util::fail(Errc::invalid, "unmarshalling template: " +
                                         json::type_error(json::kind_name(value), "", "", go_type));
  }
  // declcfg.Meta decodes each entry into a map and checks its keys; the first entry that fails
  // ends the decoding at once, before any other problem is reported.
  if (const Json* entries = json::find_member(value, "entries");
      entries != nullptr && entries->is_array()) {
    for (const auto& entry : *entries) {
      if (auto checked = catalog::check_envelope(entry); !checked) {
        return std::unexpected(std::move(checked).error().wrap("unmarshalling template"));
      }
    }
  }
  const Json* found = json::find_member(value, "schema");
  std::string actual;
  if (found != nullptr && !found->is_null()) {
    if (!found->is_string()) {
      return util::fail(Errc::invalid,
                        "unmarshalling template: " +
                            json::type_error(json::kind_name(*found), "", "", "string"));
    }
    actual = found->get<std::string>();
  }
  if (actual != schema) {
    return util::fail(Errc::invalid, fmt::format("template has unknown schema ({}), should be {}",
                                                 util::go_quote(actual), util::go_quote(schema)));
  }
  return std::move(value);
}

Result<catalog::DeclarativeConfig> load_entries(const Json& entries) {
  catalog::DeclarativeConfig cfg;
  if (entries.is_null()) {
    return cfg;
  }
  if (!entries.is_array()) {
    return util::fail(Errc::invalid,
                      "unmarshalling template: " +
                          json::type_error(json::kind_name(entries), "", "", "[]*declcfg.Meta"));
  }
  std::vector<catalog::Document> docs;
  docs.reserve(entries.size());
  for (const auto& entry : entries) {
    Json value = entry;
    json::normalize_numbers(value);
    docs.push_back({std::move(value), 1});
  }
  if (auto added = catalog::add_documents(std::move(docs), k_input_name, cfg); !added) {
    return std::unexpected(without_location(std::move(added).error()));
  }
  return cfg;
}

Result<RenderedRefs> render_distinct(const std::vector<std::string>& refs,
                                     const RenderBundles& render_bundles) {
  std::vector<std::string> distinct;
  RenderedRefs rendered;
  for (const auto& ref : refs) {
    if (rendered.emplace(ref, catalog::DeclarativeConfig{}).second) {
      distinct.push_back(ref);
    }
  }
  if (distinct.empty()) {
    return rendered;
  }
  auto configs = OPM_TRY(render_bundles(distinct));
  for (std::size_t i = 0; i < distinct.size() && i < configs.size(); ++i) {
    rendered[distinct[i]] = std::move(configs[i]);
  }
  return rendered;
}

} // namespace opm::templates::detail
