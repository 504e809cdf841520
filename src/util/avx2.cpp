#include "util/avx2.hpp"

#include <algorithm>
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

[[gnu::target("avx2")]] std::uint32_t byte_mask(__m256i block, __m256i byte) {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, byte)));
}

// Where '\n', '-' and '\r' are in 32 bytes.
struct BlockMarks {
  std::uint32_t breaks = 0;
  std::uint32_t dashes = 0;
  std::uint32_t returns = 0;
};

[[gnu::target("avx2")]] BlockMarks marks_of(const unsigned char* p) {
  const __m256i block = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return {byte_mask(block, _mm256_set1_epi8('\n')), byte_mask(block, _mm256_set1_epi8('-')),
          byte_mask(block, _mm256_set1_epi8('\r'))};
}

[[gnu::target("avx2")]] std::uint64_t line_break_bits_in(const unsigned char* p) {
  const __m256i newline = _mm256_set1_epi8('\n');
  const std::uint32_t low =
      byte_mask(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), newline);
  const std::uint32_t high =
      byte_mask(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)), newline);
  return low | (std::uint64_t{high} << 32);
}

// Each step takes the lines that end in 32 bytes, with the 32 after them in view, so that what
// starts the next line is always seen.
[[gnu::target("avx2")]] LineRun take_lines_in_blocks(const unsigned char* p, std::size_t pos,
                                                     std::size_t size) {
  LineRun run{pos, 0, 0, false};
  std::size_t line_start = pos;
  BlockMarks here = marks_of(p + pos);
  std::uint32_t return_before = 0; // 1 when the byte before this block is '\r'
  for (std::size_t block = pos; block + 64 <= size; block += 32) {
    const BlockMarks next = marks_of(p + block + 32);
    if (here.breaks != 0) {
      const std::uint64_t dashes = here.dashes | (std::uint64_t{next.dashes} << 32);
      const std::uint64_t before_separator =
          here.breaks & (dashes >> 1) & (dashes >> 2) & (dashes >> 3) & 0xFFFFFFFFU;
      std::uint32_t taken = here.breaks;
      if (before_separator != 0) {
        const std::uint64_t first = before_separator & (~before_separator + 1);
        taken &= static_cast<std::uint32_t>(first | (first - 1));
      }
      const std::uint32_t after_return = ((here.returns << 1) | return_before) & taken;
      run.crlf = run.crlf || after_return != 0;
      for (; taken != 0; taken &= taken - 1) {
        const auto bit = static_cast<unsigned>(__builtin_ctz(taken));
        const std::size_t at = block + bit;
        const std::size_t cr = (after_return >> bit) & 1U;
        run.longest = std::max(run.longest, at - line_start - cr);
        ++run.lines;
        line_start = at + 1;
      }
      if (before_separator != 0) {
        break;
      }
    }
    return_before = here.returns >> 31;
    here = next;
  }
  run.end = line_start;
  return run;
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

std::size_t LineBreakFinder::find_from(std::size_t pos) {
  if (avx2_enabled()) {
    for (; pos + 64 <= m_size; pos += 64) {
      if (const std::uint64_t breaks = detail::line_break_bits_avx2(m_text + pos); breaks != 0) {
        m_window = pos;
        m_breaks = breaks;
        return pos + static_cast<std::size_t>(__builtin_ctzll(breaks));
      }
    }
  }
  m_window = k_no_window;
  if (pos >= m_size) {
    return m_size;
  }
  const void* found = std::memchr(m_text + pos, '\n', m_size - pos);
  return found == nullptr
             ? m_size
             : static_cast<std::size_t>(static_cast<const unsigned char*>(found) - m_text);
}

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

std::uint64_t line_break_bits_avx2(const unsigned char* p) {
#ifdef OPM_AVX2_FORMS
  return line_break_bits_in(p);
#else
  (void)p;
  return 0;
#endif
}

LineRun take_lines_avx2(const unsigned char* p, std::size_t pos, std::size_t size) {
#ifdef OPM_AVX2_FORMS
  return take_lines_in_blocks(p, pos, size);
#else
  (void)p;
  (void)size;
  return {pos, 0, 0, false};
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
