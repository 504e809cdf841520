#pragma once

#include "json/value.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

// What Go's encoding/json reports when it decodes a JSON value into a typed Go struct:
// upstream's messages for badly shaped catalog values come straight from it, e.g.
// `json: cannot unmarshal number into Go struct field Package.version of type string`.
// A Type describes the Go type (only the kinds catalogs use); check() walks a value the
// way json.Unmarshal does and returns the first error it would report.
namespace opm::json {

enum class Kind {
  string,    // string and named string types
  boolean,   // bool
  int32,     // int32
  uint8,     // uint8 (element of []byte)
  bytes,     // []byte: a base64 string, or an array of small numbers
  raw,       // json.RawMessage / interface{}: anything
  slice,     // []T
  map,       // map[string]T
  structure, // struct: members matched to fields case-insensitively, others ignored
};

struct Field;

struct Type {
  Kind kind = Kind::raw;
  std::string_view name;         // as Go prints it: "string", "[]v1alpha1.InstallMode"
  const Type* elem = nullptr;    // slice and map elements
  std::span<const Field> fields; // struct fields
  std::string_view short_name;   // struct name without package: "InstallMode"

  // A scalar kind (string, boolean, int32, uint8, bytes, raw).
  static constexpr Type scalar(Kind kind, std::string_view name) {
    return Type{kind, name, nullptr, {}, {}};
  }
  // []T or map[string]T.
  static constexpr Type container(Kind kind, std::string_view name, const Type& elem) {
    return Type{kind, name, &elem, {}, {}};
  }
  static constexpr Type structure(std::string_view name, std::string_view short_name,
                                  std::span<const Field> fields) {
    return Type{Kind::structure, name, nullptr, fields, short_name};
  }
};

struct Field {
  std::string_view json; // the member name (json tag)
  const Type* type = nullptr;
};

// The first error json.Unmarshal would return for `value` decoded into `type`, or nullopt.
// A discarded `value` stands for empty input ("unexpected end of JSON input").
std::optional<std::string> check(const Json& value, const Type& type);

// Go's struct member matching: equal ignoring case (with Unicode simple folding of
// 'k'/KELVIN SIGN and 's'/LONG S). `field` is ASCII.
bool key_matches(std::string_view key, std::string_view field);

// The JSON member of `object` that Go would store into the field named `field`: among the
// matching members the last one in member order wins (each overwrites the field).
const Json* find_member(const Json& object, std::string_view field);

// A number printed as Go's encoder prints a float64 (shortest form; exponent form below
// 1e-6 and from 1e21). Integers print as integers.
std::string format_number(const Json& number);

// Go's name for the kind of a JSON value in decoding errors: "string", "number", "bool",
// "array", "object" or "null".
std::string_view kind_name(const Json& value);

// json.UnmarshalTypeError's text: "json: cannot unmarshal <what> into Go value of type
// <go_type>" when `strct` and `path` are empty, else "json: cannot unmarshal <what> into Go
// struct field <strct>.<path> of type <go_type>". `what` is a kind name, or "number 1e40".
std::string type_error(std::string_view what, std::string_view strct, std::string_view path,
                       std::string_view go_type);

// Shared type descriptions.
extern const Type k_string;
extern const Type k_bool;
extern const Type k_raw;

} // namespace opm::json
