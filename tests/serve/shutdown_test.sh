#!/usr/bin/env bash
# SIGTERM and SIGINT while clients stream: the server stops accepting, lets the calls in
# flight finish, logs "shutting down..." and exits 0.
source "$OPM_TESTS/serve/lib/common.bash"

for signal in TERM INT; do
  start_server "$DATA/catalog" -t /dev/null
  "$PYTHON" "$OPM_TESTS/serve/lib/load.py" "127.0.0.1:$PORT" 8 20 >load.txt &
  load_pid=$!
  sleep 1
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
