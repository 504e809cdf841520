#!/usr/bin/env bash
# registry rm|prune log upstream's "deleting packages" and "packages: [...]" lines for each
# package they remove; prune warns of a package named to be kept that the index does not have
# (a typo would otherwise remove the package meant, silently), and so does render-graph -p.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"

cp "$SQL/kiwi.db" kiwi.db
run_opm registry rm -d kiwi.db -o plum
expect_rc 0
grep -qx 'time="[^"]*" level=info msg="deleting packages" pkg=plum' err || fail "no deleting line: $(cat err)"
grep -qx 'time="[^"]*" level=info msg="packages: \[plum\]" pkg=plum' err || fail "no packages line: $(cat err)"

cp "$SQL/kiwi.db" kiwi.db
run_opm registry prune -d kiwi.db -p kiwi,nope
expect_rc 0
grep -qx 'time="[^"]*" level=warning msg="package \\"nope\\" is not in the index: nothing is kept for it"' err ||
  fail "no warning for the unknown package: $(cat err)"
grep -qx 'time="[^"]*" level=info msg="deleting packages" pkg=plum' err || fail "prune: no deleting line: $(cat err)"
grep -q 'pkg=kiwi' err && fail "prune logged the kept package: $(cat err)"
"$OPM" render kiwi.db >rendered.json 2>/dev/null
expect_file rendered.json "$SQL/render/kiwi-rm-plum.json"

run_opm alpha render-graph "$SQL/kiwi.db" -p nope
expect_rc 0
normalized_err | grep -v 'DEPRECATION\|^Sqlite\|^them\|^to the new' >err.norm || true
grep -qx 'DATE package "nope" is not in the catalog: the graph is empty' err.norm ||
  fail "render-graph: no warning: $(cat err)"
run_opm alpha render-graph "$SQL/kiwi.db" -p kiwi
expect_rc 0
grep -q 'is not in the catalog' err && fail "render-graph warned of a package it has: $(cat err)"
exit 0
