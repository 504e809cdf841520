#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

// A few byte loops (base64, skipping plain text in JSON strings and YAML lines) have an AVX2
// form, 32 bytes a step, beside the portable one. Which runs is chosen when the loop is
// entered, so one binary runs on every x86-64 processor and elsewhere.
namespace opm::util {

namespace detail {
// Set while static objects are made (false until then, so the portable forms run).
extern std::atomic<bool> g_avx2_on;
} // namespace detail

// Whether the AVX2 forms run: the processor has AVX2 and nothing has turned them off.
inline bool avx2_enabled() { return detail::g_avx2_on.load(std::memory_order_relaxed); }

// Turns the AVX2 forms off (or back on, where the processor has AVX2), so that tests can
// check the portable forms on the same machine.
void set_avx2_enabled(bool enabled);

// What ends a run of plain bytes, besides a control character or a byte of 0x80 and above.
enum class PlainStops {
  json_string,      // '"' and '\\'
  json_string_html, // '"', '\\', '<', '>' and '&'
  printable,        // 0x7F
};

// Where copy_plain_blocks stopped: the next byte to read and the next byte to write.
struct PlainCopy {
  std::size_t pos;
  char* out;
};

// Whole lines taken by take_lines.
struct LineRun {
  std::size_t end = 0;     // the start of the first line not taken
  std::size_t lines = 0;   // how many were taken
  std::size_t longest = 0; // the longest taken, in bytes, without its "\n" or "\r\n"
  bool crlf = false;       // whether one taken ends with "\r\n"
};

namespace detail {
// Where '\n' is in the 64 bytes at `p`, as bits, low first. Only where AVX2 runs.
std::uint64_t line_break_bits_avx2(const unsigned char* p);
// take_lines where AVX2 runs and 64 bytes are left.
LineRun take_lines_avx2(const unsigned char* p, std::size_t pos, std::size_t size);
// skip_plain_blocks where AVX2 runs and at least one block is left.
std::size_t skip_plain_blocks_avx2(const unsigned char* p, std::size_t pos, std::size_t size,
                                   PlainStops stops);
// skip_text_blocks where AVX2 runs and at least one block is left.
std::size_t skip_text_blocks_avx2(const unsigned char* p, std::size_t pos, std::size_t size);
// copy_json_string_blocks where AVX2 runs and at least one block is left.
PlainCopy copy_json_string_blocks_avx2(const unsigned char* p, std::size_t pos, std::size_t size,
                                       char* out, bool html);
} // namespace detail

// Skips whole blocks of 32 plain bytes. Returns the first position from `pos` on of a byte
// that is not plain, or the start of the first block of fewer than 32 bytes, for the caller to
// go on from. Returns `pos` where the AVX2 forms do not run.
inline std::size_t skip_plain_blocks(const unsigned char* p, std::size_t pos, std::size_t size,
                                     PlainStops stops) {
  if (pos + 32 > size || !avx2_enabled()) {
    return pos;
  }
  return detail::skip_plain_blocks_avx2(p, pos, size, stops);
}

// Skips whole blocks of 32 bytes of lines of text: printable ASCII (0x20 to 0x7E) and '\n'.
// Returns the first position from `pos` on of any other byte, or the start of the first block
// of fewer than 32 bytes; `pos` where the AVX2 forms do not run.
inline std::size_t skip_text_blocks(const unsigned char* p, std::size_t pos, std::size_t size) {
  if (pos + 32 > size || !avx2_enabled()) {
    return pos;
  }
  return detail::skip_text_blocks_avx2(p, pos, size);
}

// Takes the whole lines from `pos`, the start of a line that does not start with "---", up to
// the first line that does (a YAML document separator) or to the last 64 bytes of the text, 32
// bytes a step; the caller reads the rest line by line. Takes none where the AVX2 forms do not
// run.
inline LineRun take_lines(const unsigned char* p, std::size_t pos, std::size_t size) {
  if (pos + 64 > size || !avx2_enabled()) {
    return {pos, 0, 0, false};
  }
  return detail::take_lines_avx2(p, pos, size);
}

// Finds the line breaks ('\n') of a text from left to right, 64 bytes a step where AVX2 runs:
// a line's end is then found in a few instructions instead of a call.
class LineBreakFinder {
public:
  explicit LineBreakFinder(std::string_view text)
      : m_text(reinterpret_cast<const unsigned char*>(text.data())), m_size(text.size()) {}

  // The first '\n' at or after `pos`, or the text's size; fastest when each `pos` is past the
  // answer before.
  std::size_t next(std::size_t pos) {
    const std::size_t offset = pos - m_window; // wraps to a large number before the window
    if (offset < 64) {
      if (const std::uint64_t ahead = m_breaks >> offset; ahead != 0) {
        return pos + static_cast<std::size_t>(__builtin_ctzll(ahead));
      }
      pos = m_window + 64;
    }
    return find_from(pos);
  }

private:
  static constexpr std::size_t k_no_window = static_cast<std::size_t>(-1) - 64;

  std::size_t find_from(std::size_t pos);

  const unsigned char* m_text;
  std::size_t m_size;
  std::size_t m_window = k_no_window; // where the 64 bytes of m_breaks start
  std::uint64_t m_breaks = 0;
};

// The escape of an ASCII byte a JSON string cannot hold as it is ('"', '\\', a control
// character, or an HTML character where those are escaped), as Go's encoder writes it: two
// bytes, or six for \u00XX. Written at `out`; returns its end.
char* write_json_escape(char* out, unsigned char c);

// A JSON string's bytes copied to `out` 32 at a time, each ASCII byte that needs it written as
// its escape ('"', '\\', a control character and, with `html`, '<', '>' and '&', as Go's
// encoder writes them), up to the first byte of 0x80 or above or the start of the last block
// of fewer than 32 bytes. Blocks are stored whole, so `out` needs six bytes of room for each
// byte left besides. Returns `pos` and `out` where the AVX2 forms do not run.
inline PlainCopy copy_json_string_blocks(const unsigned char* p, std::size_t pos, std::size_t size,
                                         char* out, bool html) {
  if (pos + 32 > size || !avx2_enabled()) {
    return {pos, out};
  }
  return detail::copy_json_string_blocks_avx2(p, pos, size, out, html);
}

} // namespace opm::util
