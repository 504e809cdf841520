#include "util/go_duration.hpp"

#include <doctest/doctest.h>

#include <chrono>

using namespace std::chrono_literals;
using opm::util::format_go_duration;
using opm::util::parse_go_duration;

TEST_SUITE("util.go_duration") {
  TEST_CASE("durations are read as time.ParseDuration reads them") {
    CHECK(parse_go_duration("1s") == 1s);
    CHECK(parse_go_duration("0") == 0s);
    CHECK(parse_go_duration("1.5s") == 1500ms);
    CHECK(parse_go_duration(".5s") == 500ms);
    CHECK(parse_go_duration("250ms") == 250ms);
    CHECK(parse_go_duration("1h2m3s") == 1h + 2min + 3s);
    CHECK(parse_go_duration("-2m") == -2min);
    CHECK(parse_go_duration("+3us") == 3us);
    CHECK(parse_go_duration("7\u00b5s") == 7us);
    CHECK(parse_go_duration("10ns") == 10ns);
  }
  TEST_CASE("text without a unit, with an unknown unit or too large is no duration") {
    CHECK_FALSE(parse_go_duration(""));
    CHECK_FALSE(parse_go_duration("1"));
    CHECK_FALSE(parse_go_duration("s"));
    CHECK_FALSE(parse_go_duration(".s"));
    CHECK_FALSE(parse_go_duration("1d"));
    CHECK_FALSE(parse_go_duration("1s "));
    CHECK_FALSE(parse_go_duration("-"));
    CHECK_FALSE(parse_go_duration("9999999999h"));
  }
  TEST_CASE("durations are written as Duration.String writes them") {
    CHECK(format_go_duration(0s) == "0s");
    CHECK(format_go_duration(1s) == "1s");
    CHECK(format_go_duration(1500ms) == "1.5s");
    CHECK(format_go_duration(500ms) == "500ms");
    CHECK(format_go_duration(2min) == "2m0s");
    CHECK(format_go_duration(1h) == "1h0m0s");
    CHECK(format_go_duration(1h + 30min + 1500ms) == "1h30m1.5s");
    CHECK(format_go_duration(-1us) == "-1\u00b5s");
    CHECK(format_go_duration(1500ns) == "1.5\u00b5s");
    CHECK(format_go_duration(42ns) == "42ns");
  }
}
