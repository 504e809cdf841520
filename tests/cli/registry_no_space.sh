#!/usr/bin/env bash
# A database update that runs out of disk space fails with "no space left on device", naming
# the database, and leaves it and its directory as they were. Needs a small tmpfs (root).
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"

mkdir small
# Room for the database, not for its copy.
if ! mount -t tmpfs -o size=160k tmpfs small 2>/dev/null; then
  echo "skipped: cannot mount a tmpfs here"
  exit 77
fi
trap 'status=$?; umount "$WORK/small"; if [ $status -eq 0 ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi' EXIT
cp "$SQL/kiwi.db" small/kiwi.db

run_opm registry rm -d small/kiwi.db -o plum
expect_rc 1
grep -qx 'Error: copy small/kiwi.db: no space left on device' err || fail "unexpected: $(cat err)"
cmp -s small/kiwi.db "$SQL/kiwi.db" || fail "the failed rm changed the database"
expect_eq "files left beside the database" "kiwi.db" "$(ls -A small)"
