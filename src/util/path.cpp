#include "util/path.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <vector>

namespace opm::util {

std::string clean_path(std::string_view path) {
  if (path.empty()) {
    return ".";
  }
  bool rooted = path.front() == '/';
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    auto slash = path.find('/', i);
    std::size_t end = slash == std::string_view::npos ? path.size() : slash;
    std::string_view part = path.substr(i, end - i);
    i = end + 1;
    if (part.empty() || part == ".") {
      continue;
    }
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!rooted) {
        parts.push_back(part);
      }
      continue;
    }
    parts.push_back(part);
  }
  std::string out = rooted ? "/" : "";
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) {
      out += '/';
    }
    out += parts[k];
  }
  return out.empty() ? "." : out;
}

std::pair<std::string, std::string> split_path(std::string_view path) {
  auto slash = path.rfind('/');
  if (slash == std::string_view::npos) {
    return {std::string(), std::string(path)};
  }
  return {std::string(path.substr(0, slash + 1)), std::string(path.substr(slash + 1))};
}

std::string join_path(std::string_view dir, std::string_view name) {
  if (dir.empty() && name.empty()) {
    return {};
  }
  if (dir.empty()) {
    return clean_path(name);
  }
  if (name.empty()) {
    return clean_path(dir);
  }
  std::string joined(dir);
  joined += '/';
  joined += name;
  return clean_path(joined);
}

bool is_path_element(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string_view::npos;
}

Result<void> check_path_element(std::string_view what, std::string_view name) {
  if (is_path_element(name)) {
    return {};
  }
  return fail(Errc::invalid, fmt::format("invalid {} {}: must be a single local path element", what,
                                         go_quote(name)));
}

} // namespace opm::util
