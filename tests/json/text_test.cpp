#include "json/text.hpp"

#include <doctest/doctest.h>

using namespace opm;
using opm::Json;

TEST_SUITE("json_text") {
  TEST_CASE("finds the end of the first value and ignores what follows") {
    CHECK(json::text::value_end(R"(  {"a": [1, 2]} trailing)") == 15);
    CHECK(json::text::value_end(R"("a\"b" x)") == 6);
    CHECK(json::text::value_end("-1.5e+3,") == 7);
    CHECK_FALSE(json::text::value_end("{a: 1}"));
    CHECK_FALSE(json::text::value_end(R"(["unterminated)"));
    CHECK(json::text::value_end("01") == 1);
    CHECK_FALSE(json::text::is_valid("01"));
  }

  TEST_CASE("validates whole texts") {
    CHECK(json::text::is_valid(" [true, false, null] "));
    CHECK_FALSE(json::text::is_valid("[1] [2]"));
    CHECK_FALSE(json::text::is_valid("\"tab\there\""));
    CHECK_FALSE(json::text::is_valid(R"("\x")"));
  }

  TEST_CASE("lists members in text order with their raw values") {
    auto members = json::text::object_members(R"({"z": {"b": 1, "a": 2}, "a\u0062": [ 1 ]})");
    REQUIRE(members);
    REQUIRE(members->size() == 2);
    CHECK((*members)[0].key == "z");
    CHECK((*members)[0].value == R"({"b": 1, "a": 2})");
    CHECK((*members)[1].key == "ab");
    CHECK((*members)[1].value == "[ 1 ]");
    CHECK_FALSE(json::text::object_members("[1]"));
  }

  TEST_CASE("decodes string literals as Go's decoder reads them") {
    using opm::json::text::string_value;
    CHECK(string_value(R"("plain")") == "plain");
    CHECK(string_value(R"("a\"b\\c\/d\b\f\n\r\t")") == "a\"b\\c/d\b\f\n\r\t");
    CHECK(string_value(R"("\u00e9\u2028")") == "\xC3\xA9\xE2\x80\xA8");
    CHECK(string_value(R"("\ud83d\ude00")") == "\xF0\x9F\x98\x80");            // a surrogate pair
    CHECK(string_value(R"("\ud83dx")") == "\xEF\xBF\xBDx");                    // a lone one: U+FFFD
    CHECK(string_value("\"caf\xC3\xA9 \xFF\"") == "caf\xC3\xA9 \xEF\xBF\xBD"); // bad UTF-8
    CHECK_FALSE(string_value(R"("open)"));
    CHECK_FALSE(string_value(R"("a" )"));
    CHECK_FALSE(string_value(R"("\x41")"));
    CHECK_FALSE(string_value("\"a\nb\""));
    CHECK_FALSE(string_value("plain"));
  }

  TEST_CASE("lists array elements") {
    auto elements = json::text::array_elements(R"([ null, {"a": 1} ,"x"])");
    REQUIRE(elements);
    CHECK(*elements == std::vector<std::string_view>{"null", R"({"a": 1})", R"("x")"});
  }

  TEST_CASE("compacts without touching strings, escapes or number spelling") {
    CHECK(json::text::compact(" { \"a b\" : [ 1.0 , \"\\u003c x \\\"\" ] } ") ==
          R"({"a b":[1.0,"\u003c x \""]})");
  }

  TEST_CASE("builds members in the order given") {
    json::text::Builder b;
    b.begin_object().key("z").string("<&>").key("a").begin_array().integer(-3).boolean(true);
    b.end_array().key("m").value(Json{{"y", 1}, {"b", 2}}).key("r").raw("[1.0]").end_object();
    CHECK(b.text() == R"({"z":"<&>","a":[-3,true],"m":{"b":2,"y":1},"r":[1.0]})");
  }
}
