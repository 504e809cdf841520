#pragma once

#include "util/error.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opm::registry {

using Headers = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::size_t k_manifest_body_cap = 4U << 20;
inline constexpr std::size_t k_small_body_cap = 1U << 20;

struct Response;

struct Request {
  std::string method = "GET";
  std::string url;
  Headers headers;
  std::string body; // sent as-is (form posts)
  // Receives the body of a 2xx response as it arrives, with the response so far (status and
  // headers); returning false aborts the transfer. Without a sink the body is collected into
  // Response::body, up to `max_body` bytes.
  std::function<bool(std::string_view, const Response&)> sink;
  std::size_t max_body = k_manifest_body_cap;
  bool blob = false; // no total time limit, stall detection only
  // Free text for the debug log ("retry 2/5: 503").
  std::string note;

  [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
  void set_header(std::string name, std::string value);
  void remove_header(std::string_view name);
};

struct Response {
  long status = 0; // 0 = no HTTP answer; see `transport_error`
  Headers headers; // names in lower case, in arrival order
  std::string body;
  std::string transport_error; // curl's text when the exchange broke
  bool body_too_large = false;
  bool aborted_by_sink = false;
  bool timed_out = false;
  bool tls_failure = false;
  bool http_to_https = false;  // TLS handshake met a plain-HTTP server
  bool retryable = false;      // a broken exchange worth another attempt (resets, timeouts)
  std::uint64_t delivered = 0; // body bytes handed to the sink or collected
  std::string url;             // the absolute URL first requested (set by Session)
  int attempts = 1;            // how many times the request was sent (set by RetryTransport)
  std::chrono::milliseconds elapsed{0};

  [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
  [[nodiscard]] std::vector<std::string> all(std::string_view name) const;
  [[nodiscard]] bool broken() const { return status == 0; }
};

// One HTTP exchange. Implementations never throw; a broken exchange is a Response with
// status 0 and a transport_error.
class Transport {
public:
  virtual ~Transport() = default;
  virtual Response send(const Request& request) = 0;
};

// URL helpers.
struct Url {
  std::string scheme; // "http" | "https"
  std::string host;   // host[:port] as written ("[::1]:5000")
  std::string path;   // with query, starting with '/'
  [[nodiscard]] std::string origin() const { return scheme + "://" + host; }
  [[nodiscard]] std::string string() const { return origin() + path; }
  // Host without port and brackets, and the port (default by scheme).
  [[nodiscard]] std::string hostname() const;
  [[nodiscard]] int port() const;
};
std::optional<Url> parse_url(std::string_view url);
// Resolve a Location / Link target against the URL of the request that returned it.
std::string resolve_url(std::string_view base, std::string_view ref);
// For messages and logs: drop user-info and the values of secret-looking query parameters.
std::string redact_url(std::string_view url);
std::string url_encode(std::string_view s);

} // namespace opm::registry
