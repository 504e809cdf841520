#!/usr/bin/env bash
# opm registry rm|prune|prune-stranded on a database behind a symbolic link update the file
# the link names (the link stays), and keep the file's owner, group and mode.
source "$OPM_TESTS/cli/lib/common.bash"
SQL="$OPM_TESTS/data/sqlite"

mkdir real
for cmd in "rm -o plum:kiwi-rm-plum.json" "prune -p plum:kiwi-prune-plum.json" \
  "prune-stranded:kiwi.json"; do
  golden=${cmd#*:}
  cmd=${cmd%:*}
  cp "$SQL/kiwi.db" real/kiwi.db
  chmod 0640 real/kiwi.db
  chown 1234:5678 real/kiwi.db 2>/dev/null || true # kept only when run as root
  before=$(stat -c '%u:%g %a' real/kiwi.db)
  ln -sfn real/kiwi.db kiwi.db
  # shellcheck disable=SC2086 # the command and its flags are words
  run_opm registry $cmd -d kiwi.db
  expect_rc 0
  [ -L kiwi.db ] || fail "$cmd replaced the link by a file"
  expect_eq "owner, group and mode after $cmd" "$before" "$(stat -c '%u:%g %a' real/kiwi.db)"
  "$OPM" render real/kiwi.db >rendered.json 2>/dev/null || fail "render failed after $cmd"
  expect_file rendered.json "$SQL/render/$golden"
  expect_eq "files beside the database after $cmd" "kiwi.db" "$(ls -A real)"
done
