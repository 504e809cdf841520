#include "util/http2_frames.hpp"

#include <algorithm>

namespace opm::util::http2 {

namespace {

std::uint32_t big_endian(const unsigned char* p, int bytes) {
  std::uint32_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value = (value << 8) | p[i];
  }
  return value;
}

void put_big_endian(char* p, std::uint32_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    p[i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
}

} // namespace

std::size_t FrameCursor::take_preface_or_payload(std::string_view bytes) {
  std::size_t n = 0;
  if (m_preface_left > 0) {
    n = std::min(m_preface_left, bytes.size());
    m_preface_left -= n;
  } else {
    n = static_cast<std::size_t>(std::min<std::uint64_t>(m_payload_left, bytes.size()));
    m_payload_left -= n;
  }
  m_offset += n;
  if (m_preface_left == 0 && m_payload_left == 0) {
    m_last_boundary = m_offset;
  }
  return n;
}

std::size_t FrameCursor::take_header_bytes(std::string_view bytes) {
  auto n = std::min(k_frame_header_size - m_header_size, bytes.size());
  std::copy_n(bytes.begin(), n, m_header.begin() + static_cast<std::ptrdiff_t>(m_header_size));
  m_header_size += n;
  m_offset += n;
  return n;
}

std::size_t FrameCursor::advance_to_boundary(std::string_view bytes) {
  std::string_view rest = bytes;
  while (!rest.empty()) {
    if (m_preface_left > 0 || m_payload_left > 0) {
      rest.remove_prefix(take_preface_or_payload(rest));
    } else {
      rest.remove_prefix(take_header_bytes(rest));
      if (m_header_size == k_frame_header_size) {
        complete_header();
      }
    }
    if (at_boundary()) {
      break;
    }
  }
  return bytes.size() - rest.size();
}

FrameHeader FrameCursor::complete_header() {
  m_header_size = 0;
  FrameHeader header{big_endian(m_header.data(), 3), m_header[3],
                     big_endian(m_header.data() + 5, 4) & 0x7fffffffU};
  m_payload_left = header.length;
  if (m_payload_left == 0) {
    m_last_boundary = m_offset;
  }
  return header;
}

RateBudget::RateBudget(int burst, int per_second)
    : m_burst(burst), m_per_second(per_second), m_tokens(burst),
      m_last(std::chrono::steady_clock::now()) {}

bool RateBudget::spend() {
  auto now = std::chrono::steady_clock::now();
  std::chrono::duration<double> elapsed = now - m_last;
  m_last = now;
  m_tokens = std::min(m_burst, m_tokens + elapsed.count() * m_per_second);
  if (m_tokens < 1) {
    return false;
  }
  m_tokens -= 1;
  return true;
}

std::array<char, k_goaway_frame_size> goaway_frame(std::uint32_t last_stream_id,
                                                   std::uint32_t error_code) {
  std::array<char, k_goaway_frame_size> frame{};
  put_big_endian(frame.data(), 8, 3);
  frame[3] = static_cast<char>(FrameType::goaway);
  put_big_endian(frame.data() + k_frame_header_size, last_stream_id & 0x7fffffffU, 4);
  put_big_endian(frame.data() + k_frame_header_size + 4, error_code, 4);
  return frame;
}

} // namespace opm::util::http2
