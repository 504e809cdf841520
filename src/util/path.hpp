#pragma once

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

} // namespace opm::util
