#pragma once

#include "util/error.hpp"
#include "util/fs.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

// The cache directory as a whole (registry::default_cache_dir): the blob store at its top,
// rendered bundles under renders/, built catalog layers under catalog-layers/; what it holds
// and removing what has not been used for a while (`opm alpha cache info|prune`).
namespace opm::registry {

inline constexpr std::string_view k_render_cache_dir = "renders";
inline constexpr std::string_view k_layer_cache_dir = "catalog-layers";

// A hold on the cache directory. Every opm that reads or writes the cache holds it shared
// for as long as it may use what it found there; pruning holds it exclusive, so it removes
// nothing another opm is using, and opm processes that start meanwhile wait for it to end.
// The lock is the flock of <dir>/use.lock, a file that stays.
class CacheUse {
public:
  // Shared. A directory that cannot be made or locked gives an empty hold: nothing can be
  // pruned from it either.
  static CacheUse shared(const std::filesystem::path& dir);
  // Exclusive; `on_wait` is called once when other processes hold the directory, before
  // waiting for them.
  static Result<CacheUse> exclusive(const std::filesystem::path& dir,
                                    const std::function<void()>& on_wait);

  CacheUse(CacheUse&& other) noexcept : m_fd(other.m_fd.fd) { other.m_fd.fd = -1; }
  CacheUse& operator=(CacheUse&&) = delete;
  CacheUse(const CacheUse&) = delete;
  CacheUse& operator=(const CacheUse&) = delete;
  ~CacheUse() = default;

private:
  explicit CacheUse(int fd) : m_fd(fd) {}
  util::Fd m_fd;
};

using CacheClock = std::chrono::system_clock;

// One thing the cache keeps: a blob, a download left in ingest/, a rendered bundle, a set of
// catalog layers (a directory). Its last use is its modification time, which readers renew
// on each hit (layers: that of their layers.json).
struct CacheEntry {
  std::filesystem::path path;
  std::uint64_t bytes = 0;
  CacheClock::time_point last_used;
  bool leftover = false; // a removal interrupted before: always pruned
};

struct CacheInventory {
  std::vector<CacheEntry> entries;
  std::uint64_t total_bytes = 0; // every file under the directory, its index included
};

// What the cache at `dir` holds; a directory that does not exist holds nothing.
// Files that vanish while they are looked at are left out.
Result<CacheInventory> cache_inventory(const std::filesystem::path& dir);

struct PruneTotals {
  std::size_t removed_entries = 0;
  std::uint64_t removed_bytes = 0;
};

// Removes the entries last used before `cutoff` (every entry without one), then forgets the
// references to manifests no longer kept. Each entry is first renamed to
// `.pruning-<pid>-<name>` beside itself, so it is gone at once, then deleted. The caller
// holds the directory exclusively (CacheUse::exclusive). Fails on the first entry that
// cannot be removed, naming it.
Result<PruneTotals> prune_cache(const std::filesystem::path& dir,
                                std::optional<CacheClock::time_point> cutoff);

} // namespace opm::registry
