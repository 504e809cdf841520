#pragma once

#include "serve/registry.pb.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

// The protobuf wire bytes of an api.Bundle, as SerializeToString writes them (fields in
// number order, empty proto3 scalars left out), without its UTF-8 check of every string:
// the manifests make that check most of the cost of encoding a bundle, and the strings come
// from JSON texts that were decoded (or checked) as UTF-8 already. The bytes are written in
// parts, so that the manifests (csvJson, field 4, and object, field 5) can be kept apart.
namespace opm::serve {

inline constexpr std::uint32_t k_csv_json_field = 4;
inline constexpr std::uint32_t k_object_field = 5;

// Fields 1-3: csvName, packageName, channelName.
void append_bundle_head(const api::Bundle& bundle, std::string& out);
// The tag and length of a manifest of `size` bytes in field `number`; the text follows.
void append_text_header(std::uint32_t number, std::size_t size, std::string& out);
// Fields 6-14: bundlePath up to skips.
void append_bundle_tail(const api::Bundle& bundle, std::string& out);
// Fields 13 and 14: replaces and skips.
void append_bundle_edges(std::string_view replaces, std::span<const std::string> skips,
                         std::string& out);
// Field 15: deprecation.
void append_bundle_deprecation(const api::Bundle& bundle, std::string& out);

} // namespace opm::serve
