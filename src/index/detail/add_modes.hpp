#pragma once

#include "index/detail/add_input.hpp"
#include "sqlite/connection.hpp"

#include <vector>

// The two ways `index add` stores bundles and rebuilds the channels of their packages.
namespace opm::index::detail {

// Replaces mode: store every bundle, then rebuild each package's channels from the heads its
// bundles' versions give (upstream's DirectoryPopulator).
Result<void> load_packages(sqlite::Connection& db, const std::vector<Input>& inputs,
                           bool enable_alpha);

// Semver modes: each bundle is placed in its channels by version order (upstream's
// BundleGraphLoader); semver-skippatch also replaces the lower patch releases.
Result<void> load_semver(sqlite::Connection& db, const std::vector<Input>& inputs, bool skip_patch,
                         bool enable_alpha);

} // namespace opm::index::detail
