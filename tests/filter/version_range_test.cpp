#include "filter/version_range.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;

namespace {

bool in(const std::string& range, const std::string& version) {
  auto r = filter::parse_version_range(range);
  REQUIRE_MESSAGE(r.has_value(), range);
  auto v = util::semver::parse(version);
  REQUIRE(v.has_value());
  return r->contains(*v);
}

} // namespace

TEST_SUITE("filter version ranges") {
  TEST_CASE("spaces and commas join terms, bars separate alternatives") {
    CHECK(in(">=1.2.0 <2.0.0", "1.2.0"));
    CHECK_FALSE(in(">=1.2.0 <2.0.0", "2.0.0"));
    CHECK(in(">=1.2.0, <2.0.0", "1.9.9"));
    CHECK(in("<1.0.0 || >=3.0.0", "3.1.0"));
    CHECK_FALSE(in("<1.0.0 || >=3.0.0", "2.0.0"));
    CHECK(in(">= 1.2.0", "1.2.0"));
  }

  TEST_CASE("wildcards and missing parts cover a span") {
    CHECK(in("1.2.x", "1.2.7"));
    CHECK_FALSE(in("1.2.x", "1.3.0"));
    CHECK(in("1.2", "1.2.9"));
    CHECK(in("*", "9.9.9"));
    CHECK_FALSE(in(">*", "0.0.0"));
    CHECK(in(">1.2", "1.3.0"));
    CHECK_FALSE(in(">1.2", "1.2.5"));
    CHECK(in("<=1.2", "1.2.5"));
    CHECK_FALSE(in("!=1.2", "1.2.5"));
    CHECK(in("!=1.2", "1.3.0"));
  }

  TEST_CASE("tilde, caret and hyphen ranges") {
    CHECK(in("~1.2.3", "1.2.9"));
    CHECK_FALSE(in("~1.2.3", "1.3.0"));
    CHECK(in("^1.2.3", "1.9.0"));
    CHECK_FALSE(in("^1.2.3", "2.0.0"));
    CHECK_FALSE(in("^0.2.3", "0.3.0"));
    CHECK(in("1.0 - 1.4", "1.4.9"));
    CHECK_FALSE(in("1.0 - 1.4", "1.5.0"));
    CHECK_FALSE(in("1.0 - 1.4", "0.9.9"));
  }

  TEST_CASE("a pre-release matches only a range that names one") {
    CHECK_FALSE(in(">=1.0.0", "1.2.0-rc.1"));
    CHECK(in(">=1.2.0-rc.0", "1.2.0-rc.1"));
  }

  TEST_CASE("an unreadable term is an improper constraint") {
    auto r = filter::parse_version_range(">=1.2.0 <two");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message() == "improper constraint: <two");
    CHECK(filter::parse_version_range("").error().message() == "improper constraint: ");
  }
}
