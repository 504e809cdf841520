#pragma once

#include "registry/manifest.hpp"
#include "registry/options.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace opm::registry {

using Labels = std::map<std::string, std::string>;

// What a pull found out about one image.
struct PulledImage {
  std::string reference;    // as the caller wrote it
  std::string source;       // where it came from (a mirror, a layout directory, ...)
  std::string digest;       // the top-level manifest or index the reference names
  std::string media_type;   // its media type
  std::string image_digest; // the platform manifest chosen (== digest without an index)
  std::string config_digest;
  Labels labels; // config.Labels of the chosen platform
  std::vector<Descriptor> layers;
};

// The narrow interface jobs see (upstream's pkg/image/registry.go). References are
// registry references in canonical form, `oci:DIR[:TAG]` or `docker-archive:FILE[:REF]`.
class Puller {
public:
  virtual ~Puller() = default;
  // Resolves the reference and fetches manifest, config and every layer (verified).
  virtual Result<PulledImage> pull(std::string_view ref) = 0;
  // The digest of the manifest or index the reference names (an index's own digest, not
  // its platform's); fetches no config and no layers.
  virtual Result<std::string> digest(std::string_view ref);
  // config.Labels of the image (fetches manifest and config only).
  virtual Result<Labels> labels(std::string_view ref) = 0;
  // Applies the layers into `dir`, which must not exist or be an empty directory.
  // `prefixes` keeps only those subtrees (e.g. "manifests", "metadata"); empty = all.
  virtual Result<void> unpack(std::string_view ref, const std::filesystem::path& dir,
                              const std::vector<std::string>& prefixes = {}) = 0;
  // Pulls many references at once (bounded by Options::jobs); results keep the input order.
  virtual std::vector<Result<PulledImage>> pull_all(std::span<const std::string> refs) = 0;
  // The file that holds `digest` (a manifest, index, config or layer) of the image `ref`
  // names, once pulled; valid until destroy().
  virtual Result<std::filesystem::path> blob_file(std::string_view ref, std::string_view digest);
  // Removes temporary state (a private cache); the puller stays usable.
  virtual void destroy() = 0;
};

// The real puller over registries, OCI layouts and docker archives.
std::unique_ptr<Puller> make_puller(Options options);

// Whether `ref` names an image a Puller can be asked for: a layout, an archive, or a
// registry reference in canonical form (else the reference's own error).
Result<void> check_image_location(std::string_view ref);

} // namespace opm::registry
