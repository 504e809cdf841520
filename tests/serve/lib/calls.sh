# run_calls ADDRESS CALLS_FILE: every call of the file ("Service/Method JSON" per line), each
# answer after a "== call" header line.
run_calls() {
  local address=$1 file=$2 method request
  while read -r method request; do
    echo "== $method $request"
    /usr/bin/python3 "$OPM_TESTS/serve/lib/client.py" "$address" "$method" "$request"
  done <"$file"
}

# wait_serving ADDRESS PID: returns once the health check at ADDRESS answers SERVING; fails
# (status 1, a reason on stderr) when PID exits first or after 30 s.
wait_serving() {
  local address=$1 pid=$2 i
  for i in $(seq 1 300); do
    if /usr/bin/python3 "$OPM_TESTS/serve/lib/client.py" "$address" grpc.health.v1.Health/Check \
      2>/dev/null | grep -q SERVING; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "server exited" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "server did not become ready" >&2
  return 1
}
