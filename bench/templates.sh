#!/usr/bin/env bash
# Measures `opm alpha render-template` over the corpus bundle images in a loopback registry,
# beside upstream v1.26.5: a basic template of all 122 bundles, and a semver template of each
# of the three 5-version chains (three calls, timed together), with a cold and a warm cache.
# Our basic output must equal upstream's (v1.26.5 reads the same template as a bare stream);
# our semver output must equal upstream's apart from the package description and icon, which
# only latest upstream adds.
#   bench/templates.sh [OPM_BINARY] [UPSTREAM_OPM]
set -euo pipefail
[ -n "${1:-}" ] && OPM=$1
UPSTREAM=${2:-/tmp/upstream-opm/opm}
source "$(dirname "$0")/common.sh"
export OPM
bench_dir=$(cd "$(dirname "$0")" && pwd)
source "$bench_dir/../tests/registry/harness.sh"
[ -x "$UPSTREAM" ] || { echo "no upstream opm at $UPSTREAM" >&2; exit 2; }

BUNDLES=$OPM_CORPUS/bundles
CHAINS=(ack-acm-controller ack-acmpca-controller ack-apigateway-controller)
corpus_bundle_list "$WORK/list"
start_registry bench
push_corpus_bundles "$REG" "$WORK/list"

# The basic template in both forms: latest's wrapper (ours) and v1.26.5's bare stream.
{
  echo "schema: olm.template.basic"
  echo "entries:"
  while read -r entry; do
    echo "- {schema: olm.bundle, image: $REG/corpus/${entry%/*}-bundle:${entry#*/}}"
  done < "$WORK/list"
} > "$WORK/basic.yaml"
while read -r entry; do
  printf -- '---\nschema: olm.bundle\nimage: %s\n' "$REG/corpus/${entry%/*}-bundle:${entry#*/}"
done < "$WORK/list" > "$WORK/basic-stream.yaml"
for pkg in "${CHAINS[@]}"; do
  {
    echo "schema: olm.semver"
    echo "stable:"
    echo "  bundles:"
    for dir in "$BUNDLES/$pkg"/*/; do
      echo "  - image: $REG/corpus/$pkg-bundle:$(basename "$dir")"
    done
  } > "$WORK/semver-$pkg.yaml"
done

# timed LABEL CACHE OUT BINARY TYPE TEMPLATES...: one run per template, times summed.
timed() {
  local label=$1 cache=$2 out=$3 bin=$4 type=$5 secs=0 kb=0 t
  shift 5
  : > "$out"
  for t in "$@"; do
    if ! OLM_CACHE_DIR=$cache /usr/bin/time -f "%e %M" -o "$WORK/time" \
      "$bin" alpha render-template "$type" "$t" --use-http -o json >> "$out" 2> "$WORK/err"; then
      echo "$label: failed"
      head -c 2000 "$WORK/err"
      return 1
    fi
    secs=$(awk -v a="$secs" -v b="$(cut -d' ' -f1 "$WORK/time")" 'BEGIN { print a + b }')
    kb=$(awk -v a="$kb" -v b="$(cut -d' ' -f2 "$WORK/time")" 'BEGIN { print (b > a) ? b : a }')
  done
  printf '%-34s %6.2f s %5d MB peak RSS\n' "$label" "$secs" $((kb / 1024))
  echo "$secs" > "$out.secs"
}

SEMVERS=()
for pkg in "${CHAINS[@]}"; do SEMVERS+=("$WORK/semver-$pkg.yaml"); done

echo "basic template of $(wc -l < "$WORK/list") bundle images:"
timed "upstream v1.26.5" "$WORK/up-cache" "$WORK/up-basic.json" "$UPSTREAM" basic \
  "$WORK/basic-stream.yaml"
timed "opm, cold cache" "$WORK/cache" "$WORK/basic-cold.json" "$OPM" basic "$WORK/basic.yaml"
timed "opm, warm cache" "$WORK/cache" "$WORK/basic-warm.json" "$OPM" basic "$WORK/basic.yaml"
echo "semver templates of the three 5-version chains:"
timed "upstream v1.26.5" "$WORK/up-cache" "$WORK/up-semver.json" "$UPSTREAM" semver "${SEMVERS[@]}"
timed "opm, cold cache" "$WORK/cache2" "$WORK/semver-cold.json" "$OPM" semver "${SEMVERS[@]}"
timed "opm, warm cache" "$WORK/cache2" "$WORK/semver-warm.json" "$OPM" semver "${SEMVERS[@]}"

ratio() { awk -v a="$(cat "$1")" -v b="$(cat "$2")" 'BEGIN { printf "%.2f", a / b }'; }
echo "cold/upstream: basic $(ratio "$WORK/basic-cold.json.secs" "$WORK/up-basic.json.secs")x," \
  "semver $(ratio "$WORK/semver-cold.json.secs" "$WORK/up-semver.json.secs")x (target 0.25x);" \
  "warm target 0.3 s; RSS target 150 MB"

# v1.26.5 orders olm.bundle.object properties by manifest file name, latest by their text; only
# latest adds the package's description and icon to a semver template's output. Both are
# evened out before comparing.
cat > "$WORK/even.py" <<'PY'
import json, sys
def objects(path):
    text, i, dec, out = open(path).read(), 0, json.JSONDecoder(), []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        obj, i = dec.raw_decode(text, i)
        if obj.get("schema") == "olm.package" and sys.argv[3] == "semver":
            obj.pop("description", None)
            obj.pop("icon", None)
        if obj.get("schema") == "olm.bundle":
            props = obj.get("properties", [])
            objs = sorted((p for p in props if p["type"] == "olm.bundle.object"),
                          key=lambda p: p["value"]["data"])
            obj["properties"] = [p for p in props if p["type"] != "olm.bundle.object"] + objs
        out.append(obj)
ours, theirs = objects(sys.argv[1]), objects(sys.argv[2])
if ours != theirs:
    print("%d objects vs %d upstream; first difference at object %d" % (len(ours), len(theirs),
          next((n for n, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))))
    sys.exit(1)
PY
rc=0
compare() { # NAME KIND OURS UPSTREAM
  if python3 "$WORK/even.py" "$3" "$4" "$2"; then
    echo "$1: output matches upstream"
  else
    echo "$1: OUTPUT DIFFERS from upstream"
    rc=1
  fi
}
compare "basic, cold" basic "$WORK/basic-cold.json" "$WORK/up-basic.json"
compare "basic, warm" basic "$WORK/basic-warm.json" "$WORK/up-basic.json"
compare "semver (description and icon left out)" semver "$WORK/semver-cold.json" \
  "$WORK/up-semver.json"
exit "$rc"
