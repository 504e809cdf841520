#!/usr/bin/env bash
# opm index export joins package names and bundle versions from the database into paths under
# the download folder; a name that is not one safe path element ("../x", an absolute path) is
# refused before anything is pulled or written (upstream wrote outside the folder).
source "$(dirname "$0")/harness.sh"

start_registry plain
push_sqlite_bundles
SQL=$OPM_TESTS/data/sqlite

db_with() { # FILE STATEMENT...: kiwi.db with its bundles on this registry, then the statements
  cp "$SQL/kiwi.db" "$1"
  python3 - "$1" "UPDATE operatorbundle SET bundlepath = replace(bundlepath, '127.0.0.1:5231', '$REG')" \
    "${@:2}" << 'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for statement in sys.argv[2:]:
    db.execute(statement)
db.commit()
PY
}
rename_kiwi() { # FILE NAME: kiwi.db with package kiwi renamed to NAME
  db_with "$1" "UPDATE package SET name = '$2' WHERE name = 'kiwi'" \
    "UPDATE channel SET package_name = '$2' WHERE package_name = 'kiwi'" \
    "UPDATE channel_entry SET package_name = '$2' WHERE package_name = 'kiwi'"
}
version_of_kiwi_020() { # FILE VERSION
  db_with "$1" "UPDATE operatorbundle SET version = '$2' WHERE name = 'kiwi.v0.2.0'"
}
err_line() { grep -qxF -- "$1" "$WORK/err"; } # LINE: stderr has this whole line
nothing_written() { test "$(ls -A "$WORK/run-dir")" = "" && test ! -e "$WORK/up" && test ! -e "$WORK/abs"; }
export_in_run_dir() { # DB: index export of DB into ./dl/sub, run in an empty directory
  rm -rf "$WORK/run-dir" && mkdir "$WORK/run-dir" && cd "$WORK/run-dir"
  "$OPM" index export --use-http -i "$1" -f dl/sub > "$WORK/out" 2> "$WORK/err"
}

rename_kiwi "$WORK/climbs.db" ../../../up
RC=0 && export_in_run_dir "$WORK/climbs.db" || RC=$?
check "a package name climbing out exits 1" test "$RC" = 1
check "a package name climbing out is named" err_line \
  'Error: invalid package name "../../../up": must be a single local path element'
check "nothing written for a climbing package name" nothing_written

rename_kiwi "$WORK/absolute.db" "$WORK/abs"
RC=0 && export_in_run_dir "$WORK/absolute.db" || RC=$?
check "an absolute package name exits 1" test "$RC" = 1
check "an absolute package name is named" err_line \
  "Error: invalid package name \"$WORK/abs\": must be a single local path element"
check "nothing written for an absolute package name" nothing_written

version_of_kiwi_020 "$WORK/version.db" ../../../../up
RC=0 && export_in_run_dir "$WORK/version.db" || RC=$?
check "a bundle version climbing out exits 1" test "$RC" = 1
check "a bundle version climbing out is named with its image" err_line \
  "Error: bundle image \"$REG/test/kiwi-bundle:v0.2.0\": invalid bundle version \"../../../../up\": must be a single local path element"
check "nothing written for a climbing bundle version" nothing_written

version_of_kiwi_020 "$WORK/version-abs.db" "$WORK/abs"
RC=0 && export_in_run_dir "$WORK/version-abs.db" || RC=$?
check "an absolute bundle version exits 1" test "$RC" = 1
check "nothing written for an absolute bundle version" nothing_written

db_with "$WORK/fine.db"
RC=0 && export_in_run_dir "$WORK/fine.db" || RC=$?
check "safe names export" test "$RC" = 0
for v in 0.1.0 0.2.0 0.3.0; do
  check "kiwi $v manifests in the download folder" diff -r dl/sub/kiwi/$v "$SQL/bundles/kiwi-$v/manifests"
done
check "only the packages in the download folder" test "$(ls -A dl/sub | tr '\n' ' ')" = "kiwi plum "
check "nothing beside the download folder" test "$(ls -A . dl | tr '\n' ' ')" = ".: dl  dl: sub "
finish
