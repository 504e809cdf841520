#pragma once

#include <string>
#include <string_view>

// Text forms of scalars exactly as Go's encoding/json and strconv write them.
namespace opm::catalog::go {

// A JSON string literal as encoding/json writes it: `"` and `\` escaped, \b \f \n \r \t
// short forms, other bytes below 0x20 as \u00xx, U+2028/U+2029 as \u2028/\u2029, each byte
// of invalid UTF-8 as \ufffd, and with `escape_html` also <, >, & as \u003c, \u003e, \u0026.
void append_json_string(std::string& out, std::string_view s, bool escape_html);

} // namespace opm::catalog::go
