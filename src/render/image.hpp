#pragma once

#include "catalog/declcfg.hpp"
#include "registry/location.hpp"
#include "registry/puller.hpp"
#include "render/render_cache.hpp"
#include "util/error.hpp"

#include <functional>
#include <string>

namespace opm::render {

// Upstream's imageToDeclcfg: pull the image, read its labels, unpack it into a private
// temporary directory (always removed), then by label: a catalog image's configs
// directory is loaded as a catalog, a bundle image becomes one olm.bundle whose image is
// the location's text as given, and a SQLite index image is refused. Errors read as upstream's:
// `failed to pull image "<ref>": ...`, `render "<ref>": image type could not be determined...`.
// A bundle image is refused (`cannot render bundle image: not allowed`) without
// `allow_bundle_image`, a catalog image (`cannot render declarative config image: not
// allowed`) without `allow_catalog_image` and a SQLite index image (`cannot render sqlite
// image: not allowed`) without `allow_sqlite_image`; each with Errc::not_allowed.
// With a `cache`, a bundle image rendered before is read from it instead of unpacked.
struct ImageRenderOptions {
  bool allow_bundle_image = true;
  bool allow_catalog_image = true;
  bool allow_sqlite_image = true;
  const RenderCache* cache = nullptr;
  // Called before the database of a SQLite index image is read (the deprecation notice).
  std::function<void()> on_sqlite;
};
Result<catalog::DeclarativeConfig> render_image(registry::Puller& puller,
                                                const registry::ImageLocation& at,
                                                const ImageRenderOptions& options = {});

} // namespace opm::render
