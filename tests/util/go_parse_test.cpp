#include "util/go_parse.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace opm::util;

TEST_SUITE("util go_parse") {
  TEST_CASE("Go's ParseInt with base prefixes") {
    CHECK(parse_go_int("0x1F") == 31);
    CHECK(parse_go_int("0X1f") == 31);
    CHECK(parse_go_int("-0o17") == -15);
    CHECK(parse_go_int("0b101") == 5);
    CHECK(parse_go_int("0755") == 493);
    CHECK(parse_go_int("0") == 0);
    CHECK(parse_go_int("+5") == 5);
    CHECK(parse_go_int("-9223372036854775808") == std::numeric_limits<std::int64_t>::min());
    CHECK(parse_go_int("9223372036854775808").error() == NumError::range);
    CHECK(parse_go_int("-9223372036854775809").error() == NumError::range);
    CHECK(parse_go_int("08").error() == NumError::syntax);
    CHECK_FALSE(parse_go_int("0x").has_value());
    CHECK_FALSE(parse_go_int("").has_value());
    CHECK_FALSE(parse_go_int("-").has_value());
    CHECK(parse_go_int("-101", 2) == -5);
  }

  TEST_CASE("Go's ParseUint takes no sign") {
    CHECK(parse_go_uint("18446744073709551615") == std::numeric_limits<std::uint64_t>::max());
    CHECK(parse_go_uint("18446744073709551616").error() == NumError::range);
    // strconv reports the first problem in reading order.
    CHECK(parse_go_uint("18446744073709551616x").error() == NumError::range);
    CHECK(parse_go_uint("1x8446744073709551616").error() == NumError::syntax);
    CHECK_FALSE(parse_go_uint("+1").has_value());
    CHECK_FALSE(parse_go_uint("-1").has_value());
  }

  TEST_CASE("Go's ParseFloat for decimal text") {
    CHECK(parse_go_decimal_float(".5") == 0.5);
    CHECK(parse_go_decimal_float("1.") == 1.0);
    CHECK(parse_go_decimal_float("+1e3") == 1000.0);
    CHECK(parse_go_decimal_float("1_000.5") == 1000.5);
    CHECK(parse_go_decimal_float("1e1_0") == 1e10);
    CHECK_FALSE(parse_go_decimal_float("_1").has_value());
    CHECK_FALSE(parse_go_decimal_float("1__0").has_value());
    CHECK_FALSE(parse_go_decimal_float("1_").has_value());
    CHECK_FALSE(parse_go_decimal_float(".").has_value());
    CHECK_FALSE(parse_go_decimal_float("1e").has_value());
    CHECK_FALSE(parse_go_decimal_float("1.2.3").has_value());
    // Overflow fails, underflow is zero.
    CHECK_FALSE(parse_go_decimal_float("1e400").has_value());
    CHECK_FALSE(parse_go_decimal_float("-1e400").has_value());
    CHECK(parse_go_decimal_float("1e-400") == 0.0);
    auto negative_zero = parse_go_decimal_float("-1e-400");
    REQUIRE(negative_zero.has_value());
    CHECK(std::signbit(*negative_zero));
  }
}
