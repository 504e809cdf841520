#include "image/catalog_image.hpp"
#include "registry/digest.hpp"
#include "support/fake_base_image.hpp"
#include "support/temp_dir.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

using namespace opm;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

image::CacheWriter fake_cache() {
  return [](const fs::path&, const fs::path& dir) -> Result<void> {
    fs::create_directories(dir / "cache");
    std::ofstream(dir / "digest") << "0123456789abcdef";
    return {};
  };
}

struct Built {
  image::BuiltImage image;
  Json config;
  Json manifest;
};

Built build(const fs::path& root, const std::string& base, const std::string& manifest_type) {
  fs::create_directories(root / "blobs");
  fs::create_directories(root / "work");
  fs::create_directories(root / "catalog/pkg");
  std::ofstream(root / "catalog/pkg/catalog.json") << "{}";
  test::FakeBase puller(root / "blobs", manifest_type);
  image::CatalogBuild b{root / "catalog", base, {{"team", "olm"}}, "", 1700000000, {}};
  auto built = image::build_catalog(b, puller, fake_cache(), root / "work");
  REQUIRE(built);
  Built out{*built, {}, {}};
  const auto& m = built->manifests.front();
  out.manifest = Json::parse(m.body);
  out.config = Json::parse(m.blobs.front().bytes);
  return out;
}

} // namespace

TEST_SUITE("image.catalog_image") {
  TEST_CASE("the base config gains what the generated Dockerfile's final stage adds") {
    test::TempDir tmp;
    auto b = build(tmp.path(), "registry.test/base/opm:v1",
                   "application/vnd.oci.image.manifest.v1+json");
    const Json& c = b.config;
    CHECK(c["config"]["Entrypoint"] == Json::array({"/bin/opm"}));
    CHECK(c["config"]["Cmd"] == Json::array({"serve", "/configs", "--cache-dir=/tmp/cache"}));
    CHECK(c["config"]["Labels"] ==
          Json({{"base", "yes"},
                {"operators.operatorframework.io.index.configs.v1", "/configs"},
                {"team", "olm"}}));
    CHECK(c["config"]["User"] == "1001"); // the base's settings stay
    CHECK(c["created"] == "2023-11-14T22:13:20Z");
    REQUIRE(c["rootfs"]["diff_ids"].size() == 3);
    CHECK(c["history"].size() == 6); // base, ENTRYPOINT, CMD, two COPYs, LABEL
    CHECK(c["history"][3]["created_by"] == "COPY --from=builder /configs /configs");
    CHECK(c["history"][5]["empty_layer"] == true);
  }

  TEST_CASE("the manifest lists the base layer, then /configs, then the cache") {
    test::TempDir tmp;
    auto b = build(tmp.path(), "registry.test/base/opm:v1",
                   "application/vnd.oci.image.manifest.v1+json");
    const Json& layers = b.manifest["layers"];
    REQUIRE(layers.size() == 3);
    CHECK(layers[0]["mediaType"] == "l");
    CHECK(layers[1]["mediaType"] == "application/vnd.oci.image.layer.v1.tar+gzip");
    CHECK(b.manifest["mediaType"] == "application/vnd.oci.image.manifest.v1+json");
    CHECK(b.manifest["config"]["mediaType"] == "application/vnd.oci.image.config.v1+json");
    CHECK_FALSE(b.image.index);
    CHECK(b.image.top().descriptor.digest == registry::digest_of(b.image.top().body));
    REQUIRE(b.image.base_reference);
    CHECK(b.image.base_reference->to_string() == "registry.test/base/opm:v1");
  }

  TEST_CASE("a Docker base gives a Docker manifest, config and layers") {
    test::TempDir tmp;
    auto b = build(tmp.path(), "registry.test/base/opm:v1",
                   "application/vnd.docker.distribution.manifest.v2+json");
    CHECK(b.manifest["mediaType"] == "application/vnd.docker.distribution.manifest.v2+json");
    CHECK(b.manifest["config"]["mediaType"] == "application/vnd.docker.container.image.v1+json");
    CHECK(b.manifest["layers"][2]["mediaType"] ==
          "application/vnd.docker.image.rootfs.diff.tar.gzip");
  }

  TEST_CASE("the same inputs give the same digest") {
    test::TempDir one;
    test::TempDir two;
    auto a = build(one.path(), "registry.test/base/opm:v1",
                   "application/vnd.oci.image.manifest.v1+json");
    auto b = build(two.path(), "registry.test/base/opm:v1",
                   "application/vnd.oci.image.manifest.v1+json");
    CHECK(a.image.top().descriptor.digest == b.image.top().descriptor.digest);
  }
}
