#!/usr/bin/env bash
# SIGINT or SIGTERM while generate dockerfile writes its file ends the command by that
# signal and leaves neither the temporary file nor a partial Dockerfile. strace holds the
# link of the written temporary file into place for five seconds and then fails it, so the
# signal arrives while the file is on its way. (Not a write: a sanitizer build writes to
# pipes of its own first; and LeakSanitizer cannot run under ptrace, so it is off for the
# traced process.)
source "$OPM_TESTS/cli/lib/common.bash"

if ! command -v strace >/dev/null || ! env --default-signal=INT true 2>/dev/null || ! strace -f -o /dev/null -e inject=link,linkat:delay_enter=1:when=1 true 2>/dev/null; then
  echo "skip: strace with syscall delay injection is not available"
  exit 0
fi

interrupt_write() { # SIGNAL: RC = opm's status
  local spid opid=
  # A background job of a script starts with SIGINT ignored: give opm the default back.
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 env --default-signal=INT \
    strace -f -o /dev/null -e trace=link,linkat \
    -e inject=link,linkat:error=EINTR:delay_enter=5000000:when=1 \
    "$OPM" generate dockerfile cat >/dev/null 2>&1 &
  spid=$!
  # The temporary file exists once opm is held in the link.
  for _ in $(seq 100); do
    compgen -G '.cat.Dockerfile.tmp-*' >/dev/null && opid=$(pgrep -P "$spid") && break
    sleep 0.1
  done
  [ -n "$opid" ] || fail "opm did not reach the write"
  kill -"$1" "$opid"
  RC=0
  wait "$spid" || RC=$?
}

mkdir cat
interrupt_write INT
expect_rc 130
expect_eq "files left" cat "$(ls -A)"

interrupt_write TERM
expect_rc 143
expect_eq "files left" cat "$(ls -A)"

# Uninterrupted, the file is written as usual.
run_opm generate dockerfile cat
expect_rc 0
expect_eq "files left" $'cat\ncat.Dockerfile\nerr\nout' "$(ls -A)"
