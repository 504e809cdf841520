#include "template/template.hpp"

#include "json/unmarshal.hpp"
#include "template/detail/common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace opm::templates {

namespace {

struct Kind {
  std::string_view schema;
  std::string_view type;
};

constexpr std::array<Kind, 3> k_kinds{{
    {"olm.template.basic", "basic"},
    {"olm.semver", "semver"},
    {"olm.template.substitutes", "substitutes"},
}};

constexpr std::array<std::string_view, 3> k_types{"basic", "semver", "substitutes"};

} // namespace

std::span<const std::string_view> types() { return k_types; }

bool is_type(std::string_view type) { return std::ranges::find(k_types, type) != k_types.end(); }

Result<std::string> detect_type(std::string_view input) {
  auto doc = detail::first_value(input);
  if (!doc) {
    return std::unexpected(std::move(doc).error().wrap("decoding template input"));
  }
  if (!*doc) {
    return util::fail(Errc::invalid, "decoding template input: EOF");
  }
  const Json& value = **doc;
  if (!value.is_object() && !value.is_null()) {
    return util::fail(Errc::invalid,
                      "unmarshalling template schema: " +
                          json::type_error(json::kind_name(value), "", "",
                                           R"(struct { Schema string "json:\"schema\"" })"));
  }
  const Json* schema = json::find_member(value, "schema");
  if (schema != nullptr && !schema->is_null() && !schema->is_string()) {
    return util::fail(Errc::invalid,
                      "unmarshalling template schema: " +
                          json::type_error(json::kind_name(*schema), "", "", "string"));
  }
  std::string name = schema != nullptr && schema->is_string() ? schema->get<std::string>() : "";
  if (name.empty()) {
    return util::fail(Errc::invalid, "template input missing required 'schema' field");
  }
  for (const auto& kind : k_kinds) {
    if (kind.schema == name) {
      return std::string(kind.type);
    }
  }
  return util::fail(Errc::invalid, "unknown template schema: " + name);
}

Result<catalog::DeclarativeConfig> render(std::string_view type, std::string_view input,
                                          const RenderBundles& render_bundles) {
  if (type == "basic") {
    return render_basic(input, render_bundles);
  }
  if (type == "semver") {
    return render_semver(input, render_bundles);
  }
  if (type == "substitutes") {
    return render_substitutes(input, render_bundles);
  }
  return util::fail(Errc::invalid, fmt::format("unknown template type: {}", type));
}

} // namespace opm::templates
