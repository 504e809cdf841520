#!/usr/bin/env bash
# A failed opm index add|rm --generate leaves the directory exactly as it was: no
# ./database/index.db (not even an empty one), no ./database, no temporary files; a database
# already there stays byte for byte.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"
export PATH=/usr/bin:/bin # no container engine: the commands only generate
missing="oci:$WORK/no-such-layout:v1"

mkdir empty
cd empty || exit 1
run_opm index add --generate -b "$missing"
expect_rc 1
expect_eq "files left by a failed add" "" "$(ls -A)"

run_opm index rm --generate --from-index "$SQL/kiwi.db" -o nope
expect_rc 1
expect_eq "files left by a failed rm" "" "$(ls -A)"

mkdir database
cp "$SQL/kiwi.db" database/index.db
run_opm index add --generate -b "$missing"
expect_rc 1
cmp -s database/index.db "$SQL/kiwi.db" || fail "a failed add changed ./database/index.db"
expect_eq "files left beside the database" "index.db" "$(ls -A database)"
expect_eq "files left by a failed add" "database" "$(ls -A)"
