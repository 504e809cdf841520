#include "serve/socket_watch.hpp"

#include "serve/client_limits.hpp"
#include "util/http2_frames.hpp"
#include "util/import_redirect.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <sys/socket.h>
#include <vector>

namespace opm::serve::socket_watch {

namespace {

namespace h2 = util::http2;

using Recvmsg = ssize_t (*)(int, msghdr*, int);
using Sendmsg = ssize_t (*)(int, const msghdr*, int);
using Close = int (*)(int);

// The functions libgrpc called before: whatever the process resolves the names to.
Recvmsg g_recvmsg = nullptr;
Sendmsg g_sendmsg = nullptr;
Close g_close = nullptr;

// Descriptors at or beyond this number are not watched; with at most k_max_connections
// clients of one descriptor each, a server does not come near it.
constexpr int k_table_size = 1 << 16;
// What a close drains at most of what the client sent and gRPC did not read.
constexpr std::size_t k_drain_limit = 1 << 18;

struct Connection {
  // The client's side: touched only by the gRPC thread reading the connection at the time.
  h2::FrameCursor from_client{h2::k_client_preface_size};
  h2::RateBudget resets{k_reset_burst, k_resets_per_second};
  std::uint32_t last_client_stream = 0;
  // gRPC's side, and the cut-off, which must not fall in the middle of a write.
  std::mutex writing;
  h2::FrameCursor to_client;
  bool cut = false;
  // Since when an answer waits for the client to take it (a count of Clock ticks; 0: none).
  std::atomic<Clock::rep> stalled_since{0};
  bool cut_for_stalling = false; // under g_registry
};

// The table is read without a lock by gRPC's calls; the list owns the connections.
std::array<std::atomic<Connection*>, k_table_size> g_table;
std::mutex g_registry; // watch, forget and cut_stalled
std::vector<std::pair<int, std::unique_ptr<Connection>>> g_watched;

Connection* find(int fd) {
  if (fd < 0 || fd >= k_table_size) {
    return nullptr;
  }
  return g_table[static_cast<std::size_t>(fd)].load(std::memory_order_acquire);
}

// Calls `each` on the first `n` bytes of the message's buffers, in order, until it says stop.
template <class Each> bool each_piece(const msghdr& message, std::size_t n, Each&& each) {
  for (std::size_t i = 0; i < message.msg_iovlen && n > 0; ++i) {
    std::size_t size = std::min(n, message.msg_iov[i].iov_len);
    if (!each(std::string_view(static_cast<const char*>(message.msg_iov[i].iov_base), size))) {
      return false;
    }
    n -= size;
  }
  return true;
}

bool client_frames_allowed(Connection& connection, const msghdr& message, std::size_t n) {
  auto on_header = [&connection](const h2::FrameHeader& header) {
    if (header.type == static_cast<std::uint8_t>(h2::FrameType::headers) &&
        header.stream_id > connection.last_client_stream) {
      connection.last_client_stream = header.stream_id;
    }
    return header.type != static_cast<std::uint8_t>(h2::FrameType::rst_stream) ||
           connection.resets.spend();
  };
  return each_piece(message, n, [&](std::string_view piece) {
    return connection.from_client.feed(piece, on_header);
  });
}

// The client is over its budget: a GOAWAY naming the last stream it opened, if gRPC is between
// two frames (else the client has part of a frame that cannot be completed), then the end.
void cut_off(int fd, Connection& connection) {
  std::lock_guard lock(connection.writing);
  connection.cut = true;
  if (connection.to_client.last_boundary() == connection.to_client.offset()) {
    auto goaway = h2::goaway_frame(connection.last_client_stream, h2::k_enhance_your_calm);
    [[maybe_unused]] auto sent =
        ::send(fd, goaway.data(), goaway.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  }
  ::shutdown(fd, SHUT_RDWR);
}

// `error` is errno after a failed send.
void note_sent(Connection& connection, const msghdr& message, ssize_t sent, int error) {
  if (sent > 0) {
    each_piece(message, static_cast<std::size_t>(sent), [&](std::string_view piece) {
      return connection.to_client.feed(piece, [](const h2::FrameHeader&) { return true; });
    });
  }
  std::size_t offered = 0;
  each_piece(message, SIZE_MAX, [&](std::string_view piece) {
    offered += piece.size();
    return true;
  });
  auto now = Clock::now().time_since_epoch().count();
  if (sent >= 0 && static_cast<std::size_t>(sent) == offered) {
    connection.stalled_since.store(0, std::memory_order_relaxed);
  } else if (sent > 0) {
    connection.stalled_since.store(now, std::memory_order_relaxed); // progress: the clock restarts
  } else if (error == EAGAIN || error == EWOULDBLOCK) {
    Clock::rep none = 0;
    connection.stalled_since.compare_exchange_strong(none, now, std::memory_order_relaxed);
  }
}

void drain(int fd) {
  std::array<char, 1 << 14> sink{};
  for (std::size_t drained = 0; drained < k_drain_limit;) {
    ssize_t got = ::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT);
    if (got <= 0) {
      return;
    }
    drained += static_cast<std::size_t>(got);
  }
}

void forget(int fd) {
  std::lock_guard lock(g_registry);
  if (g_table[static_cast<std::size_t>(fd)].exchange(nullptr) == nullptr) {
    return;
  }
  std::erase_if(g_watched, [fd](const auto& entry) { return entry.first == fd; });
  drain(fd);
}

ssize_t watched_recvmsg(int fd, msghdr* message, int flags) {
  ssize_t n = g_recvmsg(fd, message, flags);
  if (n <= 0 || (flags & (MSG_PEEK | MSG_ERRQUEUE)) != 0) {
    return n;
  }
  Connection* connection = find(fd);
  if (connection == nullptr ||
      client_frames_allowed(*connection, *message, static_cast<std::size_t>(n))) {
    return n;
  }
  cut_off(fd, *connection);
  errno = ECONNRESET;
  return -1;
}

ssize_t watched_sendmsg(int fd, const msghdr* message, int flags) {
  Connection* connection = find(fd);
  if (connection == nullptr) {
    return g_sendmsg(fd, message, flags);
  }
  std::lock_guard lock(connection->writing);
  if (connection->cut) {
    errno = EPIPE;
    return -1;
  }
  ssize_t sent = g_sendmsg(fd, message, flags);
  int error = errno;
  note_sent(*connection, *message, sent, error);
  errno = error;
  return sent;
}

int watched_close(int fd) {
  if (find(fd) != nullptr) {
    forget(fd);
  }
  return g_close(fd);
}

template <typename Function> bool resolve(const char* name, Function& out) {
  out = reinterpret_cast<Function>(::dlsym(RTLD_DEFAULT, name));
  return out != nullptr;
}

bool redirect_grpc() {
  if (!resolve("recvmsg", g_recvmsg) || !resolve("sendmsg", g_sendmsg) ||
      !resolve("close", g_close)) {
    return false;
  }
  // Closes first: once reads and writes are watched, every watched descriptor's close must be
  // seen too, or its entry would outlive it.
  constexpr std::string_view grpc = "libgrpc.so";
  return util::redirect_import(grpc, "close", reinterpret_cast<void*>(&watched_close)) &&
         util::redirect_import(grpc, "sendmsg", reinterpret_cast<void*>(&watched_sendmsg)) &&
         util::redirect_import(grpc, "recvmsg", reinterpret_cast<void*>(&watched_recvmsg));
}

} // namespace

bool install() {
  static const bool installed = redirect_grpc();
  return installed;
}

bool watch(int fd) {
  if (fd < 0 || fd >= k_table_size) {
    return false;
  }
  std::lock_guard lock(g_registry);
  // An entry left for this number means its descriptor was closed by a call not watched.
  std::erase_if(g_watched, [fd](const auto& entry) { return entry.first == fd; });
  auto& [watched_fd, connection] = g_watched.emplace_back(fd, std::make_unique<Connection>());
  g_table[static_cast<std::size_t>(watched_fd)].store(connection.get(), std::memory_order_release);
  return true;
}

std::size_t watched() {
  std::lock_guard lock(g_registry);
  return g_watched.size();
}

void cut_stalled(Clock::time_point now) {
  auto limit = std::chrono::duration_cast<Clock::duration>(k_client_stall).count();
  std::lock_guard lock(g_registry);
  for (auto& [fd, connection] : g_watched) {
    auto since = connection->stalled_since.load(std::memory_order_relaxed);
    if (since != 0 && now.time_since_epoch().count() - since > limit &&
        !connection->cut_for_stalling) {
      connection->cut_for_stalling = true;
      ::shutdown(fd, SHUT_RDWR);
    }
  }
}

} // namespace opm::serve::socket_watch
