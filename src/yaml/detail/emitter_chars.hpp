#pragma once

#include "util/swar.hpp"
#include "util/utf8.hpp"
#include "yaml/emitter.hpp"
#include "yaml/plain.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

// The character classes and escapes the emitter's analysis and its scalar writers share
// (emitter.cpp, emitter_scalars.cpp), as go-yaml's emitter defines them.
namespace opm::yaml::detail {

constexpr std::size_t k_best_width = 80;
constexpr int k_best_indent = 2;
constexpr std::size_t k_max_simple_key_length = 128;

using Bytes = const unsigned char*;

inline Bytes bytes_of(std::string_view s) { return reinterpret_cast<Bytes>(s.data()); }

// Characters that need no attention in the analysis when not first, other than being a
// space: printable ASCII except ':' and '#'.
constexpr std::array<bool, 256> make_ordinary_or_space_table() {
  std::array<bool, 256> t{};
  for (int c = 0x20; c <= 0x7E; ++c) {
    t[c] = c != ':' && c != '#';
  }
  return t;
}
constexpr auto k_ordinary_or_space = make_ordinary_or_space_table();

// Byte length of the character whose first byte is `c` (the text is valid UTF-8).
inline std::size_t width(unsigned char c) {
  if (c < 0x80) {
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    return 2;
  }
  if ((c & 0xF0) == 0xE0) {
    return 3;
  }
  return 4;
}

// The helpers below look at the character starting at p[i], with n bytes in all. The text
// is valid UTF-8, so a lead byte is always followed by its continuation bytes.
[[gnu::always_inline]] inline bool is_break(Bytes p, std::size_t i) {
  const unsigned char c = p[i];
  if (c < 0x80) {
    return c == '\r' || c == '\n';
  }
  return (c == 0xC2 && p[i + 1] == 0x85) ||
         (c == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9));
}

[[gnu::always_inline]] inline bool is_printable(Bytes p, std::size_t i) {
  const unsigned char c = p[i];
  if (c < 0x80) {
    return c == 0x0A || (c >= 0x20 && c <= 0x7E);
  }
  return (c == 0xC2 && p[i + 1] >= 0xA0) || (c > 0xC2 && c < 0xED) ||
         (c == 0xED && p[i + 1] < 0xA0) || c == 0xEE ||
         (c == 0xEF && !(p[i + 1] == 0xBB && p[i + 2] == 0xBF) &&
          !(p[i + 1] == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF)));
}

inline bool is_blank_or_break_or_nul(Bytes p, std::size_t i) {
  const unsigned char c = p[i];
  return c == ' ' || c == '\t' || c == 0 || is_break(p, i);
}

inline bool is_first_char_indicator(unsigned char c) {
  switch (c) {
  case '#':
  case ',':
  case '[':
  case ']':
  case '{':
  case '}':
  case '&':
  case '*':
  case '!':
  case '|':
  case '>':
  case '\'':
  case '"':
  case '%':
  case '@':
  case '`':
    return true;
  default:
    return false;
  }
}

inline char32_t decode_valid(Bytes p, std::size_t i, std::size_t w) {
  const unsigned char c = p[i];
  if (w == 1) {
    return c;
  }
  char32_t v = c & (w == 2 ? 0x1Fu : w == 3 ? 0x0Fu : 0x07u);
  for (std::size_t k = 1; k < w; ++k) {
    v = (v << 6) | (p[i + k] & 0x3Fu);
  }
  return v;
}

constexpr char k_hex_upper[] = "0123456789ABCDEF";

// The escape go-yaml writes after the backslash for code point v.
inline void append_escape(std::string& out, char32_t v) {
  switch (v) {
  case 0x00:
    out.push_back('0');
    return;
  case 0x07:
    out.push_back('a');
    return;
  case 0x08:
    out.push_back('b');
    return;
  case 0x09:
    out.push_back('t');
    return;
  case 0x0A:
    out.push_back('n');
    return;
  case 0x0B:
    out.push_back('v');
    return;
  case 0x0C:
    out.push_back('f');
    return;
  case 0x0D:
    out.push_back('r');
    return;
  case 0x1B:
    out.push_back('e');
    return;
  case 0x22:
    out.push_back('"');
    return;
  case 0x5C:
    out.push_back('\\');
    return;
  case 0x85:
    out.push_back('N');
    return;
  case 0xA0:
    out.push_back('_');
    return;
  case 0x2028:
    out.push_back('L');
    return;
  case 0x2029:
    out.push_back('P');
    return;
  default:
    break;
  }
  int digits = 8;
  if (v <= 0xFF) {
    out.push_back('x');
    digits = 2;
  } else if (v <= 0xFFFF) {
    out.push_back('u');
    digits = 4;
  } else {
    out.push_back('U');
  }
  for (int k = (digits - 1) * 4; k >= 0; k -= 4) {
    out.push_back(k_hex_upper[(v >> k) & 0xF]);
  }
}

inline Emitter::Style requested_string_style(std::string_view text) {
  if (text.find('\n') != std::string_view::npos) {
    return Emitter::Style::literal;
  }
  return plain_reads_as_string(text) ? Emitter::Style::plain : Emitter::Style::double_quoted;
}

} // namespace opm::yaml::detail
