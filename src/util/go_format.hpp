#pragma once

#include <string>

// Go's number formatting, which several upstream texts depend on.
namespace opm::util {

// strconv.FormatFloat(f, 'g', -1, 64), also fmt's %v: shortest digits, exponent form
// (at least two exponent digits) when the decimal exponent is < -4 or >= 6: `1e+06`, `1.5e-05`.
std::string format_float_g(double f);

// encoding/json's float64: shortest digits, plain notation unless |f| < 1e-6 or >= 1e21,
// then `1e+21` / `1e-7` style.
std::string format_float_json(double f);

} // namespace opm::util
