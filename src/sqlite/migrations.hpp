#pragma once

#include "sqlite/connection.hpp"
#include "util/error.hpp"

// Upstream's numbered schema migrations (pkg/sqlite/migrations, ids 0 to 13), so that a
// database written by any upstream version opens and reads the same.
namespace opm::sqlite {

inline constexpr int k_latest_schema_version = 13;

// The schema version recorded in schema_migrations; -1 when the table or its row is missing.
Result<int> schema_version(Connection& db);

// Apply every pending migration, in order, in one transaction: all of them or none. Each
// step records its id; a step that is not current+1 fails with "migration applied out of
// order".
Result<void> migrate(Connection& db);

} // namespace opm::sqlite
