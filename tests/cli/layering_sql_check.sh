#!/usr/bin/env bash
# scripts/check-layering.sh keeps SQL against the index schema inside sqlite/: the same query
# passes there and fails in index/, naming the file; PRAGMA and VACUUM count too, and an
# HTTP method called DELETE does not. A C or C++ file of any suffix is read.
source "$OPM_TESTS/cli/lib/common.bash"
source "$OPM_TESTS/cli/lib/layering.bash"

layering_tree sqlite index registry
printf '#include "util/error.hpp"\nauto q = "SELECT DISTINCT name FROM package";\n' >tree/src/sqlite/read.cpp
printf 'auto m = "DELETE";\n' >tree/src/registry/push.cpp
layering_passes "SQL in sqlite/"

printf 'auto q = "SELECT DISTINCT name FROM package";\n' >tree/src/index/read.cpp
layering_refuses '^  index/read.cpp:1:auto q' "the SQL in index/"

printf 'auto ok = db.exec("VACUUM");\n' >tree/src/index/read.cpp
layering_refuses '^  index/read.cpp:1:auto ok' "the VACUUM in index/"

rm tree/src/index/read.cpp
printf 'auto q = "PRAGMA foreign_keys = ON";\n' >tree/src/index/pragmas.inl
layering_refuses '^  index/pragmas.inl:1:auto q' "the PRAGMA in index/pragmas.inl"
exit 0
