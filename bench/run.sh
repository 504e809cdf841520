#!/usr/bin/env bash
# Times opm on the corpus catalogs (v4.16, v4.22) and on a generated catalog 8x the size
# of v4.16: validate, render -o json, render -o yaml. Prints the median wall time of
# RUNS runs (default 5) and the peak RSS, next to upstream's published figures.
# Needs GNU time (/usr/bin/time, Debian package "time").
source "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# An 8x catalog: every package of v4.16 eight times, renamed so they stay distinct.
big=$work/v4.16x8
for i in 1 2 3 4 5 6 7 8; do
  for pkg_dir in "$OPM_CORPUS/catalogs/v4.16"/*/; do
    pkg=$(basename "$pkg_dir")
    mkdir -p "$big/$pkg-x$i"
    sed "s/$pkg/$pkg-x$i/g" "$pkg_dir/catalog.yaml" >"$big/$pkg-x$i/catalog.yaml"
  done
done

measure() { # LABEL ARGS... -> "label  wall_s  rss_MB"
  local label=$1
  shift
  local times=() rss=0
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$OPM" "$@" >/dev/null 2>"$work/err" ||
      { echo "$label: opm failed"; cat "$work/err"; return 1; }
    read -r wall kb <"$work/time"
    times+=("$wall")
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
  printf '%-28s %6.2f s %7.1f MB\n' "$label" "$median" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
}

echo "opm: $OPM ($RUNS runs each, median wall time, peak RSS)"
for cat in "$OPM_CORPUS/catalogs/v4.16" "$OPM_CORPUS/catalogs/v4.22" "$big"; do
  name=$(basename "$cat")
  measure "$name validate" validate "$cat"
  measure "$name render -o json" render "$cat" -o json
  measure "$name render -o yaml" render "$cat" -o yaml
done
cat <<'NOTE'
upstream opm on the same 2-core machine, v4.16: validate 4.2 s / 159 MB,
render -o json 4.2 s, render -o yaml 5.0 s.
NOTE
