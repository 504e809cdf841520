#pragma once

#include "serve/store.hpp"
#include "util/error.hpp"

#include <string>

// The JSON texts of upstream's `json` serve cache, as Go's encoding/json writes them.
namespace opm::serve {

// cache/packages.json: the package index (map keys sorted, HTML-escaped strings).
std::string packages_json(const PackageIndex& index);
// cache/<pkg>_<ch>_<bundle>.json: the entry's api.Bundle with replaces and skips, fields in
// proto order, empty ones omitted.
std::string bundle_json(const IndexEntry& entry);

// Reads the package index; the bundles (serve/bundle_reader.hpp) are attached to its entries
// afterwards.
Result<PackageIndex> parse_packages_json(std::string_view text);

} // namespace opm::serve
