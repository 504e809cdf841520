#include "filter/filter.hpp"
#include "support/catalog_builders.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace opm;
using namespace opm::test;
using catalog::DeclarativeConfig;

namespace {

// etcd: stable is the chain 1.0.0 <- 1.1.0 <- 2.0.0 <- 2.1.0, where 2.0.0 also skips
// 1.1.1 (in stable only); beta holds 2.1.0 alone. Another package, cockroach, with one
// channel; a deprecation of etcd naming the beta channel, a bundle and the package.
DeclarativeConfig catalog_fixture() {
  DeclarativeConfig cfg;
  cfg.packages.push_back(package("cockroach", "stable", 1));
  cfg.packages.push_back(package("etcd", "stable", 2));
  cfg.channels.push_back(channel("cockroach", "stable", {entry("cockroach.v1.0.0")}, 3));
  cfg.channels.push_back(channel(
      "etcd", "stable",
      {entry("etcd.v1.0.0"), entry("etcd.v1.1.0", "etcd.v1.0.0"), entry("etcd.v1.1.1"),
       entry("etcd.v2.0.0", "etcd.v1.1.0", {"etcd.v1.1.1"}), entry("etcd.v2.1.0", "etcd.v2.0.0")},
      4));
  cfg.channels.push_back(channel("etcd", "beta", {entry("etcd.v2.1.0")}, 5));
  cfg.bundles.push_back(bundle("cockroach", "cockroach.v1.0.0", 6));
  std::size_t at = 7;
  for (const char* v : {"1.0.0", "1.1.0", "1.1.1", "2.0.0", "2.1.0"}) {
    cfg.bundles.push_back(bundle("etcd", std::string("etcd.v") + v, at++, v));
  }
  cfg.deprecations.push_back(
      deprecation("etcd",
                  {deprecate("olm.channel", "beta"), deprecate("olm.bundle", "etcd.v1.0.0"),
                   deprecate("olm.package", "")},
                  20));
  return cfg;
}

filter::Config config(std::vector<filter::PackageRule> packages) {
  return filter::Config{.packages = std::move(packages)};
}

std::vector<std::string> bundle_names(const DeclarativeConfig& cfg) {
  std::vector<std::string> out;
  for (const auto& b : cfg.bundles) {
    out.push_back(b.name);
  }
  return out;
}

std::vector<std::string> entry_names(const catalog::Channel& ch) {
  std::vector<std::string> out;
  for (const auto& e : *ch.entries) {
    out.push_back(e.name);
  }
  return out;
}

// The etcd channel `name`.
const catalog::Channel& channel_named(const DeclarativeConfig& cfg, const std::string& name) {
  auto found = std::ranges::find_if(cfg.channels, [&name](const catalog::Channel& ch) {
    return ch.package == "etcd" && ch.name == name;
  });
  REQUIRE(found != cfg.channels.end());
  return *found;
}

using Names = std::vector<std::string>;

} // namespace

TEST_SUITE("alpha filter") {
  TEST_CASE("a named package keeps all of its objects and the others go") {
    auto cfg = catalog_fixture();
    auto before = cfg;
    REQUIRE(filter::apply(config({{.name = "etcd"}}), {}, cfg).has_value());
    REQUIRE(cfg.packages.size() == 1);
    CHECK(cfg.packages[0].name == "etcd");
    CHECK(cfg.channels.size() == 2);
    CHECK(entry_names(channel_named(cfg, "stable")) == entry_names(before.channels[1]));
    CHECK(bundle_names(cfg) ==
          Names{"etcd.v1.0.0", "etcd.v1.1.0", "etcd.v1.1.1", "etcd.v2.0.0", "etcd.v2.1.0"});
    REQUIRE(cfg.deprecations.size() == 1);
    CHECK(cfg.deprecations[0].entries->size() == 3);
  }

  TEST_CASE("named channels are kept and deprecations of the others go") {
    auto cfg = catalog_fixture();
    REQUIRE(filter::apply(config({{.name = "etcd", .channels = {{.name = "stable"}}}}), {}, cfg)
                .has_value());
    REQUIRE(cfg.channels.size() == 1);
    CHECK(cfg.channels[0].name == "stable");
    REQUIRE(cfg.deprecations.size() == 1);
    REQUIRE(cfg.deprecations[0].entries->size() == 2);
    CHECK((*cfg.deprecations[0].entries)[0].reference.name == "etcd.v1.0.0");
  }

  TEST_CASE("a version range keeps the bundles that upgrade its bundles and warns of them") {
    auto cfg = catalog_fixture();
    std::vector<std::string> warnings;
    filter::Options options{.warn = [&](const std::string& w) { warnings.push_back(w); }};
    auto rules = config(
        {{.name = "etcd", .channels = {{.name = "stable", .version_range = ">=1.1.0 <2.0.0"}}}});
    REQUIRE(filter::apply(rules, options, cfg).has_value());
    CHECK(entry_names(channel_named(cfg, "stable")) ==
          Names{"etcd.v1.1.0", "etcd.v1.1.1", "etcd.v2.0.0"});
    // 1.0.0 goes and its deprecation with it; so does beta, which was not named.
    CHECK(bundle_names(cfg) == Names{"etcd.v1.1.0", "etcd.v1.1.1", "etcd.v2.0.0"});
    CHECK(warnings ==
          Names{"including bundle \"etcd.v2.0.0\" with version \"2.0.0\": it falls outside the "
                "specified range of \">=1.1.0 <2.0.0\" but is required to ensure inclusion of "
                "all bundles in the range"});
    REQUIRE(cfg.deprecations.size() == 1);
    REQUIRE(cfg.deprecations[0].entries->size() == 1);
    CHECK((*cfg.deprecations[0].entries)[0].reference.schema == "olm.package");
  }

  TEST_CASE("a range at the head of the chain keeps no bundle below it") {
    auto cfg = catalog_fixture();
    auto rules =
        config({{.name = "etcd",
                 .channels = {{.name = "stable", .version_range = ">=2.1.0"}, {.name = "beta"}}}});
    REQUIRE(filter::apply(rules, {}, cfg).has_value());
    CHECK(entry_names(channel_named(cfg, "stable")) == Names{"etcd.v2.1.0"});
    CHECK(bundle_names(cfg) == Names{"etcd.v2.1.0"});
  }

  TEST_CASE("a range that keeps nothing is an error naming its line of the configuration") {
    auto cfg = catalog_fixture();
    auto rules = config({{.name = "etcd",
                          .channels = {{.name = "stable",
                                        .version_range = ">=3.0.0",
                                        .where = {.file = "filter.yaml", .line = 7}}}}});
    auto r = filter::apply(rules, {}, cfg);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().describe() == "filter.yaml:7: package \"etcd\" channel \"stable\" has "
                                  "version range \">=3.0.0\" that results in an empty channel");
  }

  TEST_CASE("a default channel filtered away must be replaced in the configuration") {
    auto cfg = catalog_fixture();
    auto r = filter::apply(config({{.name = "etcd", .channels = {{.name = "beta"}}}}), {}, cfg);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message() ==
          "invalid default channel configuration for package \"etcd\": the default channel "
          "\"stable\" was filtered out, a new default channel must be configured for this "
          "package");

    cfg = catalog_fixture();
    REQUIRE(
        filter::apply(
            config({{.name = "etcd", .default_channel = "beta", .channels = {{.name = "beta"}}}}),
            {}, cfg)
            .has_value());
    CHECK(cfg.packages[0].default_channel == "beta");
    CHECK(bundle_names(cfg) == Names{"etcd.v2.1.0"});
    // The channel deprecation stays with its channel; the bundle one went with 1.0.0.
    REQUIRE(cfg.deprecations.size() == 1);
    CHECK(cfg.deprecations[0].entries->size() == 2);
  }

  TEST_CASE("a default channel override must survive the filter") {
    auto cfg = catalog_fixture();
    auto r = filter::apply(
        config({{.name = "etcd", .default_channel = "beta", .channels = {{.name = "stable"}}}}), {},
        cfg);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message() ==
          "invalid default channel configuration for package \"etcd\": specified default channel "
          "override \"beta\" does not exist in the filtered output");
  }

  TEST_CASE("keeping heads only leaves one bundle per channel") {
    auto cfg = catalog_fixture();
    REQUIRE(filter::apply(config({{.name = "etcd"}, {.name = "cockroach"}}),
                          {.keep_heads_only = true}, cfg)
                .has_value());
    CHECK(entry_names(channel_named(cfg, "stable")) == Names{"etcd.v2.1.0"});
    CHECK(bundle_names(cfg) == Names{"cockroach.v1.0.0", "etcd.v2.1.0"});
    // Only the bundle entry named a bundle now gone.
    REQUIRE(cfg.deprecations.size() == 1);
    CHECK(cfg.deprecations[0].entries->size() == 2);
  }

  TEST_CASE("heads only within a range keeps the head the range needs") {
    // 2.0.0 is out of range but the only way to 1.1.1, which it skips.
    auto cfg = catalog_fixture();
    auto rules =
        config({{.name = "etcd", .channels = {{.name = "stable", .version_range = "<2.0.0"}}}});
    REQUIRE(filter::apply(rules, {.keep_heads_only = true}, cfg).has_value());
    CHECK(entry_names(channel_named(cfg, "stable")) == Names{"etcd.v2.0.0"});
  }

  TEST_CASE("a deprecation left with no entries goes") {
    auto cfg = catalog_fixture();
    cfg.deprecations[0].entries = {deprecate("olm.channel", "beta")};
    REQUIRE(filter::apply(config({{.name = "etcd", .channels = {{.name = "stable"}}}}), {}, cfg)
                .has_value());
    CHECK(cfg.deprecations.empty());
  }

  TEST_CASE("a package or channel the catalog lacks is an error") {
    auto cfg = catalog_fixture();
    auto r = filter::apply(config({{.name = "etdc"}}), {}, cfg);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message() == "package \"etdc\" is not in the catalog");
    r = filter::apply(config({{.name = "etcd", .channels = {{.name = "fast"}}}}), {}, cfg);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message() == "package \"etcd\" has no channel \"fast\"");
  }

  TEST_CASE("a channel with two heads cannot be cut by a range") {
    auto cfg = catalog_fixture();
    cfg.channels[1].entries->push_back(entry("etcd.v3.0.0"));
    auto rules =
        config({{.name = "etcd", .channels = {{.name = "stable", .version_range = ">=1.0.0"}}}});
    auto r = filter::apply(rules, {}, cfg);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().describe() == "catalog/index.yaml:4:1: package \"etcd\" channel \"stable\": "
                                  "multiple channel heads found: [etcd.v2.1.0 etcd.v3.0.0]");
  }
}
