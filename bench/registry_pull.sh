#!/usr/bin/env bash
# Measures `opm __pull` of many small one-layer images from a loopback registry:
# cold cache, warm cache, and cold through a proxy adding latency to every request.
#   bench/registry_pull.sh OPM_BINARY [COUNT] [LATENCY_SECONDS]
set -euo pipefail
OPM=$1
COUNT=${2:-122}
LATENCY=${3:-0.05}
export OPM
source "$(dirname "$0")/../tests/registry/harness.sh"

start_registry bench
B=$WORK/bundle
make_bundle_dir "$B" bench
python3 - "$REG" "$B" "$COUNT" "$TOOLS" << 'PY'
import sys
sys.path.insert(0, sys.argv[4])
import imagetool
reg, bundle, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = imagetool.Registry("http://" + reg)
tree = imagetool.tar_of_dir(bundle)
for i in range(count):
    img = imagetool.Image()
    img.add_layer(tree + b"\0" * 512 * (i % 7) + str(i).encode().ljust(512, b"\0"), "gzip")
    img.labels["operators.operatorframework.io.bundle.package.v1"] = "bench-%d" % i
    m, c = img.manifest()
    for _, blob, _ in img.layers:
        r.push_blob("bench/bundle-%d" % i, blob)
    r.push_blob("bench/bundle-%d" % i, c)
    r.put_manifest("bench/bundle-%d" % i, "v1", m, imagetool.OCI_MANIFEST)
PY
REFS=()
for i in $(seq 0 $((COUNT - 1))); do
  REFS+=("$REG/bench/bundle-$i:v1")
done

measure() { # LABEL ARGS...
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$OPM" __pull --use-http "$@" > "$WORK/out" 2> "$WORK/err" || {
    cat "$WORK/err"
    return 1
  }
  read -r secs kb < "$WORK/time"
  printf '%-28s %6.2f s  %6d MB peak RSS  %d images\n' "$label" "$secs" $((kb / 1024)) "$(wc -l < "$WORK/out")"
}
measure "cold cache" --cache-dir "$WORK/c1" "${REFS[@]}"
measure "warm cache" --cache-dir "$WORK/c1" "${REFS[@]}"
start_fault_proxy "$REG"
fault_rules "[{\"path\": \"\", \"action\": \"delay\", \"seconds\": $LATENCY, \"times\": -1}]"
DREFS=("${REFS[@]/#$REG/$FAULT}")
measure "cold, ${LATENCY}s per request" --cache-dir "$WORK/c2" "${DREFS[@]}"
measure "warm, ${LATENCY}s per request" --cache-dir "$WORK/c2" "${DREFS[@]}"
