#pragma once

#include <string>
#include <string_view>

// Text forms of scalars exactly as Go's encoding/json and strconv write them.
namespace opm::catalog::go {

// A JSON string literal as encoding/json writes it: `"` and `\` escaped, \b \f \n \r \t
// short forms, other bytes below 0x20 as \u00xx, U+2028/U+2029 as \u2028/\u2029, each byte
// of invalid UTF-8 as \ufffd, and with `escape_html` also <, >, & as \u003c, \u003e, \u0026.
void append_json_string(std::string& out, std::string_view s, bool escape_html);

// A float64 as encoding/json writes it: shortest round-trip digits, plain decimal unless
// |v| < 1e-6 or |v| >= 1e21 (then 1e-7, 1.5e+21).
void append_json_float(std::string& out, double v);

// strconv.FormatFloat(v, 'g', -1, 64): shortest digits, exponent form when the decimal
// exponent is < -4 or >= 6, with at least two exponent digits (1e-05, 1.5e+06).
void append_float_g(std::string& out, double v);

} // namespace opm::catalog::go
