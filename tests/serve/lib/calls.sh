# run_calls ADDRESS CALLS_FILE: every call of the file ("Service/Method JSON" per line), each
# answer after a "== call" header line.
run_calls() {
  local address=$1 file=$2 method request
  while read -r method request; do
    echo "== $method $request"
    /usr/bin/python3 "$OPM_TESTS/serve/lib/client.py" "$address" "$method" "$request"
  done <"$file"
}
