#include "util/go_format.hpp"

#include <doctest/doctest.h>

using opm::util::format_float_g;
using opm::util::format_float_json;

TEST_SUITE("go number formatting") {
  TEST_CASE("%g uses exponent form below 1e-4 and from 1e6, with two exponent digits") {
    CHECK(format_float_g(1) == "1");
    CHECK(format_float_g(0.5) == "0.5");
    CHECK(format_float_g(123456.5) == "123456.5");
    CHECK(format_float_g(1e6) == "1e+06");
    CHECK(format_float_g(1234567.5) == "1.2345675e+06");
    CHECK(format_float_g(1e-5) == "1e-05");
    CHECK(format_float_g(0.0001) == "0.0001");
    CHECK(format_float_g(1e20) == "1e+20");
    CHECK(format_float_g(-2.5) == "-2.5");
    CHECK(format_float_g(-0.0) == "-0");
  }

  TEST_CASE("JSON uses plain notation from 1e-6 up to 1e21") {
    CHECK(format_float_json(1) == "1");
    CHECK(format_float_json(1e3) == "1000");
    CHECK(format_float_json(0.000001) == "0.000001");
    CHECK(format_float_json(1e-7) == "1e-7");
    CHECK(format_float_json(1e21) == "1e+21");
    CHECK(format_float_json(150000000.5) == "150000000.5");
    CHECK(format_float_json(12345678901234567890.0) == "12345678901234567000");
    CHECK(format_float_json(-0.0) == "-0");
  }
}
