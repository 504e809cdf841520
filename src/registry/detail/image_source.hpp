#pragma once

#include "registry/location.hpp"
#include "registry/pulled_image.hpp"
#include "util/error.hpp"

#include <filesystem>

// One kind of place images are read from (a registry, an OCI layout, a docker archive), as
// the puller routes to it.
namespace opm::registry {

// What a pull fetches besides the manifest. Unpacking alone needs no config: leaving it
// out saves a request per image.
struct PullParts {
  bool config = true;
  bool layers = false;
};

class ImageSource {
public:
  virtual ~ImageSource() = default;
  // The image `at` names. `earlier` is what a pull of the same location found before,
  // when only part of it was fetched: the rest comes from that very manifest.
  virtual Result<PulledImage> pull(const ImageLocation& at, PullParts parts,
                                   const PulledImage* earlier) = 0;
  // Where the layers of an image pulled before are, by digest under blobs/.
  virtual Result<std::filesystem::path> layer_root(const ImageLocation& at) = 0;
  // A local source reads the whole image (config included) every time and cannot fetch a
  // damaged layer again.
  virtual bool local() const = 0;
  // A batch of pulls is done: what they learnt may be recorded.
  virtual void finish_batch() {}
  // Drops temporary state; the source stays usable.
  virtual void reset() = 0;
};

} // namespace opm::registry
