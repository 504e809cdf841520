#pragma once

#include "json/sorted_members.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace opm::json {

// A decoded JSON value. Objects keep their members sorted by byte order, exactly as
// Go's encoder writes a map, which is how latest upstream normalises every blob.
// Numbers: number_integer / number_unsigned for integers as YAML or JSON spelled them,
// number_float otherwise. Blobs of a loaded catalog hold floats only (Go decodes them
// into float64), see normalize_numbers().
using Json = nlohmann::basic_json<SortedMembers>;

// Convert every number in `v` to a double, as Go does when it decodes into interface{}.
void normalize_numbers(Json& v);

// How many integers the decoders (JSON text, YAML scalars) have made on this thread: a
// document decoded while the count stayed put has none for normalize_numbers() to convert.
namespace detail {
inline thread_local std::uint64_t t_decoded_integers = 0;
} // namespace detail
inline void count_decoded_integer() { ++detail::t_decoded_integers; }
inline std::uint64_t decoded_integers() { return detail::t_decoded_integers; }

// The member `key` of an object, or null (for a missing member or a value that is not an
// object).
const Json& member_or_null(const Json& v, std::string_view key);

// The member `key` when it is a string, else "".
std::string string_member_or_empty(const Json& v, std::string_view key);

} // namespace opm::json

// A Json value is destroyed by destroying its children in turn, depth first (json/value.cpp):
// nlohmann's own destroy first moves every node of a tree onto a stack, which took a tenth of
// `validate`. Declared here, before any use, so that every file calls the one definition.
// Null, boolean and number values own nothing: answered inline, so that destroying a value
// just moved from (null) costs no call, and mostly no code at all.
namespace opm::json::detail {
void destroy_container(Json::array_t* items, Json::object_t* members);
void destroy_string(Json::string_t* text);
void destroy_binary(Json::binary_t* bytes);
} // namespace opm::json::detail
template <> inline void opm::json::Json::json_value::destroy(opm::json::Json::value_t t) {
  switch (t) {
  case value_t::object:
    opm::json::detail::destroy_container(nullptr, object);
    break;
  case value_t::array:
    opm::json::detail::destroy_container(array, nullptr);
    break;
  case value_t::string:
    opm::json::detail::destroy_string(string);
    break;
  case value_t::binary:
    opm::json::detail::destroy_binary(binary);
    break;
  default:
    break;
  }
}

namespace opm {
using json::Json;
} // namespace opm
