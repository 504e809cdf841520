#include "bundle/migrations.hpp"

#include "bundle/csv_metadata.hpp"
#include "json/text.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::bundle {

using catalog::Bundle;
using catalog::DeclarativeConfig;
using catalog::k_prop_bundle_object;
using catalog::k_prop_csv_metadata;
using catalog::Property;

namespace {

Result<void> no_migration(DeclarativeConfig&) { return {}; }

Result<void> convert_bundle(Bundle& b) {
  if (b.image.empty() || b.csv_json().empty()) {
    return {};
  }
  auto metadata = OPM_TRY(csv_metadata_json(b.csv_json()));
  bool has_metadata = std::any_of(b.properties.begin(), b.properties.end(),
                                  [](const Property& p) { return p.type == k_prop_csv_metadata; });
  if (has_metadata) {
    return {};
  }
  std::erase_if(b.properties, [](const Property& p) { return p.type == k_prop_bundle_object; });
  Property p;
  p.type = std::string(k_prop_csv_metadata);
  p.value = OPM_TRY(json::text::parse(metadata));
  p.raw = std::move(metadata);
  b.properties.push_back(std::move(p));
  return {};
}

} // namespace

const std::vector<Migration>& all_migrations() {
  static const std::vector<Migration> k_all = {
      {"none", "do nothing", no_migration},
      {"bundle-object-to-csv-metadata",
       R"(migrates bundles' "olm.bundle.object" to "olm.csv.metadata")",
       bundle_object_to_csv_metadata},
  };
  return k_all;
}

Result<std::vector<Migration>> migrations_up_to(std::string_view level) {
  const auto& all = all_migrations();
  if (level == "all") {
    return all;
  }
  std::vector<Migration> selected;
  for (const auto& m : all) {
    selected.push_back(m);
    if (m.token == level) {
      return selected;
    }
  }
  return util::fail(Errc::invalid,
                    fmt::format("unknown migration level {}", util::go_quote(level)));
}

Result<void> run_migrations(const std::vector<Migration>& migrations, DeclarativeConfig& cfg) {
  for (const auto& m : migrations) {
    OPM_TRY(m.run(cfg));
  }
  return {};
}

std::string migrations_help() {
  std::string out = "\nThe migrator will run all migrations up to and including the selected "
                    "level.\n\nAvailable migrators:\n";
  std::size_t width = 0;
  for (const auto& m : all_migrations()) {
    width = std::max(width, m.token.size() + 4);
  }
  for (const auto& m : all_migrations()) {
    std::string cell = fmt::format("  - {}", m.token);
    cell.resize(width + 1, ' ');
    out += fmt::format("{}: {}\n", cell, m.help);
  }
  return out;
}

Result<void> bundle_object_to_csv_metadata(DeclarativeConfig& cfg) {
  for (auto& b : cfg.bundles) {
    OPM_TRY(convert_bundle(b));
  }
  return {};
}

} // namespace opm::bundle
