#include "catalog/decode.hpp"
#include "catalog/load.hpp"
#include "json/unmarshal.hpp"
#include "template/detail/common.hpp"
#include "template/template.hpp"

#include <map>

namespace opm::templates {

namespace {

constexpr std::string_view k_basic_schema = "olm.template.basic";

// A bundle of a basic template names only its image (a `name` is tolerated).
bool is_image_only(const catalog::Bundle& b) {
  return !b.image.empty() && b.package.empty() && b.properties.empty() && b.related_images.empty();
}

bool is_wrapped(std::string_view input) {
  auto doc = detail::first_document(input);
  if (!doc || !*doc) {
    return true; // the wrapped form's parser reports it
  }
  const Json* schema = json::find_member(**doc, "schema");
  // Another template's document is not a catalog stream: the wrapped form's parser names it.
  return schema == nullptr || !schema->is_string() || detect_type(input).has_value();
}

Result<catalog::DeclarativeConfig> load_template(std::string_view input, bool accept_stream) {
  if (accept_stream && !is_wrapped(input)) {
    return detail::load_catalog_stream(input, "template");
  }
  auto wrapped = OPM_TRY(detail::wrapped_template(input, k_basic_schema));
  const Json* entries = json::find_member(wrapped, "entries");
  return detail::load_entries(entries != nullptr ? *entries : Json());
}

// Every bundle up to the first one that is not image-only is rendered (upstream renders them
// one by one and stops at the first problem, whichever kind it is).
Result<void> expand_bundles(catalog::DeclarativeConfig& cfg, const RenderBundles& render_bundles) {
  std::size_t valid = 0;
  while (valid < cfg.bundles.size() && is_image_only(cfg.bundles[valid])) {
    ++valid;
  }
  std::vector<std::string> refs;
  refs.reserve(valid);
  for (std::size_t i = 0; i < valid; ++i) {
    refs.push_back(cfg.bundles[i].image);
  }
  auto rendered = OPM_TRY(detail::render_distinct(refs, render_bundles));
  if (valid < cfg.bundles.size()) {
    return util::fail(Errc::invalid, "unexpected fields present in basic template bundle");
  }
  std::map<std::string_view, std::size_t> uses;
  for (const auto& ref : refs) {
    ++uses[ref];
  }
  std::vector<catalog::Bundle> out;
  out.reserve(refs.size());
  for (const auto& ref : refs) {
    auto& bundles = rendered.at(ref).bundles;
    bool last_use = --uses[ref] == 0; // bundles are large: move them out the last time
    for (auto& b : bundles) {
      out.push_back(last_use ? std::move(b) : b);
    }
  }
  cfg.bundles = std::move(out);
  return {};
}

} // namespace

Result<catalog::DeclarativeConfig> render_basic(std::string_view input,
                                                const RenderBundles& render_bundles) {
  auto cfg = OPM_TRY(load_template(input, false));
  OPM_TRY(expand_bundles(cfg, render_bundles));
  return cfg;
}

namespace detail {

Result<catalog::DeclarativeConfig> render_basic_or_stream(std::string_view input,
                                                          const RenderBundles& render_bundles) {
  auto cfg = OPM_TRY(load_template(input, true));
  OPM_TRY(expand_bundles(cfg, render_bundles));
  return cfg;
}

} // namespace detail

} // namespace opm::templates
