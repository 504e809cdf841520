#include "registry/detail/retry.hpp"

#include "util/interrupt.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <random>
#include <thread>

namespace opm::registry {

namespace {

using Clock = std::chrono::steady_clock;

bool retryable_status(long status) {
  return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 ||
         status == 504;
}

// Retry-After: delta-seconds or an HTTP date; past dates and garbage give nullopt.
std::optional<std::chrono::milliseconds> retry_after(const Response& r) {
  auto v = r.header("retry-after");
  if (!v || v->empty()) {
    return std::nullopt;
  }
  if (std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::chrono::milliseconds(std::stoll(v->substr(0, 9)) * 1000);
  }
  std::tm tm{};
  if (::strptime(v->c_str(), "%a, %d %b %Y %H:%M:%S", &tm) == nullptr) {
    return std::nullopt;
  }
  std::time_t when = ::timegm(&tm);
  std::time_t now = std::time(nullptr);
  if (when <= now) {
    return std::nullopt;
  }
  return std::chrono::milliseconds((when - now) * 1000);
}

void interruptible_sleep(std::chrono::milliseconds d) {
  auto until = Clock::now() + d;
  while (!util::interrupted() && Clock::now() < until) {
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(50),
        std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now())));
  }
}

} // namespace

RetryTransport::RetryTransport(std::unique_ptr<Transport> inner, const RetryPolicy& policy,
                               const Log& log)
    : m_inner(std::move(inner)), m_policy(policy), m_log(log) {}

// A registry that asks to be left alone for longer than we wait in all is given up on at
// once, with what it asked, rather than after a long silence.
Response RetryTransport::asked_too_long(Response r, std::chrono::milliseconds asked,
                                        int attempt) const {
  using std::chrono::seconds;
  r.transport_error = fmt::format(
      "the registry answered {} and asked to wait {} s before trying again; giving up, as "
      "opm waits at most {} s for a registry",
      r.status, std::chrono::duration_cast<seconds>(asked).count(),
      std::chrono::duration_cast<seconds>(m_policy.max_retry_after).count());
  r.status = 0;
  r.attempts = attempt;
  return r;
}

std::optional<Response> RetryTransport::over_budget(const std::string& host) {
  std::lock_guard lock(m_mutex);
  int failures = m_failures[host];
  if (failures < m_policy.host_failure_budget) {
    return std::nullopt;
  }
  Response r;
  r.transport_error =
      fmt::format("giving up on {} after {} consecutive failed attempts", host, failures);
  return r;
}

void RetryTransport::count(const std::string& host, const Response& r, bool retry) {
  std::lock_guard lock(m_mutex);
  if (retry) {
    ++m_failures[host];
  } else if (!r.broken()) {
    m_failures[host] = 0;
  }
}

Response RetryTransport::send(const Request& original) {
  auto url = parse_url(original.url);
  std::string host = url ? url->host : std::string{};
  Request request = original;
  auto delay = m_policy.initial_delay;
  thread_local std::mt19937 rng(std::random_device{}());
  std::chrono::milliseconds asked_total{0}; // what Retry-After headers asked for so far
  for (int attempt = 1;; ++attempt) {
    if (auto refused = over_budget(host)) {
      return *refused;
    }
    Response r = m_inner->send(request);
    bool broke_clean =
        r.broken() && r.retryable && r.delivered == 0 && !r.aborted_by_sink && !util::interrupted();
    bool retry = retryable_status(r.status) || broke_clean;
    count(host, r, retry);
    if (!retry || attempt >= m_policy.max_attempts || util::interrupted()) {
      r.attempts = attempt;
      if (retry && attempt > 1 && r.broken()) {
        r.transport_error += fmt::format(" (after {} attempts)", attempt);
      }
      return r;
    }
    std::chrono::milliseconds wait = delay;
    if (auto after = retry_after(r)) {
      asked_total += *after;
      if (asked_total > m_policy.max_retry_after) {
        return asked_too_long(std::move(r), *after, attempt);
      }
      wait = *after;
    } else {
      std::uniform_real_distribution<double> jitter(0.9, 1.1);
      wait = std::chrono::milliseconds(
          static_cast<long long>(static_cast<double>(delay.count()) * jitter(rng)));
      delay = std::min(delay * 2, m_policy.max_delay);
    }
    std::string reason = r.broken() ? r.transport_error : fmt::format("HTTP {}", r.status);
    m_log.debug("retry {}/{} of {} {} in {} ms: {}", attempt + 1, m_policy.max_attempts,
                request.method, redact_url(request.url), wait.count(), reason);
    m_log.info("retrying {} in {:.1f} s (attempt {} of {}): {}", host,
               static_cast<double>(wait.count()) / 1000.0, attempt + 1, m_policy.max_attempts,
               reason);
    interruptible_sleep(wait);
    request.note = fmt::format("(attempt {})", attempt + 1);
  }
}

} // namespace opm::registry
