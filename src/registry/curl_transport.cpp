#include "registry/curl_transport.hpp"

#include "registry/crypto_library.hpp"
#include "registry/curl_library.hpp"
#include "registry/reference.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <curl/curl.h>

#include <unistd.h>

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <cstring>
#include <mutex>
#include <vector>

namespace opm::registry {

void add_extra_roots(const TlsConfig& tls, void* x509_store);

bool transfers_cancelled() { return util::interrupted(); }

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return s;
}

bool ip_in_cidr(std::string_view ip, std::string_view cidr) {
  auto slash = cidr.find('/');
  std::string net(cidr.substr(0, slash));
  int bits = std::atoi(std::string(cidr.substr(slash + 1)).c_str());
  unsigned char a[16];
  unsigned char b[16];
  int len = 0;
  std::string ips(ip);
  if (::inet_pton(AF_INET, ips.c_str(), a) == 1 && ::inet_pton(AF_INET, net.c_str(), b) == 1) {
    len = 4;
  } else if (::inet_pton(AF_INET6, ips.c_str(), a) == 1 &&
             ::inet_pton(AF_INET6, net.c_str(), b) == 1) {
    len = 16;
  } else {
    return false;
  }
  bits = std::clamp(bits, 0, len * 8);
  for (int i = 0; i < bits; ++i) {
    int mask = 0x80 >> (i % 8);
    if ((a[i / 8] & mask) != (b[i / 8] & mask)) {
      return false;
    }
  }
  return true;
}

bool no_proxy_matches(std::string_view no_proxy, const Url& url) {
  std::string host = util::ascii_lower(url.hostname());
  int port = url.port();
  std::size_t start = 0;
  std::string list(no_proxy);
  for (;;) {
    auto comma = list.find(',', start);
    std::string entry =
        util::ascii_lower(trim(std::string_view(list).substr(start, comma - start)));
    start = comma == std::string::npos ? list.size() : comma + 1;
    if (!entry.empty()) {
      if (entry == "*") {
        return true;
      }
      if (entry.find('/') != std::string::npos) {
        if (ip_in_cidr(host, entry)) {
          return true;
        }
      } else {
        int entry_port = 0;
        std::string name = entry;
        if (auto colon = entry.rfind(':'); colon != std::string::npos && entry.find(':') == colon) {
          entry_port = std::atoi(entry.c_str() + colon + 1);
          name = entry.substr(0, colon);
        }
        if (name.starts_with('[') && name.ends_with(']')) {
          name = name.substr(1, name.size() - 2);
        }
        if (entry_port == 0 || entry_port == port) {
          if (name.starts_with('.')) {
            name.erase(0, 1);
          }
          if (host == name || (host.size() > name.size() && host.ends_with(name) &&
                               host[host.size() - name.size() - 1] == '.')) {
            return true;
          }
        }
      }
    }
    if (comma == std::string::npos) {
      return false;
    }
  }
}

struct Exchange {
  const Request* request = nullptr;
  Response* response = nullptr;
  bool in_body = false;
  bool success_status = false;
};

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) {
    ex->response->headers.clear();
    auto sp = line.find(' ');
    ex->response->status = sp == std::string_view::npos ? 0 : std::atol(line.data() + sp + 1);
    ex->success_status = ex->response->status >= 200 && ex->response->status < 300;
    return size * n;
  }
  auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    ex->response->headers.emplace_back(util::ascii_lower(trim(line.substr(0, colon))),
                                       std::string(trim(line.substr(colon + 1))));
  }
  return size * n;
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  std::string_view chunk(data, size * n);
  Response& r = *ex->response;
  if (ex->success_status && ex->request->sink) {
    if (!ex->request->sink(chunk, r)) {
      r.aborted_by_sink = true;
      return 0;
    }
    r.delivered += chunk.size();
    return chunk.size();
  }
  std::size_t cap = ex->success_status ? ex->request->max_body : k_small_body_cap;
  if (r.body.size() + chunk.size() > cap) {
    r.body_too_large = true;
    return 0;
  }
  r.body.append(chunk);
  r.delivered += chunk.size();
  return chunk.size();
}

// Whether libcurl's built-in CA bundle exists. Without it (no ca-certificates package)
// libcurl refuses every verified connection before the handshake; Go instead verifies
// against an empty system pool plus the roots it was given, and so do we.
bool default_ca_bundle_exists(CURL* h) {
  static const bool exists = [h] {
    char* path = nullptr;
    loaded_curl().easy_getinfo(h, CURLINFO_CAINFO, &path);
    return path == nullptr || ::access(path, R_OK) == 0;
  }();
  return exists;
}

int on_progress(void*, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return transfers_cancelled() ? 1 : 0;
}

CURLcode on_ssl_ctx(CURL*, void* ssl_ctx, void* user) {
  const auto* tls = static_cast<const TlsConfig*>(user);
  const CertStoreOf store_of = cert_store_of();
  if (store_of == nullptr) {
    return CURLE_SSL_CERTPROBLEM;
  }
  add_extra_roots(*tls, store_of(static_cast<SSL_CTX*>(ssl_ctx)));
  return CURLE_OK;
}

} // namespace

std::string proxy_for(const Options& options, std::string_view url_text) {
  auto url = parse_url(url_text);
  if (!url || is_loopback_host(url->host)) {
    return {};
  }
  auto no_proxy = options.getenv("NO_PROXY");
  if (!no_proxy) {
    no_proxy = options.getenv("no_proxy");
  }
  if (no_proxy && no_proxy_matches(*no_proxy, *url)) {
    return {};
  }
  std::optional<std::string> proxy;
  if (url->scheme == "https") {
    proxy = options.getenv("HTTPS_PROXY");
    if (!proxy) {
      proxy = options.getenv("https_proxy");
    }
  } else {
    proxy = options.getenv("HTTP_PROXY");
    if (!proxy) {
      proxy = options.getenv("http_proxy");
    }
  }
  return proxy.value_or("");
}

struct CurlEasyCleanup {
  void operator()(CURL* h) const noexcept { loaded_curl().easy_cleanup(h); }
};
struct CurlSlistFree {
  void operator()(curl_slist* list) const noexcept { loaded_curl().slist_free_all(list); }
};
using CurlEasy = std::unique_ptr<CURL, CurlEasyCleanup>;
using CurlHeaders = std::unique_ptr<curl_slist, CurlSlistFree>;

namespace {

// The request's headers as libcurl's list, plus an empty "Expect:" so that bodies are
// sent without waiting for "100 Continue".
CurlHeaders header_list(const Headers& headers) {
  CurlHeaders list;
  auto append = [&list](const std::string& line) {
    // On failure curl_slist_append returns null and leaves the list as it was.
    if (curl_slist* grown = loaded_curl().slist_append(list.get(), line.c_str())) {
      (void)list.release();
      list.reset(grown);
    }
  };
  for (const auto& [k, v] : headers) {
    append(k + ": " + v);
  }
  append("Expect:");
  return list;
}

} // namespace

// Idle handles kept for their open connections.
struct CurlTransport::Pool {
  std::mutex mutex;
  std::vector<CurlEasy> idle;
  CurlEasy acquire() {
    {
      std::lock_guard lock(mutex);
      if (!idle.empty()) {
        CurlEasy h = std::move(idle.back());
        idle.pop_back();
        return h;
      }
    }
    return CurlEasy(loaded_curl().easy_init());
  }
  void release(CurlEasy h) {
    std::lock_guard lock(mutex);
    idle.push_back(std::move(h));
  }
};

CurlTransport::CurlTransport(const Options& options, TlsProvider tls)
    : m_options(options), m_tls(std::move(tls)), m_pool(std::make_unique<Pool>()) {}

CurlTransport::~CurlTransport() = default;

Response CurlTransport::send(const Request& request) {
  Response response;
  auto started = std::chrono::steady_clock::now();
  auto url = parse_url(request.url);
  if (!url) {
    response.transport_error = "invalid URL";
    return response;
  }
  if (auto library = curl_library(); !library) {
    response.transport_error = library.error().message();
    return response;
  }
  CurlEasy handle = m_pool->acquire();
  CURL* h = handle.get();
  if (h == nullptr) {
    response.transport_error = "cannot initialise libcurl";
    return response;
  }
  loaded_curl().easy_reset(h);
  Exchange ex{&request, &response};
  char errbuf[CURL_ERROR_SIZE] = {0};
  loaded_curl().easy_setopt(h, CURLOPT_URL, request.url.c_str());
  loaded_curl().easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  loaded_curl().easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  loaded_curl().easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  loaded_curl().easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  if (!m_options.user_agent.empty()) {
    loaded_curl().easy_setopt(h, CURLOPT_USERAGENT, m_options.user_agent.c_str());
  }
  loaded_curl().easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  loaded_curl().easy_setopt(h, CURLOPT_HEADERDATA, &ex);
  loaded_curl().easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  loaded_curl().easy_setopt(h, CURLOPT_WRITEDATA, &ex);
  loaded_curl().easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  loaded_curl().easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
  loaded_curl().easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                            static_cast<long>(m_options.timeouts.connect.count()));
  loaded_curl().easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
  loaded_curl().easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
                            static_cast<long>(m_options.timeouts.stall.count()));
  if (!request.blob) {
    loaded_curl().easy_setopt(h, CURLOPT_TIMEOUT_MS,
                              static_cast<long>(m_options.timeouts.request.count()));
  }
  loaded_curl().easy_setopt(h, CURLOPT_ACCEPT_ENCODING, nullptr);
  loaded_curl().easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);

  std::string proxy = proxy_for(m_options, request.url);
  loaded_curl().easy_setopt(h, CURLOPT_PROXY, proxy.c_str());

  std::shared_ptr<const TlsConfig> tls;
  if (url->scheme == "https") {
    tls = m_tls ? m_tls(url->host) : nullptr;
    if (tls) {
      loaded_curl().easy_setopt(h, CURLOPT_SSL_VERIFYPEER, tls->verify ? 1L : 0L);
      loaded_curl().easy_setopt(h, CURLOPT_SSL_VERIFYHOST, tls->verify ? 2L : 0L);
      if (!tls->ca_file.empty()) {
        loaded_curl().easy_setopt(h, CURLOPT_CAINFO, tls->ca_file.c_str());
      } else if (!default_ca_bundle_exists(h)) {
        loaded_curl().easy_setopt(h, CURLOPT_CAINFO, nullptr);
      }
      if (!tls->ca_dir.empty()) {
        loaded_curl().easy_setopt(h, CURLOPT_CAPATH, tls->ca_dir.c_str());
      }
      if (tls->loaded) {
        // Extra roots go into this connection's store only: no shared CA cache.
        loaded_curl().easy_setopt(h, CURLOPT_CA_CACHE_TIMEOUT, 0L);
        loaded_curl().easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
        loaded_curl().easy_setopt(h, CURLOPT_SSL_CTX_DATA, tls.get());
      }
      if (!tls->client_cert.empty()) {
        loaded_curl().easy_setopt(h, CURLOPT_SSLCERT, tls->client_cert.c_str());
        loaded_curl().easy_setopt(h, CURLOPT_SSLKEY, tls->client_key.c_str());
      }
    }
    loaded_curl().easy_setopt(h, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
  }

  CurlHeaders headers = header_list(request.headers);
  loaded_curl().easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  if (request.method == "HEAD") {
    loaded_curl().easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (request.method == "POST") {
    loaded_curl().easy_setopt(h, CURLOPT_POST, 1L);
    loaded_curl().easy_setopt(h, CURLOPT_POSTFIELDS, request.body.c_str());
    loaded_curl().easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
  } else if (request.method != "GET") {
    loaded_curl().easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    if (!request.body.empty()) {
      loaded_curl().easy_setopt(h, CURLOPT_POSTFIELDS, request.body.c_str());
      loaded_curl().easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
    }
  }

  CURLcode rc = loaded_curl().easy_perform(h);
  loaded_curl().easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
  headers.reset();
  if (rc != CURLE_OK) {
    bool keep_status = response.body_too_large || response.aborted_by_sink;
    if (!keep_status) {
      response.status = 0;
    }
    std::string text = errbuf[0] != '\0' ? errbuf : loaded_curl().easy_strerror(rc);
    if (transfers_cancelled()) {
      text = "interrupted";
    }
    response.transport_error = text;
    response.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    response.tls_failure = rc == CURLE_SSL_CONNECT_ERROR || rc == CURLE_PEER_FAILED_VERIFICATION ||
                           rc == CURLE_SSL_CACERT_BADFILE || rc == CURLE_SSL_CERTPROBLEM;
    // A refused connection or a name that does not resolve will not recover in the seconds
    // a retry waits: fail at once, as upstream does.
    response.retryable = rc == CURLE_SEND_ERROR || rc == CURLE_RECV_ERROR ||
                         rc == CURLE_GOT_NOTHING || rc == CURLE_PARTIAL_FILE ||
                         rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_HTTP2 ||
                         rc == CURLE_HTTP2_STREAM;
    response.http_to_https = rc == CURLE_SSL_CONNECT_ERROR &&
                             (text.find("wrong version number") != std::string::npos ||
                              text.find("packet length too long") != std::string::npos ||
                              text.find("record layer failure") != std::string::npos);
    // A partial body that broke mid-way keeps its status so callers can resume.
    if (!keep_status && response.delivered > 0) {
      response.status = 0;
    }
  }
  response.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  m_pool->release(std::move(handle));
  return response;
}

} // namespace opm::registry
