#pragma once

#include "registry/location.hpp"
#include "registry/options.hpp"
#include "registry/pulled_image.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace opm::registry {

// The narrow interface jobs see (upstream's pkg/image/registry.go). Images are named by
// their location; the overloads taking text parse it first (parse_image_location), for
// callers that ask about an image once.
class Puller {
public:
  virtual ~Puller() = default;
  // Resolves the location and fetches manifest, config and every layer (verified).
  virtual Result<PulledImage> pull(const ImageLocation& at) = 0;
  // The digest of the manifest or index the location names (an index's own digest, not
  // its platform's); fetches no config and no layers.
  virtual Result<std::string> digest(const ImageLocation& at);
  // config.Labels of the image (fetches manifest and config only).
  virtual Result<Labels> labels(const ImageLocation& at) = 0;
  // Applies the layers into `dir`, which must not exist or be an empty directory.
  // `prefixes` keeps only those subtrees (e.g. "manifests", "metadata"); empty = all.
  virtual Result<void> unpack(const ImageLocation& at, const std::filesystem::path& dir,
                              const std::vector<std::string>& prefixes = {}) = 0;
  // Pulls many images at once (bounded by Options::jobs); results keep the input order.
  virtual std::vector<Result<PulledImage>> pull_all(std::span<const ImageLocation> at) = 0;
  // The file that holds `digest` (a manifest, index, config or layer) of the image `at`
  // names, once pulled; valid until destroy().
  virtual Result<std::filesystem::path> blob_file(const ImageLocation& at, std::string_view digest);
  // Removes temporary state (a private cache); the puller stays usable.
  virtual void destroy() = 0;

  Result<PulledImage> pull(std::string_view text);
  Result<std::string> digest(std::string_view text);
  Result<Labels> labels(std::string_view text);
  Result<void> unpack(std::string_view text, const std::filesystem::path& dir,
                      const std::vector<std::string>& prefixes = {});
  // A location that does not parse is that image's failure; the others are pulled.
  std::vector<Result<PulledImage>> pull_all(std::span<const std::string> texts);
};

// The real puller over registries, OCI layouts and docker archives.
std::unique_ptr<Puller> make_puller(Options options);

} // namespace opm::registry
