#include "yaml/value.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

using opm::Json;
using opm::yaml::append;

namespace {

std::string yaml(const Json& v) {
  std::string out;
  append(out, v);
  return out;
}

// The document for {"k": value}.
std::string yaml_of_value(const Json& value) { return yaml(Json::object({{"k", value}})); }

} // namespace

TEST_SUITE("yaml::append") {
  TEST_CASE("writes the scalar styles of the specification example") {
    const Json v = {
        {"", "emptykey"},
        {"crlit", "x\n y"},
        {"dq", "tab\there and a very long tail that goes beyond the eighty column limit for "
               "sure and more words here"},
        {"lit", "  leading space line\nsecond\n"},
        {"ml", "line one\nline two  \n"},
        {"mltrail2", "a\nb\n\n"},
        {"n", "N"},
        {"skipRange", ">=0.1.0 <0.2.0"},
        {"sq", "it's a 'quoted' thing: with colon and a very long tail that goes beyond the "
               "eighty column limit for sure"},
        {"ver", "1.0"},
    };
    CHECK(yaml(v) == R"("": emptykey
crlit: |-
  x
   y
dq: "tab\there and a very long tail that goes beyond the eighty column limit for sure
  and more words here"
lit: |2
    leading space line
  second
ml: "line one\nline two  \n"
mltrail2: |+
  a
  b

"n": "N"
skipRange: '>=0.1.0 <0.2.0'
sq: 'it''s a ''quoted'' thing: with colon and a very long tail that goes beyond the
  eighty column limit for sure'
ver: "1.0"
)");
  }

  TEST_CASE("writes nested mappings indented and sequences level with their key") {
    const Json v = {{"items", Json::array({{{"name", "a"}, {"value", 1}}, {{"name", "b"}}})},
                    {"meta", {{"inner", {{"deep", "x"}}}}}};
    CHECK(yaml(v) == "items:\n- name: a\n  value: 1\n- name: b\nmeta:\n  inner:\n    deep: x\n");
  }

  TEST_CASE("writes a sequence inside a sequence on the same line") {
    const Json v = {{"a", Json::array({Json::array({"p", "q"}), Json::array({"r"})})},
                    {"b", Json::array({Json::array({Json::array({"deep"})})})}};
    CHECK(yaml(v) == "a:\n- - p\n  - q\n- - r\nb:\n- - - deep\n");
  }

  TEST_CASE("writes empty mappings and sequences inline") {
    const Json v = {{"a", Json::object()},
                    {"b", Json::array()},
                    {"c", Json::array({Json::array()})},
                    {"d", Json::array({Json::object()})},
                    {"m", {{"o", Json::array()}}}};
    CHECK(yaml(v) == "a: {}\nb: []\nc:\n- []\nd:\n- {}\nm:\n  o: []\n");
    CHECK(yaml(Json::object()) == "{}\n");
    CHECK(yaml(Json::array()) == "[]\n");
  }

  TEST_CASE("writes null, booleans and integers plain") {
    const Json v = {{"a", nullptr},
                    {"b", true},
                    {"c", false},
                    {"d", 42},
                    {"e", -7},
                    {"f", std::numeric_limits<std::int64_t>::min()},
                    {"g", std::numeric_limits<std::uint64_t>::max()}};
    CHECK(yaml(v) == "a: null\nb: true\nc: false\nd: 42\ne: -7\nf: -9223372036854775808\n"
                     "g: 18446744073709551615\n");
  }

  TEST_CASE("writes a root scalar or sequence") {
    CHECK(yaml(Json("text")) == "text\n");
    CHECK(yaml(Json::array({1, "a"})) == "- 1\n- a\n");
  }
}

TEST_SUITE("yaml::append key order") {
  TEST_CASE("sorts keys in natural order") {
    Json v = Json::object();
    for (const char* key :
         {"kZ", "k10", "k9", "k_", "k.", "k-", "aa", "aZ", "a01", "a1", "a_", "K_"}) {
      v[key] = 1;
    }
    CHECK(yaml(v) == "K_: 1\na_: 1\na1: 1\na01: 1\naZ: 1\naa: 1\nk-: 1\nk.: 1\nk_: 1\nk9: 1\n"
                     "k10: 1\nkZ: 1\n");
  }

  TEST_CASE("puts non-letters before letters and compares digit runs as numbers") {
    const Json v = {{"a", 6}, {"B", 5}, {"10", 4}, {"2", 3}, {"1", 2}, {"_x", 1}};
    CHECK(yaml(v) == "_x: 1\n\"1\": 2\n\"2\": 3\n\"10\": 4\nB: 5\na: 6\n");
    const Json w = {{"item20x", 1}, {"item3y", 2}, {"a10", 3}, {"a2", 4}};
    CHECK(yaml(w) == "a2: 4\na10: 3\nitem3y: 2\nitem20x: 1\n");
  }

  TEST_CASE("sorts the keys of typed objects too") {
    const Json v = {{"schema", "olm.bundle"}, {"relatedImages", 1}, {"properties", 1},
                    {"package", "p"},         {"name", "n"},        {"image", "i"}};
    CHECK(yaml(v) == "image: i\nname: \"n\"\npackage: p\nproperties: 1\nrelatedImages: 1\n"
                     "schema: olm.bundle\n");
  }
}

TEST_SUITE("yaml::append numbers") {
  TEST_CASE("formats floats as Go's %g with two exponent digits") {
    CHECK(yaml_of_value(1e-05) == "k: 1e-05\n");
    CHECK(yaml_of_value(0.000001) == "k: 1e-06\n");
    CHECK(yaml_of_value(1e-7) == "k: 1e-07\n");
    CHECK(yaml_of_value(1234567.5) == "k: 1.2345675e+06\n");
    CHECK(yaml_of_value(150000000.5) == "k: 1.500000005e+08\n");
    CHECK(yaml_of_value(123456.5) == "k: 123456.5\n");
    CHECK(yaml_of_value(0.5) == "k: 0.5\n");
    CHECK(yaml_of_value(-2.25) == "k: -2.25\n");
    CHECK(yaml_of_value(1e21) == "k: 1e+21\n");
    CHECK(yaml_of_value(1.5e300) == "k: 1.5e+300\n");
  }

  TEST_CASE("writes integral floats as integers while they fit 64 bits") {
    CHECK(yaml_of_value(1.0) == "k: 1\n");
    CHECK(yaml_of_value(1234567.0) == "k: 1234567\n");
    CHECK(yaml_of_value(1e8) == "k: 100000000\n");
    CHECK(yaml_of_value(-0.0) == "k: 0\n");
    // Go's JSON text has the shortest digits padded with zeros, and YAML reads it back.
    CHECK(yaml_of_value(12345678901234567890.0) == "k: 12345678901234567000\n");
    CHECK(yaml_of_value(1e19) == "k: 10000000000000000000\n");
    CHECK(yaml_of_value(18446744073709551616.0) == "k: 1.8446744073709552e+19\n");
    CHECK(yaml_of_value(1e20) == "k: 1e+20\n");
  }
}

TEST_SUITE("yaml::append string styles") {
  TEST_CASE("double-quotes strings that would read back as another type") {
    for (const char* s : {"true",
                          "True",
                          "yes",
                          "Yes",
                          "on",
                          "ON",
                          "y",
                          "Y",
                          "n",
                          "no",
                          "off",
                          "~",
                          "null",
                          "Null",
                          "",
                          "123",
                          "-5",
                          "+7",
                          "1.5",
                          "1.0",
                          "0755",
                          "0x1F",
                          "0o17",
                          "0b101",
                          "1_000",
                          "1_",
                          "1e3",
                          ".5",
                          "-.5",
                          ".inf",
                          "-.Inf",
                          ".nan",
                          "2021-01-01",
                          "2021-1-1",
                          "2001-12-14t21:59:43.10-05:00",
                          "2001-12-14T21:59:43Z",
                          "2001-12-14 21:59:43.10",
                          "1:20",
                          "190:20:30",
                          "-1:20",
                          "1:20.5",
                          "08",
                          "99999999999999999999"}) {
      CAPTURE(s);
      CHECK(yaml_of_value(s) == "k: \"" + std::string(s) + "\"\n");
    }
  }

  TEST_CASE("writes strings plain when they read back as strings") {
    for (const char* s :
         {"0.9.2", "v1.0", "1.2.3",      "2021-13-01", "2021-02-30", "1:60", "0b2", "0x",
          "1e400", ":x",   "?x",         "a, b",       "a#b",        "a:b",  "-x",  "x-",
          "<<",    "=",    "yes please", "nulls",      "a}",         "a]",   "a'b", "a\"b",
          "a\\b",  "~a",   ".x",         "+",          "~/.kube"}) {
      CAPTURE(s);
      CHECK(yaml_of_value(s) == "k: " + std::string(s) + "\n");
    }
  }

  TEST_CASE("single-quotes strings whose first character or content is YAML syntax") {
    for (const char* s : {"&x",
                          "*x",
                          "!x",
                          "%x",
                          "@x",
                          "`x",
                          "{x}",
                          "[x]",
                          "- x",
                          "-",
                          "? x",
                          "?",
                          ": x",
                          ":",
                          "a: b",
                          "a:",
                          "a #b",
                          "#x",
                          ",x",
                          "|x",
                          ">x",
                          "\"x\"",
                          "---",
                          "---x",
                          "...",
                          "...x",
                          " a",
                          "a ",
                          ">=0.1.0 <0.2.0"}) {
      CAPTURE(s);
      std::string quoted;
      for (const char c : std::string_view(s)) {
        quoted += c;
        if (c == '\'') {
          quoted += c;
        }
      }
      CHECK(yaml_of_value(s) == "k: '" + quoted + "'\n");
    }
    CHECK(yaml_of_value("'x'") == "k: '''x'''\n");
    CHECK(yaml_of_value("it's: x") == "k: 'it''s: x'\n");
  }

  TEST_CASE("finds syntax and unprintable characters anywhere in a long string") {
    const std::string base(20, 'a');
    for (std::size_t at = 1; at < base.size(); ++at) {
      CAPTURE(at);
      const auto with = [&](std::string_view inner) {
        return base.substr(0, at) + std::string(inner) + base.substr(at);
      };
      CHECK(yaml_of_value(with(": ")) == "k: '" + with(": ") + "'\n");
      CHECK(yaml_of_value(with(" #")) == "k: '" + with(" #") + "'\n");
      CHECK(yaml_of_value(with("#")) == "k: " + with("#") + "\n");
      CHECK(yaml_of_value(with("\x7F")) == "k: \"" + with("\\x7F") + "\"\n");
      CHECK(yaml_of_value(with("\t")) == "k: \"" + with("\\t") + "\"\n");
    }
  }

  TEST_CASE("double-quotes strings with characters it cannot print, with escapes") {
    CHECK(yaml_of_value("a\tb") == "k: \"a\\tb\"\n");
    CHECK(yaml_of_value("\ttab") == "k: \"\\ttab\"\n");
    CHECK(yaml_of_value("line1\r\nline2") == "k: \"line1\\r\\nline2\"\n");
    CHECK(yaml_of_value("cr\r") == "k: \"cr\\r\"\n");
    CHECK(yaml_of_value(std::string("nul\0", 4)) == "k: \"nul\\0\"\n");
    CHECK(yaml_of_value("\a\b\v\f\x1b") == "k: \"\\a\\b\\v\\f\\e\"\n");
    CHECK(yaml_of_value("\x01") == "k: \"\\x01\"\n");
    CHECK(yaml_of_value("del\x7f") == "k: \"del\\x7F\"\n");
    CHECK(yaml_of_value("c1\xc2\x80") == "k: \"c1\\x80\"\n");
    CHECK(yaml_of_value("\xef\xbf\xbe") == "k: \"\\uFFFE\"\n");
    CHECK(yaml_of_value("a\"b\tc\\d") == "k: \"a\\\"b\\tc\\\\d\"\n");
  }

  TEST_CASE("escapes characters above U+FFFF and keeps other unicode raw") {
    CHECK(yaml_of_value("rocket \xF0\x9F\x9A\x80 launch") == "k: \"rocket \\U0001F680 launch\"\n");
    CHECK(yaml_of_value("cat \xF0\x9F\x90\xB1") == "k: \"cat \\U0001F431\"\n");
    CHECK(yaml_of_value("caf\xC3\xA9 \xE2\x98\x83") == "k: caf\xC3\xA9 \xE2\x98\x83\n");
    CHECK(yaml_of_value("a\xC2\xA0"
                        "b") == "k: a\xC2\xA0"
                                "b\n");
  }

  TEST_CASE("escapes every character of a string that starts with a byte order mark") {
    CHECK(yaml_of_value("\xEF\xBB\xBFx") == "k: \"\\uFEFF\\x78\"\n");
    CHECK(yaml_of_value("\xEF\xBB\xBF"
                        "a b") == "k: \"\\uFEFF\\x61\\x20\\x62\"\n");
    CHECK(yaml_of_value("a\xEF\xBB\xBF"
                        "b") == "k: \"a\\uFEFFb\"\n");
  }

  TEST_CASE("writes line and paragraph separators as breaks in single quotes") {
    CHECK(yaml_of_value("x\xE2\x80\xA8y") == "k: 'x\xE2\x80\xA8  y'\n");
  }

  TEST_CASE("folds next-line characters as the YAML reader of Go's JSON text does") {
    CHECK(yaml_of_value("a\xC2\x85"
                        "b") == "k: a b\n");
    CHECK(yaml_of_value("a  \xC2\x85  b") == "k: a b\n");
    CHECK(yaml_of_value("a\xC2\x85\xC2\x85"
                        "b") == "k: |-\n  a\n  b\n");
    CHECK(yaml_of_value("\xC2\x85"
                        "b") == "k: ' b'\n");
  }

  TEST_CASE("keeps next-line characters of keys, escaped, so that a key reads back as itself") {
    CHECK(yaml(Json::object({{"a\xC2\x85"
                              "b",
                              1}})) == "? \"a\\Nb\"\n: 1\n");
  }

  TEST_CASE("quotes a \"<<\" key, which plain would read back as a merge key") {
    CHECK(yaml(Json::object({{"<<", "0}"}})) == "\"<<\": 0}\n");
    CHECK(yaml(Json::object({{"<<<", 1}, {"k", "<<"}})) == "<<<: 1\nk: <<\n");
  }

  TEST_CASE("writes invalid UTF-8 as replacement characters") {
    CHECK(yaml_of_value("a\xFF"
                        "b") == "k: a\xEF\xBF\xBD"
                                "b\n");
    CHECK(yaml(Json::object({{"k\xFE", 1}})) == "k\xEF\xBF\xBD: 1\n");
  }

  TEST_CASE("keeps backslash-u text as data") {
    CHECK(yaml_of_value("echo \\u003e\\u003e /dev/null") == "k: echo \\u003e\\u003e /dev/null\n");
    CHECK(yaml_of_value("<distributed-cache \\u003e\nnext\n") ==
          "k: |\n  <distributed-cache \\u003e\n  next\n");
  }
}

TEST_SUITE("yaml::append literal blocks") {
  TEST_CASE("chooses the chomping indicator from the trailing line breaks") {
    CHECK(yaml_of_value("a\nb") == "k: |-\n  a\n  b\n");
    CHECK(yaml_of_value("a\nb\n") == "k: |\n  a\n  b\n");
    CHECK(yaml_of_value("a\nb\n\n") == "k: |+\n  a\n  b\n\n");
    CHECK(yaml_of_value("\n") == "k: |2+\n\n");
  }

  TEST_CASE("adds an indentation indicator when the text starts with a space or break") {
    CHECK(yaml_of_value(" lead\nx") == "k: |2-\n   lead\n  x\n");
    CHECK(yaml_of_value("\nx\n") == "k: |2\n\n  x\n");
  }

  TEST_CASE("writes empty lines without indentation") {
    CHECK(yaml_of_value("a\n\nb\n") == "k: |\n  a\n\n  b\n");
  }

  TEST_CASE("indents the block two past its key") {
    const Json v = {{"a", Json::array({{{"lit", "one\ntwo"}}})}};
    CHECK(yaml(v) == "a:\n- lit: |-\n    one\n    two\n");
  }

  TEST_CASE("falls back to double quotes when a block cannot hold the text") {
    CHECK(yaml_of_value("a \nb") == "k: \"a \\nb\"\n");
    CHECK(yaml_of_value("a\nb ") == "k: \"a\\nb \"\n");
    CHECK(yaml_of_value("a\n\tb") == "k: \"a\\n\\tb\"\n");
    CHECK(yaml_of_value("a\n b") == "k: |-\n  a\n   b\n");
  }
}

TEST_SUITE("yaml::append folding") {
  TEST_CASE("folds a plain scalar at the first space past column 80") {
    const std::string fits = std::string(77, 'a') + " b";
    CHECK(yaml_of_value(fits) == "k: " + fits + "\n");
    const std::string folds = std::string(78, 'a') + " b";
    CHECK(yaml_of_value(folds) == "k: " + std::string(78, 'a') + "\n  b\n");
  }

  TEST_CASE("does not fold at a space followed by another space") {
    const std::string text = std::string(78, 'a') + "  b";
    CHECK(yaml_of_value(text) == "k: " + text + "\n");
  }

  TEST_CASE("folds long text repeatedly at the scalar's indentation") {
    std::string text;
    for (int i = 0; i < 10; ++i) {
      text += i == 0 ? "" : " ";
      text += "a long description";
    }
    const Json v = {{"k", text},
                    {"nest",
                     {{"inner", "nested text nested text nested text nested "
                                "text nested text nested text nested text "
                                "nested text nested text"}}}};
    CHECK(yaml(v) ==
          "k: a long description a long description a long description a long description a "
          "long\n"
          "  description a long description a long description a long description a long "
          "description\n"
          "  a long description\n"
          "nest:\n"
          "  inner: nested text nested text nested text nested text nested text nested text "
          "nested\n"
          "    text nested text nested text\n");
  }

  TEST_CASE("counts columns in characters, not bytes") {
    std::string text;
    for (int i = 0; i < 78; ++i) {
      text += "\xC3\xA9";
    }
    CHECK(yaml_of_value(text + " b") == "k: " + text + "\n  b\n");
  }

  TEST_CASE("folds quoted scalars and escapes a space that starts the next line") {
    const std::string single = "&" + std::string(77, 'a') + " b";
    CHECK(yaml_of_value(single) == "k: '&" + std::string(77, 'a') + "\n  b'\n");
    const std::string dq = "\t" + std::string(76, 'a') + "  b";
    CHECK(yaml_of_value(dq) == "k: \"\\t" + std::string(76, 'a') + "\n  \\ b\"\n");
  }

  TEST_CASE("never folds a word longer than the line") {
    const std::string text = std::string(100, 'x') + " " + std::string(100, 'y');
    CHECK(yaml_of_value(text) ==
          "k: " + std::string(100, 'x') + "\n  " + std::string(100, 'y') + "\n");
    const std::string base64(5000, 'Q');
    CHECK(yaml_of_value(base64) == "k: " + base64 + "\n");
  }
}

TEST_SUITE("yaml::append keys") {
  TEST_CASE("quotes keys like values but never folds a simple key") {
    const Json v = {{"y", 1}, {"on", 2}, {"1", 3}, {"a: b", 4}, {"k", 5}};
    CHECK(yaml(v) == "\"1\": 3\n'a: b': 4\nk: 5\n\"on\": 2\n\"y\": 1\n");
    const std::string key(128, 'x');
    CHECK(yaml(Json::object({{key, 1}})) == key + ": 1\n");
  }

  TEST_CASE("writes keys longer than 128 bytes in complex form") {
    const std::string key(129, 'x');
    CHECK(yaml(Json::object({{key, 1}})) == "? " + key + "\n: 1\n");
    std::string words;
    for (int i = 0; i < 30; ++i) {
      words += i == 0 ? "word" : " word";
    }
    CHECK(yaml(Json::object({{words, "v"}})) ==
          "? word word word word word word word word word word word word word word word word\n"
          "  word word word word word word word word word word word word word word\n"
          ": v\n");
  }

  TEST_CASE("writes keys with line breaks in complex form as literal blocks") {
    CHECK(yaml(Json::object({{"a\nb", 1}})) == "? |-\n  a\n  b\n: 1\n");
    CHECK(yaml(Json::object({{"a\nb", Json::array({1})}})) == "? |-\n  a\n  b\n: - 1\n");
    CHECK(yaml(Json::object({{"a\nb", {{"c", 1}}}})) == "? |-\n  a\n  b\n: c: 1\n");
    const std::string key(130, 'x');
    CHECK(yaml(Json::object({{key, Json::array({1, 2})}})) == "? " + key + "\n: - 1\n  - 2\n");
  }
}
