#include "yaml/plain.hpp"

#include <doctest/doctest.h>

#include <string>

using opm::yaml::plain_reads_as_string;

TEST_SUITE("yaml::plain_reads_as_string") {
  TEST_CASE("rejects YAML 1.1 null and boolean words") {
    for (const char* s : {"",      "~",     "null",  "Null", "NULL", "y",  "Y",    "yes",  "Yes",
                          "YES",   "n",     "N",     "no",   "No",   "NO", "true", "True", "TRUE",
                          "false", "False", "FALSE", "on",   "On",   "ON", "off",  "Off",  "OFF"}) {
      CAPTURE(s);
      CHECK_FALSE(plain_reads_as_string(s));
    }
    CHECK(plain_reads_as_string("yES"));
    CHECK(plain_reads_as_string("nope"));
    CHECK(plain_reads_as_string("<<"));
  }

  TEST_CASE("rejects integers in every base and with underscores") {
    for (const char* s :
         {"0", "-0", "+12", "0755", "0o17", "0x1F", "0X1f", "0b101", "-0b101", "0b-101", "1_000",
          "1__0", "1_", "9223372036854775807", "18446744073709551615", "-9223372036854775808"}) {
      CAPTURE(s);
      CHECK_FALSE(plain_reads_as_string(s));
    }
    CHECK(plain_reads_as_string("_1"));
    CHECK(plain_reads_as_string("0x"));
    CHECK(plain_reads_as_string("0b2"));
    CHECK(plain_reads_as_string("0x10000000000000000"));
  }

  TEST_CASE("rejects floats that parse and accepts those that overflow") {
    for (const char* s :
         {"1.5", "1.", ".5", "-.5", "+.5", "1e3", "1E+3", "08", "09.5", "18446744073709551616",
          "1e-400", ".inf", "-.Inf", "+.INF", ".nan", ".5_5"}) {
      CAPTURE(s);
      CHECK_FALSE(plain_reads_as_string(s));
    }
    for (const char* s :
         {"1e400", ".5e999", ".", "..", "._5", ".5_", "1.2.3", "0.9.2", "1e", "e3", "-"}) {
      CAPTURE(s);
      CHECK(plain_reads_as_string(s));
    }
  }

  TEST_CASE("rejects timestamps go-yaml recognises") {
    for (const char* s :
         {"2021-01-01", "2021-1-1", "2020-02-29", "2001-12-14t21:59:43.10-05:00",
          "2001-12-14T21:59:43Z", "2001-12-14T21:59:43+24:60", "2001-12-14 21:59:43.10",
          "2001-12-14    21:59:43", "2001-12-14 21:59:43,5"}) {
      CAPTURE(s);
      CHECK_FALSE(plain_reads_as_string(s));
    }
    for (const char* s : {"2021-13-01", "2021-02-29", "2021-01-32", "2001-12-14T24:00:00Z",
                          "2001-12-14T21:59:43+25:00", "2001-12-14T21:59:43", "2001-12-14 21:59",
                          "20211-01-01", "2021-01-01x"}) {
      CAPTURE(s);
      CHECK(plain_reads_as_string(s));
    }
  }

  TEST_CASE("rejects base-60 numbers") {
    for (const char* s : {"1:20", "190:20:30", "-1:20", "+1:2", "1:20.5", "1_0:5:59"}) {
      CAPTURE(s);
      CHECK_FALSE(plain_reads_as_string(s));
    }
    for (const char* s : {"1:60", "1:", ":1", "a1:20", "1:20:x"}) {
      CAPTURE(s);
      CHECK(plain_reads_as_string(s));
    }
  }

  TEST_CASE("accepts ordinary text") {
    for (const char* s :
         {"olm.package", "etcd", "quay.io/x/y:v1", "v1.0.0", "~x", ">=1.0.0", "hello world", "é"}) {
      CAPTURE(s);
      CHECK(plain_reads_as_string(s));
    }
  }
}
