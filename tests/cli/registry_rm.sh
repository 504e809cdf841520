#!/usr/bin/env bash
# opm registry rm and prune-stranded on databases written by upstream: the result renders as
# upstream's does, failures are logrus fatal lines, and a failed removal changes nothing.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"

cp "$SQL/kiwi.db" kiwi.db
run_opm registry rm -d kiwi.db -o plum
expect_rc 0
grep -q 'DEPRECATION NOTICE' err || fail "no deprecation notice: $(cat err)"
"$OPM" render kiwi.db >rendered.json 2>/dev/null
expect_file rendered.json "$SQL/render/kiwi-rm-plum.json"

cp "$SQL/kiwi.db" kiwi.db
run_opm registry rm -d kiwi.db -o kiwi,nope
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last $'time="T" level=fatal msg="permissive mode disabled" error="error deleting packages from database: error removing operator package nope: no package found for packagename nope"\n'
cmp -s kiwi.db "$SQL/kiwi.db" || fail "a failed rm changed the database"

run_opm registry rm -d kiwi.db -o nope,plum --permissive
expect_rc 0
grep -q 'level=warning msg="permissive mode enabled" error="error deleting packages from database: error removing operator package nope: no package found for packagename nope"' err ||
  fail "no permissive warning: $(cat err)"
"$OPM" render kiwi.db >rendered.json 2>/dev/null
expect_file rendered.json "$SQL/render/kiwi-rm-plum.json"

run_opm registry rm -d kiwi.db
expect_rc 1
grep -q '^Error: required flag(s) "packages" not set$' err || fail "unexpected: $(cat err)"
head -n 1 err | grep -q 'DEPRECATION NOTICE' || fail "no deprecation notice before the error"

# Pruning keeps the deprecated bundle's rows, so the render is unchanged.
cp "$SQL/kiwi-deprecated.db" dep.db
run_opm registry prune-stranded -d dep.db
expect_rc 0
"$OPM" render dep.db >rendered.json 2>/dev/null
expect_file rendered.json "$SQL/render/kiwi-deprecated.json"

# prune keeps only the named packages; unknown names are ignored.
cp "$SQL/kiwi.db" kiwi.db
run_opm registry prune -d kiwi.db -p plum,zzz
expect_rc 0
"$OPM" render kiwi.db >rendered.json 2>/dev/null
expect_file rendered.json "$SQL/render/kiwi-prune-plum.json"
