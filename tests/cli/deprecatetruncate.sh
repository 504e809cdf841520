#!/usr/bin/env bash
# opm registry deprecatetruncate and opm index deprecatetruncate on kiwi.db: the result renders
# as upstream's copies do, and failures are upstream's logrus fatal lines (registry) or
# cobra errors (index), leaving the database as it was.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"
B=127.0.0.1:5231/test

deprecate() { # GOLDEN ARGS...
  local golden=$1
  shift
  cp "$SQL/kiwi.db" kiwi.db
  run_opm registry deprecatetruncate -d kiwi.db "$@"
  expect_rc 0
  "$OPM" render kiwi.db >rendered.json 2>/dev/null
  expect_file rendered.json "$SQL/render/$golden"
}
deprecate kiwi-deprecate-kiwi-0.2.0.json -b "$B/kiwi-bundle:v0.2.0"
grep -q "level=info msg=\"deprecating from registry\" bundles=\"\[$B/kiwi-bundle:v0.2.0\]\"" err ||
  fail "no start line: $(cat err)"
deprecate kiwi-deprecate-remove-plum.json -b "$B/plum-bundle:v1.0.0" --allow-package-removal
grep -q 'msg="removing packages \[\]string{\\"plum\\"}"' err || fail "no removal line: $(cat err)"
deprecate kiwi-deprecate-remove-kiwi.json -b "$B/kiwi-bundle:v0.3.0,$B/kiwi-bundle:v0.2.0" \
  --allow-package-removal
deprecate kiwi.json -b "$B/nope:v1" --permissive
grep -q "level=warning msg=\"permissive mode enabled\" bundles=\"\[$B/nope:v1\]\" error=\"target bundlepaths for deprecation missing from registry: \[$B/nope:v1\]\"" err ||
  fail "no permissive warning: $(cat err)"

cp "$SQL/kiwi.db" kiwi.db
run_opm registry deprecatetruncate -d kiwi.db -b "$B/kiwi-bundle:v0.3.0"
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last "time=\"T\" level=fatal msg=\"error deprecating bundle $B/kiwi-bundle:v0.3.0: Bundle deprecation causing default channel removal\" bundles=\"[$B/kiwi-bundle:v0.3.0]\""$'\n'
cmp -s kiwi.db "$SQL/kiwi.db" || fail "a failed deprecation changed the database"

run_opm registry deprecatetruncate -d kiwi.db -b "$B/kiwi-bundle:v0.3.0" --allow-package-removal
expect_rc 1
grep -q 'must deprecate 127.0.0.1:5231/test/kiwi-bundle:v0.2.0, head of channel stable' err ||
  fail "unexpected: $(cat err)"

# The index command works on a database file as --from-index, in ./database/index.db.
run_opm index deprecatetruncate --generate -f kiwi.db -b "$B/kiwi-bundle:v0.2.0"
expect_rc 0
"$OPM" render database/index.db >rendered.json 2>/dev/null
expect_file rendered.json "$SQL/render/kiwi-deprecate-kiwi-0.2.0.json"
cmp -s kiwi.db "$SQL/kiwi.db" || fail "the source database changed"
run_opm index deprecatetruncate --generate -f kiwi.db -b "$B/kiwi-bundle:v0.3.0"
expect_rc 1
grep -q '^Error: error deprecating bundle 127.0.0.1:5231/test/kiwi-bundle:v0.3.0: Bundle deprecation causing default channel removal$' err ||
  fail "unexpected: $(cat err)"
run_opm index deprecatetruncate --generate -f kiwi.db
expect_rc 1
grep -q '^Error: required flag(s) "bundles" not set$' err || fail "unexpected: $(cat err)"
exit 0
