#pragma once

#include "util/error.hpp"
#include "util/fs.hpp"

#include <atomic>
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
// through a socket pair, reading the client's frame headers on the way: a client that resets
// more streams than its budget is disconnected before the resets reach gRPC.
namespace opm::serve {

// A connection may reset k_reset_burst streams at once, and k_resets_per_second more each
// second after that.
inline constexpr int k_reset_burst = 200;
inline constexpr int k_resets_per_second = 100;
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
  // of each when the server shuts down).
  ~ConnectionGuard();

  // Starts accepting connections for `server`, which must outlive the relays (shut it down
  // before this goes away).
  void serve(grpc::Server& server);

  // Closes the listening socket and waits for the acceptor; idempotent. Connections already
  // accepted go on.
  void stop_accepting();

  // Public for the relay threads.
  void relay_ended();

private:
  explicit ConnectionGuard(int listener) : m_listener(listener) {}
  void accept_loop(grpc::Server& server);
  int relays();

  util::Fd m_listener;
  std::thread m_acceptor;
  std::mutex m_acceptor_mutex;
  std::atomic<bool> m_stopping = false;
  std::mutex m_mutex;
  std::condition_variable m_all_ended;
  int m_relays = 0;
};

} // namespace opm::serve
