# Setup for the serve suites (tests/serve/*_test.sh): a scratch directory, the shared
# assertions, and helpers that start `opm serve` on a free loopback port and call it with
# tests/serve/lib/client.py (Debian python3-grpcio).
set -uo pipefail

: "${OPM:?OPM must name the opm binary}"
: "${OPM_TESTS:?OPM_TESTS must name the tests directory}"
DATA="$OPM_TESTS/data/serve"
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c 'import grpc, google.protobuf' 2>/dev/null || ! command -v protoc >/dev/null; then
  echo "skipped: needs python3-grpcio and protoc"
  exit 77
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/opm-serve-test.XXXXXX")"
SERVER_PID=""
cleanup() {
  local status=$?
  [ -n "$SERVER_PID" ] && kill -KILL "$SERVER_PID" 2>/dev/null
  if [ $status -eq 0 ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi
}
trap cleanup EXIT
cd "$WORK" || exit 1

source "$OPM_TESTS/lib/assert.bash"
source "$OPM_TESTS/lib/ports.bash"
source "$OPM_TESTS/lib/processes.bash"
source "$OPM_TESTS/serve/lib/calls.sh"

# measure_memory: for suites that bound the server's memory. Freed memory waits in the
# sanitizer's quarantine before reuse: keep it small, so that what is measured is what the
# server holds.
measure_memory() {
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
}

# peak_kb: the running server's peak resident memory so far.
peak_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$SERVER_PID/status"; }

# memory_scale: how many times more memory the server under test takes for the same data: 3
# for a sanitizer build (redzones and shadow memory), else 1.
memory_scale() {
  # The whole listing first: grep -q closing the pipe early could fail ldd under pipefail.
  local libraries
  libraries=$(ldd "$OPM" 2>/dev/null || true)
  if [[ $libraries == *libasan* ]]; then echo 3; else echo 1; fi
}

# call METHOD [REQUEST_JSON]: one rpc against the running server (a client that has not ended
# 90 s later is stopped: the call fails rather than hangs the suite).
call() { timeout 90 "$PYTHON" "$OPM_TESTS/serve/lib/client.py" "127.0.0.1:$PORT" "$@"; }

# start_server ARGS...: `opm serve ARGS -p PORT` in the background (stderr in server.err);
# returns once the health check answers SERVING, fails if the server exits first.
start_server() {
  PORT=$(free_port)
  "$OPM" serve "$@" -p "$PORT" >server.out 2>server.err &
  SERVER_PID=$!
  wait_serving "127.0.0.1:$PORT" "$SERVER_PID" 2>/dev/null && return 0
  kill -0 "$SERVER_PID" 2>/dev/null || fail "server exited: $(cat server.err)"
  fail "server did not become ready"
}

# stop_server: SIGTERM, then the exit status in $RC; fails if the server is still running
# 30 s later (its grace for calls in flight is 10 s).
stop_server() {
  kill -TERM "$SERVER_PID"
  wait_server
}

# wait_server: the server's exit status in $RC, once it has ended (at most 30 s from now).
wait_server() {
  wait_exit "$SERVER_PID" 30
  SERVER_PID=""
}
