#include "yaml/plain.hpp"

#include "util/strings.hpp"
#include "yaml/resolve.hpp"

#include <string_view>

namespace opm::yaml {

namespace {

// Go's time.Parse getnum: one or two digits.
bool take_number(std::string_view& s, int& value) {
  if (s.empty() || !util::is_ascii_digit(s[0])) {
    return false;
  }
  value = s[0] - '0';
  if (s.size() >= 2 && util::is_ascii_digit(s[1])) {
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
  if (s.size() >= 2 && (s[0] == '.' || s[0] == ',') && util::is_ascii_digit(s[1])) {
    std::size_t i = 1;
    while (i < s.size() && util::is_ascii_digit(s[i])) {
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
  if (s.size() < 6 || s[3] != ':' || (s[0] != '+' && s[0] != '-') || !util::is_ascii_digit(s[1]) ||
      !util::is_ascii_digit(s[2]) || !util::is_ascii_digit(s[4]) || !util::is_ascii_digit(s[5])) {
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
  while (i < s.size() && util::is_ascii_digit(s[i])) {
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

// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
bool is_base60_float(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  if (i >= n || !util::is_ascii_digit(s[i])) {
    return false;
  }
  while (i < n && (util::is_ascii_digit(s[i]) || s[i] == '_')) {
    ++i;
  }
  int groups = 0;
  while (i < n && s[i] == ':') {
    ++i;
    if (i + 1 < n && s[i] >= '0' && s[i] <= '5' && util::is_ascii_digit(s[i + 1])) {
      i += 2;
    } else if (i < n && util::is_ascii_digit(s[i])) {
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
    while (i < n && (util::is_ascii_digit(s[i]) || s[i] == '_')) {
      ++i;
    }
  }
  return i == n;
}

} // namespace

bool plain_reads_as_string(std::string_view s) {
  // go-yaml's encoder resolves the text as an untagged plain scalar, where timestamps
  // count too (its decoder keeps them as strings), and quotes base-60 numbers besides.
  return yaml::resolves_to_string(s) && !is_timestamp(s) && !is_base60_float(s);
}

} // namespace opm::yaml
