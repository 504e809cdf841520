#!/usr/bin/env bash
# scripts/check-layering.sh keeps SQL against the index schema inside sqlite/: the same query
# passes there and fails in index/, naming the file; PRAGMA and VACUUM count too, and an
# HTTP method called DELETE does not.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir -p tree/scripts tree/src/sqlite tree/src/index tree/src/registry
cp "$OPM_TESTS/../scripts/check-layering.sh" tree/scripts/
printf '#include "util/error.hpp"\nauto q = "SELECT DISTINCT name FROM package";\n' >tree/src/sqlite/read.cpp
printf 'auto m = "DELETE";\n' >tree/src/registry/push.cpp

bash tree/scripts/check-layering.sh >err 2>&1 || fail "SQL in sqlite/ refused: $(cat err)"

printf 'auto q = "SELECT DISTINCT name FROM package";\n' >tree/src/index/read.cpp
RC=0
bash tree/scripts/check-layering.sh >err 2>&1 || RC=$?
expect_rc 1
grep -q '^  index/read.cpp:1:auto q' err || fail "the SQL in index/ is not named: $(cat err)"

printf 'auto ok = db.exec("VACUUM");\n' >tree/src/index/read.cpp
RC=0
bash tree/scripts/check-layering.sh >err 2>&1 || RC=$?
expect_rc 1
exit 0
