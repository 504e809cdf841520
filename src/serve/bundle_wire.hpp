#pragma once

#include "serve/registry.pb.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// The protobuf wire bytes of an api.Bundle, as SerializeToString writes them (fields in
// number order, empty proto3 scalars left out), without its UTF-8 check of every string:
// the manifests make that check most of the cost of encoding a bundle, and the strings come
// from JSON texts that were decoded (or checked) as UTF-8 already. The bytes are written in
// parts, so that the manifests (csvJson, field 4, and object, field 5) can be kept apart.
namespace opm::serve {

inline constexpr std::uint32_t k_csv_json_field = 4;
inline constexpr std::uint32_t k_object_field = 5;

struct GvkParts {
  std::string_view group;
  std::string_view version;
  std::string_view kind;
  std::string_view plural;
};

struct PairParts {
  std::string_view type;
  std::string_view value;
};

// An api.Bundle's fields but its manifests, replaces and skips (those of each channel entry,
// written when it is listed), as views: what the index keeps a bundle from, whether it was
// decoded from a cache or made from a catalog's model.
struct BundleParts {
  std::string_view csv_name;
  std::string_view package_name;
  std::string_view channel_name;
  std::string_view bundle_path;
  std::vector<GvkParts> provided_apis;
  std::vector<GvkParts> required_apis;
  std::string_view version;
  std::string_view skip_range;
  std::vector<PairParts> dependencies;
  std::vector<PairParts> properties;
  std::optional<std::string_view> deprecation; // the message, when deprecated
};

// The fields of `bundle` but its manifests, replaces and skips; views into it.
BundleParts parts_of(const api::Bundle& bundle);

// Fields 1-3: csvName, packageName, channelName.
void append_bundle_head(const BundleParts& bundle, std::string& out);
// The tag and length of a manifest of `size` bytes in field `number`; the text follows.
void append_text_header(std::uint32_t number, std::size_t size, std::string& out);
// Fields 6-12: bundlePath up to properties.
void append_bundle_tail(const BundleParts& bundle, std::string& out);
// Fields 13 and 14: replaces and skips.
void append_bundle_edges(std::string_view replaces, std::span<const std::string> skips,
                         std::string& out);
// Field 15: deprecation.
void append_bundle_deprecation(const BundleParts& bundle, std::string& out);

} // namespace opm::serve
