#pragma once

#include "serve/client_frames.hpp"
#include "serve/client_limits.hpp"
#include "util/fs.hpp"
#include "util/http2_frames.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

// One client connection relayed to gRPC's end of a socket pair, both non-blocking and watched
// edge-triggered by the caller. Bytes go both ways unchanged; on the way in, the client's frame
// headers are read, and a client that resets more streams than its budget allows is sent a
// GOAWAY (ENHANCE_YOUR_CALM) after the last whole frame gRPC had answered, and cut off
// before its resets reach gRPC. Bytes are read into a scratch buffer that all relays of a
// thread share and sent on at once; only what the other side cannot take yet is kept, in a
// buffer of the relay's own that exists while bytes wait in it.
namespace opm::serve {

inline constexpr std::size_t k_relay_scratch_size = 1 << 18;

class Relay {
public:
  using Clock = std::chrono::steady_clock;
  enum class Side : std::uint8_t { client = 0, server = 1 };

  // `scratch` is shared by the relays of one thread, at least k_relay_scratch_size bytes.
  Relay(int client_fd, int server_fd, std::span<char> scratch);

  // One side's descriptor reported `events` (epoll's bits): move what can be moved.
  void on_ready(Side side, std::uint32_t events, Clock::time_point now);
  // Called about once a second: ends a relay whose client has read nothing for too long, or
  // has not closed its side in time after the server closed its own.
  void on_tick(Clock::time_point now);
  // Both sides are done; the owner closes the descriptors by destroying the relay.
  bool finished() const { return m_finished; }

private:
  // Bytes one side could not take yet.
  struct Buffer {
    explicit Buffer(std::size_t fill_limit, std::size_t extra = 0)
        : capacity(fill_limit), reserve(extra) {}
    std::unique_ptr<char[]> data; // only while bytes wait
    std::size_t capacity;         // what reads may fill
    std::size_t reserve;          // room beyond it for a GOAWAY
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t pending() const { return end - begin; }
    char* tail();
    void append(const char* bytes, std::size_t n);
    void consumed(std::size_t n);
    void clear();
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
  bool read_server(Clock::time_point now);
  bool write_client(Clock::time_point now);
  void send_to_server(const char* bytes, std::size_t n);
  void server_stopped_reading();
  void send_to_client(const char* bytes, std::size_t n, Clock::time_point now);
  void note_client_progress(std::size_t sent, Clock::time_point now);
  void settle(Clock::time_point now);
  void cut_off();

  util::Fd m_client;
  util::Fd m_server;
  std::span<char> m_scratch;
  Readiness m_client_ready;
  Readiness m_server_ready;
  Buffer m_to_server;
  Buffer m_to_client;
  ClientFrames m_client_frames;
  util::http2::FrameCursor m_server_frames;
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
