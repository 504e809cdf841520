#!/usr/bin/env bash
# Times opm beside upstream opm, in the same run, on three catalogs: v4.22 without the three
# packages upstream cannot read (a fair pair), v4.16, and a generated JSON catalog 8x the
# size of v4.16 (upstream's own JSON render of each v4.16 package, eight times under new
# names). For validate, render -o json and render -o yaml it prints the median wall and CPU
# (user + system) time of RUNS runs (default 3) and the peak RSS, ours then upstream's (their
# runs taken in turn), and our CPU time as a share of upstream's. Then `serve` start-up (to the first SERVING
# health answer) on v4.22, when the load client is there: medians of RUNS starts each.
# Needs python3 (bench/rusage.py times each run). UPSTREAM_OPM=path names upstream's
# binary (default /tmp/upstream-opm/opm; without one only our figures are printed).
# SERVE_LOAD=path names the serve load client (default: tools/serve_load.py beside the corpus; it
# needs Debian python3-grpcio).
source "$(dirname "$0")/common.sh"
RUNS=${RUNS:-3}
upstream=${UPSTREAM_OPM:-/tmp/upstream-opm/opm}
load_client=${SERVE_LOAD:-$OPM_CORPUS/../tools/serve_load.py}
[ -x "$upstream" ] || upstream=

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fair=$work/v4.22-fair
cp -r "$OPM_CORPUS/catalogs/v4.22" "$fair"
rm -rf "$fair"/{infinispan,kairos-operator,layer7-operator}

big=$work/v4.16x8-json
for i in 1 2 3 4 5 6 7 8; do
  for expected in "$OPM_CORPUS/expected/v4.16"/*/render.json.xz; do
    pkg=$(basename "$(dirname "$expected")")
    [ "$pkg" = _all ] && continue
    mkdir -p "$big/$pkg-x$i"
    xz -dc "$expected" | sed "s/$pkg/$pkg-x$i/g" >"$big/$pkg-x$i/catalog.json"
  done
done

# BINARY ARGS... -> "wall_s cpu_s rss_kb" of one run.
measure_once() { RUNS=1 measure_runs 0 "$work" "$@"; }

# FILE of "wall cpu rss" lines -> the median wall and CPU and the largest RSS.
medians() {
  local mid
  mid=$((($(wc -l <"$1") + 1) / 2))
  echo "$(cut -d' ' -f1 "$1" | sort -n | sed -n "${mid}p")" \
    "$(cut -d' ' -f2 "$1" | sort -n | sed -n "${mid}p")" "$(cut -d' ' -f3 "$1" | sort -n | tail -1)"
}

row() { # LABEL ARGS...: ours, then upstream's, then the CPU ratio
  local label=$1
  shift
  local ours theirs
  # Ours and upstream's run in turn, so that a machine whose speed drifts during the run
  # moves both alike and the ratio stays put.
  for _ in $(seq "$RUNS"); do
    measure_once "$OPM" "$@" >>"$work/ours"
    [ -z "$upstream" ] || measure_once "$upstream" "$@" >>"$work/theirs"
  done
  ours=$(medians "$work/ours")
  rm -f "$work/ours"
  printf '%-26s ours     %s\n' "$label" "$(fmt "$ours")"
  if [ -n "$upstream" ]; then
    theirs=$(medians "$work/theirs")
    rm -f "$work/theirs"
    printf '%-26s upstream %s   cpu ratio %s\n' "" "$(fmt "$theirs")" \
      "$(awk -v a="${ours#* }" -v b="${theirs#* }" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "%.3f", (y[1] > 0 ? x[1] / y[1] : 0) }')"
  fi
}

fmt() { # "wall cpu rss_kb" -> readable
  awk '{ printf "wall %6.3f s  cpu %6.3f s  peak %7.1f MB", $1, $2, $3 / 1024 }' <<<"$1"
}

echo "opm: $OPM; upstream: ${upstream:-none} ($RUNS runs each: median wall and CPU, peak RSS)"
for cat in "$fair" "$OPM_CORPUS/catalogs/v4.16" "$big"; do
  name=$(basename "$cat")
  echo "== $name ($(du -sm "$cat" | cut -f1) MB)"
  row "validate" validate "$cat"
  row "render -o json" render "$cat" -o json
  row "render -o yaml" render "$cat" -o yaml
done

# One start to the first SERVING answer: "startup_s cpu_s hwm_kb".
start_once() { # BINARY
  local port
  port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  /usr/bin/python3 "$load_client" startup "localhost:$port" --stop -- \
    "$1" serve "$fair" -p "$port" -t /dev/null |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["startup_s"], d["cpu_s"], d["hwm_kb"])'
}

if [ -f "$load_client" ] && /usr/bin/python3 -c 'import grpc' 2>/dev/null; then
  echo "== serve start-up, $(basename "$fair") (medians of $RUNS starts, ours and upstream's in turn)"
  for _ in $(seq "$RUNS"); do
    for bin in "$OPM" $upstream; do
      echo "$bin $(start_once "$bin")"
    done
  done >"$work/starts"
  python3 - "$work/starts" "$OPM" "$upstream" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
medians = {}
for binary in filter(None, sys.argv[2:]):
    mine = [r[1:] for r in rows if r[0] == binary]
    medians[binary] = [statistics.median(float(r[i]) for r in mine) for i in range(3)]
    start, cpu, hwm = medians[binary]
    label = "ours" if binary == sys.argv[2] else "upstream"
    print(f"{'start to SERVING':26} {label:8} wall {start:6.3f} s  cpu {cpu:6.3f} s  peak {hwm / 1024:7.1f} MB")
if len(medians) == 2:
    ours, theirs = medians[sys.argv[2]], medians[sys.argv[3]]
    print(f"{'':26} wall ratio {ours[0] / theirs[0]:.3f}   cpu ratio {ours[1] / theirs[1]:.3f}")
PY
else
  echo "(serve start-up skipped: no load client at $load_client or no python3-grpcio)"
fi
