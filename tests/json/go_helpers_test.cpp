#include "json/go_json.hpp"
#include "json/text.hpp"
#include "json/unmarshal.hpp"
#include "util/go_format.hpp"

#include <doctest/doctest.h>

using namespace opm;

TEST_SUITE("go helpers") {
  TEST_CASE("struct fields match members ignoring case, the last one winning") {
    Json obj = {{"Name", "first"}, {"name", "second"}, {"other", 1}};
    const Json* m = json::find_member(obj, "NAME");
    REQUIRE(m != nullptr);
    CHECK(*m == "second");
    CHECK(json::find_member(obj, "missing") == nullptr);
    CHECK(json::find_member(Json::array(), "name") == nullptr);
    Json kelvin = {{"\u212Aind", "folded"}};
    REQUIRE(json::find_member(kelvin, "kind") != nullptr);
  }

  TEST_CASE("finds a member's text inside a document") {
    std::string_view text = R"({"a":{"b":[1,2],"c":"x"}})";
    CHECK(json::text::find_raw(text, {"a", "b"}) == "[1,2]");
    CHECK(json::text::find_raw(text, {"a", "c"}) == R"("x")");
    CHECK(json::text::find_raw(text, {"a", "d"}).data() == nullptr);
  }

  TEST_CASE("indents as json.Indent with four spaces") {
    CHECK(opm::json::indent(R"({"a":[1,{}],"b":[],"c":"{,}"})") ==
          "{\n    \"a\": [\n        1,\n        {}\n    ],\n    \"b\": [],\n    \"c\": \"{,}\"\n}");
  }

  TEST_CASE("marks the offset of an unmarshal error in the indented document") {
    std::string data = R"({"a":1,"b":"x"})";
    CHECK(opm::json::pretty_unmarshal_error(data, "json: boom", 14) ==
          "json: boom at offset 14 (indicated by <==)\n{\n    \"a\": 1,\n    \"b\": \"x\" <== \n}");
    CHECK(opm::json::pretty_unmarshal_error(data, "json: end", data.size()) ==
          "json: end at offset 15 (indicated by <==)\n{\n    \"a\": 1,\n    \"b\": \"x\"\n} <==");
  }

  TEST_CASE("formats floats as Go's 32-bit %g") {
    CHECK(opm::util::format_float(1.10, 'g', 32) == "1.1");
    CHECK(opm::util::format_float(1.0, 'g', 32) == "1");
    CHECK(opm::util::format_float(3.14159265358979, 'g', 32) == "3.1415927");
    CHECK(opm::util::format_float(1e6, 'g', 32) == "1e+06");
    CHECK(opm::util::format_float(123456, 'g', 32) == "123456");
    CHECK(opm::util::format_float(0.0001, 'g', 32) == "0.0001");
    CHECK(opm::util::format_float(0.00001, 'g', 32) == "1e-05");
    CHECK(opm::util::format_float(-2.5, 'g', 32) == "-2.5");
    CHECK(opm::util::format_float(0.0, 'g', 32) == "0");
  }
}
