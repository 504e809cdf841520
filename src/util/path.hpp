#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>
#include <utility>

// Go's path/filepath for Unix paths, lexical only (no file system access). Used where
// upstream's messages and file names depend on how Go spells a path.
namespace opm::util {

// filepath.Clean: "cat/" -> "cat", "./a//b/../c" -> "a/c", "" -> ".".
std::string clean_path(std::string_view path);
// filepath.Split: ("dir/", "file"); the directory keeps its trailing slash.
std::pair<std::string, std::string> split_path(std::string_view path);
// filepath.Join of two elements: empty elements are skipped, the result is cleaned.
std::string join_path(std::string_view dir, std::string_view name);

// The one rule for a name from a catalog, an image or a database that becomes part of a path:
// it must name exactly one entry inside the directory it is joined to, so it is not empty,
// "." or "..", and holds no '/' and no NUL.
bool is_path_element(std::string_view name);
// The same as an error: `invalid <what> "<name>": must be a single local path element`.
Result<void> check_path_element(std::string_view what, std::string_view name);

} // namespace opm::util
