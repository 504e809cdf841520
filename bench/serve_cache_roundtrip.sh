#!/usr/bin/env bash
# Upstream serving our cache: builds the json cache of the v4.22 corpus catalog (without the
# three packages v1.26.5 cannot read) with our `--cache-only`, serves it with upstream's opm
# (integrity enforced) beside our server, and compares every rpc's answer for every bundle.
# Needs Debian python3-grpcio and upstream's binary (UPSTREAM_OPM, default
# /tmp/upstream-opm/opm, see ../shared/tools/build-upstream-opm.sh); skipped without it.
#   bench/serve_cache_roundtrip.sh
source "$(dirname "$0")/common.sh"
upstream=${UPSTREAM_OPM:-/tmp/upstream-opm/opm}
if [ ! -x "$upstream" ]; then
  echo "skipped: no upstream opm at $upstream"
  exit 0
fi
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_serving() { # PORT
  local i
  for i in $(seq 1 600); do
    /usr/bin/python3 "$repo/tests/serve/lib/client.py" "127.0.0.1:$1" grpc.health.v1.Health/Check \
      2>/dev/null | grep -q SERVING && return 0
    sleep 0.1
  done
  echo "server on port $1 did not start" >&2
  exit 1
}

cp -r "$OPM_CORPUS/catalogs/v4.22" "$work/catalog"
rm -rf "$work/catalog"/{infinispan,kairos-operator,layer7-operator}
"$OPM" serve "$work/catalog" --cache-dir "$work/cache" --cache-only -t /dev/null
ours=$(free_port) theirs=$(free_port)
"$OPM" serve "$work/catalog" -p "$ours" -t /dev/null 2>"$work/ours.err" &
pids+=($!)
"$upstream" serve "$work/catalog" -p "$theirs" -t /dev/null --cache-dir "$work/cache" \
  2>"$work/theirs.err" &
pids+=($!)
wait_serving "$ours"
wait_serving "$theirs"
/usr/bin/python3 "$here/serve_cache_roundtrip.py" "127.0.0.1:$ours" "127.0.0.1:$theirs"
