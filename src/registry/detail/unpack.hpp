#pragma once

#include "registry/options.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace opm::registry {

// One layer blob on disk, as the manifest describes it.
struct LayerFile {
  std::filesystem::path path;
  std::string digest;
  std::string media_type;
};

// Applies `layers` in order into a fresh directory `dest`: entries are
// re-rooted, never written outside, links checked, devices skipped, whiteouts applied,
// limits enforced. Works in `<dest>.partial-<random>` and renames it to `dest` at the end;
// `dest` may exist only as an empty directory. Nothing is left behind on failure.
// `prefixes` (e.g. {"manifests", "metadata"}) keeps only those subtrees; empty = all.
Result<void> unpack_layers(const std::vector<LayerFile>& layers, const std::filesystem::path& dest,
                           const UnpackLimits& limits, const Log& log,
                           const std::vector<std::string>& prefixes = {});

} // namespace opm::registry
