#include "serve/client_frames.hpp"

namespace opm::serve {

namespace h2 = util::http2;

bool ClientFrames::allowed(std::string_view bytes) {
  return m_cursor.feed(bytes, [this](const h2::FrameHeader& header) {
    if (header.type == static_cast<std::uint8_t>(h2::FrameType::headers) &&
        header.stream_id > m_last_stream) {
      m_last_stream = header.stream_id;
    }
    return header.type != static_cast<std::uint8_t>(h2::FrameType::rst_stream) || m_resets.spend();
  });
}

std::array<char, h2::k_goaway_frame_size> ClientFrames::goaway() const {
  return h2::goaway_frame(m_last_stream, h2::k_enhance_your_calm);
}

} // namespace opm::serve
