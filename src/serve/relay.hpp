#pragma once

#include "util/fs.hpp"
#include "util/http2_frames.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

// One client connection relayed to gRPC's end of a socket pair, both non-blocking and watched
// edge-triggered by the caller. Bytes go both ways unchanged; on the way in, the client's frame
// headers are read, and a client that resets more streams than its budget allows is sent a
// GOAWAY (ENHANCE_YOUR_CALM) after the last whole frame gRPC had answered, and cut off
// before its resets reach gRPC.
namespace opm::serve {

// A connection may reset k_reset_burst streams at once, and k_resets_per_second more each
// second after that.
inline constexpr int k_reset_burst = 200;
inline constexpr int k_resets_per_second = 100;

class Relay {
public:
  using Clock = std::chrono::steady_clock;
  enum class Side : std::uint8_t { client = 0, server = 1 };

  Relay(int client_fd, int server_fd);

  // One side's descriptor reported `events` (epoll's bits): move what can be moved.
  void on_ready(Side side, std::uint32_t events, Clock::time_point now);
  // Called about once a second: ends a relay whose client has read nothing for too long, or
  // has not closed its side in time after the server closed its own.
  void on_tick(Clock::time_point now);
  // Both sides are done; the owner closes the descriptors by destroying the relay.
  bool finished() const { return m_finished; }

  int client_fd() const { return m_client.fd; }
  int server_fd() const { return m_server.fd; }

private:
  struct Buffer {
    explicit Buffer(std::size_t capacity, std::size_t reserve = 0);
    std::unique_ptr<char[]> data;
    std::size_t capacity; // what reads may fill
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t pending() const { return end - begin; }
    void consumed(std::size_t n);
  };
  struct Readiness {
    bool readable = false;
    bool writable = true;
    // The peer has closed (or shut down) its side: reads go on until they see the end, as no
    // further edge will say so.
    bool hung_up = false;
    void short_read() { readable = hung_up; }
  };

  void pump(Clock::time_point now);
  bool read_client();
  bool write_server();
  bool read_server();
  bool write_client(Clock::time_point now);
  void settle(Clock::time_point now);
  bool client_frames_allowed(std::string_view bytes);
  void cut_off();

  util::Fd m_client;
  util::Fd m_server;
  Readiness m_client_ready;
  Readiness m_server_ready;
  Buffer m_to_server;
  Buffer m_to_client;
  util::http2::FrameCursor m_client_frames{util::http2::k_client_preface_size};
  util::http2::FrameCursor m_server_frames;
  util::http2::RateBudget m_resets{k_reset_burst, k_resets_per_second};
  std::uint32_t m_last_client_stream = 0;
  bool m_client_eof = false;
  bool m_server_eof = false;
  bool m_server_write_closed = false;
  bool m_client_write_closed = false;
  bool m_dropping_client_input = false;
  bool m_finished = false;
  std::optional<Clock::time_point> m_client_stalled_since;
  std::optional<Clock::time_point> m_closed_to_client_at;
};

} // namespace opm::serve
