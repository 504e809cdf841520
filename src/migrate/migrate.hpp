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

// For each package (sorted by name), `<dir>/<package>/catalog.json` (or `.yaml`) with its
// olm.package, channels and bundles in the writer's order. Directories are made 0777 and files
// 0666, before the umask.
Result<void> write_packages(const catalog::DeclarativeConfig& cfg, catalog::Format format,
                            const std::filesystem::path& dir);

} // namespace opm::migrate
