#pragma once

#include "registry/manifest.hpp"
#include "registry/puller.hpp"
#include "registry/reference.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// `opm alpha catalog build`: a catalog image assembled without a container engine, with the
// content a `docker build` of `opm generate dockerfile`'s Dockerfile gives: the base image's
// layers, then /configs, then the serve cache at /tmp/cache.
namespace opm::image {

// Writes into `cache_dir` what `opm serve CONFIGS --cache-dir=CACHE_DIR --cache-only` writes.
using CacheWriter = std::function<Result<void>(const std::filesystem::path& configs,
                                               const std::filesystem::path& cache_dir)>;

inline constexpr std::string_view k_configs_label =
    "operators.operatorframework.io.index.configs.v1";

struct CatalogBuild {
  std::filesystem::path catalog_dir;
  std::string base_image;                    // a canonical reference, oci:DIR[:TAG] or "scratch"
  std::map<std::string, std::string> labels; // extra labels
  std::string platform;     // "os/arch[/variant]"; empty = every platform of the base
  std::int64_t created = 0; // every timestamp: SOURCE_DATE_EPOCH, else the epoch itself
  // Where the /configs and cache layers of earlier builds are kept, keyed by the catalog's
  // files, modes and bytes, the time and this very opm build; empty = always build them.
  // Layers unused for a week are removed when others are kept.
  std::filesystem::path layer_cache;
};

// One blob of a built image: bytes in `file`, or in `bytes` when `file` is empty.
struct ImageBlob {
  registry::Descriptor descriptor;
  std::filesystem::path file;
  std::string bytes;
};

struct ImageManifest {
  registry::Descriptor descriptor; // with the platform when it is an index entry
  std::string body;
  std::vector<ImageBlob> blobs; // config first, then layers
};

struct BuiltImage {
  std::vector<ImageManifest> manifests; // one per platform
  std::optional<ImageManifest> index;   // when a multi-platform base gave several
  // The base's reference when it is in a registry (none for scratch, a layout or an archive).
  std::optional<registry::Reference> base_reference;

  [[nodiscard]] const ImageManifest& top() const { return index ? *index : manifests.front(); }
};

// Builds the image; new layers go under `work`, which must outlive the result. Base layers
// stay where `images` keeps them.
Result<BuiltImage> build_catalog(const CatalogBuild& build, registry::Puller& images,
                                 const CacheWriter& write_cache, const std::filesystem::path& work);

} // namespace opm::image
