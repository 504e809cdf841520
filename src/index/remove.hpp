#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

// `opm registry rm` and `opm registry prune-stranded` (upstream v1.26.5's RegistryUpdater).
// Both work on a copy of the database that replaces the file only when they succeed.
namespace opm::index {

struct RemoveRequest {
  std::filesystem::path database = {};
  std::vector<std::string> packages = {}; // each value is split again on ","
  // --permissive: a package that cannot be removed is handed to `tolerated` and the others go on.
  bool permissive = false;
  std::function<void(const Error&)> tolerated = {};
  // Called once the stranded bundles are gone, where upstream logs "removing stranded bundles ".
  std::function<void()> stranded_removed = {};
  // Called before each package is removed, where upstream logs "deleting packages".
  std::function<void(const std::string& package)> deleting = {};
  // prune: called for each package named to be kept that the index does not have.
  std::function<void(const std::string& package)> not_stored = {};
};

// Remove each package (duplicates and empty names dropped), then the stranded bundles, then
// VACUUM. A package that cannot be removed is Errc::package_removal, "error deleting packages
// from database: error removing operator package <p>: no package found for packagename <p>";
// the stranded bundles' failure reads "error removing stranded packages from database: ...".
Result<void> remove_packages(const RemoveRequest& request);

// `opm registry prune`: remove every stored package not named in `request.packages` (names
// kept as given), with rm's errors and permissive handling, then VACUUM.
Result<void> prune_packages(const RemoveRequest& request);

// Remove the stranded bundles (then `stranded_removed` is called), then VACUUM.
Result<void> prune_stranded(const std::filesystem::path& database,
                            const std::function<void()>& stranded_removed = {});

} // namespace opm::index
