#include "graph/mermaid.hpp"
#include "support/catalog_builders.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

using namespace opm;
using namespace opm::test;
using catalog::DeclarativeConfig;
using graph::MermaidOptions;

namespace {

constexpr std::string_view k_header =
    "graph LR\n"
    "  classDef deprecated fill:#E8960F\n"
    "  classDef skipped stroke:#FF0000,stroke-width:4px\n"
    "  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n";

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

const std::string k_etcd_graph = std::string(k_header) +
                                 "  %% package \"etcd\"\n"
                                 "  subgraph \"etcd\"\n"
                                 "    %% channel \"alpha\"\n"
                                 "    subgraph etcd-alpha[\"alpha\"]\n"
                                 "      etcd-alpha-etcd.v0.9.0[\"etcd.v0.9.0\"]\n"
                                 "    end\n"
                                 "    %% channel \"stable\"\n"
                                 "    subgraph etcd-stable[\"stable\"]\n"
                                 "      etcd-stable-etcd.v0.9.2[\"etcd.v0.9.2\"]\n"
                                 "      etcd-stable-etcd.v0.9.0[\"etcd.v0.9.0\"]-- "
                                 "\"skipRange(>=0.9.0 <0.9.2)\" --> "
                                 "etcd-stable-etcd.v0.9.2[\"etcd.v0.9.2\"]\n"
                                 "      etcd-stable-etcd.v0.9.0[\"etcd.v0.9.0\"]-- replace --> "
                                 "etcd-stable-etcd.v0.9.2[\"etcd.v0.9.2\"]\n"
                                 "      etcd-stable-etcd.v0.9.0[\"etcd.v0.9.0\"]\n"
                                 "    end\n"
                                 "  end\n";

// Package "p": channel "c" climbs a.v1.0.0 .. a.v1.3.0 with replaces, a skip and a skipRange;
// channel "d" holds a.v1.0.0 only. Package "q" has one bundle.
DeclarativeConfig ladder() {
  DeclarativeConfig cfg;
  cfg.channels.push_back(channel("q", "c", {entry("q.v1")}));
  cfg.channels.push_back(channel("p", "d", {entry("a.v1.0.0")}));
  cfg.channels.push_back(channel("p", "c",
                                 {entry("a.v1.0.0"), entry("a.v1.1.0", "a.v1.0.0"),
                                  entry("a.v1.2.0", "a.v1.1.0", {"a.v1.0.0"}),
                                  entry("a.v1.3.0", "a.v1.2.0", {}, ">=1.0.0 <1.3.0")}));
  cfg.bundles.push_back(bundle("q", "q.v1", 1, "1.0.0"));
  for (const char* v : {"1.0.0", "1.1.0", "1.2.0", "1.3.0"}) {
    cfg.bundles.push_back(bundle("p", std::string("a.v") + v, 1, v));
  }
  return cfg;
}

// Channel "a" skips x.v1 twice; channel "c" skips x.v2 and then reaches it by skipRange and
// replaces. x.v2 is deprecated.
DeclarativeConfig skips() {
  DeclarativeConfig cfg;
  cfg.channels.push_back(channel("p", "c",
                                 {entry("x.v3", "x.v2", {"x.v2"}),
                                  entry("x.v2", "x.v1", {}, ">=1.0.0 <2.0.0"), entry("x.v1")}));
  cfg.channels.push_back(
      channel("p", "a", {entry("x.v2", "", {"x.v1"}), entry("x.v3", "", {"x.v1"}), entry("x.v1")}));
  cfg.bundles.push_back(bundle("p", "x.v1", 1, "1.0.0"));
  cfg.bundles.push_back(bundle("p", "x.v2", 1, "2.0.0"));
  cfg.bundles.push_back(bundle("p", "x.v3", 1, "3.0.0"));
  cfg.deprecations.push_back(deprecation("p", {deprecate("olm.bundle", "x.v2")}));
  return cfg;
}

const std::string k_skips_body = "  %% package \"p\"\n"
                                 "  subgraph \"p\"\n"
                                 "    %% channel \"a\"\n"
                                 "    subgraph p-a[\"a\"]\n"
                                 "      p-a-x.v3[\"x.v3\"]\n"
                                 "      p-a-x.v1[\"x.v1\"]-- skip --> p-a-x.v3[\"x.v3\"]\n"
                                 "      p-a-x.v2[\"x.v2\"]\n"
                                 "      p-a-x.v1[\"x.v1\"]-- skip --> p-a-x.v2[\"x.v2\"]\n"
                                 "      p-a-x.v1[\"x.v1\"]\n"
                                 "    end\n"
                                 "    %% channel \"c\"\n"
                                 "    subgraph p-c[\"c\"]\n"
                                 "      p-c-x.v3[\"x.v3\"]\n"
                                 "      p-c-x.v2[\"x.v2\"]-- skip --> p-c-x.v3[\"x.v3\"]\n"
                                 "      p-c-x.v2[\"x.v2\"]-- replace --> p-c-x.v3[\"x.v3\"]\n"
                                 "      p-c-x.v2[\"x.v2\"]\n"
                                 "      p-c-x.v1[\"x.v1\"]-- \"skipRange(>=1.0.0 <2.0.0)\" --> "
                                 "p-c-x.v2[\"x.v2\"]\n"
                                 "      p-c-x.v1[\"x.v1\"]-- replace --> p-c-x.v2[\"x.v2\"]\n"
                                 "      p-c-x.v1[\"x.v1\"]\n"
                                 "    end\n"
                                 "  end\n";

struct Output {
  std::string out;
  std::string warnings;
};

Output draw(const DeclarativeConfig& cfg, const MermaidOptions& options = {}) {
  std::ostringstream out;
  std::ostringstream warnings;
  auto written = graph::write_mermaid(cfg, options, out, warnings);
  REQUIRE_MESSAGE(written.has_value(), (written ? "" : written.error().message()));
  return {out.str(), warnings.str()};
}

std::string graph_error(const DeclarativeConfig& cfg, const MermaidOptions& options = {}) {
  std::ostringstream out;
  std::ostringstream warnings;
  auto written = graph::write_mermaid(cfg, options, out, warnings);
  REQUIRE_FALSE(written.has_value());
  CHECK(out.str().empty());
  return written.error().message();
}

} // namespace

TEST_SUITE("mermaid graph") {
  TEST_CASE("draws the worked example with entries by decreasing version") {
    auto result = draw(etcd());
    CHECK(result.out == k_etcd_graph);
    CHECK(result.warnings.empty());
  }

  TEST_CASE("orders packages by name and keeps only the named package") {
    auto cfg = etcd();
    cfg.channels.push_back(channel("ant", "zeta", {entry("ant.v1")}));
    cfg.bundles.push_back(bundle("ant", "ant.v1", 1, "1.0.0"));
    std::string ant = "  %% package \"ant\"\n"
                      "  subgraph \"ant\"\n"
                      "    %% channel \"zeta\"\n"
                      "    subgraph ant-zeta[\"zeta\"]\n"
                      "      ant-zeta-ant.v1[\"ant.v1\"]\n"
                      "    end\n"
                      "  end\n";
    CHECK(draw(cfg).out == std::string(k_header) + ant + k_etcd_graph.substr(k_header.size()));
    CHECK(draw(cfg, {.package_name = "ant"}).out == std::string(k_header) + ant);
    CHECK(draw(cfg, {.package_name = "etcd"}).out == k_etcd_graph);
    CHECK(draw(cfg, {.package_name = "nope"}).out == k_header);
  }

  TEST_CASE("minimum edge keeps edges at or above its version in its package only") {
    auto result = draw(ladder(), {.minimum_edge = "a.v1.1.0"});
    CHECK(result.out ==
          std::string(k_header) +
              "  %% package \"p\"\n"
              "  subgraph \"p\"\n"
              "    %% channel \"c\"\n"
              "    subgraph p-c[\"c\"]\n"
              "      p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.1.0[\"a.v1.1.0\"]-- \"skipRange(>=1.0.0 <1.3.0)\" --> "
              "p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.2.0[\"a.v1.2.0\"]-- \"skipRange(>=1.0.0 <1.3.0)\" --> "
              "p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.2.0[\"a.v1.2.0\"]-- replace --> p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.2.0[\"a.v1.2.0\"]\n"
              "      p-c-a.v1.1.0[\"a.v1.1.0\"]-- replace --> p-c-a.v1.2.0[\"a.v1.2.0\"]\n"
              "      p-c-a.v1.1.0[\"a.v1.1.0\"]\n"
              "    end\n"
              "  end\n");
  }

  TEST_CASE("without a minimum edge every entry and edge is drawn") {
    auto result = draw(ladder());
    CHECK(result.out ==
          std::string(k_header) +
              "  %% package \"p\"\n"
              "  subgraph \"p\"\n"
              "    %% channel \"c\"\n"
              "    subgraph p-c[\"c\"]\n"
              "      p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.0.0[\"a.v1.0.0\"]-- \"skipRange(>=1.0.0 <1.3.0)\" --> "
              "p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.1.0[\"a.v1.1.0\"]-- \"skipRange(>=1.0.0 <1.3.0)\" --> "
              "p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.2.0[\"a.v1.2.0\"]-- \"skipRange(>=1.0.0 <1.3.0)\" --> "
              "p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.2.0[\"a.v1.2.0\"]-- replace --> p-c-a.v1.3.0[\"a.v1.3.0\"]\n"
              "      p-c-a.v1.2.0[\"a.v1.2.0\"]\n"
              "      p-c-a.v1.0.0[\"a.v1.0.0\"]-- skip --> p-c-a.v1.2.0[\"a.v1.2.0\"]\n"
              "      p-c-a.v1.1.0[\"a.v1.1.0\"]-- replace --> p-c-a.v1.2.0[\"a.v1.2.0\"]\n"
              "      p-c-a.v1.1.0[\"a.v1.1.0\"]\n"
              "      p-c-a.v1.0.0[\"a.v1.0.0\"]-- replace --> p-c-a.v1.1.0[\"a.v1.1.0\"]\n"
              "      p-c-a.v1.0.0[\"a.v1.0.0\"]\n"
              "    end\n"
              "    %% channel \"d\"\n"
              "    subgraph p-d[\"d\"]\n"
              "      p-d-a.v1.0.0[\"a.v1.0.0\"]\n"
              "    end\n"
              "  end\n"
              "  %% package \"q\"\n"
              "  subgraph \"q\"\n"
              "    %% channel \"c\"\n"
              "    subgraph q-c[\"c\"]\n"
              "      q-c-q.v1[\"q.v1\"]\n"
              "    end\n"
              "  end\n");
  }

  TEST_CASE("an unknown minimum edge is fatal") {
    CHECK(graph_error(ladder(), {.minimum_edge = "a.v9"}) == "unknown minimum edge name: \"a.v9\"");
  }

  TEST_CASE("a bundle needs exactly one olm.package property with a semver version") {
    auto cfg = etcd();
    cfg.bundles[1].properties[0].value["version"] = "0.9";
    CHECK(graph_error(cfg) ==
          "bundle \"etcd.v0.9.0\" has invalid version \"0.9\": No Major.Minor.Patch elements "
          "found");
    cfg = etcd();
    cfg.bundles[0].properties.clear();
    CHECK(graph_error(cfg) ==
          "bundle \"etcd.v0.9.2\" has multiple \"olm.package\" properties, expected exactly 1");
    cfg = etcd();
    cfg.bundles[0].properties.push_back(package_property("etcd", "0.9.3"));
    CHECK(graph_error(cfg) ==
          "bundle \"etcd.v0.9.2\" has multiple \"olm.package\" properties, expected exactly 1");
    cfg = etcd();
    cfg.bundles[0].properties[0].value = Json::array();
    CHECK(graph_error(cfg) ==
          "parse properties for bundle \"etcd.v0.9.2\": parse property[0] of type "
          "\"olm.package\": json: cannot unmarshal array into Go value of type property.Package");
  }

  TEST_CASE("an invalid skipRange is reported and skipped") {
    auto cfg = etcd();
    (*cfg.channels[0].entries)[0].skip_range = "bogus";
    auto result = draw(cfg);
    CHECK(result.warnings == "warning: ignoring invalid SkipRange for package/edge "
                             "\"etcd\"/\"etcd.v0.9.2\": Could not get version from string: "
                             "\"bogus\"\n");
    CHECK(result.out.find("skipRange") == std::string::npos);
    CHECK(result.out.find("-- replace -->") != std::string::npos);
  }

  TEST_CASE("deprecated packages, channels and bundles are styled") {
    auto cfg = etcd();
    cfg.deprecations.push_back(
        deprecation("etcd", {deprecate("olm.package", ""), deprecate("olm.channel", "stable"),
                             deprecate("olm.bundle", "etcd.v0.9.0")}));
    CHECK(draw(cfg).out == k_etcd_graph + "style etcd fill:#989695\n"
                                          "style etcd-stable fill:#DCD0FF\n"
                                          "class etcd-alpha-etcd.v0.9.0,etcd-stable-etcd.v0.9.0 "
                                          "deprecated\n");
  }

  TEST_CASE("a deprecated channel name colours that channel in every package") {
    auto cfg = etcd();
    cfg.channels.push_back(channel("other", "stable", {entry("other.v1")}));
    cfg.bundles.push_back(bundle("other", "other.v1", 1, "1.0.0"));
    cfg.deprecations.push_back(deprecation("etcd", {deprecate("olm.channel", "stable")}));
    auto out = draw(cfg).out;
    CHECK(
        out.ends_with("  end\nstyle etcd-stable fill:#DCD0FF\nstyle other-stable fill:#DCD0FF\n"));
  }

  TEST_CASE("without v0 semantics only deprecations are decorated") {
    CHECK(draw(skips()).out ==
          std::string(k_header) + k_skips_body + "class p-a-x.v2,p-c-x.v2 deprecated\n");
  }

  TEST_CASE("v0 semantics mark repeated skips, skipped nodes and their later edges") {
    CHECK(draw(skips(), {.draw_v0_semantics = true}).out ==
          std::string(k_header) + k_skips_body +
              "class p-a-x.v2 deprecated\n"
              "class p-c-x.v2 deprecatedskipped\n"
              "class p-a-x.v1 skipped\n"
              "linkStyle 1,4,5 stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;\n");
  }

  TEST_CASE("labels are Go-quoted") {
    DeclarativeConfig cfg;
    cfg.channels.push_back(channel("p\"q", "c h", {entry("b\"1")}));
    cfg.bundles.push_back(bundle("p\"q", "b\"1", 1, "1.0.0"));
    CHECK(draw(cfg).out == std::string(k_header) + "  %% package \"p\\\"q\"\n"
                                                   "  subgraph \"p\\\"q\"\n"
                                                   "    %% channel \"c h\"\n"
                                                   "    subgraph p\"q-c h[\"c h\"]\n"
                                                   "      p\"q-c h-b\"1[\"b\\\"1\"]\n"
                                                   "    end\n"
                                                   "  end\n");
  }
}
