#include "util/go_format.hpp"

#include <charconv>
#include <cmath>

namespace opm::util {

namespace {

// The shortest decimal digits that read back as `v` (v finite, non-zero):
// v = 0.d1d2...dn x 10^point.
struct Digits {
  char d[24];
  int count = 0;
  int point = 0;
};

// `bits` 32 gives the shortest digits that read back as the same float32.
Digits shortest_digits(double v, int bits = 64) {
  char buf[40];
  const auto res =
      bits == 32
          ? std::to_chars(buf, buf + sizeof buf, std::fabs(static_cast<float>(v)),
                          std::chars_format::scientific)
          : std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  Digits digits;
  const char* p = buf;
  for (; p < res.ptr && *p != 'e'; ++p) {
    if (*p != '.') {
      digits.d[digits.count++] = *p;
    }
  }
  int exponent = 0;
  std::from_chars(p + (p[1] == '+' ? 2 : 1), res.ptr, exponent);
  digits.point = exponent + 1;
  return digits;
}

// strconv's %e layout with all shortest digits; at least two exponent digits.
void append_exponent_form(std::string& out, const Digits& digits) {
  out.push_back(digits.d[0]);
  if (digits.count > 1) {
    out.push_back('.');
    out.append(digits.d + 1, static_cast<std::size_t>(digits.count - 1));
  }
  out.push_back('e');
  int exponent = digits.point - 1;
  out.push_back(exponent < 0 ? '-' : '+');
  exponent = std::abs(exponent);
  if (exponent < 10) {
    out.push_back('0');
  }
  char buf[8];
  const auto res = std::to_chars(buf, buf + sizeof buf, exponent);
  out.append(buf, res.ptr);
}

// strconv's %f layout with all shortest digits.
void append_fixed_form(std::string& out, const Digits& digits) {
  if (digits.point > 0) {
    const int integral = std::min(digits.point, digits.count);
    out.append(digits.d, static_cast<std::size_t>(integral));
    out.append(static_cast<std::size_t>(digits.point - integral), '0');
  } else {
    out.push_back('0');
  }
  if (digits.count > digits.point) {
    out.push_back('.');
    for (int i = digits.point; i < digits.count; ++i) {
      out.push_back(i < 0 ? '0' : digits.d[i]);
    }
  }
}

} // namespace

void append_json_float(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null"; // Go refuses to encode these; there is no JSON form
    return;
  }
  if (std::signbit(v)) {
    out.push_back('-');
  }
  if (v == 0) {
    out.push_back('0');
    return;
  }
  const Digits digits = shortest_digits(v);
  const double magnitude = std::fabs(v);
  if (magnitude < 1e-6 || magnitude >= 1e21) {
    const std::size_t at = out.size();
    append_exponent_form(out, digits);
    // Go trims a negative two-digit exponent: 1e-07 -> 1e-7.
    const std::size_t e = out.find('e', at);
    if (out[e + 1] == '-' && out[e + 2] == '0' && out.size() == e + 4) {
      out.erase(e + 2, 1);
    }
    return;
  }
  append_fixed_form(out, digits);
}

void append_float_g(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-Inf" : "+Inf";
    return;
  }
  if (std::signbit(v)) {
    out.push_back('-');
  }
  if (v == 0) {
    out.push_back('0');
    return;
  }
  const Digits digits = shortest_digits(v);
  const int exponent = digits.point - 1;
  if (exponent < -4 || exponent >= 6) {
    append_exponent_form(out, digits);
  } else {
    append_fixed_form(out, digits);
  }
}

std::string format_float(double v, char format, int bits) {
  if (bits == 32) {
    v = static_cast<double>(static_cast<float>(v));
  }
  if (std::isnan(v)) {
    return "NaN";
  }
  if (std::isinf(v)) {
    return v > 0 ? "+Inf" : "-Inf";
  }
  std::string out;
  if (std::signbit(v)) {
    out += '-';
  }
  if (v == 0) {
    out += format == 'e' ? "0e+00" : "0";
    return out;
  }
  const Digits digits = shortest_digits(v, bits);
  if (format == 'g') {
    const int exponent = digits.point - 1;
    format = (exponent < -4 || exponent >= 6) ? 'e' : 'f';
  }
  if (format == 'e') {
    append_exponent_form(out, digits);
  } else {
    append_fixed_form(out, digits);
  }
  return out;
}

std::string format_float_json(double v) {
  std::string out;
  append_json_float(out, v);
  return out;
}

std::string format_float_g(double v) {
  std::string out;
  append_float_g(out, v);
  return out;
}

} // namespace opm::util
