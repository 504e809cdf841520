#include "catalog/decode.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

using opm::Json;
using opm::catalog::decode_stream;
using opm::catalog::decode_stream_until_error;
using opm::catalog::Document;
using opm::catalog::yaml_to_json;

namespace {

// The documents of a stream that must decode.
std::vector<Json> decode_ok(std::string_view text) {
  auto decoded = decode_stream(text, "catalog.yaml");
  if (!decoded) {
    FAIL("unexpected error: ", decoded.error().describe());
  }
  std::vector<Json> values;
  for (auto& doc : *decoded) {
    values.push_back(std::move(doc.value));
  }
  return values;
}

// The one document of a stream that must decode.
Json decode_one(std::string_view text) {
  auto values = decode_ok(text);
  REQUIRE(values.size() == 1);
  return values[0];
}

opm::Error decode_error(std::string_view text) {
  auto decoded = decode_stream(text, "catalog.yaml");
  REQUIRE_FALSE(decoded.has_value());
  return decoded.error();
}

std::string error_text(std::string_view text) { return decode_error(text).message(); }

std::string where(std::string_view text) {
  auto error = decode_error(text);
  REQUIRE(error.where().has_value());
  return error.where()->describe();
}

// The value of key "a" in a one-document stream.
Json value_of_a(std::string_view text) { return decode_one(text).at("a"); }

} // namespace

TEST_SUITE("decode: YAML 1.1 scalars") {
  TEST_CASE("every YAML 1.1 spelling of true and false is a boolean") {
    CHECK(value_of_a("a: [y, Y, yes, Yes, YES, on, On, ON, true, True, TRUE]\n") ==
          Json::parse("[true,true,true,true,true,true,true,true,true,true,true]"));
    CHECK(value_of_a("a: [n, N, no, No, NO, off, Off, OFF, false, False, FALSE]\n") ==
          Json::parse("[false,false,false,false,false,false,false,false,false,false,false]"));
  }

  TEST_CASE("other capitalisations stay strings") {
    CHECK(value_of_a("a: [tRUE, yEs, nULL, Yes!]\n") ==
          Json::parse(R"(["tRUE","yEs","nULL","Yes!"])"));
  }

  TEST_CASE("nulls: tilde, null in three spellings, and an empty value") {
    CHECK(value_of_a("a: [~, null, Null, NULL]\n") == Json::parse("[null,null,null,null]"));
    CHECK(decode_one("a:\nb: 1\n") == Json::parse(R"({"a":null,"b":1})"));
  }

  TEST_CASE("integers in every base go-yaml reads") {
    Json a = value_of_a("a: [0755, 0o17, 0x1F, 0b101, 1_000, -0x1F, +12, 0, -0, 00]\n");
    CHECK(a == Json::parse("[493,15,31,5,1000,-31,12,0,0,0]"));
    CHECK(a[0].is_number_integer());
  }

  TEST_CASE("a leading zero that is not octal makes a float") {
    Json a = value_of_a("a: [09, 08.5]\n");
    CHECK(a[0].is_number_float());
    CHECK(a[0].get<double>() == 9.0);
    CHECK(a[1].get<double>() == 8.5);
  }

  TEST_CASE("integers beyond int64 are uint64, beyond uint64 floats") {
    Json a = value_of_a("a: [9223372036854775807, 9223372036854775808, 18446744073709551616, "
                        "-9223372036854775809]\n");
    CHECK(a[0].is_number_integer());
    CHECK(a[0].get<std::int64_t>() == 9223372036854775807);
    CHECK(a[1].is_number_unsigned());
    CHECK(a[1].get<std::uint64_t>() == 9223372036854775808U);
    CHECK(a[2].is_number_float());
    CHECK(a[3].is_number_float());
  }

  TEST_CASE("floats keep their value and type") {
    Json a = value_of_a("a: [1.0, 1.10, 1e3, .5, -.5, 1., 1_0.5, 1e-400]\n");
    std::vector<double> expected = {1.0, 1.1, 1000.0, 0.5, -0.5, 1.0, 10.5, 0.0};
    REQUIRE(a.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(a[i].is_number_float());
      CHECK(a[i].get<double>() == expected[i]);
    }
  }

  TEST_CASE("numbers too large for a float64 stay strings") {
    CHECK(value_of_a("a: [1e400, -1e400]\n") == Json::parse(R"(["1e400","-1e400"])"));
  }

  TEST_CASE("timestamps and base 60 numbers stay strings") {
    CHECK(value_of_a("a: [2021-01-01, 1:20, 3:25:45, 2001-12-14t21:59:43.10-05:00]\n") ==
          Json::parse(R"(["2021-01-01","1:20","3:25:45","2001-12-14t21:59:43.10-05:00"])"));
  }

  TEST_CASE("quoted and block scalars are strings") {
    CHECK(decode_one("a: 'y'\nb: \"1\"\nc: |\n  yes\nd: >\n  no\n") ==
          Json::parse(R"({"a":"y","b":"1","c":"yes\n","d":"no\n"})"));
  }

  TEST_CASE("explicit tags") {
    CHECK(value_of_a("a: [!!str 123, !!int '12', !!float 1, !!bool yes, !!null ~, ! 123, "
                     "!custom bar, !!binary aGVsbG8=, !!timestamp 2001-01-01]\n") ==
          Json::parse(R"(["123",12,1.0,true,null,"123","bar","hello","2001-01-01"])"));
    CHECK(value_of_a("a: !!float 1\n").is_number_float());
  }

  TEST_CASE("a tag that does not fit the value fails like go-yaml") {
    CHECK(error_text("a: !!int 1.5\n") ==
          "error converting YAML to JSON: yaml: cannot decode !!float `1.5` as a !!int");
    CHECK(error_text("a: !!timestamp foo\n") ==
          "error converting YAML to JSON: yaml: cannot decode !!str `foo` as a !!timestamp");
    CHECK(error_text("a: !!binary aGVsbG8\n") ==
          "error converting YAML to JSON: yaml: !!binary value contains invalid base64 data");
  }

  TEST_CASE("binary data that is not UTF-8 becomes U+FFFD") {
    CHECK(value_of_a("a: !!binary /w==\n") == Json("\xEF\xBF\xBD"));
  }

  TEST_CASE("infinities and NaN cannot be JSON") {
    CHECK(error_text("a: .inf\n") ==
          "error converting YAML to JSON: json: unsupported value: +Inf");
    CHECK(error_text("a: [-.Inf]\n") ==
          "error converting YAML to JSON: json: unsupported value: -Inf");
    CHECK(error_text("a: .NaN\n") == "error converting YAML to JSON: json: unsupported value: NaN");
    // json.Marshal meets keys in sorted order.
    CHECK(error_text("b: .nan\na: -.inf\n") ==
          "error converting YAML to JSON: json: unsupported value: -Inf");
  }

  TEST_CASE("an infinity that is overwritten does no harm") {
    CHECK(decode_one("a: .inf\na: 1\n") == Json::parse(R"({"a":1})"));
  }
}

TEST_SUITE("decode: keys") {
  TEST_CASE("keys are resolved, then turned into strings") {
    Json doc = decode_one("y: 1\nn: 2\non: 3\n1: 4\ntrue: 5\n0x10: 6\n1.5: 7\n1e10: 8\n"
                          "1000000.0: 9\n0.0001: 10\n0.00001: 11\n.inf: 12\n-.inf: 13\n"
                          "2001-01-01: 14\n");
    CHECK(doc == Json::parse(R"({"true":5,"false":2,"1":4,"16":6,"1.5":7,"1e+10":8,
                                 "1e+06":9,"0.0001":10,"1e-05":11,".inf":12,"-.inf":13,
                                 "2001-01-01":14})"));
  }

  TEST_CASE("float keys are printed with float32 precision") {
    Json doc = decode_one("123456789.0: a\n3.14159265358979: b\n1e39: c\n");
    CHECK(doc == Json::parse(R"({"1.2345679e+08":"a","3.1415927":"b",".inf":"c"})"));
  }

  TEST_CASE("the last of duplicate keys wins") {
    CHECK(decode_one("dup: 1\nother: x\ndup: 2\n") == Json::parse(R"({"dup":2,"other":"x"})"));
  }

  TEST_CASE("keys come out in byte order") {
    Json doc = decode_one("b: 1\nB: 2\n_: 3\na: 4\n");
    std::vector<std::string> keys;
    for (const auto& [key, value] : doc.items()) {
      keys.push_back(key);
    }
    CHECK(keys == std::vector<std::string>{"B", "_", "a", "b"});
  }

  TEST_CASE("collections as keys are an error") {
    CHECK(error_text("? [a, b]\n: c\n") ==
          "error converting YAML to JSON: yaml: invalid map key: []interface {}{\"a\", \"b\"}");
    CHECK(error_text("? {a: 1}\n: c\n") == "error converting YAML to JSON: yaml: invalid map key: "
                                           "map[interface {}]interface {}{\"a\":1}");
  }

  TEST_CASE("null and uint64 keys cannot be JSON keys") {
    CHECK(error_text("~: a\n") == "error converting YAML to JSON: unsupported map key of type: "
                                  "%!s(<nil>), key: <nil>, value: \"a\"");
    CHECK(error_text("18446744073709551615: [1]\n") ==
          "error converting YAML to JSON: unsupported map key of type: uint64, key: "
          "0xffffffffffffffff, value: []interface {}{1}");
  }

  TEST_CASE("a null key in a mapping that is then overwritten does no harm") {
    CHECK(decode_one("a: {~: 1}\na: 2\n") == Json::parse(R"({"a":2})"));
  }
}

TEST_SUITE("decode: anchors, aliases and merge keys") {
  TEST_CASE("aliases are expanded") {
    CHECK(decode_one("x: &a {p: [1, 2]}\nz: *a\n") ==
          Json::parse(R"({"x":{"p":[1,2]},"z":{"p":[1,2]}})"));
  }

  TEST_CASE("an anchored mapping of many nested members is kept whole") {
    std::string text = "x: &a\n";
    Json members = Json::object();
    for (int i = 0; i < 40; ++i) {
      text += "  m" + std::to_string(i + 10) + ": {p: [" + std::to_string(i) + ", {q: 1}]}\n";
      members["m" + std::to_string(i + 10)] =
          Json::parse(R"({"p":[)" + std::to_string(i) + R"(,{"q":1}]})");
    }
    text += "z: *a\n";
    CHECK(decode_one(text) == Json({{"x", members}, {"z", members}}));
  }

  TEST_CASE("a merge key adds the entries of a mapping; later keys win") {
    CHECK(decode_one("base: &b {a: 1, b: 2}\nd:\n  <<: *b\n  b: 3\n") ==
          Json::parse(R"({"base":{"a":1,"b":2},"d":{"a":1,"b":3}})"));
  }

  TEST_CASE("a merge after a key overwrites it, as in go-yaml v2") {
    CHECK(decode_one("b: &b {a: 1}\nd:\n  a: 0\n  <<: *b\n") ==
          Json::parse(R"({"b":{"a":1},"d":{"a":1}})"));
  }

  TEST_CASE("in a list of merged mappings the earlier one wins") {
    CHECK(decode_one("b: &b {a: 1, b: 2}\nc: &c {b: 3, c: 4}\nd:\n  <<: [*b, *c]\n")["d"] ==
          Json::parse(R"({"a":1,"b":2,"c":4})"));
  }

  TEST_CASE("a quoted << is an ordinary key") {
    CHECK(decode_one("d:\n  '<<': 1\n") == Json::parse(R"({"d":{"<<":1}})"));
  }

  TEST_CASE("merging anything but mappings fails") {
    std::string message = "error converting YAML to JSON: yaml: map merge requires map or "
                          "sequence of maps as the value";
    CHECK(error_text("d:\n  <<: 1\n") == message);
    CHECK(error_text("d:\n  <<: [1]\n") == message);
    CHECK(error_text("s: &s [1]\nd:\n  <<: *s\n") == message);
  }

  TEST_CASE("alias errors") {
    CHECK(error_text("a: *x\n") == "error converting YAML to JSON: yaml: unknown anchor 'x' "
                                   "referenced");
    CHECK(error_text("a: &x [*x]\n") ==
          "error converting YAML to JSON: yaml: anchor 'x' value contains itself");
  }

  TEST_CASE("an anchor can be redefined") {
    CHECK(decode_one("a: &x 1\nb: &x 2\nc: *x\n") == Json::parse(R"({"a":1,"b":2,"c":2})"));
  }

  TEST_CASE("copies of a large value through aliases are refused before memory runs out") {
    // A deliberate limit: go-yaml shares the string, then fails to marshal gigabytes.
    std::string text = "a: &a " + std::string(1 << 20, 'x') + "\nb: [";
    for (int i = 0; i < 200; ++i) {
      text += i == 0 ? "*a" : ", *a";
    }
    text += "]\n";
    CHECK(error_text(text) ==
          "error converting YAML to JSON: yaml: document contains excessive aliasing");
    CHECK(decode_one("a: &a " + std::string(1000, 'x') + "\nb: [*a, *a]\n")["b"].size() == 2);
  }

  TEST_CASE("alias bombs are refused") {
    std::string text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
    char previous = 'a';
    for (char name = 'b'; name <= 'j'; ++name) {
      text += std::string(1, name) + ": &" + name + " [";
      for (int i = 0; i < 10; ++i) {
        text += std::string(i == 0 ? "" : ", ") + "*" + previous;
      }
      text += "]\n";
      previous = name;
    }
    CHECK(error_text(text) ==
          "error converting YAML to JSON: yaml: document contains excessive aliasing");
  }
}

TEST_SUITE("decode: YAML streams") {
  TEST_CASE("an empty file has no documents") { CHECK(decode_ok("").empty()); }

  TEST_CASE("documents are split on --- lines and know their first line") {
    auto decoded = decode_stream("---\nschema: a\n--- # comment\nschema: b\n---\t\nschema: c\n",
                                 "catalog.yaml");
    REQUIRE(decoded);
    REQUIRE(decoded->size() == 3);
    CHECK((*decoded)[0].value == Json::parse(R"({"schema":"a"})"));
    CHECK((*decoded)[0].line == 1);
    CHECK((*decoded)[1].line == 4);
    CHECK((*decoded)[2].line == 6);
  }

  TEST_CASE("text after --- other than a comment is an error") {
    CHECK(error_text("schema: a\n---x\n") == "invalid Yaml document separator: x");
    CHECK(error_text("schema: a\n--- b: 1\n") == "invalid Yaml document separator: b: 1");
    CHECK(where("schema: a\n----\n") == "catalog.yaml:2");
  }

  TEST_CASE("a final --- is fine, a blank line after it is an empty document") {
    CHECK(decode_ok("schema: a\n---\n").size() == 1);
    CHECK(error_text("schema: a\n---\n\n") == "object '' is missing root schema field");
    CHECK(where("schema: a\n---\n\n") == "catalog.yaml:3");
  }

  TEST_CASE("a document of only comments or blanks is an error") {
    CHECK(error_text("# just a comment\n") == "object '' is missing root schema field");
    CHECK(error_text("\n") == "object '' is missing root schema field");
    CHECK(error_text("# comment\n---\nschema: a\n") == "object '' is missing root schema field");
  }

  TEST_CASE("repeated separators at the start make an empty document") {
    CHECK(error_text("---\n---\nschema: a\n") == "object '' is missing root schema field");
    CHECK(decode_ok("schema: a\n---\n---\nschema: b\n").size() == 2);
  }

  TEST_CASE("CRLF line ends are fine, also in block scalars") {
    CHECK(decode_ok("schema: a\r\n---\r\nschema: b\r\nt: |\r\n  x\r\n  y\r\n") ==
          std::vector<Json>{Json::parse(R"({"schema":"a"})"),
                            Json::parse(R"({"schema":"b","t":"x\ny\n"})")});
  }

  TEST_CASE("a last line without a line break") {
    CHECK(decode_one("schema: a") == Json::parse(R"({"schema":"a"})"));
  }

  TEST_CASE("a UTF-8 byte order mark makes the file YAML, which reads fine") {
    CHECK(decode_one("\xEF\xBB\xBFschema: a\n") == Json::parse(R"({"schema":"a"})"));
    CHECK(decode_one("\xEF\xBB\xBF{\"schema\":\"a\"}") == Json::parse(R"({"schema":"a"})"));
  }

  TEST_CASE("documents that are not objects are rejected with the value pretty-printed") {
    CHECK(error_text("schema: a\n---\n- x\n- {b: 2, a: \"<\"}\n") ==
          "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go "
          "value of type map[string]interface {} at offset 1 (indicated by <==)\n"
          "[ <== \n    \"x\",\n    {\n        \"a\": \"\\u003c\",\n        \"b\": 2\n    }\n]");
    CHECK(error_text("hello world\n") ==
          "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go "
          "value of type map[string]interface {} at offset 13 (indicated by <==)\n"
          "\"hello world\" <==");
    CHECK(error_text("42\n") == "error unmarshaling JSON: while decoding JSON: json: cannot "
                                "unmarshal number into Go value of type map[string]interface {} "
                                "at offset 2 (indicated by <==)\n42 <==");
    CHECK(error_text("true\n") == "error unmarshaling JSON: while decoding JSON: json: cannot "
                                  "unmarshal bool into Go value of type map[string]interface {} "
                                  "at offset 4 (indicated by <==)\ntrue <==");
    CHECK(where("schema: a\n---\n- x\n") == "catalog.yaml:3");
  }

  TEST_CASE("text after the first document of a chunk is an error, not dropped as in go-yaml") {
    opm::Error error = decode_error("a: 1\n...\ngarbage: [\n");
    CHECK(error.describe() == "catalog.yaml:3:1: error converting YAML to JSON: yaml: line 2: did "
                              "not find expected <document start>");
    error = decode_error("a: 1\n...\nb: 2\n");
    CHECK(error.describe() == "catalog.yaml:3:1: error converting YAML to JSON: yaml: line 2: did "
                              "not find expected <document start>");
    error = decode_error("{\"a\": 1,}\n{\"b\": 2}\n");
    CHECK(error.describe() == "catalog.yaml:1:9: json: offset 9: invalid character '}' looking "
                              "for beginning of object key string");
    CHECK(decode_one("{\"a\": 1,}\n") == Json::parse(R"({"a":1})"));
  }

  TEST_CASE("a long string on one line") {
    std::string data(300000, 'Q');
    data[1000] = '+';
    Json doc = decode_one("a:\n  data: " + data + "\n  b: 1\n");
    CHECK(doc["a"]["data"].get<std::string>() == data);
    CHECK(doc["a"]["b"] == 1);
  }

  TEST_CASE("a long value that continues on the next line is folded") {
    std::string data(1000, 'A');
    CHECK(decode_one("a: " + data + "\n  more\n")["a"] == Json(data + " more"));
  }

  TEST_CASE("a long value inside a literal block is kept as text") {
    std::string data(1000, 'A');
    CHECK(decode_one("a: |\n  b: " + data + "\n")["a"] == Json("b: " + data + "\n"));
  }

  TEST_CASE("literal blocks keep libyaml's values: chomping, empty and deeper lines") {
    std::string pad = "#" + std::string(300, '.') + "\n";
    Json doc =
        decode_one(pad + "a:\n"
                         "  clip: |\n    x\n     y\n\n\n  strip: |-\n    x\n\n\n"
                         "  keep: |+\n    x\n  \n\n  spaces: |\n    x\n      \n    \tz\n"
                         "  text: |\n    \"1\": [true, ~] # not a comment\n    caf\xC3\xA9\n");
    CHECK(doc == Json{{"a",
                       {{"clip", "x\n y\n"},
                        {"strip", "x"},
                        {"keep", "x\n\n\n"},
                        {"spaces", "x\n  \n\tz\n"},
                        {"text", "\"1\": [true, ~] # not a comment\ncaf\xC3\xA9\n"}}}});
  }

  TEST_CASE("literal blocks in sequences and inside other blocks") {
    std::string pad = "#" + std::string(300, '.') + "\n";
    Json doc = decode_one(pad + "items:\n- name: a\n  value: |-\n    1\n- name: b\n"
                                "outer: |\n  inner: |\n    x\n  y\n");
    CHECK(doc["items"] == Json::parse(R"([{"name":"a","value":"1"},{"name":"b"}])"));
    CHECK(doc["outer"] == "inner: |\n  x\ny\n");
  }

  TEST_CASE("a literal block that ends the document keeps its value") {
    std::string pad = "#" + std::string(300, '.') + "\n";
    CHECK(decode_one(pad + "a: |\n  x\n\n")["a"] == "x\n");
    CHECK(decode_one(pad + "a: |-\n  x\n  y")["a"] == "x\ny");
    CHECK(decode_one(pad + "a: |+\n  x\n\n")["a"] == "x\n\n");
  }

  TEST_CASE("a long number keeps its YAML type") {
    std::string digits(400, '9');
    CHECK(decode_one("a: " + digits + "\n")["a"] == Json(digits));
    CHECK(decode_one("a: " + std::string(300, '0') + "1\n")["a"] == Json(1));
  }
}

TEST_SUITE("decode: YAML errors") {
  TEST_CASE("syntax errors count lines from the start of the document") {
    std::string text = "a: 1\n---\nb: [1\n";
    CHECK(error_text(text) ==
          "error converting YAML to JSON: yaml: line 1: did not find expected ',' or ']'");
    CHECK(where(text) == "catalog.yaml:4:1");
  }

  TEST_CASE("scanner errors name the line one-based") {
    std::string text = "a: 1\nb: c: d\n";
    CHECK(error_text(text) ==
          "error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this "
          "context");
    CHECK(where(text) == "catalog.yaml:2:5");
  }

  TEST_CASE("an error on the first line names no line") {
    CHECK(error_text("a: 'x\n") == "error converting YAML to JSON: yaml: line 2: found unexpected "
                                   "end of stream");
    CHECK(error_text("a: @x\n") == "error converting YAML to JSON: yaml: found character that "
                                   "cannot start any token");
  }

  TEST_CASE("tabs in indentation") {
    CHECK(error_text("a:\n\tb: 1\n") == "error converting YAML to JSON: yaml: line 2: found "
                                        "character that cannot start any token");
  }

  TEST_CASE("invalid UTF-8 and control characters") {
    CHECK(error_text("a: [1, 2]\nb: \xff\n") ==
          "error converting YAML to JSON: yaml: invalid leading UTF-8 octet");
    CHECK(where("a: [1, 2]\nb: \xff\n") == "catalog.yaml:2:4");
    CHECK(error_text("a: \x01\n") ==
          "error converting YAML to JSON: yaml: control characters are not allowed");
  }

  TEST_CASE("escapes go-yaml does not know, and one it does") {
    CHECK(error_text("x: 1\ny: \"\\/\"\n") ==
          "error converting YAML to JSON: yaml: line 2: found unknown escape character");
    CHECK(decode_one("a: \"it\\'s\"\n") == Json::parse(R"({"a":"it's"})"));
  }

  TEST_CASE("a \\/ escape that libyaml only scanned ahead is still an error") {
    CHECK(error_text("7x: 1\n*a \"\\/\"\"\n") ==
          "error converting YAML to JSON: yaml: line 2: found unknown escape character");
    CHECK(error_text("{\"a\":} \"\\/\"") ==
          "json: offset 6: invalid character '}' looking for beginning of value");
  }

  TEST_CASE("tags may hold commas and brackets, as in go-yaml") {
    CHECK(decode_one("a: [!t,x y]\n") == Json::parse(R"({"a":["y"]})"));
    CHECK(decode_one("a: !!]timestamp foo\n") == Json::parse(R"({"a":"foo"})"));
  }

  TEST_CASE("version numbers have at most two digits") {
    CHECK(error_text("%YAML 101\n") ==
          "error converting YAML to JSON: yaml: found extremely long version number");
  }

  TEST_CASE("a question mark ends a plain scalar in a flow collection") {
    CHECK(error_text("a: [b?c]\n") ==
          "error converting YAML to JSON: yaml: did not find expected ',' or ']'");
    CHECK(error_text("x: 1\na: {b: c?d}\n") ==
          "error converting YAML to JSON: yaml: line 1: did not find expected ',' or '}'");
  }

  TEST_CASE("a colon before a flow indicator stays in the scalar") {
    CHECK(decode_one("a: [a:, {b: c:}]\n") == Json::parse(R"({"a":["a:",{"b":"c:"}]})"));
  }

  TEST_CASE("a %YAML directive is cut off from its document by the --- line") {
    CHECK(error_text("%YAML 1.2\n---\na: 1\n") ==
          "error converting YAML to JSON: yaml: found incompatible YAML document");
    CHECK(error_text("%YAML 1.1\n---\na: 1\n") ==
          "error converting YAML to JSON: yaml: line 1: did not find expected <document start>");
  }

  TEST_CASE("deep nesting is refused, without exhausting the stack") {
    CHECK(error_text(std::string(100000, '[') + "\n") ==
          "error converting YAML to JSON: yaml: exceeded max depth of 10000");
    std::string sequences;
    for (int i = 0; i < 10001; ++i) {
      sequences += "- ";
    }
    CHECK(error_text(sequences + "x\n") ==
          "error converting YAML to JSON: yaml: exceeded max depth of 10000");
  }

  TEST_CASE("JSON deeper than Go's decoder takes is refused") {
    std::string text = "a: " + std::string(10000, '[') + std::string(10000, ']') + "\n";
    CHECK(error_text(text) == "error unmarshaling JSON: while decoding JSON: invalid character "
                              "'[' exceeded max depth");
  }

  TEST_CASE("documents before a failure are kept") {
    auto decoded = decode_stream_until_error("schema: a\n---\nschema: b\n---\n- x\n", "c.yaml");
    CHECK(decoded.documents.size() == 2);
    REQUIRE(decoded.error.has_value());
    CHECK(decoded.error->where()->describe() == "c.yaml:5");
  }
}

TEST_SUITE("decode: JSON streams") {
  TEST_CASE("values one after another, with or without space") {
    CHECK(decode_ok(R"({"a":1}{"b":2})") ==
          std::vector<Json>{Json::parse(R"({"a":1})"), Json::parse(R"({"b":2})")});
    auto decoded = decode_stream("\n  {\"a\":1}\n\n{\"b\":2}\n", "c.json");
    REQUIRE(decoded);
    REQUIRE(decoded->size() == 2);
    CHECK((*decoded)[0].line == 2);
    CHECK((*decoded)[1].line == 4);
  }

  TEST_CASE("JSON text keeps numbers exact and reads strings like Go") {
    Json doc = decode_one(
        R"({"i":12345678901234567890,"f":1.5,"z":-0,"e":"\u00e9\/","s":"\ud83d\ude00"})");
    CHECK(doc["i"].is_number_unsigned());
    CHECK(doc["f"].get<double>() == 1.5);
    CHECK(doc["z"].is_number_float());
    CHECK(std::signbit(doc["z"].get<double>()));
    CHECK(doc["e"] == Json("\xC3\xA9/"));
    CHECK(doc["s"] == Json("\xF0\x9F\x98\x80"));
  }

  TEST_CASE("invalid UTF-8 and lone surrogates become U+FFFD") {
    CHECK(decode_one("{\"a\":\"x\xff\xfe\"}")["a"] == Json("x\xEF\xBF\xBD\xEF\xBF\xBD"));
    CHECK(decode_one(R"({"a":"\ud800A"})")["a"] == Json("\xEF\xBF\xBD"
                                                        "A"));
  }

  TEST_CASE("a syntax error in the first values is retried as YAML; if that fails too, the "
            "JSON error is reported with its offset") {
    std::string text = "{\"a\":1}\nx";
    CHECK(error_text(text) == "json: offset 9: invalid character 'x' looking for beginning of "
                              "value");
    CHECK(where(text) == "catalog.yaml:2:1");
  }

  TEST_CASE("YAML that starts like JSON loads through the fallback") {
    CHECK(decode_one("{schema: x.y, a: 1}") == Json::parse(R"({"schema":"x.y","a":1})"));
    CHECK(decode_ok("{\"schema\":\"a\"}\n---\nschema: b\n") ==
          std::vector<Json>{Json::parse(R"({"schema":"a"})"), Json::parse(R"({"schema":"b"})")});
    CHECK(decode_ok("{\"a\":1}\n{\"b\":}\n") ==
          std::vector<Json>{Json::parse(R"({"a":1})"), Json::parse(R"({"b":null})")});
  }

  TEST_CASE("after two values an error is final, without the offset") {
    std::string text = "{\"a\":1}\n{\"b\":2}\n{\"c\":[1 2]}\n";
    CHECK(error_text(text) == "invalid character '2' after array element");
    CHECK(where(text) == "catalog.yaml:3:9");
  }

  TEST_CASE("a value cut short") { CHECK(error_text("{\"a\":1}{\"b\":2}{") == "unexpected EOF"); }

  TEST_CASE("values that are not objects") {
    CHECK(error_text("{\"a\":1}{\"b\":2}\"s\"") ==
          "json: cannot unmarshal string into Go value of type map[string]interface {} at "
          "offset 3 (indicated by <==)\n\"s\" <==");
    CHECK(error_text("{\"a\":1}{\"b\":2}null") == "object 'null\n' is missing root schema field");
  }

  TEST_CASE("numbers too large for a float64 fail once the stream is surely JSON") {
    CHECK(error_text("{\"a\":1}{\"b\":2}{\"c\": [1e400]}") ==
          "json: cannot unmarshal number 1e400 into Go value of type float64 at offset 13 "
          "(indicated by <==)\n{\n    \"c\": [\n        1e400\n    ] <== \n}");
    // Before that, the YAML reading of the same text decides: 1e400 is a string there.
    CHECK(decode_one("{\"a\":1e400}") == Json::parse(R"({"a":"1e400"})"));
  }

  TEST_CASE("Go's scanner messages") {
    auto third = [](std::string_view value) { return error_text("{}{}" + std::string(value)); };
    CHECK(third("{\"a\":01}") == "invalid character '1' after object key:value pair");
    CHECK(third("{\"a\":-}") == "invalid character '}' in numeric literal");
    CHECK(third("{\"a\":1.}") == "invalid character '}' after decimal point in numeric literal");
    CHECK(third("{\"a\":1e}") == "invalid character '}' in exponent of numeric literal");
    CHECK(third("{\"a\":tru}") == "invalid character '}' in literal true (expecting 'e')");
    CHECK(third("{\"a\":\"\\x\"}") == "invalid character 'x' in string escape code");
    CHECK(third("{\"a\":\"\\u12g4\"}") == "invalid character 'g' in \\u hexadecimal character "
                                          "escape");
    CHECK(third("{\"a\":\"x\ny\"}") == "invalid character '\\n' in string literal");
    CHECK(third("{\"a\":1,}") == "invalid character '}' looking for beginning of object key "
                                 "string");
    CHECK(third("{\"a\" 1}") == "invalid character '1' after object key");
    CHECK(third("{'a':1}") == "invalid character '\\'' looking for beginning of object key "
                              "string");
  }

  TEST_CASE("nesting deeper than 10000 is a syntax error, not a crash") {
    CHECK(error_text("{}{}" + std::string(100000, '[')) ==
          "invalid character '[' exceeded max depth");
  }

  TEST_CASE("JSON is recognised after up to 4096 bytes of space") {
    CHECK(decode_one(std::string(4095, ' ') + "{\"a\":1}") == Json::parse(R"({"a":1})"));
    // Past that the file is YAML, and a flow mapping there is fine too.
    CHECK(decode_one(std::string(4096, ' ') + "{\"a\":1}") == Json::parse(R"({"a":1})"));
  }
}

TEST_SUITE("yaml_to_json") {
  TEST_CASE("converts one document of any type") {
    CHECK(*yaml_to_json("- 1\n- b: y\n") == Json::parse(R"([1,{"b":true}])"));
    CHECK(*yaml_to_json("") == Json(nullptr));
    CHECK(*yaml_to_json("a: 1\n---\nb: 2\n") == Json::parse(R"({"a":1})"));
    CHECK(*yaml_to_json("{\"a\": 0777}") == Json::parse(R"({"a":511})"));
  }

  TEST_CASE("errors have no prefix") {
    auto result = yaml_to_json("a: [1\n");
    REQUIRE_FALSE(result);
    CHECK(result.error().message() == "yaml: line 1: did not find expected ',' or ']'");
    CHECK(yaml_to_json(".inf\n").error().message() == "json: unsupported value: +Inf");
  }
}

TEST_CASE("a document says whether its decoder made integers, for number normalising") {
  auto has_integers = [](std::string_view text) {
    auto decoded = decode_stream(text, "catalog");
    REQUIRE(decoded);
    std::vector<bool> flags;
    for (const Document& doc : *decoded) {
      flags.push_back(doc.has_integers);
    }
    return flags;
  };
  CHECK(has_integers("{\"a\":\"1\",\"b\":[true,null,1.5]}\n{\"c\":{\"d\":7}}\n") ==
        std::vector<bool>{false, true});
  CHECK(has_integers("{\"big\":18446744073709551615}") == std::vector<bool>{true});
  CHECK(has_integers("a: '1'\nb: [x, 2.5]\n---\nc:\n  d: 0x1F\n---\ne: [1]\n") ==
        std::vector<bool>{false, true, true});
  CHECK(has_integers("a: &n x\nb: *n\n---\nc: &m 3\nd: *m\n") == std::vector<bool>{false, true});
}
