#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// UTF-8 decoding with Go's rules (unicode/utf8): a byte that does not start a
// well-formed sequence decodes as U+FFFD of length 1.
namespace opm::util::utf8 {

inline constexpr char32_t k_replacement = 0xFFFD;

struct Rune {
  char32_t code;
  unsigned length;
  bool valid;
};

inline Rune decode(const unsigned char* p, std::size_t n) {
  constexpr Rune bad{k_replacement, 1, false};
  const unsigned char c = p[0];
  if (c < 0x80) {
    return {c, 1, true};
  }
  const auto cont = [&](std::size_t i) { return i < n && (p[i] & 0xC0) == 0x80; };
  if (c < 0xC2) {
    return bad;
  }
  if (c < 0xE0) {
    if (!cont(1)) {
      return bad;
    }
    return {static_cast<char32_t>(((c & 0x1Fu) << 6) | (p[1] & 0x3Fu)), 2, true};
  }
  if (c < 0xF0) {
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80;
    const unsigned char hi = c == 0xED ? 0x9F : 0xBF;
    if (n < 3 || p[1] < lo || p[1] > hi || !cont(2)) {
      return bad;
    }
    return {static_cast<char32_t>(((c & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu)), 3,
            true};
  }
  if (c < 0xF5) {
    const unsigned char lo = c == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = c == 0xF4 ? 0x8F : 0xBF;
    if (n < 4 || p[1] < lo || p[1] > hi || !cont(2) || !cont(3)) {
      return bad;
    }
    return {static_cast<char32_t>(((c & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) |
                                  ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu)),
            4, true};
  }
  return bad;
}

inline Rune decode(std::string_view s, std::size_t i) {
  return decode(reinterpret_cast<const unsigned char*>(s.data()) + i, s.size() - i);
}

inline void append(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// True when `s` is well-formed UTF-8.
bool valid(std::string_view s);

// `s` with every byte that does not start a well-formed sequence replaced by U+FFFD,
// as Go's JSON encoder writes it.
std::string sanitize(std::string_view s);

} // namespace opm::util::utf8
