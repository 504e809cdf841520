#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <vector>

// Directory listing and file reading for bundle directories.
namespace opm::bundle {

struct DirEntry {
  std::string name;
  bool is_dir = false; // the entry itself (a symbolic link is not a directory)
};

// The entries of `dir` in byte-wise name order, hidden ones included.
// Error: "open <dir>: <reason>".
Result<std::vector<DirEntry>> sorted_entries(const std::filesystem::path& dir);

// The content of a regular file (following symbolic links); anything else fails, so that a
// directory or a FIFO is skipped rather than read.
Result<std::string> read_regular(const std::filesystem::path& path);

} // namespace opm::bundle
