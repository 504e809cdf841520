#pragma once

#include "extract/kube_api.hpp"
#include "util/error.hpp"
#include "util/log.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

// `opm alpha bundle extract`: a bundle directory's manifests/ and metadata/ written into an
// existing ConfigMap, as upstream's configmap.ConfigMapWriter.Populate writes them for OLM's
// bundle unpack jobs.
namespace opm::extract {

struct ExtractRequest {
  // Joined to "manifests/" and "metadata/" as text, as upstream does: "/bundle/" reads
  // /bundle/manifests/, "/bundle" reads /bundlemanifests/.
  std::string bundle_dir = "/";
  std::string ns;
  std::string configmap;
  std::uint64_t data_limit = 1 << 20; // bytes of data, after gzip+base64 when `gzip`
  bool gzip = false;
  std::string source_image; // the olm.sourceImage annotation, when not empty
};

using ExtractLog = std::function<void(std::string_view level, const std::string& message,
                                      const std::vector<util::LogField>& fields)>;

// Reads the ConfigMap, replaces its data (each file under its name, characters other than
// [-A-Za-z0-9_.] turned into '-'; gzip'd and base64'd into binaryData with `gzip`) and its
// annotations (those of metadata/annotations.yaml, which is not stored as data), and writes
// it back. Every file is read, and the limit checked, before anything is sent.
Result<void> populate_configmap(const ExtractRequest& request, KubeApi& api, const ExtractLog& log);

// A file name as a ConfigMap key.
std::string configmap_key(std::string_view file_name);

} // namespace opm::extract
