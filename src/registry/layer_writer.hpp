#pragma once

#include "registry/manifest.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

// Image layers written from directory trees, reproducibly: entries in the given order,
// owner 0:0 without names, one fixed modification time, a gzip stream without a name or
// time at zlib's level 6. The same entries and bytes always give the same digest.
namespace opm::registry {

struct LayerEntry {
  enum class Type { directory, file, symlink };
  std::string name; // in the layer, no leading '/': "configs", "configs/a/catalog.json"
  Type type = Type::file;
  std::uint32_t mode = 0644;    // permission bits (and sticky/setgid)
  std::filesystem::path source; // a file's bytes...
  std::string data;             // ...or these, when `source` is empty
  std::string link;             // a symlink's target
  std::uint32_t uid = 0;        // numeric owner, written without user and group names
  std::uint32_t gid = 0;
};

// The entries for the tree at `dir` placed at `prefix` ("configs", "tmp/cache"): first
// the parents of `prefix` as `parents` gives their modes ("tmp" -> 01777), then `prefix`
// itself with `root_mode`, then everything below in byte order of the path, with each
// file's permission bits as they are on disk. Special files are refused.
struct ParentDir {
  std::string name;
  std::uint32_t mode;
};
Result<std::vector<LayerEntry>> tree_entries(const std::filesystem::path& dir,
                                             std::string_view prefix, std::uint32_t root_mode,
                                             const std::vector<ParentDir>& parents = {});

struct WrittenLayer {
  Descriptor descriptor; // the gzip blob: digest and size; media type as asked
  std::string diff_id;   // sha256 of the uncompressed tar
};

// Writes the gzip'd tar of `entries` to `file` (replaced), every entry dated `mtime`
// (seconds since the epoch).
Result<WrittenLayer> write_layer(const std::vector<LayerEntry>& entries, std::int64_t mtime,
                                 const std::filesystem::path& file, std::string media_type);

// Writes the plain tar of `entries` to `file` (replaced), as write_layer does.
Result<void> write_tar(const std::vector<LayerEntry>& entries, std::int64_t mtime,
                       const std::filesystem::path& file);

} // namespace opm::registry
