#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace opm::util {

// Whole file into memory. Errors read as Go's: "open <path>: no such file or directory",
// "read <path>: is a directory".
Result<std::string> read_file(const std::filesystem::path& path);

// Write `content` to `path` atomically: a temp file beside it, then rename, so a reader
// never sees a half-written file. With `exclusive`, fails if `path` exists.
enum class Overwrite { yes, no };
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content,
                               Overwrite overwrite = Overwrite::yes);

// Go's os.PathError text for an errno: "no such file or directory", "permission denied", ...
std::string errno_text(int err);

} // namespace opm::util
