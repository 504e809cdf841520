#!/usr/bin/env bash
# opm render of SQLite index databases written by upstream: the same bytes as upstream, the
# deprecation notice once, and the database file left untouched.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"

for db in kiwi kiwi-deprecated semver; do
  cp "$SQL/$db.db" "$db.db"
  run_opm render "$db.db"
  expect_rc 0
  expect_file out "$SQL/render/$db.json"
  run_opm render "$db.db" -o yaml
  expect_rc 0
  expect_file out "$SQL/render/$db.yaml"
  cmp -s "$db.db" "$SQL/$db.db" || fail "rendering changed $db.db"
done

# The notice is logged once per process, however many databases are rendered.
run_opm render kiwi.db semver.db
expect_rc 0
[ "$(grep -c 'DEPRECATION NOTICE' err)" = 1 ] || fail "expected one notice: $(cat err)"
normalized_err >err.norm
printf '%s\n' 'time="T" level=warning msg="\x1b[1;33mDEPRECATION NOTICE:\nSqlite-based catalogs and their related subcommands are deprecated. Support for\nthem will be removed in a future release. Please migrate your catalog workflows\nto the new file-based catalog format.\x1b[0m"' >expected
expect_file err.norm expected
expect_file out "$SQL/render/kiwi+semver.json"

# A file starting like a database that is not one fails with SQLite's message.
printf 'SQLite format 3\0%0100d' 0 >bad.db
run_opm render bad.db
expect_rc 1
grep -q 'render reference "bad.db": file is not a database$' err || fail "unexpected: $(cat err)"

# Other files are still refused as upstream's latest does.
printf 'hello' >plain.txt
run_opm render plain.txt
expect_rc 1
grep -q 'ref "plain.txt" is not a directory: not allowed$' err || fail "unexpected: $(cat err)"

# A database whose graph breaks a model rule fails with upstream's tree.
cp "$SQL/invalid.db" invalid.db
run_opm render invalid.db
expect_rc 1
normalized_err | tail -n 4 >err.tail
printf '%s\n' 'DATE render reference "invalid.db": invalid index:' \
  '└── invalid package "kiwi":' \
  '    └── invalid channel "stable":' \
  '        └── multiple channel heads found in graph: kiwi.v0.2.0, kiwi.v0.3.0' >expected
expect_file err.tail expected
