#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

// Text the way Go's standard library prints it (strconv, encoding/json, fmt), for values
// and messages that must match upstream byte for byte.
namespace opm::util {

// A float64 as encoding/json writes it: shortest round-trip digits, plain decimal unless
// |v| < 1e-6 or |v| >= 1e21 (then 1e-7, 1.5e+21).
void append_json_float(std::string& out, double v);
std::string format_float_json(double v);

// strconv.FormatFloat(v, 'g', -1, 64), also fmt's %v: shortest digits, exponent form when
// the decimal exponent is < -4 or >= 6, with at least two exponent digits (1e-05, 1.5e+06).
void append_float_g(std::string& out, double v);
std::string format_float_g(double v);

// strconv.FormatFloat(v, format, -1, bits): shortest digits that read back as the same
// float64 (bits 64) or float32 (bits 32); format is 'e', 'f' or 'g'.
std::string format_float(double v, char format, int bits);

// A JSON string literal as encoding/json writes it: `"` and `\` escaped, \b \f \n \r \t
// short forms, other bytes below 0x20 as \u00xx, U+2028/U+2029 as \u2028/\u2029, each byte
// of invalid UTF-8 as \ufffd, and with `escape_html` also <, >, & as \u003c, \u003e, \u0026.
void append_json_string(std::string& out, std::string_view s, bool escape_html);

// The room write_json_string needs for a string of `size` bytes.
constexpr std::size_t json_string_room(std::size_t size) { return size * 6 + 34; }

// append_json_string into a buffer with json_string_room(s.size()) bytes of room at `out`;
// returns the end of what it wrote.
char* write_json_string(char* out, std::string_view s, bool escape_html);

// encoding/json's quoteChar: how a scanner error names the offending byte ('x', '\'', '"').
std::string quote_char(unsigned char c);

// fmt's "%#v" of a value decoded from YAML into interface{}: nil, bool, int, uint64,
// float64, string, []interface {}, map[interface {}]interface {} (keys sorted).
std::string go_syntax(const nlohmann::json& v);

} // namespace opm::util
