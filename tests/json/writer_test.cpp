#include "json/writer.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

using opm::Json;
namespace json = opm::json;

namespace {

std::string compact(const Json& v) { return json::to_text(v); }
std::string html_escaped(const Json& v) {
  return json::to_text(v, {.indent = 0, .escape_html = true});
}

} // namespace

TEST_SUITE("json::to_text") {
  TEST_CASE("escapes strings as Go's encoder does, without HTML escaping by default") {
    CHECK(compact("quote\" backslash\\ slash/") == R"("quote\" backslash\\ slash/")");
    CHECK(compact("\b\f\n\r\t") == R"("\b\f\n\r\t")");
    CHECK(compact(std::string("\x00\x01\x1f", 3)) == R"("\u0000\u0001\u001f")");
    CHECK(compact("<a href=\"x\">&</a>") == R"("<a href=\"x\">&</a>")");
    CHECK(compact("del\x7f") == "\"del\x7f\"");
    CHECK(compact("caf\xC3\xA9 \xF0\x9F\x9A\x80 \xC2\x85") ==
          "\"caf\xC3\xA9 \xF0\x9F\x9A\x80 \xC2\x85\"");
    CHECK(compact("ls\xE2\x80\xA8ps\xE2\x80\xA9") == R"("ls\u2028ps\u2029")");
  }

  TEST_CASE("escapes special characters wherever they sit in a long string") {
    const std::string base(20, 'a');
    for (std::size_t at = 0; at < base.size(); ++at) {
      CAPTURE(at);
      const auto with = [&](std::string_view inner) {
        return base.substr(0, at) + std::string(inner) + base.substr(at);
      };
      CHECK(compact(with("\"")) == "\"" + with("\\\"") + "\"");
      CHECK(compact(with("\x01")) == "\"" + with("\\u0001") + "\"");
      CHECK(compact(with("\xC3\xA9")) == "\"" + with("\xC3\xA9") + "\"");
      CHECK(compact(with("\xFF")) == "\"" + with("\\ufffd") + "\"");
      CHECK(html_escaped(with("&")) == "\"" + with("\\u0026") + "\"");
      CHECK(compact(with("&")) == "\"" + with("&") + "\"");
    }
  }

  TEST_CASE("escapes <, > and & when asked, as Go's default encoder does") {
    CHECK(html_escaped("<a>&b") == R"("\u003ca\u003e\u0026b")");
    CHECK(html_escaped(Json::object({{"k<", "v>"}})) == R"({"k\u003c":"v\u003e"})");
  }

  TEST_CASE("writes each byte of invalid UTF-8 as \\ufffd") {
    CHECK(compact("a\xFF\xFE"
                  "b") == R"("a\ufffd\ufffdb")");
    CHECK(compact("cut\xE2\x82") == R"("cut\ufffd\ufffd")");
    CHECK(compact("surrogate\xED\xA0\x80") == R"("surrogate\ufffd\ufffd\ufffd")");
    CHECK(compact("overlong\xC0\xAF") == R"("overlong\ufffd\ufffd")");
  }

  TEST_CASE("keeps backslash-u text as data") {
    CHECK(compact("echo \\u003e\\u003e /dev/null") == R"("echo \\u003e\\u003e /dev/null")");
  }

  TEST_CASE("formats float64 values as encoding/json does") {
    CHECK(compact(1.0) == "1");
    CHECK(compact(1234567.0) == "1234567");
    CHECK(compact(0.5) == "0.5");
    CHECK(compact(-2.25) == "-2.25");
    CHECK(compact(0.1) == "0.1");
    CHECK(compact(-0.0) == "-0");
    CHECK(compact(0.000001) == "0.000001");
    CHECK(compact(1e-7) == "1e-7");
    CHECK(compact(1.5e-10) == "1.5e-10");
    CHECK(compact(1e20) == "100000000000000000000");
    CHECK(compact(12345678901234567890.0) == "12345678901234567000");
    CHECK(compact(1e21) == "1e+21");
    CHECK(compact(1.5e300) == "1.5e+300");
    CHECK(compact(5e-324) == "5e-324");
    CHECK(compact(1e-100) == "1e-100");
  }

  TEST_CASE("writes integers as they are") {
    CHECK(compact(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
    CHECK(compact(std::numeric_limits<std::uint64_t>::max()) == "18446744073709551615");
  }

  TEST_CASE("writes objects with their keys in stored order, compact or indented") {
    const Json v = {{"b", Json::array({1, Json::object(), Json::array()})},
                    {"a", nullptr},
                    {"c", {{"d", true}, {"e", "x"}}}};
    CHECK(compact(v) == R"({"a":null,"b":[1,{},[]],"c":{"d":true,"e":"x"}})");
    CHECK(json::to_text(v, {.indent = 4}) == R"({
    "a": null,
    "b": [
        1,
        {},
        []
    ],
    "c": {
        "d": true,
        "e": "x"
    }
})");
    CHECK(json::to_text(Json::object(), {.indent = 4}) == "{}");
    CHECK(json::to_text(Json::array({Json::array({1})}), {.indent = 2}) == "[\n  [\n    1\n  ]\n]");
  }

  TEST_CASE("appends to what is already in the buffer") {
    std::string out = "x=";
    json::append(out, Json::array({1, 2}));
    CHECK(out == "x=[1,2]");
  }
}
