#include "bundle/document.hpp"
#include "bundle/metadata.hpp"

#include <doctest/doctest.h>

using namespace opm::bundle;

TEST_SUITE("bundle metadata") {
  TEST_CASE("reads the three recognised annotations, matching keys ignoring case") {
    auto a = decode_annotations(R"(annotations:
  Operators.OperatorFramework.io.bundle.package.v1: pkg
  operators.operatorframework.io.bundle.channels.v1: a,b
  operators.operatorframework.io.bundle.channel.default.v1: b
  other: [ignored]
)");
    REQUIRE(a);
    CHECK(a->package == "pkg");
    CHECK(a->channels == "a,b");
    CHECK(a->default_channel == "b");
  }

  TEST_CASE("coerces YAML scalars for string fields, 32-bit float formatting included") {
    auto a = decode_annotations("annotations:\n"
                                "  operators.operatorframework.io.bundle.package.v1: 3.14159265\n"
                                "  operators.operatorframework.io.bundle.channels.v1: no\n");
    REQUIRE(a);
    CHECK(a->package == "3.1415927");
    CHECK(a->channels == "false");
  }

  TEST_CASE("JSON numbers are not coerced, but the YAML reading of the same file is") {
    auto a = decode_annotations(
        R"({"annotations": {"operators.operatorframework.io.bundle.package.v1": 5}})");
    REQUIRE(a);
    CHECK(a->package == "5");
  }

  TEST_CASE("a document without any recognised annotation is not an annotations file") {
    CHECK_FALSE(decode_annotations("annotations:\n  foo: bar\n"));
    CHECK_FALSE(decode_annotations("annotations: [a]\n"));
    CHECK_FALSE(decode_annotations("just text\n"));
    CHECK_FALSE(decode_annotations(""));
  }

  TEST_CASE("reads property lists with the value bytes upstream keeps") {
    auto deps = decode_property_list(R"(dependencies:
- type: olm.gvk
  value: {version: v1, group: g, kind: "<K>"}
- type: 12
- null
)",
                                     "dependencies");
    REQUIRE(deps);
    CHECK(*deps == std::vector<RawProperty>{
                       {"olm.gvk", R"({"group":"g","kind":"\u003cK\u003e","version":"v1"})"},
                       {"12", ""},
                       {"", ""}});

    auto props = decode_property_list(
        "{\"properties\": [{\"type\": \"x\", \"value\": {\"b\": 1,  \"a\": \"\\u003c\"}}]}",
        "properties");
    REQUIRE(props);
    CHECK(*props == std::vector<RawProperty>{{"x", R"({"b": 1,  "a": "\u003c"})"}});
  }

  TEST_CASE("an empty or ill-shaped list is not that kind of document") {
    CHECK_FALSE(decode_property_list("dependencies: []\n", "dependencies"));
    CHECK_FALSE(decode_property_list("dependencies: {}\n", "dependencies"));
    CHECK_FALSE(decode_property_list("dependencies:\n- type: [x]\n", "dependencies"));
    CHECK_FALSE(decode_property_list("properties:\n- type: a\n", "dependencies"));
  }

  TEST_CASE("splits channels on commas without trimming") {
    CHECK(split_channels("a, b,") == std::vector<std::string>{"a", " b", ""});
    CHECK(split_channels("").empty());
  }
}

TEST_SUITE("bundle documents") {
  TEST_CASE("JSON when a brace comes first within 30 bytes") {
    auto doc = read_first_document("  {\"a\": 1} {\"b\": 2}");
    REQUIRE(doc);
    CHECK(doc->syntax == Syntax::json);
    CHECK(doc->text == "{\"a\": 1}");
    auto late = read_first_document(std::string(30, ' ') + "{\"a\": 1}");
    REQUIRE(late);
    CHECK(late->syntax == Syntax::yaml);
  }

  TEST_CASE("falls back to YAML when the JSON does not parse") {
    auto doc = read_first_document("{a: 1}");
    REQUIRE(doc);
    CHECK(doc->syntax == Syntax::yaml);
    CHECK(doc->value == opm::Json{{"a", 1}});
  }

  TEST_CASE("takes the first YAML document, skipping leading separators") {
    auto doc = read_first_document("---\n--- # c\r\na: 1\r\n---\nb: 2\n");
    REQUIRE(doc);
    CHECK(doc->value == opm::Json{{"a", 1}});
  }

  TEST_CASE("fails on a bad separator, an empty file and bad YAML") {
    auto bad = read_first_document("---x\na: 1\n");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message() == "invalid Yaml document separator: x");
    CHECK_FALSE(read_first_document(""));
    CHECK_FALSE(read_first_document("a: [\n"));
  }
}
