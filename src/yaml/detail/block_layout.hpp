#pragma once

#include "json/value.hpp"
#include "yaml/document.hpp"

#include <cstddef>
#include <expected>
#include <optional>
#include <string_view>

// Documents laid out as catalogs are written (block mappings and sequences indented with
// spaces, one-line plain and quoted scalars, literal blocks, "[]" and "{}"), read straight into
// their value without libyaml. Only yaml/ includes this.
namespace opm::yaml::detail {

// The value of the one document `text`, the same as libyaml's events give it (with or without
// a "\n" appended: a literal block ending the text unterminated, the only case where that
// counts, is declined); nullopt for anything outside that layout (other
// styles, anchors, tags, comments after values, duplicate keys, keys JSON cannot take, errors),
// which the caller then reads with libyaml.
std::optional<Json> read_block_layout(std::string_view text);

// document_to_json() through libyaml's events alone: what read_block_layout() must agree with.
std::expected<Json, DocumentError> events_to_json(std::string_view text, bool append_newline,
                                                  std::size_t longest_line, bool* may_be_deep,
                                                  Rest rest);

} // namespace opm::yaml::detail
