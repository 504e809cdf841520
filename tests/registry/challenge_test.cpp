#include "registry/challenge.hpp"
#include "registry/http.hpp"

#include <doctest/doctest.h>

using namespace opm::registry;

TEST_SUITE("registry challenge") {
  TEST_CASE("keeps commas inside quoted values") {
    auto all = parse_challenges(
        R"(Bearer realm="http://127.0.0.1:5006/token",service="opm-test-registry",scope="repository:a/b:pull,push",error="insufficient_scope")");
    REQUIRE(all.size() == 1);
    CHECK(all[0].scheme == "bearer");
    CHECK(all[0].param("realm") == "http://127.0.0.1:5006/token");
    CHECK(all[0].param("service") == "opm-test-registry");
    CHECK(all[0].param("scope") == "repository:a/b:pull,push");
    CHECK(all[0].param("error") == "insufficient_scope");
  }

  TEST_CASE("splits several challenges in one header and prefers bearer") {
    auto all = parse_challenges(
        R"(Basic realm="opm-test", BEARER realm="https://auth.example/t", service=reg)");
    REQUIRE(all.size() == 2);
    CHECK(all[0].scheme == "basic");
    CHECK(all[0].param("realm") == "opm-test");
    CHECK(all[1].param("service") == "reg");
    CHECK(pick_challenge(all) == &all[1]);
  }

  TEST_CASE("unescapes quoted pairs and keeps space-separated scopes") {
    auto all = parse_challenges(
        R"(Bearer realm="a\"b", scope="repository:dst:push,pull repository:src:pull")");
    REQUIRE(all.size() == 1);
    CHECK(all[0].param("realm") == "a\"b");
    CHECK(all[0].param("scope") == "repository:dst:push,pull repository:src:pull");
  }

  TEST_CASE("resolves relative locations against the request URL") {
    CHECK(resolve_url("http://h:1/v2/_catalog?n=2", "/v2/_catalog?last=a&n=2") ==
          "http://h:1/v2/_catalog?last=a&n=2");
    CHECK(resolve_url("https://h/v2/a/blobs/x", "https://s3.example/obj") ==
          "https://s3.example/obj");
    CHECK(resolve_url("https://h/v2/a/blobs/x", "y") == "https://h/v2/a/blobs/y");
    CHECK(resolve_url("https://h/v2/a", "//cdn.example/z") == "https://cdn.example/z");
  }

  TEST_CASE("redacts user-info and secret query parameters") {
    CHECK(redact_url("https://user:pw@h/v2/?X-Amz-Signature=abc&n=1&access_token=t") ==
          "https://h/v2/?X-Amz-Signature=redacted&n=1&access_token=redacted");
  }
}
