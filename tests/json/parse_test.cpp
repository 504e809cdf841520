#include "json/parse.hpp"

#include <doctest/doctest.h>

#include <string>

using opm::Json;
using opm::json::parse_text;

TEST_CASE("json::parse_text reads what Json::parse reads, members in byte order") {
  const std::string text = R"({"b":[1,-2,3.5,"x",null,true],"a":{"z":{},"y":[]},"B":"\u00e9"})";
  Json parsed = parse_text(text);
  CHECK(parsed == Json::parse(text));
  CHECK(parsed.dump() == R"({"B":"é","a":{"y":[],"z":{}},"b":[1,-2,3.5,"x",null,true]})");
}

TEST_CASE("json::parse_text keeps the last of equal keys") {
  CHECK(parse_text(R"({"k":1,"j":0,"k":2})").dump() == R"({"j":0,"k":2})");
}

TEST_CASE("json::parse_text throws or returns a discarded value on bad JSON") {
  CHECK_THROWS_AS(parse_text(R"({"a":1,})"), Json::parse_error);
  CHECK(parse_text(R"({"a":1,})", false).is_discarded());
  CHECK(parse_text("[1] [2]", false).is_discarded());
  CHECK(parse_text("", false).is_discarded());
}

TEST_CASE("json::parse_text reads an object of many keys in reverse order") {
  std::string text = "{";
  for (int i = 100000; i > 0; --i) {
    text += "\"" + std::to_string(i) + "\":" + std::to_string(i) + (i > 1 ? "," : "}");
  }
  Json parsed = parse_text(text);
  REQUIRE(parsed.size() == 100000);
  CHECK(parsed.begin().key() == "1");
  CHECK(parsed.at("54321") == 54321);
}
