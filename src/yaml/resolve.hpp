#pragma once

#include "json/value.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// YAML 1.1 scalar typing as go-yaml v2 does it when it decodes into interface{}, and the
// key conversion sigs.k8s.io/yaml applies on its way to JSON. Internal to catalog/.
namespace opm::yaml {

inline constexpr std::string_view k_str_tag = "tag:yaml.org,2002:str";
inline constexpr std::string_view k_bool_tag = "tag:yaml.org,2002:bool";
inline constexpr std::string_view k_int_tag = "tag:yaml.org,2002:int";
inline constexpr std::string_view k_float_tag = "tag:yaml.org,2002:float";
inline constexpr std::string_view k_null_tag = "tag:yaml.org,2002:null";
inline constexpr std::string_view k_timestamp_tag = "tag:yaml.org,2002:timestamp";
inline constexpr std::string_view k_binary_tag = "tag:yaml.org,2002:binary";
inline constexpr std::string_view k_merge_tag = "tag:yaml.org,2002:merge";

// A decoded scalar: the Go type go-yaml picks (int, uint64, float64, bool, string or nil).
struct Scalar {
  enum class Kind { null, boolean, integer, unsigned_integer, floating, string };
  Kind kind = Kind::string;
  bool boolean = false;
  std::int64_t integer = 0;
  std::uint64_t unsigned_integer = 0;
  double floating = 0;
  std::string text; // Kind::string only

  [[nodiscard]] Json to_json() &&;
};

// Decode one scalar node. `tag` is its resolved tag ("" when it has none), `plain_implicit`
// libyaml's flag (an untagged plain scalar, or the "!" tag). Strings from !!binary are made
// valid UTF-8 the way Go's JSON encoder does. On a tag that does not fit the value, returns
// go-yaml's message without its "yaml: " prefix, e.g. "cannot decode !!str `x` as a !!int".
std::optional<std::string> resolve_scalar(std::string_view tag, std::string&& text,
                                          bool plain_implicit, Scalar& out);

// Whether go-yaml v2's resolve() of `plain`, an untagged plain scalar, gives !!str: it is
// not null, a bool, an int or a float (timestamps are not looked for here).
bool resolves_to_string(std::string_view plain);

// Whether a key node is go-yaml's merge key "<<".
bool is_merge_key(std::string_view tag, std::string_view text, bool plain_implicit);

// The JSON object key sigs.k8s.io/yaml makes of a decoded YAML key (1 -> "1", true -> "true",
// 1.5 -> "1.5" printed as a float32). nullopt for keys it rejects: null and uint64.
std::optional<std::string> key_string(Scalar&& key);
std::optional<std::string> key_string(const Json& key);

// Replace every byte that does not start a valid UTF-8 sequence with U+FFFD, as Go does.
void coerce_utf8(std::string& s);

} // namespace opm::yaml
