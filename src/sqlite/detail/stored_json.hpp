#pragma once

#include "util/error.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

// Reading the JSON the index database stores as text: the `bundle` column's concatenated
// manifests, and single members of them, without parsing whole objects.
namespace opm::sqlite::detail {

// The JSON values of a stream, each as its exact bytes (upstream's json.RawMessage).
Result<std::vector<std::string>> split_objects(std::string_view text);

// The string at `path` in `object`; empty when absent or not a string.
std::string string_member(std::string_view object, std::initializer_list<std::string_view> path);

} // namespace opm::sqlite::detail
