#!/usr/bin/env bash
# What a killed opm registry add|rm leaves (database copies, ./bundle_tmp* directories) carries
# its process id, and the next run removes it once that process is gone; what belongs to a
# running process, or to no opm at all, stays.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"

sh -c 'exit 0' &
gone=$!
wait "$gone"
alive=$$

cp "$SQL/kiwi.db" kiwi.db
for owner in "$gone" "$alive"; do
  echo x >".kiwi.db.opm-$owner-AbCdEf"
  mkdir "bundle_tmp$owner"
  touch ".bundle_tmp$owner.opm-owner-$owner"
done
echo x >.kiwi.db.XyZxYz
mkdir bundle_tmp1
run_opm registry rm -d kiwi.db -o plum
expect_rc 0
[ ! -e ".kiwi.db.opm-$gone-AbCdEf" ] || fail "the copy of an ended process stayed"
[ -e ".kiwi.db.opm-$alive-AbCdEf" ] || fail "the copy of a running process was removed"
[ -e .kiwi.db.XyZxYz ] || fail "a file of unknown owner was removed"

run_opm registry add -d kiwi.db -b "oci:$WORK/no-such-layout:v1"
expect_rc 1
[ ! -e "bundle_tmp$gone" ] || fail "the bundle directory of an ended process stayed"
[ ! -e ".bundle_tmp$gone.opm-owner-$gone" ] || fail "the marker of an ended process stayed"
[ -e "bundle_tmp$alive" ] || fail "the bundle directory of a running process was removed"
[ -e bundle_tmp1 ] || fail "a directory of unknown owner was removed"
