#include "registry/client.hpp"
#include "registry/curl_transport.hpp"
#include "support/registry_fakes.hpp"

#include <doctest/doctest.h>

using namespace opm::registry;
using opm::test::quick_options;
using opm::test::recording;

namespace {

bool ends_with(const std::string& s, std::string_view tail) { return s.ends_with(tail); }

} // namespace

TEST_SUITE("registry client") {
  TEST_CASE("anonymous bearer token fetched once and reused") {
    std::vector<Request> seen;
    auto o = quick_options();
    Session s(o, recording(
                     [](const Request& r) {
                       if (ends_with(r.url, "/v2/")) {
                         return opm::test::response(
                             401, {{"WWW-Authenticate",
                                    R"(Bearer realm="https://auth.example/token",service="reg")"}});
                       }
                       if (r.url.starts_with("https://auth.example/token")) {
                         return opm::test::response(200, {}, R"({"token":"T1","expires_in":300})");
                       }
                       if (r.header("authorization") == "Bearer T1") {
                         return opm::test::response(200, {}, "ok");
                       }
                       return opm::test::response(401);
                     },
                     &seen));
    Endpoint ep{"reg.example", "reg.example", false};
    for (int i = 0; i < 3; ++i) {
      Request req;
      req.url = "/v2/ns/img/manifests/v1";
      auto r = s.request(ep, "ns/img", req);
      REQUIRE(r);
      CHECK(r->status == 200);
    }
    int token_requests = 0;
    for (const auto& r : seen) {
      if (r.url.starts_with("https://auth.example/token")) {
        ++token_requests;
        CHECK(r.url == "https://auth.example/token?service=reg&scope=repository%3Ans%2Fimg%3Apull");
        CHECK(!r.header("authorization"));
      }
    }
    CHECK(token_requests == 1);
  }

  TEST_CASE("invalid_token drops the cached token and fetches a new one") {
    std::vector<Request> seen;
    int issued = 0;
    auto o = quick_options();
    Session s(o, recording(
                     [&](const Request& r) {
                       std::string challenge =
                           R"(Bearer realm="https://auth.example/t",service="reg")";
                       if (ends_with(r.url, "/v2/")) {
                         return opm::test::response(401, {{"WWW-Authenticate", challenge}});
                       }
                       if (r.url.starts_with("https://auth.example/t")) {
                         ++issued;
                         return opm::test::response(
                             200, {}, "{\"access_token\":\"T" + std::to_string(issued) + "\"}");
                       }
                       if (r.header("authorization") == "Bearer T2") {
                         return opm::test::response(200);
                       }
                       return opm::test::response(
                           401, {{"WWW-Authenticate", challenge + R"(,error="invalid_token")"}});
                     },
                     &seen));
    Request req;
    req.url = "/v2/a/manifests/v1";
    auto r = s.request({"reg.example", "reg.example", false}, "a", req);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(issued == 2);
  }

  TEST_CASE("a second 401 is an authentication error naming the files searched") {
    std::vector<Request> seen;
    auto o = quick_options();
    Session s(
        o, recording(
               [](const Request& r) {
                 (void)r;
                 return opm::test::response(
                     401, {{"WWW-Authenticate", R"(Basic realm="x")"}},
                     R"({"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]})");
               },
               &seen));
    Request req;
    req.url = "/v2/a/manifests/v1";
    auto r = s.request({"reg.example", "reg.example", false}, "a", req);
    REQUIRE(!r);
    CHECK(r.error().message().starts_with(
        "unauthorized: authentication required: GET https://reg.example/v2/a/manifests/v1: "
        "UNAUTHORIZED: authentication required; no credentials found for reg.example in "
        "/nonexistent-home/.docker/config.json"));
  }

  TEST_CASE("retries 503 and honours Retry-After, then succeeds") {
    std::vector<Request> seen;
    int calls = 0;
    auto o = quick_options();
    Session s(o, recording(
                     [&](const Request& r) {
                       if (ends_with(r.url, "/v2/")) {
                         return opm::test::response(200);
                       }
                       ++calls;
                       if (calls == 1) {
                         return opm::test::response(503);
                       }
                       if (calls == 2) {
                         return opm::test::response(429, {{"Retry-After", "0"}});
                       }
                       return opm::test::response(200, {}, "done");
                     },
                     &seen));
    Request req;
    req.url = "/v2/a/blobs/x";
    auto r = s.request({"reg.example", "reg.example", false}, "a", req);
    REQUIRE(r);
    CHECK(r->body == "done");
    CHECK(calls == 3);
  }

  TEST_CASE("404 and 400 are not retried") {
    std::vector<Request> seen;
    int calls = 0;
    auto o = quick_options();
    Session s(o,
              recording(
                  [&](const Request& r) {
                    if (ends_with(r.url, "/v2/")) {
                      return opm::test::response(200);
                    }
                    ++calls;
                    return opm::test::response(
                        404, {},
                        R"({"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]})");
                  },
                  &seen));
    Request req;
    req.url = "/v2/a/manifests/v1";
    auto r = s.request({"reg.example", "reg.example", false}, "a", req);
    REQUIRE(r);
    CHECK(r->status == 404);
    CHECK(calls == 1);
    req.url = r->url;
    CHECK(Session::status_error(req, *r).message() ==
          "GET https://reg.example/v2/a/manifests/v1: MANIFEST_UNKNOWN: manifest unknown");
  }

  TEST_CASE("redirects to another host drop Authorization") {
    std::vector<Request> seen;
    auto o = quick_options();
    Session s(o, recording(
                     [](const Request& r) {
                       if (ends_with(r.url, "/v2/")) {
                         return opm::test::response(
                             401,
                             {{"WWW-Authenticate", R"(Bearer realm="https://reg.example/token")"}});
                       }
                       if (r.url.starts_with("https://reg.example/token")) {
                         return opm::test::response(200, {}, R"({"token":"T"})");
                       }
                       if (r.url.starts_with("https://reg.example/v2/a/blobs/")) {
                         return opm::test::response(
                             307, {{"Location", "https://cdn.example/blob?X-Amz-Signature=s"}});
                       }
                       return opm::test::response(200, {}, "blob");
                     },
                     &seen));
    Request req;
    req.url = "/v2/a/blobs/sha256:x";
    auto r = s.request({"reg.example", "reg.example", false}, "a", req);
    REQUIRE(r);
    CHECK(r->body == "blob");
    REQUIRE(seen.size() == 4);
    CHECK(seen[2].header("authorization") == "Bearer T");
    CHECK(seen[3].url == "https://cdn.example/blob?X-Amz-Signature=s");
    CHECK(!seen[3].header("authorization"));
  }

  TEST_CASE("an insecure registry falls back to plain HTTP when TLS fails") {
    std::vector<Request> seen;
    auto o = quick_options();
    Session s(o, recording(
                     [](const Request& r) {
                       if (r.url.starts_with("https://")) {
                         Response broken;
                         broken.transport_error = "wrong version number";
                         broken.http_to_https = true;
                         return broken;
                       }
                       return opm::test::response(200);
                     },
                     &seen));
    Request req;
    req.url = "/v2/a/manifests/v1";
    auto secure = s.request({"plain.example", "plain.example", false}, "a", req);
    REQUIRE(!secure);
    CHECK(secure.error().message() ==
          "pinging container registry plain.example: Get \"https://plain.example/v2/\": http: "
          "server gave HTTP response to HTTPS client (use --use-http for a plain-HTTP registry)");
    auto insecure = s.request({"other.example", "other.example", true}, "a", req);
    REQUIRE(insecure);
    CHECK(insecure->url == "http://other.example/v2/a/manifests/v1");
  }
}

TEST_SUITE("registry proxies") {
  TEST_CASE("chooses proxies with Go's rules") {
    Options o;
    o.env["HTTPS_PROXY"] = "http://proxy.corp:3128";
    o.env["HTTP_PROXY"] = "http://plainproxy.corp:3128";
    o.env["NO_PROXY"] = "internal.corp, .skip.example,10.0.0.0/8,port.example:5000";
    CHECK(proxy_for(o, "https://quay.io/v2/") == "http://proxy.corp:3128");
    CHECK(proxy_for(o, "http://quay.io/v2/") == "http://plainproxy.corp:3128");
    CHECK(proxy_for(o, "https://internal.corp/v2/").empty());
    CHECK(proxy_for(o, "https://a.b.internal.corp/v2/").empty());
    CHECK(proxy_for(o, "https://skip.example/v2/").empty());
    CHECK(proxy_for(o, "https://x.skip.example/v2/").empty());
    CHECK(proxy_for(o, "https://notinternal.corp/v2/") == "http://proxy.corp:3128");
    CHECK(proxy_for(o, "https://10.1.2.3:5000/v2/").empty());
    CHECK(proxy_for(o, "https://port.example:5000/v2/").empty());
    CHECK(proxy_for(o, "https://port.example/v2/") == "http://proxy.corp:3128");
    // loopback is never proxied
    CHECK(proxy_for(o, "https://127.0.0.1:5000/v2/").empty());
    CHECK(proxy_for(o, "https://localhost/v2/").empty());
    CHECK(proxy_for(o, "https://[::1]:5000/v2/").empty());
    o.env["NO_PROXY"] = "*";
    CHECK(proxy_for(o, "https://quay.io/v2/").empty());
  }
}

TEST_SUITE("registry client") {
  TEST_CASE("a plain-http token realm on another host is refused for a secure registry") {
    std::vector<Request> seen;
    auto o = quick_options();
    Session s(o, recording(
                     [](const Request& r) {
                       (void)r;
                       return opm::test::response(
                           401,
                           {{"WWW-Authenticate", R"(Bearer realm="http://auth.example/token")"}});
                     },
                     &seen));
    Request req;
    req.url = "/v2/a/manifests/v1";
    auto r = s.request({"reg.example", "reg.example", false}, "a", req);
    REQUIRE(!r);
    CHECK(r.error().message() == "refusing token realm http://auth.example/token: not https");
    for (const auto& x : seen) {
      CHECK(!x.url.starts_with("http://auth.example"));
    }
  }

  TEST_CASE("insufficient_scope asks for the union of scopes") {
    std::vector<Request> seen;
    auto o = quick_options();
    Session s(
        o, recording(
               [](const Request& r) {
                 std::string realm = R"(Bearer realm="https://reg.example/token",service="reg")";
                 if (r.url.ends_with("/v2/")) {
                   return opm::test::response(401, {{"WWW-Authenticate", realm}});
                 }
                 if (r.url.starts_with("https://reg.example/token")) {
                   bool both = r.url.find("scope=repository%3Aother%3Apull") != std::string::npos;
                   return opm::test::response(200, {},
                                              both ? R"({"token":"BOTH"})" : R"({"token":"ONE"})");
                 }
                 if (r.header("authorization") == "Bearer BOTH") {
                   return opm::test::response(200);
                 }
                 return opm::test::response(
                     401,
                     {{"WWW-Authenticate",
                       realm + R"(,scope="repository:other:pull",error="insufficient_scope")"}});
               },
               &seen));
    Request req;
    req.url = "/v2/a/manifests/v1";
    auto r = s.request({"reg.example", "reg.example", false}, "a", req);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(seen.back().header("authorization") == "Bearer BOTH");
  }
}
