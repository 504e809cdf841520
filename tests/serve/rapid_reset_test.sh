#!/usr/bin/env bash
# HTTP/2 rapid reset (the CVE-2023-44487 pattern): clients that open tens of thousands of
# ListPackages streams and reset each at once are told GOAWAY and cut off; the server's memory
# stays within twice what it holds idle, during the attack and after, other clients are
# answered meanwhile, and the server still stops cleanly; for opm serve and opm registry serve
# alike, and for serve with its connections relayed (OPM_SERVE_RELAY=1) as where gRPC's calls
# cannot be watched.
source "$OPM_TESTS/serve/lib/common.bash"
measure_memory
mkdir tmp

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status"; }

# attack STREAMS CONNECTIONS: that many rapid-reset connections side by side, each cut after
# 30 seconds, while a normal client keeps calling; the highest RSS seen is in $PEAK.
attack() {
  local streams=$1 connections=$2 i pids=()
  for ((i = 0; i < connections; i++)); do
    "$PYTHON" "$OPM_TESTS/serve/lib/h2raw.py" rapid-reset "127.0.0.1:$PORT" /api.Registry/ListPackages \
      "$streams" 30 >"attack$i.txt" &
    pids+=($!)
  done
  PEAK=0
  local answered=0 rss
  while kill -0 "${pids[0]}" 2>/dev/null || { [ "$connections" -gt 1 ] && kill -0 "${pids[-1]}" 2>/dev/null; }; do
    rss=$(rss_kb)
    [ "$rss" -gt "$PEAK" ] && PEAK=$rss
    call api.Registry/ListPackages >during.txt 2>&1 && answered=$((answered + 1))
    sleep 0.1
  done
  for pid in "${pids[@]}"; do wait "$pid" || fail "attacking client failed: $(cat attack*.txt)"; done
  for ((i = 0; i < connections; i++)); do
    grep -q ' goaway=1 ' "attack$i.txt" || fail "attacking client $i was not told GOAWAY: $(cat "attack$i.txt")"
  done
  [ "$answered" -gt 0 ] || fail "no call answered during the attack: $(cat during.txt)"
}

# expect_bounded NAME: after a warm-up, one connection with 40000 reset streams, then three
# with 20000 each; RSS stays within twice the idle figure throughout and afterwards, and the
# server still answers.
expect_bounded() {
  local name=$1 idle after
  for _ in 1 2 3 4 5; do call api.Registry/ListPackages >/dev/null || fail "$name: warm-up call"; done
  idle=$(rss_kb)
  attack 40000 1
  attack 20000 3
  sleep 1
  after=$(rss_kb)
  [ "$PEAK" -le $((2 * idle)) ] || fail "$name: RSS rose from $idle kB idle to $PEAK kB ($(cat attack*.txt))"
  [ "$after" -le $((2 * idle)) ] || fail "$name: RSS stayed at $after kB after the attack ($idle kB idle)"
  call api.Registry/ListPackages >after.txt || fail "$name: no answer after the attack"
  [ -s after.txt ] || fail "$name: empty package list after the attack"
  echo "$name: idle ${idle} kB, peak ${PEAK} kB, after ${after} kB; $(cat attack*.txt | tr '\n' ' ')"
}

# expect_goaway_when_full NAME: a client over its budget while gRPC's answers fill the
# connection (gRPC in the middle of a frame) is still told GOAWAY once it reads, then the end.
expect_goaway_when_full() {
  local result
  result=$("$PYTHON" "$OPM_TESTS/serve/lib/h2raw.py" reset-when-full "127.0.0.1:$PORT" \
    /api.Registry/ListBundles 2000 300)
  expect_eq "$1: GOAWAY to a client whose connection was full" "goaway=1 end=1" "$result"
}

start_server "$DATA/catalog" -t /dev/null
expect_bounded serve
expect_goaway_when_full serve
stop_server
expect_rc 0

export OPM_SERVE_RELAY=1
start_server "$DATA/catalog" -t /dev/null
expect_bounded "serve, relayed"
expect_goaway_when_full "serve, relayed"
stop_server
expect_rc 0
unset OPM_SERVE_RELAY

PORT=$(free_port)
cp "$OPM_TESTS/data/sqlite/kiwi.db" kiwi.db
TMPDIR="$WORK/tmp" "$OPM" registry serve -d kiwi.db -t "$WORK/termination-log" -p "$PORT" >server.out 2>server.err &
SERVER_PID=$!
wait_serving "127.0.0.1:$PORT" "$SERVER_PID" 2>/dev/null || fail "registry serve: $(cat server.err)"
expect_bounded "registry serve"
expect_goaway_when_full "registry serve"
stop_server
expect_rc 0
[ -z "$(ls -A tmp)" ] || fail "temporary files left: $(ls -A tmp)"
echo ok
