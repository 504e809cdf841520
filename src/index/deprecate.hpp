#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

// `opm registry deprecatetruncate` and `opm index deprecatetruncate` (upstream v1.26.5's
// RegistryUpdater.DeprecateFromRegistry).
namespace opm::index {

struct DeprecateRequest {
  std::filesystem::path database = {};
  std::vector<std::string> bundles = {}; // bundle images, in order
  bool permissive = false;
  // Deprecating every channel head of a package (its default channel's included) removes it.
  bool allow_package_removal = false;
  std::function<void(const Error&)> tolerated = {};     // permissive: a failure passed over
  std::function<void(const Error&)> not_tolerated = {}; // logged before failing
  // Progress, with the images still to deprecate at that point (the log's bundles field).
  std::function<void(const std::string& message, const std::vector<std::string>& bundles)> info =
      {};
};

// Checks that each image is stored ("target bundlepaths for deprecation missing from
// registry: [<images>]"), removes whole packages when allowed, then deprecates each bundle
// ("error deprecating bundle <image>: ...") and VACUUMs. Works on a copy of the database
// that replaces it only when everything succeeded (or with permissive).
Result<void> deprecate_truncate(const DeprecateRequest& request);

} // namespace opm::index
