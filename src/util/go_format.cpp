#include "util/go_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace opm::util {

namespace {
struct Digits {
  bool negative = false;
  std::string digits; // significant digits, no point
  int exp = 0;        // decimal exponent of the first digit
};

Digits shortest(double f) {
  Digits d;
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  if (!s.empty() && s.front() == '-') {
    d.negative = true;
    s.remove_prefix(1);
  }
  auto e = s.find('e');
  std::string_view mant = s.substr(0, e);
  for (char c : mant) {
    if (c != '.') {
      d.digits += c;
    }
  }
  d.exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  return d;
}

std::string plain(const Digits& d) {
  std::string out = d.negative ? "-" : "";
  int point = d.exp + 1; // digits before the decimal point
  int n = static_cast<int>(d.digits.size());
  if (point <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += d.digits;
  } else if (point >= n) {
    out += d.digits;
    out.append(static_cast<std::size_t>(point - n), '0');
  } else {
    out += d.digits.substr(0, static_cast<std::size_t>(point));
    out += '.';
    out += d.digits.substr(static_cast<std::size_t>(point));
  }
  return out;
}

std::string exponent(const Digits& d, int min_exp_digits) {
  std::string out = d.negative ? "-" : "";
  out += d.digits[0];
  if (d.digits.size() > 1) {
    out += '.';
    out += d.digits.substr(1);
  }
  out += 'e';
  out += d.exp < 0 ? '-' : '+';
  std::string e = std::to_string(std::abs(d.exp));
  while (static_cast<int>(e.size()) < min_exp_digits) {
    e.insert(e.begin(), '0');
  }
  out += e;
  return out;
}

std::string special(double f) {
  if (std::isnan(f)) {
    return "NaN";
  }
  return f > 0 ? "+Inf" : "-Inf";
}
} // namespace

std::string format_float_g(double f) {
  if (!std::isfinite(f)) {
    return special(f);
  }
  if (f == 0) {
    return std::signbit(f) ? "-0" : "0";
  }
  Digits d = shortest(f);
  if (d.exp < -4 || d.exp >= 6) {
    return exponent(d, 2);
  }
  return plain(d);
}

std::string format_float_json(double f) {
  if (!std::isfinite(f)) {
    return special(f);
  }
  if (f == 0) {
    return std::signbit(f) ? "-0" : "0";
  }
  double a = std::fabs(f);
  Digits d = shortest(f);
  if (a < 1e-6 || a >= 1e21) {
    return exponent(d, 1);
  }
  return plain(d);
}

} // namespace opm::util
