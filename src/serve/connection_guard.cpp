#include "serve/connection_guard.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <grpcpp/server_posix.h>
#include <memory>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string_view>
#include <sys/socket.h>
#include <sys/time.h>

namespace opm::serve {

namespace {

constexpr std::size_t k_preface_size = 24; // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
constexpr std::size_t k_frame_header_size = 9;
constexpr unsigned char k_rst_stream = 3;
// Requests are small; answers (a bundle, a listing) are copied in large pieces, so that each
// costs few reads and writes.
constexpr std::size_t k_request_buffer_size = 1 << 16;
constexpr std::size_t k_answer_buffer_size = 1 << 18;
// How long a client that reads nothing may hold up a write, and how long it has to close its
// side once the server closed its own.
constexpr time_t k_client_stall_seconds = 10;
constexpr time_t k_client_close_seconds = 1;

// Resets a connection may still make: a bucket of k_reset_burst tokens, refilled at
// k_resets_per_second.
class ResetBudget {
public:
  bool spend() {
    auto now = std::chrono::steady_clock::now();
    std::chrono::duration<double> elapsed = now - m_last;
    m_last = now;
    m_tokens = std::min<double>(k_reset_burst, m_tokens + elapsed.count() * k_resets_per_second);
    if (m_tokens < 1) {
      return false;
    }
    m_tokens -= 1;
    return true;
  }

private:
  double m_tokens = k_reset_burst;
  std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

// Follows the frames a client sends, only as far as their 9-byte headers: the connection
// preface, then each header and the payload it announces.
class ClientFrames {
public:
  // False once the client has reset more streams than its budget allows.
  bool feed(std::string_view bytes) {
    while (!bytes.empty()) {
      if (m_preface_left > 0) {
        auto n = std::min(m_preface_left, bytes.size());
        m_preface_left -= n;
        bytes.remove_prefix(n);
      } else if (m_payload_left > 0) {
        auto n = std::min<std::size_t>(m_payload_left, bytes.size());
        m_payload_left -= n;
        bytes.remove_prefix(n);
      } else {
        auto n = std::min(k_frame_header_size - m_header_size, bytes.size());
        std::copy_n(bytes.begin(), n,
                    m_header.begin() + static_cast<std::ptrdiff_t>(m_header_size));
        m_header_size += n;
        bytes.remove_prefix(n);
        if (m_header_size == k_frame_header_size && !on_header()) {
          return false;
        }
      }
    }
    return true;
  }

private:
  bool on_header() {
    m_header_size = 0;
    m_payload_left = (std::size_t{m_header[0]} << 16) | (std::size_t{m_header[1]} << 8) |
                     std::size_t{m_header[2]};
    return m_header[3] != k_rst_stream || m_budget.spend();
  }

  std::size_t m_preface_left = k_preface_size;
  std::array<unsigned char, k_frame_header_size> m_header{};
  std::size_t m_header_size = 0;
  std::size_t m_payload_left = 0;
  ResetBudget m_budget;
};

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// A buffer whose pages are only taken up as data arrives in them.
struct Buffer {
  explicit Buffer(std::size_t bytes)
      : data(std::make_unique_for_overwrite<char[]>(bytes)), size(bytes) {}
  std::unique_ptr<char[]> data;
  std::size_t size;
};

ssize_t read_some(int fd, Buffer& buffer) {
  for (;;) {
    ssize_t n = ::read(fd, buffer.data.get(), buffer.size);
    if (n >= 0 || errno != EINTR) {
      return n;
    }
  }
}

// One client connection and the server's end of its socket pair, two threads copying between
// them, one each way. Each end is closed as TCP closes gracefully: what one side sent before
// it closed reaches the other, then a FIN; nothing unread is left behind to turn the close
// into a reset, which could cost the client the end of an answer. A client over its reset
// budget is cut off at once.
struct Relay {
  Relay(int client_fd, int server_fd) : client(client_fd), server(server_fd) {}
  util::Fd client;
  util::Fd server;
  // Set once the server closed its end; the client's reader, woken every
  // k_client_close_seconds, then stops at the client's next silence.
  std::atomic<bool> server_gone = false;

  void client_to_server() {
    Buffer buffer(k_request_buffer_size);
    ClientFrames frames;
    bool server_reads = true;
    for (;;) {
      ssize_t n = read_some(client.fd, buffer);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !server_gone) {
        continue; // a quiet client: the read only woke to look at the server
      }
      if (n <= 0) {
        break; // the client is done, or gone, or silent after the server left
      }
      if (!frames.feed({buffer.data.get(), static_cast<std::size_t>(n)})) {
        ::shutdown(client.fd, SHUT_RDWR);
        ::shutdown(server.fd, SHUT_RDWR);
        return;
      }
      // Once the server has gone, what the client still sends is read and dropped.
      server_reads =
          server_reads && write_all(server.fd, buffer.data.get(), static_cast<std::size_t>(n));
    }
    ::shutdown(server.fd, SHUT_WR);
  }

  void server_to_client() {
    Buffer buffer(k_answer_buffer_size);
    for (;;) {
      ssize_t n = read_some(server.fd, buffer);
      if (n <= 0 || !write_all(client.fd, buffer.data.get(), static_cast<std::size_t>(n))) {
        break;
      }
    }
    ::shutdown(client.fd, SHUT_WR);
    server_gone = true;
  }
};

// A socket of `family` bound to `port` on every address, or -1 with errno set.
int bind_any(int family, int port) {
  util::Fd fd(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.fd < 0) {
    return -1;
  }
  int on = 1;
  int off = 0;
  ::setsockopt(fd.fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  int rc = -1;
  if (family == AF_INET6) {
    ::setsockopt(fd.fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
    sockaddr_in6 addr{};
    addr.sin6_family = AF_INET6;
    addr.sin6_addr = in6addr_any;
    addr.sin6_port = htons(static_cast<std::uint16_t>(port));
    rc = ::bind(fd.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  } else {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    rc = ::bind(fd.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  }
  if (rc != 0 || ::listen(fd.fd, SOMAXCONN) != 0) {
    return -1;
  }
  return std::exchange(fd.fd, -1);
}

// IPv6 and IPv4 on one socket, or IPv4 alone on a host without IPv6.
Result<int> bound_listener(int port, const std::string& port_text) {
  int fd = bind_any(AF_INET6, port);
  if (fd < 0 && (errno == EAFNOSUPPORT || errno == EADDRNOTAVAIL)) {
    fd = bind_any(AF_INET, port);
  }
  if (fd < 0) {
    return util::fail(Errc::io, fmt::format("failed to listen: listen tcp :{}: bind: {}", port_text,
                                            util::errno_text(errno)));
  }
  return fd;
}

} // namespace

Result<std::unique_ptr<ConnectionGuard>> ConnectionGuard::listen(int port,
                                                                 const std::string& port_text) {
  int listener = OPM_TRY(bound_listener(port, port_text));
  return std::unique_ptr<ConnectionGuard>(new ConnectionGuard(listener));
}

ConnectionGuard::~ConnectionGuard() {
  stop_accepting();
  std::unique_lock lock(m_mutex);
  m_all_ended.wait(lock, [this] { return m_relays == 0; });
}

void ConnectionGuard::stop_accepting() {
  std::lock_guard lock(m_acceptor_mutex);
  m_stopping = true;
  ::shutdown(m_listener.fd, SHUT_RDWR); // wakes accept()
  if (m_acceptor.joinable()) {
    m_acceptor.join();
  }
}

void ConnectionGuard::serve(grpc::Server& server) {
  m_acceptor = std::thread([this, &server] { accept_loop(server); });
}

int ConnectionGuard::relays() {
  std::lock_guard lock(m_mutex);
  return m_relays;
}

void ConnectionGuard::relay_ended() {
  std::lock_guard lock(m_mutex);
  if (--m_relays == 0) {
    m_all_ended.notify_all();
  }
}

void ConnectionGuard::accept_loop(grpc::Server& server) {
  for (;;) {
    int client = ::accept4(m_listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (m_stopping) {
        return;
      }
      // A connection that failed before it was accepted, or no descriptor left for one: the
      // listener itself is fine, so accepting goes on.
      if (errno != EINTR && errno != ECONNABORTED) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      continue;
    }
    if (relays() >= 2 * k_max_connections) {
      ::close(client); // each connection costs two threads: refuse beyond the cap
      continue;
    }
    int on = 1;
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    const timeval stall{k_client_stall_seconds, 0};
    ::setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &stall, sizeof stall);
    const timeval wake{k_client_close_seconds, 0};
    ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &wake, sizeof wake);
    std::array<int, 2> pair{-1, -1};
    // gRPC's end is non-blocking, as the sockets it accepts itself are; the relay's blocks.
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair.data()) != 0 ||
        ::fcntl(pair[1], F_SETFL, ::fcntl(pair[1], F_GETFL) | O_NONBLOCK) != 0) {
      for (int fd : {client, pair[0], pair[1]}) {
        if (fd >= 0) {
          ::close(fd);
        }
      }
      continue;
    }
    auto relay = std::make_shared<Relay>(client, pair[0]);
    grpc::AddInsecureChannelFromFd(&server, pair[1]);
    {
      std::lock_guard lock(m_mutex);
      m_relays += 2;
    }
    std::thread([this, relay] {
      relay->client_to_server();
      relay_ended();
    }).detach();
    std::thread([this, relay] {
      relay->server_to_client();
      relay_ended();
    }).detach();
  }
}

} // namespace opm::serve
