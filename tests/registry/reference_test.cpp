#include "registry/reference.hpp"

#include <doctest/doctest.h>

using namespace opm::registry;

TEST_SUITE("registry reference") {
  TEST_CASE("normalises Docker Hub short names") {
    struct Case {
      const char* in;
      const char* canonical;
      const char* api;
      const char* repo;
    };
    const Case cases[] = {
        {"busybox", "docker.io/library/busybox:latest", "registry-1.docker.io", "library/busybox"},
        {"busybox:1", "docker.io/library/busybox:1", "registry-1.docker.io", "library/busybox"},
        {"acme/app:1", "docker.io/acme/app:1", "registry-1.docker.io", "acme/app"},
        {"index.docker.io/library/busybox:1", "docker.io/library/busybox:1", "registry-1.docker.io",
         "library/busybox"},
        {"localhost/img:1", "localhost/img:1", "localhost", "img"},
        {"localhost:5000/img:1", "localhost:5000/img:1", "localhost:5000", "img"},
        {"quay.io/ns/img", "quay.io/ns/img:latest", "quay.io", "ns/img"},
        {"[::1]:5000/ns/img:v1", "[::1]:5000/ns/img:v1", "[::1]:5000", "ns/img"},
    };
    for (const auto& c : cases) {
      CAPTURE(c.in);
      auto r = parse_normalized(c.in);
      REQUIRE(r);
      CHECK(r->to_string() == c.canonical);
      CHECK(api_host(*r) == c.api);
      CHECK(r->path == c.repo);
    }
  }

  TEST_CASE("keeps a digest reference unchanged") {
    std::string d = "sha256:" + std::string(64, 'a');
    auto r = parse_canonical("127.0.0.1:5000/ns/img@" + d);
    REQUIRE(r);
    CHECK(r->domain == "127.0.0.1:5000");
    CHECK(r->path == "ns/img");
    CHECK(r->tag.empty());
    CHECK(r->digest == d);
    CHECK(r->identifier() == d);
  }

  TEST_CASE("rejects non-canonical references with a suggestion") {
    auto r = parse_canonical("busybox:1");
    REQUIRE(!r);
    CHECK(r.error().message() ==
          "repository name must be canonical; did you mean \"docker.io/library/busybox:1\"?");
    CHECK(parse_canonical("docker.io/busybox:1").error().message() ==
          "repository name must be canonical; did you mean \"docker.io/library/busybox:1\"?");
    CHECK(parse_canonical("docker.io/library/busybox:1"));
  }

  TEST_CASE("requires a tag or digest, and not both") {
    CHECK(parse_canonical("quay.io/ns/img").error().message() ==
          "Docker reference quay.io/ns/img is not for an unknown digest case; tag or digest is "
          "needed");
    std::string d = "sha256:" + std::string(64, 'b');
    CHECK(parse_canonical("quay.io/ns/img:v1@" + d).error().message() ==
          "Docker references with both a tag and digest are currently not supported");
  }

  TEST_CASE("passes the grammar's errors through") {
    // The grammar itself is tested in tests/util/reference_test.cpp.
    CHECK(parse_normalized("Foo/bar").error().message() ==
          "invalid reference format: repository name must be lowercase");
    CHECK(parse_canonical("[::1]:5000").error().message() == "invalid reference format");
  }

  TEST_CASE("recognises loopback hosts") {
    CHECK(is_loopback_host("localhost"));
    CHECK(is_loopback_host("127.0.0.1:5000"));
    CHECK(is_loopback_host("[::1]:5000"));
    CHECK(!is_loopback_host("quay.io"));
    CHECK(!is_loopback_host("127.example.com"));
  }
}
