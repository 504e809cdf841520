#!/usr/bin/env bash
# `opm serve` beside upstream on the corpus catalog: start-to-SERVING time and peak RSS with
# and without a cache, the --cache-only build, and rpc rates with 1 and 16 clients (server
# CPU per call from /proc), then a table of the 16-client p99 latencies beside upstream's.
# Needs Debian python3-grpcio and the load client shared/tools/serve_load.py
# (SERVE_LOAD=path); UPSTREAM_OPM=path adds upstream's figures. For a long run with 64
# clients and the server's RSS over time, see bench/serve_soak.sh.
#   bench/serve.sh [DURATION_SECONDS]
source "$(dirname "$0")/common.sh"
if [ -n "${SOAK:-}" ]; then
  exec "$here/serve_soak.sh" "$SOAK"
fi

duration=${1:-10}
catalog=$OPM_CORPUS/catalogs/v4.16
load_client=${SERVE_LOAD:-$repo/../shared/tools/serve_load.py}
upstream=${UPSTREAM_OPM:-/tmp/upstream-opm/opm}
load() { /usr/bin/python3 "$load_client" "$@"; }
free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

rpcs="ListPackages GetBundle GetBundleForChannel ListBundles"

# p99 NAME RPC CLIENTS: the p99 latency of that run, or "-" when it did not run.
p99() {
  sed -n 's/.* p99_ms=\([^ ]*\).*/\1/p' "$work/$1-$2-$3.txt" 2>/dev/null | grep . || echo -
}

bench_one() { # NAME BINARY
  local name=$1 bin=$2 port cache=$work/$1-cache rpc clients
  echo "== $name"
  port=$(free_port)
  echo "start, no cache:   $(load startup "localhost:$port" --stop -- "$bin" serve "$catalog" -p "$port" -t /dev/null)"
  echo "cache-only build:  $(load run -- "$bin" serve "$catalog" --cache-dir "$cache" --cache-only -t /dev/null)"
  port=$(free_port)
  echo "start from cache:  $(load startup "localhost:$port" --stop -- "$bin" serve "$catalog" -p "$port" -t /dev/null --cache-dir "$cache")"
  port=$(free_port)
  server=$(load startup "localhost:$port" -- "$bin" serve "$catalog" -p "$port" -t /dev/null --cache-dir "$cache" |
    /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["pid"])')
  for rpc in $rpcs; do
    for clients in 1 16; do
      load "localhost:$port" "$duration" "$clients" "$rpc" --package apicurio-registry-3 \
        --channel 3.x --bundle apicurio-registry-3.v3.3.1 --pid "$server" |
        tee "$work/$name-$rpc-$clients.txt"
    done
  done
  echo "server after load: $(grep -E 'VmRSS|VmHWM' /proc/"$server"/status | tr -s ' \t\n' ' ')"
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=""
}

bench_one opm "$OPM"
if [ -x "$upstream" ]; then
  bench_one upstream "$upstream"
fi

echo "== p99 latency (ms), 16 clients"
printf '%-22s %10s %10s\n' rpc opm upstream
for rpc in $rpcs; do
  printf '%-22s %10s %10s\n' "$rpc" "$(p99 opm "$rpc" 16)" "$(p99 upstream "$rpc" 16)"
done
