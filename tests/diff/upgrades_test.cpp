#include "diff/upgrades.hpp"
#include "support/catalog_text.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;

namespace {

constexpr std::string_view k_old = R"(---
schema: olm.package
name: foo
defaultChannel: stable
---
schema: olm.channel
package: foo
name: stable
entries:
  - name: foo.v1.0.0
  - name: foo.v1.1.0
    replaces: foo.v1.0.0
---
schema: olm.bundle
package: foo
name: foo.v1.0.0
image: example/foo:1.0.0
properties:
  - {type: olm.package, value: {packageName: foo, version: 1.0.0}}
---
schema: olm.bundle
package: foo
name: foo.v1.1.0
image: example/foo:1.1.0
properties:
  - {type: olm.package, value: {packageName: foo, version: 1.1.0}}
)";

std::string bundle(const std::string& version) {
  return "---\nschema: olm.bundle\npackage: foo\nname: foo.v" + version +
         "\nimage: example/foo:" + version +
         "\nproperties:\n  - {type: olm.package, value: {packageName: foo, version: " + version +
         "}}\n";
}

// The start of a channel of foo; its entries follow.
std::string channel(const std::string& name) {
  return "---\nschema: olm.channel\npackage: foo\nname: " + name + "\nentries:\n";
}

std::string package(const std::string& default_channel) {
  return "---\nschema: olm.package\nname: foo\ndefaultChannel: " + default_channel + "\n";
}

// NEW is `text`; each violation as "rule: message @line".
std::vector<std::string> violations(const std::string& text,
                                    const std::set<diff::Rule>& allowed = {}) {
  auto old_cfg = test::catalog_from_yaml(k_old, "old.yaml");
  auto new_cfg = test::catalog_from_yaml(text);
  auto old_model = catalog::model::to_model(old_cfg);
  auto new_model = catalog::model::to_model(new_cfg);
  REQUIRE(old_model.has_value());
  REQUIRE(new_model.has_value());
  std::vector<std::string> out;
  for (const auto& v : diff::check_upgrades(*old_model, *new_model, allowed)) {
    out.push_back(std::string(diff::rule_name(v.rule)) + ": " + v.message + " @" +
                  v.where.describe());
  }
  return out;
}

} // namespace

TEST_SUITE("diff upgrades") {
  TEST_CASE("a new head that replaces the old one passes every rule") {
    auto text = package("stable") + channel("stable") + R"(  - {name: foo.v1.0.0}
  - {name: foo.v1.1.0, replaces: foo.v1.0.0}
  - {name: foo.v1.2.0, replaces: foo.v1.1.0}
)" + bundle("1.0.0") +
                bundle("1.1.0") + bundle("1.2.0");
    CHECK(violations(text).empty());
  }

  TEST_CASE("a removed head no bundle upgrades from strands its users") {
    auto text = package("stable") + channel("stable") + R"(  - {name: foo.v1.0.0}
  - {name: foo.v1.2.0, replaces: foo.v1.0.0}
)" + bundle("1.0.0") +
                bundle("1.2.0");
    CHECK(violations(text, {diff::Rule::default_channel}) ==
          std::vector<std::string>{
              "upgrade-path: package \"foo\": channel \"stable\": previous head \"foo.v1.1.0\" has "
              "no upgrade path to the channel head \"foo.v1.2.0\" @new.yaml:6"});
  }

  TEST_CASE("a skipRange that covers the removed head's version is an upgrade path") {
    auto text = package("stable") + channel("stable") + R"(  - {name: foo.v1.0.0}
  - {name: foo.v1.2.0, replaces: foo.v1.0.0, skipRange: ">=1.1.0 <1.2.0"}
)" + bundle("1.0.0") +
                bundle("1.2.0");
    CHECK(violations(text).empty());
  }

  TEST_CASE("a channel of NEW with two heads cannot be checked and says why") {
    auto text = package("stable") + channel("stable") + R"(  - {name: foo.v1.0.0}
  - {name: foo.v1.1.0, replaces: foo.v1.0.0}
  - {name: foo.v1.2.0}
)" + bundle("1.0.0") +
                bundle("1.1.0") + bundle("1.2.0");
    CHECK(violations(text) ==
          std::vector<std::string>{
              "upgrade-path: package \"foo\": channel \"stable\": upgrades cannot be checked: "
              "multiple channel heads found in graph: foo.v1.1.0, foo.v1.2.0 @new.yaml:6"});
  }

  TEST_CASE("a bundle OLD already stranded is not the change's doing") {
    auto old_text = package("stable") + channel("stable") +
                    R"(  - {name: foo.v1.0.0, replaces: foo.v1.1.0}
  - {name: foo.v1.1.0, replaces: foo.v1.0.0}
  - {name: foo.v1.2.0}
)" + bundle("1.0.0") +
                    bundle("1.1.0") + bundle("1.2.0");
    // foo.v1.0.0 and foo.v1.1.0 only upgrade to each other, in OLD as in NEW.
    auto new_text = old_text;
    auto old_cfg = test::catalog_from_yaml(old_text, "old.yaml");
    auto new_cfg = test::catalog_from_yaml(new_text);
    auto old_model = catalog::model::to_model(old_cfg);
    auto new_model = catalog::model::to_model(new_cfg);
    REQUIRE(old_model.has_value());
    REQUIRE(new_model.has_value());
    CHECK(diff::check_upgrades(*old_model, *new_model).empty());
  }

  TEST_CASE("a head that moves to a lower version is reported at the new head") {
    auto text = package("stable") + channel("stable") + R"(  - {name: foo.v1.0.0}
)" + bundle("1.0.0");
    CHECK(violations(text, {diff::Rule::upgrade_path, diff::Rule::default_channel}) ==
          std::vector<std::string>{
              "head-downgrade: package \"foo\": channel \"stable\": head moves from "
              "\"foo.v1.1.0\" (1.1.0) to \"foo.v1.0.0\" (1.0.0), a lower version @new.yaml:12"});
  }

  TEST_CASE("a default channel that cannot reach the previous default head fails") {
    auto text = package("v2") + channel("stable") + R"(  - {name: foo.v1.0.0}
  - {name: foo.v1.1.0, replaces: foo.v1.0.0}
---
schema: olm.channel
package: foo
name: v2
entries:
  - {name: foo.v2.0.0}
)" + bundle("1.0.0") +
                bundle("1.1.0") + bundle("2.0.0");
    CHECK(violations(text) ==
          std::vector<std::string>{
              "default-channel: package \"foo\": default channel \"v2\" neither contains "
              "\"foo.v1.1.0\", the head of the previous default channel \"stable\", nor upgrades "
              "it @new.yaml:1"});
  }

  TEST_CASE("a default channel whose head skips the previous default head passes") {
    auto text = package("v2") + channel("stable") + R"(  - {name: foo.v1.0.0}
  - {name: foo.v1.1.0, replaces: foo.v1.0.0}
---
schema: olm.channel
package: foo
name: v2
entries:
  - {name: foo.v2.0.0, skips: [foo.v1.1.0]}
)" + bundle("1.0.0") +
                bundle("1.1.0") + bundle("2.0.0");
    CHECK(violations(text).empty());
  }

  TEST_CASE("removing the default channel is reported, without deprecation as well") {
    auto text = package("beta") + channel("beta") + R"(  - {name: foo.v1.1.0}
)" + bundle("1.1.0");
    CHECK(violations(text) ==
          std::vector<std::string>{
              "default-channel: package \"foo\": default channel \"stable\" is removed "
              "@new.yaml:1",
              "unannounced-removal: package \"foo\": channel \"stable\" is removed without an "
              "olm.deprecations entry for it @new.yaml:1"});
  }

  TEST_CASE("a package removed after its deprecation passes; without it, it fails") {
    auto other = std::string(R"(---
schema: olm.package
name: bar
defaultChannel: alpha
---
schema: olm.channel
package: bar
name: alpha
entries: [{name: bar.v1}]
---
schema: olm.bundle
package: bar
name: bar.v1
image: example/bar:1
properties: [{type: olm.package, value: {packageName: bar, version: 1.0.0}}]
)");
    auto old_cfg = test::catalog_from_yaml(std::string(k_old) + std::string(R"(---
schema: olm.deprecations
package: foo
entries:
  - reference: {schema: olm.package}
    message: foo is end of life
)"),
                                           "old.yaml");
    auto new_cfg = test::catalog_from_yaml(other);
    auto old_model = catalog::model::to_model(old_cfg);
    auto new_model = catalog::model::to_model(new_cfg);
    REQUIRE(old_model.has_value());
    REQUIRE(new_model.has_value());
    CHECK(diff::check_upgrades(*old_model, *new_model).empty());

    auto bare_cfg = test::catalog_from_yaml(k_old, "old.yaml");
    auto bare_model = catalog::model::to_model(bare_cfg);
    REQUIRE(bare_model.has_value());
    auto found = diff::check_upgrades(*bare_model, *new_model);
    REQUIRE(found.size() == 1);
    CHECK(found[0].rule == diff::Rule::unannounced_removal);
    CHECK(found[0].message ==
          "package \"foo\" is removed without an olm.deprecations entry for it");
    CHECK(found[0].where.empty());
  }

  TEST_CASE("rules are named as --allow takes them") {
    CHECK(diff::parse_rule("head-downgrade").value() == diff::Rule::head_downgrade);
    auto unknown = diff::parse_rule("downgrade");
    REQUIRE_FALSE(unknown.has_value());
    CHECK(unknown.error().message() ==
          "unknown rule \"downgrade\", expected one of: upgrade-path, head-downgrade, "
          "default-channel, unannounced-removal");
  }
}
