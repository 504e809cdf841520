#pragma once

#include "serve/cache_file.hpp"
#include "serve/serve.hpp"
#include "serve/store.hpp"
#include "util/error.hpp"

#include <atomic>
#include <filesystem>
#include <string>

// Where `opm serve` gets its Store: the catalog itself, or upstream's `json` serve cache
// (DIR/digest and DIR/cache/: packages.json plus one api.Bundle JSON file per channel entry).
namespace opm::serve {

// Loads and validates the catalog as upstream's declcfg.LoadFS + ConvertToModel do.
Result<Catalog> load_catalog(const std::string& dir);

// The Store for these options: the catalog when no --cache-dir is given, else the cache,
// checked (enforcing) or rebuilt when stale.
Result<Store> load_store(const Options& options);

// The cache digest: FNV-1a 64 over a tar stream of the catalog and then of DIR/cache.
Result<std::string> cache_digest(const std::filesystem::path& configs,
                                 const std::filesystem::path& cache_dir);

// Writes the cache for `catalog` into `cache_dir` (its `cache/` emptied and its digest removed
// first, as latest does), digest last.
Result<void> write_cache(const std::filesystem::path& cache_dir, const Catalog& catalog,
                         const std::filesystem::path& configs);

// Reads a cache written by write_cache or by upstream, no file beyond `limits`. Gives up
// (with an error) as soon as `stop` is raised.
Result<Catalog> read_cache(const std::filesystem::path& cache_dir, const CacheLimits& limits,
                           const std::atomic<bool>& stop);

} // namespace opm::serve
