#pragma once

#include <string>
#include <string_view>
#include <vector>

// gitignore-style .indexignore patterns (upstream pkg/lib/indexignore). A pattern from
// d/.indexignore applies only below d and is matched against the path relative to d.
namespace opm::catalog {

class IgnoreMatcher {
public:
  // Add the patterns of one .indexignore file found in `domain` ("" for the root,
  // else "a/b"). Call in walk order: the last matching pattern decides.
  void add_file(std::string_view domain, std::string_view content);

  // Whether the file at `path` ("a/b/c.yaml", relative to the root) is ignored.
  [[nodiscard]] bool ignored(std::string_view path) const;
  [[nodiscard]] bool empty() const { return m_patterns.empty(); }

private:
  struct Pattern {
    std::vector<std::string> domain;
    std::vector<std::string> parts;
    bool negate = false;
    bool dir_only = false;
    bool anchored = false;
  };
  static bool matches(const Pattern& p, const std::vector<std::string_view>& rel);

  std::vector<Pattern> m_patterns;
};

} // namespace opm::catalog
