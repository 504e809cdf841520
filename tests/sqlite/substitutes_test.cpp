#include "sqlite/bundle_insert.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/migrations.hpp"
#include "support/index_database.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using opm::sqlite::Connection;
using opm::sqlite::NewBundle;

namespace {

NewBundle bundle(std::string name, std::string version, std::string replaces = {},
                 std::string substitutes_for = {}, std::vector<std::string> skips = {}) {
  NewBundle b;
  b.name = std::move(name);
  b.version = std::move(version);
  b.replaces = std::move(replaces);
  b.substitutes_for = std::move(substitutes_for);
  b.skips = std::move(skips);
  b.csv_json = "{}";
  b.object_json = {"{}"};
  return b;
}

// "replaces|skips|substitutesfor" of one operatorbundle row.
std::string edges(Connection& db, const std::string& name) {
  auto stmt =
      db.prepare("SELECT replaces, skips, substitutesfor FROM operatorbundle WHERE name = ?");
  REQUIRE(stmt);
  stmt->bind(1, name);
  auto row = stmt->step();
  REQUIRE(row);
  REQUIRE(*row);
  return stmt->text_or_empty(0) + "|" + stmt->text_or_empty(1) + "|" + stmt->text_or_empty(2);
}

void add(Connection& db, const NewBundle& b) {
  auto added = opm::sqlite::add_bundle(db, b, true);
  INFO(b.name << ": " << (added ? "" : added.error().message()));
  REQUIRE(added);
}

} // namespace

TEST_SUITE("sqlite") {
  TEST_CASE("a substitute takes the place of the bundle it substitutes for") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db");
    add(db, bundle("a.v1", "1.0.0"));
    add(db, bundle("a.v2", "2.0.0", "a.v1"));
    add(db, bundle("a.v3", "3.0.0", "a.v2"));
    add(db, bundle("a.v2-sub", "2.0.0+1", "a.v1", "a.v2"));
    CHECK(edges(db, "a.v3") == "a.v2-sub||");
    CHECK(edges(db, "a.v2-sub") == "a.v1|a.v2|a.v2");
    CHECK(edges(db, "a.v2") == "a.v1||");

    // A newer substitute for the same bundle substitutes for the earlier one and skips the
    // whole chain.
    add(db, bundle("a.v2-sub2", "2.0.0+2", "a.v1", "a.v2"));
    CHECK(edges(db, "a.v2-sub2") == "a.v1|a.v2-sub,a.v2|a.v2-sub");
    CHECK(edges(db, "a.v2-sub") == "a.v1|a.v2|a.v2");

    // A bundle replacing the substituted bundle replaces its newest substitute.
    add(db, bundle("a.v4", "4.0.0", "a.v2", "", {"a.v1"}));
    CHECK(edges(db, "a.v4") == "a.v2-sub2|a.v1|");
  }

  TEST_CASE("an older substitute added after a newer one hands over its skips") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db");
    add(db, bundle("b.v2", "2.0.0"));
    add(db, bundle("b.v2-new", "2.0.0+2", "", "b.v2"));
    add(db, bundle("b.v2-old", "2.0.0+1", "", "b.v2", {"b.x"}));
    CHECK(edges(db, "b.v2-new") == "|b.v2,b.x,b.v2-old|b.v2-old");
    CHECK(edges(db, "b.v2-old") == "|b.x,b.v2|b.v2");
  }

  TEST_CASE("two substitutes of one version cannot be ordered") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db");
    add(db, bundle("c.v2", "2.0.0"));
    add(db, bundle("c.v2-sub", "2.0.0+1", "", "c.v2"));
    auto added = opm::sqlite::add_bundle(db, bundle("c.v2-dup", "2.0.0+1", "", "c.v2"), true);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() == "failed to add substitutes : cannot determine latest "
                                     "substitution because of duplicate versions");
    auto count = db.prepare("SELECT count(*) FROM operatorbundle WHERE name = 'c.v2-dup'");
    REQUIRE(count);
    REQUIRE(*count->step());
    CHECK(count->text_or_empty(0) == "0");
  }

  TEST_CASE("a bundle substituting for itself is refused with the loop, and not stored") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db");
    auto added = opm::sqlite::add_bundle(db, bundle("s.v1", "1.0.0", "", "s.v1"), true);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() == "failed to add substitutes : cyclic substitutesFor chain "
                                     "detected involving \"s.v1\": s.v1 -> s.v1");
    auto count = db.prepare("SELECT count(*) FROM operatorbundle");
    REQUIRE(count);
    REQUIRE(*count->step());
    CHECK(count->text_or_empty(0) == "0");
  }

  TEST_CASE("two bundles substituting for each other are refused with the loop") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db");
    add(db, bundle("t.a", "1.0.0+1", "", "t.b"));
    auto added = opm::sqlite::add_bundle(db, bundle("t.b", "1.0.0+2", "", "t.a"), true);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() == "failed to add substitutes : cyclic substitutesFor chain "
                                     "detected involving \"t.b\": t.b -> t.a -> t.b");
    CHECK(edges(db, "t.a") == "|t.b|t.b");
  }

  TEST_CASE("substitutes-for needs alpha features") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db");
    auto added = opm::sqlite::add_bundle(db, bundle("d.v2-sub", "2.0.0+1", "", "d.v2"), false);
    REQUIRE_FALSE(added);
    CHECK(added.error().message() ==
          "SubstitutesFor is an alpha-only feature. You must enable alpha features with the flag "
          "--enable-alpha in order to use this feature.");
  }

  TEST_CASE("without a substitute alpha features change nothing but duplicate skips") {
    opm::test::TempDir dir;
    auto db = opm::test::migrated_database(dir.path() / "index.db");
    add(db, bundle("e.v1", "1.0.0"));
    add(db, bundle("e.v2", "2.0.0", "e.v1", "", {"e.v0", "e.v0", "e.v1"}));
    CHECK(edges(db, "e.v2") == "e.v1|e.v0,e.v1|");
  }
}
