#include "registry/detail/resume.hpp"
#include "support/registry_fakes.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opm::registry;

namespace {

class MemoryWriter final : public BlobStore::Writer {
public:
  opm::Result<void> write(std::string_view bytes) override {
    data += bytes;
    return {};
  }
  void restart() override {
    data.clear();
    ++restarts;
  }
  [[nodiscard]] std::uint64_t written() const override { return data.size(); }
  std::string data;
  int restarts = 0;
};

// A server for "0123456789": honours Range, and breaks each transfer after `per_try` bytes.
struct FlakyServer {
  std::string blob = "0123456789";
  std::size_t per_try = 4;
  bool ignore_range = false;
  std::vector<std::string> ranges;

  Response operator()(const Request& req) {
    auto range = req.header("range");
    ranges.push_back(range.value_or(""));
    std::size_t from = 0;
    Response r;
    r.status = 200;
    if (range && !ignore_range) {
      from = std::stoul(range->substr(6));
      r.status = 206;
      r.headers.emplace_back("content-range",
                             "bytes " + std::to_string(from) + "-9/" + std::to_string(blob.size()));
    }
    std::string chunk = blob.substr(from, per_try);
    if (!req.sink(chunk, r)) {
      r.status = 0;
      r.transport_error = "aborted by sink";
      return r;
    }
    r.delivered = chunk.size();
    if (from + chunk.size() < blob.size()) {
      r.status = 0;
      r.transport_error = "transfer closed with outstanding read data remaining";
    }
    return r;
  }
};

Descriptor blob_descriptor() {
  Descriptor d;
  d.digest = "sha256:" + std::string(64, 'a');
  d.size = 10;
  return d;
}

} // namespace

TEST_SUITE("registry blob resume") {
  TEST_CASE("resumes a broken transfer from the bytes written") {
    FlakyServer server;
    MemoryWriter out;
    std::vector<std::uint64_t> progress;
    auto r = download_resuming([&](Request req) -> opm::Result<Response> { return server(req); },
                               Request{}, blob_descriptor(), out, opm::test::quick_retry(), Log{},
                               [&](std::uint64_t n) { progress.push_back(n); });
    REQUIRE(r.has_value());
    CHECK(r->status == 206);
    CHECK(out.data == "0123456789");
    CHECK(server.ranges == std::vector<std::string>{"", "bytes=4-", "bytes=8-"});
    CHECK(progress == std::vector<std::uint64_t>{4, 8, 10});
  }

  TEST_CASE("starts over when the server ignores Range") {
    FlakyServer server;
    server.per_try = 6;
    server.ignore_range = true;
    MemoryWriter out;
    auto r =
        download_resuming([&](Request req) -> opm::Result<Response> { return server(req); },
                          Request{}, blob_descriptor(), out, opm::test::quick_retry(), Log{}, {});
    // Every try restarts at zero and breaks after 6 bytes: no progress, so it gives up.
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message() == "GET blob sha256:" + std::string(64, 'a') +
                                     ": transfer closed with outstanding read data remaining "
                                     "(after 5 attempts)");
    CHECK(out.restarts == 4);
  }

  TEST_CASE("refuses a Content-Range that does not continue the transfer") {
    FlakyServer server;
    MemoryWriter out;
    int calls = 0;
    auto r = download_resuming(
        [&](Request req) -> opm::Result<Response> {
          if (++calls == 2) {
            req.set_header("Range", "bytes=3-");
          }
          return server(req);
        },
        Request{}, blob_descriptor(), out, opm::test::quick_retry(), Log{}, {});
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message() == "resuming sha256:" + std::string(64, 'a') +
                                     ": unexpected Content-Range \"bytes 3-9/10\"");
  }

  TEST_CASE("fetches once more only after a damaged download") {
    int calls = 0;
    auto damaged = [&]() -> opm::Result<void> {
      ++calls;
      return opm::util::fail(opm::Errc::network, "digest mismatch for x: got y");
    };
    CHECK_FALSE(again_if_damaged(damaged, "x", Log{}).has_value());
    CHECK(calls == 2);
    calls = 0;
    auto refused = [&]() -> opm::Result<void> {
      ++calls;
      return opm::util::fail(opm::Errc::network, "GET x: unexpected status 403 Forbidden");
    };
    CHECK_FALSE(again_if_damaged(refused, "x", Log{}).has_value());
    CHECK(calls == 1);
  }
}
