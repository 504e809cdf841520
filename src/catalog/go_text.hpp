#pragma once

#include "catalog/json.hpp"

#include <string>

// Text the way Go's standard library prints it, for values and error messages that must
// match upstream byte for byte. Internal to catalog/.
namespace opm::catalog::gotext {

// strconv.FormatFloat(v, format, -1, bits): shortest digits that read back as the same
// float64 (bits 64) or float32 (bits 32); format is 'e', 'f' or 'g'.
std::string format_float(double v, char format, int bits);

// encoding/json's quoteChar: how a scanner error names the offending byte ('x', '\'', '"').
std::string quote_char(unsigned char c);

// fmt's "%#v" of a value decoded from YAML into interface{}: nil, bool, int, uint64,
// float64, string, []interface {}, map[interface {}]interface {} (keys sorted).
std::string go_syntax(const Json& v);

} // namespace opm::catalog::gotext
