#include "serve/relay.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sys/epoll.h>
#include <sys/socket.h>

namespace opm::serve {

namespace {

namespace h2 = util::http2;

// Requests are small; answers (a bundle, a listing) are moved in large pieces, so that each
// costs few reads and writes.
constexpr std::size_t k_request_buffer_size = 1 << 16;
constexpr std::size_t k_answer_buffer_size = 1 << 18;

enum class Io { moved, would_block, closed };

// read(2) or send(2) of up to `size` bytes: `n` is set to what moved.
Io read_into(int fd, char* data, std::size_t size, std::size_t& n) {
  for (;;) {
    ssize_t got = ::read(fd, data, size);
    if (got > 0) {
      n = static_cast<std::size_t>(got);
      return Io::moved;
    }
    if (got < 0 && errno == EINTR) {
      continue;
    }
    return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? Io::would_block : Io::closed;
  }
}

Io send_from(int fd, const char* data, std::size_t size, std::size_t& n) {
  for (;;) {
    ssize_t sent = ::send(fd, data, size, MSG_NOSIGNAL);
    if (sent > 0) {
      n = static_cast<std::size_t>(sent);
      return Io::moved;
    }
    if (sent < 0 && errno == EINTR) {
      continue;
    }
    return sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? Io::would_block : Io::closed;
  }
}

// send_from, when the descriptor is known to take bytes; keeps `ready.writable` up to date.
Io send_ready(int fd, bool& writable, const char* data, std::size_t size, std::size_t& n) {
  n = 0;
  if (!writable) {
    return Io::would_block;
  }
  Io io = send_from(fd, data, size, n);
  if (io == Io::would_block || (io == Io::moved && n < size)) {
    writable = false;
  }
  return io;
}

} // namespace

char* Relay::Buffer::tail() {
  if (!data) {
    data = std::make_unique_for_overwrite<char[]>(capacity + reserve);
  }
  return data.get() + end;
}

void Relay::Buffer::append(const char* bytes, std::size_t n) {
  std::memcpy(tail(), bytes, n);
  end += n;
}

void Relay::Buffer::consumed(std::size_t n) {
  begin += n;
  if (begin == end) {
    clear();
  }
}

void Relay::Buffer::clear() {
  begin = end = 0;
  data.reset();
}

Relay::Relay(int client_fd, int server_fd, std::span<char> scratch)
    : m_client(client_fd), m_server(server_fd), m_scratch(scratch),
      m_to_server(k_request_buffer_size),
      m_to_client(k_answer_buffer_size, h2::k_goaway_frame_size) {}

void Relay::on_ready(Side side, std::uint32_t events, Clock::time_point now) {
  Readiness& ready = side == Side::client ? m_client_ready : m_server_ready;
  if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
    ready.readable = true;
  }
  if ((events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
    ready.hung_up = true;
  }
  if ((events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) != 0) {
    ready.writable = true;
  }
  pump(now);
}

void Relay::on_tick(Clock::time_point now) {
  if (m_client_stalled_since && now - *m_client_stalled_since > k_client_stall) {
    m_finished = true;
  }
  if (m_closed_to_client_at && now - *m_closed_to_client_at > k_client_close) {
    m_finished = true;
  }
}

void Relay::pump(Clock::time_point now) {
  while (!m_finished) {
    bool moved = read_client();
    moved = write_server() || moved;
    moved = read_server(now) || moved;
    moved = write_client(now) || moved;
    if (!moved) {
      break;
    }
  }
  settle(now);
}

bool Relay::read_client() {
  if (!m_client_ready.readable || m_client_eof || m_to_server.pending() > 0) {
    return false;
  }
  std::size_t n = 0;
  switch (read_into(m_client.fd, m_scratch.data(), m_to_server.capacity, n)) {
  case Io::would_block:
    m_client_ready.readable = false;
    return false;
  case Io::closed:
    m_client_eof = true;
    return true;
  case Io::moved:
    break;
  }
  if (n < m_to_server.capacity) {
    m_client_ready.short_read(); // a new arrival is reported again
  }
  if (m_dropping_client_input) {
    return true;
  }
  if (!m_client_frames.allowed({m_scratch.data(), n})) {
    cut_off();
    return true;
  }
  send_to_server(m_scratch.data(), n);
  return true;
}

bool Relay::write_server() {
  if (m_to_server.pending() == 0) {
    return false;
  }
  std::size_t sent = 0;
  if (send_ready(m_server.fd, m_server_ready.writable, m_to_server.data.get() + m_to_server.begin,
                 m_to_server.pending(), sent) == Io::closed) {
    server_stopped_reading();
    return true;
  }
  m_to_server.consumed(sent);
  return sent > 0;
}

// Sends what gRPC takes of `bytes` now; the rest waits in m_to_server.
void Relay::send_to_server(const char* bytes, std::size_t n) {
  std::size_t sent = 0;
  if (send_ready(m_server.fd, m_server_ready.writable, bytes, n, sent) == Io::closed) {
    server_stopped_reading();
    return;
  }
  m_to_server.append(bytes + sent, n - sent);
}

// gRPC has gone: what the client still sends is read and dropped.
void Relay::server_stopped_reading() {
  m_dropping_client_input = true;
  m_to_server.clear();
}

bool Relay::read_server(Clock::time_point now) {
  if (!m_server_ready.readable || m_server_eof || m_to_client.end == m_to_client.capacity) {
    return false;
  }
  // Into the scratch buffer when nothing waits for the client, else behind what waits.
  bool direct = m_to_client.pending() == 0;
  std::size_t room = m_to_client.capacity - m_to_client.end;
  char* into = direct ? m_scratch.data() : m_to_client.tail();
  std::size_t n = 0;
  switch (read_into(m_server.fd, into, room, n)) {
  case Io::would_block:
    m_server_ready.readable = false;
    return false;
  case Io::closed:
    m_server_eof = true;
    return true;
  case Io::moved:
    break;
  }
  if (n < room) {
    m_server_ready.short_read();
  }
  m_server_frames.feed({into, n}, [](const h2::FrameHeader&) { return true; });
  if (direct) {
    send_to_client(into, n, now);
  } else {
    m_to_client.end += n;
  }
  return true;
}

bool Relay::write_client(Clock::time_point now) {
  if (m_to_client.pending() == 0 || m_client_write_closed) {
    return false;
  }
  std::size_t sent = 0;
  if (send_ready(m_client.fd, m_client_ready.writable, m_to_client.data.get() + m_to_client.begin,
                 m_to_client.pending(), sent) == Io::closed) {
    m_finished = true; // the client is gone
    return false;
  }
  m_to_client.consumed(sent);
  note_client_progress(sent, now);
  return sent > 0;
}

// Sends what the client takes of `bytes` now; the rest waits in m_to_client.
void Relay::send_to_client(const char* bytes, std::size_t n, Clock::time_point now) {
  std::size_t sent = 0;
  if (send_ready(m_client.fd, m_client_ready.writable, bytes, n, sent) == Io::closed) {
    m_finished = true;
    return;
  }
  m_to_client.append(bytes + sent, n - sent);
  note_client_progress(sent, now);
}

// A client that takes nothing for k_client_stall while bytes wait for it is let go.
void Relay::note_client_progress(std::size_t sent, Clock::time_point now) {
  if (sent > 0 || m_to_client.pending() == 0) {
    m_client_stalled_since.reset();
  }
  if (m_to_client.pending() > 0 && !m_client_stalled_since) {
    m_client_stalled_since = now;
  }
}

// Each end is closed as TCP closes gracefully: what one side sent before it closed reaches
// the other, then a FIN; nothing unread is left behind to turn the close into a reset, which
// could cost the client the end of an answer.
void Relay::settle(Clock::time_point now) {
  if (m_client_eof && m_to_server.pending() == 0 && !m_server_write_closed) {
    ::shutdown(m_server.fd, SHUT_WR);
    m_server_write_closed = true;
  }
  if (m_server_eof && m_to_client.pending() == 0 && !m_client_write_closed) {
    ::shutdown(m_client.fd, SHUT_WR);
    m_client_write_closed = true;
    m_closed_to_client_at = now;
    m_dropping_client_input = true;
  }
  if (m_client_write_closed && m_client_eof) {
    m_finished = true;
  }
}

// The client is over its budget: gRPC loses the connection at once; the client gets what
// gRPC had sent up to its last whole frame, a GOAWAY naming the last stream it opened, then
// the end of the connection.
void Relay::cut_off() {
  m_dropping_client_input = true;
  m_to_server.clear();
  ::shutdown(m_server.fd, SHUT_RDWR);
  m_server_eof = true;
  m_server_write_closed = true;
  std::uint64_t sent = m_server_frames.offset() - m_to_client.pending();
  std::uint64_t boundary = m_server_frames.last_boundary();
  if (boundary < sent) {
    m_finished = true; // the client already has part of a frame that cannot be completed
    return;
  }
  m_to_client.end = m_to_client.begin + static_cast<std::size_t>(boundary - sent);
  auto goaway = m_client_frames.goaway();
  m_to_client.append(goaway.data(), goaway.size());
}

} // namespace opm::serve
