#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

// A bundle laid out inside a package manifest directory (the "nested bundle format":
// <package>/<package>.package.yaml beside one directory per bundle). Upstream's
// `alpha bundle generate` reads the package name, the channels the bundle is in and the
// default channel from there when they are not given (pkg/lib/bundle/interpreter.go).
namespace opm::bundle {

struct PackagePlacement {
  std::string package;
  std::vector<std::string> channels; // sorted; those whose replaces/skips chain reaches it
  std::string default_channel;
};

// `bundle_dir` holds the bundle's CSV; its parent the package manifest and its siblings.
// Errors keep upstream's texts, e.g. "error loading CSV from bundle directory, no
// ClusterServiceVersion object found in <dir>".
Result<PackagePlacement> place_in_package(const std::filesystem::path& bundle_dir);

} // namespace opm::bundle
