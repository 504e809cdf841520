#!/usr/bin/env bash
# `opm serve` beside upstream on the corpus catalog: start-to-SERVING time and peak RSS with
# and without a cache, the --cache-only build, and rpc rates with 1 and 16 clients (server
# CPU per call from /proc), then a table of the 16-client p99 latencies beside upstream's.
# The start without a cache is also measured on the v4.22 catalog. Both servers run at once
# while the rpcs are measured, and each load run on ours is followed by the same run on
# upstream's, so a change in the machine's state between runs does not favour either. ROUNDS=N repeats every pair of runs (default 1).
# Needs Debian python3-grpcio and the load client shared/tools/serve_load.py
# (SERVE_LOAD=path); UPSTREAM_OPM=path adds upstream's figures. For a long run with 64
# clients and the server's RSS over time, see bench/serve_soak.sh.
#   bench/serve.sh [DURATION_SECONDS]
source "$(dirname "$0")/common.sh"
if [ -n "${SOAK:-}" ]; then
  exec "$here/serve_soak.sh" "$SOAK"
fi

duration=${1:-10}
rounds=${ROUNDS:-1}
catalog=$OPM_CORPUS/catalogs/v4.16
load_client=${SERVE_LOAD:-$repo/../shared/tools/serve_load.py}
upstream=${UPSTREAM_OPM:-/tmp/upstream-opm/opm}
load() { /usr/bin/python3 "$load_client" "$@"; }
free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

work=$(mktemp -d)
declare -A binary=([opm]=$OPM) port=() pid=()
names=(opm)
if [ -x "$upstream" ]; then
  binary[upstream]=$upstream
  names+=(upstream)
fi
stop_all() {
  local name
  for name in "${!pid[@]}"; do
    kill "${pid[$name]}" 2>/dev/null || true
  done
}
trap 'stop_all; rm -rf "$work"' EXIT

rpcs="ListPackages GetBundle GetBundleForChannel ListBundles"

# p99s NAME RPC CLIENTS: the p99 latency of each round, or "-" when it did not run.
p99s() {
  local values
  values=$(sed -n 's/.* p99_ms=\([^ ]*\).*/\1/p' "$work/$1-$2-$3.txt" 2>/dev/null | paste -sd' ')
  echo "${values:--}"
}

start_up() { # NAME: the three start-up figures, then leaves the server running from its cache
  local name=$1 bin=${binary[$1]} cache=$work/$1-cache p
  echo "== $name start-up"
  p=$(free_port)
  echo "start, no cache:   $(load startup "localhost:$p" --stop -- "$bin" serve "$catalog" -p "$p" -t /dev/null)"
  echo "cache-only build:  $(load run -- "$bin" serve "$catalog" --cache-dir "$cache" --cache-only -t /dev/null)"
  p=$(free_port)
  echo "start from cache:  $(load startup "localhost:$p" --stop -- "$bin" serve "$catalog" -p "$p" -t /dev/null --cache-dir "$cache")"
  port[$name]=$(free_port)
  pid[$name]=$(load startup "localhost:${port[$name]}" -- "$bin" serve "$catalog" -p "${port[$name]}" \
    -t /dev/null --cache-dir "$cache" | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["pid"])')
}

for name in "${names[@]}"; do
  start_up "$name"
done

# Bundles that carry olm.csv.metadata: the v4.22 catalog without the three packages upstream
# v1.26.5 cannot read (a copy: symbolic links to directories are not followed).
fair=$work/v4.22
cp -r "$OPM_CORPUS/catalogs/v4.22" "$fair"
rm -rf "$fair"/{infinispan,kairos-operator,layer7-operator}
echo "== start, no cache, v4.22 catalog (each run on opm, then on upstream)"
for _ in $(seq 1 "$rounds"); do
  for name in "${names[@]}"; do
    p=$(free_port)
    echo "$name: $(load startup "localhost:$p" --stop -- "${binary[$name]}" serve "$fair" -p "$p" -t /dev/null)"
  done
done

echo "== rpcs (each run on opm, then the same on upstream)"
for rpc in $rpcs; do
  for clients in 1 16; do
    for _ in $(seq 1 "$rounds"); do
      for name in "${names[@]}"; do
        printf '%-9s ' "$name"
        load "localhost:${port[$name]}" "$duration" "$clients" "$rpc" --package apicurio-registry-3 \
          --channel 3.x --bundle apicurio-registry-3.v3.3.1 --pid "${pid[$name]}" |
          tee -a "$work/$name-$rpc-$clients.txt"
      done
    done
  done
done
for name in "${names[@]}"; do
  echo "$name server after load: $(grep -E 'VmRSS|VmHWM' /proc/"${pid[$name]}"/status | tr -s ' \t\n' ' ')"
done

echo "== p99 latency (ms), 16 clients (one figure a round)"
printf '%-22s %-24s %s\n' rpc opm upstream
for rpc in $rpcs; do
  printf '%-22s %-24s %s\n' "$rpc" "$(p99s opm "$rpc" 16)" "$(p99s upstream "$rpc" 16)"
done
