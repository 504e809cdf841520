#pragma once

#include "bundle/properties.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// The metadata/ directory: every file is tried as an annotations document, a dependencies
// document and a properties document; the first of each kind (in name order) counts and
// file names do not matter.
namespace opm::bundle {

struct Annotations {
  std::string package;         // operators.operatorframework.io.bundle.package.v1
  std::string channels;        // operators.operatorframework.io.bundle.channels.v1
  std::string default_channel; // operators.operatorframework.io.bundle.channel.default.v1
};

struct Metadata {
  Annotations annotations;
  std::vector<RawProperty> dependencies;
  std::vector<RawProperty> properties;
};

// Decoders for one file's content; nullopt when the content is not that kind of document
// (or is one with nothing in it).
std::optional<Annotations> decode_annotations(std::string_view content);
std::optional<std::vector<RawProperty>> decode_property_list(std::string_view content,
                                                             std::string_view list_name);

// Fails with "Could not find annotations file" when no file is an annotations document.
Result<Metadata> read_metadata(const std::filesystem::path& dir);

// The channels annotation split on "," (no trimming); none when empty.
std::vector<std::string> split_channels(std::string_view channels);

} // namespace opm::bundle
