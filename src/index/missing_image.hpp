#pragma once

#include "util/error.hpp"

#include <string>

// Upstream v1.26.5's texts for an image its registry client (containerd's resolver) finds
// nothing under, in the SQLite commands. Other pull errors pass through unchanged.
namespace opm::index {

// A bundle of `index add --bundles` or `registry add -b`: upstream reports the failed pull
// and the unpack it still tries, as one aggregate:
// `[error resolving name for image ref REF: REF: not found, image "REF": not found]`.
Error bundle_pull_error(const std::string& ref, Error pulled);

// The `--from-index` image: `error resolving name for image ref REF: REF: not found`.
Error index_pull_error(const std::string& ref, Error pulled);

} // namespace opm::index
