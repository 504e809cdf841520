#include "util/avx2.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#define OPM_AVX2_FORMS 1
#endif

namespace opm::util {

namespace {

bool processor_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
#else
  return false;
#endif
}

#ifdef OPM_AVX2_FORMS
template <char... Stops>
[[gnu::target("avx2")]] std::size_t skip_blocks_avx2(const unsigned char* p, std::size_t pos,
                                                     std::size_t size) {
  const __m256i space = _mm256_set1_epi8(0x20);
  for (; pos + 32 <= size; pos += 32) {
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + pos));
    // Signed, so bytes of 0x80 and above count as below the space too.
    __m256i marked = _mm256_cmpgt_epi8(space, c);
    ((marked = _mm256_or_si256(marked, _mm256_cmpeq_epi8(c, _mm256_set1_epi8(Stops)))), ...);
    auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(marked));
    if (mask != 0) {
      return pos + static_cast<std::size_t>(__builtin_ctz(mask));
    }
  }
  return pos;
}

[[gnu::target("avx2")]] std::size_t skip_text_avx2(const unsigned char* p, std::size_t pos,
                                                   std::size_t size) {
  const __m256i space = _mm256_set1_epi8(0x20);
  const __m256i newline = _mm256_set1_epi8('\n');
  const __m256i del = _mm256_set1_epi8(0x7F);
  for (; pos + 32 <= size; pos += 32) {
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + pos));
    // Signed, so bytes of 0x80 and above count as below the space too.
    __m256i below = _mm256_andnot_si256(_mm256_cmpeq_epi8(c, newline), _mm256_cmpgt_epi8(space, c));
    __m256i marked = _mm256_or_si256(below, _mm256_cmpeq_epi8(c, del));
    auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(marked));
    if (mask != 0) {
      return pos + static_cast<std::size_t>(__builtin_ctz(mask));
    }
  }
  return pos;
}

template <char... Stops>
[[gnu::target("avx2")]] PlainCopy escape_blocks_avx2(const unsigned char* p, std::size_t pos,
                                                     std::size_t size, char* out) {
  const __m256i space = _mm256_set1_epi8(0x20);
  while (pos + 32 <= size) {
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + pos));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), c);
    __m256i marked = _mm256_cmpgt_epi8(space, c);
    ((marked = _mm256_or_si256(marked, _mm256_cmpeq_epi8(c, _mm256_set1_epi8(Stops)))), ...);
    const auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(marked));
    if (mask == 0) {
      pos += 32;
      out += 32;
      continue;
    }
    const auto plain = static_cast<std::size_t>(__builtin_ctz(mask));
    pos += plain;
    out += plain;
    if (p[pos] >= 0x80) {
      return {pos, out};
    }
    out = write_json_escape(out, p[pos]);
    ++pos;
  }
  return {pos, out};
}
#endif

} // namespace

char* write_json_escape(char* out, unsigned char c) {
  static constexpr auto k_short = [] {
    std::array<char, 128> t{};
    t['"'] = '"';
    t['\\'] = '\\';
    t['\b'] = 'b';
    t['\f'] = 'f';
    t['\n'] = 'n';
    t['\r'] = 'r';
    t['\t'] = 't';
    return t;
  }();
  constexpr char k_hex[] = "0123456789abcdef";
  if (const char second = k_short[c]; second != 0) {
    out[0] = '\\';
    out[1] = second;
    return out + 2;
  }
  std::memcpy(out, "\\u00", 4);
  out[4] = k_hex[c >> 4];
  out[5] = k_hex[c & 0xF];
  return out + 6;
}

namespace detail {
std::atomic<bool> g_avx2_on{processor_has_avx2()};
} // namespace detail

void set_avx2_enabled(bool enabled) {
  detail::g_avx2_on.store(enabled && processor_has_avx2(), std::memory_order_relaxed);
}

namespace detail {

std::size_t skip_plain_blocks_avx2(const unsigned char* p, std::size_t pos, std::size_t size,
                                   PlainStops stops) {
#ifdef OPM_AVX2_FORMS
  switch (stops) {
  case PlainStops::json_string:
    return skip_blocks_avx2<'"', '\\'>(p, pos, size);
  case PlainStops::json_string_html:
    return skip_blocks_avx2<'"', '\\', '<', '>', '&'>(p, pos, size);
  case PlainStops::printable:
    return skip_blocks_avx2<'\x7F'>(p, pos, size);
  }
#endif
  (void)p;
  (void)size;
  (void)stops;
  return pos;
}

std::size_t skip_text_blocks_avx2(const unsigned char* p, std::size_t pos, std::size_t size) {
#ifdef OPM_AVX2_FORMS
  return skip_text_avx2(p, pos, size);
#else
  (void)p;
  (void)size;
  return pos;
#endif
}

PlainCopy copy_json_string_blocks_avx2(const unsigned char* p, std::size_t pos, std::size_t size,
                                       char* out, bool html) {
#ifdef OPM_AVX2_FORMS
  return html ? escape_blocks_avx2<'"', '\\', '<', '>', '&'>(p, pos, size, out)
              : escape_blocks_avx2<'"', '\\'>(p, pos, size, out);
#else
  (void)p;
  (void)size;
  (void)html;
  return {pos, out};
#endif
}

} // namespace detail

} // namespace opm::util
