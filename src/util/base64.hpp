#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>

namespace opm::util {

// Standard base64 with padding, as Go's base64.StdEncoding encodes.
std::string base64_encode(std::string_view bytes);
void base64_encode_append(std::string& out, std::string_view bytes);

// Go's base64.StdEncoding.Decode: padding required, '\r' and '\n' ignored anywhere.
// Error text as Go's: "illegal base64 data at input byte <n>".
Result<std::string> base64_decode(std::string_view text);

} // namespace opm::util
