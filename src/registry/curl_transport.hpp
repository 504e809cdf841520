#pragma once

#include "registry/http.hpp"
#include "registry/options.hpp"
#include "registry/tls.hpp"

#include <functional>
#include <memory>

namespace opm::registry {

// TLS settings for a host[:port]; the transport asks once per request.
using TlsProvider = std::function<std::shared_ptr<const TlsConfig>(const std::string& host)>;

// One HTTP exchange through libcurl: no redirects followed, proxies chosen with Go's rules,
// connections reused through a pool of handles. Thread-safe.
class CurlTransport final : public Transport {
public:
  CurlTransport(const Options& options, TlsProvider tls);
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  Response send(const Request& request) override;

private:
  struct Pool;
  const Options& m_options;
  TlsProvider m_tls;
  std::unique_ptr<Pool> m_pool;
};

// Go's http.ProxyFromEnvironment: the proxy URL for `url`, or empty for a direct connection.
std::string proxy_for(const Options& options, std::string_view url);

// Set by the interrupt handler: transfers stop at their next progress callback.
bool transfers_cancelled();

} // namespace opm::registry
