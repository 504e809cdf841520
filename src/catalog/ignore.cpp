#include "catalog/ignore.hpp"

#include "util/strings.hpp"

#include <fnmatch.h>

namespace opm::catalog {

namespace {

std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    auto end = slash == std::string_view::npos ? path.size() : slash;
    if (end > start) {
      parts.push_back(path.substr(start, end - start));
    }
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return parts;
}

bool glob(const std::string& pattern, std::string_view name) {
  std::string subject(name);
  return ::fnmatch(pattern.c_str(), subject.c_str(), 0) == 0;
}

// Anchored match of pattern parts against path parts; "**" spans zero or more parts,
// and a pattern that runs out first matches everything below it.
bool match_anchored(const std::vector<std::string>& pat, std::size_t pi,
                    const std::vector<std::string_view>& path, std::size_t si) {
  if (pi == pat.size()) {
    return true;
  }
  if (pat[pi] == "**") {
    for (std::size_t k = si; k <= path.size(); ++k) {
      if (match_anchored(pat, pi + 1, path, k)) {
        return true;
      }
    }
    return false;
  }
  if (si == path.size() || !glob(pat[pi], path[si])) {
    return false;
  }
  return match_anchored(pat, pi + 1, path, si + 1);
}

} // namespace

void IgnoreMatcher::add_file(std::string_view domain, std::string_view content) {
  std::vector<std::string> domain_parts;
  for (auto part : components(domain)) {
    domain_parts.emplace_back(part);
  }
  for (const auto& raw_line : util::split(content, '\n')) {
    auto line = util::trim(raw_line);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    Pattern p;
    p.domain = domain_parts;
    if (line.front() == '!') {
      p.negate = true;
      line.remove_prefix(1);
    }
    if (!line.empty() && line.back() == '/') {
      p.dir_only = true;
      line.remove_suffix(1);
    }
    p.anchored = line.find('/') != std::string_view::npos;
    for (auto part : components(line)) {
      p.parts.emplace_back(part);
    }
    if (p.parts.empty()) {
      continue;
    }
    m_patterns.push_back(std::move(p));
  }
}

bool IgnoreMatcher::matches(const Pattern& p, const std::vector<std::string_view>& rel) {
  // Directory patterns can only match the components that are directories.
  std::size_t usable = p.dir_only ? (rel.empty() ? 0 : rel.size() - 1) : rel.size();
  if (usable == 0) {
    return false;
  }
  if (p.anchored) {
    std::vector<std::string_view> dirs(rel.begin(),
                                       rel.begin() + static_cast<std::ptrdiff_t>(usable));
    return match_anchored(p.parts, 0, dirs, 0);
  }
  if (p.negate && !p.dir_only) {
    return glob(p.parts.front(), rel.back());
  }
  for (std::size_t i = 0; i < usable; ++i) {
    if (glob(p.parts.front(), rel[i])) {
      return true;
    }
  }
  return false;
}

bool IgnoreMatcher::ignored(std::string_view path) const {
  auto parts = components(path);
  bool ignored = false;
  for (const auto& p : m_patterns) {
    if (parts.size() <= p.domain.size()) {
      continue;
    }
    bool inside = true;
    for (std::size_t i = 0; i < p.domain.size(); ++i) {
      if (parts[i] != p.domain[i]) {
        inside = false;
        break;
      }
    }
    if (!inside) {
      continue;
    }
    std::vector<std::string_view> rel(parts.begin() + static_cast<std::ptrdiff_t>(p.domain.size()),
                                      parts.end());
    if (matches(p, rel)) {
      ignored = !p.negate;
    }
  }
  return ignored;
}

} // namespace opm::catalog
