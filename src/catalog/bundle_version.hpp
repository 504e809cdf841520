#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"
#include "util/semver.hpp"

// A bundle's version as upstream's semver-ordered tools read it: from its one olm.package
// property.
namespace opm::catalog {

// Fails as upstream does: "parse properties for bundle \"b\": ...", "bundle \"b\" has multiple
// \"olm.package\" properties, expected exactly 1", "bundle \"b\" has invalid version \"v\": ...".
Result<util::semver::Version> bundle_version(const Bundle& b);

} // namespace opm::catalog
