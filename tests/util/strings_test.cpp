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

  TEST_CASE("equal_fold matches ASCII names in either case and nothing else") {
    using opm::util::equal_fold;
    CHECK(equal_fold("", ""));
    CHECK(equal_fold("displayName", "DISPLAYNAME"));
    CHECK(equal_fold("Description", "description"));
    CHECK(equal_fold("x-descriptors", "X-Descriptors"));
    CHECK_FALSE(equal_fold("description", "descriptions"));
    CHECK_FALSE(equal_fold("path", "bath"));
    CHECK_FALSE(equal_fold("name", "nbme"));
    // Bytes one case bit apart that are not letters are not the same.
    CHECK_FALSE(equal_fold("@key", "`key"));
    CHECK_FALSE(equal_fold("[a]", "{a}"));
    CHECK_FALSE(equal_fold("key[", "key{"));
    CHECK_FALSE(equal_fold("\xc3\xa9", "\xe3\xa9"));
  }
}
