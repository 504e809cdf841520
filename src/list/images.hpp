#pragma once

#include "catalog/declcfg.hpp"

#include <string>

// `opm alpha list images`: every image a catalog references, the input to mirroring.
namespace opm::list {

// Each bundle image and related image, once, sorted byte-wise, one a line. With `as_json`,
// one indented JSON array of {"image", "bundles": [{"package", "name"}]}, the bundles that
// reference the image sorted by package and name. Empty references are left out.
std::string list_images(const catalog::DeclarativeConfig& cfg, bool as_json);

} // namespace opm::list
