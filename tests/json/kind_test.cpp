#include "json/kind.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

using opm::json::object_kind;

TEST_CASE("json::object_kind finds the top-level kind of a valid object") {
  CHECK(object_kind(R"({"apiVersion":"v1","kind":"ClusterServiceVersion"})") ==
        "ClusterServiceVersion");
  CHECK(object_kind(" \n{ \"kind\" : \"Deployment\" } \r\n") == "Deployment");
  CHECK(object_kind(R"({"spec":{"kind":"Inner"},"x":[{"kind":"InArray"}]})") == "");
  CHECK(object_kind(R"({"kind":"First","kind":"Last"})") == "Last");
  CHECK(object_kind(R"({"kind":"Kept","kind":7})") == "Kept");
  CHECK(object_kind(R"({"kind":"\u0043luster\"Service\\Version"})") == "Cluster\"Service\\Version");
  CHECK(object_kind(R"({"kind":"\ud83d\ude00"})") == "\xF0\x9F\x98\x80");
  CHECK(object_kind(R"(["kind","ClusterServiceVersion"])") == "");
  CHECK(object_kind(R"("text")") == "");
  CHECK(object_kind("{}") == "");
}

TEST_CASE("json::object_kind refuses what a strict JSON parser refuses") {
  const std::string_view cases[] = {
      "",
      "   ",
      "{",
      "{\"kind\":\"x\"",
      "{\"kind\":\"x\"} {}",
      "{\"kind\":\"x\",}",
      "{\"kind\" \"x\"}",
      "{kind:\"x\"}",
      "[1,]",
      "[1 2]",
      "{\"a\":01}",
      "{\"a\":1.}",
      "{\"a\":.5}",
      "{\"a\":1e}",
      "{\"a\":-}",
      "{\"a\":tru}",
      "{\"a\":nul}",
      "{\"a\":\"tab\there\"}",
      "{\"a\":\"\\x\"}",
      "{\"a\":\"\\u12\"}",
      "{\"a\":\"\\ud800\"}",
      "{\"a\":\"\\udc00\"}",
      "{\"a\":\"\\ud800\\u0041\"}",
      "{\"a\":\"\xC3\"}",
      "{\"a\":\"\xED\xA0\x80\"}",
      "{\"a\":\"\xC0\xAF\"}",
      "{\"a\":\"unterminated}",
      "{\"a\":[}",
      "{\"a\":{]}",
  };
  for (std::string_view text : cases) {
    INFO(std::string(text));
    CHECK_FALSE(nlohmann::json::accept(text));
    CHECK(object_kind(text) == std::nullopt);
  }
}

TEST_CASE("json::object_kind accepts what a strict JSON parser accepts") {
  const std::string_view cases[] = {
      "0",
      "-0.5e+10",
      "[true,false,null,[],{}]",
      "{\"a\":\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"}",
      "{\"long\":\"abcdefghijklmnopqrstuvwxyz0123456789 abcdefghijklmnopqrstuvwxyz\"}",
      "{\"utf8\":\"h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80\"}",
      "{\"a\":{\"b\":{\"c\":[1,2,{\"kind\":\"deep\"}]}},\"kind\":\"Top\"}",
  };
  for (std::string_view text : cases) {
    INFO(std::string(text));
    CHECK(nlohmann::json::accept(text));
    CHECK(object_kind(text).has_value());
  }
}
