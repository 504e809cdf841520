#pragma once

// What the registry client's unit tests talk to instead of a network: a transport that
// answers from a function and records every request, canned responses, and retry settings
// that do not make a test wait.

#include "registry/http.hpp"
#include "registry/options.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace opm::test {

// Answers each request with `answer` and appends it to `seen` (from any thread).
class RecordingTransport final : public registry::Transport {
public:
  using Answer = std::function<registry::Response(const registry::Request&)>;
  RecordingTransport(Answer answer, std::vector<registry::Request>* seen)
      : m_answer(std::move(answer)), m_seen(seen) {}

  registry::Response send(const registry::Request& r) override {
    {
      std::lock_guard lock(m_mutex);
      m_seen->push_back(r);
    }
    return m_answer(r);
  }

private:
  Answer m_answer;
  std::vector<registry::Request>* m_seen;
  std::mutex m_mutex;
};

// A RecordingTransport, owned as a client takes it.
inline std::unique_ptr<registry::Transport> recording(RecordingTransport::Answer answer,
                                                      std::vector<registry::Request>* seen) {
  return std::make_unique<RecordingTransport>(std::move(answer), seen);
}

// Answers in the order given, one per request, the last one again once they run out.
inline RecordingTransport::Answer in_turn(std::vector<registry::Response> answers) {
  auto next = std::make_shared<std::size_t>(0);
  return [answers = std::move(answers), next](const registry::Request&) {
    registry::Response out = answers.at(*next);
    *next = std::min(*next + 1, answers.size() - 1);
    return out;
  };
}

// A response with `status`, `headers` (names lower-cased, as the transport gives them) and
// `body`.
inline registry::Response response(long status, const registry::Headers& headers = {},
                                   std::string body = {}) {
  registry::Response r;
  r.status = status;
  for (const auto& [name, value] : headers) {
    std::string lower = name;
    std::ranges::transform(lower, lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    r.headers.emplace_back(lower, value);
  }
  r.body = std::move(body);
  return r;
}

// Retries after 1 ms, never more than 2 ms.
inline registry::RetryPolicy quick_retry() {
  registry::RetryPolicy p;
  p.initial_delay = std::chrono::milliseconds(1);
  p.max_delay = std::chrono::milliseconds(2);
  return p;
}

// Client options with quick retries and a home directory without credentials.
inline registry::Options quick_options() {
  registry::Options o;
  o.retry = quick_retry();
  o.env["HOME"] = "/nonexistent-home";
  return o;
}

} // namespace opm::test
