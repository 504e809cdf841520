#!/usr/bin/env bash
# Times `opm alpha filter` of the whole v4.22 corpus catalog down to five packages against
# one `opm render` of it (best of RUNS each, wall seconds), and checks that the filtered
# catalog validates. The filter loads everything render loads, so it should cost no more.
#   bench/filter.sh [OPM_BINARY] [RUNS]
set -euo pipefail
[ -n "${1:-}" ] && OPM=$1
RUNS=${2:-5}
source "$(dirname "$0")/common.sh"

CATALOG=$OPM_CORPUS/catalogs/v4.22
work=$(mktemp -d "${TMPDIR:-/tmp}/opm-bench-filter.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat >"$work/five.yaml" <<'YAML'
apiVersion: olm.operatorframework.io/v1alpha1
kind: FilterConfiguration
packages:
- name: infinispan
- name: project-quay
- name: sailoperator
- name: stackgres-community
- name: victoriametrics-operator
YAML

# best SECONDS_FILE CMD...: the fastest of RUNS runs of CMD, output discarded.
best() {
  local out=$1 i start end best_ns=
  shift
  for ((i = 0; i < RUNS; i++)); do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    if [ -z "$best_ns" ] || [ $((end - start)) -lt "$best_ns" ]; then
      best_ns=$((end - start))
    fi
  done
  awk -v ns="$best_ns" 'BEGIN { printf "%.3f\n", ns / 1e9 }' >"$out"
}

best "$work/render" "$OPM" render "$CATALOG" -o json
best "$work/filter" "$OPM" alpha filter "$CATALOG" -c "$work/five.yaml" -o json

mkdir -p "$work/filtered"
"$OPM" alpha filter "$CATALOG" -c "$work/five.yaml" -o yaml >"$work/filtered/catalog.yaml"
"$OPM" validate "$work/filtered"

render_s=$(cat "$work/render")
filter_s=$(cat "$work/filter")
echo "render v4.22 (all 29 packages):  ${render_s} s"
echo "filter v4.22 to five packages:   ${filter_s} s"
awk -v r="$render_s" -v f="$filter_s" 'BEGIN {
  printf "filter / render: %.2f\n", f / r
  exit (f <= r ? 0 : 1)
}'
