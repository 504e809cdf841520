#!/usr/bin/env bash
# opm registry add: bundle images loaded into a new database give what upstream's render of
# its own database gives; adding an image again exits 2, the same CSV under another tag
# exits 3, and a failed add leaves the database file as it was.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
SQL=$OPM_TESTS/data/sqlite
push_sqlite_bundles
push_bundle_image "$SQL/bundles/kiwi-0.3.0" test/kiwi-bundle v0.3.0-again
images=$SQLITE_BUNDLES
DB=$WORK/kiwi.db

expect_ok "add four bundles to a new database" registry add --use-http -d "$DB" -b "$images"
check "the deprecation notice logged" err_has "DEPRECATION NOTICE:"
# kiwi 0.1.0 and 0.2.0 have no properties file, plum neither file; each bundle is parsed twice.
check "missing metadata files logged as upstream logs them" test "$(grep -cE \
  'level=info msg="Could not find optional (dependencies|properties) file" file=bundle_tmp[0-9]+/metadata load=annotations with=\./bundle_tmp[0-9]+$' \
  "$WORK/err")" = 8
sed "s#127.0.0.1:5231#$REG#g" "$SQL/render/kiwi.json" > "$WORK/expected.json"
"$OPM" render "$DB" > "$WORK/rendered.json" 2> /dev/null
check "the database renders as upstream's" cmp -s "$WORK/rendered.json" "$WORK/expected.json"
# Every statement of a dump, sorted (upstream inserts rows in Go map order), with the time of
# the migration row left out.
dump() { # DB
  python3 -c 'import sqlite3, sys
for line in sqlite3.connect(sys.argv[1]).iterdump(): print(line)' "$1" |
    sed -E "s/^(INSERT INTO \"schema_migrations\" VALUES\(13,)'[^']*'\);/\1'');/" | sort
}
check "the database dumps as upstream's, schema text included" cmp -s <(dump "$DB") \
  <(dump "$SQL/kiwi.db" | sed "s#127.0.0.1:5231#$REG#g" | sort)

cp "$DB" "$WORK/before.db"
expect_fail "an image already added" \
  "Error: [Bundle $REG/test/kiwi-bundle:v0.3.0 already exists, Bundle already added that provides package and csv]" \
  registry add --use-http -d "$DB" -b "$REG/test/kiwi-bundle:v0.3.0"
check "exit code 2" test "$RC" = 2
check "the database is unchanged" cmp -s "$DB" "$WORK/before.db"

expect_fail "a CSV already added under another tag" \
  "Error: Bundle already added that provides package and csv" \
  registry add --use-http -d "$DB" -b "$REG/test/kiwi-bundle:v0.3.0-again"
check "exit code 3" test "$RC" = 3
check "the database is still unchanged" cmp -s "$DB" "$WORK/before.db"
check "no temporary copy left" test "$(ls -A "$WORK" | grep -c '^\.kiwi\.db\.')" = 0

expect_ok "--overwrite-latest puts a new image of a channel head in its place" \
  registry add --use-http --overwrite-latest -d "$DB" -b "$REG/test/kiwi-bundle:v0.3.0-again"
sed 's#kiwi-bundle:v0.3.0"#kiwi-bundle:v0.3.0-again"#' "$WORK/expected.json" > "$WORK/expected-again.json"
"$OPM" render "$DB" > "$WORK/rendered.json" 2> /dev/null
check "only the image changed, as upstream's render shows" \
  cmp -s "$WORK/rendered.json" "$WORK/expected-again.json"
expect_fail "--overwrite-latest of a bundle something replaces" \
  "Cannot overwrite a bundle that is not at the head of a channel using --overwrite-latest" \
  registry add --use-http --overwrite-latest -d "$DB" -b "$REG/test/kiwi-bundle:v0.2.0"

# A reference the registry has nothing under fails with upstream's texts: its resolver's
# error for the pull and its store's for the unpack it still tries.
cp "$DB" "$WORK/before.db"
for missing in "$REG/test/kiwi-bundle:missing" "$REG/test/no-such-repository:v1"; do
  expect_fail "a bundle image that is not there: $missing" \
    "Error: [error resolving name for image ref $missing: $missing: not found, image \"$missing\": not found]" \
    registry add --use-http -d "$DB" -b "$missing"
  check "exit code 1" test "$RC" = 1
  check "the database is unchanged" cmp -s "$DB" "$WORK/before.db"
done

# Bundles substituting for each other are refused with the loop, as latest upstream refuses
# them (v1.26.5 walked the chain until memory ran out); the database stays as it was.
for side in a:b b:a; do
  dir=$WORK/kiwi-sub-${side%:*}
  cp -r "$SQL/bundles/kiwi-0.3.0" "$dir"
  sed -i -e "s/^  name: kiwi.v0.3.0\$/  name: kiwi.v0.3.0-${side%:*}/" \
    -e "s/^  version: 0.3.0\$/  version: 0.3.0+${side%:*}/" \
    -e "s/^  annotations:\$/  annotations:\n    olm.substitutesFor: kiwi.v0.3.0-${side#*:}/" \
    "$dir/manifests/kiwi.clusterserviceversion.yaml"
  push_bundle_image "$dir" test/kiwi-bundle "v0.3.0-${side%:*}"
done
expect_fail "two bundles substituting for each other" \
  'Error: failed to add substitutes : cyclic substitutesFor chain detected involving "kiwi.v0.3.0-b": kiwi.v0.3.0-b -> kiwi.v0.3.0-a -> kiwi.v0.3.0-b' \
  registry add --use-http --enable-alpha -d "$DB" -b "$REG/test/kiwi-bundle:v0.3.0-a,$REG/test/kiwi-bundle:v0.3.0-b"
check "exit code 1" test "$RC" = 1
check "the database is unchanged" cmp -s "$DB" "$WORK/before.db"

expect_fail "a bundle whose replaces is missing" \
  "Error: Invalid bundle kiwi.v0.2.0, replaces nonexistent bundle kiwi.v0.1.0" \
  registry add --use-http -d "$WORK/new.db" -b "$REG/test/kiwi-bundle:v0.2.0"
check "exit code 1" test "$RC" = 1
check "no database made" test ! -e "$WORK/new.db"

expect_ok "the same with --permissive" \
  registry add --use-http --permissive -d "$WORK/kept.db" -b "$REG/test/kiwi-bundle:v0.2.0"
check "the failure logged as a warning" \
  err_has 'level=warning msg="permissive mode enabled" bundles="['"$REG"'/test/kiwi-bundle:v0.2.0]" error="Invalid bundle kiwi.v0.2.0, replaces nonexistent bundle kiwi.v0.1.0"'
check "the database kept, without a package" test -s "$WORK/kept.db"
"$OPM" render "$WORK/kept.db" > "$WORK/kept.json" 2> /dev/null
check "which renders nothing" test ! -s "$WORK/kept.json"

finish
