#include "support/catalog_builders.hpp"
#include "template/template.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace opm;
using namespace opm::test;

namespace {

// Images "reg/foo:<version>" render to bundle foo.v<version>; the calls are recorded.
struct FakeRenderer {
  std::vector<std::vector<std::string>> calls;

  templates::RenderBundles function() {
    return [this](const std::vector<std::string>& refs)
               -> Result<std::vector<catalog::DeclarativeConfig>> {
      calls.push_back(refs);
      std::vector<catalog::DeclarativeConfig> out;
      for (const auto& ref : refs) {
        auto version = ref.substr(ref.find(':') + 1);
        if (version == "broken") {
          return util::fail(Errc::invalid, "render reference \"" + ref + "\": broken");
        }
        catalog::DeclarativeConfig cfg;
        cfg.bundles.push_back(bundle("foo", "foo.v" + version, 1, version, ref));
        out.push_back(std::move(cfg));
      }
      return out;
    };
  }
};

const catalog::Channel& channel_named(const catalog::DeclarativeConfig& cfg,
                                      const std::string& name) {
  auto found = std::ranges::find(cfg.channels, name, &catalog::Channel::name);
  REQUIRE(found != cfg.channels.end());
  return *found;
}

} // namespace

TEST_CASE("semver template: every image rendered in one batch, edges as upstream links them") {
  FakeRenderer fake;
  auto cfg = templates::render_semver(R"(schema: olm.semver
stable:
  bundles:
  - image: reg/foo:0.11.0
  - image: reg/foo:0.9.0
  - image: reg/foo:0.10.1
  - image: reg/foo:0.10.0
)",
                                      fake.function());
  REQUIRE(cfg.has_value());
  CHECK(fake.calls.size() == 1);
  CHECK(fake.calls.front().size() == 4);
  CHECK(cfg->packages.front().default_channel == "stable-v0.11");
  const auto& head = channel_named(*cfg, "stable-v0.11").entries->front();
  CHECK(head.replaces == "foo.v0.10.1");
  // Skips sort as strings, not versions.
  CHECK(head.skips == std::vector<std::string>{"foo.v0.10.0", "foo.v0.9.0"});
  const auto& minor10 = *channel_named(*cfg, "stable-v0.10").entries;
  CHECK(minor10.front().replaces.empty());
  CHECK(minor10.back().replaces == "foo.v0.9.0");
  CHECK(minor10.back().skips == std::vector<std::string>{"foo.v0.10.0"});
}

TEST_CASE("semver template: major and minor channels, the preference breaks the tie") {
  FakeRenderer fake;
  auto input = std::string(R"(schema: olm.semver
generateMajorChannels: true
generateMinorChannels: true
defaultChannelTypePreference: PREF
stable:
  bundles:
  - image: reg/foo:1.0.0
)");
  auto with = [&](const std::string& pref) {
    auto text = input;
    text.replace(text.find("PREF"), 4, pref);
    auto cfg = templates::render_semver(text, fake.function());
    REQUIRE(cfg.has_value());
    return cfg->packages.front().default_channel;
  };
  CHECK(with("major") == "stable-v1");
  CHECK(with("minor") == "stable-v1.0");
}

TEST_CASE("basic template: the first failing bundle is reported; later ones are not checked") {
  FakeRenderer fake;
  auto cfg = templates::render_basic(R"(schema: olm.template.basic
entries:
- {schema: olm.bundle, image: "reg/foo:1.0.0"}
- {schema: olm.bundle, image: "reg/foo:broken"}
- {schema: olm.bundle, image: "reg/foo:2.0.0", package: foo}
)",
                                     fake.function());
  REQUIRE_FALSE(cfg.has_value());
  CHECK(cfg.error().message() == "render reference \"reg/foo:broken\": broken");
  REQUIRE(fake.calls.size() == 1);
  CHECK(fake.calls.front() == std::vector<std::string>{"reg/foo:1.0.0", "reg/foo:broken"});
}

TEST_CASE("basic template: an image listed twice is rendered once and kept twice") {
  FakeRenderer fake;
  auto cfg = templates::render_basic(R"(schema: olm.template.basic
entries:
- {schema: olm.bundle, image: "reg/foo:1.0.0"}
- {schema: olm.bundle, image: "reg/foo:1.0.0"}
)",
                                     fake.function());
  REQUIRE(cfg.has_value());
  CHECK(fake.calls.front().size() == 1);
  CHECK(cfg->bundles.size() == 2);
}

TEST_CASE("template type detection") {
  CHECK(templates::detect_type("schema: olm.semver\n").value() == "semver");
  CHECK(templates::detect_type("{\"schema\": \"olm.template.substitutes\"}").value() ==
        "substitutes");
  CHECK(templates::detect_type("").error().message() == "decoding template input: EOF");
  CHECK(templates::detect_type("schema: olm.package\n").error().message() ==
        "unknown template schema: olm.package");
}

TEST_CASE("basic template: a document of another schema is refused, as latest upstream") {
  FakeRenderer fake;
  auto stream = templates::render("basic",
                                  "schema: olm.package\nname: foo\n---\n"
                                  "schema: olm.bundle\nimage: reg/foo:1.0.0\n",
                                  fake.function());
  REQUIRE_FALSE(stream.has_value());
  CHECK(stream.error().message() ==
        "template has unknown schema (\"olm.package\"), should be \"olm.template.basic\"");
  auto other = templates::render_basic("schema: olm.template.unknown\n", fake.function());
  REQUIRE_FALSE(other.has_value());
  CHECK(other.error().message() == "template has unknown schema (\"olm.template.unknown\"), "
                                   "should be \"olm.template.basic\"");
  CHECK(fake.calls.empty());
}

TEST_CASE("template entries with keys differing by case fail while unmarshalling the template") {
  FakeRenderer fake;
  auto cfg = templates::render_basic(
      "schema: olm.template.basic\nentries:\n- {schema: olm.package, Name: a, name: b}\n",
      fake.function());
  REQUIRE_FALSE(cfg.has_value());
  CHECK(cfg.error().message() ==
        "unmarshalling template: duplicate keys for key \"name\": [Name name]");
}

TEST_CASE("type detection of a document that is not an object") {
  CHECK(templates::detect_type("- a\n- b\n").error().message() ==
        "unmarshalling template schema: json: cannot unmarshal array into Go value of type "
        "struct { Schema string \"json:\\\"schema\\\"\" }");
  CHECK(templates::detect_type("\"text\"\n").error().message() ==
        "unmarshalling template schema: json: cannot unmarshal string into Go value of type "
        "struct { Schema string \"json:\\\"schema\\\"\" }");
  CHECK(templates::detect_type("null\n").error().message() ==
        "template input missing required 'schema' field");
}

TEST_CASE("convert-template: a YAML 1.1 boolean where a string must be fails") {
  auto converted = templates::convert("schema: olm.package\nname: yes\n", "basic",
                                      templates::ConvertFormat::json);
  REQUIRE_FALSE(converted.has_value());
  CHECK(converted.error().message() ==
        "expected value for key \"name\" to be a string, got true: true");
}

TEST_CASE("template entries that are not objects fail as declcfg.Meta's decoding does") {
  // Found by fuzz/template_fuzz.cpp: such an entry used to end the process.
  std::ifstream file(std::string(OPM_TEST_DATA_DIR) +
                     "/fuzz/template/substitutes_entry_not_object.yaml");
  std::stringstream text;
  text << file.rdbuf();
  REQUIRE(text.str() == "schema: olm.template.substitutes\nentries:\n- e");
  FakeRenderer fake;
  auto substitutes = templates::render_substitutes(text.str(), fake.function());
  REQUIRE_FALSE(substitutes.has_value());
  CHECK(substitutes.error().message() ==
        "render: unable to parse template: unmarshalling template: json: cannot unmarshal string "
        "into Go value of type map[string]interface {} at offset 3 (indicated by <==)\n\"e\" <==");

  auto basic = templates::render_basic(R"(schema: olm.template.basic
entries:
- {schema: olm.bundle, image: "reg/foo:1.0.0"}
- 7
- {schema: 3}
)",
                                       fake.function());
  REQUIRE_FALSE(basic.has_value());
  CHECK(basic.error().message() ==
        "unmarshalling template: json: cannot unmarshal number into Go value of type "
        "map[string]interface {} at offset 1 (indicated by <==)\n7 <==");
  CHECK(fake.calls.empty());
}
