#include "list/list.hpp"
#include "support/catalog_builders.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;
using namespace opm::test;
using catalog::DeclarativeConfig;

namespace {

// A small etcd catalog: three channels, a skip and a deprecation.
DeclarativeConfig etcd() {
  DeclarativeConfig cfg;
  cfg.packages.push_back(package("etcd", "stable", 1));
  cfg.channels.push_back(channel(
      "etcd", "stable",
      {entry("etcd.v0.9.2", "etcd.v0.9.0", {}, ">=0.9.0 <0.9.2"), entry("etcd.v0.9.0")}, 10));
  cfg.channels.push_back(channel("etcd", "alpha", {entry("etcd.v0.9.0")}, 20));
  cfg.bundles.push_back(
      bundle("etcd", "etcd.v0.9.2", 30, "0.9.2", "quay.io/example/etcd-bundle:v0.9.2"));
  cfg.bundles.push_back(
      bundle("etcd", "etcd.v0.9.0", 40, "0.9.0", "quay.io/example/etcd-bundle:v0.9.0"));
  return cfg;
}

// Gives the bundle one object, its CSV.
void set_csv(catalog::Bundle& b, std::string csv) {
  b.objects = {std::move(csv)};
  b.csv_index = 0;
}

catalog::model::Model model_of(const DeclarativeConfig& cfg) {
  auto model = catalog::model::to_model(cfg);
  REQUIRE(model.has_value());
  return std::move(*model);
}

} // namespace

TEST_SUITE("alpha list") {
  TEST_CASE("lists packages with their default channel") {
    auto cfg = etcd();
    CHECK(list::list_packages(model_of(cfg)) == "NAME  DISPLAY NAME  DEFAULT CHANNEL\n"
                                                "etcd                stable\n");
  }

  TEST_CASE("lists channels with their heads") {
    auto cfg = etcd();
    const std::string expected = "PACKAGE  CHANNEL  HEAD\n"
                                 "etcd     alpha    etcd.v0.9.0\n"
                                 "etcd     stable   etcd.v0.9.2\n";
    CHECK(list::list_channels(model_of(cfg)).value() == expected);
    CHECK(list::list_channels(model_of(cfg), "etcd").value() == expected);
  }

  TEST_CASE("lists every channel entry as a bundle row") {
    auto cfg = etcd();
    CHECK(list::list_bundles(model_of(cfg)).value() ==
          "PACKAGE  CHANNEL  BUNDLE       REPLACES     SKIPS  SKIP RANGE      IMAGE\n"
          "etcd     alpha    etcd.v0.9.0                                      "
          "quay.io/example/etcd-bundle:v0.9.0\n"
          "etcd     stable   etcd.v0.9.0                                      "
          "quay.io/example/etcd-bundle:v0.9.0\n"
          "etcd     stable   etcd.v0.9.2  etcd.v0.9.0         >=0.9.0 <0.9.2  "
          "quay.io/example/etcd-bundle:v0.9.2\n");
  }

  TEST_CASE("joins skips with commas") {
    auto cfg = etcd();
    (*cfg.channels[1].entries)[0].skips = {"old.a", "old.b"};
    auto table = list::list_bundles(model_of(cfg), "etcd").value();
    CHECK(table.find("etcd     alpha    etcd.v0.9.0               old.a,old.b") !=
          std::string::npos);
  }

  TEST_CASE("rejects an unknown package") {
    auto cfg = etcd();
    CHECK(list::list_channels(model_of(cfg), "nope").error().message() ==
          "package \"nope\" not found");
    CHECK(list::list_bundles(model_of(cfg), "nope").error().message() ==
          "package \"nope\" not found");
  }

  TEST_CASE("shows the display name of the default channel head's CSV, sorted by package") {
    auto cfg = etcd();
    set_csv(cfg.bundles[0],
            R"({"kind":"ClusterServiceVersion","spec":{"displayName":"Café Operator"}})");
    cfg.packages.push_back(package("apicurio", "3.x", 50));
    cfg.channels.push_back(channel("apicurio", "3.x", {entry("a.v3")}, 51));
    cfg.bundles.push_back(bundle("apicurio", "a.v3", 52));
    set_csv(cfg.bundles.back(), R"({"spec":{"displayName":"Apicurio Registry 3"}})");
    CHECK(list::list_packages(model_of(cfg)) == "NAME      DISPLAY NAME         DEFAULT CHANNEL\n"
                                                "apicurio  Apicurio Registry 3  3.x\n"
                                                "etcd      Café Operator        stable\n");
  }

  TEST_CASE("leaves the display name empty for a CSV of another shape") {
    auto cfg = etcd();
    set_csv(cfg.bundles[0], R"({"spec":{"displayName":7}})");
    CHECK(list::list_packages(model_of(cfg)) == "NAME  DISPLAY NAME  DEFAULT CHANNEL\n"
                                                "etcd                stable\n");
    set_csv(cfg.bundles[0], "not json");
    CHECK(list::list_packages(model_of(cfg)) == "NAME  DISPLAY NAME  DEFAULT CHANNEL\n"
                                                "etcd                stable\n");
  }

  TEST_CASE("prints only the header for an empty catalog") {
    DeclarativeConfig cfg;
    CHECK(list::list_packages(model_of(cfg)) == "NAME  DISPLAY NAME  DEFAULT CHANNEL\n");
    CHECK(list::list_bundles(model_of(cfg)).value() ==
          "PACKAGE  CHANNEL  BUNDLE  REPLACES  SKIPS  SKIP RANGE  IMAGE\n");
  }

  TEST_CASE("aligns like Go's tabwriter, counting code points") {
    CHECK(list::tabulate({{"A", "B", "C"}, {"ééé", "", "x"}, {"", "bb", ""}}) == "A    B   C\n"
                                                                                 "ééé      x\n"
                                                                                 "     bb  \n");
  }
}

TEST_SUITE("alpha list run") {
  TEST_CASE("renders the reference, validates it and lists what was asked") {
    std::vector<std::string> rendered;
    auto render = [&rendered](const std::string& ref) -> Result<DeclarativeConfig> {
      rendered.push_back(ref);
      return etcd();
    };
    auto table = list::run(
        {.ref = "quay.io/acme/index:v1", .what = list::Listing::channels, .package = "etcd"},
        render);
    REQUIRE(table.has_value());
    CHECK(*table == "PACKAGE  CHANNEL  HEAD\n"
                    "etcd     alpha    etcd.v0.9.0\n"
                    "etcd     stable   etcd.v0.9.2\n");
    CHECK(rendered == std::vector<std::string>{"quay.io/acme/index:v1"});
  }

  TEST_CASE("refuses a bundle reference with upstream's message") {
    auto render = [](const std::string&) -> Result<DeclarativeConfig> {
      return util::fail(Errc::not_allowed, "cannot render bundle");
    };
    auto table = list::run({.ref = "./bundle"}, render);
    REQUIRE_FALSE(table.has_value());
    CHECK(table.error().code() == Errc::invalid);
    CHECK(table.error().message() == "cannot list non-index \"./bundle\"");
  }

  TEST_CASE("passes other render errors on and fails on an invalid catalog") {
    auto unreachable = [](const std::string&) -> Result<DeclarativeConfig> {
      return util::fail(Errc::network, "connection refused");
    };
    CHECK(list::run({.ref = "x"}, unreachable).error().message() == "connection refused");

    auto no_default = [](const std::string&) -> Result<DeclarativeConfig> {
      auto cfg = etcd();
      cfg.packages[0].default_channel = "beta";
      return cfg;
    };
    auto table = list::run({.ref = "x"}, no_default);
    REQUIRE_FALSE(table.has_value());
    // The finding with its location, then upstream's tree.
    CHECK(table.error().message().find(":1:1: invalid channel \"beta\": channel must contain at "
                                       "least one bundle") != std::string::npos);
    CHECK(table.error().message().find("\ninvalid index:\n") != std::string::npos);
  }
}
