#include "catalog/go_format.hpp"

#include "catalog/swar.hpp"
#include "catalog/utf8.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace opm::catalog::go {

namespace {

// 0: written as is; 1: needs an escape (or is an HTML character, see below).
constexpr std::array<std::uint8_t, 128> make_ascii_table(bool escape_html) {
  std::array<std::uint8_t, 128> t{};
  for (int c = 0; c < 0x20; ++c) {
    t[c] = 1;
  }
  t['"'] = 1;
  t['\\'] = 1;
  if (escape_html) {
    t['<'] = 1;
    t['>'] = 1;
    t['&'] = 1;
  }
  return t;
}

constexpr auto k_plain_table = make_ascii_table(false);
constexpr auto k_html_table = make_ascii_table(true);
constexpr char k_hex_lower[] = "0123456789abcdef";

void append_ascii_escape(std::string& out, unsigned char c) {
  switch (c) {
  case '"':
    out += "\\\"";
    return;
  case '\\':
    out += "\\\\";
    return;
  case '\b':
    out += "\\b";
    return;
  case '\f':
    out += "\\f";
    return;
  case '\n':
    out += "\\n";
    return;
  case '\r':
    out += "\\r";
    return;
  case '\t':
    out += "\\t";
    return;
  default:
    out += "\\u00";
    out.push_back(k_hex_lower[c >> 4]);
    out.push_back(k_hex_lower[c & 0xF]);
    return;
  }
}

// The shortest decimal digits that read back as `v` (v finite, non-zero):
// v = 0.d1d2...dn x 10^point.
struct Digits {
  char d[24];
  int count = 0;
  int point = 0;
};

Digits shortest_digits(double v) {
  char buf[40];
  const auto res =
      std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
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

void append_json_string(std::string& out, std::string_view s, bool escape_html) {
  const auto& table = escape_html ? k_html_table : k_plain_table;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  out.reserve(out.size() + n + 2);
  out.push_back('"');
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < n) {
    while (i + 8 <= n) {
      const std::uint64_t word = swar::load(p + i);
      std::uint64_t special = swar::has_high(word) | swar::has_less(word, 0x20) |
                              swar::has_byte(word, '"') | swar::has_byte(word, '\\');
      if (escape_html) {
        special |=
            swar::has_byte(word, '<') | swar::has_byte(word, '>') | swar::has_byte(word, '&');
      }
      if (special != 0) {
        break;
      }
      i += 8;
    }
    if (i >= n) {
      break;
    }
    const unsigned char c = p[i];
    if (c < 0x80) {
      if (table[c] == 0) {
        ++i;
        continue;
      }
      out.append(s.data() + start, i - start);
      append_ascii_escape(out, c);
      start = ++i;
      continue;
    }
    const utf8::Rune r = utf8::decode(p + i, n - i);
    if (r.valid && r.code != 0x2028 && r.code != 0x2029) {
      i += r.length;
      continue;
    }
    out.append(s.data() + start, i - start);
    out += r.valid ? (r.code == 0x2028 ? "\\u2028" : "\\u2029") : "\\ufffd";
    i += r.length;
    start = i;
  }
  out.append(s.data() + start, n - start);
  out.push_back('"');
}

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

} // namespace opm::catalog::go
