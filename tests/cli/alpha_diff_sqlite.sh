#!/usr/bin/env bash
# opm alpha diff reads SQLite databases as render does: a database and the catalog rendered
# from it are the same (property values compare as values, however each spells them), and
# truncating a database shows the bundles it dropped.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"

cp "$SQL/kiwi.db" "$SQL/kiwi-deprecated.db" .
mkdir rendered
"$OPM" render kiwi.db >rendered/catalog.json 2>/dev/null || fail "render kiwi.db"

run_opm alpha diff kiwi.db rendered
expect_rc 0
[ -s out ] && fail "unexpected stdout: $(cat out)"

run_opm alpha diff kiwi.db kiwi-deprecated.db --check-upgrades
expect_rc 0
expect_text out 'package kiwi (changed)
  - bundle kiwi.v0.1.0
  channel candidate:
    - entry kiwi.v0.1.0
    - edge kiwi.v0.1.0 skipRange <0.1.0
  channel stable:
    - entry kiwi.v0.1.0
    - edge kiwi.v0.1.0 skipRange <0.1.0
'

run_opm alpha diff rendered kiwi-deprecated.db --check-upgrades -o github
expect_rc 0
run_opm alpha diff kiwi-deprecated.db rendered --check-upgrades -o json
expect_rc 0
cmp -s kiwi.db "$SQL/kiwi.db" || fail "diff changed kiwi.db"
echo "ok - alpha diff sqlite"
