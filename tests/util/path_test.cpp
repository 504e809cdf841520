#include "util/path.hpp"

#include <doctest/doctest.h>

using namespace opm::util;

TEST_SUITE("path") {
  TEST_CASE("cleans paths as Go's filepath.Clean") {
    CHECK(clean_path("cat/") == "cat");
    CHECK(clean_path("./a//b/../c/.") == "a/c");
    CHECK(clean_path("") == ".");
    CHECK(clean_path("/") == "/");
    CHECK(clean_path("/../x") == "/x");
    CHECK(clean_path("../../x/..") == "../..");
    CHECK(clean_path("a/..") == ".");
  }

  TEST_CASE("splits after the last slash and joins cleanly") {
    CHECK(split_path("/abs/sub/cat") == std::pair<std::string, std::string>{"/abs/sub/", "cat"});
    CHECK(split_path("cat") == std::pair<std::string, std::string>{"", "cat"});
    CHECK(split_path("/") == std::pair<std::string, std::string>{"/", ""});
    CHECK(join_path("", "cat.Dockerfile") == "cat.Dockerfile");
    CHECK(join_path("/abs/sub/", "cat.Dockerfile") == "/abs/sub/cat.Dockerfile");
    CHECK(join_path("", "..Dockerfile") == "..Dockerfile");
    CHECK(join_path("/", ".Dockerfile") == "/.Dockerfile");
  }

  TEST_CASE("a path element names one entry inside the directory it is joined to") {
    CHECK(is_path_element("kiwi"));
    CHECK(is_path_element("..kiwi"));
    CHECK(is_path_element("0.1.0+build"));
    CHECK_FALSE(is_path_element(""));
    CHECK_FALSE(is_path_element("."));
    CHECK_FALSE(is_path_element(".."));
    CHECK_FALSE(is_path_element("../../escaped"));
    CHECK_FALSE(is_path_element("a/b"));
    CHECK_FALSE(is_path_element("/abs"));
    CHECK_FALSE(is_path_element(std::string_view("a\0b", 3)));
  }

  TEST_CASE("a name that is no path element is refused with upstream's text") {
    CHECK(check_path_element("package name", "kiwi").has_value());
    auto escaped = check_path_element("package name", "../../escaped");
    REQUIRE_FALSE(escaped.has_value());
    CHECK(escaped.error().code() == opm::Errc::invalid);
    CHECK(escaped.error().message() ==
          R"(invalid package name "../../escaped": must be a single local path element)");
    auto nul = check_path_element("bundle version", std::string_view("a\0", 2));
    REQUIRE_FALSE(nul.has_value());
    CHECK(nul.error().message() ==
          R"(invalid bundle version "a\x00": must be a single local path element)");
  }
}
