
#pragma once

// Unicode character classes as Go's unicode package defines them (Unicode 15.0).
namespace opm::util {

// unicode.IsLetter: general category Lu, Ll, Lt, Lm or Lo.
bool is_unicode_letter(char32_t c);
// unicode.IsDigit: general category Nd.
bool is_unicode_digit(char32_t c);

} // namespace opm::util
