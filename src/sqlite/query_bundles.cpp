#include "json/text.hpp"
#include "sqlite/detail/bundle_edges_sql.hpp"
#include "sqlite/detail/query_parts.hpp"
#include "sqlite/query.hpp"
#include "util/strings.hpp"

#include <set>

// ListBundles: one row per bundle per channel (see detail/bundle_edges_sql.hpp).
namespace opm::sqlite {

namespace {

using detail::parse_gvk;
using detail::read_manifests;

constexpr std::string_view k_list_bundles_select = R"(
SELECT
  bundle_replaces.entry_id,
  CASE WHEN length(coalesce(operatorbundle.bundlepath, "")) > 0 THEN NULL
       ELSE operatorbundle.bundle END,
  operatorbundle.bundlepath,
  operatorbundle.name,
  bundle_replaces.package_name,
  bundle_replaces.channel_name,
  bundle_replaces.replaces,
  bundle_skips.skips,
  operatorbundle.version,
  operatorbundle.skiprange,
  bundle_dependencies.list,
  bundle_properties.list
FROM bundle_replaces
  INNER JOIN operatorbundle ON bundle_replaces.operatorbundle_name = operatorbundle.name
  LEFT OUTER JOIN bundle_skips
    ON bundle_replaces.operatorbundle_name = bundle_skips.operatorbundle_name
   AND bundle_replaces.package_name = bundle_skips.package_name
   AND bundle_replaces.channel_name = bundle_skips.channel_name
  LEFT OUTER JOIN bundle_dependencies ON operatorbundle.name = bundle_dependencies.name
  LEFT OUTER JOIN bundle_properties ON operatorbundle.name = bundle_properties.name
)";

enum Column {
  bundle_objects = 1,
  bundle_path,
  name,
  package_name,
  channel_name,
  replaces,
  skips,
  version,
  skip_range,
  dependencies,
  properties,
};

// The {"type","value"} objects of a json_group_array.
Result<std::vector<TypedValue>> merged_values(std::string_view text) {
  auto parsed = OPM_TRY(json::text::parse(text));
  std::vector<TypedValue> values;
  for (const Json& item : parsed) {
    TypedValue value;
    if (auto it = item.find("type"); it != item.end() && it->is_string()) {
      value.type = it->get<std::string>();
    }
    if (auto it = item.find("value"); it != item.end() && it->is_string()) {
      value.value = it->get<std::string>();
    }
    values.push_back(std::move(value));
  }
  return values;
}

// The olm.gvk values as GVKs, up to the first that is not a GVK object (upstream stops there
// and ignores the error).
std::vector<Gvk> legacy_apis(const std::vector<TypedValue>& values) {
  std::vector<Gvk> gvks;
  for (const TypedValue& v : values) {
    if (v.type != "olm.gvk") {
      continue;
    }
    auto gvk = parse_gvk(v.value);
    if (!gvk) {
      break;
    }
    gvks.push_back(std::move(*gvk));
  }
  return gvks;
}

std::vector<TypedValue> unique_values(std::vector<TypedValue> values) {
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<TypedValue> out;
  for (TypedValue& v : values) {
    if (seen.emplace(v.type, v.value).second) {
      out.push_back(std::move(v));
    }
  }
  return out;
}

Result<BundleAnswer> list_row(const Statement& row) {
  BundleAnswer out;
  if (auto objects = row.text(bundle_objects); objects && !objects->empty()) {
    OPM_TRY(read_manifests(*objects, out));
  }
  out.csv_name = row.text_or_empty(name);
  out.package_name = row.text_or_empty(package_name);
  out.channel_name = row.text_or_empty(channel_name);
  out.bundle_path = row.text_or_empty(bundle_path);
  out.version = row.text_or_empty(version);
  out.skip_range = row.text_or_empty(skip_range);
  out.replaces = row.text_or_empty(replaces);
  if (auto text = row.text(skips)) {
    out.skips = util::split(*text, ',');
  }
  if (auto text = row.text(dependencies)) {
    out.dependencies = OPM_TRY(merged_values(*text));
  }
  out.required_apis = legacy_apis(out.dependencies);
  out.dependencies = unique_values(std::move(out.dependencies));
  if (auto text = row.text(properties)) {
    out.properties = OPM_TRY(merged_values(*text));
  }
  out.provided_apis = legacy_apis(out.properties);
  out.properties = unique_values(std::move(out.properties));
  return out;
}

} // namespace

Result<std::vector<BundleAnswer>> Querier::bundles() {
  std::lock_guard lock(m_mutex);
  Statement stmt = OPM_TRY(
      m_db.prepare(std::string(detail::k_bundle_edges) + std::string(k_list_bundles_select)));
  std::vector<BundleAnswer> bundles;
  while (OPM_TRY(stmt.step())) {
    if (stmt.is_null(name) || stmt.is_null(version) || stmt.is_null(bundle_path) ||
        stmt.is_null(channel_name)) {
      continue;
    }
    bundles.push_back(OPM_TRY(list_row(stmt)));
  }
  return bundles;
}

} // namespace opm::sqlite
