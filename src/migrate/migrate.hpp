#pragma once

#include "catalog/declcfg.hpp"
#include "catalog/write.hpp"
#include "util/error.hpp"

#include <filesystem>

// `opm migrate` (upstream v1.26.5): a rendered SQLite catalog written as one file-based
// catalog file per package.
namespace opm::migrate {

// `dir` must be missing or empty: `output dir "<dir>" must be empty`.
Result<void> check_output_dir(const std::filesystem::path& dir);

// As latest upstream's WriteFS: for each package (sorted by name), `<dir>/<package>/catalog.json`
// (or `.yaml`) with everything of that package in the writer's order (olm.package, channels,
// bundles, other schemas, olm.deprecations), whether or not it has an olm.package; objects of
// other schemas without a package go to `<dir>/catalog.json`. Directories are made 0777 and
// files 0666, before the umask. Fails before writing anything when a package name is not one
// safe path element or an object names no package (upstream would drop it); the directory
// appears whole or not at all (util::build_dir_atomic).
Result<void> write_packages(const catalog::DeclarativeConfig& cfg, catalog::Format format,
                            const std::filesystem::path& dir);

} // namespace opm::migrate
