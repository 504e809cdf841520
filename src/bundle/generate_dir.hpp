#pragma once

#include "bundle/generate.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <string>

// `opm alpha bundle generate` as a whole (upstream's bundle.GenerateFunc): the media type
// of a manifests directory, the package and channels (given, or read from the package
// directory around it), metadata/annotations.yaml beside the manifests (or in an output
// directory the manifests are copied to) and bundle.Dockerfile in the working directory.
namespace opm::bundle {

struct GenerateRequest {
  std::string directory;  // the manifests, as given
  std::string output_dir; // "": write metadata/ beside the manifests
  std::string package;
  std::string channels;
  std::string default_channel;
  bool overwrite = true; // replace an existing annotations.yaml, bundle.Dockerfile, copies
  std::string base_image = "scratch";
  std::filesystem::path working_dir; // where bundle.Dockerfile goes
};

struct GeneratedBundle {
  BundleLabels labels;
  std::filesystem::path manifests_dir; // what the image's /manifests/ holds
  std::filesystem::path metadata_dir;  // what the image's /metadata/ holds
};

using InfoLog = std::function<void(const std::string& message)>;

// Unlike upstream, an existing annotations.yaml that disagrees is found before anything is
// copied or written, and each file is written whole (a temporary file, then a rename).
Result<GeneratedBundle> generate(const GenerateRequest& request, const InfoLog& info);

} // namespace opm::bundle
