#include "sqlite/connection.hpp"
#include "sqlite/query.hpp"
#include "support/index_database.hpp"

#include <doctest/doctest.h>

#include <string>

using opm::sqlite::Connection;
using opm::sqlite::Querier;

namespace {

// tests/data/sqlite/semver.db, written by upstream: kiwi 0.1.0, 0.2.0, 0.3.0 in semver mode;
// stable = 0.2.0 -> 0.1.0, candidate = 0.3.0 -> 0.2.0.
Connection semver_db() { return opm::test::data_database("semver.db"); }

} // namespace

TEST_SUITE("sqlite query") {
  TEST_CASE("GetBundle reads the manifests, the APIs with their plural and the properties") {
    Querier q(semver_db());
    auto bundle = q.bundle("kiwi", "stable", "kiwi.v0.2.0");
    REQUIRE(bundle);
    CHECK(bundle->csv_name == "kiwi.v0.2.0");
    CHECK(bundle->package_name == "kiwi");
    CHECK(bundle->channel_name == "stable");
    CHECK(bundle->version == "0.2.0");
    CHECK(bundle->objects.size() == 2);
    CHECK(bundle->csv_json.find("\"kind\":\"ClusterServiceVersion\"") != std::string::npos);
    REQUIRE(bundle->provided_apis.size() == 1);
    CHECK(bundle->provided_apis[0].kind == "Orchard");
    CHECK(bundle->provided_apis[0].plural == "orchards");
    CHECK(bundle->replaces.empty());
    CHECK(bundle->skips.empty());
  }

  TEST_CASE("lookups that find nothing fail with upstream's texts") {
    Querier q(semver_db());
    CHECK(q.package("nope").error().message() == "package nope not found");
    CHECK(q.bundle("kiwi", "stable", "nope").error().message() ==
          "no entry found for kiwi stable nope");
    CHECK(q.bundle_for_channel("kiwi", "nope").error().message() == "no entry found for kiwi nope");
    CHECK(q.entries_that_replace("nope").error().message() ==
          "no channel entries found that replace nope");
    CHECK(q.entries_that_provide("g", "v", "K").error().message() ==
          "no channel entries found that provide g v K");
    CHECK(q.default_bundle_that_provides("g", "v", "K").error().message() ==
          "no entry found that provides g v K");
  }

  TEST_CASE("GetBundleForChannel answers only the head's name and stored CSV") {
    Querier q(semver_db());
    auto head = q.bundle_for_channel("kiwi", "stable");
    REQUIRE(head);
    CHECK(head->csv_name == "kiwi.v0.2.0");
    CHECK_FALSE(head->csv_json.empty());
    CHECK(head->objects.empty());
    CHECK(head->package_name.empty());
    CHECK(head->provided_apis.empty());
  }

  TEST_CASE("ListBundles: one answer per channel entry, replaces set, manifests left out") {
    Querier q(semver_db());
    auto bundles = q.bundles();
    REQUIRE(bundles);
    REQUIRE(bundles->size() == 4);
    for (const auto& b : *bundles) {
      CAPTURE(b.csv_name);
      CHECK_FALSE(b.bundle_path.empty());
      CHECK(b.objects.empty());
      CHECK(b.csv_json.empty());
      CHECK(b.required_apis.size() == 1);
      if (b.csv_name == "kiwi.v0.3.0") {
        CHECK(b.replaces == "kiwi.v0.2.0");
      }
      if (b.csv_name == "kiwi.v0.1.0") {
        CHECK(b.replaces.empty());
      }
    }
  }
}
