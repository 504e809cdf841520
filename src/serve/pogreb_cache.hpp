#pragma once

#include "serve/pogreb_db.hpp"
#include "serve/serve.hpp"
#include "serve/store.hpp"
#include "util/error.hpp"

#include <filesystem>

// Latest upstream's preferred serve cache, `<cache>/pogreb.v1/{digest,db/}`, which every
// catalog image built by a current upstream opm holds: read (never written) as latest reads
// it, with latest's digest (FNV-1a 64 over the catalog's normalised documents in walk order,
// then every database key in byte-wise order followed by its value) and latest's messages.
namespace opm::serve {

// Whether `cache_dir` holds a `pogreb.v1` directory, which latest reads whatever else is there.
bool has_pogreb_cache(const std::filesystem::path& cache_dir);

// The catalog served from the pogreb cache of `options.cache_dir`. Enforcing, a cache whose
// digest is missing or does not match, or whose database is damaged, fails; otherwise such a
// cache is replaced by this implementation's json cache (which latest reads too), built aside
// and moved into place, `pogreb.v1` removed last.
Result<Catalog> load_pogreb_cache(const Options& options);

// The pogreb digest of a catalog and the records of a database, as 16 hex digits.
Result<std::string> pogreb_digest(const std::filesystem::path& configs,
                                  const PogrebRecords& records);

} // namespace opm::serve
