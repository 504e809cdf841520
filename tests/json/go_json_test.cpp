#include "json/go_json.hpp"
#include "json/tree.hpp"
#include "util/go_format.hpp"
#include "yaml/split.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

using namespace opm;
using opm::Json;

TEST_SUITE("go json") {
  TEST_CASE("marshal escapes like Go's encoder with HTML escaping on") {
    Json v = Json::parse(
        R"({"b":[1,"<&>",1.5e21,1e-7,0.000001,true,null,-0.0],"a":"\u2028\u0001\b\f\t"})");
    CHECK(
        json::marshal(v) ==
        R"({"a":"\u2028\u0001\b\f\t","b":[1,"\u003c\u0026\u003e",1.5e+21,1e-7,0.000001,true,null,-0]})");
    CHECK(json::marshal(Json("\xff")) == R"("\ufffd")");
    CHECK(json::marshal(Json(std::uint64_t{18446744073709551615U})) == "18446744073709551615");
  }

  TEST_CASE("indent like json.Indent with four spaces") {
    CHECK(json::indent(R"({"a":[],"b":{},"c":[1,{"d":"x, y"}]})") ==
          "{\n    \"a\": [],\n    \"b\": {},\n    \"c\": [\n        1,\n        {\n"
          "            \"d\": \"x, y\"\n        }\n    ]\n}");
    CHECK(json::indent(" [ 1 , 2 ] ") == "[\n    1,\n    2\n]");
  }

  TEST_CASE("pretty unmarshal errors put the marker at the offset") {
    CHECK(json::pretty_unmarshal_error(R"({"a": [1, 2]})", "bad", 9) ==
          "bad at offset 9 (indicated by <==)\n{\n    \"a\": [\n        1, <== \n        2\n"
          "    ]\n}");
    CHECK(json::pretty_unmarshal_error("12", "bad", 2) ==
          "bad at offset 2 (indicated by <==)\n12 <==");
    CHECK(json::pretty_unmarshal_error("12", "bad", 3) == "bad");
  }

  TEST_CASE("a stream value records where it is") {
    std::string text = "  {\"a\": 1}  [2] ";
    auto first = json::read_stream_value(text, 0);
    REQUIRE(first.status == json::StreamValue::Status::value);
    CHECK(first.begin == 2);
    CHECK(first.end == 10);
    auto second = json::read_stream_value(text, first.end);
    CHECK(second.value == Json::parse("[2]"));
    CHECK(json::read_stream_value(text, second.end).status == json::StreamValue::Status::end);
  }

  TEST_CASE("strings with escapes between long plain runs decode whole") {
    std::string run(40, 'x');
    std::string text = "\"" + run + "\\n" + run + "\\\"caf\xC3\xA9\\u00e9\xFF" + run + "\"";
    auto read = json::read_stream_value(text, 0);
    REQUIRE(read.status == json::StreamValue::Status::value);
    CHECK(read.value == Json(run + "\n" + run + "\"caf\xC3\xA9\xC3\xA9\xEF\xBF\xBD" + run));
    auto bad = json::read_stream_value("\"" + run + "\\n" + run + "\n\"", 0);
    REQUIRE(bad.status == json::StreamValue::Status::syntax_error);
    CHECK(bad.message == "invalid character '\\n' in string literal");
    CHECK(bad.offset == 84);
    CHECK(json::read_stream_value("\"" + run + "\\n" + run, 0).status ==
          json::StreamValue::Status::unexpected_eof);
  }

  TEST_CASE("syntax errors carry Go's offset: the bad byte's index plus one") {
    auto bad = json::read_stream_value("{\"a\":1}\n{\"b\":}", 7);
    REQUIRE(bad.status == json::StreamValue::Status::syntax_error);
    CHECK(bad.message == "invalid character '}' looking for beginning of value");
    CHECK(bad.offset == 14);
    CHECK(json::read_stream_value("{\"a\":[1,", 0).status ==
          json::StreamValue::Status::unexpected_eof);
    CHECK(json::read_stream_value("-", 0).status == json::StreamValue::Status::unexpected_eof);
    CHECK(json::read_stream_value("12", 0).value == Json(12));
  }

  TEST_CASE("a number that overflows a float64 is noted with Go's offset") {
    auto read = json::read_stream_value(R"({"a": 1e999, "b": 2e999})", 0);
    REQUIRE(read.overflow_number.has_value());
    CHECK(*read.overflow_number == "1e999");
    CHECK(read.overflow_offset == 12);
  }

  TEST_CASE("errors for values that are not objects") {
    CHECK(json::map_type_error(Json(true), "true") ==
          "json: cannot unmarshal bool into Go value of type map[string]interface {} at offset 4 "
          "(indicated by <==)\ntrue <==");
    CHECK_FALSE(json::map_type_error(Json(nullptr), "null").has_value());
    CHECK_FALSE(json::map_type_error(Json::object(), "{}").has_value());
  }

  TEST_CASE("depth beyond Go's limit is found without recursion") {
    Json deep = Json::array();
    Json* at = &deep;
    for (int i = 0; i < 10000; ++i) {
      at->push_back(Json::array());
      at = &(*at)[0];
    }
    CHECK(json::too_deep(deep) == '[');
    CHECK_FALSE(json::too_deep(deep[0]).has_value());
    Json copy = json::deep_copy(deep);
    CHECK(json::too_deep(copy) == '[');
  }

  TEST_CASE("a deep copy of an object of many nested members is equal to it") {
    Json source = Json::object();
    for (int i = 0; i < 50; ++i) {
      source[fmt::format("k{:02}", i)] =
          Json::object({{"inner", Json::array({i, Json::object({{"x", i}})})}, {"name", "n"}});
    }
    const Json copy = json::deep_copy(source);
    CHECK(copy == source);
    CHECK(copy.dump() == source.dump());
  }
}

TEST_SUITE("go text") {
  TEST_CASE("FormatFloat shortest forms") {
    CHECK(util::format_float(1e21, 'g', 64) == "1e+21");
    CHECK(util::format_float(123456789.0, 'g', 64) == "1.23456789e+08");
    CHECK(util::format_float(0.0001, 'g', 64) == "0.0001");
    CHECK(util::format_float(0.1, 'g', 32) == "0.1");
    CHECK(util::format_float(-0.0, 'g', 64) == "-0");
    CHECK(util::format_float(1e-7, 'e', 64) == "1e-07");
    CHECK(util::format_float(1234.5, 'f', 64) == "1234.5");
  }

  TEST_CASE("JSON float text") {
    std::string out;
    opm::util::append_json_float(out, 1e20);
    out += ' ';
    opm::util::append_json_float(out, 1e-7);
    out += ' ';
    opm::util::append_json_float(out, 123.25);
    CHECK(out == "100000000000000000000 1e-7 123.25");
  }

  TEST_CASE("scanner errors name bytes as Go does") {
    CHECK(util::quote_char('x') == "'x'");
    CHECK(util::quote_char('\'') == R"('\'')");
    CHECK(util::quote_char('"') == R"('"')");
    CHECK(util::quote_char('\n') == R"('\n')");
    CHECK(util::quote_char(0x01) == R"('\x01')");
    CHECK(util::quote_char(0xe9) == "'\xC3\xA9'");
  }

  TEST_CASE("%#v of decoded YAML") {
    // Decoded YAML integers are int64; only those beyond int64 are uint64, printed in hex.
    Json value = Json::array({std::int64_t{1}, "a", nullptr, Json::object({{"k", true}})});
    CHECK(util::go_syntax(value) ==
          R"([]interface {}{1, "a", interface {}(nil), map[interface {}]interface {}{"k":true}})");
    CHECK(util::go_syntax(Json(nullptr)) == "<nil>");
    CHECK(util::go_syntax(Json(std::uint64_t{255})) == "0xff");
  }
}

TEST_SUITE("yaml split") {
  TEST_CASE("chunks and their text") {
    std::string stream = "a: 1\r\n---\r\nb: 2\r\n--- # c\nc: 3";
    yaml::Splitter splitter(stream);
    auto first = splitter.next();
    REQUIRE(first);
    REQUIRE(first->has_value());
    CHECK((*first)->line == 1);
    CHECK((*first)->text(stream) == "a: 1\n");
    auto second = splitter.next();
    CHECK((*second)->line == 3);
    CHECK((*second)->text(stream) == "b: 2\n");
    auto third = splitter.next();
    CHECK((*third)->line == 5);
    CHECK((*third)->unterminated);
    CHECK((*third)->text(stream) == "c: 3\n");
    CHECK_FALSE(splitter.next()->has_value());
  }

  TEST_CASE("a separator with text after it") {
    std::string stream = "a: 1\n--- \xc2\xa0x y \n";
    yaml::Splitter splitter(stream);
    auto next = splitter.next();
    REQUIRE_FALSE(next);
    CHECK(next.error().message == "invalid Yaml document separator: x y");
    CHECK(next.error().line == 2);
  }
}
