#pragma once

#include "image/catalog_image.hpp"
#include "registry/puller.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

// A SQLite index image assembled without a container engine, with the content a `docker
// build` of the Dockerfile `opm index add` writes gives: the binary image's layers, then
// /database/index.db, the database label, port 50051 and `opm registry serve` of it.
namespace opm::image {

struct IndexImageBuild {
  std::filesystem::path database; // the index database to put at /database/index.db
  std::string base_image;         // the --binary-image: a canonical reference, oci:DIR[:TAG]
  std::string platform;           // "os/arch[/variant]"; empty = every platform of the base
  std::int64_t created = 0;       // every timestamp: SOURCE_DATE_EPOCH, else the epoch itself
};

// Builds the image; its database layer goes under `work`, which must outlive the result.
Result<BuiltImage> build_index_image(const IndexImageBuild& build, registry::Puller& images,
                                     const std::filesystem::path& work);

} // namespace opm::image
