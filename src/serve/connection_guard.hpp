#pragma once

#include "util/error.hpp"
#include "util/fs.hpp"

#include <condition_variable>
#include <grpcpp/grpcpp.h>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

// The server's TCP side. gRPC 1.51 lets a client open and reset streams without limit (HTTP/2
// rapid reset, CVE-2023-44487): every reset stream still becomes a call, and a few thousand a
// second pile up faster than they are answered (gigabytes of RSS within seconds, kept after
// the client leaves). So the server accepts its connections itself and hands each to gRPC
// with gRPC's reads and writes of it watched (serve/socket_watch.hpp), or, where those
// cannot be watched, through a socket pair whose bytes one thread relays (serve/relay.hpp):
// a client that resets more streams than its budget is told GOAWAY and disconnected before
// the resets reach gRPC.
namespace opm::serve {

// Connections served at once; more are closed as soon as they are accepted.
inline constexpr int k_max_connections = 1000;

class ConnectionGuard {
public:
  // Listens on every interface at `port` (0: any free port). The error is upstream's
  // "failed to listen: listen tcp :<port_text>: bind: <reason>".
  static Result<std::unique_ptr<ConnectionGuard>> listen(int port, const std::string& port_text);
  ConnectionGuard(const ConnectionGuard&) = delete;
  ConnectionGuard& operator=(const ConnectionGuard&) = delete;
  // Stops accepting and waits until every relayed connection has ended (gRPC ends its side
  // of each when the server shuts down); gRPC closes the others itself.
  ~ConnectionGuard();

  // Starts accepting connections for `server`, which must outlive the relays (shut it down
  // before this goes away).
  void serve(grpc::Server& server);

  // Closes the listening socket; idempotent. Connections already accepted go on.
  void stop_accepting();

private:
  class Loop;
  ConnectionGuard(int listener, int epoll, int wake)
      : m_listener(listener), m_epoll(epoll), m_wake(wake) {}
  void run(grpc::Server& server);
  void wake();

  util::Fd m_listener;
  util::Fd m_epoll;
  util::Fd m_wake; // an eventfd: stop_accepting and the destructor wake the loop with it
  std::thread m_thread;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_stop_accepting = false;
  bool m_listener_closed = false;
  bool m_exit = false;
};

} // namespace opm::serve
