#pragma once

#include "util/avx2.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

// Tests on eight bytes at once (SWAR), to skip quickly over long runs of ordinary text.
namespace opm::util::swar {

inline constexpr std::uint64_t k_ones = 0x0101010101010101ULL;
inline constexpr std::uint64_t k_highs = 0x8080808080808080ULL;

inline std::uint64_t load(const unsigned char* p) {
  std::uint64_t word = 0;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// How many of the bytes of `s` from its start are spaces (the indentation of a line), eight
// compared at a time.
inline std::size_t leading_spaces(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    // Little-endian: the first byte is the lowest; a non-space byte leaves a bit set.
    if (const std::uint64_t other = load(p + i) ^ (k_ones * ' '); other != 0) {
      return i + static_cast<std::size_t>(__builtin_ctzll(other) / 8);
    }
  }
  while (i < s.size() && s[i] == ' ') {
    ++i;
  }
  return i;
}

// Non-zero when some byte of `word` is below `n` (n <= 128).
constexpr std::uint64_t has_less(std::uint64_t word, std::uint8_t n) {
  return (word - k_ones * n) & ~word & k_highs;
}

// Non-zero when some byte of `word` equals `b`.
constexpr std::uint64_t has_byte(std::uint64_t word, std::uint8_t b) {
  const std::uint64_t x = word ^ (k_ones * b);
  return (x - k_ones) & ~x & k_highs;
}

// Non-zero when some byte of `word` is 0x80 or above.
constexpr std::uint64_t has_high(std::uint64_t word) { return word & k_highs; }

// Non-zero when some byte of `word` needs care inside a JSON string: '"', '\\', a control
// character or a byte of a multi-byte UTF-8 sequence.
constexpr std::uint64_t has_json_string_special(std::uint64_t word) {
  return has_high(word) | has_less(word, 0x20) | has_byte(word, '"') | has_byte(word, '\\');
}

// The offset in `word` of its first byte that `marks` (from one of the tests above) marks.
// Those tests can mark a byte falsely only above one they mark rightly, so the lowest is right.
inline std::size_t first_marked(std::uint64_t marks) {
  return static_cast<std::size_t>(__builtin_ctzll(marks) / 8);
}

// The first position from `pos` on (or `size`) whose byte needs care inside a JSON string.
// Most keys end within a word; past it, the rest goes 32 bytes a step where it can.
inline std::size_t skip_json_string_plain(const unsigned char* p, std::size_t pos,
                                          std::size_t size) {
  if (pos + 8 <= size) {
    if (std::uint64_t marks = has_json_string_special(load(p + pos)); marks != 0) {
      return pos + first_marked(marks);
    }
    pos = skip_plain_blocks(p, pos + 8, size, PlainStops::json_string);
  }
  for (; pos + 8 <= size; pos += 8) {
    if (std::uint64_t marks = has_json_string_special(load(p + pos)); marks != 0) {
      return pos + first_marked(marks);
    }
  }
  while (pos < size && p[pos] != '"' && p[pos] != '\\' && p[pos] >= 0x20 && p[pos] < 0x80) {
    ++pos;
  }
  return pos;
}

// Sixteen bytes as a vector of the compiler's portable vector extension.
using Bytes16 = unsigned char __attribute__((vector_size(16)));

// The lane of the first marked byte in `marked` (lanes all ones where a byte is marked), or
// 16 when none is. `Marked` is a vector of sixteen bytes (a comparison's result).
template <typename Marked> std::size_t first_marked_lane(Marked marked) {
  std::uint64_t halves[2];
  static_assert(sizeof marked == sizeof halves);
  std::memcpy(halves, &marked, sizeof halves);
  if (halves[0] != 0) {
    return static_cast<std::size_t>(__builtin_ctzll(halves[0]) / 8);
  }
  if (halves[1] != 0) {
    return 8 + static_cast<std::size_t>(__builtin_ctzll(halves[1]) / 8);
  }
  return sizeof marked;
}

inline Bytes16 load16(const unsigned char* p) {
  Bytes16 block;
  std::memcpy(&block, p, sizeof block);
  return block;
}

// The first offset from `i` of a byte that `mark` (given sixteen bytes, a vector whose lanes
// are all ones where a byte is marked) marks; where fewer than sixteen bytes are left, the
// offset they start at, for the caller to look at one at a time.
template <typename Mark>
std::size_t skip_unmarked_blocks(const unsigned char* p, std::size_t i, std::size_t size,
                                 Mark mark) {
  constexpr std::size_t k_width = sizeof(Bytes16);
  for (; i + k_width <= size; i += k_width) {
    if (std::size_t lane = first_marked_lane(mark(load16(p + i))); lane < k_width) {
      return i + lane;
    }
  }
  return i;
}

} // namespace opm::util::swar
