#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <filesystem>

// An index database read as file-based catalog objects, as upstream v1.26.5 renders and
// migrates SQLite catalogs (sqlite.ToModel, declcfg.ConvertFromModel and the database's
// related images).
namespace opm::sqlite {

class Connection;

// The packages, channels and bundles of `db`, which must be at the latest schema: packages
// sorted by name, channels by package then name (entries by name), bundles by package then
// name. Each bundle carries its properties (sorted by type then value, deduplicated) with
// its manifest objects last as olm.bundle.object properties, and the related images of its
// CSV plus those only the database lists, sorted by image. Deprecated bundles are left out.
// Errors keep upstream's texts, e.g. `unknown channel "c" for bundle "b"`, `no csv in bundle`.
Result<catalog::DeclarativeConfig> to_declcfg(Connection& db);

// `path` read as above. The file itself is never written: a database at an older schema is
// copied to a temporary file, migrated there, and read from the copy. SQLite's errors pass
// through, e.g. "file is not a database". A missing file in an existing directory reads as an
// empty database, as upstream (which creates it) reads it.
Result<catalog::DeclarativeConfig> read_file(const std::filesystem::path& path);

} // namespace opm::sqlite
