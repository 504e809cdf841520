#include "util/go_duration.hpp"

#include "util/strings.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <utility>

namespace opm::util {

namespace {

using Unit = std::pair<std::string_view, std::uint64_t>;

constexpr std::array<Unit, 8> k_units{{{"ns", 1},
                                       {"us", 1'000},
                                       {"\u00b5s", 1'000},
                                       {"\u03bcs", 1'000},
                                       {"ms", 1'000'000},
                                       {"s", 1'000'000'000},
                                       {"m", 60'000'000'000},
                                       {"h", 3'600'000'000'000}}};

constexpr std::uint64_t k_max = std::uint64_t{1} << 63;

// Leading digits of `text` as a number; false on overflow past 2^63.
bool take_digits(std::string_view& text, std::uint64_t& value, int& count) {
  value = 0;
  count = 0;
  while (!text.empty() && is_ascii_digit(text.front())) {
    if (value > (k_max - 9) / 10) {
      return false;
    }
    value = value * 10 + static_cast<std::uint64_t>(text.front() - '0');
    text.remove_prefix(1);
    ++count;
  }
  return true;
}

// The fraction's digits scaled to `unit` (Go keeps only what fits, then rounds down).
std::uint64_t scaled_fraction(std::string_view digits, std::uint64_t unit) {
  double scale = 1;
  std::uint64_t fraction = 0;
  for (char c : digits) {
    if (fraction > k_max / 10) {
      break;
    }
    fraction = fraction * 10 + static_cast<std::uint64_t>(c - '0');
    scale *= 10;
  }
  return static_cast<std::uint64_t>(static_cast<double>(fraction) *
                                    (static_cast<double>(unit) / scale));
}

std::optional<std::uint64_t> unit_of(std::string_view& text) {
  std::size_t end = 0;
  while (end < text.size() && text[end] != '.' && !is_ascii_digit(text[end])) {
    ++end;
  }
  for (const auto& [name, ns] : k_units) {
    if (text.substr(0, end) == name) {
      text.remove_prefix(end);
      return ns;
    }
  }
  return std::nullopt;
}

// One "<number>[.<fraction>]<unit>" group, added to `total`.
bool take_group(std::string_view& text, std::uint64_t& total) {
  std::uint64_t whole = 0;
  int whole_digits = 0;
  if (!take_digits(text, whole, whole_digits)) {
    return false;
  }
  std::string_view fraction;
  if (!text.empty() && text.front() == '.') {
    text.remove_prefix(1);
    std::size_t n = 0;
    while (n < text.size() && is_ascii_digit(text[n])) {
      ++n;
    }
    fraction = text.substr(0, n);
    text.remove_prefix(n);
  }
  if (whole_digits == 0 && fraction.empty()) {
    return false;
  }
  auto unit = unit_of(text);
  if (!unit || whole > k_max / *unit) {
    return false;
  }
  std::uint64_t value = whole * *unit + scaled_fraction(fraction, *unit);
  if (value > k_max || total > k_max - value) {
    return false;
  }
  total += value;
  return true;
}

// Digits of `value` / 10^precision with trailing zeros of the fraction dropped.
std::string fixed(std::uint64_t value, int precision) {
  std::string fraction;
  for (int i = 0; i < precision; ++i) {
    fraction.insert(fraction.begin(), static_cast<char>('0' + value % 10));
    value /= 10;
  }
  while (!fraction.empty() && fraction.back() == '0') {
    fraction.pop_back();
  }
  std::string text = std::to_string(value);
  return fraction.empty() ? text : text + "." + fraction;
}

} // namespace

std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text == "0") {
    return std::chrono::nanoseconds{0};
  }
  if (text.empty()) {
    return std::nullopt;
  }
  std::uint64_t total = 0;
  while (!text.empty()) {
    if (!take_group(text, total)) {
      return std::nullopt;
    }
  }
  if (negative) {
    return std::chrono::nanoseconds{static_cast<std::int64_t>(0 - total)};
  }
  if (total > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return std::nullopt;
  }
  return std::chrono::nanoseconds{static_cast<std::int64_t>(total)};
}

std::string format_go_duration(std::chrono::nanoseconds value) {
  std::int64_t count = value.count();
  std::string sign = count < 0 ? "-" : "";
  std::uint64_t ns =
      count < 0 ? 0 - static_cast<std::uint64_t>(count) : static_cast<std::uint64_t>(count);
  if (ns == 0) {
    return "0s";
  }
  if (ns < 1'000) {
    return sign + std::to_string(ns) + "ns";
  }
  if (ns < 1'000'000) {
    return sign + fixed(ns, 3) + "\u00b5s";
  }
  if (ns < 1'000'000'000) {
    return sign + fixed(ns, 6) + "ms";
  }
  std::uint64_t seconds_ns = ns % 60'000'000'000;
  std::uint64_t minutes = ns / 60'000'000'000;
  std::string text = fixed(seconds_ns, 9) + "s";
  if (minutes == 0) {
    return sign + text;
  }
  std::uint64_t hours = minutes / 60;
  text = std::to_string(minutes % 60) + "m" + text;
  if (hours > 0) {
    text = std::to_string(hours) + "h" + text;
  }
  return sign + text;
}

} // namespace opm::util
