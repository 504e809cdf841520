#pragma once

#include <string_view>

namespace opm::sqlite {

// Upstream's notice, logged (level warning) whenever a SQLite catalog is read or written, and
// appended to the long help of the commands that take one. The bold yellow escapes are part
// of the text.
inline constexpr std::string_view k_sqlite_deprecation_notice =
    "\x1b[1;33mDEPRECATION NOTICE:\n"
    "Sqlite-based catalogs and their related subcommands are deprecated. Support for\n"
    "them will be removed in a future release. Please migrate your catalog workflows\n"
    "to the new file-based catalog format.\x1b[0m";

} // namespace opm::sqlite
