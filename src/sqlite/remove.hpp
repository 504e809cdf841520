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

} // namespace opm::sqlite
