#pragma once

#include "sqlite/query.hpp"

#include <optional>
#include <string_view>

// Pieces the bundle queries share (query.cpp, query_bundles.cpp).
namespace opm::sqlite::detail {

// The stored manifests of the `bundle` column (concatenated JSON objects): every object, and
// the first ClusterServiceVersion as csvJson; "no csv in bundle" without one.
Result<void> read_manifests(std::string_view bundle, BundleAnswer& out);

// A GVK from an olm.gvk property or dependency value; nullopt when it is not a GVK object.
std::optional<Gvk> parse_gvk(std::string_view value);

} // namespace opm::sqlite::detail
