#!/usr/bin/env bash
# SIGINT during registry add and index add leaves the database as it was and no temporary
# files; two processes adding to one database take turns, and both additions are kept.
source "$(dirname "$0")/harness.sh"

start_registry plain
SQL=$OPM_TESTS/data/sqlite
for b in kiwi-0.1.0 plum-1.0.0; do
  push_bundle_image "$SQL/bundles/$b" "test/${b%-*}-bundle" "v${b##*-}"
done
start_fault_proxy "$REG"
# Every blob download of the kiwi bundle stalls, so an interrupt finds the add mid-pull.
fault_rules '[{"path": "/kiwi-bundle/blobs/", "method": "GET", "action": "stall", "seconds": 30, "times": -1}]'

interrupt() { # DIR ARGS...: runs opm in DIR, interrupts it after a second; RC = its status
  local dir=$1 pid
  shift
  (cd "$dir" && exec "$OPM" "$@" > /dev/null 2>&1) &
  pid=$!
  sleep 1
  kill -INT "$pid"
  wait_exit "$pid" 30
}

mkdir -p "$WORK/reg" && cp "$SQL/kiwi.db" "$WORK/reg/index.db"
# The private cache keeps the cache directory out of $TMPDIR, which must stay empty.
export OPM_NO_CACHE=1
interrupt "$WORK/reg" registry add --use-http -d index.db -b "$FAULT/test/kiwi-bundle:v0.1.0"
check "SIGINT ends registry add" test "$RC" = 130
check "the database is unchanged" cmp -s "$WORK/reg/index.db" "$SQL/kiwi.db"
check "no copy of the database left" test "$(ls -A "$WORK/reg")" = index.db
check "no temporary files left" tmp_empty

mkdir -p "$WORK/idx"
interrupt "$WORK/idx" index add --use-http --generate -b "$FAULT/test/kiwi-bundle:v0.1.0"
check "SIGINT ends index add" test "$RC" = 130
check "no database, build context, unpacked image or Dockerfile left" test -z "$(ls -A "$WORK/idx")"
check "no temporary files left" tmp_empty

# Two adds to one new database at once: the second waits for the first, then adds its own.
mkdir -p "$WORK/two"
cd "$WORK/two"
"$OPM" registry add --use-http -d both.db -b "$REG/test/kiwi-bundle:v0.1.0" 2> kiwi.err &
first=$!
"$OPM" registry add --use-http -d both.db -b "$REG/test/plum-bundle:v1.0.0" 2> plum.err &
second=$!
RC=0
wait "$first" || RC=$?
wait "$second" || RC=$?
check "both adds succeed" test "$RC" = 0
"$OPM" render both.db 2> /dev/null | grep '"schema": "olm.package"' -A1 | grep -o '"name": "[a-z]*"' \
  > packages.txt
check "both packages are in the database" \
  test "$(tr '\n' ' ' < packages.txt)" = '"name": "kiwi" "name": "plum" '
check "no copy of the database left" test "$(ls -A | grep -c '^\.both\.db\.')" = 0

finish
