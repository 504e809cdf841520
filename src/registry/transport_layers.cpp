#include "registry/detail/transport_layers.hpp"

#include <fmt/format.h>

namespace opm::registry {

namespace {

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

constexpr int k_max_redirects = 10;

} // namespace

RedirectTransport::RedirectTransport(std::unique_ptr<Transport> inner)
    : m_inner(std::move(inner)) {}

Response RedirectTransport::send(const Request& original) {
  Request request = original;
  auto origin = parse_url(request.url);
  for (int hop = 0;; ++hop) {
    Response r = m_inner->send(request);
    if (!is_redirect(r.status)) {
      return r;
    }
    if (hop >= k_max_redirects) {
      // Go's http.Client gives up with this text after ten redirects.
      Response stopped;
      stopped.transport_error = fmt::format("stopped after {} redirects", k_max_redirects);
      return stopped;
    }
    auto location = r.header("location");
    if (!location) {
      return r;
    }
    std::string next = resolve_url(request.url, *location);
    auto next_url = parse_url(next);
    if (!next_url) {
      return r;
    }
    // Authorization is never carried to another scheme, host or port.
    if (!origin || next_url->origin() != origin->origin()) {
      request.remove_header("authorization");
    }
    if (r.status == 303 && request.method != "HEAD") {
      request.method = "GET";
      request.body.clear();
    }
    request.url = std::move(next);
  }
}

LogTransport::LogTransport(std::unique_ptr<Transport> inner, const Log& log)
    : m_inner(std::move(inner)), m_log(log) {}

Response LogTransport::send(const Request& request) {
  Response r = m_inner->send(request);
  if (m_log.enabled(LogLevel::debug)) {
    std::string outcome = r.broken() ? "error: " + r.transport_error : std::to_string(r.status);
    m_log.debug("{} {} -> {} ({} bytes, {} ms){}{}", request.method, redact_url(request.url),
                outcome, r.delivered, r.elapsed.count(),
                request.header("authorization") ? " [authorization redacted]" : "",
                request.note.empty() ? "" : " " + request.note);
  }
  for (const auto& w : r.all("warning")) {
    if (w.starts_with("299")) {
      std::lock_guard lock(m_mutex);
      if (m_warnings.insert(w).second) {
        m_log.warn("registry warning: {}", w);
      }
    }
  }
  return r;
}

} // namespace opm::registry
