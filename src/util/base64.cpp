#include "util/base64.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstring>

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
  std::string out;
  out.resize(src.size() / 4 * 3 + 3);
  char* dst = out.data();
  auto finish = [&]() -> std::string {
    out.resize(static_cast<std::size_t>(dst - out.data()));
    return std::move(out);
  };
  std::size_t si = 0;
  const std::size_t n = src.size();
  const auto* in = reinterpret_cast<const unsigned char*>(src.data());
  for (;;) {
    // Fast paths: sixteen, then four alphabet characters in a row. The output has three bytes
    // of slack for decode_block's extra one.
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
