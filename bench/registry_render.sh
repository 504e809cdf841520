#!/usr/bin/env bash
# Measures and checks `opm render` of the corpus bundle images from a loopback registry.
# Pushes each corpus bundle directory as <registry>/corpus/<package>-bundle:<version> (the
# way corpus/README.md describes), then times one `opm render --use-http <all refs> -o json`
# with a cold and a warm cache, directly and through a proxy adding LATENCY seconds to every
# request. Each bundle's render must be byte-identical to upstream's, and each bundle
# directory must render as its image does apart from the image reference.
#   bench/registry_render.sh [--quick] [OPM_BINARY] [LATENCY_SECONDS]
# --quick (or COUNT=N) uses only the first 20 (N) bundles. Prints the timings against the
# targets, one line per conformance failure, and "N passed, M failed"; exits non-zero on any
# failure.
set -euo pipefail

quick=0
if [ "${1:-}" = --quick ]; then
  quick=1
  shift
fi
[ -n "${1:-}" ] && OPM=$1
LATENCY=${2:-0.05}
source "$(dirname "$0")/common.sh"
COUNT=${COUNT:-$([ "$quick" = 1 ] && echo 20 || echo 0)}
export OPM
bench_dir=$(cd "$(dirname "$0")" && pwd)
source "$bench_dir/../tests/registry/harness.sh"

BUNDLES=$OPM_CORPUS/bundles
corpus_bundle_list "$WORK/list"
if [ "$COUNT" -gt 0 ]; then
  head -n "$COUNT" "$WORK/list" > "$WORK/list.head" && mv "$WORK/list.head" "$WORK/list"
fi

start_registry bench
start_fault_proxy "$REG"
start=$(date +%s%N)
push_corpus_bundles "$REG" "$WORK/list"
ms=$((($(date +%s%N) - start) / 1000000))
printf 'pushed %d bundle images in %d.%02d s\n' "$(wc -l < "$WORK/list")" $((ms / 1000)) $((ms % 1000 / 10))

refs() { # HOST: the image references, in list order
  local entry
  while read -r entry; do
    echo "$1/corpus/${entry%/*}-bundle:${entry#*/}"
  done < "$WORK/list"
}
# The expected output of one render of all the refs: upstream's renders, concatenated.
expected() { # HOST
  local entry
  while read -r entry; do
    xz -dc "$OPM_CORPUS/expected/bundles/$entry/render.json.xz"
  done < "$WORK/list" | sed "s|@REGISTRY@|$1|g"
}
mapfile -t REFS < <(refs "$REG")
mapfile -t PROXY_REFS < <(refs "$FAULT")
expected "$REG" > "$WORK/expected"
expected "$FAULT" > "$WORK/expected-proxy"

failed_runs=0
max_kb=0
# measure LABEL TARGET_SECONDS|- REPEATS CACHE EXPECTED REFS...: timed renders (the median
# of REPEATS runs is reported); keeps the first run's output in $WORK/out-<n>.
runs=0
measure() {
  local label=$1 target=$2 repeats=$3 cache=$4 want=$5 secs kb verdict same i
  shift 5
  runs=$((runs + 1))
  local out=$WORK/out-$runs
  : > "$WORK/times"
  for ((i = 0; i < repeats; i++)); do
    if ! OLM_CACHE_DIR=$cache /usr/bin/time -f "%e %M" -o "$WORK/time" \
      "$OPM" render --use-http "$@" -o json > "$WORK/run-out" 2> "$WORK/err"; then
      echo "$label: render failed"
      head -c 2000 "$WORK/err"
      failed_runs=$((failed_runs + 1))
      return 0
    fi
    [ "$i" -eq 0 ] && mv "$WORK/run-out" "$out"
    cat "$WORK/time" >> "$WORK/times"
  done
  secs=$(sort -n "$WORK/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  kb=$(sort -n -k2 "$WORK/times" | tail -n 1 | awk '{ print $2 }')
  [ "$kb" -gt "$max_kb" ] && max_kb=$kb
  if [ "$target" = - ]; then
    verdict="no target"
  else
    verdict="target $target s: $(awk -v s="$secs" -v t="$target" 'BEGIN { print (s <= t) ? "ok" : "over" }')"
  fi
  same="output matches upstream"
  if ! cmp -s "$out" "$want"; then
    same="OUTPUT DIFFERS from upstream"
    failed_runs=$((failed_runs + 1))
  fi
  if [ "$repeats" -gt 1 ]; then
    label="$label (median of $repeats, $(sort -n "$WORK/times" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'))"
  fi
  printf '%-44s %6.2f s (%-16s) %5d MB peak RSS  %s\n' \
    "$label" "$secs" "$verdict" $((kb / 1024)) "$same"
}

echo "render of ${#REFS[@]} bundle images in one call:"
measure "cold cache" 2.0 1 "$WORK/cache1" "$WORK/expected" "${REFS[@]}"
cp "$WORK/out-1" "$WORK/cold.json"
measure "warm cache" 0.2 5 "$WORK/cache1" "$WORK/expected" "${REFS[@]}"
fault_rules "[{\"path\": \"\", \"action\": \"delay\", \"seconds\": $LATENCY, \"times\": -1}]"
measure "cold, ${LATENCY}s per request" 4.0 1 "$WORK/cache2" "$WORK/expected-proxy" "${PROXY_REFS[@]}"
measure "warm, ${LATENCY}s per request" - 1 "$WORK/cache2" "$WORK/expected-proxy" "${PROXY_REFS[@]}"
if [ -d "$WORK/cache1/images" ]; then
  printf 'cache: %s in %s\n' "$(du -sh "$WORK/cache1/images" | cut -f1)" "\$OLM_CACHE_DIR/images"
else
  echo "cache: nothing under \$OLM_CACHE_DIR/images"
fi
printf 'peak RSS %d MB (target 150 MB: %s)\n' $((max_kb / 1024)) \
  "$([ "$max_kb" -le $((150 * 1024)) ] && echo ok || echo over)"
echo "upstream v1.26.5 on the same machine, from a loopback registry: 8.0-8.4 s, 125-134 MB"

echo "conformance:"
fault_rules "[]"
rc=0
python3 "$bench_dir/bundle_images.py" check "$OPM" "$WORK/cache1" "$REG" "$BUNDLES" \
  "$OPM_CORPUS/expected/bundles" "$WORK/list" "$WORK/cold.json" || rc=$?
if [ "$failed_runs" -ne 0 ]; then
  echo "FAIL: $failed_runs timed render(s) failed or differed from upstream"
  rc=1
fi
exit "$rc"
