#include "util/source_date.hpp"

#include <doctest/doctest.h>

using opm::util::parse_source_date_epoch;

TEST_SUITE("util.source_date") {
  TEST_CASE("whole non-negative seconds are read") {
    CHECK(parse_source_date_epoch("0") == 0);
    CHECK(parse_source_date_epoch("1700000000") == 1700000000);
  }
  TEST_CASE("anything else is no time at all") {
    CHECK_FALSE(parse_source_date_epoch(""));
    CHECK_FALSE(parse_source_date_epoch("-1"));
    CHECK_FALSE(parse_source_date_epoch("12a"));
    CHECK_FALSE(parse_source_date_epoch(" 12"));
    CHECK_FALSE(parse_source_date_epoch("99999999999999999999"));
  }
}
