#include "serve/connection_guard.hpp"

#include "serve/relay.hpp"
#include "serve/socket_watch.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <grpcpp/server_posix.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string_view>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unordered_map>

namespace opm::serve {

namespace {

// epoll's word for each descriptor: the listener, the wake-up event, or a relay's id and side.
constexpr std::uint64_t k_listener_key = 0;
constexpr std::uint64_t k_wake_key = 1;
constexpr std::uint64_t k_first_relay_id = 1;
constexpr auto k_tick = std::chrono::seconds(1);
// Once the server is gone, how long relays still have to hand clients the last bytes.
constexpr auto k_exit_grace = std::chrono::seconds(3);
constexpr int k_tick_ms = 1000;
constexpr int k_events_per_wait = 64;

// A socket of `family` bound to `port` on every address, or -1 with errno set.
int bind_any(int family, int port) {
  util::Fd fd(::socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
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

// A relayed connection holds three descriptors: as Go programs do, take all the hard limit
// allows.
void raise_descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// Connections go to gRPC as they are when its calls can be watched; OPM_SERVE_RELAY=1 relays
// them anyway, so that the relay is tested where it is not needed.
bool hand_connections_directly() {
  const char* relay = std::getenv("OPM_SERVE_RELAY");
  return (relay == nullptr || std::string_view(relay) != "1") && socket_watch::install();
}

bool watch(int epoll, int fd, std::uint32_t events, std::uint64_t key) {
  epoll_event event{};
  event.events = events;
  event.data.u64 = key;
  return ::epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0;
}

} // namespace

// The acceptor, and the relays if there are any, all on the guard's one thread.
class ConnectionGuard::Loop {
public:
  Loop(ConnectionGuard& guard, grpc::Server& server)
      : m_guard(guard), m_server(server), m_direct(hand_connections_directly()) {}

  void run() {
    std::array<epoll_event, k_events_per_wait> events{};
    auto next_tick = Relay::Clock::now() + k_tick;
    while (!done()) {
      int n = ::epoll_wait(m_guard.m_epoll.fd, events.data(), k_events_per_wait, k_tick_ms);
      auto now = Relay::Clock::now();
      for (int i = 0; i < n; ++i) {
        dispatch(events[static_cast<std::size_t>(i)], now);
      }
      if (now >= next_tick) {
        tick(now);
        next_tick = now + k_tick;
      }
    }
  }

private:
  void dispatch(const epoll_event& event, Relay::Clock::time_point now) {
    if (event.data.u64 == k_listener_key) {
      accept_all();
    } else if (event.data.u64 == k_wake_key) {
      on_wake();
    } else {
      auto found = m_relays.find(event.data.u64 >> 1);
      if (found == m_relays.end()) {
        return; // ended earlier in this batch
      }
      auto side = (event.data.u64 & 1) != 0 ? Relay::Side::server : Relay::Side::client;
      found->second->on_ready(side, event.events, now);
      if (found->second->finished()) {
        m_relays.erase(found);
      }
    }
  }

  void accept_all() {
    for (;;) {
      int client = ::accept4(m_guard.m_listener.fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (client >= 0) {
        start_connection(client);
        continue;
      }
      if (errno == EINTR || errno == ECONNABORTED) {
        continue;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        pause_accepting(); // no descriptor or memory left for one: try again at the next tick
      }
      return;
    }
  }

  void start_connection(int accepted) {
    util::Fd client(accepted);
    std::size_t open = m_direct ? socket_watch::watched() : m_relays.size();
    if (open >= static_cast<std::size_t>(k_max_connections)) {
      return;
    }
    int on = 1;
    ::setsockopt(client.fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    if (!m_direct) {
      start_relay(std::move(client));
    } else if (socket_watch::watch(client.fd)) {
      grpc::AddInsecureChannelFromFd(&m_server, client.release());
    }
  }

  void start_relay(util::Fd client) {
    std::array<int, 2> pair{-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, pair.data()) != 0) {
      return;
    }
    util::Fd grpc_end(pair[1]);
    int client_fd = client.fd;
    auto relay = std::make_unique<Relay>(client.release(), pair[0],
                                         std::span(m_scratch.get(), k_relay_scratch_size));
    std::uint64_t id = m_next_id++;
    constexpr std::uint32_t edges = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    if (!watch(m_guard.m_epoll.fd, client_fd, edges, id << 1) ||
        !watch(m_guard.m_epoll.fd, pair[0], edges, (id << 1) | 1)) {
      return; // the relay closes the other two
    }
    grpc::AddInsecureChannelFromFd(&m_server, grpc_end.release());
    m_relays.emplace(id, std::move(relay));
  }

  void pause_accepting() {
    ::epoll_ctl(m_guard.m_epoll.fd, EPOLL_CTL_DEL, m_guard.m_listener.fd, nullptr);
    m_accept_paused = true;
  }

  void on_wake() {
    std::uint64_t count = 0;
    [[maybe_unused]] auto ignored = ::read(m_guard.m_wake.fd, &count, sizeof count);
    std::lock_guard lock(m_guard.m_mutex);
    if (m_guard.m_stop_accepting && !m_guard.m_listener_closed) {
      ::epoll_ctl(m_guard.m_epoll.fd, EPOLL_CTL_DEL, m_guard.m_listener.fd, nullptr);
      m_guard.m_listener.reset();
      m_guard.m_listener_closed = true;
      m_guard.m_changed.notify_all();
    }
    if (m_guard.m_exit && !m_exit_requested) {
      m_exit_requested = true;
      m_exit_deadline = Relay::Clock::now() + k_exit_grace;
    }
  }

  void tick(Relay::Clock::time_point now) {
    if (m_exit_requested && now >= m_exit_deadline) {
      m_relays.clear();
      return;
    }
    if (m_direct) {
      socket_watch::enforce_deadlines(now);
    }
    for (auto it = m_relays.begin(); it != m_relays.end();) {
      it->second->on_tick(now);
      it = it->second->finished() ? m_relays.erase(it) : std::next(it);
    }
    if (m_accept_paused && m_guard.m_listener.fd >= 0 && !m_guard.m_listener_closed) {
      m_accept_paused = !watch(m_guard.m_epoll.fd, m_guard.m_listener.fd, EPOLLIN, k_listener_key);
    }
  }

  bool done() const { return m_exit_requested && m_relays.empty(); }

  ConnectionGuard& m_guard;
  grpc::Server& m_server;
  bool m_direct;
  std::unique_ptr<char[]> m_scratch = std::make_unique_for_overwrite<char[]>(k_relay_scratch_size);
  std::unordered_map<std::uint64_t, std::unique_ptr<Relay>> m_relays;
  std::uint64_t m_next_id = k_first_relay_id;
  bool m_accept_paused = false;
  bool m_exit_requested = false;
  Relay::Clock::time_point m_exit_deadline;
};

Result<std::unique_ptr<ConnectionGuard>> ConnectionGuard::listen(int port,
                                                                 const std::string& port_text) {
  raise_descriptor_limit();
  util::Fd listener(OPM_TRY(bound_listener(port, port_text)));
  util::Fd epoll(::epoll_create1(EPOLL_CLOEXEC));
  util::Fd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (epoll.fd < 0 || wake.fd < 0 || !watch(epoll.fd, listener.fd, EPOLLIN, k_listener_key) ||
      !watch(epoll.fd, wake.fd, EPOLLIN, k_wake_key)) {
    return util::fail(Errc::io, fmt::format("failed to listen: listen tcp :{}: {}", port_text,
                                            util::errno_text(errno)));
  }
  return std::unique_ptr<ConnectionGuard>(new ConnectionGuard(
      std::exchange(listener.fd, -1), std::exchange(epoll.fd, -1), std::exchange(wake.fd, -1)));
}

ConnectionGuard::~ConnectionGuard() {
  stop_accepting();
  {
    std::lock_guard lock(m_mutex);
    m_exit = true;
  }
  wake();
  if (m_thread.joinable()) {
    m_thread.join();
  }
}

void ConnectionGuard::serve(grpc::Server& server) {
  m_thread = std::thread([this, &server] { Loop(*this, server).run(); });
}

void ConnectionGuard::stop_accepting() {
  std::unique_lock lock(m_mutex);
  m_stop_accepting = true;
  if (m_listener_closed) {
    return;
  }
  if (!m_thread.joinable()) {
    m_listener_closed = true; // not serving: nothing else uses the listener
    m_listener.reset();
    return;
  }
  lock.unlock();
  wake();
  lock.lock();
  m_changed.wait(lock, [this] { return m_listener_closed; });
}

void ConnectionGuard::wake() {
  std::uint64_t one = 1;
  [[maybe_unused]] auto ignored = ::write(m_wake.fd, &one, sizeof one);
}

} // namespace opm::serve
