#pragma once

#include "registry/manifest.hpp"
#include "registry/puller.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

// Images read from an OCI image layout directory, as containers/image spells them:
// "oci:DIR[:TAG]". Nothing is copied; every blob is verified against its digest.
namespace opm::registry {

// "oci:DIR[:TAG]" -> (DIR, TAG): the tag is after the last ':' unless a '/' follows it.
std::pair<std::filesystem::path, std::string> split_layout_ref(std::string_view ref);

// The image `top` names in the layout at `root` (an index picks `platform`, see
// platform_child), with its labels; manifest, config and every layer are verified.
Result<PulledImage> read_layout_image(std::string_view ref, const std::filesystem::path& root,
                                      const Descriptor& top, const std::string& platform);

// "oci:DIR[:TAG]": the manifest named TAG, or the only one when there is no TAG.
Result<PulledImage> pull_from_layout(std::string_view ref, const std::string& platform);

} // namespace opm::registry
