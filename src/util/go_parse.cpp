#include "util/go_parse.hpp"

#include "util/strings.hpp"

#include <charconv>
#include <limits>
#include <string>

namespace opm::util {

namespace {

// A digit's value in any base up to 36; 99 for a byte that is no digit.
int digit_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'z') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'Z') {
    return c - 'A' + 10;
  }
  return 99;
}

bool is_hex_digit_or_digit(char c, bool hex) {
  return is_ascii_digit(c) || (hex && digit_value(c) >= 10 && digit_value(c) < 16);
}

} // namespace

std::string strip_underscores(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '_') {
      out += c;
    }
  }
  return out;
}

bool go_underscore_ok(std::string_view s) {
  char saw = '^';
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    s.remove_prefix(1);
  }
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0') {
    char p = static_cast<char>(s[1] | 0x20);
    if (p == 'b' || p == 'o' || p == 'x') {
      i = 2;
      saw = '0';
      hex = p == 'x';
    }
  }
  for (; i < s.size(); ++i) {
    if (is_hex_digit_or_digit(s[i], hex)) {
      saw = '0';
      continue;
    }
    if (s[i] == '_') {
      if (saw != '0') {
        return false;
      }
      saw = '_';
      continue;
    }
    if (saw == '_') {
      return false;
    }
    saw = '!';
  }
  return saw != '_';
}

std::expected<std::uint64_t, NumError> parse_go_uint(std::string_view s, int base) {
  if (s.empty()) {
    return std::unexpected(NumError::syntax);
  }
  if (base == 0) {
    base = 10;
    if (s[0] == '0') {
      char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : 0;
      if (p == 'b') {
        base = 2;
        s.remove_prefix(2);
      } else if (p == 'o') {
        base = 8;
        s.remove_prefix(2);
      } else if (p == 'x') {
        base = 16;
        s.remove_prefix(2);
      } else {
        base = 8;
        s.remove_prefix(1);
      }
    }
  }
  std::uint64_t n = 0;
  const auto ubase = static_cast<std::uint64_t>(base);
  for (char c : s) {
    int d = digit_value(c);
    if (d >= base) {
      return std::unexpected(NumError::syntax);
    }
    if (n > (std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(d)) / ubase) {
      return std::unexpected(NumError::range);
    }
    n = n * ubase + static_cast<std::uint64_t>(d);
  }
  return n;
}

std::expected<std::int64_t, NumError> parse_go_int(std::string_view s, int base) {
  if (s.empty()) {
    return std::unexpected(NumError::syntax);
  }
  bool negative = false;
  if (s[0] == '+') {
    s.remove_prefix(1);
  } else if (s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  auto u = parse_go_uint(s, base);
  if (!u) {
    return std::unexpected(u.error());
  }
  constexpr std::uint64_t k_cutoff = std::uint64_t{1} << 63;
  if (negative ? *u > k_cutoff : *u >= k_cutoff) {
    return std::unexpected(NumError::range);
  }
  if (negative) {
    return static_cast<std::int64_t>(~*u + 1);
  }
  return static_cast<std::int64_t>(*u);
}

std::optional<double> parse_go_decimal_float(std::string_view s) {
  // Syntax: [+-] digits [. digits] [(e|E) [+-] digits], at least one mantissa digit,
  // underscores allowed as in Go literals.
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  bool underscores = false;
  bool mantissa_digits = false;
  bool dot = false;
  // Decimal exponent of the first significant digit, to tell overflow from underflow.
  long leading_int_digits = 0;
  long leading_frac_zeros = 0;
  bool significant = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      underscores = true;
      continue;
    }
    if (c == '.') {
      if (dot) {
        return std::nullopt;
      }
      dot = true;
      continue;
    }
    if (!is_ascii_digit(c)) {
      break;
    }
    mantissa_digits = true;
    if (c != '0') {
      significant = true;
    }
    if (!dot && significant) {
      ++leading_int_digits;
    } else if (dot && !significant) {
      ++leading_frac_zeros;
    }
  }
  if (!mantissa_digits) {
    return std::nullopt;
  }
  long exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      exp_negative = s[i] == '-';
      ++i;
    }
    bool exp_digits = false;
    for (; i < s.size(); ++i) {
      if (s[i] == '_') {
        underscores = true;
        continue;
      }
      if (!is_ascii_digit(s[i])) {
        break;
      }
      exp_digits = true;
      if (exponent < 100000) {
        exponent = exponent * 10 + (s[i] - '0');
      }
    }
    if (!exp_digits) {
      return std::nullopt;
    }
    if (exp_negative) {
      exponent = -exponent;
    }
  }
  if (i != s.size()) {
    return std::nullopt;
  }
  std::string stripped;
  std::string_view text = s;
  if (underscores) {
    if (!go_underscore_ok(s)) {
      return std::nullopt;
    }
    stripped = strip_underscores(s);
    text = stripped;
  }
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);
  }
  double value = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec == std::errc::result_out_of_range) {
    long magnitude = leading_int_digits - leading_frac_zeros;
    if (significant && magnitude + exponent > 0) {
      return std::nullopt; // overflow: Go reports a range error
    }
    return negative ? -0.0 : 0.0;
  }
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

} // namespace opm::util
