#pragma once

#include "image/catalog_image.hpp"
#include "registry/puller.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

// An image made from a prepared root directory, one layer on scratch: how the opm base
// image (scripts/build-image.sh) is built without a container engine.
namespace opm::image {

struct RootfsImage {
  std::filesystem::path rootfs;              // every entry owned by 0:0 in the layer
  std::string platform;                      // "os/arch[/variant]"; empty = this host
  std::int64_t created = 0;                  // every timestamp
  std::map<std::string, std::string> labels; // config Labels
  std::vector<std::string> entrypoint;
  std::vector<std::string> env; // "NAME=value"
  std::string user;
  std::string working_dir;
  // The history entry of the layer.
  std::string created_by = "COPY rootfs /";
  std::string comment = "opm base image";
};

// Builds the image; its layer goes under `work`, which must outlive the result.
Result<BuiltImage> build_rootfs_image(const RootfsImage& build, registry::Puller& images,
                                      const std::filesystem::path& work);

} // namespace opm::image
