#pragma once

#include "index/add.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

// `opm index export`: the manifests of a package's bundles and a package.yaml, the
// appregistry layout upstream v1.26.5 writes (pkg/lib/indexer ExportFromIndex).
namespace opm::index {

struct ExportRequest {
  std::filesystem::path database;
  std::vector<std::string> packages; // empty: every package
  std::filesystem::path download_folder = "downloaded";
  std::function<void(const std::string&)> info = {}; // logged with the command's fields
  std::function<void(const std::string&)> note = {}; // logged without them
};

// For each bundle of the packages (those with channel entries), the contents of its image's
// manifests/ in <folder>/<package>/<version>/; then <folder>/<package>/package.yaml with the
// channels' heads and the default channel. Bundle failures are collected as
// "exporting bundle image:<image> failed with <error>". Nothing is written when a package name
// or a bundle version is not one safe path element (util::check_path_element).
Result<void> export_packages(const ExportRequest& request, const Unpack& unpack);

} // namespace opm::index
