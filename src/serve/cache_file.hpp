#pragma once

#include "util/error.hpp"
#include "util/fs.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

// Guards for reading a serve cache, which may be shipped in an image or left by another
// process: one process at a time per cache directory, and no read of more than the cache
// can legitimately hold, nor of anything but a regular file.
namespace opm::serve {

// An exclusive flock on a cache directory, held while the cache is checked, read or rebuilt,
// so that two processes sharing one directory take turns (as the index commands do with a
// database's directory). With `create`, a missing directory is made first and removed again
// when this goes away if it is still empty. Where the directory cannot be opened, or its file
// system has no locks, nothing is locked: reading or writing the cache fails on its own.
class CacheDirLock {
public:
  CacheDirLock(const std::filesystem::path& dir, bool create);
  CacheDirLock(const CacheDirLock&) = delete;
  CacheDirLock& operator=(const CacheDirLock&) = delete;
  ~CacheDirLock();

private:
  std::filesystem::path m_dir;
  bool m_created = false;
  util::Fd m_fd;
};

// The most a file of the json cache can hold, from the catalog it was built from: a bundle's
// file is the api.Bundle of one olm.bundle, so it is never much larger than the catalog file
// that holds the bundle; packages.json only names what the catalog has.
struct CacheLimits {
  std::uint64_t bundle_file = 0;
  std::uint64_t packages_file = 0;
};

// The limits for a catalog directory (its regular files, symbolic links to files included;
// what cannot be read counts for nothing).
CacheLimits cache_limits(const std::filesystem::path& configs);

// Checks, without reading any content, that everything under `json_dir` is a directory, a
// symbolic link (the digest skips them) or a regular file within `limits`. The error is the
// reason the cache cannot be used ("<path> is not a regular file").
Result<void> survey_cache_files(const std::filesystem::path& json_dir, const CacheLimits& limits);

// The whole of `path` into `out` (whose allocation is reused): a regular file, not a symbolic
// link, of at most `limit` bytes. Nothing else is read, and a FIFO is never waited on.
Result<void> read_cache_file(const std::filesystem::path& path, std::uint64_t limit,
                             std::string& out);

// The digest file's text: a regular file (a symbolic link to one is followed) of at most a few
// kilobytes; "<path> is not a regular file" otherwise.
Result<std::string> read_digest_file(const std::filesystem::path& path);

} // namespace opm::serve
