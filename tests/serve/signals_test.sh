#!/usr/bin/env bash
# A second SIGTERM while the server stops gracefully (GNU timeout sends two) is taken in the
# same way as the first: the stop goes on, the exit status is 0, and opm registry serve still
# removes its copy of the database.
source "$OPM_TESTS/serve/lib/common.bash"
mkdir tmp

# stall_call: a ListBundles call held in flight for 3 seconds (its client gives the server no
# window to answer in), so that a graceful stop waits for it.
stall_call() {
  "$PYTHON" "$OPM_TESTS/serve/lib/h2raw.py" stall "127.0.0.1:$PORT" /api.Registry/ListBundles 3 >stall.txt &
  STALL=$!
  for _ in $(seq 100); do grep -q stalled stall.txt && return 0; sleep 0.05; done
  fail "stalled call not sent"
}

# two_sigterms LOG: SIGTERM, and another once the server logged that it is shutting down.
two_sigterms() {
  kill -TERM "$SERVER_PID"
  for _ in $(seq 100); do grep -q 'shutting down' "$1" && break; sleep 0.05; done
  kill -TERM "$SERVER_PID" || fail "the server was gone before the second signal"
  wait_server
  wait "$STALL"
  cp server.err "$WORK/err"
}

start_server "$DATA/catalog" -t /dev/null
stall_call
two_sigterms server.err
expect_rc 0
normalize_times <server.err >log.txt
expect_text log.txt "time=\"T\" level=info msg=\"serving registry\" configs=$DATA/catalog port=$PORT
time=\"T\" level=info msg=\"shutting down...\" configs=$DATA/catalog port=$PORT
"

PORT=$(free_port)
cp "$OPM_TESTS/data/sqlite/kiwi.db" kiwi.db
TMPDIR="$WORK/tmp" "$OPM" registry serve -d kiwi.db -t "$WORK/termination-log" -p "$PORT" >server.out 2>server.err &
SERVER_PID=$!
wait_serving "127.0.0.1:$PORT" "$SERVER_PID" 2>/dev/null || fail "registry serve: $(cat server.err)"
stall_call
two_sigterms server.out
expect_rc 0
[ -z "$(ls -A tmp)" ] || fail "temporary files left: $(ls -A tmp)"
expect_eq "shutdown lines" 1 "$(grep -c 'shutting down' server.out)"
echo ok
