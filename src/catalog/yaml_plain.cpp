#include "catalog/yaml_plain.hpp"

#include "catalog/yaml_resolve.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

namespace opm::catalog {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// strconv's lower(): folds ASCII letters to lower case (other bytes stay out of a-z).
char lower(char c) { return static_cast<char>(c | 0x20); }

// The words resolved to null, bool or .inf/.nan (the merge key "<<" is never looked up:
// '<' is not a resolvable first character).
constexpr std::array<std::string_view, 38> k_resolve_words = {
    "y",    "Y",    "yes",   "Yes",   "YES",   "true",  "True",  "TRUE",  "on",    "On",
    "ON",   "n",    "N",     "no",    "No",    "NO",    "false", "False", "FALSE", "off",
    "Off",  "OFF",  "~",     "null",  "Null",  "NULL",  ".nan",  ".NaN",  ".NAN",  ".inf",
    ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};

bool is_resolve_word(std::string_view s) {
  return std::find(k_resolve_words.begin(), k_resolve_words.end(), s) != k_resolve_words.end();
}

// strconv.ParseUint(s, 0, 64) for a string without underscores.
bool parse_uint_base0(std::string_view s, std::uint64_t& value) {
  if (s.empty()) {
    return false;
  }
  unsigned base = 10;
  if (s[0] == '0') {
    const char prefix = s.size() >= 3 ? lower(s[1]) : '\0';
    if (prefix == 'b' || prefix == 'o' || prefix == 'x') {
      base = prefix == 'b' ? 2 : prefix == 'o' ? 8 : 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  std::uint64_t n = 0;
  for (const char c : s) {
    unsigned digit = 0;
    if (is_digit(c)) {
      digit = static_cast<unsigned>(c - '0');
    } else if (lower(c) >= 'a' && lower(c) <= 'z') {
      digit = static_cast<unsigned>(lower(c) - 'a' + 10);
    } else {
      return false;
    }
    if (digit >= base || n > (UINT64_MAX - digit) / base) {
      return false;
    }
    n = n * base + digit;
  }
  value = n;
  return true;
}

// strconv.ParseInt(s, 0, 64) succeeds.
bool parses_as_int64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::uint64_t magnitude = 0;
  if (!parse_uint_base0(s, magnitude)) {
    return false;
  }
  constexpr std::uint64_t k_limit = std::uint64_t{1} << 63;
  return negative ? magnitude <= k_limit : magnitude < k_limit;
}

// strconv.ParseInt / ParseUint with an explicit base 2.
bool parses_as_binary(std::string_view s, bool allow_sign) {
  bool negative = false;
  if (allow_sign && !s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) {
    return false;
  }
  std::uint64_t n = 0;
  for (const char c : s) {
    if ((c != '0' && c != '1') || (n >> 63) != 0) {
      return false;
    }
    n = (n << 1) | static_cast<std::uint64_t>(c - '0');
  }
  if (!allow_sign) {
    return true;
  }
  constexpr std::uint64_t k_limit = std::uint64_t{1} << 63;
  return negative ? n <= k_limit : n < k_limit;
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool matches_yaml_float(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < n && is_digit(s[i])) {
      ++i;
    }
    return i - from;
  };
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (digits() == 0) {
      return false;
    }
  } else {
    if (digits() == 0) {
      return false;
    }
    if (i < n && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      ++i;
    }
    if (digits() == 0) {
      return false;
    }
  }
  return i == n;
}

// Roughly the decimal exponent of a well-formed decimal float ([sign] digits [. digits]
// [e [sign] digits]) that does not fit a double: positive when it is too large, negative
// when it is too small.
long magnitude_of(std::string_view s) {
  std::size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
  long integral_digits = 0; // from the first non-zero digit on
  long leading_fraction_zeros = 0;
  bool found = false;
  bool after_point = false;
  for (; i < s.size() && (is_digit(s[i]) || s[i] == '.'); ++i) {
    const char c = s[i];
    if (c == '.') {
      after_point = true;
    } else if (!after_point) {
      found = found || c != '0';
      integral_digits += found ? 1 : 0;
    } else if (!found) {
      found = c != '0';
      leading_fraction_zeros += found ? 0 : 1;
    }
  }
  long exponent = 0;
  if (i < s.size()) {
    ++i; // past e or E
    const bool negative = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      ++i;
    }
    for (; i < s.size(); ++i) {
      exponent = std::min(exponent * 10 + (s[i] - '0'), 1000000L);
    }
    exponent = negative ? -exponent : exponent;
  }
  return (integral_digits > 0 ? integral_digits : -leading_fraction_zeros) + exponent;
}

// A well-formed decimal float (no underscores) does not overflow float64: strconv.ParseFloat
// fails only then (underflow to zero is fine).
bool decimal_is_finite(std::string_view s) {
  std::string_view digits = s;
  if (!digits.empty() && digits[0] == '+') {
    digits.remove_prefix(1);
  }
  double value = 0;
  const auto res = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (res.ec == std::errc::result_out_of_range) {
    return magnitude_of(s) <= 0;
  }
  return res.ec == std::errc() && std::isfinite(value);
}

// strconv.ParseFloat(s, 64) succeeds, for strings that cannot be special (inf, nan) or
// hexadecimal forms.
bool parses_as_decimal_float(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  bool underscores = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  bool saw_dot = false;
  bool saw_digits = false;
  for (; i < n; ++i) {
    const char c = s[i];
    if (c == '_') {
      underscores = true;
    } else if (c == '.' && !saw_dot) {
      saw_dot = true;
    } else if (is_digit(c)) {
      saw_digits = true;
    } else {
      break;
    }
  }
  if (!saw_digits) {
    return false;
  }
  if (i < n && lower(s[i]) == 'e') {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      ++i;
    }
    if (i >= n || !is_digit(s[i])) {
      return false;
    }
    for (; i < n && (is_digit(s[i]) || s[i] == '_'); ++i) {
      underscores = underscores || s[i] == '_';
    }
  }
  if (i != n || (underscores && !yaml::go_underscore_ok(s))) {
    return false;
  }
  if (!underscores) {
    return decimal_is_finite(s);
  }
  std::string plain(s);
  std::erase(plain, '_');
  return decimal_is_finite(plain);
}

// Go's time.Parse getnum: one or two digits.
bool take_number(std::string_view& s, int& value) {
  if (s.empty() || !is_digit(s[0])) {
    return false;
  }
  value = s[0] - '0';
  if (s.size() >= 2 && is_digit(s[1])) {
    value = value * 10 + (s[1] - '0');
    s.remove_prefix(2);
  } else {
    s.remove_prefix(1);
  }
  return true;
}

bool take_char(std::string_view& s, char c) {
  if (s.empty() || s[0] != c) {
    return false;
  }
  s.remove_prefix(1);
  return true;
}

int days_in_month(int month, int year) {
  static constexpr int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) {
    return 29;
  }
  return k_days[month - 1];
}

// "2006-1-2": four-digit year, then month and day of one or two digits.
bool take_date(std::string_view& s, int& year, int& month, int& day) {
  year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  s.remove_prefix(4);
  return take_char(s, '-') && take_number(s, month) && month >= 1 && month <= 12 &&
         take_char(s, '-') && take_number(s, day);
}

// "15:4:5" with an optional fraction ".999999999" (a comma works as well).
bool take_time(std::string_view& s) {
  int hour = 0;
  int minute = 0;
  int second = 0;
  if (!take_number(s, hour) || hour >= 24 || !take_char(s, ':') || !take_number(s, minute) ||
      minute >= 60 || !take_char(s, ':') || !take_number(s, second) || second >= 60) {
    return false;
  }
  if (s.size() >= 2 && (s[0] == '.' || s[0] == ',') && is_digit(s[1])) {
    std::size_t i = 1;
    while (i < s.size() && is_digit(s[i])) {
      ++i;
    }
    s.remove_prefix(i);
  }
  return true;
}

// "Z07:00": Z, or a signed hh:mm offset (hours up to 24, minutes up to 60).
bool take_zone(std::string_view& s) {
  if (take_char(s, 'Z')) {
    return true;
  }
  if (s.size() < 6 || s[3] != ':' || (s[0] != '+' && s[0] != '-') || !is_digit(s[1]) ||
      !is_digit(s[2]) || !is_digit(s[4]) || !is_digit(s[5])) {
    return false;
  }
  const int hours = (s[1] - '0') * 10 + (s[2] - '0');
  const int minutes = (s[4] - '0') * 10 + (s[5] - '0');
  s.remove_prefix(6);
  return hours <= 24 && minutes <= 60;
}

bool date_valid(int year, int month, int day) {
  return day >= 1 && day <= days_in_month(month, year);
}

// go-yaml v2's parseTimestamp: time.Parse with the layouts
// "2006-1-2T15:4:5.999999999Z07:00", the same with a lower-case t,
// "2006-1-2 15:4:5.999999999" and "2006-1-2".
bool is_timestamp(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_digit(s[i])) {
    ++i;
  }
  if (i != 4 || i == s.size() || s[i] != '-') {
    return false;
  }
  int year = 0;
  int month = 0;
  int day = 0;
  std::string_view rest = s;
  if (!take_date(rest, year, month, day)) {
    return false;
  }
  if (rest.empty()) {
    return date_valid(year, month, day);
  }
  if (rest[0] == 'T' || rest[0] == 't') {
    rest.remove_prefix(1);
    return take_time(rest) && take_zone(rest) && rest.empty() && date_valid(year, month, day);
  }
  // A space in a layout matches any run of spaces.
  if (rest[0] != ' ') {
    return false;
  }
  while (!rest.empty() && rest[0] == ' ') {
    rest.remove_prefix(1);
  }
  return take_time(rest) && rest.empty() && date_valid(year, month, day);
}

// Resolution of a plain scalar starting with a digit or a sign.
bool resolves_to_number_or_time(std::string_view s) {
  if (is_timestamp(s)) {
    return true;
  }
  std::string without_underscores;
  std::string_view plain = s;
  if (plain.find('_') != std::string_view::npos) {
    without_underscores.assign(s);
    std::erase(without_underscores, '_');
    plain = without_underscores;
  }
  std::uint64_t ignored = 0;
  if (parses_as_int64(plain) || parse_uint_base0(plain, ignored)) {
    return true;
  }
  if (matches_yaml_float(plain) && decimal_is_finite(plain)) {
    return true;
  }
  if (plain.starts_with("0b")) {
    return parses_as_binary(plain.substr(2), true) || parses_as_binary(plain.substr(2), false);
  }
  if (plain.starts_with("-0b")) {
    std::string negated = "-";
    negated += plain.substr(3);
    return parses_as_binary(negated, true);
  }
  return false;
}

// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
bool is_base60_float(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  if (i >= n || !is_digit(s[i])) {
    return false;
  }
  while (i < n && (is_digit(s[i]) || s[i] == '_')) {
    ++i;
  }
  int groups = 0;
  while (i < n && s[i] == ':') {
    ++i;
    if (i + 1 < n && s[i] >= '0' && s[i] <= '5' && is_digit(s[i + 1])) {
      i += 2;
    } else if (i < n && is_digit(s[i])) {
      ++i;
    } else {
      return false;
    }
    ++groups;
  }
  if (groups == 0) {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && (is_digit(s[i]) || s[i] == '_')) {
      ++i;
    }
  }
  return i == n;
}

} // namespace

bool yaml_plain_reads_as_string(std::string_view s) {
  if (s.empty()) {
    return false;
  }
  const char c = s[0];
  const bool sign_or_digit = c == '+' || c == '-' || is_digit(c);
  const bool word_start = std::string_view("yYnNtTfFoO~").find(c) != std::string_view::npos;
  if (!sign_or_digit && !word_start && c != '.') {
    return true;
  }
  if (is_resolve_word(s)) {
    return false;
  }
  if (c == '.') {
    return !parses_as_decimal_float(s);
  }
  if (sign_or_digit) {
    return !resolves_to_number_or_time(s) && !is_base60_float(s);
  }
  return true;
}

} // namespace opm::catalog
