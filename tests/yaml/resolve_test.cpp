#include "yaml/resolve.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace opm::yaml;
using opm::Json;

namespace {

Json resolved(std::string_view tag, std::string text, bool plain = true) {
  Scalar out;
  auto error = resolve_scalar(tag, std::move(text), plain, out);
  REQUIRE_FALSE(error.has_value());
  return std::move(out).to_json();
}

std::string rejected(std::string_view tag, std::string text) {
  Scalar out;
  auto error = resolve_scalar(tag, std::move(text), false, out);
  REQUIRE(error.has_value());
  return *error;
}

std::optional<std::string> key_of(std::string text) {
  Scalar out;
  REQUIRE_FALSE(resolve_scalar("", std::move(text), true, out).has_value());
  return key_string(std::move(out));
}

} // namespace

TEST_SUITE("yaml resolve") {
  TEST_CASE("invalid UTF-8 bytes become U+FFFD one by one") {
    std::string s = "a\xff\xe2\x82z\xc3\xa9";
    coerce_utf8(s);
    CHECK(s == "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz\xC3\xA9");
  }

  TEST_CASE("plain scalars") {
    CHECK(resolved("", "yes") == Json(true));
    CHECK(resolved("", "Off") == Json(false));
    CHECK(resolved("", "~") == Json(nullptr));
    CHECK(resolved("", "") == Json(nullptr));
    CHECK(resolved("", "0b-101") == Json(-5));
    CHECK(resolved("", "1_0") == Json(10));
    CHECK(resolved("", "<<") == Json("<<"));
    CHECK(resolved("", "-") == Json("-"));
    CHECK(resolved("", ".5.") == Json(".5."));
    CHECK(std::isnan(resolved("", ".NAN").get<double>()));
    CHECK(resolved("", "+.inf").get<double>() == std::numeric_limits<double>::infinity());
  }

  TEST_CASE("resolves_to_string agrees with the scalar's resolution") {
    for (const char* text : {"name",
                             "type",
                             "no",
                             "No",
                             "NO",
                             "n",
                             "yes",
                             "Yes",
                             "y",
                             "Y",
                             "on",
                             "On",
                             "off",
                             "OFF",
                             "true",
                             "True",
                             "false",
                             "FALSE",
                             "null",
                             "Null",
                             "NULL",
                             "~",
                             "<<",
                             "nothing",
                             "offset",
                             "yesterday",
                             "",
                             "1",
                             "-1",
                             "+1",
                             "1.5",
                             ".5",
                             ".inf",
                             "-.Inf",
                             ".nan",
                             "-",
                             "+",
                             ".",
                             "0x1f",
                             "1_000",
                             "2001-12-14",
                             "apiVersion",
                             "x-descriptors",
                             "_under"}) {
      CAPTURE(text);
      CHECK(resolves_to_string(text) == resolved("", text).is_string());
    }
  }

  TEST_CASE("quoted scalars are never resolved") {
    CHECK(resolved("", "yes", false) == Json("yes"));
    CHECK(resolved("", "12", false) == Json("12"));
  }

  TEST_CASE("tagged scalars") {
    CHECK(resolved(k_str_tag, "yes") == Json("yes"));
    CHECK(resolved(k_int_tag, "0x10", false) == Json(16));
    CHECK(resolved(k_float_tag, "3", false).is_number_float());
    CHECK(resolved("!", "12") == Json("12"));
    CHECK(resolved("tag:example.com,2000:thing", "12") == Json("12"));
    CHECK(resolved(k_timestamp_tag, "2001-12-14t21:59:43.10-05:00", false) ==
          Json("2001-12-14t21:59:43.10-05:00"));
    CHECK(resolved(k_timestamp_tag, "2000-02-29 01:02:03", false) == Json("2000-02-29 01:02:03"));
    CHECK(rejected(k_timestamp_tag, "2001-02-29") == "cannot decode !!str `2001-02-29` as a "
                                                     "!!timestamp");
    CHECK(rejected(k_bool_tag, "1") == "cannot decode !!int `1` as a !!bool");
    CHECK(rejected(k_null_tag, "x") == "cannot decode !!str `x` as a !!null");
    CHECK(rejected(k_float_tag, "18446744073709551615") ==
          "cannot decode !!int `18446744073709551615` as a !!float");
  }

  TEST_CASE("merge keys") {
    CHECK(is_merge_key("", "<<", true));
    CHECK(is_merge_key(k_merge_tag, "<<", false));
    CHECK_FALSE(is_merge_key("", "<<", false));
    CHECK_FALSE(is_merge_key("", "<< ", true));
  }

  TEST_CASE("keys as sigs.k8s.io/yaml spells them") {
    CHECK(key_of("on") == "true");
    CHECK(key_of("0x10") == "16");
    CHECK(key_of("1.5") == "1.5");
    CHECK(key_of("100000.0") == "100000");
    CHECK(key_of("1000000.0") == "1e+06");
    CHECK(key_of("0.0001") == "0.0001");
    CHECK(key_of("0.00001") == "1e-05");
    CHECK(key_of("16777217.0") == "1.6777216e+07");
    CHECK(key_of("-.inf") == "-.inf");
    CHECK(key_of(".nan") == ".nan");
    CHECK(key_of("-0.0") == "-0");
    CHECK_FALSE(key_of("~").has_value());
    CHECK_FALSE(key_of("18446744073709551615").has_value());
    CHECK(key_string(Json(2.5)) == "2.5");
    CHECK_FALSE(key_string(Json::array()).has_value());
  }
}
