#include "registry/client.hpp"

#include "registry/crypto_library.hpp"
#include "registry/curl_transport.hpp"
#include "registry/detail/retry.hpp"
#include "registry/detail/transport_layers.hpp"
#include "registry/reference.hpp"
#include "util/strings.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace opm::registry {

namespace {

using Clock = std::chrono::steady_clock;

std::string base64(std::string_view in) {
  std::string out(4 * ((in.size() + 2) / 3) + 1, '\0');
  int n = crypto().encode_base64(reinterpret_cast<unsigned char*>(out.data()),
                                 reinterpret_cast<const unsigned char*>(in.data()),
                                 static_cast<int>(in.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::string sorted_scopes(std::string_view scopes) {
  std::vector<std::string> parts = util::split(scopes, ' ');
  std::erase(parts, std::string());
  std::sort(parts.begin(), parts.end());
  parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
  return util::join(parts, " ");
}

std::string first_bytes(std::string_view body) {
  std::string s(body.substr(0, 200));
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') {
      c = ' ';
    }
  }
  return s;
}

std::string status_text(long status) {
  switch (status) {
  case 400:
    return "Bad Request";
  case 401:
    return "Unauthorized";
  case 403:
    return "Forbidden";
  case 404:
    return "Not Found";
  case 405:
    return "Method Not Allowed";
  case 408:
    return "Request Timeout";
  case 416:
    return "Requested Range Not Satisfiable";
  case 429:
    return "Too Many Requests";
  case 500:
    return "Internal Server Error";
  case 502:
    return "Bad Gateway";
  case 503:
    return "Service Unavailable";
  case 504:
    return "Gateway Timeout";
  default:
    return "";
  }
}

} // namespace

struct Session::HostState {
  std::mutex mutex;
  bool done = false;
  std::optional<Error> error;
  std::string base; // "https://host"
  std::vector<Challenge> challenges;
};

struct Session::TokenEntry {
  std::mutex mutex;
  std::string token;
  Clock::time_point expires{};
};

Session::Session(const Options& options, std::unique_ptr<Transport> transport)
    : m_options(options), m_keychain(options) {
  if (!transport) {
    transport = std::make_unique<CurlTransport>(
        options, [this](const std::string& host) { return tls_for(host); });
  }
  m_transport = std::make_unique<RetryTransport>(
      std::make_unique<RedirectTransport>(
          std::make_unique<LogTransport>(std::move(transport), options.log)),
      options.retry, options.log);
}

Session::~Session() = default;

std::shared_ptr<const TlsConfig> Session::tls_for(const std::string& host) {
  std::lock_guard lock(m_mutex);
  if (auto it = m_tls.find(host); it != m_tls.end()) {
    return it->second;
  }
  // Hosts not met through ping (token realms, redirect targets): default trust,
  // unverified only when the whole run is insecure.
  auto made = make_tls_config(m_options, host, false);
  auto cfg = made ? *made : std::make_shared<const TlsConfig>();
  m_tls.emplace(host, cfg);
  return cfg;
}

Error Session::status_error(const Request& request, const Response& response) {
  Error e = status_error_text(request, response);
  if (response.attempts > 1 && !response.broken()) {
    return Error(e.code(), fmt::format("{} (after {} attempts)", e.message(), response.attempts));
  }
  return e;
}

Error Session::status_error_text(const Request& request, const Response& response) {
  std::string where = fmt::format("{} {}", request.method, redact_url(request.url));
  Errc code = response.status == 404 ? Errc::not_found : Errc::network;
  if (response.broken()) {
    return Error(Errc::network, fmt::format("{}: {}", where, response.transport_error));
  }
  auto doc = nlohmann::json::parse(response.body, nullptr, false);
  if (doc.is_object() && doc.contains("errors") && doc["errors"].is_array() &&
      !doc["errors"].empty()) {
    std::string text;
    for (const auto& e : doc["errors"]) {
      if (!e.is_object()) {
        continue;
      }
      if (!text.empty()) {
        text += "; ";
      }
      std::string c = e.value("code", "");
      std::string m = e.value("message", "");
      text += c.empty() ? m : m.empty() ? c : c + ": " + m;
    }
    if (!text.empty()) {
      return Error(code, fmt::format("{}: {}", where, text));
    }
  }
  std::string line = fmt::format("{} {}", response.status, status_text(response.status));
  while (!line.empty() && line.back() == ' ') {
    line.pop_back();
  }
  if (request.method == "HEAD" || response.body.empty()) {
    return Error(code, fmt::format("{}: unexpected status {}", where, line));
  }
  return Error(
      code, fmt::format("{}: unexpected status {}: {}", where, line, first_bytes(response.body)));
}

Result<std::shared_ptr<Session::HostState>> Session::ping(const Endpoint& endpoint) {
  std::shared_ptr<HostState> host;
  {
    std::lock_guard lock(m_mutex);
    auto& slot = m_hosts[endpoint.api_host];
    if (!slot) {
      slot = std::make_shared<HostState>();
    }
    host = slot;
  }
  std::lock_guard host_lock(host->mutex);
  if (host->done) {
    if (host->error) {
      return std::unexpected(*host->error);
    }
    return host;
  }
  bool insecure = endpoint.insecure || m_options.use_http || m_options.skip_tls_verify;
  auto tls = make_tls_config(m_options, endpoint.api_host, insecure);
  if (!tls) {
    host->done = true;
    host->error = tls.error();
    return std::unexpected(tls.error());
  }
  {
    std::lock_guard lock(m_mutex);
    m_tls[endpoint.api_host] = *tls;
  }
  std::vector<std::string> schemes = {"https"};
  if (insecure) {
    schemes.emplace_back("http");
  }
  std::vector<std::string> failures;
  for (const auto& scheme : schemes) {
    Request req;
    req.url = scheme + "://" + endpoint.api_host + "/v2/";
    req.max_body = k_small_body_cap;
    Response r = m_transport->send(req);
    bool v2 = r.status == 200 || r.status == 401 ||
              (r.status != 0 && r.header("docker-distribution-api-version").has_value());
    if (v2) {
      host->base = scheme + "://" + endpoint.api_host;
      if (r.status == 401) {
        for (const auto& h : r.all("www-authenticate")) {
          auto parsed = parse_challenges(h);
          host->challenges.insert(host->challenges.end(), parsed.begin(), parsed.end());
        }
      }
      host->done = true;
      m_options.log.debug("registry {} speaks {}{}", endpoint.api_host, scheme,
                          r.status == 401 ? " and wants authentication" : "");
      return host;
    }
    std::string why;
    if (r.broken()) {
      why = r.http_to_https ? "http: server gave HTTP response to HTTPS client" : r.transport_error;
      if (r.tls_failure && !r.http_to_https && scheme == "https") {
        why += fmt::format(" (add the CA to certs.d/{}/ca.crt, or use --skip-tls-verify)",
                           endpoint.api_host);
      }
    } else {
      why = status_error(req, r).message();
    }
    failures.push_back(fmt::format("Get \"{}\": {}", req.url, why));
    if (r.http_to_https && !insecure) {
      failures.back() += " (use --use-http for a plain-HTTP registry)";
    }
  }
  std::string message =
      fmt::format("pinging container registry {}: {}", endpoint.api_host, failures.front());
  for (std::size_t i = 1; i < failures.size(); ++i) {
    message += "; " + failures[i];
  }
  host->done = true;
  host->error = Error(Errc::network, message);
  return std::unexpected(*host->error);
}

Result<std::optional<Credentials>> Session::credentials(const Endpoint& endpoint,
                                                        const std::string& repository) {
  return m_keychain.lookup(endpoint.cred_host, repository);
}

Result<std::string> Session::fetch_token(const Endpoint& endpoint, const Challenge& challenge,
                                         const std::string& scopes, const std::string& repository) {
  std::string realm = challenge.param("realm");
  auto realm_url = parse_url(realm);
  if (!realm_url) {
    return util::fail(Errc::network, fmt::format("invalid token realm \"{}\"", realm));
  }
  bool insecure = endpoint.insecure || m_options.use_http || m_options.skip_tls_verify;
  if (realm_url->scheme != "https" &&
      !(realm_url->scheme == "http" && (insecure || is_loopback_host(realm_url->host)))) {
    return util::fail(Errc::network,
                      fmt::format("refusing token realm {}: not https", redact_url(realm)));
  }
  std::string hostname = realm_url->hostname();
  if (hostname.starts_with("169.254.") || hostname.starts_with("fe80:")) {
    return util::fail(Errc::network, fmt::format("refusing token realm {}: link-local address",
                                                 redact_url(realm)));
  }
  std::string service = challenge.param("service");
  auto creds = OPM_TRY(credentials(endpoint, repository));

  auto query = [&] {
    std::string q;
    if (!service.empty()) {
      q += "service=" + url_encode(service);
    }
    std::size_t start = 0;
    while (start < scopes.size()) {
      auto sp = scopes.find(' ', start);
      std::string s = scopes.substr(start, sp - start);
      if (!s.empty()) {
        q += (q.empty() ? "" : "&") + std::string("scope=") + url_encode(s);
      }
      if (sp == std::string::npos) {
        break;
      }
      start = sp + 1;
    }
    return q;
  };

  Response r;
  Request req;
  req.max_body = k_small_body_cap;
  bool done = false;
  if (creds && !creds->identity_token.empty()) {
    req.method = "POST";
    req.url = realm;
    req.set_header("Content-Type", "application/x-www-form-urlencoded");
    req.body = "grant_type=refresh_token&refresh_token=" + url_encode(creds->identity_token) +
               "&client_id=opm";
    std::string q = query();
    if (!q.empty()) {
      req.body += "&" + q;
    }
    r = m_transport->send(req);
    done = !(r.status == 404 || r.status == 405 || r.status == 401);
  }
  if (!done) {
    req = Request{};
    req.max_body = k_small_body_cap;
    std::string q = query();
    req.url = realm + (q.empty() ? "" : (realm.find('?') == std::string::npos ? "?" : "&") + q);
    if (creds && !creds->username.empty()) {
      req.set_header("Authorization", "Basic " + base64(creds->username + ":" + creds->password));
    }
    r = m_transport->send(req);
  }
  if (r.broken()) {
    return util::fail(Errc::network, fmt::format("fetching token from {}: {}",
                                                 redact_url(req.url.substr(0, req.url.find('?'))),
                                                 r.transport_error));
  }
  if (r.status != 200) {
    std::string base = fmt::format("unauthorized: fetching a token for {} failed with status {}",
                                   endpoint.api_host, r.status);
    if (r.status == 401 && creds) {
      base += fmt::format(" (credentials from {} were rejected)", creds->source);
    }
    return util::fail(Errc::network, base);
  }
  auto doc = nlohmann::json::parse(r.body, nullptr, false);
  if (!doc.is_object()) {
    return util::fail(Errc::network, "no token in bearer response");
  }
  std::string token;
  if (auto it = doc.find("token"); it != doc.end() && it->is_string()) {
    token = it->get<std::string>();
  }
  if (token.empty()) {
    if (auto it = doc.find("access_token"); it != doc.end() && it->is_string()) {
      token = it->get<std::string>();
    }
  }
  if (token.empty()) {
    return util::fail(Errc::network, "no token in bearer response");
  }
  m_options.log.debug("bearer token for {} scope \"{}\" from {}{}", endpoint.api_host, scopes,
                      redact_url(realm),
                      creds ? " with credentials from " + creds->source : " (anonymous)");
  return token + "\n" +
         std::to_string(doc.contains("expires_in") && doc["expires_in"].is_number()
                            ? doc["expires_in"].get<long long>()
                            : 0);
}

Result<std::string> Session::authorization(const Endpoint& endpoint, HostState& host,
                                           const Challenge& challenge,
                                           const std::string& repository, std::string_view actions,
                                           bool refresh, const std::string& stale) {
  (void)host;
  if (challenge.scheme == "basic") {
    auto creds = OPM_TRY(credentials(endpoint, repository));
    if (!creds || creds->username.empty()) {
      return std::string{};
    }
    return "Basic " + base64(creds->username + ":" + creds->password);
  }
  std::string scope = fmt::format("repository:{}:{}", repository, actions);
  std::string challenged = challenge.param("scope");
  std::string scopes =
      sorted_scopes(challenged.empty() || !refresh ? scope : scope + " " + challenged);
  std::string key = endpoint.api_host + "|" + challenge.param("realm") + "|" +
                    challenge.param("service") + "|" + scopes;
  std::shared_ptr<TokenEntry> entry;
  {
    std::lock_guard lock(m_mutex);
    auto& slot = m_tokens[key];
    if (!slot) {
      slot = std::make_shared<TokenEntry>();
    }
    entry = slot;
  }
  // One fetch in flight per key: the others wait here and reuse its token.
  std::lock_guard lock(entry->mutex);
  auto now = Clock::now();
  bool stale_hit = refresh && !stale.empty() && entry->token == stale;
  if (!entry->token.empty() && now < entry->expires && !stale_hit) {
    return "Bearer " + entry->token;
  }
  auto fetched = OPM_TRY(fetch_token(endpoint, challenge, scopes, repository));
  auto nl = fetched.rfind('\n');
  long long expires_in = std::stoll(fetched.substr(nl + 1));
  entry->token = fetched.substr(0, nl);
  entry->expires = now + std::chrono::seconds(std::max<long long>(expires_in, 60) - 10);
  return "Bearer " + entry->token;
}

Result<Response> Session::request(const Endpoint& endpoint, const std::string& repository,
                                  Request request, std::string_view actions) {
  auto host = OPM_TRY(ping(endpoint));
  request.url = host->base + request.url;
  std::optional<Challenge> challenge;
  {
    std::lock_guard host_lock(host->mutex);
    if (const Challenge* c = pick_challenge(host->challenges)) {
      challenge = *c;
    }
  }
  std::string auth;
  if (challenge) {
    auth = OPM_TRY(authorization(endpoint, *host, *challenge, repository, actions, false, {}));
    if (!auth.empty()) {
      request.set_header("Authorization", auth);
    }
  }
  Response r = m_transport->send(request);
  if (r.status == 401) {
    std::vector<Challenge> fresh;
    for (const auto& h : r.all("www-authenticate")) {
      auto parsed = parse_challenges(h);
      fresh.insert(fresh.end(), parsed.begin(), parsed.end());
    }
    const Challenge* again = pick_challenge(fresh);
    if (again != nullptr && !challenge) {
      // An open /v2/ but a protected repository: send credentials up front from now on.
      std::lock_guard host_lock(host->mutex);
      if (host->challenges.empty()) {
        host->challenges.push_back(*again);
        host->challenges.back().params.erase("error");
        host->challenges.back().params.erase("scope");
      }
    }
    if (again != nullptr) {
      std::string stale = auth.starts_with("Bearer ") ? auth.substr(7) : std::string{};
      std::string error = again->param("error");
      m_options.log.debug("401 from {}{}: authenticating again", endpoint.api_host,
                          error.empty() ? "" : " (" + error + ")");
      std::string next =
          OPM_TRY(authorization(endpoint, *host, *again, repository, actions, true, stale));
      if (!next.empty() && next != auth) {
        request.set_header("Authorization", next);
        r = m_transport->send(request);
      }
    }
    if (r.status == 401) {
      std::string message = status_error(request, r).message();
      auto creds = credentials(endpoint, repository);
      std::string hint;
      if (creds && !*creds) {
        hint = "; no credentials found for " + endpoint.cred_host + " in";
        for (const auto& f : m_keychain.search_order()) {
          hint += " " + f.string();
        }
      }
      return util::fail(Errc::network,
                        fmt::format("unauthorized: authentication required: {}{}", message, hint));
    }
  }
  if (r.broken() && r.delivered == 0) {
    return std::unexpected(status_error(request, r));
  }
  r.url = request.url;
  return r;
}

} // namespace opm::registry
