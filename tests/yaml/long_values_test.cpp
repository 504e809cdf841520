#include "yaml/long_values.hpp"

#include <doctest/doctest.h>

#include <string>

using opm::yaml::find_long_values;

namespace {

// Long enough for the shortcut to be tried.
std::string padded(const std::string& text) { return "#" + std::string(300, '.') + "\n" + text; }

} // namespace

TEST_SUITE("long values") {
  TEST_CASE("a literal block is swapped for one placeholder standing for its value") {
    std::string body = padded("a:\n  b: |-\n    x\n\n      y\n  c: 1\n");
    auto found = find_long_values(body);
    REQUIRE(found);
    CHECK(found->text == padded("a:\n  b: oPmLoNgVaLuE0\n  c: 1\n"));
    REQUIRE(found->originals.size() == 1);
    CHECK(found->originals[0].text == "x\n\n  y");
    CHECK_FALSE(found->originals[0].plain);
    auto original = found->original("oPmLoNgVaLuE0");
    REQUIRE(original);
    CHECK(original->text == "x\n\n  y");
  }

  TEST_CASE("literal blocks laid out in ways not worked out here are left to libyaml") {
    CHECK_FALSE(find_long_values(padded("a: |\n  x\r\n")));        // carriage return
    CHECK_FALSE(find_long_values(padded("a: |\n\n  x\n")));        // leading empty line
    CHECK_FALSE(find_long_values(padded("a: |\n \tx\n")));         // tab in the indentation
    CHECK_FALSE(find_long_values(padded("a: |\n  x\xC2\x85y\n"))); // NEL breaks the line
    CHECK_FALSE(find_long_values(padded("a: |\n  x\x01\n")));      // a control character
    CHECK_FALSE(find_long_values(padded("a: |+\n  x\n\n")));       // kept breaks up to the end
    CHECK_FALSE(find_long_values(padded("a: |2\n  x\n")));         // indentation indicator
    CHECK_FALSE(find_long_values(padded(" a: |\n x\n")));          // no deeper than the key
    CHECK_FALSE(find_long_values(padded("a: |\n  x")));            // last line unterminated
    CHECK_FALSE(find_long_values(padded("a: |\n  x\n\r\n  y\n"))); // a line of only \r
    CHECK_FALSE(find_long_values(padded("a: |\n  x\n \xE2\x80\xA8\n"))); // or of LS
  }
}
