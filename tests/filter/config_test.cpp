#include "filter/config.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;

TEST_SUITE("filter configuration") {
  TEST_CASE("reads packages, default channels, channels and version ranges") {
    auto cfg = filter::parse_config("apiVersion: olm.operatorframework.io/v1alpha1\n"
                                    "kind: FilterConfiguration\n"
                                    "packages:\n"
                                    "- name: foo\n"
                                    "  defaultChannel: beta\n"
                                    "  channels:\n"
                                    "  - name: beta\n"
                                    "    versionRange: \">=1.0.0\"\n"
                                    "- name: bar\n",
                                    "f.yaml");
    REQUIRE(cfg.has_value());
    REQUIRE(cfg->packages.size() == 2);
    CHECK(cfg->packages[0].name == "foo");
    CHECK(cfg->packages[0].default_channel == "beta");
    REQUIRE(cfg->packages[0].channels.size() == 1);
    CHECK(cfg->packages[0].channels[0].name == "beta");
    CHECK(cfg->packages[0].channels[0].version_range == ">=1.0.0");
    CHECK(cfg->packages[1].channels.empty());
    CHECK(cfg->packages[0].where.describe() == "f.yaml:4");
    CHECK(cfg->packages[0].channels[0].where.describe() == "f.yaml:7");
    CHECK(cfg->packages[1].where.describe() == "f.yaml:9");
  }

  TEST_CASE("a rule written in flow style is located in the file alone") {
    auto cfg = filter::parse_config("{\"apiVersion\": \"olm.operatorframework.io/v1alpha1\", "
                                    "\"kind\": \"FilterConfiguration\", "
                                    "\"packages\": [{\"name\": \"foo\"}]}",
                                    "f.json");
    REQUIRE(cfg.has_value());
    CHECK(cfg->packages[0].where.describe() == "f.json");
  }

  TEST_CASE("every problem of the configuration is named on one line with the file") {
    auto cfg = filter::parse_config("apiVersion: v1\n"
                                    "kind: Filter\n"
                                    "packages:\n"
                                    "- channels:\n"
                                    "  - versionRange: \">=1.0.0\"\n",
                                    "f.yaml");
    REQUIRE_FALSE(cfg.has_value());
    CHECK(cfg.error().describe() ==
          "f.yaml: unexpected API version \"v1\"; unexpected kind \"Filter\"; package \"\" at "
          "index [0] is invalid: name must be specified; package \"\" at index [0] is invalid: "
          "channel \"\" at index [0] is invalid: name must be specified");
  }

  TEST_CASE("an empty configuration names no package") {
    auto cfg = filter::parse_config("", "f.yaml");
    REQUIRE_FALSE(cfg.has_value());
    CHECK(cfg.error().message() == "unexpected API version \"\"; unexpected kind \"\"; at least "
                                   "one package must be specified");
  }

  TEST_CASE("a YAML error names the file and its line") {
    auto cfg = filter::parse_config("kind: FilterConfiguration\npackages: [\n", "f.yaml");
    REQUIRE_FALSE(cfg.has_value());
    CHECK(cfg.error().where()->file == "f.yaml");
    CHECK(cfg.error().where()->line == 2);
    CHECK(cfg.error().message() == "yaml: line 2: did not find expected node content");
  }

  TEST_CASE("a value of the wrong type is Go's decoding error") {
    auto cfg = filter::parse_config("packages: foo\n", "f.yaml");
    REQUIRE_FALSE(cfg.has_value());
    CHECK(cfg.error().describe() == "f.yaml: json: cannot unmarshal string into Go struct field "
                                    "FilterConfiguration.packages of type []v1alpha1.Package");
  }
}
