#include "util/strings.hpp"

#include <doctest/doctest.h>

using opm::util::go_quote;

TEST_SUITE("strings") {
  TEST_CASE("go_quote escapes like Go's %q") {
    CHECK(go_quote("a") == "\"a\"");
    CHECK(go_quote("say \"hi\"\n") == "\"say \\\"hi\\\"\\n\"");
    CHECK(go_quote("tab\there") == "\"tab\\there\"");
    CHECK(go_quote(std::string("\x01", 1)) == "\"\\x01\"");
    CHECK(go_quote("\xff") == "\"\\xff\"");
    CHECK(go_quote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
    CHECK(go_quote("\xe2\x80\xa8") == "\"\\u2028\"");
  }
}
