#!/usr/bin/env bash
# `opm alpha pin` of a catalog of the 122 corpus bundle images in a loopback registry: every
# bundle image must come out naming the digest the registry holds for its tag, a tag the
# registry lacks must fail naming its bundle, and pinning the result again must change
# nothing and ask no registry. Prints the time of the cold and the warm pin.
#   bench/pin.sh [OPM_BINARY]
set -euo pipefail
[ -n "${1:-}" ] && OPM=$1
source "$(dirname "$0")/common.sh"
export OPM
bench_dir=$(cd "$(dirname "$0")" && pwd)
source "$bench_dir/../tests/registry/harness.sh"

corpus_bundle_list "$WORK/list"
start_registry bench
push_corpus_bundles "$REG" "$WORK/list"
IFS=, read -r -a REFS <<<"$(corpus_bundle_refs "$REG" "$WORK/list")"

# The catalog: the rendered bundles, related images left to those in the loopback registry
# (the corpus CSVs name public registries this bench does not reach).
mkdir -p "$WORK/cat"
"$OPM" render --use-http "${REFS[@]}" -o json | python3 -c '
import json, sys
reg, text, dec, pos, out = sys.argv[1], sys.stdin.read(), json.JSONDecoder(), 0, []
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos == len(text):
        break
    obj, pos = dec.raw_decode(text, pos)
    obj["relatedImages"] = [r for r in obj.get("relatedImages", []) if r["image"].startswith(reg)]
    out.append(json.dumps(obj))
print("\n".join(out))' "$REG" >"$WORK/cat/bundles.json"

# The digest the registry gives for each tag.
python3 - "$REG" "${REFS[@]}" >"$WORK/expected" <<'PY'
import hashlib, sys, urllib.request
reg = sys.argv[1]
for ref in sys.argv[2:]:
    repo, tag = ref[len(reg) + 1:].rsplit(":", 1)
    req = urllib.request.Request("http://%s/v2/%s/manifests/%s" % (reg, repo, tag),
                                 headers={"Accept": "application/vnd.oci.image.manifest.v1+json"})
    body = urllib.request.urlopen(req).read()
    print("%s/%s@sha256:%s" % (reg, repo, hashlib.sha256(body).hexdigest()))
PY

timed() { # LABEL ARGS...
  local label=$1 start end
  shift
  start=$(date +%s%N)
  "$OPM" alpha pin --use-http "$@" >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err"; exit 1; }
  end=$(date +%s%N)
  awk -v l="$label" -v ns=$((end - start)) 'BEGIN { printf "%-40s %.2f s\n", l, ns / 1e9 }'
}

export OLM_CACHE_DIR=$WORK/cache
timed "pin ${#REFS[@]} bundle images (cold cache)" "$WORK/cat" -o json
timed "pin ${#REFS[@]} bundle images (warm cache)" "$WORK/cat" -o json
python3 -c '
import json, sys
text, dec, pos, images = open(sys.argv[1]).read(), json.JSONDecoder(), 0, []
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos == len(text):
        break
    obj, pos = dec.raw_decode(text, pos)
    images.append(obj["image"])
print("\n".join(sorted(images)))' "$WORK/out" >"$WORK/pinned"
sort "$WORK/expected" | cmp -s - "$WORK/pinned" || { diff <(sort "$WORK/expected") "$WORK/pinned" | head; echo "FAIL: digests differ"; exit 1; }
echo "ok - every bundle image names the registry's digest for its tag"

mkdir -p "$WORK/pinned-cat"
cp "$WORK/out" "$WORK/pinned-cat/bundles.json"
kill "$(awk '$2 == "bench" { print $1 }' "$WORK/pids")"
"$OPM" alpha pin "$WORK/pinned-cat" -o json >"$WORK/again"
cmp -s "$WORK/again" "$WORK/out" && echo "ok - pinning again, with no registry, changes nothing"
