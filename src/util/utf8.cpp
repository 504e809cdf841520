#include "util/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace opm::util::utf8 {

namespace {

// Index of the first byte >= 0x80 at or after `i`, eight bytes at a time.
std::size_t skip_ascii(std::string_view s, std::size_t i) {
  constexpr std::uint64_t k_high_bits = 0x8080808080808080ULL;
  while (i + 8 <= s.size()) {
    std::uint64_t word = 0;
    std::memcpy(&word, s.data() + i, 8);
    if ((word & k_high_bits) != 0) {
      break;
    }
    i += 8;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) {
    ++i;
  }
  return i;
}

} // namespace

bool valid(std::string_view s) {
  std::size_t i = 0;
  while (true) {
    i = skip_ascii(s, i);
    if (i >= s.size()) {
      return true;
    }
    const Rune r = decode(s, i);
    if (!r.valid) {
      return false;
    }
    i += r.length;
  }
}

std::string sanitize(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t ascii_end = skip_ascii(s, i);
    out.append(s.data() + i, ascii_end - i);
    i = ascii_end;
    if (i >= s.size()) {
      break;
    }
    const Rune r = decode(s, i);
    if (r.valid) {
      out.append(s.data() + i, r.length);
    } else {
      append(out, k_replacement);
    }
    i += r.length;
  }
  return out;
}

} // namespace opm::util::utf8
