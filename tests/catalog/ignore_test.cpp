#include "catalog/ignore.hpp"

#include <doctest/doctest.h>

using opm::catalog::IgnoreMatcher;

namespace {
IgnoreMatcher root_patterns(std::string_view patterns) {
  IgnoreMatcher m;
  m.add_file("", patterns);
  return m;
}
} // namespace

TEST_SUITE("indexignore") {
  TEST_CASE("a pattern without a slash matches a component at any depth") {
    auto m = root_patterns("*.md\n");
    CHECK(m.ignored("README.md"));
    CHECK(m.ignored("pkg/README.md"));
    CHECK_FALSE(m.ignored("pkg/docs/a.yaml"));
    CHECK_FALSE(m.ignored("x.yaml"));
  }

  TEST_CASE("a trailing slash matches directories only") {
    auto m = root_patterns("docs/\n");
    CHECK(m.ignored("pkg/docs/a.yaml"));
    CHECK_FALSE(m.ignored("docs"));
    CHECK_FALSE(m.ignored("pkg/docs"));
  }

  TEST_CASE("a leading slash anchors at the directory of the ignore file") {
    auto m = root_patterns("/x.yaml\n");
    CHECK(m.ignored("x.yaml"));
    CHECK_FALSE(m.ignored("pkg/x.yaml"));
  }

  TEST_CASE("a bare name matches at every depth, an inner slash anchors") {
    CHECK(root_patterns("x.yaml").ignored("pkg/x.yaml"));
    CHECK(root_patterns("x.yaml").ignored("x.yaml"));
    CHECK(root_patterns("pkg/x.yaml").ignored("pkg/x.yaml"));
    CHECK_FALSE(root_patterns("pkg/x.yaml").ignored("x.yaml"));
    CHECK_FALSE(root_patterns("pkg/x.yaml").ignored("other/pkg/x.yaml"));
  }

  TEST_CASE("double star spans any number of directories") {
    auto m = root_patterns("**/x.yaml\n");
    CHECK(m.ignored("x.yaml"));
    CHECK(m.ignored("pkg/x.yaml"));
    CHECK(m.ignored("a/b/c/x.yaml"));
    auto mid = root_patterns("a/**/b\n");
    CHECK(mid.ignored("a/b/file"));
    CHECK(mid.ignored("a/x/y/b/file"));
    CHECK_FALSE(mid.ignored("c/b/file"));
  }

  TEST_CASE("an anchored pattern matches everything below a matched directory") {
    auto m = root_patterns("pkg/sub\n");
    CHECK(m.ignored("pkg/sub/a.yaml"));
    CHECK(m.ignored("pkg/sub/deeper/b.yaml"));
    CHECK_FALSE(m.ignored("pkg/subx/a.yaml"));
  }

  TEST_CASE("the last matching pattern wins and negation re-includes") {
    auto m = root_patterns("*\n!*.yaml\n");
    CHECK(m.ignored("README.md"));
    CHECK(m.ignored("pkg/README.md"));
    CHECK_FALSE(m.ignored("pkg/docs/a.yaml"));
    CHECK_FALSE(m.ignored("x.yaml"));
  }

  TEST_CASE("comments, blank lines and surrounding spaces are ignored") {
    auto m = root_patterns("# a comment\n\n   *.md   \n");
    CHECK(m.ignored("README.md"));
    CHECK_FALSE(m.ignored("a.yaml"));
  }

  TEST_CASE("patterns of a nested ignore file apply only below it, relative to it") {
    IgnoreMatcher m;
    m.add_file("pkg", "/x.yaml\n");
    CHECK(m.ignored("pkg/x.yaml"));
    CHECK_FALSE(m.ignored("x.yaml"));
    CHECK_FALSE(m.ignored("pkg/sub/x.yaml"));
    CHECK_FALSE(m.ignored("other/x.yaml"));
  }

  TEST_CASE("wildcards, classes and escapes follow shell globbing per component") {
    CHECK(root_patterns("file?.json").ignored("a/file1.json"));
    CHECK_FALSE(root_patterns("file?.json").ignored("a/file12.json"));
    CHECK(root_patterns("[ab].yaml").ignored("b.yaml"));
    CHECK_FALSE(root_patterns("[!ab].yaml").ignored("a.yaml"));
    CHECK(root_patterns("[!ab].yaml").ignored("c.yaml"));
    CHECK(root_patterns("\\*.yaml").ignored("*.yaml"));
    CHECK_FALSE(root_patterns("\\*.yaml").ignored("x.yaml"));
  }
}
