#include "util/reference.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm::util;

namespace {

std::string reference_error(std::string_view text) {
  auto ref = parse_reference(text);
  REQUIRE_FALSE(ref.has_value());
  return ref.error().message();
}

Reference parsed(std::string_view text) {
  auto ref = parse_reference(text);
  REQUIRE_MESSAGE(ref.has_value(), ref.error().message());
  return *ref;
}

const std::string k_sha256 = "sha256:" + std::string(64, 'a');

} // namespace

TEST_SUITE("image references") {
  TEST_CASE("splits a full reference into its parts") {
    auto ref = parsed("quay.io:443/ns/app-x_y.z:v1.2.3@" + k_sha256);
    CHECK(ref.domain == "quay.io:443");
    CHECK(ref.path == "ns/app-x_y.z");
    CHECK(ref.tag == "v1.2.3");
    CHECK(ref.digest == k_sha256);
    CHECK(ref.name() == "quay.io:443/ns/app-x_y.z");
    CHECK(ref.to_string() == "quay.io:443/ns/app-x_y.z:v1.2.3@" + k_sha256);
  }

  TEST_CASE("reads names without a registry as Docker Hub names") {
    auto busybox = parsed("busybox");
    CHECK(busybox.domain == "docker.io");
    CHECK(busybox.path == "library/busybox");
    CHECK(busybox.tag.empty());
    CHECK(busybox.to_string() == "docker.io/library/busybox");
    CHECK(busybox.familiar_name() == "busybox");
    CHECK(busybox.with_default_tag().to_string() == "docker.io/library/busybox:latest");

    auto acme = parsed("acme/app:1");
    CHECK(acme.to_string() == "docker.io/acme/app:1");
    CHECK(acme.familiar_string() == "acme/app:1");

    CHECK(parsed("index.docker.io/library/busybox:1").to_string() == "docker.io/library/busybox:1");
    CHECK(parsed("docker.io/busybox").path == "library/busybox");
  }

  TEST_CASE("takes the first component as the registry only with a dot, colon or localhost") {
    CHECK(parsed("localhost/img:1").domain == "localhost");
    CHECK(parsed("localhost:5000/img").domain == "localhost:5000");
    CHECK(parsed("127.0.0.1:5000/ns/img").path == "ns/img");
    auto hub = parsed("myregistry/img");
    CHECK(hub.domain == "docker.io");
    CHECK(hub.path == "myregistry/img");
    CHECK(parsed("Quay.io/foo").domain == "Quay.io");
    CHECK(parsed("quay.io/foo").with_default_tag().to_string() == "quay.io/foo:latest");
    CHECK(parsed("quay.io/foo@" + k_sha256).with_default_tag().tag.empty());
  }

  TEST_CASE("keeps tag and digest together") {
    auto ref = parsed("quay.io/foo:bar@" + k_sha256);
    CHECK(ref.tag == "bar");
    CHECK(ref.digest == k_sha256);
  }

  TEST_CASE("accepts the separators of path components") {
    CHECK(parsed("quay.io/a__b/c---d/e.f_g").path == "a__b/c---d/e.f_g");
    CHECK(reference_error("quay.io/a___b") == "invalid reference format");
    CHECK(reference_error("quay.io/a..b") == "invalid reference format");
    CHECK(reference_error("quay.io/-a") == "invalid reference format");
    CHECK(reference_error("quay.io/a-") == "invalid reference format");
    CHECK(reference_error("quay.io//a") == "invalid reference format");
    CHECK(reference_error("quay.io/a/") == "invalid reference format");
  }

  TEST_CASE("rejects upper case in the repository path") {
    CHECK(reference_error("Quay.io/Foo:bar") ==
          "invalid reference format: repository name must be lowercase");
    CHECK(reference_error("Foo/bar") ==
          "invalid reference format: repository name must be lowercase");
    CHECK(reference_error("quay.io/foo/Bar@" + k_sha256) ==
          "invalid reference format: repository name must be lowercase");
    // An upper-case tag is fine.
    CHECK(parsed("quay.io/foo:BAR").tag == "BAR");
  }

  TEST_CASE("reports upper case in a first component that is no valid domain") {
    // "Foo_bar.com" is taken as a registry, but the grammar only accepts it as a path.
    CHECK(reference_error("Foo_bar.com/x") == "repository name must be lowercase");
    CHECK(parsed("foo_bar.com/x").domain.empty());
    CHECK(parsed("foo_bar.com/x").path == "foo_bar.com/x");
  }

  TEST_CASE("rejects malformed references") {
    CHECK(reference_error("quay.io/foo@sha256:abc") == "invalid reference format");
    CHECK(reference_error("quay.io/foo:") == "invalid reference format");
    CHECK(reference_error("quay.io/foo:-bad") == "invalid reference format");
    CHECK(reference_error("quay.io/foo:" + std::string(129, 'a')) == "invalid reference format");
    CHECK(parsed("quay.io/foo:" + std::string(128, 'a')).tag.size() == 128);
    CHECK(reference_error("quay.io/foo bar") == "invalid reference format");
    CHECK(reference_error("[::1]:5000/foo") == "invalid reference format");
    CHECK(reference_error("quay.io:port/foo") == "invalid reference format");
    CHECK(reference_error("quay.io/foo@bar@" + k_sha256) == "invalid reference format");
    CHECK(reference_error("") == "invalid reference format");
  }

  TEST_CASE("reads bracketed IPv6 registries only when asked to") {
    auto v6 = parse_reference("[::1]:5000/ns/img:v1", Ipv6Hosts::bracketed);
    REQUIRE(v6.has_value());
    CHECK(v6->domain == "[::1]:5000");
    CHECK(v6->path == "ns/img");
    CHECK(v6->tag == "v1");
    CHECK(v6->to_string() == "[::1]:5000/ns/img:v1");
    CHECK(parse_reference("[fe80::1:AB]/img", Ipv6Hosts::bracketed)->domain == "[fe80::1:AB]");
    auto v6_error = [](std::string_view text) {
      auto ref = parse_reference(text, Ipv6Hosts::bracketed);
      REQUIRE_FALSE(ref.has_value());
      return ref.error().message();
    };
    CHECK(v6_error("[::1]:5000") == "invalid reference format");
    CHECK(v6_error("[::1]x/img") == "invalid reference format");
    CHECK(v6_error("[::1]:port/img") == "invalid reference format");
    CHECK(v6_error("[]/img") == "invalid reference format");
    CHECK(v6_error("[FOO]/img") == "invalid reference format");
    CHECK(v6_error("[::1]:5000/Img") ==
          "invalid reference format: repository name must be lowercase");
    CHECK(reference_error("[::1]:5000/ns/img:v1") == "invalid reference format");
  }

  TEST_CASE("limits the full name to 255 characters") {
    std::string path(255 - std::string("quay.io/").size(), 'a');
    CHECK(parsed("quay.io/" + path).path == path);
    CHECK(reference_error("quay.io/" + path + "a") ==
          "repository name must not be more than 255 characters");
    // The Docker Hub prefix counts.
    CHECK(reference_error(std::string(250, 'a')) ==
          "repository name must not be more than 255 characters");
  }

  TEST_CASE("rejects a bare 64-digit hexadecimal string") {
    std::string hex(64, 'f');
    CHECK(reference_error(hex) ==
          "invalid repository name (" + hex + "), cannot specify 64-byte hexadecimal strings");
    CHECK(parsed(std::string(63, 'f')).path == "library/" + std::string(63, 'f'));
  }

  TEST_CASE("accepts 64 hexadecimal digits after a registry, as Go does, but not their short "
            "form") {
    // Found by fuzz/reference_fuzz.cpp; Go's ParseNormalizedNamed looks for an image ID in
    // the whole text only, so the short form of this reference does not parse again.
    std::string hex = "0aabbccddeef1012f1233445526778898aabbccdd1f1f00ee243234556677eff";
    auto ref = parsed("docker.io/" + hex);
    CHECK(ref.path == "library/" + hex);
    CHECK(ref.familiar_string() == hex);
    CHECK(reference_error(ref.familiar_string()) ==
          "invalid repository name (" + hex + "), cannot specify 64-byte hexadecimal strings");
    CHECK(parsed(hex + ":v1").familiar_string() == hex + ":v1");
  }

  TEST_CASE("checks digests by algorithm") {
    CHECK(parsed("quay.io/foo@sha512:" + std::string(128, '0')).digest.size() == 135);
    CHECK(parsed("quay.io/foo@sha384:" + std::string(96, '0')).digest.size() == 103);
    CHECK(reference_error("quay.io/foo@sha256:" + std::string(63, 'a')) ==
          "invalid checksum digest length");
    CHECK(reference_error("quay.io/foo@sha256:" + std::string(64, 'A')) ==
          "invalid checksum digest format");
    CHECK(reference_error("quay.io/foo@md5:" + std::string(32, 'a')) ==
          "unsupported digest algorithm");
    CHECK(reference_error("quay.io/foo:v1@SHA256:" + std::string(64, 'a')) ==
          "invalid checksum digest format");
    // Without a tag the name is read up to the first colon, so the upper case counts there.
    CHECK(reference_error("quay.io/foo@SHA256:" + std::string(64, 'a')) ==
          "invalid reference format: repository name must be lowercase");
  }

  TEST_CASE("requires canonical input when asked to") {
    CHECK(parse_canonical_reference("quay.io/ns/app:v1").has_value());
    CHECK(parse_canonical_reference("docker.io/library/busybox:1").has_value());
    CHECK(parse_canonical_reference("busybox:1").error().message() ==
          "repository name must be canonical");
    CHECK(parse_canonical_reference("docker.io/busybox:1").error().message() ==
          "repository name must be canonical");
  }

  TEST_CASE("validates standalone digests") {
    CHECK(validate_digest(k_sha256).has_value());
    CHECK(validate_digest("sha256").error().message() == "invalid checksum digest format");
    CHECK(validate_digest("sha256:").error().message() == "invalid checksum digest format");
    CHECK(validate_digest("foo:bar").error().message() == "unsupported digest algorithm");
    CHECK(validate_digest("Foo:bar").error().message() == "invalid checksum digest format");
  }
}
