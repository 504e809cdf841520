#!/usr/bin/env bash
# One cache directory, several processes: each takes the directory's lock before it checks,
# reads or rebuilds the cache, so two --cache-only builds take turns and leave a cache that
# checks out. While it waits, a SIGINT the parent left ignored stays ignored and SIGTERM ends
# it at once.
source "$OPM_TESTS/serve/lib/common.bash"

cp -r "$DATA/catalog" cat
mkdir cache

# hold_lock: another process holds cache's lock until release_lock.
hold_lock() {
  "$PYTHON" -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)' cache >holder.txt &
  HOLDER=$!
  for _ in $(seq 100); do grep -q locked holder.txt && return 0; sleep 0.05; done
  fail "lock not taken"
}
release_lock() { kill "$HOLDER" && wait "$HOLDER" 2>/dev/null; }

# build_in_background: a --cache-only build into cache, started as a script's background job
# is, with SIGINT ignored.
build_in_background() {
  (trap '' INT && exec "$OPM" serve cat --cache-dir cache --cache-only -t /dev/null >build.out 2>build.err) &
  BUILD=$!
}

expect_waiting() { # WHAT
  sleep 1
  kill -0 "$BUILD" 2>/dev/null || fail "$1: the build did not wait for the lock ($(cat build.err))"
  [ -z "$(ls -A cache)" ] || fail "$1: the build wrote into a locked cache: $(ls -A cache)"
}

expect_checks_out() {
  run_opm serve cat --cache-dir cache --cache-only --cache-enforce-integrity -t /dev/null
  expect_rc 0
}

# A build waits for the lock, then builds.
hold_lock
build_in_background
expect_waiting "held lock"
# ... an ignored SIGINT does not end it ...
kill -INT "$BUILD"
expect_waiting "ignored SIGINT"
release_lock
RC=0
wait "$BUILD" || RC=$?
expect_rc 0
expect_checks_out

# SIGTERM ends a waiting build at once, as the default action would.
rm -rf cache && mkdir cache
hold_lock
build_in_background
expect_waiting "held lock"
kill -TERM "$BUILD"
RC=0
wait "$BUILD" || RC=$?
expect_rc 143
release_lock

# Builds side by side into one directory: every time, the cache checks out.
rm -rf cache
for round in 1 2 3 4 5; do
  "$OPM" serve cat --cache-dir cache --cache-only -t /dev/null 2>build1.err &
  first=$!
  "$OPM" serve cat --cache-dir cache --cache-only -t /dev/null 2>build2.err || fail "round $round: $(cat build2.err)"
  wait "$first" || fail "round $round: $(cat build1.err)"
  expect_checks_out
done
echo ok
