#pragma once

#include "util/error.hpp"

#include <string>

// Removing packages and stranded bundles from an index database, as upstream v1.26.5's
// DeprecationAwareLoader does (pkg/sqlite/load.go).
namespace opm::sqlite {

class Connection;

// Delete a package: the deprecations of its bundles, then (in one transaction) its bundles,
// package row and channels, then the stranded bundles. A package without channel entries:
// "no package found for packagename <p>".
Result<void> remove_package(Connection& db, const std::string& package);

// Delete bundles without channel entries (deprecated ones excepted), bundles whose olm.package
// names no stored package, and deprecations of bundles that are gone. One transaction.
Result<void> remove_stranded_bundles(Connection& db);

// Delete a bundle's operatorbundle, api_provider, api_requirer and channel_entry rows.
Result<void> remove_bundle_rows(Connection& db, const std::string& name);

// Delete bundles whose olm.package names no stored package, and deprecations of bundles that
// are gone (inside the caller's transaction).
Result<void> remove_bundles_of_vanished_packages(Connection& db);

} // namespace opm::sqlite
