#pragma once

#include "registry/http.hpp"
#include "registry/options.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace opm::registry {

// The retry layer of the transport stack, after go-containerregistry's
// pkg/v1/remote/transport/retry.go: sends again what failed in a way worth another try
// (408, 429, 500, 502, 503, 504, or a connection that broke before any body byte), up to
// RetryPolicy::max_attempts times, waiting the server's Retry-After (capped) or an
// exponential backoff with 10% jitter. A host that failed host_failure_budget times in a
// row is given up on for the rest of the process. The returned Response carries the
// number of attempts; a broken one retried says "(after N attempts)". Thread-safe.
class RetryTransport final : public Transport {
public:
  RetryTransport(std::unique_ptr<Transport> inner, const RetryPolicy& policy, const Log& log);

  Response send(const Request& request) override;

private:
  // Whether `host` still may be tried; counts the outcome of one attempt.
  std::optional<Response> over_budget(const std::string& host);
  void count(const std::string& host, const Response& r, bool retry);
  Response asked_too_long(Response r, std::chrono::milliseconds asked, int attempt) const;

  std::unique_ptr<Transport> m_inner;
  const RetryPolicy& m_policy;
  const Log& m_log;
  std::mutex m_mutex;
  std::map<std::string, int> m_failures; // consecutive failed attempts per host
};

} // namespace opm::registry
