#pragma once

#include "registry/http.hpp"
#include "registry/options.hpp"

#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace opm::registry {

// Follows up to 10 redirects (301, 302, 303, 307, 308) as Go's http.Client does: a 303
// turns into a bodiless GET, and Authorization is dropped when the scheme, host or port
// changes.
class RedirectTransport final : public Transport {
public:
  explicit RedirectTransport(std::unique_ptr<Transport> inner);
  Response send(const Request& request) override;

private:
  std::unique_ptr<Transport> m_inner;
};

// Logs each exchange at debug level with its URL redacted and never a header value
// (go-containerregistry pkg/v1/remote/transport/logger.go), and each distinct
// "Warning: 299" header from a registry once at warn level. Thread-safe.
class LogTransport final : public Transport {
public:
  LogTransport(std::unique_ptr<Transport> inner, const Log& log);
  Response send(const Request& request) override;

private:
  std::unique_ptr<Transport> m_inner;
  const Log& m_log;
  std::mutex m_mutex;
  std::set<std::string> m_warnings;
};

} // namespace opm::registry
