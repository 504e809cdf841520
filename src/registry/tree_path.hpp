#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

// Paths inside an unpacked image tree, resolved as the tree itself sees them: symbolic links
// are followed inside the tree, absolute targets start again at its root, and a ".." that
// climbs above the root is an escape. The unpacker writes through it and readers read
// through it, so neither ever touches a file outside the tree.
namespace opm::registry {

// What to do with a component that is missing, or that is not a directory although more
// components follow.
enum class Missing {
  fail,    // an error (ENOENT / ENOTDIR)
  create,  // make it a directory (a file in the way is replaced)
  lexical, // keep resolving the rest by name only
};

struct TreePathError {
  enum class Kind { escape, loop, io };
  Kind kind;
  std::string op;  // for io: "stat", "mkdir", "readlink"
  std::string rel; // the path where it happened, relative to the root
  int err = 0;     // errno, for io
};

// Resolve `parts` under the directory open as `root_fd`, following every symbolic link (the
// last component's too). The result is relative to the root ("" for the root itself); every
// component but the last is a real directory, except after a missing one with
// Missing::lexical.
std::expected<std::string, TreePathError>
resolve_in_tree(int root_fd, std::vector<std::string> parts, Missing missing);

// The components of a slash-separated path, empty ones dropped.
std::vector<std::string> tree_path_parts(std::string_view path);

} // namespace opm::registry
