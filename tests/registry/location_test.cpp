#include "registry/location.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm::registry;

TEST_SUITE("registry image location") {
  TEST_CASE("a canonical reference is a registry image") {
    auto at = parse_image_location("quay.io/ops/catalog:v1");
    REQUIRE(at);
    CHECK(at->text == "quay.io/ops/catalog:v1");
    REQUIRE(at->remote() != nullptr);
    CHECK(at->remote()->domain == "quay.io");
    CHECK(at->remote()->path == "ops/catalog");
    CHECK(at->remote()->tag == "v1");
    CHECK(at->layout() == nullptr);
    CHECK(at->archive() == nullptr);
  }

  TEST_CASE("a digest reference keeps its digest") {
    std::string digest = "sha256:" + std::string(64, 'c');
    auto at = parse_image_location("127.0.0.1:5000/ns/img@" + digest);
    REQUIRE(at);
    REQUIRE(at->remote() != nullptr);
    CHECK(at->remote()->digest == digest);
    CHECK(at->remote()->tag.empty());
  }

  TEST_CASE("a registry reference fails with the reference's own error") {
    CHECK(parse_image_location("busybox:1").error().message() ==
          "repository name must be canonical; did you mean \"docker.io/library/busybox:1\"?");
    CHECK(parse_image_location("quay.io/ns/img").error().message() ==
          "Docker reference quay.io/ns/img is not for an unknown digest case; tag or digest is "
          "needed");
    CHECK(parse_image_location("Foo/bar:1").error().message() ==
          "invalid reference format: repository name must be lowercase");
    CHECK(parse_image_location("").error().message() == "invalid reference format");
  }

  TEST_CASE("an OCI layout is a directory and an optional tag") {
    struct Case {
      const char* in;
      const char* dir;
      const char* tag;
    };
    const Case cases[] = {
        {"oci:layout", "layout", ""},
        {"oci:layout:v1", "layout", "v1"},
        {"oci:/abs/dir:v1.2", "/abs/dir", "v1.2"},
        {"oci:a:b/c", "a:b/c", ""},          // a ':' followed by a '/' is part of the directory
        {"oci:a:b:latest", "a:b", "latest"}, // the tag is after the last ':'
        {"oci:", "", ""},
    };
    for (const auto& c : cases) {
      CAPTURE(c.in);
      auto at = parse_image_location(c.in);
      REQUIRE(at);
      CHECK(at->text == c.in);
      REQUIRE(at->layout() != nullptr);
      CHECK(at->layout()->dir == c.dir);
      CHECK(at->layout()->tag == c.tag);
      CHECK(at->remote() == nullptr);
    }
  }

  TEST_CASE("a docker archive is a file and an optional name after the first colon") {
    struct Case {
      const char* in;
      const char* file;
      const char* ref;
    };
    const Case cases[] = {
        {"docker-archive:img.tar", "img.tar", ""},
        {"docker-archive:/tmp/img.tar:example.com/ops/etcd:v1", "/tmp/img.tar",
         "example.com/ops/etcd:v1"},
        {"docker-archive:img.tar:etcd", "img.tar", "etcd"},
    };
    for (const auto& c : cases) {
      CAPTURE(c.in);
      auto at = parse_image_location(c.in);
      REQUIRE(at);
      CHECK(at->text == c.in);
      REQUIRE(at->archive() != nullptr);
      CHECK(at->archive()->file == c.file);
      CHECK(at->archive()->ref == c.ref);
    }
  }

  TEST_CASE("a prefix is only a prefix at the start") {
    auto at = parse_image_location("quay.io/oci/docker-archive:v1");
    REQUIRE(at);
    CHECK(at->remote() != nullptr);
  }

  TEST_CASE("a registry location made from a reference reads as its canonical text") {
    auto ref = parse_canonical("quay.io/ops/base:v1");
    REQUIRE(ref);
    auto at = remote_location(*ref);
    CHECK(at.text == "quay.io/ops/base:v1");
    REQUIRE(at.remote() != nullptr);
    CHECK(at.remote()->path == "ops/base");
  }
}
