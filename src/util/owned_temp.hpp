#pragma once

#include "util/error.hpp"
#include "util/fs.hpp"

#include <filesystem>
#include <string>
#include <string_view>

// Temporary files and directories that say which process made them, so that a later run can
// remove those a killed process (SIGKILL, a crash, a power cut) left behind. A name that is
// free to choose carries the owner's process id, "<prefix><pid>-<random>"; a directory whose
// name upstream's log lines fix (./bundle_tmp<n>) has a marker file beside it,
// ".<name>.opm-owner-<pid>". An entry is stale once no process with its id runs; entries of
// running processes, and entries without an owner (made by other tools), are left alone.
namespace opm::util {

// "<prefix><pid of this process>-": the start of an owned name.
std::string owned_prefix(std::string_view prefix);

// The marker file beside `dir` that makes this process its owner.
std::filesystem::path owner_marker(const std::filesystem::path& dir);

// True when `name` is "<prefix><pid>-..." and no process with that id runs.
bool stale_owned_name(std::string_view name, std::string_view prefix);

// The file an owned copy beside it stands for: "<dir>/.<name><infix><pid>-<random>" gives
// "<dir>/<name>"; any other path is returned as it is.
std::filesystem::path owned_copy_original(const std::filesystem::path& copy,
                                          std::string_view infix);

// A new empty file "<dir>/<prefix><pid>-XXXXXX" (mode 0600), after the stale ones of `prefix`
// in `dir` are removed; registered for removal by an interrupt (its owner unregisters it).
// The error is the system's reason.
struct OwnedTempFile {
  Fd fd;
  std::filesystem::path path;
};
Result<OwnedTempFile> make_owned_temp_file(const std::filesystem::path& dir,
                                           std::string_view prefix);

// Removes, with everything in them, the entries of `dir` with a stale owned name for
// `prefix`. Failures are ignored: what cannot be removed stays for the next run.
void remove_stale_owned(const std::filesystem::path& dir, std::string_view prefix);

// Removes the directories of `dir` named "<prefix>..." whose owner marker names a process
// that no longer runs, and their markers.
void remove_stale_marked(const std::filesystem::path& dir, std::string_view prefix);

} // namespace opm::util
