#include "registry/detail/retry.hpp"
#include "support/registry_fakes.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace opm::registry;
using opm::test::in_turn;
using opm::test::recording;
using opm::test::response;

namespace {

Response reset_before_body() {
  Response r;
  r.transport_error = "Recv failure: Connection reset by peer";
  r.retryable = true;
  return r;
}

Request get(std::string url) {
  Request r;
  r.url = std::move(url);
  return r;
}

} // namespace

TEST_SUITE("registry retry transport") {
  TEST_CASE("sends again after 503 and counts the attempts") {
    std::vector<Request> seen;
    RetryPolicy policy = opm::test::quick_retry();
    Log log;
    RetryTransport t(
        recording(in_turn(std::vector<Response>{response(503), response(503), response(200)}),
                  &seen),
        policy, log);
    Response r = t.send(get("https://reg.example/v2/"));
    CHECK(r.status == 200);
    CHECK(r.attempts == 3);
    REQUIRE(seen.size() == 3);
    CHECK(seen[0].note.empty());
    CHECK(seen[2].note == "(attempt 3)");
  }

  TEST_CASE("gives up at once when Retry-After asks for longer than it waits in all") {
    std::vector<Request> seen;
    RetryPolicy policy = opm::test::quick_retry();
    policy.max_retry_after = std::chrono::seconds(60);
    Log log;
    Response busy = response(429);
    busy.headers.push_back({"retry-after", "3600"});
    RetryTransport t(recording(in_turn(std::vector<Response>{busy, response(200)}), &seen), policy,
                     log);
    Response r = t.send(get("https://reg.example/v2/"));
    CHECK(r.broken());
    CHECK(r.transport_error == "the registry answered 429 and asked to wait 3600 s before trying "
                               "again; giving up, as opm waits at most 60 s for a registry");
    CHECK(seen.size() == 1);
  }

  TEST_CASE("counts every Retry-After against the bound") {
    std::vector<Request> seen;
    RetryPolicy policy = opm::test::quick_retry();
    policy.max_retry_after = std::chrono::seconds(1);
    Log log;
    Response busy = response(503);
    busy.headers.push_back({"retry-after", "1"});
    RetryTransport t(recording(in_turn(std::vector<Response>{busy, busy, response(200)}), &seen),
                     policy, log);
    Response r = t.send(get("https://reg.example/v2/"));
    CHECK(r.broken());
    CHECK(r.transport_error.starts_with("the registry answered 503 and asked to wait 1 s"));
    CHECK(seen.size() == 2);
  }

  TEST_CASE("gives up after max_attempts and says so for a broken exchange") {
    std::vector<Request> seen;
    RetryPolicy policy = opm::test::quick_retry();
    policy.max_attempts = 3;
    Log log;
    RetryTransport t(recording(in_turn(std::vector<Response>{reset_before_body()}), &seen), policy,
                     log);
    Response r = t.send(get("https://reg.example/v2/"));
    CHECK(r.broken());
    CHECK(r.attempts == 3);
    CHECK(r.transport_error == "Recv failure: Connection reset by peer (after 3 attempts)");
    CHECK(seen.size() == 3);
  }

  TEST_CASE("does not retry a 404 or a body that broke part-way") {
    std::vector<Request> seen;
    RetryPolicy policy = opm::test::quick_retry();
    Log log;
    Response partial = reset_before_body();
    partial.delivered = 10;
    RetryTransport t(recording(in_turn(std::vector<Response>{response(404), partial}), &seen),
                     policy, log);
    CHECK(t.send(get("https://reg.example/v2/x")).attempts == 1);
    Response r = t.send(get("https://reg.example/v2/y"));
    CHECK(r.attempts == 1);
    CHECK(r.transport_error == "Recv failure: Connection reset by peer");
    CHECK(seen.size() == 2);
  }

  TEST_CASE("stops sending to a host after its failure budget, other hosts go on") {
    std::vector<Request> seen;
    RetryPolicy policy = opm::test::quick_retry();
    policy.max_attempts = 2;
    policy.host_failure_budget = 3;
    Log log;
    RetryTransport t(recording(in_turn(std::vector<Response>{response(502)}), &seen), policy, log);
    CHECK(t.send(get("https://bad.example/v2/")).status == 502);
    CHECK(seen.size() == 2);
    // The third failure uses up the budget: the retry is never sent, nor is anything later.
    Response refused = t.send(get("https://bad.example/v2/"));
    CHECK(refused.broken());
    CHECK(refused.transport_error ==
          "giving up on bad.example after 3 consecutive failed attempts");
    CHECK(seen.size() == 3);
    CHECK(t.send(get("https://bad.example/v2/")).broken());
    CHECK(seen.size() == 3);
    CHECK(t.send(get("https://other.example:5000/v2/")).status == 502);
    CHECK(seen.size() == 5);
  }
}
