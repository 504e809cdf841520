#!/usr/bin/env bash
# The opm base image (scripts/build-image.sh) and the v4.16 corpus catalog image built on it
# with `opm alpha catalog build`: their compressed sizes (the manifests' layer sizes), then
# start to SERVING of the catalog image's own command run as user 1001 in its unpacked root
# (tests/serve/lib/root.bash), five runs, median; with upstream's binary (UPSTREAM_OPM,
# default /tmp/upstream-opm/opm) also the same root with upstream's /bin/opm. Needs root.
#   bench/base_image.sh
source "$(dirname "$0")/common.sh"
UPSTREAM_OPM=${UPSTREAM_OPM:-/tmp/upstream-opm/opm}
OPM_TESTS="$repo/tests"
export OPM_TESTS
source "$repo/tests/serve/lib/root.bash"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opm-bench-image.XXXXXX")
server=""
trap '[ -n "$server" ] && kill -KILL "$server" 2>/dev/null; rm -rf "$WORK"' EXIT
image_py="$repo/tests/serve/lib/image.py"

"$repo/scripts/build-image.sh" --opm "$OPM" --tag "oci:$WORK/base:v1" >/dev/null
"$OPM" alpha catalog build "$OPM_CORPUS/catalogs/v4.16" --base-image "oci:$WORK/base:v1" \
  --tag "oci:$WORK/catalog:v1" >/dev/null
compressed() { # LAYOUT: the sum of the image's layer sizes, MB
  python3 - "$1" <<'PY'
import json, os, sys
root = sys.argv[1]
blob = lambda d: os.path.join(root, "blobs", *d.split(":"))
top = json.load(open(os.path.join(root, "index.json")))["manifests"][0]
m = json.load(open(blob(top["digest"])))
print(f'{sum(l["size"] for l in m["layers"]) / 1e6:.1f} MB in {len(m["layers"])} layer(s)')
PY
}
echo "base image: $(compressed "$WORK/base")"
echo "v4.16 catalog image: $(compressed "$WORK/catalog")"

ln -s "$OPM" "$WORK/grpc_health_probe"
root="$WORK/root"
unpack_image "$WORK/catalog" "$root"
path=$(python3 "$image_py" "$WORK/catalog" env PATH)
mapfile -t command < <(python3 "$image_py" "$WORK/catalog" command)

# start_to_serving ROOT: seconds from start to the first SERVING health answer, one run.
start_to_serving() {
  local port start elapsed
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  start=$(date +%s.%N)
  in_root "$1" "$path" "${command[@]}" -p "$port" >/dev/null 2>"$WORK/serve.err" &
  server=$!
  # Polled from outside with the probe (a C++ process, unlike the Python client, starts in
  # milliseconds), so the figure is the server's.
  until "$WORK/grpc_health_probe" -addr="127.0.0.1:$port" -connect-timeout=20ms 2>/dev/null; do
    kill -0 "$server" 2>/dev/null || { cat "$WORK/serve.err" >&2; exit 1; }
  done
  elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  kill -KILL "$server"
  wait "$server" 2>/dev/null || true
  server=""
  echo "$elapsed"
}
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f s", v[int((NR + 1) / 2)] }'; }
report() { # NAME ROOT
  local runs
  runs=$(for _ in 1 2 3 4 5; do start_to_serving "$2"; done)
  echo "$1: start to SERVING $(echo "$runs" | median) (runs: $(echo "$runs" | xargs printf '%.2f '))"
}
report "ours" "$root"
if [ -x "$UPSTREAM_OPM" ]; then
  cp -a "$root" "$WORK/upstream-root"
  cp "$UPSTREAM_OPM" "$WORK/upstream-root/bin/opm"
  report "upstream $("$UPSTREAM_OPM" version 2>/dev/null | grep -o 'OpmVersion:"[^"]*"' | cut -d'"' -f2)" \
    "$WORK/upstream-root"
fi
