#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The files `opm alpha bundle generate` writes: metadata/annotations.yaml and
// bundle.Dockerfile, as upstream's pkg/lib/bundle/generate.go writes them.
namespace opm::bundle {

inline constexpr std::string_view k_manifests_label =
    "operators.operatorframework.io.bundle.manifests.v1";
inline constexpr std::string_view k_metadata_label =
    "operators.operatorframework.io.bundle.metadata.v1";
inline constexpr std::string_view k_mediatype_label =
    "operators.operatorframework.io.bundle.mediatype.v1";
inline constexpr std::string_view k_package_label =
    "operators.operatorframework.io.bundle.package.v1";
inline constexpr std::string_view k_channels_label =
    "operators.operatorframework.io.bundle.channels.v1";
inline constexpr std::string_view k_default_channel_label =
    "operators.operatorframework.io.bundle.channel.default.v1";

inline constexpr std::string_view k_registry_v1_type = "registry+v1";
inline constexpr std::string_view k_helm_type = "helm";
inline constexpr std::string_view k_plain_type = "plain";

// What a bundle image says about itself, in its annotations and image labels.
struct BundleLabels {
  std::string media_type;
  std::string package;
  std::string channels; // comma-separated, as given
  std::string default_channel;
};

// The media type of the manifests in `dir` (files directly in it): helm when it holds a
// Chart.yaml naming a chart, registry+v1 when any file's first document is a
// ClusterServiceVersion, plain otherwise. Errors: "The directory <dir> contains no yaml
// files", "Unable to read file <path> in bundle"; they name `dir` as `shown` when it is given
// (an unpacked image's temporary directory means nothing to the user).
Result<std::string> detect_media_type(const std::filesystem::path& dir,
                                      std::string_view shown = {});

// The annotations as label -> value pairs in the order the Dockerfile lists them; the
// default channel only when set.
std::vector<std::pair<std::string, std::string>> label_pairs(const BundleLabels& labels);

// metadata/annotations.yaml.
std::string annotations_yaml(const BundleLabels& labels);

// bundle.Dockerfile; the COPY sources are relative to the directory it is written to.
std::string bundle_dockerfile(const BundleLabels& labels, std::string_view base_image,
                              std::string_view manifests_source, std::string_view metadata_source);

// An existing annotations.yaml must hold every annotation generated, with the same value.
// Errors: "Missing field: <label>", `Expect field "<label>" to have value "<v>" instead of
// "<w>"`, several as "[a, b]"; a file that does not parse fails with the parser's message.
Result<void> check_existing_annotations(std::string_view existing, const BundleLabels& expected);

} // namespace opm::bundle
