#include "render/render_cache.hpp"
#include "support/temp_dir.hpp"
#include "util/base64.hpp"
#include "util/build_id.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using opm::Json;
using opm::catalog::Bundle;
using opm::catalog::DeclarativeConfig;
using opm::catalog::Property;
using opm::render::RenderCache;

namespace {

constexpr std::string_view k_digest = "sha256:0123";
constexpr std::string_view k_ref = "quay.io/example/op-bundle:v1";

DeclarativeConfig one_bundle() {
  Bundle b;
  b.name = "op.v1.0.0";
  b.package = "op";
  b.image = std::string(k_ref);
  std::string csv = R"({"kind":"ClusterServiceVersion","metadata":{"name":"op.v1.0.0"}})";
  std::string crd = R"({"kind":"CustomResourceDefinition","spec":{"z":1,"a":"<&>"}})";
  b.properties.push_back({"olm.package", Json{{"packageName", "op"}, {"version", "1.0.0"}},
                          R"({"packageName":"op","version":"1.0.0"})"});
  b.properties.push_back(
      {"example.numbers",
       Json{{"big", 12345678901234567890ULL}, {"float", 1.0}, {"neg", -0.0}, {"int", -7}},
       R"({"float":1.0,"big":12345678901234567890,"neg":-0.0,"int":-7,"html":"\u003c"})"});
  b.properties.push_back({"olm.bundle.object", Json{{"data", opm::util::base64_encode(crd)}}});
  b.properties.push_back({"olm.bundle.object", Json{{"data", opm::util::base64_encode(csv)}}});
  b.related_images = {{"", "quay.io/example/op:v1"}, {"op", std::string(k_ref)}};
  b.objects = {csv, crd};
  b.csv_index = 0;
  DeclarativeConfig cfg;
  cfg.bundles.push_back(std::move(b));
  return cfg;
}

void check_same(const Bundle& got, const Bundle& want) {
  CHECK(got.name == want.name);
  CHECK(got.package == want.package);
  CHECK(got.image == want.image);
  REQUIRE(got.properties.size() == want.properties.size());
  for (std::size_t i = 0; i < want.properties.size(); ++i) {
    CHECK(got.properties[i].type == want.properties[i].type);
    CHECK(got.properties[i].value == want.properties[i].value);
    CHECK(got.properties[i].value.dump() == want.properties[i].value.dump());
    CHECK(got.properties[i].raw == want.properties[i].raw);
  }
  REQUIRE(got.related_images.size() == want.related_images.size());
  for (std::size_t i = 0; i < want.related_images.size(); ++i) {
    CHECK(got.related_images[i].name == want.related_images[i].name);
    CHECK(got.related_images[i].image == want.related_images[i].image);
  }
  CHECK(got.objects == want.objects);
  CHECK(got.csv_index == want.csv_index);
  CHECK(got.csv_json() == want.csv_json());
}

} // namespace

TEST_CASE("the render cache gives back exactly the bundle it was given") {
  REQUIRE_FALSE(opm::util::build_id().empty());
  opm::test::TempDir dir;
  auto cache = RenderCache::open(dir.path() / "renders");
  REQUIRE(cache);
  auto cfg = one_bundle();
  CHECK_FALSE(cache->find(k_digest, k_ref));
  cache->store(k_digest, k_ref, cfg);
  auto found = cache->find(k_digest, k_ref);
  REQUIRE(found);
  REQUIRE(found->bundles.size() == 1);
  check_same(found->bundles.front(), cfg.bundles.front());
  CHECK(found->bundles.front().properties[1].value["big"].is_number_unsigned());
  CHECK(found->bundles.front().properties[1].value["float"].is_number_float());
}

TEST_CASE("the render cache misses for another digest or reference") {
  opm::test::TempDir dir;
  auto cache = RenderCache::open(dir.path() / "renders");
  REQUIRE(cache);
  cache->store(k_digest, k_ref, one_bundle());
  CHECK_FALSE(cache->find("sha256:4567", k_ref));
  CHECK_FALSE(cache->find(k_digest, "quay.io/example/op-bundle:v2"));
}

TEST_CASE("a damaged render cache entry counts as absent") {
  opm::test::TempDir dir;
  auto cache = RenderCache::open(dir.path() / "renders");
  REQUIRE(cache);
  cache->store(k_digest, k_ref, one_bundle());
  auto entry = *std::filesystem::recursive_directory_iterator(dir.path() / "renders" /
                                                              opm::util::build_id());
  auto size = std::filesystem::file_size(entry.path());
  for (std::uintmax_t keep : {std::uintmax_t{0}, std::uintmax_t{5}, size / 2, size - 1}) {
    std::filesystem::resize_file(entry.path(), keep);
    CHECK_FALSE(cache->find(k_digest, k_ref));
  }
  std::ofstream(entry.path(), std::ios::binary) << "opm-render-2\n\xff\xff\xff\xff\xff\xff\xff\x7f";
  CHECK_FALSE(cache->find(k_digest, k_ref));
}

TEST_CASE("a render cache entry whose content no longer matches its checksum counts as absent") {
  opm::test::TempDir dir;
  auto cache = RenderCache::open(dir.path() / "renders");
  REQUIRE(cache);
  cache->store(k_digest, k_ref, one_bundle());
  auto entry = *std::filesystem::recursive_directory_iterator(dir.path() / "renders" /
                                                              opm::util::build_id());
  std::string bytes;
  {
    std::ifstream in(entry.path(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // A changed letter inside the CSV, which decodes as well as the original.
  auto at = bytes.rfind("op.v1.0.0");
  REQUIRE(at != std::string::npos);
  bytes[at] = 'O';
  std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << bytes;
  CHECK_FALSE(cache->find(k_digest, k_ref));
  // Stored again, it is found again.
  cache->store(k_digest, k_ref, one_bundle());
  auto found = cache->find(k_digest, k_ref);
  REQUIRE(found);
  check_same(found->bundles.front(), one_bundle().bundles.front());
}

TEST_CASE("the render cache keeps only configs of one bundle") {
  opm::test::TempDir dir;
  auto cache = RenderCache::open(dir.path() / "renders");
  REQUIRE(cache);
  auto two = one_bundle();
  two.bundles.push_back(two.bundles.front());
  cache->store(k_digest, k_ref, two);
  CHECK_FALSE(cache->find(k_digest, k_ref));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "renders" / opm::util::build_id()));
}

TEST_CASE("the render cache drops entries not used for 30 days when it next stores one") {
  opm::test::TempDir dir;
  {
    auto cache = RenderCache::open(dir.path() / "renders");
    REQUIRE(cache);
    cache->store("sha256:old", k_ref, one_bundle());
  }
  auto entry = *std::filesystem::directory_iterator(dir.path() / "renders" / opm::util::build_id());
  std::filesystem::last_write_time(entry.path(), std::filesystem::last_write_time(entry.path()) -
                                                     std::chrono::hours(24 * 31));
  auto cache = RenderCache::open(dir.path() / "renders");
  REQUIRE(cache);
  CHECK(std::filesystem::exists(entry.path()));
  cache->store("sha256:new", k_ref, one_bundle());
  CHECK_FALSE(cache->find("sha256:old", k_ref));
  CHECK(cache->find("sha256:new", k_ref));
}

TEST_CASE("a render cache hit renews its entry's last use, so an entry in use is kept") {
  opm::test::TempDir dir;
  auto cache = RenderCache::open(dir.path() / "renders");
  REQUIRE(cache);
  cache->store("sha256:old", k_ref, one_bundle());
  auto entry = *std::filesystem::directory_iterator(dir.path() / "renders" / opm::util::build_id());
  auto month_ago = std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 31);
  std::filesystem::last_write_time(entry.path(), month_ago);
  REQUIRE(cache->find("sha256:old", k_ref));
  CHECK(std::filesystem::last_write_time(entry.path()) > month_ago + std::chrono::hours(24 * 30));
  auto next_run = RenderCache::open(dir.path() / "renders");
  REQUIRE(next_run);
  next_run->store("sha256:new", k_ref, one_bundle());
  CHECK(next_run->find("sha256:old", k_ref));
}
