#!/usr/bin/env bash
# opm index add|rm|prune|prune-stranded|deprecatetruncate --generate with --from-index naming
# ./database/index.db itself, however spelled: the file is changed where it is, all at once,
# and a failure leaves it byte for byte as it was.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"
B=127.0.0.1:5231/test
export PATH=/usr/bin:/bin # no container engine: the commands only generate

fresh() {
  rm -rf database index.Dockerfile
  mkdir database
  cp "$SQL/kiwi.db" database/index.db
}

expect_render() { # GOLDEN
  "$OPM" render database/index.db >rendered.json 2>/dev/null || fail "render failed"
  expect_file rendered.json "$SQL/render/$1"
}

fresh
run_opm index rm --generate --from-index database/index.db -o plum
expect_rc 0
expect_render kiwi-rm-plum.json
[ -f index.Dockerfile ] || fail "no Dockerfile"

fresh
run_opm index prune --generate --from-index ./database/../database/index.db -p plum
expect_rc 0
expect_render kiwi-prune-plum.json

fresh
ln -s database/index.db link.db
run_opm index prune-stranded --generate --from-index link.db
expect_rc 0
expect_render kiwi.json
rm link.db

fresh
run_opm index deprecatetruncate --generate --from-index "$WORK/database/index.db" \
  -b "$B/kiwi-bundle:v0.2.0"
expect_rc 0
expect_render kiwi-deprecate-kiwi-0.2.0.json

fresh
run_opm index add --generate --from-index database/index.db -b ""
expect_rc 0
expect_render kiwi.json

for cmd in "rm -o nope" "deprecatetruncate -b $B/nope:v1"; do
  fresh
  # shellcheck disable=SC2086 # the command and its flags are words
  run_opm index $cmd --generate --from-index database/index.db
  expect_rc 1
  cmp -s database/index.db "$SQL/kiwi.db" || fail "a failed $cmd changed the database"
  expect_eq "files left by a failed $cmd" "index.db" "$(ls -A database)"
done
