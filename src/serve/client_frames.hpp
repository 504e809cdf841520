#pragma once

#include "serve/client_limits.hpp"
#include "util/http2_frames.hpp"

#include <array>
#include <cstdint>
#include <string_view>

// What a client sends, followed through its frame headers as the server reads it: the
// streams it opens and the resets it spends from its budget. Shared by serve/socket_watch.cpp
// and serve/relay.cpp.
namespace opm::serve {

class ClientFrames {
public:
  // Feeds the next bytes the client sent; false once a reset goes over its budget.
  bool allowed(std::string_view bytes);
  // The GOAWAY (ENHANCE_YOUR_CALM) that names the last stream the client opened.
  std::array<char, util::http2::k_goaway_frame_size> goaway() const;

private:
  util::http2::FrameCursor m_cursor{util::http2::k_client_preface_size};
  util::http2::RateBudget m_resets{k_reset_burst, k_resets_per_second};
  std::uint32_t m_last_stream = 0;
};

} // namespace opm::serve
