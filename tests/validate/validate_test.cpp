#include "support/catalog_builders.hpp"
#include "validate/validate.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;
using namespace opm::test;
using catalog::DeclarativeConfig;

namespace {

// Package "a" (default "s") with channel "s" listing the entries, and one bundle object per
// entry (version 1.0.0, 1.1.0, ... in entry order).
DeclarativeConfig one_channel(std::vector<catalog::ChannelEntry> entries) {
  DeclarativeConfig cfg;
  cfg.packages.push_back(package("a", "s", 1));
  std::size_t at = 3;
  std::size_t minor = 0;
  for (const auto& e : entries) {
    cfg.bundles.push_back(bundle("a", e.name, at++, "1." + std::to_string(minor++) + ".0"));
  }
  cfg.channels.push_back(channel("a", "s", std::move(entries), 2));
  return cfg;
}

std::string message_of(const DeclarativeConfig& cfg) { return validate::check(cfg).message; }

} // namespace

TEST_SUITE("validate") {
  TEST_CASE("passes a valid catalog") {
    auto cfg =
        one_channel({entry("x3", "x2", {}, ">=1.0.0 <1.2.0"), entry("x2", "x1"), entry("x1")});
    auto outcome = validate::check(cfg);
    CHECK(outcome.passed());
    CHECK(outcome.message.empty());
    CHECK(outcome.findings.empty());
  }

  TEST_CASE("prints upstream's tree with siblings in name order") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("c", "", 7));
    cfg.packages.push_back(package("a", "s", 1));
    cfg.packages.push_back(package("b", "", 6));
    cfg.channels.push_back(channel("a", "s", {entry("x1", "", {""}), entry("x2")}, 2));
    cfg.channels.push_back(channel("a", "t", {entry("x1", "x1")}, 3));
    cfg.bundles.push_back(bundle("a", "x1", 4, "1.0.0", ""));
    cfg.bundles.push_back(bundle("a", "x2", 5, "2.0.0"));
    auto outcome = validate::check(cfg);
    CHECK(outcome.message == "invalid index:\n"
                             "├── invalid package \"a\":\n"
                             "│   ├── invalid channel \"s\":\n"
                             "│   │   ├── multiple channel heads found in graph: x1, x2\n"
                             "│   │   └── invalid bundle \"x1\":\n"
                             "│   │       ├── skip[0] is empty\n"
                             "│   │       └── bundle image must be set\n"
                             "│   └── invalid channel \"t\":\n"
                             "│       ├── no channel head found in graph\n"
                             "│       └── invalid bundle \"x1\":\n"
                             "│           └── bundle image must be set\n"
                             "├── invalid package \"b\":\n"
                             "│   ├── default channel must be set\n"
                             "│   └── package must contain at least one channel\n"
                             "└── invalid package \"c\":\n"
                             "    ├── default channel must be set\n"
                             "    └── package must contain at least one channel");
    REQUIRE(outcome.findings.size() == 9);
    auto finding = [&](std::size_t i, std::string text, std::size_t at) {
      CAPTURE(i);
      CHECK(outcome.findings[i].text == text);
      CHECK(outcome.findings[i].where.file == k_file);
      CHECK(outcome.findings[i].where.line == at);
    };
    finding(0, "invalid channel \"s\": multiple channel heads found in graph: x1, x2", 2);
    finding(1, "invalid bundle \"x1\": skip[0] is empty", 4);
    finding(2, "invalid bundle \"x1\": bundle image must be set", 4);
    finding(3, "invalid channel \"t\": no channel head found in graph", 3);
    finding(4, "invalid bundle \"x1\": bundle image must be set", 4);
    finding(5, "invalid package \"b\": default channel must be set", 6);
    finding(6, "invalid package \"b\": package must contain at least one channel", 6);
    finding(7, "invalid package \"c\": default channel must be set", 7);
    finding(8, "invalid package \"c\": package must contain at least one channel", 7);
  }

  TEST_CASE("reports a conversion error alone, with its location") {
    auto cfg = one_channel({entry("x1")});
    cfg.packages.push_back(package("a", "s", 9));
    cfg.packages.push_back(package("b", "", 10));
    auto outcome = validate::check(cfg);
    CHECK(outcome.message == "duplicate package \"a\"");
    REQUIRE(outcome.findings.size() == 1);
    CHECK(outcome.findings[0].text == "duplicate package \"a\"");
    CHECK(outcome.findings[0].where.line == 9);
  }

  TEST_CASE("reports a synthesised default channel as empty, saying the package has none") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "nope", 1));
    auto outcome = validate::check(cfg);
    CHECK(outcome.message == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"nope\":\n"
                             "        └── channel must contain at least one bundle (defaultChannel "
                             "\"nope\" names no olm.channel of package \"a\", which has none)");
    REQUIRE(outcome.findings.size() == 1);
    CHECK(outcome.findings[0].where.line == 1);
  }

  TEST_CASE("reports a default channel naming no channel with the package's channels") {
    auto cfg = one_channel({entry("x1")});
    cfg.packages[0].default_channel = "stabel";
    cfg.channels.push_back(channel("a", "fast", {entry("x1")}, 3));
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"stabel\":\n"
                             "        └── channel must contain at least one bundle (defaultChannel "
                             "\"stabel\" names no olm.channel of package \"a\", whose channels "
                             "are \"fast\", \"s\")");
  }

  TEST_CASE("reports a package without default channel or channels") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "", 1));
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    ├── default channel must be set\n"
                             "    └── package must contain at least one channel");
  }

  TEST_CASE("reports a channel without entries") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.channels.push_back(channel("a", "s", {}, 2));
    const std::string expected = "invalid index:\n"
                                 "└── invalid package \"a\":\n"
                                 "    └── invalid channel \"s\":\n"
                                 "        └── channel must contain at least one bundle";
    CHECK(message_of(cfg) == expected);
    cfg.channels[0].entries.reset();
    CHECK(message_of(cfg) == expected);
  }

  TEST_CASE("reports a cycle in the replaces chain from where it closes") {
    auto cfg =
        one_channel({entry("x1", "x3"), entry("x2", "x1"), entry("x3", "x2"), entry("x4", "x3")});
    auto outcome = validate::check(cfg);
    CHECK(outcome.message ==
          "invalid index:\n"
          "└── invalid package \"a\":\n"
          "    └── invalid channel \"s\":\n"
          "        └── detected cycle in replaces chain of upgrade graph: x3 -> x2 -> x1 -> x3");
    REQUIRE(outcome.findings.size() == 1);
    CHECK(outcome.findings[0].text == "invalid channel \"s\": detected cycle in replaces chain of "
                                      "upgrade graph: x3 -> x2 -> x1 -> x3");
    CHECK(outcome.findings[0].where.line == 2);
  }

  TEST_CASE("reports several heads, however they come about") {
    auto cfg = one_channel({entry("x3", "x2"), entry("x2"), entry("x1", "", {"x0"})});
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        └── multiple channel heads found in graph: x1, x3");
    cfg = one_channel({entry("x4", "x3", {"x1"}), entry("x3"), entry("x2", "x1"), entry("x1")});
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        └── multiple channel heads found in graph: x2, x4");
  }

  TEST_CASE("stops the replaces walk at a skipped bundle (latest)") {
    // v1.26.5 accepted this channel; latest strands x1.
    auto cfg = one_channel({entry("x1"), entry("x2", "x1"), entry("x3", "x2", {"x2"})});
    auto outcome = validate::check(cfg);
    CHECK(outcome.message == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        └── channel contains one or more stranded bundles: x1");
    REQUIRE(outcome.findings.size() == 1);
    CHECK(outcome.findings[0].where.line == 2);
  }

  TEST_CASE("accepts skipped bundles off the chain and a tail replacing a missing bundle") {
    auto cfg = one_channel(
        {entry("x3", "x2", {"x2b", "x9"}), entry("x2b"), entry("x2", "x1"), entry("x1", "x0")});
    CHECK(validate::check(cfg).passed());
  }

  TEST_CASE("lists several stranded bundles sorted") {
    // The head skips y2 and z2, so they are not stranded, but what they replace is.
    auto cfg = one_channel({entry("x3", "x2", {"z2", "y2"}), entry("x2"), entry("z2", "z1"),
                            entry("z1"), entry("y2", "y1"), entry("y1")});
    auto outcome = validate::check(cfg);
    CHECK(outcome.message == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        └── channel contains one or more stranded bundles: y1, z1");
  }

  TEST_CASE("reports bundle rules in upstream's order") {
    auto cfg = one_channel({entry("x2", "x1", {"", "x0", ""}, "not a range"), entry("x1")});
    cfg.bundles[0].image.clear();
    auto outcome = validate::check(cfg);
    CHECK(outcome.message == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        └── invalid bundle \"x2\":\n"
                             "            ├── skip[0] is empty\n"
                             "            ├── skip[2] is empty\n"
                             "            ├── invalid skipRange \"not a range\": Could not get "
                             "version from string: \"not\"\n"
                             "            └── bundle image must be set");
    REQUIRE(outcome.findings.size() == 4);
    CHECK(outcome.findings[2].text == "invalid bundle \"x2\": invalid skipRange \"not a range\": "
                                      "Could not get version from string: \"not\"");
    CHECK(outcome.findings[2].where.line == 3);
  }

  TEST_CASE("accepts a bundle without image when it has objects") {
    auto cfg = one_channel({entry("x1")});
    cfg.bundles[0].image.clear();
    cfg.bundles[0].objects.emplace_back("{}");
    CHECK(validate::check(cfg).passed());
  }

  TEST_CASE("reports entries without a bundle object in earlier channels") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.channels.push_back(
        channel("a", "s", {entry("g2", "g1"), entry("g1", "x1"), entry("x1")}, 2));
    cfg.channels.push_back(channel("a", "t", {entry("x1")}, 3));
    cfg.bundles.push_back(bundle("a", "x1", 4));
    auto outcome = validate::check(cfg);
    CHECK(outcome.message == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    ├── invalid channel \"s\":\n"
                             "    │   ├── invalid bundle \"g1\":\n"
                             "    │   │   ├── must be exactly one property with type "
                             "\"olm.package\"\n"
                             "    │   │   └── bundle image must be set\n"
                             "    │   └── invalid bundle \"g2\":\n"
                             "    │       ├── must be exactly one property with type "
                             "\"olm.package\"\n"
                             "    │       └── bundle image must be set\n"
                             "    └── duplicate versions found in bundles: [{0.0.0: [g1, g2]}]");
    REQUIRE(outcome.findings.size() == 5);
    // Entries without an object are located at their channel.
    CHECK(outcome.findings[0].where.line == 2);
    CHECK(outcome.findings[4].text ==
          "invalid package \"a\": duplicate versions found in bundles: [{0.0.0: [g1, g2]}]");
    CHECK(outcome.findings[4].where.line == 1);
  }

  TEST_CASE("reports bundles sharing a version across channels (latest)") {
    DeclarativeConfig cfg;
    cfg.packages.push_back(package("a", "s", 1));
    cfg.channels.push_back(channel("a", "s", {entry("x1"), entry("x2", "x1")}, 2));
    cfg.channels.push_back(channel("a", "t", {entry("x1")}, 3));
    cfg.bundles.push_back(bundle("a", "x1", 4, "1.0.0"));
    cfg.bundles.push_back(bundle("a", "x2", 5, "1.0.0"));
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── duplicate versions found in bundles: [{1.0.0: [x1, x2]}]");
  }

  TEST_CASE("groups duplicate versions, sorted as strings") {
    auto cfg = one_channel({entry("d", "c"), entry("c", "b"), entry("b", "a"), entry("a")});
    cfg.bundles[0].properties[0] = package_property("a", "1.9.0");
    cfg.bundles[1].properties[0] = package_property("a", "1.9.0");
    cfg.bundles[2].properties[0] = package_property("a", "1.10.0");
    cfg.bundles[3].properties[0] = package_property("a", "1.10.0");
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── duplicate versions found in bundles: [{1.10.0: [a, b]} "
                             "{1.9.0: [c, d]}]");
  }

  TEST_CASE("tells builds apart but not a release from its absence") {
    auto cfg = one_channel({entry("x2", "x1"), entry("x1")});
    cfg.bundles[0].properties[0] = package_property("a", "1.0.0+b1");
    cfg.bundles[1].properties[0] = package_property("a", "1.0.0+b2");
    CHECK(validate::check(cfg).passed());
  }

  TEST_CASE("requires normalized names with a release, and no build metadata (latest)") {
    auto cfg = one_channel({entry("x1"), entry("a-v1.0.0-2", "x1")});
    cfg.bundles[0].properties[0] = package_property("a", "1.0.0", "1");
    cfg.bundles[1].properties[0] = package_property("a", "1.0.0+b", "2");
    // Upstream prints sibling bundles in map order; they are sorted here.
    CHECK(message_of(cfg) ==
          "invalid index:\n"
          "└── invalid package \"a\":\n"
          "    └── invalid channel \"s\":\n"
          "        ├── invalid bundle \"a-v1.0.0-2\":\n"
          "        │   ├── name \"a-v1.0.0-2\" does not match normalized name \"a-v1.0.0+b-2\"\n"
          "        │   └── cannot use build metadata in version with a release version\n"
          "        └── invalid bundle \"x1\":\n"
          "            └── name \"x1\" does not match normalized name \"a-v1.0.0-1\"");

    auto good = one_channel({entry("a-v1.0.0-rc.1")});
    good.bundles[0].properties[0] = package_property("a", "1.0.0", "rc.1");
    CHECK(validate::check(good).passed());
  }

  TEST_CASE("requires deprecation messages (latest)") {
    auto cfg = one_channel({entry("x1")});
    cfg.deprecations.push_back(
        deprecation("a", {deprecate("olm.package", "", ""), deprecate("olm.bundle", "x1", "")}));
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    ├── invalid channel \"s\":\n"
                             "    │   └── invalid bundle \"x1\":\n"
                             "    │       └── invalid deprecation: message must be set\n"
                             "    └── invalid deprecation: message must be set");

    cfg.deprecations[0].entries = {deprecate("olm.channel", "s", "")};
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        └── invalid deprecation: message must be set");

    cfg.deprecations[0].entries = {deprecate("olm.channel", "s", "use t"),
                                   deprecate("olm.package", "", "gone"),
                                   deprecate("olm.bundle", "x1", "old")};
    CHECK(validate::check(cfg).passed());
  }

  TEST_CASE("reports an empty bundle name matched by an entry") {
    auto cfg = one_channel({entry("")});
    // Upstream walks from the unnamed head along its empty replaces back to itself.
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        ├── detected cycle in replaces chain of upgrade graph:  -> \n"
                             "        └── invalid bundle \"\":\n"
                             "            └── name must be set");
  }

  TEST_CASE("keeps raw newlines of multi-line rule messages") {
    auto cfg = one_channel({entry("x1", "", {}, ">=1.0.0 ||")});
    CHECK(message_of(cfg) == "invalid index:\n"
                             "└── invalid package \"a\":\n"
                             "    └── invalid channel \"s\":\n"
                             "        └── invalid bundle \"x1\":\n"
                             "            └── invalid skipRange \">=1.0.0 ||\": Last element in "
                             "range is '||'");
  }

  TEST_CASE("validates long channels") {
    std::vector<catalog::ChannelEntry> entries;
    constexpr int k_count = 3000;
    for (int i = k_count; i > 0; --i) {
      entries.push_back(entry("b" + std::to_string(i), i > 1 ? "b" + std::to_string(i - 1) : ""));
    }
    auto cfg = one_channel(std::move(entries));
    CHECK(validate::check(cfg).passed());
    // Close the chain into a cycle from the tail back to the middle.
    cfg.channels[0].entries->back().replaces = "b1500";
    auto message = message_of(cfg);
    CHECK(message.starts_with("invalid index:\n└── invalid package \"a\":\n    └── invalid "
                              "channel \"s\":\n        └── detected cycle in replaces chain of "
                              "upgrade graph: b1500 -> b1499 -> "));
    CHECK(message.ends_with(" -> b2 -> b1 -> b1500"));
  }

  TEST_CASE("gives the model of a valid catalog, or check()'s message with every location") {
    auto cfg = one_channel({entry("x1")});
    auto model = validate::valid_model(cfg);
    REQUIRE(model.has_value());
    CHECK(model->packages.at("a").channels.at("s").bundles.contains("x1"));

    cfg.packages[0].default_channel.clear();
    auto failed = validate::valid_model(cfg);
    REQUIRE_FALSE(failed.has_value());
    CHECK(failed.error().message() ==
          "catalog/index.yaml:1:1: invalid package \"a\": default channel must be set\n" +
              validate::check(cfg).message);
    CHECK_FALSE(failed.error().where().has_value()); // a tree has no single location

    cfg.packages.push_back(package("a", "s", 5));
    failed = validate::valid_model(cfg);
    CHECK(failed.error().message() == "duplicate package \"a\"");
    CHECK(failed.error().where()->line == 5);
  }
}

TEST_SUITE("validate models built in memory") {
  TEST_CASE("checks a model that owns its bundle objects") {
    catalog::model::Model model;
    auto& pkg = model.packages["a"];
    pkg.name = "a";
    pkg.default_channel = "s";
    auto& ch = pkg.channels["s"];
    ch.name = "s";
    ch.package = "a";
    for (const char* name : {"x1", "x2"}) {
      auto& blob = model.owned_blobs.emplace_back(bundle("a", name));
      auto& b = ch.bundles[name];
      b.name = name;
      b.package = "a";
      b.channel = "s";
      b.has_blob = true;
      b.blob = &blob;
      b.image = blob.image;
      b.parsed_version.minor = std::string(name) == "x1" ? 1 : 2;
    }
    ch.bundles["x2"].replaces = "x1";
    auto moved = std::move(model);
    CHECK(validate::check_model(moved).passed());
    CHECK(moved.packages.at("a").channels.at("s").bundles.at("x1").properties().size() == 1);

    moved.packages.at("a").channels.at("s").bundles.at("x2").replaces.clear();
    CHECK(validate::check_model(moved).message ==
          "invalid index:\n"
          "└── invalid package \"a\":\n"
          "    └── invalid channel \"s\":\n"
          "        └── multiple channel heads found in graph: x1, x2");
  }
}
