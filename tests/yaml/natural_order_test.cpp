#include "yaml/natural_order.hpp"

#include <doctest/doctest.h>

using opm::yaml::natural_less;

TEST_SUITE("yaml::natural_less") {
  TEST_CASE("orders letters by code point") {
    CHECK(natural_less("a", "b"));
    CHECK(natural_less("B", "a"));
    CHECK(natural_less("aZ", "aa"));
    CHECK_FALSE(natural_less("b", "a"));
  }

  TEST_CASE("puts a non-letter before a letter") {
    CHECK(natural_less("a_", "aZ"));
    CHECK(natural_less("k-", "kZ"));
    CHECK(natural_less("1", "B"));
    CHECK_FALSE(natural_less("aZ", "a_"));
  }

  TEST_CASE("compares digit runs as numbers, then by length, then by code point") {
    CHECK(natural_less("a2", "a10"));
    CHECK(natural_less("item3y", "item20x"));
    CHECK(natural_less("a1", "a01"));
    CHECK(natural_less("k9", "k10"));
    CHECK(natural_less("k-", "k."));
    CHECK(natural_less("k.", "k_"));
    CHECK(natural_less("k_", "k9"));
  }

  TEST_CASE("reads a leading 1 when a zero follows non-zero digits of the common prefix") {
    // "x19" vs "x100": at the '9'/'0' difference the numbers read are 19 and 100.
    CHECK(natural_less("x19", "x100"));
    CHECK_FALSE(natural_less("x100", "x19"));
  }

  TEST_CASE("puts a prefix first and treats equal keys as not less") {
    CHECK(natural_less("a", "ab"));
    CHECK(natural_less("", "a"));
    CHECK_FALSE(natural_less("ab", "a"));
    CHECK_FALSE(natural_less("same", "same"));
  }

  TEST_CASE("uses Unicode letters and digits") {
    CHECK(natural_less("a_", "a\xC3\xA9"));        // é is a letter
    CHECK(natural_less("a\xD9\xA3", "a\xD9\xA4")); // Arabic-Indic three, four
    CHECK(natural_less("\xC3\xA9"
                       "a",
                       "\xC3\xA9"
                       "b"));
    CHECK(natural_less("z", "\xC3\xA9")); // letters by code point
  }
}
