#pragma once

#include "util/error.hpp"

#include <map>
#include <string>
#include <vector>

// The Dockerfile `opm generate dockerfile` writes for a file-based catalog directory
// (latest upstream's alpha/action/generate_dockerfile.go).
namespace opm::dockerfile {

struct CatalogImage {
  std::string base_image;    // "scratch" gives the binary-less variant
  std::string builder_image; // runs `opm serve --cache-only` to pre-populate the cache
  std::string index_dir;     // the catalog directory's name, the ADD source
  std::map<std::string, std::string> labels; // extra labels, written sorted by key
};

// "base image is unset" or "index directory is unset", as upstream checks them.
Result<void> validate(const CatalogImage& image);

// The Dockerfile text; image names and labels are inserted verbatim.
std::string catalog_dockerfile(const CatalogImage& image);

// Labels from `key=value` strings (split at the first '='; a later key wins).
// Fails with `invalid label "novalue"` for an entry without '='.
Result<std::map<std::string, std::string>> parse_labels(const std::vector<std::string>& entries);

} // namespace opm::dockerfile
