#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

// Upstream's FBC migrations (alpha/action/migrations), run by `render --migrate-level`.
namespace opm::bundle {

struct Migration {
  std::string_view token;
  std::string_view help;
  Result<void> (*run)(catalog::DeclarativeConfig& cfg);
};

// Every migration, in the order they run: "none", "bundle-object-to-csv-metadata".
const std::vector<Migration>& all_migrations();

// The migrations up to and including `level`; "all" selects every one.
// Error: `unknown migration level "<level>"`.
Result<std::vector<Migration>> migrations_up_to(std::string_view level);

Result<void> run_migrations(const std::vector<Migration>& migrations,
                            catalog::DeclarativeConfig& cfg);

// The flag help suffix listing the migrations (text/tabwriter layout).
std::string migrations_help();

// Per bundle with an image and a CSV: drop its olm.bundle.object properties and append one
// olm.csv.metadata built from the CSV; a bundle that already has olm.csv.metadata is left
// as it is. CSV decoding errors abort.
Result<void> bundle_object_to_csv_metadata(catalog::DeclarativeConfig& cfg);

} // namespace opm::bundle
