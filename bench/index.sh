#!/usr/bin/env bash
# Measures the SQLite index commands beside upstream v1.26.5 on the same machine: `index add
# --generate --permissive` of every corpus bundle image (pushed to a loopback registry as
# bench/registry_render.sh pushes them) into one database, `registry add` of one more bundle,
# then `render` and `migrate` of the result. Prints wall time and peak RSS of each step for
# both binaries, their ratio against the targets, and whether the renders are identical.
#   bench/index.sh [OPM_BINARY] [UPSTREAM_BINARY]
set -euo pipefail
[ -n "${1:-}" ] && OPM=$1
UPSTREAM=${2:-${UPSTREAM_OPM:-/tmp/upstream-opm/opm}}
source "$(dirname "$0")/common.sh"
export OPM
bench_dir=$(cd "$(dirname "$0")" && pwd)
source "$bench_dir/../tests/registry/harness.sh"
[ -x "$UPSTREAM" ] || { echo "no upstream opm at $UPSTREAM" >&2; exit 2; }

BUNDLES=$OPM_CORPUS/bundles
corpus_bundle_list "$WORK/list"
start_registry bench
push_corpus_bundles "$REG" "$WORK/list"
refs=$(corpus_bundle_refs "$REG" "$WORK/list")
# The one more bundle: a package of its own, from the test data.
EXTRA_DIR=$bench_dir/../tests/data/sqlite/bundles/plum-1.0.0
# shellcheck disable=SC2046
push_image "http://$REG" bench/plum-bundle v1.0.0 --files "$EXTRA_DIR" \
  $(sed -n 's/^  \([^:]*\): \(.*\)$/--label \1=\2/p' "$EXTRA_DIR/metadata/annotations.yaml") > /dev/null
EXTRA=$REG/bench/plum-bundle:v1.0.0
echo "$(wc -l < "$WORK/list") corpus bundle images pushed, plus $EXTRA"

# timed NAME STEP CMD...: runs CMD in $WORK/NAME, records "seconds KB" in $WORK/NAME.STEP.
timed() {
  local name=$1 step=$2
  shift 2
  mkdir -p "$WORK/$name"
  # What the previous step wrote is flushed first, so that its writeback is not timed here.
  sync
  (cd "$WORK/$name" && OLM_CACHE_DIR=$WORK/$name-cache /usr/bin/time -f "%e %M" \
    -o "$WORK/$name.$step" "$@" > "$WORK/$name.$step.out" 2> "$WORK/$name.$step.err") ||
    echo "$name $step failed (exit $?): $(tail -c 300 "$WORK/$name.$step.err")"
}
run_all() { # NAME BINARY
  timed "$1" index "$2" index add --use-http --generate --permissive -b "$refs"
  timed "$1" registry "$2" registry add --use-http -d database/index.db -b "$EXTRA"
  timed "$1" render "$2" render database/index.db -o json
  rm -rf "$WORK/$1/migrated"
  timed "$1" migrate "$2" migrate database/index.db migrated
}
run_all upstream "$UPSTREAM"
run_all ours "$OPM"

printf '%-14s %10s %10s %8s %10s %10s\n' step "ours s" "upstream s" ratio "ours MB" "upstr. MB"
verdicts=()
for step in index registry render migrate; do
  read -r os ok < "$WORK/ours.$step"
  read -r us uk < "$WORK/upstream.$step"
  ratio=$(awk -v o="$os" -v u="$us" 'BEGIN { printf "%.3f", (u > 0) ? o / u : 0 }')
  printf '%-14s %10.2f %10.2f %8s %10d %10d\n' "$step" "$os" "$us" "$ratio" $((ok / 1024)) $((uk / 1024))
  case $step in
    index) verdicts+=("index add: $(awk -v r="$ratio" 'BEGIN { print (r <= 0.15) ? "ok" : "over" }') (<= 0.15x wall), RSS $([ "$ok" -le $((100 * 1024)) ] && echo ok || echo over) (<= 100 MB)") ;;
    render | migrate) verdicts+=("$step: $(awk -v r="$ratio" 'BEGIN { print (r <= 0.2) ? "ok" : "over" }') (<= 0.2x wall)") ;;
  esac
done
printf '%s\n' "${verdicts[@]}"
if cmp -s "$WORK/ours.render.out" "$WORK/upstream.render.out"; then
  echo "render of the two databases: identical"
else
  echo "render of the two databases: DIFFERENT"
fi
if diff -r "$WORK/ours/migrated" "$WORK/upstream/migrated" > /dev/null; then
  echo "migrate of the two databases: identical"
else
  echo "migrate of the two databases: DIFFERENT"
fi
echo "database rows of the two databases: $("$bench_dir/db_rows.py" "$WORK/ours/database/index.db" \
  "$WORK/upstream/database/index.db" || true)"
echo "packages in the database: $(grep -c '"schema": "olm.package"' "$WORK/ours.render.out")"
