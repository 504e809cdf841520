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
}
