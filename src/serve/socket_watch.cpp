#include "serve/socket_watch.hpp"

#include "serve/client_frames.hpp"
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
#include <optional>
#include <string>
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
// Reads of a cut-off client's bytes one gRPC read may make before it waits for the next.
constexpr int k_drops_per_read = 64;

Clock::rep ticks_now() { return Clock::now().time_since_epoch().count(); }

struct Connection {
  // The client's side: touched only by the gRPC thread reading the connection at the time.
  ClientFrames from_client;
  // Set, under `writing`, once the client is over its budget: from then on what it sends is
  // dropped, and what gRPC writes after the frame under way is replaced by a GOAWAY.
  std::atomic<bool> cut{false};
  std::atomic<Clock::rep> cut_at{0};
  // gRPC's side and the GOAWAY.
  std::mutex writing;
  h2::FrameCursor to_client;
  std::array<char, h2::k_goaway_frame_size> goaway{};
  std::size_t goaway_sent = 0;
  // Since when an answer waits for the client to take it (0: none).
  std::atomic<Clock::rep> stalled_since{0};
  bool ended = false; // shut down by enforce_deadlines; under g_registry
};

// The table is read without a lock by gRPC's calls; the list owns the connections.
std::array<std::atomic<Connection*>, k_table_size> g_table;
std::mutex g_registry; // watch, forget and enforce_deadlines
std::vector<std::pair<int, std::unique_ptr<Connection>>> g_watched;

Connection* find(int fd) {
  if (fd < 0 || fd >= k_table_size) {
    return nullptr;
  }
  return g_table[static_cast<std::size_t>(fd)].load(std::memory_order_acquire);
}

// Calls `each` on the first `n` bytes of the message's buffers, in order, until it says stop.
template <class Each> void each_piece(const msghdr& message, std::size_t n, Each&& each) {
  for (std::size_t i = 0; i < message.msg_iovlen && n > 0; ++i) {
    std::size_t size = std::min(n, message.msg_iov[i].iov_len);
    if (!each(std::string_view(static_cast<const char*>(message.msg_iov[i].iov_base), size))) {
      return;
    }
    n -= size;
  }
}

std::size_t message_size(const msghdr& message) {
  std::size_t size = 0;
  each_piece(message, SIZE_MAX, [&size](std::string_view piece) {
    size += piece.size();
    return true;
  });
  return size;
}

bool client_frames_allowed(Connection& connection, const msghdr& message, std::size_t n) {
  bool allowed = true;
  each_piece(message, n, [&](std::string_view piece) {
    allowed = connection.from_client.allowed(piece);
    return allowed;
  });
  return allowed;
}

void note_sent(Connection& connection, const msghdr& message, std::size_t sent) {
  each_piece(message, sent, [&connection](std::string_view piece) {
    return connection.to_client.feed(piece, [](const h2::FrameHeader&) { return true; });
  });
}

// Sends what is left of the GOAWAY (under `writing`, between two of gRPC's frames); once it is
// all out, the server's side of the connection ends. False while the client cannot take it.
bool send_goaway(int fd, Connection& connection) {
  while (connection.goaway_sent < connection.goaway.size()) {
    ssize_t n =
        ::send(fd, connection.goaway.data() + connection.goaway_sent,
               connection.goaway.size() - connection.goaway_sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return false;
    }
    if (n <= 0) {
      break; // the client is gone
    }
    connection.goaway_sent += static_cast<std::size_t>(n);
  }
  connection.goaway_sent = connection.goaway.size();
  ::shutdown(fd, SHUT_WR);
  return true;
}

// The client is over its budget.
void cut_off(int fd, Connection& connection) {
  std::lock_guard lock(connection.writing);
  connection.goaway = connection.from_client.goaway();
  connection.cut_at.store(ticks_now(), std::memory_order_relaxed);
  connection.cut.store(true, std::memory_order_release);
  if (connection.to_client.at_boundary()) {
    send_goaway(fd, connection);
  }
}

// After the cut, what the client sent is read and dropped until nothing waits; gRPC is told
// there was nothing (or the end, or the error, when the read says so).
ssize_t drop_input(int fd, msghdr* message, int flags) {
  for (int i = 0; i < k_drops_per_read; ++i) {
    ssize_t n = g_recvmsg(fd, message, flags);
    if (n <= 0) {
      return n;
    }
  }
  errno = EAGAIN;
  return -1;
}

ssize_t watched_recvmsg(int fd, msghdr* message, int flags) {
  ssize_t n = g_recvmsg(fd, message, flags);
  if (n <= 0 || (flags & (MSG_PEEK | MSG_ERRQUEUE)) != 0) {
    return n;
  }
  Connection* connection = find(fd);
  if (connection == nullptr) {
    return n;
  }
  if (!connection->cut.load(std::memory_order_acquire)) {
    if (client_frames_allowed(*connection, *message, static_cast<std::size_t>(n))) {
      return n;
    }
    cut_off(fd, *connection);
  }
  return drop_input(fd, message, flags);
}

// gRPC's message cut short after `length` bytes.
struct ClippedMessage {
  ClippedMessage(const msghdr& message, std::size_t length) : header(message) {
    each_piece(message, length, [this](std::string_view piece) {
      pieces.push_back({const_cast<char*>(piece.data()), piece.size()});
      return true;
    });
    header.msg_iov = pieces.data();
    header.msg_iovlen = pieces.size();
  }
  msghdr header;
  std::vector<iovec> pieces;
};

std::size_t length_to_boundary(h2::FrameCursor cursor, const msghdr& message) {
  std::size_t length = 0;
  each_piece(message, SIZE_MAX, [&](std::string_view piece) {
    length += cursor.advance_to_boundary(piece);
    return !cursor.at_boundary();
  });
  return length;
}

// gRPC's writes once the client is cut off: the end of the frame under way, then the GOAWAY;
// what gRPC writes after that is taken and dropped.
ssize_t send_after_cut(int fd, Connection& connection, const msghdr& message, int flags) {
  const auto offered = static_cast<ssize_t>(message_size(message));
  if (connection.goaway_sent == connection.goaway.size()) {
    return offered;
  }
  ssize_t sent = 0;
  if (!connection.to_client.at_boundary()) {
    ClippedMessage clipped(message, length_to_boundary(connection.to_client, message));
    sent = g_sendmsg(fd, &clipped.header, flags);
    if (sent <= 0) {
      return sent;
    }
    note_sent(connection, clipped.header, static_cast<std::size_t>(sent));
    if (!connection.to_client.at_boundary()) {
      return sent; // gRPC sends the rest of the frame when the client takes more
    }
  }
  if (send_goaway(fd, connection)) {
    return offered;
  }
  if (sent > 0) {
    return sent;
  }
  errno = EAGAIN;
  return -1;
}

// A client that takes nothing for k_client_stall while an answer waits is let go.
void note_progress(Connection& connection, ssize_t sent, std::size_t offered, int error) {
  if (sent >= 0 && static_cast<std::size_t>(sent) == offered) {
    connection.stalled_since.store(0, std::memory_order_relaxed);
  } else if (sent > 0) {
    connection.stalled_since.store(ticks_now(), std::memory_order_relaxed); // it restarts
  } else if (error == EAGAIN || error == EWOULDBLOCK) {
    Clock::rep none = 0;
    connection.stalled_since.compare_exchange_strong(none, ticks_now(), std::memory_order_relaxed);
  }
}

ssize_t watched_sendmsg(int fd, const msghdr* message, int flags) {
  Connection* connection = find(fd);
  if (connection == nullptr) {
    return g_sendmsg(fd, message, flags);
  }
  std::lock_guard lock(connection->writing);
  if (connection->cut.load(std::memory_order_relaxed)) {
    return send_after_cut(fd, *connection, *message, flags);
  }
  ssize_t sent = g_sendmsg(fd, message, flags);
  int error = errno;
  if (sent > 0) {
    note_sent(*connection, *message, static_cast<std::size_t>(sent));
  }
  note_progress(*connection, sent, message_size(*message), error);
  errno = error;
  return sent;
}

void forget(int fd) {
  std::lock_guard lock(g_registry);
  if (g_table[static_cast<std::size_t>(fd)].exchange(nullptr) == nullptr) {
    return;
  }
  std::erase_if(g_watched, [fd](const auto& entry) { return entry.first == fd; });
}

int watched_close(int fd) {
  if (find(fd) != nullptr) {
    forget(fd);
  }
  return g_close(fd);
}

constexpr std::string_view k_shared_grpc = "libgrpc.so";

// libc's own definition: in an executable that takes a function's address, the name may be
// bound to the executable's own stub, whose slot is the one redirected.
template <typename Function> bool resolve(const char* name, Function& out) {
  void* libc = ::dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  out = reinterpret_cast<Function>(::dlsym(libc != nullptr ? libc : RTLD_DEFAULT, name));
  if (libc != nullptr) {
    ::dlclose(libc);
  }
  return out != nullptr;
}

// The file whose calls into libc gRPC's calls are: libgrpc.so when the process loaded it,
// else the file holding this code, where gRPC was linked from its archives ("" for the
// executable; its other calls to these functions then pass through the watch untouched, as
// calls on descriptors it does not watch). Nothing when neither can be told.
std::optional<std::string> grpc_holder() {
  if (util::library_loaded(k_shared_grpc)) {
    return std::string(k_shared_grpc);
  }
  return util::file_holding(reinterpret_cast<const void*>(&grpc_holder));
}

bool redirect_grpc() {
  if (!resolve("recvmsg", g_recvmsg) || !resolve("sendmsg", g_sendmsg) ||
      !resolve("close", g_close)) {
    return false;
  }
  const std::optional<std::string> grpc = grpc_holder();
  if (!grpc) {
    return false;
  }
  // Closes first: once reads and writes are watched, every watched descriptor's close must be
  // seen too, or its entry would outlive it.
  return util::redirect_import(*grpc, "close", reinterpret_cast<void*>(&watched_close)) &&
         util::redirect_import(*grpc, "sendmsg", reinterpret_cast<void*>(&watched_sendmsg)) &&
         util::redirect_import(*grpc, "recvmsg", reinterpret_cast<void*>(&watched_recvmsg));
}

bool past(Clock::rep since, Clock::rep now, Clock::duration limit) {
  return since != 0 && now - since > limit.count();
}

// A cut-off client gets its GOAWAY once it makes room for it, and the connection ends when
// it has had k_client_close to close its side; a stalled one ends after k_client_stall.
void enforce_on(int fd, Connection& connection, Clock::rep now) {
  if (connection.ended) {
    return;
  }
  bool stalled = past(connection.stalled_since.load(std::memory_order_relaxed), now,
                      std::chrono::duration_cast<Clock::duration>(k_client_stall));
  bool closing = false;
  if (connection.cut.load(std::memory_order_acquire)) {
    std::lock_guard lock(connection.writing);
    if (connection.goaway_sent < connection.goaway.size() && connection.to_client.at_boundary()) {
      send_goaway(fd, connection);
    }
    closing = past(connection.cut_at.load(std::memory_order_relaxed), now,
                   std::chrono::duration_cast<Clock::duration>(k_client_close));
  }
  if (stalled || closing) {
    connection.ended = true;
    ::shutdown(fd, SHUT_RDWR);
  }
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

void enforce_deadlines(Clock::time_point now) {
  std::lock_guard lock(g_registry);
  for (auto& [fd, connection] : g_watched) {
    enforce_on(fd, *connection, now.time_since_epoch().count());
  }
}

} // namespace opm::serve::socket_watch
