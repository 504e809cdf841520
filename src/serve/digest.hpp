#pragma once

#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <string_view>

// The serve cache's integrity digest: FNV-1a 64 over the bytes of the tar stream Go's
// archive/tar writes for a directory tree (upstream's pkg/cache fsToTar): entries in
// fs.WalkDir order, symbolic links skipped, owners and times zeroed, names relative to the
// root ("." for the root itself), modes and sizes kept.
namespace opm::serve {

class Fnv64a {
public:
  void update(std::string_view bytes);
  [[nodiscard]] std::uint64_t value() const { return m_hash; }

private:
  std::uint64_t m_hash = 0xcbf29ce484222325ULL;
};

// Feeds the tar stream of `root` into `hash`; a missing root is reported as not_found.
Result<void> hash_tree_as_tar(const std::filesystem::path& root, Fnv64a& hash);

} // namespace opm::serve
