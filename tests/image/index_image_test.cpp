#include "image/index_image.hpp"
#include "registry/digest.hpp"
#include "support/fake_base_image.hpp"
#include "support/temp_dir.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace opm;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

struct Built {
  image::BuiltImage image;
  Json config;
  Json manifest;
};

Built build(const fs::path& root, const std::string& database_bytes) {
  fs::create_directories(root / "blobs");
  fs::create_directories(root / "work");
  std::ofstream(root / "index.db", std::ios::binary) << database_bytes;
  fs::permissions(root / "index.db", fs::perms(0640));
  test::FakeBase base(root / "blobs", "application/vnd.oci.image.manifest.v1+json");
  image::IndexImageBuild b{root / "index.db", "registry.test/base/opm:v1", "", 86400};
  auto built = image::build_index_image(b, base, root / "work");
  REQUIRE(built);
  Built out{*built, {}, {}};
  const auto& m = built->manifests.front();
  out.manifest = Json::parse(m.body);
  out.config = Json::parse(m.blobs.front().bytes);
  return out;
}

// "<type> <mode> <name> <mtime> <size>" for each entry of a gzip'd tar.
std::vector<std::string> listing(const fs::path& layer) {
  std::vector<std::string> out;
  archive* a = archive_read_new();
  archive_read_support_filter_gzip(a);
  archive_read_support_format_tar(a);
  REQUIRE(archive_read_open_filename(a, layer.c_str(), 1 << 16) == ARCHIVE_OK);
  archive_entry* e = nullptr;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    out.push_back(fmt::format("{} {:o} {} {} {}", archive_entry_filetype(e) == AE_IFDIR ? 'd' : 'f',
                              archive_entry_perm(e), archive_entry_pathname(e),
                              archive_entry_mtime(e), archive_entry_size(e)));
  }
  archive_read_free(a);
  return out;
}

} // namespace

TEST_SUITE("image.index_image") {
  TEST_CASE("the base config gains what upstream's index Dockerfile adds") {
    test::TempDir tmp;
    auto b = build(tmp.path(), "SQLite format 3");
    const Json& c = b.config["config"];
    CHECK(c["Entrypoint"] == Json::array({"/bin/opm"}));
    CHECK(c["Cmd"] == Json::array({"registry", "serve", "--database", "/database/index.db"}));
    CHECK(c["ExposedPorts"] == Json({{"50051/tcp", Json::object()}}));
    CHECK(c["Labels"] ==
          Json({{"base", "yes"},
                {"operators.operatorframework.io.index.database.v1", "/database/index.db"}}));
    CHECK(c["User"] == "1001");
    CHECK(b.config["created"] == "1970-01-02T00:00:00Z");
    REQUIRE(b.config["history"].size() == 6); // base, LABEL, ADD, EXPOSE, ENTRYPOINT, CMD
    CHECK(b.config["history"][2]["created_by"] == "ADD database/index.db /database/index.db");
    CHECK_FALSE(b.config["history"][2].contains("empty_layer"));
    CHECK(b.config["history"][3]["empty_layer"] == true);
    CHECK(b.config["rootfs"]["diff_ids"].size() == 2);
  }

  TEST_CASE("the database layer holds /database/index.db with the file's mode, dated as asked") {
    test::TempDir tmp;
    auto b = build(tmp.path(), "SQLite format 3");
    const auto& blobs = b.image.manifests.front().blobs;
    REQUIRE(blobs.size() == 3); // config, base layer, database layer
    CHECK(b.manifest["layers"].size() == 2);
    CHECK(listing(blobs.back().file) ==
          std::vector<std::string>{"d 755 database/ 86400 0", "f 640 database/index.db 86400 15"});
  }

  TEST_CASE("the same database gives the same digest; another database another") {
    test::TempDir one;
    test::TempDir two;
    test::TempDir three;
    auto a = build(one.path(), "SQLite format 3");
    auto b = build(two.path(), "SQLite format 3");
    auto c = build(three.path(), "SQLite format 3!");
    CHECK(a.image.top().descriptor.digest == b.image.top().descriptor.digest);
    CHECK(a.image.top().descriptor.digest != c.image.top().descriptor.digest);
  }

  TEST_CASE("a database that is not a file fails and names it") {
    test::TempDir tmp;
    fs::create_directories(tmp.path() / "blobs");
    test::FakeBase base(tmp.path() / "blobs", "application/vnd.oci.image.manifest.v1+json");
    image::IndexImageBuild b{tmp.path() / "missing.db", "registry.test/base/opm:v1", "", 0};
    auto built = image::build_index_image(b, base, tmp.path());
    REQUIRE_FALSE(built);
    CHECK(built.error().message() == fmt::format("index database {} is not a regular file",
                                                 (tmp.path() / "missing.db").string()));
  }
}
