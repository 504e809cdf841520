#pragma once

#include "registry/challenge.hpp"
#include "registry/http.hpp"
#include "registry/keychain.hpp"
#include "registry/options.hpp"
#include "registry/tls.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace opm::registry {

// One registry as a pull source: where its API lives, which name credentials are filed
// under, and whether it may be reached without TLS verification or over plain HTTP.
struct Endpoint {
  std::string api_host;  // "registry-1.docker.io", "127.0.0.1:5000"
  std::string cred_host; // "docker.io", "127.0.0.1:5000"
  bool insecure = false;
};

// Everything shared by the requests of one process: scheme decisions, challenges,
// tokens, TLS settings, and the transport stack under this authorising layer:
// RetryTransport -> RedirectTransport -> LogTransport -> libcurl (or the transport given,
// which replaces libcurl only). Thread-safe.
class Session {
public:
  explicit Session(const Options& options, std::unique_ptr<Transport> transport = nullptr);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // A request to `path` ("/v2/<repo>/manifests/<ref>") of the registry, authorised for
  // `repository` with `actions` ("pull"). The request's url is filled in. Non-2xx answers
  // are returned as responses; a transport failure after all retries is an Error.
  Result<Response> request(const Endpoint& endpoint, const std::string& repository, Request request,
                           std::string_view actions = "pull");

  // "GET <url>: CODE: message" for a failed answer: the registry's error codes and
  // messages when its body has them, else the status line (and the body's first bytes),
  // plus "(after N attempts)" when it was retried.
  static Error status_error(const Request& request, const Response& response);

  [[nodiscard]] const Options& options() const { return m_options; }
  Keychain& keychain() { return m_keychain; }

private:
  static Error status_error_text(const Request& request, const Response& response);
  struct HostState;
  struct TokenEntry;

  Result<std::shared_ptr<HostState>> ping(const Endpoint& endpoint);
  Result<std::string> authorization(const Endpoint& endpoint, HostState& host,
                                    const Challenge& challenge, const std::string& repository,
                                    std::string_view actions, bool refresh,
                                    const std::string& stale);
  Result<std::string> fetch_token(const Endpoint& endpoint, const Challenge& challenge,
                                  const std::string& scopes, const std::string& repository);
  Result<std::optional<Credentials>> credentials(const Endpoint& endpoint,
                                                 const std::string& repository);
  std::shared_ptr<const TlsConfig> tls_for(const std::string& host);

  const Options& m_options;
  Keychain m_keychain;
  std::unique_ptr<Transport> m_transport;
  std::mutex m_mutex;
  std::map<std::string, std::shared_ptr<HostState>> m_hosts;
  std::map<std::string, std::shared_ptr<TokenEntry>> m_tokens;
  std::map<std::string, std::shared_ptr<const TlsConfig>> m_tls;
  std::set<std::string> m_insecure_hosts;
};

} // namespace opm::registry
