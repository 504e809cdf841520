#include "sqlite/connection.hpp"
#include "sqlite/export.hpp"
#include "sqlite/migrations.hpp"
#include "support/index_database.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

namespace {

// foo: stable = v3 -> v2 (v3 also skips v1), v1 stranded below v2; v4 deprecated.
constexpr std::string_view k_rows = R"(
INSERT INTO operatorbundle(name, csv, bundle, bundlepath, version, skiprange, replaces, skips) VALUES
 ('foo.v1', NULL, NULL, 'quay.io/foo:v1', '1.0.0', '', '', ''),
 ('foo.v2', NULL, NULL, 'quay.io/foo:v2', '2.0.0', '', 'foo.v1', ''),
 ('foo.v3', '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v3"},"spec":{"icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}],"relatedImages":[{"name":"op","image":"quay.io/op:v3"}]}}',
  '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v3"},"spec":{"icon":[{"base64data":"aWNvbg==","mediatype":"image/png"}],"relatedImages":[{"name":"op","image":"quay.io/op:v3"}]}}
{"kind":"ConfigMap","metadata":{"name":"cm"}}
', 'quay.io/foo:v3', '3.0.0', '<3.0.0', 'foo.v2', 'foo.v1');
INSERT INTO package(name, default_channel) VALUES ('foo', NULL);
INSERT INTO channel VALUES ('stable', 'foo', 'foo.v3');
UPDATE package SET default_channel = 'stable';
INSERT INTO channel_entry VALUES
 (1, 'stable', 'foo', 'foo.v3', 4, 0),
 (2, 'stable', 'foo', 'foo.v1', NULL, 1),
 (3, 'stable', 'foo', 'foo.v3', 2, 1),
 (4, 'stable', 'foo', 'foo.v2', 5, 2),
 (5, 'stable', 'foo', 'foo.v1', NULL, 3);
INSERT INTO properties VALUES
 ('olm.package', '{"packageName":"foo","version":"3.0.0"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.package', '{"packageName":"foo","version":"3.0.0"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.gvk', '{"group":"example.com","kind":"Foo","version":"v1"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.label', '{"label": "a<b"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3');
INSERT INTO dependencies VALUES
 ('olm.package', '{"packageName":"bar","version":">=1.0.0"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.gvk', '{"group":"example.com","kind":"Bar","version":"v1"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3'),
 ('olm.label', '{"label":"x"}', 'foo.v3', '3.0.0', 'quay.io/foo:v3');
INSERT INTO related_image VALUES ('quay.io/op:v3', 'foo.v3'), ('quay.io/extra:v1', 'foo.v3'),
 ('quay.io/foo:v3', 'foo.v3');
)";

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_SUITE("sqlite export") {
  TEST_CASE("channels, replaces and skips come from the channel entries") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db", k_rows);
    auto cfg = opm::sqlite::to_declcfg(db);
    REQUIRE(cfg);
    REQUIRE(cfg->packages.size() == 1);
    CHECK(cfg->packages[0].default_channel == "stable");
    REQUIRE(cfg->packages[0].icon);
    CHECK(*cfg->packages[0].icon->data == "icon");
    CHECK(cfg->packages[0].icon->mediatype == "image/png");
    REQUIRE(cfg->channels.size() == 1);
    const auto& entries = *cfg->channels[0].entries;
    REQUIRE(entries.size() == 3);
    CHECK(entries[0].name == "foo.v1");
    CHECK(entries[1].name == "foo.v2");
    CHECK(entries[1].replaces == "foo.v1");
    CHECK(entries[2].name == "foo.v3");
    CHECK(entries[2].replaces == "foo.v2");
    CHECK(entries[2].skips == std::vector<std::string>{"foo.v1"});
    CHECK(entries[2].skip_range == "<3.0.0");
  }

  TEST_CASE("bundle properties are merged, sorted, objects last") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db", k_rows);
    auto cfg = opm::sqlite::to_declcfg(db);
    REQUIRE(cfg);
    REQUIRE(cfg->bundles.size() == 3);
    const auto& v3 = cfg->bundles[2];
    CHECK(v3.name == "foo.v3");
    CHECK(v3.image == "quay.io/foo:v3");
    std::vector<std::string> props;
    for (const auto& p : v3.properties) {
      props.push_back(p.type + " " + (p.raw.empty() ? p.value.dump() : p.raw));
    }
    CHECK(
        props ==
        std::vector<std::string>{
            R"(olm.gvk {"group":"example.com","kind":"Foo","version":"v1"})",
            R"(olm.gvk.required {"group":"example.com","kind":"Bar","version":"v1"})",
            R"(olm.label {"label":"a<b"})",
            R"(olm.package {"packageName":"foo","version":"3.0.0"})",
            R"(olm.package.required {"packageName":"bar","versionRange":">=1.0.0"})",
            R"(olm.bundle.object {"data":"eyJraW5kIjoiQ2x1c3RlclNlcnZpY2VWZXJzaW9uIiwibWV0YWRhdGEiOnsibmFtZSI6ImZvby52MyJ9LCJzcGVjIjp7Imljb24iOlt7ImJhc2U2NGRhdGEiOiJhV052Ymc9PSIsIm1lZGlhdHlwZSI6ImltYWdlL3BuZyJ9XSwicmVsYXRlZEltYWdlcyI6W3sibmFtZSI6Im9wIiwiaW1hZ2UiOiJxdWF5LmlvL29wOnYzIn1dfX0="})",
            R"(olm.bundle.object {"data":"eyJraW5kIjoiQ29uZmlnTWFwIiwibWV0YWRhdGEiOnsibmFtZSI6ImNtIn19"})"});
    CHECK(v3.csv_index == std::optional<std::size_t>(0));
    // The CSV's related images and those only the database lists (without a name).
    REQUIRE(v3.related_images.size() == 3);
    CHECK(v3.related_images[0].name == "");
    CHECK(v3.related_images[0].image == "quay.io/extra:v1");
    CHECK(v3.related_images[1].name == "");
    CHECK(v3.related_images[1].image == "quay.io/foo:v3");
    CHECK(v3.related_images[2].name == "op");
    CHECK(v3.related_images[2].image == "quay.io/op:v3");
    // A bundle without stored properties gets its olm.package from the columns.
    CHECK(cfg->bundles[0].properties.size() == 1);
    CHECK(cfg->bundles[0].properties[0].value.dump() ==
          R"({"packageName":"foo","version":"1.0.0"})");
  }

  TEST_CASE("deprecated bundles are left out") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(
        dir.path() / "index.db",
        std::string(k_rows) + "INSERT INTO properties VALUES ('olm.deprecated', '{}', 'foo.v1', "
                              "'1.0.0', 'quay.io/foo:v1');");
    auto cfg = opm::sqlite::to_declcfg(db);
    REQUIRE(cfg);
    CHECK(cfg->bundles.size() == 2);
    CHECK(cfg->channels[0].entries->size() == 2);
  }

  TEST_CASE("a bundle in a channel the package does not have is an error") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(
        dir.path() / "index.db",
        std::string(k_rows) + "PRAGMA foreign_keys = OFF; INSERT INTO channel_entry VALUES (9, "
                              "'beta', 'foo', 'foo.v1', NULL, 0);");
    auto cfg = opm::sqlite::to_declcfg(db);
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == R"(unknown channel "beta" for bundle "foo.v1")");
  }

  TEST_CASE("reading an old database migrates a copy and leaves the file as it was") {
    opm::test::TempDir dir;
    auto path = dir.path() / "old.db";
    {
      auto db = opm::test::migrated_database(path, k_rows);
      REQUIRE(db.exec("UPDATE schema_migrations SET version = 12"));
    }
    auto before = slurp(path);
    auto cfg = opm::sqlite::read_file(path);
    REQUIRE(cfg);
    CHECK(cfg->bundles.size() == 3);
    CHECK(slurp(path) == before);
  }

  TEST_CASE("a file that is not a database fails with SQLite's message") {
    opm::test::TempDir dir;
    auto path = dir.write("bad.db", "SQLite format 3 but then garbage that is long enough to be "
                                    "read as a header of a database page and more bytes here");
    auto cfg = opm::sqlite::read_file(path);
    REQUIRE_FALSE(cfg);
    CHECK(cfg.error().message() == "file is not a database");
  }
}
