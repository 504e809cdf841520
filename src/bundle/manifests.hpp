#pragma once

#include "bundle/apis.hpp"
#include "bundle/csv.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

// The manifests/ directory of a bundle.
namespace opm::bundle {

struct Manifests {
  std::vector<std::string> object_json; // Go JSON text of each kept object, file-name order
  std::size_t csv_index = 0;
  Csv csv;
  std::vector<Api> crd_apis; // what the CRDs among the objects serve
};

// Every non-hidden file directly in `dir` whose first document is an object with a kind;
// others are skipped. Only the first ClusterServiceVersion is kept. Errors:
// "no bundle objects found", "no csv in bundle", CSV conversion and CRD decoding errors.
Result<Manifests> read_manifests(const std::filesystem::path& dir);

// Numbers as Kubernetes' unstructured decoding leaves them: integers beyond int64 become
// floats, and a YAML -0.0 becomes 0.
void normalize_object_numbers(Json& value, bool from_yaml);

} // namespace opm::bundle
