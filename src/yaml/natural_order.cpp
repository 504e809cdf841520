#include "yaml/natural_order.hpp"

#include "util/unicode_classes.hpp"
#include "util/utf8.hpp"

#include <cstdint>

namespace opm::yaml {

namespace {

// Reads the run of digits starting at byte `i` the way go-yaml does: value = value * 10 +
// (rune - '0') in wrapping int64 arithmetic, for any Unicode decimal digit. Returns the
// number of runes in the run.
std::size_t read_digits(std::string_view s, std::size_t i, std::uint64_t& value) {
  std::size_t count = 0;
  while (i < s.size()) {
    const util::utf8::Rune r = util::utf8::decode(s, i);
    if (!util::is_unicode_digit(r.code)) {
      break;
    }
    value = value * 10 + static_cast<std::uint64_t>(static_cast<std::int64_t>(r.code) - '0');
    i += r.length;
    ++count;
  }
  return count;
}

} // namespace

bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  // Whether the run of digits that ends the common prefix has a digit other than '0'.
  bool prefix_digits_nonzero = false;
  while (i < a.size() && j < b.size()) {
    const util::utf8::Rune ra = util::utf8::decode(a, i);
    const util::utf8::Rune rb = util::utf8::decode(b, j);
    if (ra.code == rb.code) {
      if (util::is_unicode_digit(ra.code)) {
        prefix_digits_nonzero = prefix_digits_nonzero || ra.code != '0';
      } else {
        prefix_digits_nonzero = false;
      }
      i += ra.length;
      j += rb.length;
      continue;
    }
    const bool a_letter = util::is_unicode_letter(ra.code);
    const bool b_letter = util::is_unicode_letter(rb.code);
    if (a_letter && b_letter) {
      return ra.code < rb.code;
    }
    if (a_letter || b_letter) {
      return b_letter;
    }
    std::uint64_t an = 0;
    std::uint64_t bn = 0;
    if ((ra.code == '0' || rb.code == '0') && prefix_digits_nonzero) {
      an = 1;
      bn = 1;
    }
    const std::size_t a_digits = read_digits(a, i, an);
    const std::size_t b_digits = read_digits(b, j, bn);
    if (an != bn) {
      return static_cast<std::int64_t>(an) < static_cast<std::int64_t>(bn);
    }
    if (a_digits != b_digits) {
      return a_digits < b_digits;
    }
    return ra.code < rb.code;
  }
  return i == a.size() && j < b.size();
}

} // namespace opm::yaml
