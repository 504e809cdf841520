#pragma once

#include "catalog/declcfg.hpp"
#include "registry/puller.hpp"
#include "util/error.hpp"

#include <string>

namespace opm::render {

// Upstream's imageToDeclcfg: pull the image, read its labels, unpack it into a private
// temporary directory (always removed), then by label: a catalog image's configs
// directory is loaded as a catalog, a bundle image becomes one olm.bundle whose image is
// `ref` as given, and a SQLite index image is refused. Errors read as upstream's:
// `failed to pull image "<ref>": ...`, `render "<ref>": image type could not be determined...`.
Result<catalog::DeclarativeConfig> render_image(registry::Puller& puller, const std::string& ref);

} // namespace opm::render
