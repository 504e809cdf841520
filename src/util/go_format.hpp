#pragma once

#include <string>

// Go's number formatting, which several upstream texts depend on.
namespace opm::util {

// A float64 as encoding/json writes it: shortest round-trip digits, plain decimal unless
// |v| < 1e-6 or |v| >= 1e21 (then 1e-7, 1.5e+21).
void append_json_float(std::string& out, double v);
std::string format_float_json(double v);

// strconv.FormatFloat(v, 'g', -1, 64), also fmt's %v: shortest digits, exponent form when
// the decimal exponent is < -4 or >= 6, with at least two exponent digits (1e-05, 1.5e+06).
void append_float_g(std::string& out, double v);
std::string format_float_g(double v);

} // namespace opm::util
