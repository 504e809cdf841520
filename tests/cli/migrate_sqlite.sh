#!/usr/bin/env bash
# opm migrate of a SQLite database written by upstream: one catalog file per package, the
# same bytes as upstream, and upstream's log lines and fatal errors.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"
cp "$SQL/kiwi.db" kiwi.db

run_opm migrate kiwi.db mig
expect_rc 0
diff -r mig "$SQL/migrate/json" >&2 || fail "json migration differs"
normalized_err >err.norm
{
  printf '%s\n' 'time="T" level=warning msg="\x1b[1;33mDEPRECATION NOTICE:\nSqlite-based catalogs and their related subcommands are deprecated. Support for\nthem will be removed in a future release. Please migrate your catalog workflows\nto the new file-based catalog format.\x1b[0m"'
  printf '%s\n' 'time="T" level=info msg="rendering index \"kiwi.db\" as file-based catalog"'
  printf '%s\n' 'time="T" level=info msg="wrote rendered file-based catalog to \"mig\"\n"'
} >expected
expect_file err.norm expected
cmp -s kiwi.db "$SQL/kiwi.db" || fail "migrate changed the database"

run_opm migrate kiwi.db mig-yaml -o yaml
expect_rc 0
diff -r mig-yaml "$SQL/migrate/yaml" >&2 || fail "yaml migration differs"

mkdir full && touch full/x
run_opm migrate kiwi.db full
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last $'time="T" level=fatal msg="output dir \\"full\\" must be empty"\n'

run_opm migrate kiwi.db mig2 -o toml
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last $'DATE invalid --output value "toml", expected (json|yaml)\n'

# Beyond v1.26.5, as latest upstream: a file-based catalog directory migrates too (without the
# SQLite notice), --migrate-level runs the FBC migrations, and bundles are refused.
run_opm migrate mig mig3
expect_rc 0
grep -q 'DEPRECATION NOTICE' err && fail "deprecation notice for a catalog directory"
grep -q 'level=info msg="rendering index \\"mig\\" as file-based catalog"' err ||
  fail "no rendering line: $(cat err)"
"$OPM" render mig >dir.json 2>/dev/null
cat mig3/*/catalog.json | cmp -s - dir.json || fail "the migrated directory differs from its render"

run_opm migrate kiwi.db lvl --migrate-level bundle-object-to-csv-metadata
expect_rc 0
"$OPM" render kiwi.db --migrate-level bundle-object-to-csv-metadata >lvl.json 2>/dev/null
cat lvl/*/catalog.json | cmp -s - lvl.json || fail "--migrate-level differs from render's"
grep -q '"olm.csv.metadata"' lvl.json || fail "no olm.csv.metadata after the migration"

run_opm migrate kiwi.db bogus --migrate-level bogus
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last $'DATE unknown migration level "bogus"\n'

run_opm migrate "$SQL/bundles/kiwi-0.1.0" bundle-dir
expect_rc 1
grep -q 'cannot render bundle directory .*: not allowed"$' err || fail "bundle directory: $(cat err)"
