#include "catalog/model.hpp"
#include "support/catalog_builders.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;
using namespace opm::test;
using catalog::DeclarativeConfig;

namespace {

struct Failure {
  std::string message;
  std::size_t line = 0;
};

Failure conversion_error(const DeclarativeConfig& cfg) {
  auto model = catalog::model::to_model(cfg);
  REQUIRE_FALSE(model.has_value());
  const auto& where = model.error().where();
  REQUIRE(where.has_value());
  CHECK(where->file == k_file);
  return Failure{model.error().message(), where->line};
}

// Package "a" (default "s") with channel "s" listing x1, and bundle x1.
DeclarativeConfig minimal() {
  DeclarativeConfig cfg;
  cfg.packages.push_back(package("a", "s", 1));
  cfg.channels.push_back(channel("a", "s", {entry("x1")}, 2));
  cfg.bundles.push_back(bundle("a", "x1", 3));
  return cfg;
}

} // namespace

TEST_SUITE("model conversion") {
  TEST_CASE("builds packages, channels and entries sharing their bundle object") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.packages.back().description = "about a";
    cfg.channels.push_back(
        channel("a", "s", {entry("x2", "x1", {"x0"}, "<2.0.0"), entry("x1")}, 2));
    cfg.channels.push_back(channel("a", "t", {entry("x1")}, 3));
    cfg.bundles.push_back(bundle("a", "x1", 4, "1.0.0"));
    cfg.bundles.push_back(bundle("a", "x2", 5, "2.0.0+b.1"));
    cfg.bundles.back().properties.front().value["release"] = "rc.1";
    cfg.bundles.back().related_images.push_back({"op", "quay.io/example/op:v2"});

    auto model = catalog::model::to_model(cfg);
    REQUIRE(model.has_value());
    const auto& pkg = model->packages.at("a");
    CHECK(pkg.description == "about a");
    CHECK(pkg.default_channel == "s");
    CHECK(pkg.where.line == 1);
    REQUIRE(pkg.channels.size() == 2);
    const auto& s = pkg.channels.at("s");
    CHECK(s.entry_order == std::vector<std::string>{"x2", "x1"});
    CHECK(s.where.line == 2);
    const auto& x2 = s.bundles.at("x2");
    CHECK(x2.replaces == "x1");
    CHECK(x2.skips == std::vector<std::string>{"x0"});
    CHECK(x2.skip_range == "<2.0.0");
    CHECK(x2.version == "2.0.0+b.1");
    CHECK(x2.release == "rc.1");
    CHECK(x2.version_string() == "2.0.0+b.1-rc.1");
    CHECK(x2.parsed_version.build == std::vector<std::string>{"b", "1"});
    CHECK(x2.related_images().size() == 1);
    CHECK(x2.where.line == 5);
    CHECK(x2.has_blob);
    // The graph edges belong to each channel's entry; the object is shared.
    const auto& x1_in_s = s.bundles.at("x1");
    const auto& x1_in_t = pkg.channels.at("t").bundles.at("x1");
    CHECK(x1_in_s.blob == &cfg.bundles[0]);
    CHECK(x1_in_t.blob == &cfg.bundles[0]);
    CHECK(x1_in_t.channel == "t");
    CHECK(x1_in_t.image == "quay.io/example/bundle:v1");
    CHECK(x1_in_t.properties().size() == 1);
    CHECK(x1_in_t.version_string() == "1.0.0");
  }

  TEST_CASE("P1 rejects a package without a name") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("", "s", 7));
    auto f = conversion_error(cfg);
    CHECK(f.message == "config contains package with no name");
    CHECK(f.line == 7);
  }

  TEST_CASE("P2 rejects a second package of the same name") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.packages.push_back(package("a", "s", 9));
    auto f = conversion_error(cfg);
    CHECK(f.message == "duplicate package \"a\"");
    CHECK(f.line == 9);
  }

  TEST_CASE("P3 requires package names to be DNS-1123 labels") {
    auto problem = [](std::string name) {
      DeclarativeConfig cfg;
      cfg.packages.push_back(package(std::move(name), "s", 4));
      auto f = conversion_error(cfg);
      CHECK(f.line == 4);
      return f.message;
    };
    CHECK(problem("Foo_Bar") ==
          "invalid package name \"Foo_Bar\": [a lowercase RFC 1123 label must consist of lower "
          "case alphanumeric characters or '-', and must start and end with an alphanumeric "
          "character (e.g. 'my-name',  or '123-abc', regex used for validation is "
          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')]");
    CHECK(problem("foo.bar") == "invalid package name \"foo.bar\": [must not contain dots]");
    CHECK(problem(std::string(64, 'a')) == "invalid package name \"" + std::string(64, 'a') +
                                               "\": [must be no more than 63 characters]");
    std::string long_dotted = std::string(40, 'a') + "." + std::string(40, 'b');
    CHECK(problem(long_dotted) == "invalid package name \"" + long_dotted +
                                      "\": [must be no more than 63 characters must not "
                                      "contain dots]");
    DeclarativeConfig ok;
    ok.packages.push_back(package(std::string(63, 'a'), "s"));
    ok.packages.push_back(package("0-a-9", "s"));
    CHECK(catalog::model::to_model(ok).has_value());
  }

  TEST_CASE("C1 rejects a channel of an unknown package") {
    auto cfg = minimal();
    cfg.channels.push_back(channel("zz", "s", {}, 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "unknown package \"zz\" for channel \"s\"");
    CHECK(f.line == 8);
  }

  TEST_CASE("C2 rejects a channel without a name") {
    auto cfg = minimal();
    cfg.channels.push_back(channel("a", "", {}, 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\" contains channel with no name");
    CHECK(f.line == 8);
  }

  TEST_CASE("C3 rejects a second channel of the same name in a package") {
    auto cfg = minimal();
    cfg.channels.push_back(channel("a", "s", {entry("x1")}, 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\" has duplicate channel \"s\"");
    CHECK(f.line == 8);
  }

  TEST_CASE("C4 rejects a repeated entry in a channel") {
    auto cfg = minimal();
    cfg.channels.push_back(channel("a", "t", {entry("x"), entry("x")}, 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "invalid package \"a\", channel \"t\": duplicate entry \"x\"");
    CHECK(f.line == 8);
  }

  TEST_CASE("B1 rejects a bundle without a package") {
    auto cfg = minimal();
    cfg.bundles.push_back(bundle("", "b", 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "package name must be set for bundle \"b\"");
    CHECK(f.line == 8);
  }

  TEST_CASE("B2 rejects a bundle of an unknown package") {
    auto cfg = minimal();
    cfg.bundles.push_back(bundle("q", "b", 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "unknown package \"q\" for bundle \"b\"");
    CHECK(f.line == 8);
  }

  TEST_CASE("B3 rejects a second bundle of the same name in a package") {
    auto cfg = minimal();
    cfg.bundles.push_back(bundle("a", "x1", 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\" has duplicate bundle \"x1\"");
    CHECK(f.line == 8);
  }

  TEST_CASE("B4 rejects property values that do not decode") {
    auto cfg = minimal();
    cfg.bundles[0].properties[0].value = Json::array();
    auto f = conversion_error(cfg);
    CHECK(f.message == "parse properties for bundle \"x1\": parse property[0] of type "
                       "\"olm.package\": json: cannot unmarshal array into Go value of type "
                       "property.Package");
    CHECK(f.line == 3);

    cfg = minimal();
    cfg.bundles[0].properties[0].value["version"] = 1.0;
    CHECK(conversion_error(cfg).message ==
          "parse properties for bundle \"x1\": parse property[0] of type \"olm.package\": json: "
          "cannot unmarshal number into Go struct field Package.version of type string");

    cfg = minimal();
    cfg.bundles[0].properties.push_back({"olm.gvk", Json("x")});
    CHECK(conversion_error(cfg).message ==
          "parse properties for bundle \"x1\": parse property[1] of type \"olm.gvk\": json: "
          "cannot unmarshal string into Go value of type property.GVK");
  }

  TEST_CASE("B5 requires exactly one olm.package property") {
    auto cfg = minimal();
    cfg.bundles[0].properties.clear();
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\" bundle \"x1\" must have exactly 1 \"olm.package\" "
                       "property, found 0");
    CHECK(f.line == 3);
    cfg = minimal();
    cfg.bundles[0].properties.push_back(package_property("a", "1.0.0"));
    CHECK(conversion_error(cfg).message ==
          "package \"a\" bundle \"x1\" must have exactly 1 \"olm.package\" property, found 2");
  }

  TEST_CASE("B6 requires the olm.package property to name the bundle's package") {
    auto cfg = minimal();
    cfg.bundles[0].properties[0] = package_property("z", "1.0.0");
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\" does not match \"olm.package\" property \"z\"");
    CHECK(f.line == 3);
  }

  TEST_CASE("B7 checks the bundle image reference when set") {
    auto cfg = minimal();
    cfg.bundles[0].image = "Quay.io/Foo:bar";
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\" bundle \"x1\" image: invalid image pull spec "
                       "\"Quay.io/Foo:bar\": invalid reference format: repository name must be "
                       "lowercase");
    CHECK(f.line == 3);
    cfg = minimal();
    cfg.bundles[0].image = "";
    CHECK(catalog::model::to_model(cfg).has_value());
  }

  TEST_CASE("B8 checks related image references when set") {
    auto cfg = minimal();
    cfg.bundles[0].related_images = {{"empty", ""}, {"bad", "quay.io/foo@sha256:abc"}};
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\" bundle \"x1\" relatedImages[1].image: invalid image pull "
                       "spec \"quay.io/foo@sha256:abc\": invalid reference format");
    CHECK(f.line == 3);
  }

  TEST_CASE("B9 requires a strict semver version") {
    auto cfg = minimal();
    cfg.bundles[0].properties[0] = package_property("a", "1.0");
    auto f = conversion_error(cfg);
    CHECK(f.message == "error parsing bundle \"x1\" version \"1.0\": No Major.Minor.Patch "
                       "elements found");
    CHECK(f.line == 3);
    cfg.bundles[0].properties[0] = package_property("a", "");
    CHECK(conversion_error(cfg).message ==
          "error parsing bundle \"x1\" version \"\": Version string empty");
  }

  TEST_CASE("B10 checks the release when set") {
    auto cfg = minimal();
    cfg.bundles[0].properties[0] = package_property("a", "1.0.0", "01.a_b");
    auto f = conversion_error(cfg);
    CHECK(f.message == "error parsing bundle \"x1\" release version \"01.a_b\": invalid release "
                       "\"01.a_b\": segment 0: Numeric PreRelease version must not contain "
                       "leading zeroes \"01\"\nsegment 1: Invalid character(s) found in "
                       "prerelease \"a_b\"");
    CHECK(f.line == 3);
  }

  TEST_CASE("B11 requires a bundle to be listed by a channel of its package") {
    auto cfg = minimal();
    cfg.bundles.push_back(bundle("a", "b", 8));
    auto f = conversion_error(cfg);
    CHECK(f.message == "package \"a\", bundle \"b\" not found in any channel entries");
    CHECK(f.line == 8);
  }

  TEST_CASE("checks bundles in load order and each bundle's problems in order") {
    auto cfg = minimal();
    cfg.bundles[0].properties.clear();
    cfg.bundles[0].image = "Bad:Image";
    cfg.bundles.push_back(bundle("q", "b", 8));
    CHECK(conversion_error(cfg).message ==
          "package \"a\" bundle \"x1\" must have exactly 1 \"olm.package\" property, found 0");
  }

  TEST_CASE("checks packages before channels and channels before bundles") {
    DeclarativeConfig cfg;
    cfg.bundles.push_back(bundle("q", "b", 3));
    cfg.channels.push_back(channel("zz", "s", {}, 2));
    cfg.packages.push_back(package("", "s", 1));
    CHECK(conversion_error(cfg).message == "config contains package with no name");
    cfg.packages[0].name = "a";
    CHECK(conversion_error(cfg).message == "unknown package \"zz\" for channel \"s\"");
    cfg.channels[0].package = "a";
    CHECK(conversion_error(cfg).message == "unknown package \"q\" for bundle \"b\"");
  }

  TEST_CASE("E1 reports entries without a bundle object in the last channel of a package") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.channels.push_back(channel("a", "s", {entry("x2"), entry("x1")}, 2));
    auto f = conversion_error(cfg);
    CHECK(f.message ==
          "no olm.bundle blobs found in package \"a\" for olm.channel entries [x1 x2]");
    CHECK(f.line == 2);
  }

  TEST_CASE("E1 does not report entries of earlier channels of the package") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.channels.push_back(channel("a", "s", {entry("x1"), entry("ghost")}, 2));
    cfg.channels.push_back(channel("a", "t", {entry("x1")}, 3));
    cfg.bundles.push_back(bundle("a", "x1", 4));
    auto model = catalog::model::to_model(cfg);
    REQUIRE(model.has_value());
    const auto& ghost = model->packages.at("a").channels.at("s").bundles.at("ghost");
    CHECK_FALSE(ghost.has_blob);
    CHECK(ghost.blob == nullptr);
    CHECK(ghost.where.line == 2);
    CHECK(ghost.version_string() == "0.0.0");
  }

  TEST_CASE("E1 reports the first failing package in load order") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("b", "s", 1));
    cfg.packages.push_back(package("a", "s", 2));
    cfg.channels.push_back(channel("a", "s", {entry("y")}, 3));
    cfg.channels.push_back(channel("b", "s", {entry("z")}, 4));
    auto f = conversion_error(cfg);
    CHECK(f.message == "no olm.bundle blobs found in package \"b\" for olm.channel entries [z]");
    CHECK(f.line == 4);
  }

  TEST_CASE("creates an empty default channel that no channel object defines") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "nope", 5));
    cfg.packages.push_back(package("b", "", 6));
    auto model = catalog::model::to_model(cfg);
    REQUIRE(model.has_value());
    const auto& a = model->packages.at("a");
    CHECK(a.default_channel == "nope");
    REQUIRE(a.channels.contains("nope"));
    CHECK(a.channels.at("nope").bundles.empty());
    CHECK(a.channels.at("nope").where.line == 5);
    const auto& b = model->packages.at("b");
    CHECK(b.default_channel.empty());
    CHECK(b.channels.empty());
  }

  TEST_CASE("attaches deprecation messages to the package, channels and every bundle copy") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.channels.push_back(channel("a", "s", {entry("x1")}, 2));
    cfg.channels.push_back(channel("a", "t", {entry("x1")}, 3));
    cfg.bundles.push_back(bundle("a", "x1", 4));
    cfg.deprecations.push_back(deprecation("a",
                                           {deprecate("olm.package", "", "pkg gone"),
                                            deprecate("olm.channel", "t", "t gone"),
                                            deprecate("olm.bundle", "x1", "x1 gone")},
                                           5));
    auto model = catalog::model::to_model(cfg);
    REQUIRE(model.has_value());
    const auto& pkg = model->packages.at("a");
    CHECK(pkg.deprecation.present);
    CHECK(pkg.deprecation.message == "pkg gone");
    CHECK_FALSE(pkg.channels.at("s").deprecation.present);
    CHECK(pkg.channels.at("t").deprecation.message == "t gone");
    CHECK(pkg.channels.at("s").bundles.at("x1").deprecation.message == "x1 gone");
    CHECK(pkg.channels.at("t").bundles.at("x1").deprecation.message == "x1 gone");
  }

  TEST_CASE("D1-D9 reject malformed deprecations, located at the deprecation object") {
    auto failure = [](std::vector<catalog::Deprecation> deprecations) {
      auto cfg = minimal();
      cfg.packages[0].default_channel = "dflt";
      cfg.deprecations = std::move(deprecations);
      auto f = conversion_error(cfg);
      return f;
    };
    auto f = failure({deprecation("a", {}, 5), deprecation("", {}, 6)});
    CHECK(f.message == "package name must be set for deprecation item 1");
    CHECK(f.line == 6);
    CHECK(failure({deprecation("zz", {}, 5)}).message ==
          "cannot apply deprecations to an unknown package \"zz\"");
    f = failure({deprecation("a", {}, 5), deprecation("a", {}, 6)});
    CHECK(f.message == "expected a maximum of one deprecation per package: \"a\"");
    CHECK(f.line == 6);
    f = failure({deprecation("a", {deprecate("olm.package", ""), deprecate("", "x")}, 7)});
    CHECK(f.message == "schema must be set for deprecation entry [1] for package \"a\"");
    CHECK(f.line == 7);
    CHECK(
        failure({deprecation("a", {deprecate("olm.bundle", "x1"), deprecate("olm.bundle", "x1")})})
            .message == "duplicate deprecation entry declcfg.PackageScopedReference{Schema:"
                        "\"olm.bundle\", Name:\"x1\"} for package \"a\"");
    CHECK(failure({deprecation("a", {deprecate("olm.bundle", "nope")})}).message ==
          "cannot deprecate bundle \"nope\" for package \"a\": bundle not found");
    CHECK(failure({deprecation("a", {deprecate("olm.channel", "nope")})}).message ==
          "cannot deprecate channel \"nope\" for package \"a\": channel not found");
    CHECK(failure({deprecation("a", {deprecate("olm.package", "a")})}).message ==
          "package name must be empty for deprecated package \"a\" (specified \"a\")");
    CHECK(failure({deprecation("a", {deprecate("foo", "a")})}).message ==
          "cannot deprecate object declcfg.PackageScopedReference{Schema:\"foo\", Name:\"a\"} "
          "referenced by entry 0 for package \"a\": object schema unknown");
  }

  TEST_CASE("D7 accepts a synthesised default channel") {
    auto cfg = minimal();
    cfg.packages[0].default_channel = "dflt";
    cfg.deprecations.push_back(deprecation("a", {deprecate("olm.channel", "dflt")}));
    auto model = catalog::model::to_model(cfg);
    REQUIRE(model.has_value());
    CHECK(model->packages.at("a").channels.at("dflt").deprecation.present);
  }

  TEST_CASE("accepts a deprecation without entries") {
    auto cfg = minimal();
    cfg.deprecations.push_back(deprecation("a", {}));
    cfg.deprecations.back().entries.reset();
    CHECK(catalog::model::to_model(cfg).has_value());
  }
}

TEST_SUITE("channel head") {
  catalog::model::Channel graph(std::vector<catalog::ChannelEntry> entries) {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s"));
    cfg.channels.push_back(channel("a", "s", entries));
    for (const auto& e : entries) {
      cfg.bundles.push_back(bundle("a", e.name));
    }
    auto model = catalog::model::to_model(cfg);
    REQUIRE(model.has_value());
    return model->packages.at("a").channels.at("s");
  }

  TEST_CASE("finds the one bundle nothing replaces or skips") {
    auto ch = graph({entry("x1"), entry("x2", "x1"), entry("x3", "", {"x2"}, ">=1.0.0")});
    auto head = catalog::model::channel_head(ch);
    REQUIRE(head.has_value());
    CHECK((*head)->name == "x3");
  }

  TEST_CASE("reports a graph without a head") {
    auto ch = graph({entry("x1", "x1")});
    CHECK(catalog::model::channel_head(ch).error().message() == "no channel head found in graph");
  }

  TEST_CASE("reports several heads, sorted") {
    auto ch = graph({entry("x2"), entry("x10"), entry("x1")});
    CHECK(catalog::model::channel_head(ch).error().message() ==
          "multiple channel heads found in graph: x1, x10, x2");
  }
}

TEST_SUITE("release") {
  TEST_CASE("parses dot-separated identifiers") {
    auto release = catalog::model::parse_release("rc.1");
    REQUIRE(release.has_value());
    REQUIRE(release->size() == 2);
    CHECK((*release)[0].text == "rc");
    CHECK((*release)[1].number == 1);
    CHECK(catalog::model::parse_release("")->empty());
  }

  TEST_CASE("rejects releases longer than 20 characters") {
    CHECK(catalog::model::parse_release(std::string(21, 'a')).error().message() ==
          "invalid release \"" + std::string(21, 'a') +
              "\": exceeds maximum length of 20 characters");
    CHECK(catalog::model::parse_release(std::string(20, 'a')).has_value());
  }

  TEST_CASE("collects a message per bad segment") {
    CHECK(catalog::model::parse_release("a..b").error().message() ==
          "invalid release \"a..b\": segment 1: Prerelease is empty");
    CHECK(catalog::model::parse_release("01.a_b").error().message() ==
          "invalid release \"01.a_b\": segment 0: Numeric PreRelease version must not contain "
          "leading zeroes \"01\"\nsegment 1: Invalid character(s) found in prerelease \"a_b\"");
  }
}
