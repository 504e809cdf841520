#!/usr/bin/env bash
# Soak test of `opm serve` on the corpus catalog: 64 clients (16 on each of ListPackages,
# GetBundle, GetBundleForChannel and ListBundles, one load process per rpc) for SECONDS
# (default 600), the server's RSS sampled every SOAK_INTERVAL seconds (default 5). Reports
# the calls and errors of each rpc, and the RSS after warm-up (SOAK_WARMUP seconds, default
# 10% of the run, at least 10) against the RSS at the end: flat when the end is within
# SOAK_TOLERANCE_PCT percent (default 5) of the warm figure. Exit 1 on errors or growth.
# Needs Debian python3-grpcio and shared/tools/serve_load.py (SERVE_LOAD=path).
# SOAK_OPM=path soaks another binary (e.g. upstream's) with the same load.
#   bench/serve_soak.sh [SECONDS]      (also: SOAK=SECONDS bench/serve.sh)
source "$(dirname "$0")/common.sh"

seconds=${1:-${SOAK:-600}}
interval=${SOAK_INTERVAL:-5}
warmup=${SOAK_WARMUP:-$((seconds / 10 > 10 ? seconds / 10 : 10))}
tolerance=${SOAK_TOLERANCE_PCT:-5}
bin=${SOAK_OPM:-$OPM}
catalog=$OPM_CORPUS/catalogs/v4.16
load_client=${SERVE_LOAD:-$repo/../shared/tools/serve_load.py}
rpcs="ListPackages GetBundle GetBundleForChannel ListBundles"
clients_per_rpc=16

work=$(mktemp -d)
server=""
loaders=()
cleanup() {
  for pid in "${loaders[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "$server" ] && kill "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
server=$(/usr/bin/python3 "$load_client" startup "localhost:$port" -- \
  "$bin" serve "$catalog" -p "$port" -t /dev/null |
  /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["pid"])')

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$server/status" 2>/dev/null || echo 0; }

echo "== soak: $bin, $((clients_per_rpc * 4)) clients, ${seconds}s, RSS every ${interval}s"
for rpc in $rpcs; do
  # Measured from the start (no warm-up of its own) so that every call counts.
  /usr/bin/python3 "$load_client" "localhost:$port" "$seconds" "$clients_per_rpc" "$rpc" \
    --package apicurio-registry-3 --channel 3.x --bundle apicurio-registry-3.v3.3.1 \
    --warmup 0 >"$work/$rpc.txt" 2>&1 &
  loaders+=($!)
done

start=$SECONDS
warm_rss=""
: >"$work/rss.txt"
while [ $((SECONDS - start)) -lt "$seconds" ]; do
  sleep "$interval"
  elapsed=$((SECONDS - start))
  rss=$(rss_kb)
  echo "$elapsed $rss" >>"$work/rss.txt"
  if [ -z "$warm_rss" ] && [ "$elapsed" -ge "$warmup" ]; then
    warm_rss=$rss
  fi
done

status=0
for pid in "${loaders[@]}"; do wait "$pid" || status=1; done
loaders=()
end_rss=$(rss_kb)
peak_rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$server/status")

for rpc in $rpcs; do
  cut -d' ' -f1-10 "$work/$rpc.txt"
done
echo "rss samples (s kB): $(tr '\n' ' ' <"$work/rss.txt")"
limit=$((warm_rss + warm_rss * tolerance / 100))
verdict=flat
if [ "$end_rss" -gt "$limit" ]; then
  verdict="GROWING (more than ${tolerance}% over the warm figure)"
  status=1
fi
echo "rss after ${warmup}s warm-up: ${warm_rss} kB; at end: ${end_rss} kB; peak: ${peak_rss} kB; $verdict"
errors=$(cat "$work"/*.txt | sed -n 's/.* errors=\([0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}')
echo "errors: $errors"
[ "$errors" -eq 0 ] || status=1
exit $status
