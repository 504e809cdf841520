#include "diff/diff.hpp"
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
  - {name: foo.v1.0.0}
  - {name: foo.v1.1.0, replaces: foo.v1.0.0}
---
schema: olm.bundle
package: foo
name: foo.v1.0.0
image: example/foo:1.0.0
properties:
  - {type: olm.package, value: {packageName: foo, version: 1.0.0}}
  - {type: olm.maxOpenShiftVersion, value: "4.16"}
---
schema: olm.bundle
package: foo
name: foo.v1.1.0
image: example/foo:1.1.0
properties:
  - {type: olm.package, value: {packageName: foo, version: 1.1.0}}
)";

diff::CatalogDiff compare_with(std::string_view new_text) {
  auto old_cfg = test::catalog_from_yaml(k_old, "old.yaml");
  auto new_cfg = test::catalog_from_yaml(new_text);
  auto old_model = catalog::model::to_model(old_cfg);
  auto new_model = catalog::model::to_model(new_cfg);
  REQUIRE(old_model.has_value());
  REQUIRE(new_model.has_value());
  return diff::compare(*old_model, *new_model);
}

} // namespace

TEST_SUITE("diff") {
  TEST_CASE("the same catalog has no changes") { CHECK(compare_with(k_old).empty()); }

  TEST_CASE("a bundle added at the head: the entry, its edge and the head move") {
    auto text = std::string(k_old);
    text.replace(text.find("  - {name: foo.v1.1.0, replaces: foo.v1.0.0}\n"),
                 std::string_view("  - {name: foo.v1.1.0, replaces: foo.v1.0.0}\n").size(),
                 "  - {name: foo.v1.1.0, replaces: foo.v1.0.0}\n"
                 "  - {name: foo.v1.2.0, replaces: foo.v1.1.0, skipRange: '<1.1.0'}\n");
    text += "---\nschema: olm.bundle\npackage: foo\nname: foo.v1.2.0\nimage: example/foo:1.2.0\n"
            "properties: [{type: olm.package, value: {packageName: foo, version: 1.2.0}}]\n";
    auto d = compare_with(text);
    REQUIRE(d.packages.size() == 1);
    const auto& p = d.packages[0];
    CHECK(p.status == diff::PackageDiff::Status::changed);
    CHECK(p.bundles_added == std::vector<std::string>{"foo.v1.2.0"});
    REQUIRE(p.channels.size() == 1);
    const auto& c = p.channels[0];
    CHECK(c.old_head == "foo.v1.1.0");
    CHECK(c.new_head == "foo.v1.2.0");
    CHECK(c.entries_added == std::vector<std::string>{"foo.v1.2.0"});
    REQUIRE(c.edges_added.size() == 2);
    CHECK(c.edges_added[0] == diff::Edge{"foo.v1.2.0", diff::Edge::Kind::replaces, "foo.v1.1.0"});
    CHECK(c.edges_added[1] == diff::Edge{"foo.v1.2.0", diff::Edge::Kind::skip_range, "<1.1.0"});
    CHECK(c.edges_removed.empty());
    CHECK(c.where.describe() == "new.yaml:6");
  }

  TEST_CASE("a bundle's image and the types of the properties that changed are named") {
    auto text = std::string(k_old);
    text.replace(text.find("example/foo:1.0.0"), std::string_view("example/foo:1.0.0").size(),
                 "example/foo@sha256:" + std::string(64, 'a'));
    text.replace(text.find("\"4.16\""), 6, "\"4.17\"");
    auto d = compare_with(text);
    REQUIRE(d.packages.size() == 1);
    REQUIRE(d.packages[0].bundles_changed.size() == 1);
    const auto& b = d.packages[0].bundles_changed[0];
    CHECK(b.name == "foo.v1.0.0");
    CHECK(b.old_image == "example/foo:1.0.0");
    CHECK(b.new_image == "example/foo@sha256:" + std::string(64, 'a'));
    CHECK(b.property_types == std::vector<std::string>{"olm.maxOpenShiftVersion"});
    CHECK_FALSE(b.related_images_changed);
  }

  TEST_CASE("the order of a bundle's properties is no change") {
    auto text = std::string(k_old);
    text.replace(text.find("  - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n"
                           "  - {type: olm.maxOpenShiftVersion, value: \"4.16\"}\n"),
                 std::string_view("  - {type: olm.package, value: {packageName: foo, version: "
                                  "1.0.0}}\n  - {type: olm.maxOpenShiftVersion, value: \"4.16\"}\n")
                     .size(),
                 "  - {type: olm.maxOpenShiftVersion, value: \"4.16\"}\n"
                 "  - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n");
    CHECK(compare_with(text).empty());
  }

  TEST_CASE("a deprecation added and a default channel change are listed") {
    auto text = std::string(k_old) + R"(---
schema: olm.channel
package: foo
name: fast
entries: [{name: foo.v1.1.0}]
---
schema: olm.deprecations
package: foo
entries:
  - reference: {schema: olm.channel, name: stable}
    message: use fast
)";
    text.replace(text.find("defaultChannel: stable"), 22, "defaultChannel: fast");
    auto d = compare_with(text);
    REQUIRE(d.packages.size() == 1);
    const auto& p = d.packages[0];
    CHECK(p.old_default_channel == "stable");
    CHECK(p.new_default_channel == "fast");
    CHECK(p.channels_added == std::vector<std::string>{"fast"});
    REQUIRE(p.deprecations_added.size() == 1);
    CHECK(p.deprecations_added[0].subject == "channel stable");
    CHECK(p.deprecations_added[0].message == "use fast");
    CHECK(p.deprecations_removed.empty());
  }

  TEST_CASE("a removed package lists its channels and bundles as removed") {
    auto d = compare_with(R"(---
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
    REQUIRE(d.packages.size() == 2);
    CHECK(d.packages[0].name == "bar");
    CHECK(d.packages[0].status == diff::PackageDiff::Status::added);
    CHECK(d.packages[1].name == "foo");
    CHECK(d.packages[1].status == diff::PackageDiff::Status::removed);
    CHECK(d.packages[1].channels_removed == std::vector<std::string>{"stable"});
    CHECK(d.packages[1].bundles_removed == std::vector<std::string>{"foo.v1.0.0", "foo.v1.1.0"});
    CHECK(d.packages[1].channels.empty());
  }
}
