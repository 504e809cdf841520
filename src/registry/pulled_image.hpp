#pragma once

#include "registry/manifest.hpp"

#include <map>
#include <string>
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

} // namespace opm::registry
