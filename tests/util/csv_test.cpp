#include "util/csv.hpp"

#include <doctest/doctest.h>

using opm::util::read_csv_record;
using Fields = std::vector<std::string>;

TEST_SUITE("csv") {
  TEST_CASE("splits a record at commas and keeps spaces and equals signs") {
    CHECK(read_csv_record("a=1,b=2").value() == Fields{"a=1", "b=2"});
    CHECK(read_csv_record(" a = 1 ,c=x=y").value() == Fields{" a = 1 ", "c=x=y"});
    CHECK(read_csv_record("a,").value() == Fields{"a", ""});
  }

  TEST_CASE("quoted fields keep commas, doubled quotes and newlines") {
    CHECK(read_csv_record("\"x=1,2\",y").value() == Fields{"x=1,2", "y"});
    CHECK(read_csv_record("\"say \"\"hi\"\"\"").value() == Fields{"say \"hi\""});
    CHECK(read_csv_record("\"a\nb\",c").value() == Fields{"a\nb", "c"});
  }

  TEST_CASE("reads only the first record, after blank lines, with CRLF as LF") {
    CHECK(read_csv_record("a=1\nb=2").value() == Fields{"a=1"});
    CHECK(read_csv_record("\n\na\r\nb").value() == Fields{"a"});
    CHECK(read_csv_record("a\r").value() == Fields{"a"});
  }

  TEST_CASE("reports a bare quote with Go's line and 1-based column") {
    auto r = read_csv_record("z=\"q\"");
    REQUIRE_FALSE(r);
    CHECK(r.error().message() == "parse error on line 1, column 3: bare \" in non-quoted-field");
    CHECK(read_csv_record("ok,x\"").error().message() ==
          "parse error on line 1, column 5: bare \" in non-quoted-field");
  }

  TEST_CASE("reports a stray or missing closing quote") {
    CHECK(read_csv_record("\"ab\"c").error().message() ==
          "parse error on line 1, column 4: extraneous or missing \" in quoted-field");
    CHECK(read_csv_record("\"abc").error().message() ==
          "parse error on line 1, column 5: extraneous or missing \" in quoted-field");
    CHECK(read_csv_record("\"a\nb\"c").error().message() ==
          "record on line 1; parse error on line 2, column 2: extraneous or missing \" in "
          "quoted-field");
  }

  TEST_CASE("input without a record is EOF") {
    CHECK(read_csv_record("\n").error().message() == "EOF");
    CHECK(read_csv_record("").error().message() == "EOF");
  }
}
