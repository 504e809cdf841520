#include "index/add.hpp"
#include "sqlite/connection.hpp"
#include "support/index_database.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

using opm::sqlite::OpenMode;
namespace fs = std::filesystem;

namespace {

const fs::path k_data = fs::path(OPM_TEST_DATA_DIR) / "sqlite";
const std::string k_registry = "127.0.0.1:5231/test/";

std::string image_ref(std::string_view bundle) {
  auto dash = bundle.rfind('-');
  return k_registry + std::string(bundle.substr(0, dash)) + "-bundle:v" +
         std::string(bundle.substr(dash + 1));
}

// Images named as in tests/data/sqlite/README.md, served from the bundle directories.
opm::Result<void> unpack_fixture(const std::string& image, const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(k_data / "bundles")) {
    if (image_ref(entry.path().filename().string()) == image) {
      fs::copy(entry.path(), dir, fs::copy_options::recursive);
      return {};
    }
  }
  return opm::util::fail(opm::Errc::not_found, image + ": not found");
}

// Every row of `sql`, each as its columns joined by "|", sorted.
std::vector<std::string> rows(const fs::path& db_path, const std::string& sql) {
  auto db = opm::test::open_database(db_path, OpenMode::read_only);
  auto out = opm::test::rows_of(db, sql);
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::string> k_tables = {
    "SELECT name, csv, bundle, bundlepath, skiprange, version, replaces, skips, substitutesfor "
    "FROM operatorbundle",
    "SELECT * FROM package",
    "SELECT * FROM channel",
    "SELECT * FROM channel_entry",
    "SELECT * FROM related_image",
    "SELECT * FROM api",
    "SELECT * FROM api_provider",
    "SELECT * FROM api_requirer",
    "SELECT * FROM dependencies",
    "SELECT * FROM properties",
    "SELECT * FROM deprecated",
    "SELECT version FROM schema_migrations",
    // Storage classes too: upstream stores byte slices as BLOBs, strings as TEXT.
    "SELECT name, typeof(csv), typeof(bundle), typeof(bundlepath) FROM operatorbundle",
    "SELECT type, operatorbundle_name, typeof(value) FROM dependencies",
    "SELECT type, operatorbundle_name, typeof(value) FROM properties",
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_SUITE("index add") {
  TEST_CASE("bundles added to a new database give the rows upstream wrote") {
    opm::test::TempDir dir;
    auto db = dir.path() / "kiwi.db";
    auto added = opm::index::add({.database = db,
                                  .bundles = {image_ref("kiwi-0.1.0"), image_ref("kiwi-0.2.0"),
                                              image_ref("kiwi-0.3.0"), image_ref("plum-1.0.0")}},
                                 unpack_fixture);
    REQUIRE_MESSAGE(added, (added ? "" : added.error().message()));
    for (const auto& sql : k_tables) {
      CAPTURE(sql);
      CHECK(rows(db, sql) == rows(k_data / "kiwi.db", sql));
    }
  }

  TEST_CASE("adding one at a time gives the same graph") {
    opm::test::TempDir dir;
    auto db = dir.path() / "kiwi.db";
    for (const auto* bundle : {"kiwi-0.1.0", "kiwi-0.2.0", "kiwi-0.3.0", "plum-1.0.0"}) {
      auto added =
          opm::index::add({.database = db, .bundles = {image_ref(bundle)}}, unpack_fixture);
      REQUIRE_MESSAGE(added, (added ? "" : added.error().message()));
    }
    CHECK(rows(db, "SELECT * FROM channel") == rows(k_data / "kiwi.db", "SELECT * FROM channel"));
    CHECK(rows(db, "SELECT * FROM package") == rows(k_data / "kiwi.db", "SELECT * FROM package"));
  }

  TEST_CASE("an image already in the index fails with exit code 2 and leaves the file as it was") {
    opm::test::TempDir dir;
    auto db = dir.path() / "kiwi.db";
    fs::copy_file(k_data / "kiwi.db", db);
    auto before = slurp(db);
    auto added =
        opm::index::add({.database = db, .bundles = {image_ref("kiwi-0.3.0")}}, unpack_fixture);
    REQUIRE_FALSE(added);
    CHECK(added.error().code() == opm::Errc::bundle_exists);
    CHECK(added.error().message() == "[Bundle " + image_ref("kiwi-0.3.0") +
                                         " already exists, Bundle already added that provides "
                                         "package and csv]");
    CHECK(slurp(db) == before);
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
  }

  TEST_CASE("a bundle replacing one that is not there fails and changes nothing") {
    opm::test::TempDir dir;
    auto db = dir.path() / "kiwi.db";
    auto added =
        opm::index::add({.database = db, .bundles = {image_ref("kiwi-0.2.0")}}, unpack_fixture);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() ==
          "Invalid bundle kiwi.v0.2.0, replaces nonexistent bundle kiwi.v0.1.0");
    CHECK_FALSE(fs::exists(db));
  }

  TEST_CASE("a bundle below the channel head is refused as upstream refuses it") {
    opm::test::TempDir dir;
    auto db = dir.path() / "kiwi.db";
    fs::copy_file(k_data / "kiwi.db", db);
    auto before = slurp(db);
    auto added =
        opm::index::add({.database = db, .bundles = {image_ref("kiwi-0.1.5")}}, unpack_fixture);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() ==
          "add prunes bundle kiwi.v0.1.5 (127.0.0.1:5231/test/kiwi-bundle:v0.1.5) from package "
          "kiwi, channel stable: this may be due to incorrect channel head (kiwi.v0.2.0, "
          "skips/replaces [kiwi.v0.1.0]). Be aware that the head of the channel stable where you "
          "are trying to add the kiwi.v0.1.5 is kiwi.v0.2.0. Upgrade graphs follows the Semantic "
          "Versioning 2.0.0 (https://semver.org/) which means that is not possible add new "
          "versions lower then the head of the channel");
    CHECK(slurp(db) == before);
  }

  TEST_CASE("a bundle naming another package's bundle as an edge is refused") {
    opm::test::TempDir dir;
    auto db = dir.path() / "kiwi.db";
    fs::copy_file(k_data / "kiwi.db", db);
    auto added =
        opm::index::add({.database = db, .bundles = {image_ref("plum-2.0.0")}}, unpack_fixture);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() == "bundle kiwi.v0.1.0 belongs to package kiwi on index, "
                                     "cannot be added as an edge for package plum");
  }

  TEST_CASE("semver mode orders the channels by version as upstream does") {
    opm::test::TempDir dir;
    auto db = dir.path() / "semver.db";
    auto added = opm::index::add(
        {.database = db,
         .bundles = {image_ref("kiwi-0.1.0"), image_ref("kiwi-0.2.0"), image_ref("kiwi-0.3.0")},
         .mode = opm::index::Mode::semver},
        unpack_fixture);
    REQUIRE_MESSAGE(added, (added ? "" : added.error().message()));
    for (const auto& sql : k_tables) {
      if (sql.find("channel_entry") != std::string::npos) {
        continue; // entry ids follow channel order, which upstream leaves to chance
      }
      CAPTURE(sql);
      CHECK(rows(db, sql) == rows(k_data / "semver.db", sql));
    }
    const std::string edges =
        "SELECT e.channel_name, e.operatorbundle_name, e.depth, r.operatorbundle_name FROM "
        "channel_entry e LEFT JOIN channel_entry r ON e.replaces = r.entry_id";
    CHECK(rows(db, edges) == rows(k_data / "semver.db", edges));
  }
}
