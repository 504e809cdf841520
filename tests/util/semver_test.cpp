#include "util/semver.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opm::util;

namespace {

std::string version_error(std::string_view text) {
  auto v = semver::parse(text);
  REQUIRE_FALSE(v.has_value());
  return v.error().message();
}

std::string range_error(std::string_view text) {
  auto r = semver::parse_range(text);
  REQUIRE_FALSE(r.has_value());
  return r.error().message();
}

semver::Version v(std::string_view text) {
  auto parsed = semver::parse(text);
  REQUIRE(parsed.has_value());
  return *parsed;
}

bool in_range(std::string_view range, std::string_view version) {
  auto r = semver::parse_range(range);
  REQUIRE(r.has_value());
  return r->contains(v(version));
}

} // namespace

TEST_SUITE("semver versions") {
  TEST_CASE("parses every part of a full version") {
    auto parsed = v("1.22.333-rc.1.x-y+build.007");
    CHECK(parsed.major == 1);
    CHECK(parsed.minor == 22);
    CHECK(parsed.patch == 333);
    REQUIRE(parsed.pre.size() == 3);
    CHECK(parsed.pre[0].text == "rc");
    CHECK(parsed.pre[1].numeric);
    CHECK(parsed.pre[1].number == 1);
    CHECK(parsed.pre[2].text == "x-y");
    CHECK(parsed.build == std::vector<std::string>{"build", "007"});
    CHECK(parsed.to_string() == "1.22.333-rc.1.x-y+build.007");
  }

  TEST_CASE("rejects malformed versions with blang's messages") {
    CHECK(version_error("") == "Version string empty");
    CHECK(version_error("1.0") == "No Major.Minor.Patch elements found");
    CHECK(version_error("v1.0.0") == "Invalid character(s) found in major number \"v1\"");
    CHECK(version_error("1.a.0") == "Invalid character(s) found in minor number \"a\"");
    CHECK(version_error("1.0.x") == "Invalid character(s) found in patch number \"x\"");
    CHECK(version_error("01.0.0") == "Major number must not contain leading zeroes \"01\"");
    CHECK(version_error("1.00.0") == "Minor number must not contain leading zeroes \"00\"");
    CHECK(version_error("1.0.01") == "Patch number must not contain leading zeroes \"01\"");
    CHECK(version_error("1.0.0-") == "Prerelease is empty");
    CHECK(version_error("1.0.0-a..b") == "Prerelease is empty");
    CHECK(version_error("1.0.0-a_b") == "Invalid character(s) found in prerelease \"a_b\"");
    CHECK(version_error("1.0.0-01") ==
          "Numeric PreRelease version must not contain leading zeroes \"01\"");
    CHECK(version_error("1.0.0+") == "Build meta data is empty");
    CHECK(version_error("1.0.0+a_b") == "Invalid character(s) found in build meta data \"a_b\"");
    CHECK(version_error("1.0.0 ") == "Invalid character(s) found in patch number \"0 \"");
  }

  TEST_CASE("reports Go strconv errors for empty and overflowing numbers") {
    CHECK(version_error("1..0") == "strconv.ParseUint: parsing \"\": invalid syntax");
    CHECK(version_error("99999999999999999999.0.0") ==
          "strconv.ParseUint: parsing \"99999999999999999999\": value out of range");
    CHECK(version_error("1.0.0-99999999999999999999") ==
          "strconv.ParseUint: parsing \"99999999999999999999\": value out of range");
  }

  TEST_CASE("checks the pre-release before the build metadata") {
    CHECK(version_error("1.0.0-a_b+") == "Invalid character(s) found in prerelease \"a_b\"");
  }

  TEST_CASE("orders versions by SemVer precedence, ignoring build metadata") {
    std::vector<std::string_view> ascending = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta",
                                               "1.0.0-beta",  "1.0.0-beta.2",  "1.0.0-beta.11",
                                               "1.0.0-rc.1",  "1.0.0",         "1.0.1",
                                               "1.1.0",       "2.0.0"};
    for (std::size_t i = 0; i + 1 < ascending.size(); ++i) {
      CAPTURE(ascending[i]);
      CHECK(semver::compare(v(ascending[i]), v(ascending[i + 1])) == -1);
      CHECK(semver::compare(v(ascending[i + 1]), v(ascending[i])) == 1);
    }
    CHECK(v("1.0.0+a") == v("1.0.0+b"));
    CHECK(v("1.0.0") < v("1.0.1"));
  }

  TEST_CASE("parses single pre-release identifiers") {
    CHECK(semver::parse_prerelease("7")->number == 7);
    CHECK(semver::parse_prerelease("a-1")->text == "a-1");
    CHECK(semver::parse_prerelease("").error().message() == "Prerelease is empty");
  }

  TEST_CASE("reads versions tolerantly as blang's ParseTolerant") {
    CHECK(semver::parse_tolerant(" v1.02.003-rc.1 ")->to_string() == "1.2.3-rc.1");
    CHECK(semver::parse_tolerant("1.2")->to_string() == "1.2.0");
    CHECK(semver::parse_tolerant("v7")->to_string() == "7.0.0");
    CHECK(semver::parse_tolerant("00.0.0")->to_string() == "0.0.0");
    CHECK(semver::parse_tolerant("1.2-rc").error().message() ==
          "Short version cannot contain PreRelease/Build meta data");
    CHECK(semver::parse_tolerant("").error().message() ==
          "strconv.ParseUint: parsing \"\": invalid syntax");
    CHECK(semver::parse_tolerant("1.0x.0").error().message() ==
          "Invalid character(s) found in minor number \"0x\"");
  }
}

TEST_SUITE("semver ranges") {
  TEST_CASE("combines terms with AND and groups with OR") {
    CHECK(in_range(">=1.0.0 <2.0.0", "1.5.0"));
    CHECK_FALSE(in_range(">=1.0.0 <2.0.0", "2.0.0"));
    CHECK(in_range("<2.0.0 || >=3.0.0", "3.1.0"));
    CHECK_FALSE(in_range("<2.0.0 || >=3.0.0", "2.5.0"));
    CHECK(in_range(">1.0.0 <3.0.0 !2.0.3-beta.2", "2.0.3"));
    CHECK_FALSE(in_range(">1.0.0 <3.0.0 !2.0.3-beta.2", "2.0.3-beta.2"));
  }

  TEST_CASE("joins an operator with a version after a space") {
    CHECK(in_range(">= 1.0.0 < 2.0.0", "1.0.0"));
    CHECK_FALSE(in_range(">= 1.0.0 < 2.0.0", "2.0.0"));
    CHECK(in_range("1.0.0", "1.0.0"));
    CHECK(in_range("==1.0.0", "1.0.0"));
    CHECK(in_range("!=1.0.0", "1.0.1"));
    CHECK(in_range("<=1.0.0", "1.0.0"));
  }

  TEST_CASE("expands x wildcards to bounds") {
    CHECK(in_range("1.2.x", "1.2.9"));
    CHECK_FALSE(in_range("1.2.x", "1.3.0"));
    CHECK(in_range(">=1.x", "1.0.0"));
    CHECK(in_range("<=1.2.x", "1.2.99"));
    CHECK_FALSE(in_range("<=1.2.x", "1.3.0"));
    CHECK(in_range(">1.x", "2.0.0"));
    CHECK_FALSE(in_range(">1.x", "1.9.9"));
    CHECK(in_range("1.x", "1.9.0"));
    CHECK_FALSE(in_range("1.x", "2.0.0"));
    CHECK(in_range("<1.x", "0.9.0"));
    // blang ANDs the two bounds of a negated wildcard, so nothing matches.
    CHECK_FALSE(in_range("!=1.2.x", "1.1.0"));
    CHECK_FALSE(in_range("!=1.2.x", "1.4.0"));
  }

  TEST_CASE("drops one-character terms as blang does") {
    CHECK(in_range(">=1.0.0 x", "1.0.0"));
    CHECK(in_range("1.0.0 - 1.0.0", "1.0.0"));
  }

  TEST_CASE("rejects malformed ranges with blang's messages") {
    CHECK(range_error("not a range") == "Could not get version from string: \"not\"");
    CHECK(range_error("|| 1.0.0") == "First element in range is '||'");
    CHECK(range_error("1.0.0 ||") == "Last element in range is '||'");
    CHECK(range_error("") == "Last element in range is '||'");
    CHECK(range_error("=>1.0.0") ==
          "Could not parse Range \"=>1.0.0\": Could not parse comparator \"=>\" in \"=>1.0.0\"");
    CHECK(range_error(">=4.1 <4.2") ==
          "Could not parse Range \">=4.1\": Could not parse version \"4.1\" in \">=4.1\": No "
          "Major.Minor.Patch elements found");
    CHECK(range_error(">=1.0.0 <v2.0.0") ==
          "Could not parse Range \"<v2.0.0\": Could not parse comparator \"<v\" in \"<v2.0.0\"");
  }

  TEST_CASE("finds the version at the first Unicode digit and trims the operator") {
    CHECK(range_error("v\u0663.0.0") == "Could not parse Range \"v\u0663.0.0\": Could not "
                                        "parse comparator \"v\" in \"v\u0663.0.0\"");
    CHECK(in_range(">=\t1.0.0", "1.0.0"));
    CHECK_FALSE(in_range(">=\t1.0.0", "0.9.0"));
  }

  TEST_CASE("reproduces blang's handling of an x inside a version") {
    // Any term with an "x" goes through wildcard expansion; without a wildcard the upper
    // bound of an equality is empty.
    CHECK(range_error("1.0.0-xyz") == "Could not get version from string: \"<\"");
    CHECK(in_range(">=1.0.0-xyz", "1.0.0"));
  }
}
