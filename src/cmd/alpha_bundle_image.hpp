#pragma once

#include "bundle/generate_dir.hpp"
#include "cmd/context.hpp"
#include "util/error.hpp"

#include <string>

namespace opm::cmd::alpha_bundle {

// Builds the generated bundle as `tag`: docker or podman build, buildah bud, each on
// bundle.Dockerfile in the working directory with its output on ours; or, with `none`, a
// one-layer image of manifests/ and metadata/ labelled with the annotations, sent to a
// registry, oci:DIR[:TAG] or docker-archive:FILE, its digest printed.
Result<void> build_bundle_image(Context& ctx, const bundle::GeneratedBundle& generated,
                                const std::string& tag, const std::string& builder,
                                const std::string& base_image);

} // namespace opm::cmd::alpha_bundle
