#pragma once

#include "json/value.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// JSON the way Go's encoding/json reads and writes it: a stream decoder with Go's syntax
// error texts and offsets, the json.Marshal text, json.Indent, and the pretty-printed
// unmarshal errors of operator-registry. Internal to catalog/.
namespace opm::json {

// One json.Decoder.Decode step over a stream, starting at byte `pos`.
struct StreamValue {
  enum class Status { value, end, syntax_error, unexpected_eof };
  Status status = Status::end;
  Json value;
  std::size_t begin = 0; // first byte of the value
  std::size_t end = 0;   // one past its last byte
  // syntax_error: Go's message ("invalid character '}' looking for beginning of value") and
  // SyntaxError.Offset (index of the offending byte + 1).
  std::string message;
  std::size_t offset = 0;
  // The first number of an object that does not fit a float64 (Go fails to decode it into
  // interface{}): its text and Go's error offset relative to `begin`.
  std::optional<std::string> overflow_number;
  std::size_t overflow_offset = 0;
};

// Strings are decoded as Go does: invalid UTF-8 and lone surrogates become U+FFFD.
// Integers keep their exactness (int64, else uint64, else float64); "-0" is a float.
// Nesting deeper than Go's 10000 levels is a syntax error.
StreamValue read_stream_value(std::string_view text, std::size_t pos);

// json.Marshal: keys in byte order, <, > and & escaped, Go's float text. Floats must be finite.
std::string marshal(const Json& v);

// json.Indent(dst, src, "", "    ") of valid JSON text.
std::string indent(std::string_view src);

// operator-registry's prettyunmarshaler.JSONUnmarshalError.Pretty(): the message, " at offset
// N (indicated by <==)", a newline and the indented data with " <==" at the offset.
std::string pretty_unmarshal_error(std::string_view data, std::string_view message,
                                   std::size_t offset);

// When `value` (whose JSON text is `blob`) is not an object, the pretty error Go gives for
// decoding it into map[string]interface{}, e.g. "json: cannot unmarshal string into Go value
// of type map[string]interface {} at offset 5 (indicated by <==)\n\"abc\" <==". Null decodes
// fine (to a nil map), so it gets no error.
std::optional<std::string> map_type_error(const Json& value, std::string_view blob);

// Go's decoders refuse JSON nested deeper than 10000 levels. If `value` is, the character
// that opens the first container past that depth in json.Marshal's order ('[' or '{').
std::optional<char> too_deep(const Json& value);

// The error for an object holding a number too large for a float64.
std::string overflow_error(std::string_view blob, std::string_view number, std::size_t offset);

} // namespace opm::json
