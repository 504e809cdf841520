#pragma once

#include "catalog/json.hpp"
#include "util/error.hpp"

#include <initializer_list>
#include <string>
#include <string_view>

// Pieces of Go's encoding/json decoding behaviour that several readers reproduce.
namespace opm::catalog::go_compat {

// The member Go would store into a struct field named `name`: keys match exactly or
// ignoring ASCII case, and the last matching member in `obj` wins. Null when absent.
const Json* member(const Json& obj, std::string_view name);

// A field's JSON text and its location inside a larger JSON text, by member names from
// the root; empty when the path does not exist. The view points into `text`.
std::string_view find_raw(std::string_view text, std::initializer_list<std::string_view> path);

} // namespace opm::catalog::go_compat
