#!/usr/bin/env bash
# A client that opens its windows, asks for more than the connection can hold and then reads
# nothing is cut off once it has taken nothing for 10 seconds, and not before: a client that
# reads after 5 seconds still gets every answer. Connections go to gRPC as they are, one
# descriptor each; OPM_SERVE_RELAY=1 relays them through a socket pair instead, and the same
# holds there.
source "$OPM_TESTS/serve/lib/common.bash"

sockets() { find "/proc/$1/fd" -lname 'socket:*' | wc -l; }

# no_read SECONDS OUT: 2000 ListBundles calls (about 10 MB of answers), read after SECONDS.
no_read() {
  "$PYTHON" "$OPM_TESTS/serve/lib/h2raw.py" no-read "127.0.0.1:$PORT" /api.Registry/ListBundles \
    2000 "$1" >"$2" &
}

# check_path NAME SOCKETS_PER_CLIENT: one quick reader and one that never reads, side by side.
check_path() {
  local name=$1 per_client=$2 idle quick slow
  start_server "$DATA/catalog" -t /dev/null
  idle=$(sockets "$SERVER_PID")
  no_read 5 quick.txt
  quick=$!
  no_read 14 slow.txt
  slow=$!
  sleep 2
  expect_eq "$name: server sockets with two clients" "$((idle + 2 * per_client))" "$(sockets "$SERVER_PID")"
  wait "$quick" "$slow"
  expect_eq "$name: client reading after 5 s" "cut=0 received=10560144" "$(cat quick.txt)"
  grep -q '^cut=1 ' slow.txt || fail "$name: client reading nothing was not cut off: $(cat slow.txt)"
  call api.Registry/ListPackages >after.txt || fail "$name: no answer after the slow clients"
  stop_server
  expect_rc 0
}

check_path direct 1
OPM_SERVE_RELAY=1 check_path relay 3
echo ok
