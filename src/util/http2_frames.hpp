#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

// What a relay needs to know of an HTTP/2 connection without decoding it: where each frame
// begins and ends, which frames reset streams, and how to say GOAWAY.
namespace opm::util::http2 {

inline constexpr std::size_t k_client_preface_size = 24; // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
inline constexpr std::size_t k_frame_header_size = 9;
inline constexpr std::size_t k_goaway_frame_size = k_frame_header_size + 8;

enum class FrameType : std::uint8_t { data = 0, headers = 1, rst_stream = 3, goaway = 7 };
// RFC 9113, 7: the peer is doing something that may generate excessive load.
inline constexpr std::uint32_t k_enhance_your_calm = 0xb;

struct FrameHeader {
  std::uint32_t length = 0;
  std::uint8_t type = 0;
  std::uint32_t stream_id = 0;
};

// Follows one direction of a connection through the 9-byte headers of its frames, after an
// optional preface. `feed` is given the bytes in order, in pieces of any size.
class FrameCursor {
public:
  explicit FrameCursor(std::size_t preface_size = 0) : m_preface_left(preface_size) {}

  // Calls on_header(const FrameHeader&) for each header completed in `bytes`, in order; stops
  // early, returning false, when on_header returns false.
  template <class OnHeader> bool feed(std::string_view bytes, OnHeader&& on_header);

  // Bytes fed so far.
  std::uint64_t offset() const { return m_offset; }
  // The offset of the last point between two frames (or after the preface).
  std::uint64_t last_boundary() const { return m_last_boundary; }
  // Between two frames now: every byte fed belongs to a whole frame.
  bool at_boundary() const { return m_last_boundary == m_offset; }
  // Feeds the start of `bytes` up to the end of the frame under way, and returns how many
  // bytes that took: all of them when the frame goes on past them.
  std::size_t advance_to_boundary(std::string_view bytes);

private:
  std::size_t take_preface_or_payload(std::string_view bytes);
  std::size_t take_header_bytes(std::string_view bytes);
  FrameHeader complete_header();

  std::size_t m_preface_left;
  std::uint64_t m_payload_left = 0;
  std::array<unsigned char, k_frame_header_size> m_header{};
  std::size_t m_header_size = 0;
  std::uint64_t m_offset = 0;
  std::uint64_t m_last_boundary = 0;
};

// A token bucket: `burst` at once, `per_second` more each second after that.
class RateBudget {
public:
  RateBudget(int burst, int per_second);
  bool spend();

private:
  double m_burst;
  double m_per_second;
  double m_tokens;
  std::chrono::steady_clock::time_point m_last;
};

// A GOAWAY frame: no stream after `last_stream_id` was or will be processed.
std::array<char, k_goaway_frame_size> goaway_frame(std::uint32_t last_stream_id,
                                                   std::uint32_t error_code);

template <class OnHeader> bool FrameCursor::feed(std::string_view bytes, OnHeader&& on_header) {
  while (!bytes.empty()) {
    if (m_preface_left > 0 || m_payload_left > 0) {
      bytes.remove_prefix(take_preface_or_payload(bytes));
      continue;
    }
    bytes.remove_prefix(take_header_bytes(bytes));
    if (m_header_size == k_frame_header_size && !on_header(complete_header())) {
      return false;
    }
  }
  return true;
}

} // namespace opm::util::http2
