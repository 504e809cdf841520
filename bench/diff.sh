#!/usr/bin/env bash
# Times `opm alpha diff --check-upgrades` of the whole v4.16 corpus catalog against v4.22
# beside `opm validate` of each of them, and prints the diff's wall and CPU (user + system)
# time as a share of validating both (target: at most 2x). Medians of RUNS runs (default 5).
# Needs python3 (bench/rusage.py times each run).
source "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
old=$OPM_CORPUS/catalogs/v4.16
new=$OPM_CORPUS/catalogs/v4.22

# EXPECTED_STATUS ARGS... -> "wall_s cpu_s rss_kb", medians of RUNS runs (the RSS the largest).
measure() {
  local want=$1
  shift
  measure_runs "$want" "$work" "$OPM" "$@"
}

show() { # LABEL "wall cpu rss"
  read -r wall cpu kb <<<"$2"
  printf '%-34s %6.2f s wall %6.2f s CPU %7.1f MB\n' "$1" "$wall" "$cpu" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')"
}

v16=$(measure 0 validate "$old")
v22=$(measure 0 validate "$new")
d=$(measure 1 alpha diff "$old" "$new" --check-upgrades)
dm=$(measure 1 alpha diff "$old" "$new" --check-upgrades -o markdown)
show "validate v4.16" "$v16"
show "validate v4.22" "$v22"
show "alpha diff --check-upgrades" "$d"
show "alpha diff --check-upgrades -o md" "$dm"
read -r w16 c16 _ <<<"$v16"
read -r w22 c22 _ <<<"$v22"
read -r wd cd _ <<<"$d"
awk -v wd="$wd" -v cd="$cd" -v w="$w16" -v x="$w22" -v c="$c16" -v y="$c22" 'BEGIN {
  printf "diff / validating both: %.2fx wall, %.2fx CPU (target <= 2x)\n", wd / (w + x), cd / (c + y)
}'
