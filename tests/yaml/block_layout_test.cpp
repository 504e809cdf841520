#include "yaml/detail/block_layout.hpp"

#include <doctest/doctest.h>

#include <string>

using opm::Json;
using opm::yaml::Rest;
using opm::yaml::detail::events_to_json;
using opm::yaml::detail::read_block_layout;

namespace {

// What libyaml's events make of `text`, which the direct reading must equal.
Json through_events(const std::string& text) {
  auto value = events_to_json(text, false, SIZE_MAX, nullptr, Rest::reject);
  REQUIRE_MESSAGE(value.has_value(), value.error().message);
  return *value;
}

// `text` is read directly, to `expected_json`, and libyaml's events agree.
void check_read(const std::string& text, const std::string& expected_json) {
  INFO(text);
  auto direct = read_block_layout(text);
  REQUIRE(direct.has_value());
  CHECK(direct->dump() == Json::parse(expected_json).dump());
  CHECK(*direct == through_events(text));
}

} // namespace

TEST_SUITE("block layout") {
  TEST_CASE("nested mappings, indented and beside-the-key sequences and compact mappings") {
    check_read(
        "a:\n  b: x\n  c: []\n  d: {}\nlist:\n- x\n- k: v\n  m: w\n-\n  - deep\n- \nempty:\n",
        R"({"a":{"b":"x","c":[],"d":{}},"list":["x",{"k":"v","m":"w"},["deep"],null],)"
        R"("empty":null})");
    check_read("---\n# a comment\nouter:\n    - a: 1\n      b:\n      - 2\n", //
               R"({"outer":[{"a":1,"b":[2]}]})");
  }

  TEST_CASE("plain scalars take YAML 1.1 types and keys become JSON's strings") {
    check_read("t: yes\nz: ~\ni: 0x1F\nf: 1.5\ns: 2024-01-02\nv: 1.2.3\n1: one\ntrue: two\n",
               R"({"1":"one","f":1.5,"i":31,"z":null,"s":"2024-01-02","t":true,"true":"two",)"
               R"("v":"1.2.3"})");
  }

  TEST_CASE("quoted scalars, on one line and over several, with their escapes") {
    check_read("a: 'it''s'\nb: \"\\u00e9\\t\\\"q\\\"\\\\ \\x41\\N\"\n\"c d\": 'yes'\n",
               R"({"a":"it's","b":"\u00e9\t\"q\"\\ A\u0085","c d":"yes"})");
    check_read("a: 'x\n  y\n\n  z'\nb: \"one \\\n    two\n   three\"\n",
               R"({"a":"x y\nz","b":"one two three"})");
  }

  TEST_CASE("a quoted scalar closed on its line without escapes is its bytes, spaces kept") {
    check_read("a: 'one  two # three: four'\nb: \"\"\nc: ''\nd: \"x\\\\\"\ne: 'it''s'\n",
               R"({"a":"one  two # three: four","b":"","c":"","d":"x\\","e":"it's"})");
    check_read("a: \"p \\\" q\n  r \\\\\"\nb: 'x''\n  y'\n", R"({"a":"p \" q r \\","b":"x' y"})");
  }

  TEST_CASE("plain scalars over several lines are folded") {
    check_read("d: one\n  two\n\n  three\n  - four \"five\"\ne: 1\n",
               R"({"d":"one two\nthree - four \"five\"","e":1})");
    check_read("- a\n  b\n- c\n", R"(["a b","c"])");
  }

  TEST_CASE("literal blocks with every chomping and an explicit indentation") {
    check_read("a: |\n  x\n\n   y\nb: |-\n  z\nc: |+\n  w\n\nd: x\n",
               R"({"a":"x\n\n y\n","b":"z","c":"w\n\n","d":"x"})");
    check_read("s:\n- |2\n\n    x\n- k: |-\n    # not a comment\n",
               R"({"s":["\n  x\n",{"k":"# not a comment"}]})");
  }

  TEST_CASE("anything outside the layout is left to libyaml") {
    const char* const declined[] = {
        "a: &x 1\nb: *x\n",       // anchors and aliases
        "a: !!str 1\n",           // tags
        "a: [1, 2]\n",            // flow collections
        "a: {b: 1}\n",            //
        "a: >\n  folded\n",       // folded blocks
        "a:\t1\n",                // tabs
        "a: 1\r\n",               // carriage returns
        "a: 1\na: 2\n",           // duplicate keys
        "<<: {}\n",               // merge keys
        "~: 1\n",                 // null keys
        "a: .nan\n",              // values JSON cannot hold
        "a: 1 # comment\n",       // comments after values
        "a: 1\n---\nb: 2\n",      // a second document
        "%YAML 1.1\n---\na: 1\n", // directives
        "a: b: c\n",              // errors
        "a: 1\n  b: 2\n",         //
        "a: \"\\/\"\n",           // escapes go-yaml refuses, or libyaml handles specially
        "a: \"\\0\"\n",           //
        "\xEF\xBB\xBF"
        "a: 1\n",             // a byte order mark
        "a: x\n  # c\n  y\n", // a comment inside a plain scalar
        "- - a\n",            // compact nested sequences
        "just text\n",        // a scalar document
        "",                   // an empty one
        "a: |\n  x",          // a literal block ending the text without a line break
    };
    for (const char* text : declined) {
      INFO(text);
      CHECK_FALSE(read_block_layout(text).has_value());
    }
    std::string long_key(1001, 'k');
    CHECK_FALSE(read_block_layout(long_key + ": 1\n").has_value());
  }
}
