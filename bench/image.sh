#!/usr/bin/env bash
# `opm alpha catalog build` of the v4.16 corpus catalog onto a synthetic 40 MB base image in
# a loopback registry: wall time, peak RSS and bytes uploaded for the first push (base
# layers mounted from the base's repository), a second push of the same image, a push to
# a fresh registry that must upload the base too, and a build into an OCI layout. Then the
# SQLite index image of the 122 corpus bundles, built without a container engine
# (`opm index add --build-tool none`, pulling every bundle) and pushed, and the same again. "uploaded"
# is how much the registry's storage grew. CPU is user + system time: on a shared machine it
# says more than the wall time. With upstream's binary (UPSTREAM_OPM, default
# /tmp/upstream-opm/opm), also checks that it serves the built image's cache.
#   bench/image.sh
source "$(dirname "$0")/common.sh"
catalog=$OPM_CORPUS/catalogs/v4.16
source "$repo/tests/registry/harness.sh"

start_registry bench
BENCH=$REG
start_registry fresh
FRESH=$REG
mkdir -p "$WORK/base/bin" "$WORK/base/usr"
head -c 20000000 /dev/urandom > "$WORK/base/bin/opm"
head -c 20000000 /dev/urandom > "$WORK/base/usr/blob"
push_image "http://$BENCH" base/opm v1 --files "$WORK/base" > /dev/null

stored() { du -sb "$1" | cut -f1; }
measure() { # LABEL DATA_DIR ARGS...
  local label=$1 data=$2 before after
  shift 2
  before=$(stored "$data")
  mkdir -p "$WORK/cwd"
  (cd "$WORK/cwd" && /usr/bin/time -f "%e %M %U %S" -o "$WORK/time" "$OPM" "$@" \
    > "$WORK/out" 2> "$WORK/err") || { cat "$WORK/err"; exit 1; }
  after=$(stored "$data")
  read -r wall rss user sys < "$WORK/time"
  printf '%-31s wall %5.2f s  cpu %5.2f s  peak RSS %4d MB  uploaded %d bytes\n' \
    "$label" "$wall" "$(echo "$user + $sys" | bc)" $((rss / 1024)) $((after - before))
}

measure "first push (base mounted)" "$WORK/bench" alpha catalog build --use-http "$catalog" \
  --base-image "$BENCH/base/opm:v1" --tag "$BENCH/catalog/v416:v1"
measure "second push of the same image" "$WORK/bench" alpha catalog build --use-http "$catalog" \
  --base-image "$BENCH/base/opm:v1" --tag "$BENCH/catalog/v416:v1"
measure "push to another registry" "$WORK/fresh" alpha catalog build --use-http "$catalog" \
  --base-image "$BENCH/base/opm:v1" --tag "$FRESH/catalog/v416:v1"
measure "OCI layout, no registry" "$WORK/tmp" alpha catalog build --use-http "$catalog" \
  --base-image "$BENCH/base/opm:v1" --tag "oci:$WORK/layout:v1"

# The index image of every corpus bundle: each bundle pulled and added, then the image pushed.
corpus_bundle_list "$WORK/list"
push_corpus_bundles "$BENCH" "$WORK/list"
refs=$(corpus_bundle_refs "$BENCH" "$WORK/list")
# The migration time in the database is SOURCE_DATE_EPOCH, so the second build is the same image.
export OLM_CACHE_DIR=$WORK/index-cache SOURCE_DATE_EPOCH=1700000000
measure "index image, $(wc -l < "$WORK/list") bundles" "$WORK/bench" index add --use-http \
  --permissive -b "$refs" -u none -i "$BENCH/base/opm:v1" -t "$BENCH/index/corpus:v1"
measure "the same index image again" "$WORK/bench" index add --use-http \
  --permissive -b "$refs" -u none -i "$BENCH/base/opm:v1" -t "$BENCH/index/corpus:v1"
unset OLM_CACHE_DIR SOURCE_DATE_EPOCH
# Upstream's serve must accept the image's cache with integrity enforced, as it would in a
# container: the layers extracted as they are, modes included.
upstream=${UPSTREAM_OPM:-/tmp/upstream-opm/opm}
if [ -x "$upstream" ]; then
  python3 - "$WORK/layout" "$WORK/rootfs" << 'PY'
import json, os, sys, tarfile
root, out = sys.argv[1], sys.argv[2]
blob = lambda d: os.path.join(root, "blobs", *d.split(":"))
top = json.load(open(os.path.join(root, "index.json")))["manifests"][0]
for layer in json.load(open(blob(top["digest"])))["layers"]:
    with tarfile.open(blob(layer["digest"])) as t:
        t.extractall(out)
PY
  if "$upstream" serve "$WORK/rootfs/configs" --cache-dir "$WORK/rootfs/tmp/cache" --cache-only \
    --cache-enforce-integrity -t /dev/null > "$WORK/upstream.log" 2>&1; then
    echo "upstream $("$upstream" version 2>/dev/null | grep -o 'OpmVersion:"[^"]*"' | cut -d'"' -f2) serves the image's cache with integrity enforced: yes"
  else
    echo "upstream serves the image's cache with integrity enforced: NO: $(tail -n 1 "$WORK/upstream.log")"
  fi
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
