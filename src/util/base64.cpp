#include "util/base64.hpp"

#include "util/avx2.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#define OPM_BASE64_AVX2 1
#endif

namespace opm::util {

namespace {
constexpr std::string_view k_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<unsigned char, 256> make_decode_map() {
  std::array<unsigned char, 256> map{};
  for (auto& m : map) {
    m = 0xFF;
  }
  for (std::size_t i = 0; i < k_alphabet.size(); ++i) {
    map[static_cast<unsigned char>(k_alphabet[i])] = static_cast<unsigned char>(i);
  }
  return map;
}
constexpr auto k_decode = make_decode_map();

std::unexpected<Error> corrupt(std::size_t at) {
  return fail(Errc::invalid, fmt::format("illegal base64 data at input byte {}", at));
}

bool is_newline(char c) { return c == '\n' || c == '\r'; }

// Sixteen bytes at a time, with the compiler's portable vector extension.
using Bytes = unsigned char __attribute__((vector_size(16)));
using Pairs = std::uint16_t __attribute__((vector_size(16)));
using Quads = std::uint32_t __attribute__((vector_size(16)));

bool all_set(Bytes mask) {
  std::uint64_t halves[2];
  std::memcpy(halves, &mask, sizeof halves);
  return (halves[0] & halves[1]) == ~std::uint64_t{0};
}

// Decodes sixteen characters of the alphabet at `in` into twelve bytes at `out`, writing one
// byte more (which the next block or the caller's slack takes); false, with nothing written,
// when any of them is another byte.
bool decode_block(const unsigned char* in, char* out) {
  Bytes c;
  std::memcpy(&c, in, sizeof c);
  auto upper = reinterpret_cast<Bytes>((c - 'A') < 26);
  auto lower = reinterpret_cast<Bytes>((c - 'a') < 26);
  auto digit = reinterpret_cast<Bytes>((c - '0') < 10);
  auto plus = reinterpret_cast<Bytes>(c == '+');
  auto slash = reinterpret_cast<Bytes>(c == '/');
  if (!all_set(upper | lower | digit | plus | slash)) {
    return false;
  }
  // Each character's value: the offset from its byte differs by class (mod 256).
  Bytes values = c + ((upper & 191) | (lower & 185) | (digit & 4) | (plus & 19) | (slash & 16));
  auto pairs = reinterpret_cast<Pairs>(values);
  pairs = ((pairs & 0xFF) << 6) | (pairs >> 8); // two values, 12 bits
  auto quads = reinterpret_cast<Quads>(pairs);
  quads = ((quads & 0xFFFF) << 12) | (quads >> 16); // four values, 24 bits
  for (int i = 0; i < 4; ++i) {
    std::uint32_t bytes = __builtin_bswap32(quads[i] << 8);
    std::memcpy(out + 3 * i, &bytes, sizeof bytes);
  }
  return true;
}

#ifdef OPM_BASE64_AVX2
// Thirty-two bytes at a time, told apart and translated by nibble lookups. Every high nibble
// has a bit (rows 0x4_ and 0x6_ share one, as do 0x5_ and 0x7_: their alphabet columns are the
// same); a low nibble's entry holds the bits of the rows where that column is not in the
// alphabet. A byte is in the alphabet when its two entries share no bit.
constexpr unsigned char k_row_2 = 0x01;     // '+' (0x2B) and '/' (0x2F)
constexpr unsigned char k_row_3 = 0x02;     // '0'..'9'
constexpr unsigned char k_rows_4_6 = 0x04;  // 'A'..'O', 'a'..'o'
constexpr unsigned char k_rows_5_7 = 0x08;  // 'P'..'Z', 'p'..'z'
constexpr unsigned char k_rows_none = 0x10; // every other row

using Nibbles = std::array<char, 16>;

constexpr Nibbles make_row_bits() {
  Nibbles bits{};
  for (std::size_t row = 0; row < 16; ++row) {
    unsigned char bit = k_rows_none;
    if (row == 2) {
      bit = k_row_2;
    } else if (row == 3) {
      bit = k_row_3;
    } else if (row == 4 || row == 6) {
      bit = k_rows_4_6;
    } else if (row == 5 || row == 7) {
      bit = k_rows_5_7;
    }
    bits[row] = static_cast<char>(bit);
  }
  return bits;
}

constexpr Nibbles make_column_bits() {
  Nibbles bits{};
  for (std::size_t column = 0; column < 16; ++column) {
    unsigned bit = k_rows_none;
    if (column != 0xB && column != 0xF) {
      bit |= k_row_2;
    }
    if (column > 9) {
      bit |= k_row_3;
    }
    if (column == 0) {
      bit |= k_rows_4_6;
    }
    if (column > 0xA) {
      bit |= k_rows_5_7;
    }
    bits[column] = static_cast<char>(bit);
  }
  return bits;
}

// What to add to a byte for its value, by row; row 2 holds '+' and, moved to row 1, '/'.
constexpr Nibbles make_row_offsets() {
  Nibbles offsets{};
  offsets[1] = static_cast<char>(63 - '/');
  offsets[2] = static_cast<char>(62 - '+');
  offsets[3] = static_cast<char>(52 - '0');
  offsets[4] = offsets[5] = static_cast<char>(0 - 'A');
  offsets[6] = offsets[7] = static_cast<char>(26 - 'a');
  return offsets;
}

constexpr Nibbles k_row_bits = make_row_bits();
constexpr Nibbles k_column_bits = make_column_bits();
constexpr Nibbles k_row_offsets = make_row_offsets();

[[gnu::target("avx2")]] __m256i both_lanes(const Nibbles& table) {
  return _mm256_broadcastsi128_si256(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(table.data())));
}

[[gnu::target("avx2")]] __m256i high_nibbles(__m256i c) {
  return _mm256_and_si256(_mm256_srli_epi32(c, 4), _mm256_set1_epi8(0x0F));
}

// Non-zero lanes for bytes outside the alphabet.
[[gnu::target("avx2")]] __m256i outside_alphabet(__m256i c, __m256i rows, __m256i columns) {
  __m256i low = _mm256_and_si256(c, _mm256_set1_epi8(0x0F));
  return _mm256_and_si256(_mm256_shuffle_epi8(columns, low),
                          _mm256_shuffle_epi8(rows, high_nibbles(c)));
}

// Decodes blocks of 32 alphabet characters from `in` (n of them available) to `out`, 24 bytes
// each (writing 32: the caller leaves 8 bytes of slack). Stops before a block holding another
// byte; returns the characters decoded.
[[gnu::target("avx2")]] std::size_t decode_blocks_avx2(const unsigned char* in, std::size_t n,
                                                       char*& out) {
  const __m256i rows = both_lanes(k_row_bits);
  const __m256i columns = both_lanes(k_column_bits);
  const __m256i offsets = both_lanes(k_row_offsets);
  // Two values to 12 bits (first * 64 + second), then two of those to 24 bits.
  const __m256i pair_weights = _mm256_set1_epi32(0x01400140);
  const __m256i quad_weights = _mm256_set1_epi32(0x00011000);
  // The three bytes of each 24-bit group, high byte first, packed to the front of each lane.
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2,
                                         1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i joined = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    __m256i outside = outside_alphabet(c, rows, columns);
    if (_mm256_testz_si256(outside, outside) == 0) {
      break;
    }
    __m256i slash = _mm256_cmpeq_epi8(c, _mm256_set1_epi8('/'));
    __m256i row = _mm256_add_epi8(high_nibbles(c), slash);
    __m256i values = _mm256_add_epi8(c, _mm256_shuffle_epi8(offsets, row));
    __m256i pairs = _mm256_maddubs_epi16(values, pair_weights);
    __m256i quads = _mm256_madd_epi16(pairs, quad_weights);
    __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(quads, order), joined);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bytes);
    out += 24;
  }
  return i;
}

// base64_alphabet_run_end for whole blocks of 32 bytes: where the run ends, or the start of
// the first short block.
[[gnu::target("avx2")]] std::size_t alphabet_run_end_avx2(const unsigned char* data,
                                                          std::size_t pos, std::size_t n) {
  const __m256i rows = both_lanes(k_row_bits);
  const __m256i columns = both_lanes(k_column_bits);
  for (; pos + 32 <= n; pos += 32) {
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + pos));
    __m256i inside = _mm256_cmpeq_epi8(outside_alphabet(c, rows, columns), _mm256_setzero_si256());
    auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(inside));
    if (mask != 0xFFFFFFFFU) {
      return pos + static_cast<std::size_t>(__builtin_ctz(~mask));
    }
  }
  return pos;
}
#endif
} // namespace

void base64_encode_append(std::string& out, std::string_view bytes) {
  std::size_t start = out.size();
  out.resize(start + (bytes.size() + 2) / 3 * 4);
  char* dst = out.data() + start;
  std::size_t i = 0;
  const auto* src = reinterpret_cast<const unsigned char*>(bytes.data());
  for (; i + 3 <= bytes.size(); i += 3) {
    unsigned v = (unsigned{src[i]} << 16) | (unsigned{src[i + 1]} << 8) | src[i + 2];
    *dst++ = k_alphabet[(v >> 18) & 63];
    *dst++ = k_alphabet[(v >> 12) & 63];
    *dst++ = k_alphabet[(v >> 6) & 63];
    *dst++ = k_alphabet[v & 63];
  }
  std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    unsigned v = unsigned{src[i]} << 16;
    if (rest == 2) {
      v |= unsigned{src[i + 1]} << 8;
    }
    *dst++ = k_alphabet[(v >> 18) & 63];
    *dst++ = k_alphabet[(v >> 12) & 63];
    *dst++ = rest == 2 ? k_alphabet[(v >> 6) & 63] : '=';
    *dst++ = '=';
  }
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  base64_encode_append(out, bytes);
  return out;
}

std::size_t base64_alphabet_run_end(std::string_view text, std::size_t pos) {
  // Sixteen bytes are classified at a time.
  constexpr std::size_t k_width = sizeof(Bytes);
  const auto* data = reinterpret_cast<const unsigned char*>(text.data());
#ifdef OPM_BASE64_AVX2
  if (avx2_enabled()) {
    pos = alphabet_run_end_avx2(data, pos, text.size());
    if (pos + 32 <= text.size()) {
      return pos;
    }
  }
#endif
  for (; pos + k_width <= text.size(); pos += k_width) {
    Bytes c;
    std::memcpy(&c, data + pos, k_width);
    Bytes lower = c | 0x20;
    auto ok = ((lower - 'a') < 26) | ((c - '0') < 10) | (c == '+') | (c == '/');
    std::uint64_t halves[2];
    std::memcpy(halves, &ok, sizeof halves);
    if ((halves[0] & halves[1]) != ~std::uint64_t{0}) {
      break;
    }
  }
  while (pos < text.size() && k_decode[data[pos]] != 0xFF) {
    ++pos;
  }
  return pos;
}

Result<std::string> base64_decode(std::string_view src) {
  // Slack past the decoded bytes: the widest block writes eight more than it decodes.
  constexpr std::size_t k_slack = 11;
  std::string out;
  // Every byte kept is written before the string is cut to size: no need to zero it first.
  out.resize_and_overwrite(src.size() / 4 * 3 + k_slack, [](char*, std::size_t n) { return n; });
  char* dst = out.data();
  auto finish = [&]() -> std::string {
    out.resize(static_cast<std::size_t>(dst - out.data()));
    return std::move(out);
  };
  std::size_t si = 0;
  const std::size_t n = src.size();
  const auto* in = reinterpret_cast<const unsigned char*>(src.data());
  for (;;) {
    // Fast paths: 32 (with AVX2), sixteen, then four alphabet characters in a row, each
    // writing past its bytes into the output's slack.
#ifdef OPM_BASE64_AVX2
    if (avx2_enabled()) {
      si += decode_blocks_avx2(in + si, n - si, dst);
    }
#endif
    while (si + 16 <= n && decode_block(in + si, dst)) {
      si += 16;
      dst += 12;
    }
    while (si + 4 <= n) {
      unsigned char a = k_decode[in[si]];
      unsigned char b = k_decode[in[si + 1]];
      unsigned char c = k_decode[in[si + 2]];
      unsigned char d = k_decode[in[si + 3]];
      if ((a | b | c | d) == 0xFF) {
        break;
      }
      unsigned v = (unsigned{a} << 18) | (unsigned{b} << 12) | (unsigned{c} << 6) | d;
      dst[0] = static_cast<char>(v >> 16);
      dst[1] = static_cast<char>((v >> 8) & 0xFF);
      dst[2] = static_cast<char>(v & 0xFF);
      dst += 3;
      si += 4;
    }
    // One quantum the slow way, as Go's decodeQuantum does.
    std::array<unsigned char, 4> dbuf{};
    std::size_t dlen = 4;
    bool done = false;
    for (std::size_t j = 0; j < 4; ++j) {
      if (si == n) {
        if (j == 0) {
          return finish();
        }
        return corrupt(si - j);
      }
      char c = src[si++];
      unsigned char value = k_decode[static_cast<unsigned char>(c)];
      if (value != 0xFF) {
        dbuf[j] = value;
        continue;
      }
      if (is_newline(c)) {
        --j;
        continue;
      }
      if (c != '=') {
        return corrupt(si - 1);
      }
      if (j < 2) {
        return corrupt(si - 1);
      }
      if (j == 2) {
        while (si < n && is_newline(src[si])) {
          ++si;
        }
        if (si == n) {
          return corrupt(n);
        }
        if (src[si] != '=') {
          return corrupt(si - 1);
        }
        ++si;
      }
      while (si < n && is_newline(src[si])) {
        ++si;
      }
      if (si < n) {
        return corrupt(si);
      }
      dlen = j;
      done = true;
      break;
    }
    unsigned v =
        (unsigned{dbuf[0]} << 18) | (unsigned{dbuf[1]} << 12) | (unsigned{dbuf[2]} << 6) | dbuf[3];
    *dst++ = static_cast<char>(v >> 16);
    if (dlen >= 3) {
      *dst++ = static_cast<char>((v >> 8) & 0xFF);
    }
    if (dlen == 4) {
      *dst++ = static_cast<char>(v & 0xFF);
    }
    if (done) {
      return finish();
    }
  }
}

} // namespace opm::util
