#!/usr/bin/env bash
# SIGTERM and SIGINT while clients stream: the server stops accepting, lets the calls in
# flight finish, logs "shutting down..." and exits 0.
source "$OPM_TESTS/serve/lib/common.bash"

for signal in TERM INT; do
  start_server "$DATA/catalog" -t /dev/null
  rm -f streaming
  "$PYTHON" "$OPM_TESTS/serve/lib/load.py" "127.0.0.1:$PORT" 8 20 streaming >load.txt &
  load_pid=$!
  # Signalled once a stream has completed (the clients are then streaming), within 15 s.
  for _ in $(seq 150); do
    [ -e streaming ] && break
    sleep 0.1
  done
  [ -e streaming ] || fail "SIG$signal: no stream completed in 15 s"
  kill -"$signal" "$SERVER_PID"
  wait_server
  expect_rc 0
  wait "$load_pid"
  grep -qE "^completed=[1-9][0-9]* cut=0 sizes=10$" load.txt || fail "SIG$signal under load: $(cat load.txt)"
  normalize_times <server.err | tail -n 1 >last.txt
  expect_text last.txt "time=\"T\" level=info msg=\"shutting down...\" configs=$DATA/catalog port=$PORT
"
done
echo ok
