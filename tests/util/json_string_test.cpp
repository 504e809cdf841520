#include "util/go_format.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>

namespace {

std::string g(double v) {
  std::string out;
  opm::util::append_float_g(out, v);
  return out;
}

std::string json(double v) {
  std::string out;
  opm::util::append_json_float(out, v);
  return out;
}

} // namespace

TEST_SUITE("util Go text formatting") {
  TEST_CASE("formats %g with the shortest digits") {
    CHECK(g(0) == "0");
    CHECK(g(-0.0) == "-0");
    CHECK(g(1) == "1");
    CHECK(g(0.1) == "0.1");
    CHECK(g(0.0001) == "0.0001");
    CHECK(g(0.00001) == "1e-05");
    CHECK(g(123456) == "123456");
    CHECK(g(1234567) == "1.234567e+06");
    CHECK(g(1e100) == "1e+100");
    CHECK(g(-1.5e-300) == "-1.5e-300");
    CHECK(g(std::numeric_limits<double>::infinity()) == "+Inf");
  }

  TEST_CASE("formats JSON numbers without exponents between 1e-6 and 1e21") {
    CHECK(json(0) == "0");
    CHECK(json(123456789) == "123456789");
    CHECK(json(0.000123) == "0.000123");
    CHECK(json(9.99e20) == "999000000000000000000");
    CHECK(json(1e21) == "1e+21");
    CHECK(json(9e-7) == "9e-7");
    CHECK(json(1.25e-12) == "1.25e-12");
    CHECK(json(2e-308) == "2e-308");
  }
}
