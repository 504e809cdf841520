#!/usr/bin/env bash
# Times `opm alpha filter` of the whole v4.22 corpus catalog down to five packages against
# one `opm render` of it (best of RUNS each, wall and CPU seconds), and checks that the
# filtered catalog validates. The five are the largest packages, some 60% of the catalog.
# The filter loads everything render loads, so it should cost no more.
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

# best OUT CMD...: the fastest of RUNS runs of CMD, output discarded: "WALL CPU" seconds,
# CPU being user + system time (the machine may be shared: CPU time is the steadier figure).
best() {
  local out=$1 i
  shift
  : >"$work/times"
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f "%e %U %S" -a -o "$work/times" "$@" >/dev/null
  done
  awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 + $3 < c { c = $2 + $3 }
       END { printf "%.3f %.3f\n", w, c }' "$work/times" >"$out"
}

best "$work/render" "$OPM" render "$CATALOG" -o json
best "$work/filter" "$OPM" alpha filter "$CATALOG" -c "$work/five.yaml" -o json

mkdir -p "$work/filtered"
"$OPM" alpha filter "$CATALOG" -c "$work/five.yaml" -o yaml >"$work/filtered/catalog.yaml"
"$OPM" validate "$work/filtered"

read -r render_wall render_cpu <"$work/render"
read -r filter_wall filter_cpu <"$work/filter"
echo "render v4.22 (all 29 packages):  wall ${render_wall} s, cpu ${render_cpu} s"
echo "filter v4.22 to five packages:   wall ${filter_wall} s, cpu ${filter_cpu} s"
awk -v rw="$render_wall" -v fw="$filter_wall" -v rc="$render_cpu" -v fc="$filter_cpu" \
  'BEGIN { printf "filter / render: wall %.2f, cpu %.2f\n", fw / rw, fc / rc }'
