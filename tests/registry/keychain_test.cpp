#include "registry/keychain.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

using namespace opm::registry;
namespace fs = std::filesystem;
using opm::test::TempDir;

namespace {

// "alice:wonderland" and friends, base64.
constexpr const char* k_alice = "YWxpY2U6d29uZGVybGFuZA==";
constexpr const char* k_alice_wrong = "YWxpY2U6d3Jvbmc=";
constexpr const char* k_bob = "Ym9iOmJ1aWxkZXI=";

Options options_for(const TempDir& h) {
  Options o;
  o.env["HOME"] = h.path().string();
  o.env["XDG_RUNTIME_DIR"] = (h.path() / "run").string();
  o.env["PATH"] = (h.path() / "bin").string() + ":/usr/bin:/bin";
  return o;
}

} // namespace

TEST_SUITE("registry keychain") {
  TEST_CASE("searches files in the documented order") {
    TempDir h;
    auto o = options_for(h);
    o.env["DOCKER_CONFIG"] = (h.path() / "dc").string();
    Keychain k(o);
    auto order = k.search_order();
    REQUIRE(order.size() == 5);
    CHECK(order[0] == h.path() / "dc" / "config.json");
    CHECK(order[1] == h.path() / "run" / "containers" / "auth.json");
    CHECK(order[2] == h.path() / ".config" / "containers" / "auth.json");
    CHECK(order[3] == h.path() / "dc" / "config.json");
    CHECK(order[4] == h.path() / ".dockercfg");
  }

  TEST_CASE("REGISTRY_AUTH_FILE comes before DOCKER_CONFIG") {
    TempDir h;
    h.write("dc/config.json", std::string(R"({"auths":{"r.example":{"auth":")") + k_bob + "\"}}}");
    h.write("auth.json", std::string(R"({"auths":{"r.example":{"auth":")") + k_alice + "\"}}}");
    auto o = options_for(h);
    o.env["DOCKER_CONFIG"] = (h.path() / "dc").string();
    o.env["REGISTRY_AUTH_FILE"] = (h.path() / "auth.json").string();
    Keychain k(o);
    auto c = k.lookup("r.example", "ns/img");
    REQUIRE(c);
    REQUIRE(c->has_value());
    CHECK((*c)->username == "alice");
    CHECK((*c)->password == "wonderland");
    CHECK((*c)->source == (h.path() / "auth.json").string());
  }

  TEST_CASE("falls through to the containers chain when the primary file has no entry") {
    TempDir h;
    h.write(".docker/config.json", R"({"auths":{"other.example":{"auth":"eDp5"}}})");
    h.write("run/containers/auth.json",
            std::string(R"({"auths":{"r.example":{"auth":")") + k_bob + "\"}}}");
    h.write(".config/containers/auth.json",
            std::string(R"({"auths":{"r.example":{"auth":")") + k_alice + "\"}}}");
    Keychain k(options_for(h));
    auto c = k.lookup("r.example", "img");
    REQUIRE(c);
    REQUIRE(c->has_value());
    CHECK((*c)->username == "bob");
  }

  TEST_CASE("the most specific namespaced key wins") {
    TempDir h;
    h.write(".docker/config.json",
            std::string(R"({"auths":{"r.example:5000":{"auth":")") + k_alice_wrong +
                R"("},"r.example:5000/operators":{"auth":")" + k_alice + "\"}}}");
    Keychain k(options_for(h));
    auto c = k.lookup("r.example:5000", "operators/etcd");
    REQUIRE(c);
    CHECK((*c)->password == "wonderland");
    auto other = k.lookup("r.example:5000", "other/x");
    REQUIRE(other);
    CHECK((*other)->password == "wrong");
  }

  TEST_CASE("Docker Hub keys are aliases of docker.io") {
    TempDir h;
    h.write(".docker/config.json",
            std::string(R"({"auths":{"https://index.docker.io/v1/":{"auth":")") + k_alice +
                "\"}}}");
    Keychain k(options_for(h));
    auto c = k.lookup("docker.io", "library/busybox");
    REQUIRE(c);
    REQUIRE(c->has_value());
    CHECK((*c)->username == "alice");
  }

  TEST_CASE("reads the legacy .dockercfg and skips empty markers") {
    TempDir h;
    h.write(".docker/config.json", R"({"auths":{"r.example":{}}})");
    h.write(".dockercfg", std::string(R"({"https://r.example/v1/":{"auth":")") + k_bob + "\"}}");
    Keychain k(options_for(h));
    auto c = k.lookup("r.example", "a");
    REQUIRE(c);
    REQUIRE(c->has_value());
    CHECK((*c)->username == "bob");
  }

  TEST_CASE("splits at the first colon and keeps identity tokens") {
    TempDir h;
    // "u:p:q" and an identity token
    h.write(
        ".docker/config.json",
        R"({"auths":{"r.example":{"auth":"dTpwOnE="},"t.example":{"identitytoken":"refresh-me"}}})");
    Keychain k(options_for(h));
    auto c = k.lookup("r.example", "a");
    REQUIRE(c);
    CHECK((*c)->username == "u");
    CHECK((*c)->password == "p:q");
    auto t = k.lookup("t.example", "a");
    REQUIRE(t);
    CHECK((*t)->identity_token == "refresh-me");
  }

  TEST_CASE("invalid files are errors naming the file, not its content") {
    TempDir h;
    h.write(".docker/config.json", R"({"auths":{"r.example":{"auth":"!!secret!!"}}})");
    Keychain k(options_for(h));
    auto c = k.lookup("r.example", "a");
    REQUIRE(!c);
    CHECK(c.error().message() == "reading credentials from " +
                                     (h.path() / ".docker/config.json").string() +
                                     ": invalid base64 in the \"auth\" field of \"r.example\"");
    CHECK(c.error().message().find("secret") == std::string::npos);
    h.write(".docker/config.json", "{not json");
    Keychain k2(options_for(h));
    CHECK(k2.lookup("r.example", "a").error().message() ==
          "reading credentials from " + (h.path() / ".docker/config.json").string() +
              ": invalid JSON");
  }

  TEST_CASE("asks credHelpers first, then credsStore") {
    TempDir h;
    h.write("bin/docker-credential-t",
            "#!/bin/sh\nread server\n"
            "if [ \"$server\" = r.example ]; then\n"
            "  echo '{\"ServerURL\":\"r.example\",\"Username\":\"hel\","
            "\"Secret\":\"per\"}'\n"
            "else echo 'credentials not found in native keychain'; exit 1; fi\n");
    ::chmod((h.path() / "bin/docker-credential-t").c_str(), 0755);
    h.write(".docker/config.json", std::string(R"({"auths":{"r.example":{"auth":")") + k_alice +
                                       R"("}},"credHelpers":{"r.example":"t"}})");
    Keychain k(options_for(h));
    auto c = k.lookup("r.example", "a");
    REQUIRE(c);
    REQUIRE(c->has_value());
    CHECK((*c)->username == "hel");
    CHECK((*c)->password == "per");
    CHECK((*c)->source == "credential helper docker-credential-t");

    h.write(".docker/config.json", R"({"auths":{},"credsStore":"t"})");
    Keychain store(options_for(h));
    auto s = store.lookup("r.example", "a");
    REQUIRE(s);
    CHECK((*s)->username == "hel");
    auto none = store.lookup("x.example", "a");
    REQUIRE(none);
    CHECK(!none->has_value());
  }

  TEST_CASE("a failing helper is an error naming the helper") {
    TempDir h;
    h.write("bin/docker-credential-bad", "#!/bin/sh\necho 'leaked-secret'; exit 3\n");
    ::chmod((h.path() / "bin/docker-credential-bad").c_str(), 0755);
    h.write(".docker/config.json", R"({"credHelpers":{"r.example":"bad"}})");
    Keychain k(options_for(h));
    auto c = k.lookup("r.example", "a");
    REQUIRE(!c);
    CHECK(c.error().message() ==
          "error getting credentials from helper docker-credential-bad: exit status 3");
  }
}
