#!/usr/bin/env bash
# opm alpha list and alpha render-graph of a SQLite database: upstream's tables, the graph of
# the same catalog as a directory, and the deprecation notice once.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"
cp "$SQL/kiwi.db" kiwi.db

for what in packages channels bundles; do
  run_opm alpha list "$what" kiwi.db
  expect_rc 0
  expect_file out "$SQL/list/kiwi-$what.txt"
  [ "$(grep -c 'DEPRECATION NOTICE' err)" = 1 ] || fail "no single deprecation notice: $(cat err)"
done
cmp -s kiwi.db "$SQL/kiwi.db" || fail "listing changed the database"

"$OPM" migrate kiwi.db catalog 2>/dev/null
"$OPM" alpha render-graph catalog >dir.graph 2>/dev/null
run_opm alpha render-graph kiwi.db
expect_rc 0
expect_file out dir.graph
[ "$(grep -c 'DEPRECATION NOTICE' err)" = 1 ] || fail "no single deprecation notice: $(cat err)"
exit 0
