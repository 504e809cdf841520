#include "registry/registries_conf.hpp"

#include <doctest/doctest.h>

using namespace opm::registry;

namespace {
RegistriesConf conf(std::string_view text) {
  RegistriesConf c;
  auto r = c.merge(text, "test.conf");
  REQUIRE(r);
  return c;
}
std::vector<std::string> names(const std::vector<PullSource>& s) {
  std::vector<std::string> out;
  for (const auto& x : s) {
    out.push_back(x.ref.to_string() + (x.insecure ? " insecure" : "") +
                  (x.mirror ? " mirror" : ""));
  }
  return out;
}
Reference make_ref(std::string_view s) { return *parse_normalized(s); }
const std::string k_digest = "sha256:" + std::string(64, 'a');
} // namespace

TEST_SUITE("registry registries.conf") {
  TEST_CASE("credential-helpers default to the auth files and a later file replaces them") {
    RegistriesConf c;
    CHECK(c.credential_helpers() == std::vector<std::string>{"containers-auth.json"});
    REQUIRE(c.merge(R"(credential-helpers = ["pass", "containers-auth.json"])", "a.conf"));
    CHECK(c.credential_helpers() == std::vector<std::string>{"pass", "containers-auth.json"});
    REQUIRE(c.merge("unqualified-search-registries = []\n", "b.conf"));
    CHECK(c.credential_helpers() == std::vector<std::string>{"pass", "containers-auth.json"});
    REQUIRE(c.merge(R"(credential-helpers = ["secretservice"])", "c.conf"));
    CHECK(c.credential_helpers() == std::vector<std::string>{"secretservice"});
  }

  TEST_CASE("mirrors come first, then the primary location") {
    auto c = conf(R"(
[[registry]]
prefix = "quay.io/acme"
location = "mirror.corp:5000/acme-prod"

[[registry.mirror]]
location = "m1.corp/acme"
insecure = true
)");
    auto s = c.sources(make_ref("quay.io/acme/op:v1"));
    REQUIRE(s);
    CHECK(names(*s) == std::vector<std::string>{"m1.corp/acme/op:v1 insecure mirror",
                                                "mirror.corp:5000/acme-prod/op:v1"});
    // the prefix matches at a path boundary only
    CHECK(names(*c.sources(make_ref("quay.io/acmex/op:v1"))) ==
          std::vector<std::string>{"quay.io/acmex/op:v1"});
  }

  TEST_CASE("the longest prefix wins") {
    auto c = conf(R"(
[[registry]]
prefix = "quay.io"
location = "a.corp"
[[registry]]
prefix = "quay.io/acme/op"
location = "b.corp/x"
)");
    CHECK(names(*c.sources(make_ref("quay.io/acme/op:v1"))) ==
          std::vector<std::string>{"b.corp/x:v1"});
    CHECK(names(*c.sources(make_ref("quay.io/other/op:v1"))) ==
          std::vector<std::string>{"a.corp/other/op:v1"});
  }

  TEST_CASE("digest-only mirrors are skipped for tags, tag-only for digests") {
    auto c = conf(R"(
[[registry]]
prefix = "quay.io"
location = "quay.io"
mirror-by-digest-only = true
[[registry.mirror]]
location = "m.corp"
)");
    CHECK(names(*c.sources(make_ref("quay.io/a/b:v1"))) ==
          std::vector<std::string>{"quay.io/a/b:v1"});
    CHECK(names(*c.sources(make_ref("quay.io/a/b@" + k_digest))).size() == 2);
    auto t = conf(R"(
[[registry]]
location = "quay.io"
[[registry.mirror]]
location = "m.corp"
pull-from-mirror = "tag-only"
)");
    CHECK(names(*t.sources(make_ref("quay.io/a/b@" + k_digest))) ==
          std::vector<std::string>{"quay.io/a/b@" + k_digest});
    CHECK(names(*t.sources(make_ref("quay.io/a/b:v1"))).size() == 2);
  }

  TEST_CASE("Docker Hub names match in their canonical form") {
    auto c = conf(R"(
[[registry]]
prefix = "docker.io"
location = "127.0.0.1:5100"
insecure = true
)");
    CHECK(names(*c.sources(make_ref("busybox:1"))) ==
          std::vector<std::string>{"127.0.0.1:5100/library/busybox:1 insecure"});
  }

  TEST_CASE("blocked registries fail without network") {
    auto c = conf(R"(
[[registry]]
location = "evil.example"
blocked = true
)");
    auto s = c.sources(make_ref("evil.example/a:1"));
    REQUIRE(!s);
    CHECK(s.error().message() == "registry evil.example is blocked in registries.conf");
  }

  TEST_CASE("wildcards match subdomains and do not rewrite") {
    auto c = conf(R"(
[[registry]]
prefix = "*.example.com"
insecure = true
)");
    CHECK(names(*c.sources(make_ref("a.b.example.com/x:1"))) ==
          std::vector<std::string>{"a.b.example.com/x:1 insecure"});
    CHECK(names(*c.sources(make_ref("example.com/x:1"))) ==
          std::vector<std::string>{"example.com/x:1"});
  }

  TEST_CASE("a later file replaces a prefix and v1 lists still count") {
    RegistriesConf c;
    REQUIRE(c.merge("[[registry]]\nlocation = \"q.io\"\ninsecure = true\n", "a.conf"));
    REQUIRE(c.merge("[[registry]]\nlocation = \"q.io\"\nblocked = true\n", "b.conf"));
    CHECK(c.entries().size() == 1);
    CHECK(!c.sources(make_ref("q.io/a:1")));
    RegistriesConf v1;
    REQUIRE(v1.merge("[registries.insecure]\nregistries = [\"i.io\"]\n"
                     "[registries.block]\nregistries = [\"b.io\"]\n",
                     "v1.conf"));
    CHECK(names(*v1.sources(make_ref("i.io/a:1"))) ==
          std::vector<std::string>{"i.io/a:1 insecure"});
    CHECK(v1.sources(make_ref("b.io/a:1")).error().message() ==
          "registry b.io is blocked in registries.conf");
  }

  TEST_CASE("a non-ASCII character where whitespace may be is a syntax error") {
    // toml++ 3.3's character tables had no answer for these: undefined behaviour, which the
    // sanitizer build of this test would stop at.
    for (const char* text :
         {"[registries\xd2\x8bsearch]\n", "a = 1\xc3\xa9\n", "a\xe3\x80\x81= 1\n"}) {
      RegistriesConf c;
      auto r = c.merge(text, "odd.conf");
      REQUIRE(!r);
      CHECK(r.error().message().starts_with("loading registries configuration \"odd.conf\": "));
    }
  }

  TEST_CASE("syntax errors name the file") {
    RegistriesConf c;
    auto r = c.merge("[[registry]\n", "bad.conf");
    REQUIRE(!r);
    CHECK(r.error().message().starts_with("loading registries configuration \"bad.conf\": "));
  }
}
