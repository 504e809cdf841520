#pragma once

#include "util/error.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace opm::util {

// Standard base64 with padding, as Go's base64.StdEncoding encodes.
std::string base64_encode(std::string_view bytes);
void base64_encode_append(std::string& out, std::string_view bytes);

// Go's base64.StdEncoding.Decode: padding required, '\r' and '\n' ignored anywhere.
// Error text as Go's: "illegal base64 data at input byte <n>".
Result<std::string> base64_decode(std::string_view text);

// Where the run of characters of the standard alphabet (A-Z a-z 0-9 + /, not '=') that starts
// at `pos` ends: the first position from `pos` on holding another byte, or text.size().
std::size_t base64_alphabet_run_end(std::string_view text, std::size_t pos);

} // namespace opm::util
