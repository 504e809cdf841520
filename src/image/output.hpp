#pragma once

#include "image/catalog_image.hpp"
#include "registry/location.hpp"
#include "registry/push.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>

// Where a built image goes: a registry, an OCI image layout, a `docker save` archive.
namespace opm::image {

// Pushes every blob, then each platform's manifest by digest, then the top manifest under
// the target's tag. Blobs of a base on the same registry are mounted from its repository.
// Returns the top manifest's digest.
Result<std::string> push_image(const BuiltImage& image, registry::Pusher& pusher,
                               const registry::PushTarget& at);

// Writes the image into the OCI image layout `dir` (created when missing; other images in
// it are kept), named `tag` in index.json when `tag` is not empty.
Result<void> write_oci_layout(const BuiltImage& image, const std::filesystem::path& dir,
                              const std::string& tag);

// Writes a `docker save` archive (Docker 25's layout: blobs/sha256/..., manifest.json,
// index.json, oci-layout) of one platform's image, the first one, named `repo_tag` when it
// is not empty; `mtime` dates every entry.
Result<void> write_docker_archive(const BuiltImage& image, const std::filesystem::path& file,
                                  const std::string& repo_tag, std::int64_t mtime);

// Sends the image where `to` says: an OCI layout, a docker archive (REF its REPO:TAG, dated
// `created`) or a registry it is pushed to. Returns the top manifest's digest.
Result<std::string> deliver(const BuiltImage& image, const registry::Options& options,
                            const registry::ImageLocation& to, std::int64_t created);

} // namespace opm::image
