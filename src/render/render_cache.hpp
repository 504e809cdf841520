#pragma once

#include "catalog/declcfg.hpp"

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

namespace opm::render {

// Bundle images rendered before: the olm.bundle each became, as files in one
// directory, keyed by the image manifest's digest, the reference as written (the bundle's
// `image`) and this very build of opm. A warm render reads one instead of unpacking and
// converting the image again. Entries are written atomically and carry a checksum of their
// inputs and content; one that cannot be read or does not match counts as absent and is
// rewritten. Each build keeps its entries in a sub-directory
// named by its build ID and, when it first stores one in a run, removes those of other
// builds and its own entries not used for 30 days, so the cache holds what is in use. A hit
// renews its entry's time (its last use); each call holds the cache directory
// (registry::CacheUse) while it reads or writes.
class RenderCache {
public:
  // None when this build has no build ID to key entries on.
  static std::optional<RenderCache> open(std::filesystem::path dir);

  [[nodiscard]] std::optional<catalog::DeclarativeConfig> find(std::string_view image_digest,
                                                               std::string_view ref) const;
  // Keeps a config of exactly one bundle; anything else is not cached. Failures to write
  // are ignored: the cache only saves time.
  void store(std::string_view image_digest, std::string_view ref,
             const catalog::DeclarativeConfig& cfg) const;

private:
  explicit RenderCache(std::filesystem::path dir);
  [[nodiscard]] std::filesystem::path entry(std::string_view image_digest,
                                            std::string_view ref) const;
  void tidy() const;

  std::filesystem::path m_root; // the cache directory
  std::filesystem::path m_dir;  // this build's entries
  std::shared_ptr<std::once_flag> m_pruned = std::make_shared<std::once_flag>();
};

} // namespace opm::render
