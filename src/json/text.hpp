#pragma once

#include "json/value.hpp"
#include "util/error.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// JSON as text, for the places where upstream keeps a json.RawMessage: the exact bytes
// of a value (member order, number spelling, escapes, whitespace) matter there, so they
// are scanned rather than parsed into a Json.
namespace opm::json::text {

// Offset of the first byte at or after `pos` that is not JSON whitespace.
std::size_t skip_space(std::string_view text, std::size_t pos);

// The end offset of the JSON value starting at `pos` (leading whitespace skipped), or
// nullopt when the text there is not valid JSON. Nesting deeper than Go's limit (10000)
// counts as invalid.
std::optional<std::size_t> value_end(std::string_view text, std::size_t pos = 0);

// True when `text` is exactly one JSON value, optionally surrounded by whitespace.
bool is_valid(std::string_view text);

// Whether a text is scanned as it is read, or is known to be valid JSON already (as the values
// a loaded catalog keeps are), so that only its structure is followed.
enum class Validity { checked, known_valid };

// The members of a valid JSON object (keys decoded), in text order; nullopt when `raw`
// is not an object.
struct Member {
  std::string key;
  std::string_view value; // raw text, no surrounding whitespace
};
std::optional<std::vector<Member>> object_members(std::string_view raw,
                                                  Validity validity = Validity::checked);

// A member's JSON text inside a larger JSON text, by member names from the root (the last
// member of a name wins, as in Go); empty when the path does not exist. The view points
// into `text`.
std::string_view find_raw(std::string_view text, std::initializer_list<std::string_view> path);

// The elements of a valid JSON array, in order; nullopt when `raw` is not an array.
std::optional<std::vector<std::string_view>> array_elements(std::string_view raw,
                                                            Validity validity = Validity::checked);

// Go's json.Compact without HTML escaping: insignificant whitespace removed, all other
// bytes kept.
std::string compact(std::string_view raw);

// The value of the JSON string literal `raw` (quotes included), decoded as Go's decoder reads
// it: escapes resolved, surrogate pairs joined, lone surrogates and invalid UTF-8 bytes read
// as U+FFFD. nullopt when `raw` is not one whole string literal.
std::optional<std::string> string_value(std::string_view raw);

// Parse valid JSON text into a Json value (numbers keep integer/float typing).
Result<Json> parse(std::string_view raw);

// Builds compact JSON text with members in the order they are added, as Go's encoder
// writes a struct. Strings are escaped as Go does (HTML escaping off).
class Builder {
public:
  Builder& begin_object();
  Builder& end_object();
  Builder& begin_array();
  Builder& end_array();
  Builder& key(std::string_view name);
  Builder& string(std::string_view s);
  Builder& boolean(bool b);
  Builder& integer(long long n);
  // Already-encoded JSON text, inserted as is.
  Builder& raw(std::string_view text);
  // A Json value, members in byte order (Go's map order).
  Builder& value(const Json& v);

  [[nodiscard]] const std::string& text() const& { return m_out; }
  [[nodiscard]] std::string text() && { return std::move(m_out); }

private:
  void separate();
  std::string m_out;
  bool m_need_comma = false;
};

} // namespace opm::json::text
