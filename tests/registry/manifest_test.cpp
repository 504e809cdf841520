#include "registry/manifest.hpp"

#include <doctest/doctest.h>

using namespace opm::registry;

namespace {
std::string digest(char c) { return "sha256:" + std::string(64, c); }

std::string index_json(std::string_view type, const std::vector<std::string>& entries) {
  std::string s =
      "{\"schemaVersion\":2,\"mediaType\":\"" + std::string(type) + "\",\"manifests\":[";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    s += (i != 0 ? "," : "") + entries[i];
  }
  return s + "]}";
}

std::string entry(char d, std::string_view platform_json,
                  std::string_view type = media::oci_manifest) {
  std::string s =
      "{\"mediaType\":\"" + std::string(type) + "\",\"digest\":\"" + digest(d) + "\",\"size\":10";
  if (!platform_json.empty()) {
    s += ",\"platform\":" + std::string(platform_json);
  }
  return s + "}";
}
} // namespace

TEST_SUITE("registry manifest") {
  TEST_CASE("parses an image manifest with config and layers") {
    std::string body = "{\"schemaVersion\":2,\"mediaType\":\"" + std::string(media::oci_manifest) +
                       "\",\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\","
                       "\"digest\":\"" +
                       digest('c') +
                       "\",\"size\":3},\"layers\":[{\"mediaType\":"
                       "\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"" +
                       digest('e') + "\",\"size\":7}]}";
    auto m = parse_manifest(body, std::string(media::oci_manifest) + "; charset=utf-8");
    REQUIRE(m);
    CHECK(m->kind == ManifestKind::image);
    CHECK(m->config.digest == digest('c'));
    REQUIRE(m->layers.size() == 1);
    CHECK(m->layers[0].size == 7);
    // a generic Content-Type falls back to the body
    CHECK(parse_manifest(body, "application/octet-stream"));
  }

  TEST_CASE("refuses schema 1 with upstream's text") {
    auto r = parse_manifest("{\"schemaVersion\":1,\"name\":\"x\"}",
                            "application/vnd.docker.distribution.manifest.v1+prettyjws");
    REQUIRE(!r);
    CHECK(r.error().message() ==
          "specified image is a docker schema v1 manifest, which is not supported");
    CHECK(parse_manifest("{\"schemaVersion\":1}", "").error().message() ==
          "specified image is a docker schema v1 manifest, which is not supported");
  }

  TEST_CASE("a body whose mediaType disagrees with the header is refused") {
    auto r = parse_manifest(index_json(media::oci_index, {}), std::string(media::oci_manifest));
    REQUIRE(!r);
    CHECK(r.error().message() ==
          "manifest media type \"application/vnd.oci.image.index.v1+json\" does not match "
          "Content-Type \"application/vnd.oci.image.manifest.v1+json\"");
  }

  TEST_CASE("picks amd64 although arm64 is listed first") {
    auto idx = parse_manifest(
        index_json(media::oci_index,
                   {entry('a', R"({"os":"linux","architecture":"arm64","variant":"v8"})"),
                    entry('b', R"({"os":"linux","architecture":"amd64"})")}),
        media::oci_index);
    REQUIRE(idx);
    auto d = choose_platform(*idx, {"linux", "amd64", ""}, true);
    REQUIRE(d);
    CHECK(d->digest == digest('b'));
    auto arm = choose_platform(*idx, *parse_platform("linux/arm64"), true);
    REQUIRE(arm);
    CHECK(arm->digest == digest('a'));
  }

  TEST_CASE("skips unknown entry types and falls back to amd64 only when asked") {
    auto idx = parse_manifest(
        index_json(media::docker_list,
                   {entry('f', R"({"os":"linux","architecture":"arm64"})", "application/x-attest"),
                    entry('b', R"({"os":"linux","architecture":"amd64"})")}),
        media::docker_list);
    REQUIRE(idx);
    auto fallback = choose_platform(*idx, {"linux", "arm64", "v8"}, true);
    REQUIRE(fallback);
    CHECK(fallback->digest == digest('b'));
    auto strict = choose_platform(*idx, {"linux", "arm64", "v8"}, false);
    REQUIRE(!strict);
    CHECK(strict.error().message() ==
          "no image found in manifest list for architecture \"arm64\", variant \"v8\", OS "
          "\"linux\"");
  }

  TEST_CASE("prefers the exact variant, then the first entry") {
    auto idx = parse_manifest(
        index_json(media::oci_index,
                   {entry('1', R"({"os":"linux","architecture":"amd64","variant":"v3"})"),
                    entry('2', R"({"os":"linux","architecture":"amd64"})"),
                    entry('3', R"({"os":"linux","architecture":"amd64"})")}),
        media::oci_index);
    REQUIRE(idx);
    CHECK(choose_platform(*idx, {"linux", "amd64", ""}, true)->digest == digest('2'));
    CHECK(choose_platform(*idx, *parse_platform("linux/amd64/v3"), true)->digest == digest('1'));
  }

  TEST_CASE("parses platforms") {
    CHECK(parse_platform("linux/aarch64")->string() == "linux/arm64/v8");
    CHECK(parse_platform("linux/x86_64")->string() == "linux/amd64");
    CHECK(parse_platform("linux/arm/v6")->variant == "v6");
    CHECK(parse_platform("linux").error().message() ==
          "invalid platform \"linux\": want os/arch[/variant]");
  }

  TEST_CASE("reads labels from the image config") {
    auto c = parse_config(
        R"({"config":{"Labels":{"a":"1","b":"2"}},"rootfs":{"diff_ids":["sha256:x"]}})");
    REQUIRE(c);
    CHECK(c->labels.size() == 2);
    CHECK(c->labels.at("b") == "2");
    CHECK(c->diff_ids.size() == 1);
    CHECK(parse_config(R"({"config":{"Labels":null}})")->labels.empty());
  }
}
