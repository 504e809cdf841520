#include "sqlite/connection.hpp"
#include "sqlite/migrations.hpp"
#include "support/index_database.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

// The schema upstream's first release wrote (migration 0), with one package of two bundles
// whose CSVs carry what the later migrations backfill from.
constexpr std::string_view k_version0 = R"(
PRAGMA foreign_keys = OFF;
CREATE TABLE operatorbundle (name TEXT PRIMARY KEY, csv TEXT UNIQUE, bundle TEXT);
CREATE TABLE package (name TEXT PRIMARY KEY, default_channel TEXT,
  FOREIGN KEY(name, default_channel) REFERENCES channel(package_name,name));
CREATE TABLE channel (name TEXT, package_name TEXT, head_operatorbundle_name TEXT,
  PRIMARY KEY(name, package_name), FOREIGN KEY(package_name) REFERENCES package(name),
  FOREIGN KEY(head_operatorbundle_name) REFERENCES operatorbundle(name));
CREATE TABLE channel_entry (entry_id INTEGER PRIMARY KEY, channel_name TEXT, package_name TEXT,
  operatorbundle_name TEXT, replaces INTEGER, depth INTEGER,
  FOREIGN KEY(replaces) REFERENCES channel_entry(entry_id) DEFERRABLE INITIALLY DEFERRED,
  FOREIGN KEY(channel_name, package_name) REFERENCES channel(name, package_name));
CREATE TABLE api (group_name TEXT, version TEXT, kind TEXT, plural TEXT NOT NULL,
  PRIMARY KEY(group_name, version, kind));
CREATE TABLE api_provider (group_name TEXT, version TEXT, kind TEXT, channel_entry_id INTEGER,
  FOREIGN KEY(channel_entry_id) REFERENCES channel_entry(entry_id),
  FOREIGN KEY(group_name, version, kind) REFERENCES api(group_name, version, kind));
CREATE TABLE schema_migrations (version bigint NOT NULL, timestamp DATETIME DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_migrations(version) VALUES (0);
INSERT INTO operatorbundle VALUES ('foo.v2',
  '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v2","annotations":{"olm.skipRange":"<2.0.0"}},"spec":{"version":"2.0.0","relatedImages":[{"name":"op","image":"quay.io/foo/op:v2"}],"install":{"spec":{"deployments":[{"spec":{"template":{"spec":{"containers":[{"image":"quay.io/foo/op:v2"},{"image":"quay.io/foo/proxy:v1"}]}}}}]}},"customresourcedefinitions":{"required":[{"name":"bars.example.com","version":"v1","kind":"Bar"}]}}}',
  '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v2"}}');
INSERT INTO operatorbundle VALUES ('foo.v1',
  '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v1"},"spec":{"version":"1.0.0"}}',
  '{"kind":"ClusterServiceVersion","metadata":{"name":"foo.v1"}}');
INSERT INTO package VALUES ('foo', 'stable');
INSERT INTO channel VALUES ('stable', 'foo', 'foo.v2');
INSERT INTO channel_entry VALUES (1, 'stable', 'foo', 'foo.v2', 2, 0);
INSERT INTO channel_entry VALUES (2, 'stable', 'foo', 'foo.v1', NULL, 1);
INSERT INTO api VALUES ('example.com', 'v1', 'Foo', 'foos');
INSERT INTO api_provider VALUES ('example.com', 'v1', 'Foo', 1);
PRAGMA foreign_keys = ON;
)";

} // namespace

TEST_SUITE("sqlite migrations") {
  TEST_CASE("an empty file gets every table of the latest schema and one version row") {
    opm::test::TempDir dir;
    auto db = opm::test::open_database(dir.path() / "index.db");
    CHECK(opm::sqlite::schema_version(db).value() == -1);
    REQUIRE(opm::sqlite::migrate(db));
    CHECK(opm::sqlite::schema_version(db).value() == 13);
    CHECK(opm::test::column_of(db,
                               "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name") ==
          std::vector<std::string>{"api", "api_provider", "api_requirer", "channel",
                                   "channel_entry", "dependencies", "deprecated", "operatorbundle",
                                   "package", "properties", "related_image", "schema_migrations"});
    CHECK(opm::test::column_of(
              db, "SELECT name FROM sqlite_master WHERE type IN ('index','trigger') AND sql "
                  "IS NOT NULL ORDER BY name") ==
          std::vector<std::string>{"api_provider_cleanup", "api_requirer_cleanup", "pk"});
    CHECK(opm::test::column_of(db, "SELECT version FROM schema_migrations") ==
          std::vector<std::string>{"13"});
    CHECK(opm::test::column_of(
              db, "SELECT name FROM pragma_table_info('operatorbundle') ORDER BY cid") ==
          std::vector<std::string>{"name", "csv", "bundle", "bundlepath", "skiprange", "version",
                                   "replaces", "skips", "substitutesfor"});
  }

  TEST_CASE("a new database's schema is upstream's to the byte, object for object, in order") {
    opm::test::TempDir dir;
    auto db = opm::test::open_database(dir.path() / "index.db");
    REQUIRE(opm::sqlite::migrate(db));
    auto upstream = opm::test::data_database("kiwi.db");
    constexpr std::string_view k_schema = "SELECT type || ' ' || name || ' ' || tbl_name || "
                                          "char(10) || ifnull(sql, '') FROM sqlite_master "
                                          "ORDER BY rowid";
    auto expected = opm::test::column_of(upstream, k_schema);
    auto ours = opm::test::column_of(db, k_schema);
    REQUIRE(ours.size() == expected.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      CHECK(ours[i] == expected[i]);
    }
  }

  TEST_CASE("migrating twice changes nothing") {
    opm::test::TempDir dir;
    auto db = opm::test::open_database(dir.path() / "index.db");
    REQUIRE(opm::sqlite::migrate(db));
    REQUIRE(opm::sqlite::migrate(db));
    CHECK(opm::test::column_of(db, "SELECT version FROM schema_migrations") ==
          std::vector<std::string>{"13"});
  }

  TEST_CASE("a version 0 database is upgraded with its data backfilled from the CSVs") {
    opm::test::TempDir dir;
    auto db = opm::test::open_database(dir.path() / "index.db");
    auto created = db.exec(k_version0);
    REQUIRE_MESSAGE(created, (created ? "" : created.error().message()));
    auto migrated = opm::sqlite::migrate(db);
    REQUIRE_MESSAGE(migrated, (migrated ? "" : migrated.error().message()));
    CHECK(opm::sqlite::schema_version(db).value() == 13);
    CHECK(opm::test::column_of(
              db, "SELECT name || ' ' || version || ' ' || skiprange || ' [' || replaces || "
                  "'] [' || skips || ']' FROM operatorbundle ORDER BY name") ==
          std::vector<std::string>{"foo.v1 1.0.0  [] []", "foo.v2 2.0.0 <2.0.0 [foo.v1] []"});
    CHECK(opm::test::column_of(
              db,
              "SELECT image FROM related_image WHERE operatorbundle_name='foo.v2' ORDER "
              "BY image") == std::vector<std::string>{"quay.io/foo/op:v2", "quay.io/foo/proxy:v1"});
    CHECK(opm::test::column_of(db, "SELECT group_name || '/' || version || '/' || kind || ' ' || "
                                   "operatorbundle_name FROM api_requirer") ==
          std::vector<std::string>{"example.com/v1/Bar foo.v2"});
    CHECK(opm::test::column_of(db, "SELECT type || ' ' || value FROM properties ORDER BY type") ==
          std::vector<std::string>{R"(olm.gvk {"group":"example.com","kind":"Foo","version":"v1"})",
                                   R"(olm.package {"packageName":"foo","version":"2.0.0"})"});
    // The dependency loses its "type" member, as upstream's migration 9 does it.
    CHECK(
        opm::test::column_of(db, "SELECT type || ' ' || value FROM dependencies") ==
        std::vector<std::string>{R"(olm.gvk {"group":"example.com","kind":"Bar","version":"v1"})"});
  }

  TEST_CASE("a failing step leaves the database at its old version") {
    opm::test::TempDir dir;
    auto db = opm::test::open_database(dir.path() / "index.db");
    // Version 10 recorded, but step 11 cannot add a column that is already there.
    REQUIRE(db.exec("CREATE TABLE schema_migrations (version bigint NOT NULL, timestamp DATETIME "
                    "DEFAULT CURRENT_TIMESTAMP); INSERT INTO schema_migrations(version) VALUES "
                    "(10); CREATE TABLE operatorbundle (name TEXT, substitutesfor TEXT);"));
    auto migrated = opm::sqlite::migrate(db);
    REQUIRE_FALSE(migrated);
    CHECK(migrated.error().message() == "duplicate column name: substitutesfor");
    CHECK(opm::sqlite::schema_version(db).value() == 10);
  }
}
