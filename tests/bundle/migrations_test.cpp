#include "bundle/csv_metadata.hpp"
#include "bundle/migrations.hpp"

#include <doctest/doctest.h>

using namespace opm::bundle;
using opm::Json;
using opm::catalog::Bundle;
using opm::catalog::DeclarativeConfig;

namespace {
Bundle bundle_with_csv(std::string csv_json) {
  Bundle b;
  b.name = "a.v1.0.0";
  b.package = "a";
  b.image = "quay.io/a/bundle:v1.0.0";
  b.properties.push_back({"olm.package", Json{{"packageName", "a"}, {"version", "1.0.0"}}});
  b.properties.push_back({"olm.bundle.object", Json{{"data", "e30="}}});
  b.properties.push_back({"olm.bundle.object", Json{{"data", "e30="}}});
  b.objects = {"{}", std::move(csv_json)};
  b.csv_index = 1;
  return b;
}

std::string metadata_error(std::string_view csv) {
  auto m = csv_metadata_json(csv);
  REQUIRE_FALSE(m);
  return m.error().message();
}
} // namespace

TEST_SUITE("csv metadata") {
  TEST_CASE("writes the fields in upstream's order, always with the three structs") {
    auto m = csv_metadata_json(R"({"kind":"ClusterServiceVersion","metadata":{"name":"x"},)"
                               R"("spec":{"version":"1.0.0"}})");
    REQUIRE(m);
    CHECK(*m == R"({"apiServiceDefinitions":{},"crdDescriptions":{},"provider":{}})");
  }

  TEST_CASE("keeps struct field order inside, drops unknown and empty fields") {
    auto m = csv_metadata_json(
        R"({"metadata":{"annotations":{"b":"2","a":"<1>","n":null},"labels":{"l":"v"}},)"
        R"("spec":{"version":"v1.2","displayName":"D","Description":"desc","unknown":1,)"
        R"("maintainers":[{"email":"e@x","name":"N"},{}],"provider":{"url":"u"},)"
        R"("installModes":[{"supported":true,"type":"AllNamespaces"}],)"
        R"("nativeAPIs":[{"kind":"K","version":"v1","group":""}],"keywords":[""],)"
        R"("links":[{"url":"https://x"}],"maturity":"alpha","minKubeVersion":"1.2.3",)"
        R"("customresourcedefinitions":{"owned":[{"kind":"W","name":"ws.x","version":"v1",)"
        R"("resources":[{"version":"v1","kind":"Pod","name":""}],)"
        R"("statusDescriptors":[{"path":"p","value":{"b":"\u003c","a":1.5}},{"path":"q","value":null}]}]},)"
        R"("apiservicedefinitions":{"required":[{"containerPort":80,"group":"g","kind":"K",)"
        R"("name":"ks","version":"v1"}]}}})");
    REQUIRE(m);
    CHECK(
        *m ==
        R"({"annotations":{"a":"<1>","b":"2","n":""},)"
        R"("apiServiceDefinitions":{"required":[{"name":"ks","group":"g","version":"v1",)"
        R"("kind":"K","containerPort":80}]},)"
        R"("crdDescriptions":{"owned":[{"name":"ws.x","version":"v1","kind":"W",)"
        R"("resources":[{"name":"","kind":"Pod","version":"v1"}],)"
        R"("statusDescriptors":[{"path":"p","value":{"a":1.5,"b":"\u003c"}},{"path":"q","value":null}]}]},)"
        R"("description":"desc","displayName":"D",)"
        R"("installModes":[{"type":"AllNamespaces","supported":true}],"keywords":[""],)"
        R"("labels":{"l":"v"},"links":[{"url":"https://x"}],)"
        R"("maintainers":[{"name":"N","email":"e@x"},{}],"maturity":"alpha",)"
        R"("minKubeVersion":"1.2.3","nativeAPIs":[{"group":"","version":"v1","kind":"K"}],)"
        R"("provider":{"url":"u"}})");
  }

  TEST_CASE("fails as upstream on a version that is not semver") {
    CHECK(metadata_error(R"({"spec":{"version":"1.0.0.0"}})") ==
          "Invalid character(s) found in patch number \"0.0\"");
    CHECK(csv_metadata_json(R"({"spec":{"version":" v01.2"}})")); // tolerant parsing
    CHECK(metadata_error(R"({"spec":{"version":"1.2.3-"}})") == "Prerelease is empty");
    CHECK(metadata_error(R"({"spec":{"version":"1.2-x"}})") ==
          "Short version cannot contain PreRelease/Build meta data");
    CHECK(metadata_error(R"({"spec":{"version":null}})") ==
          "strconv.ParseUint: parsing \"\": invalid syntax");
    CHECK(metadata_error(R"({"spec":{"version":1}})") ==
          "json: cannot unmarshal number into Go struct field ClusterServiceVersionSpec.spec."
          "version of type string");
    CHECK(metadata_error(R"({"spec":{"release":"1.02"}})") ==
          "Numeric PreRelease version must not contain leading zeroes \"02\"");
  }

  TEST_CASE("reports the first type error with Go's struct and field path") {
    CHECK(metadata_error(R"({"metadata":{"annotations":{"a":1}}})") ==
          "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of "
          "type string");
    CHECK(
        metadata_error(
            R"({"spec":{"customresourcedefinitions":{"owned":[{"specDescriptors":[{"path":3}]}]}}})") ==
        "json: cannot unmarshal number into Go struct field SpecDescriptor.spec."
        "customresourcedefinitions.owned.specDescriptors.path of type string");
    CHECK(
        metadata_error(R"({"spec":{"apiservicedefinitions":{"owned":[{"containerPort":1.5}]}}})") ==
        "json: cannot unmarshal number 1.5 into Go struct field APIServiceDescription.spec."
        "apiservicedefinitions.owned.containerPort of type int32");
    CHECK(metadata_error(R"({"spec":{"keywords":"k"}})") ==
          "json: cannot unmarshal string into Go struct field ClusterServiceVersionSpec.spec."
          "keywords of type []string");
    CHECK(metadata_error("[]") ==
          "json: cannot unmarshal array into Go value of type v1alpha1.ClusterServiceVersion");
  }
}

TEST_SUITE("migrations") {
  TEST_CASE("selects the migrations up to a level, all of them, or fails") {
    auto none = migrations_up_to("none");
    REQUIRE(none);
    CHECK(none->size() == 1);
    auto all = migrations_up_to("all");
    REQUIRE(all);
    CHECK(all->size() == 2);
    auto csv = migrations_up_to("bundle-object-to-csv-metadata");
    REQUIRE(csv);
    CHECK(csv->size() == 2);
    auto bad = migrations_up_to("bogus");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message() == "unknown migration level \"bogus\"");
  }

  TEST_CASE("lists the migrations in the help text") {
    CHECK(migrations_help() ==
          "\nThe migrator will run all migrations up to and including the selected level.\n\n"
          "Available migrators:\n"
          "  - none                          : do nothing\n"
          "  - bundle-object-to-csv-metadata : migrates bundles' \"olm.bundle.object\" to "
          "\"olm.csv.metadata\"\n");
  }

  TEST_CASE("replaces bundle objects with one olm.csv.metadata") {
    DeclarativeConfig cfg;
    cfg.bundles.push_back(bundle_with_csv(R"({"spec":{"version":"1.0.0","displayName":"A"}})"));
    REQUIRE(bundle_object_to_csv_metadata(cfg));
    const auto& props = cfg.bundles[0].properties;
    REQUIRE(props.size() == 2);
    CHECK(props[0].type == "olm.package");
    CHECK(props[1].type == "olm.csv.metadata");
    CHECK(props[1].raw ==
          R"({"apiServiceDefinitions":{},"crdDescriptions":{},"displayName":"A","provider":{}})");
    CHECK(props[1].value["displayName"] == "A");
  }

  TEST_CASE("leaves bundles without an image, without a CSV, or already migrated") {
    DeclarativeConfig cfg;
    cfg.bundles.push_back(bundle_with_csv(R"({"spec":{}})"));
    cfg.bundles.back().image.clear();
    cfg.bundles.push_back(bundle_with_csv(""));
    cfg.bundles.push_back(bundle_with_csv(R"({"spec":{}})"));
    cfg.bundles.back().properties.push_back({"olm.csv.metadata", Json::object()});
    REQUIRE(bundle_object_to_csv_metadata(cfg));
    CHECK(cfg.bundles[0].properties.size() == 3);
    CHECK(cfg.bundles[1].properties.size() == 3);
    CHECK(cfg.bundles[2].properties.size() == 4);
  }

  TEST_CASE("still decodes the CSV of an already migrated bundle, failing on errors") {
    DeclarativeConfig cfg;
    cfg.bundles.push_back(bundle_with_csv(R"({"spec":{"version":"x"}})"));
    cfg.bundles.back().properties.push_back({"olm.csv.metadata", Json::object()});
    auto r = run_migrations(*migrations_up_to("all"), cfg);
    REQUIRE_FALSE(r);
    CHECK(r.error().message() == "Invalid character(s) found in major number \"x\"");
  }
}
