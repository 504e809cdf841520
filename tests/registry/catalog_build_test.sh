#!/usr/bin/env bash
# `opm alpha catalog build`: catalog images built without a container engine, pushed to a
# registry or written as an OCI layout, then pulled back, rendered and served from their own
# cache; layer contents as the generated Dockerfile gives them; reproducible digests;
# re-pushes and mounts that upload nothing twice; multi-platform bases; broken pushes.
source "$(dirname "$0")/harness.sh"

start_registry plain
PLAIN=$REG
start_fault_proxy "$PLAIN"
R=http://$PLAIN
# A copy with known modes: the image keeps them, and serve's cache digest covers them.
CAT=$WORK/catalog
cp -r "$HARNESS_DIR/../data/serve/catalog" "$CAT"
find "$CAT" -type d -exec chmod 0755 {} +
find "$CAT" -type f -exec chmod 0644 {} +
chmod 0600 "$CAT/vault/catalog.yaml"
BASE=$WORK/base
mkdir -p "$BASE/bin" "$BASE/etc"
printf '#!/bin/sh\necho base opm\n' > "$BASE/bin/opm"
chmod 0755 "$BASE/bin/opm"
printf 'hosts: files dns\n' > "$BASE/etc/nsswitch.conf"
push_image "$R" ops/opm-base v1 --files "$BASE" --label base=yes > /dev/null
read -r D_AMD S_AMD T_AMD < <(push_image "$R" ops/multi-base amd64 --files "$BASE" --arch amd64 --label marker=amd)
read -r D_ARM S_ARM T_ARM < <(push_image "$R" ops/multi-base arm64 --files "$BASE" --arch arm64 --variant v8 --label marker=arm)
"${IMAGETOOL[@]}" index "$R" ops/multi-base v1 --entry "$D_AMD,$S_AMD,$T_AMD,linux/amd64" --entry "$D_ARM,$S_ARM,$T_ARM,linux/arm64/v8" > /dev/null

requests() { # METHOD PATH_REGEX: how many the fault proxy saw
  fault_log | python3 -c '
import json, re, sys
print(sum(1 for e in json.load(sys.stdin) if e["method"] == sys.argv[1] and re.search(sys.argv[2], e["path"])))' "$@"
}
config_of() { # LAYOUT_DIR: the image config of the layout's only image, as JSON
  python3 - "$1" << 'PY'
import json, os, sys
root = sys.argv[1]
blob = lambda d: os.path.join(root, "blobs", *d.split(":"))
top = json.load(open(os.path.join(root, "index.json")))["manifests"][0]
m = json.load(open(blob(top["digest"])))
print(json.dumps(json.load(open(blob(m["config"]["digest"]))), sort_keys=True))
PY
}
layer_listing() { # LAYOUT_DIR INDEX: `tar -tv` of one layer of the layout's only image
  python3 - "$1" "$2" << 'PY'
import json, os, sys, tarfile
root, i = sys.argv[1], int(sys.argv[2])
blob = lambda d: os.path.join(root, "blobs", *d.split(":"))
top = json.load(open(os.path.join(root, "index.json")))["manifests"][0]
m = json.load(open(blob(top["digest"])))
with tarfile.open(blob(m["layers"][i]["digest"])) as t:
    for e in t.getmembers():
        print("%s %o %d:%d %s%s %d" % ("d" if e.isdir() else "l" if e.issym() else "f", e.mode,
              e.uid, e.gid, e.name, "/" if e.isdir() else "", e.mtime))
PY
}

# --- push, then pull, render and serve the image ----------------------------------------------
fault_rules '[]'
expect_ok "build and push" alpha catalog build --use-http "$CAT" --base-image "$FAULT/ops/opm-base:v1" \
  --tag "$FAULT/ops/catalog:v1" -l team=olm -l tier=gold
DIGEST=$(cat "$WORK/out")
check "the digest is printed" grep -qE '^sha256:[0-9a-f]{64}$' "$WORK/out"
check "base layers were mounted from the base repository" test "$(requests POST 'mount=sha256%3A.*from=ops%2Fopm-base')" -ge 1
expect_ok "labels of the built image" __pull --use-http --no-cache --labels "$PLAIN/ops/catalog:v1"
check "configs label, base and extra labels" out_has '{"base":"yes","operators.operatorframework.io.index.configs.v1":"/configs","team":"olm","tier":"gold"}'
expect_ok "render the catalog directory" render "$CAT" -o json
cp "$WORK/out" "$WORK/render-dir.json"
expect_ok "render the pushed image" render --use-http "$PLAIN/ops/catalog:v1" -o json
check "the image renders as its directory" cmp -s "$WORK/out" "$WORK/render-dir.json"
rm -rf "$WORK/u"
expect_ok "unpack the pushed image" __pull --use-http --no-cache --unpack "$WORK/u" "$PLAIN/ops/catalog:v1"
check "base files are there" cmp -s "$BASE/bin/opm" "$WORK/u/bin/opm"
check "the catalog is at /configs" diff -r "$CAT" "$WORK/u/configs"
check "the serve cache is at /tmp/cache" test -f "$WORK/u/tmp/cache/digest"
expect_ok "our serve accepts the image's own cache with integrity enforced" \
  serve "$WORK/u/configs" --cache-dir "$WORK/u/tmp/cache" --cache-only --cache-enforce-integrity \
  --termination-log "$WORK/termination.log"
printf '\n' >> "$WORK/u/configs/vault/catalog.yaml"
expect_fail "a changed catalog no longer matches that cache" "cache requires rebuild" \
  serve "$WORK/u/configs" --cache-dir "$WORK/u/tmp/cache" --cache-only --cache-enforce-integrity \
  --termination-log "$WORK/termination.log"

# --- re-push: nothing uploaded twice ----------------------------------------------------------
fault_rules '[]'
expect_ok "build and push again" alpha catalog build --use-http "$CAT" --base-image "$PLAIN/ops/opm-base:v1" \
  --tag "$FAULT/ops/catalog:v1" -l team=olm -l tier=gold
check "the same digest" test "$(cat "$WORK/out")" = "$DIGEST"
check "no upload started" test "$(requests POST '/blobs/uploads/')" -eq 0
check "one manifest put" test "$(requests PUT '/manifests/')" -eq 1

check "the catalog layers were kept once, for the next build" test "$(ls "$XDG_CACHE_HOME/opm/catalog-layers" | wc -l)" -eq 1

# --- a changed catalog: new layers, and a cache that matches them --------------------------------
cp -r "$CAT" "$WORK/changed"
chmod 0640 "$WORK/changed/etcd/catalog.json"
expect_ok "a catalog with one mode changed" alpha catalog build --use-http "$WORK/changed" \
  --base-image "$PLAIN/ops/opm-base:v1" --tag "$PLAIN/ops/changed:v1"
check "gives another image" test "$(cat "$WORK/out")" != "$DIGEST"
check "and other kept layers" test "$(ls "$XDG_CACHE_HOME/opm/catalog-layers" | wc -l)" -eq 2
for kept in "$XDG_CACHE_HOME"/opm/catalog-layers/*; do
  touch -d '8 days ago' "$kept/layers.json"
done
chmod 0644 "$WORK/changed/etcd/catalog.json"
printf '\n' >> "$WORK/changed/vault/catalog.yaml"
expect_ok "a third catalog" alpha catalog build "$WORK/changed" --base-image scratch --tag "oci:$WORK/third"
check "layers unused for a week are dropped when new ones are kept" \
  test "$(ls "$XDG_CACHE_HOME/opm/catalog-layers" | wc -l)" -eq 1
rm -rf "$WORK/uc"
expect_ok "unpack the changed image" __pull --use-http --no-cache --unpack "$WORK/uc" "$PLAIN/ops/changed:v1"
expect_ok "its cache matches its catalog" \
  serve "$WORK/uc/configs" --cache-dir "$WORK/uc/tmp/cache" --cache-only --cache-enforce-integrity \
  --termination-log "$WORK/termination.log"
OPM_NO_CACHE=1 expect_ok "without the layer cache" alpha catalog build --use-http "$CAT" \
  --base-image "$PLAIN/ops/opm-base:v1" --tag "oci:$WORK/uncached:v1" -l team=olm -l tier=gold
check "the same image" test "$(cat "$WORK/out")" = "$DIGEST"

# --- the image as the generated Dockerfile describes it -----------------------------------------
expect_ok "build into an OCI layout" alpha catalog build --use-http "$CAT" --base-image "$PLAIN/ops/opm-base:v1" \
  --tag "oci:$WORK/layout:v1" -l team=olm -l tier=gold
check "the layout holds the pushed image" test "$(cat "$WORK/out")" = "$DIGEST"
config_of "$WORK/layout" > "$WORK/config.json"
check "entrypoint as the Dockerfile's" grep -qF '"Entrypoint": ["/bin/opm"]' "$WORK/config.json"
check "command as the Dockerfile's" grep -qF '"Cmd": ["serve", "/configs", "--cache-dir=/tmp/cache"]' "$WORK/config.json"
check "three diff ids" test "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rootfs"]["diff_ids"]))' "$WORK/config.json")" -eq 3
layer_listing "$WORK/layout" 1 > "$WORK/configs-layer.txt"
cat > "$WORK/configs-want.txt" << 'TXT'
d 755 0:0 configs/ 0
d 755 0:0 configs/etcd/ 0
f 644 0:0 configs/etcd/catalog.json 0
d 755 0:0 configs/prometheus/ 0
f 644 0:0 configs/prometheus/catalog.yaml 0
d 755 0:0 configs/vault/ 0
f 600 0:0 configs/vault/catalog.yaml 0
TXT
check "the /configs layer: root-owned, modes kept, epoch times" diff "$WORK/configs-want.txt" "$WORK/configs-layer.txt"
layer_listing "$WORK/layout" 2 > "$WORK/cache-layer.txt"
check "the cache layer starts with a sticky /tmp" test "$(head -n 1 "$WORK/cache-layer.txt")" = "d 1777 0:0 tmp/ 0"
check "the cache directory as serve makes it" grep -qx "d 750 0:0 tmp/cache/ 0" "$WORK/cache-layer.txt"
check "cache files as serve writes them" grep -qx "f 640 0:0 tmp/cache/digest 0" "$WORK/cache-layer.txt"

# --- reproducible --------------------------------------------------------------------------------
expect_ok "a second layout build" alpha catalog build --use-http "$CAT" --base-image "$PLAIN/ops/opm-base:v1" \
  --tag "oci:$WORK/layout2:v1" -l team=olm -l tier=gold
check "same inputs, same digest" test "$(cat "$WORK/out")" = "$DIGEST"
SOURCE_DATE_EPOCH=1700000000 expect_ok "SOURCE_DATE_EPOCH is honoured" alpha catalog build --use-http "$CAT" \
  --base-image "$PLAIN/ops/opm-base:v1" --tag "oci:$WORK/layout3:v1" -l team=olm -l tier=gold
check "another time, another digest" test "$(cat "$WORK/out")" != "$DIGEST"
check "layers dated SOURCE_DATE_EPOCH" grep -q " 1700000000$" <(layer_listing "$WORK/layout3" 1)
check "config dated SOURCE_DATE_EPOCH" grep -qF '"created": "2023-11-14T22:13:20Z"' <(config_of "$WORK/layout3")
SOURCE_DATE_EPOCH=soon expect_fail "an invalid SOURCE_DATE_EPOCH" 'invalid SOURCE_DATE_EPOCH "soon"' \
  alpha catalog build "$CAT" --base-image scratch --tag "oci:$WORK/layout4"

# --- multi-platform base, scratch base ---------------------------------------------------------
expect_ok "a multi-platform base gives an index" alpha catalog build --use-http "$CAT" \
  --base-image "$PLAIN/ops/multi-base:v1" --tag "$PLAIN/ops/multi-catalog:v1"
expect_ok "its arm64 image" __pull --use-http --no-cache --platform linux/arm64/v8 --labels "$PLAIN/ops/multi-catalog:v1"
check "arm64 keeps its base's labels" out_has '{"marker":"arm","operators.operatorframework.io.index.configs.v1":"/configs"}'
expect_ok "its amd64 image" __pull --use-http --no-cache --platform linux/amd64 --labels "$PLAIN/ops/multi-catalog:v1"
check "amd64 keeps its base's labels" out_has '{"marker":"amd","operators.operatorframework.io.index.configs.v1":"/configs"}'
expect_ok "--platform picks one platform" alpha catalog build --use-http "$CAT" --platform linux/arm64/v8 \
  --base-image "$PLAIN/ops/multi-base:v1" --tag "oci:$WORK/arm-only:v1"
check "a single image, not an index" grep -qF 'application/vnd.oci.image.manifest.v1+json' "$WORK/arm-only/index.json"
check "of the arm64 base" grep -qF '"marker": "arm"' <(config_of "$WORK/arm-only")
push_image "$R" ops/docker-base v1 --docker --files "$BASE" > /dev/null
expect_ok "a Docker schema 2 base" alpha catalog build --use-http "$CAT" \
  --base-image "$PLAIN/ops/docker-base:v1" --tag "$PLAIN/ops/docker-catalog:v1"
python3 "$TOOLS/httpreq.py" GET "http://$PLAIN/v2/ops/docker-catalog/manifests/v1" \
  --header "Accept: application/vnd.docker.distribution.manifest.v2+json" > "$WORK/docker-manifest.json" 2> /dev/null
check "stays a Docker image" grep -qF '"mediaType": "application/vnd.docker.distribution.manifest.v2+json"' \
  <(python3 -m json.tool "$WORK/docker-manifest.json")
check "with Docker layer types" test "$(grep -o 'application/vnd.docker.image.rootfs.diff.tar.gzip' "$WORK/docker-manifest.json" | wc -l)" -eq 3
expect_ok "a scratch base" alpha catalog build "$CAT" --base-image scratch --tag "oci:$WORK/scratch:v1"
check "no entrypoint without an opm" bash -c "! grep -q Entrypoint <(python3 -c 'print(open(\"/dev/stdin\").read())' < <(cat '$WORK/scratch/index.json'))"
check "scratch: just the two catalog layers" test "$(config_of "$WORK/scratch" | python3 -c 'import json,sys; c=json.load(sys.stdin); print(len(c["rootfs"]["diff_ids"]), "Entrypoint" in c["config"])')" = "2 False"

expect_ok "a docker-archive output" alpha catalog build --use-http "$CAT" --base-image "$PLAIN/ops/opm-base:v1" \
  --tag "docker-archive:$WORK/catalog.tar:example.com/ops/catalog:v1" -l team=olm -l tier=gold
check "the archive holds the pushed image" test "$(cat "$WORK/out")" = "$DIGEST"
check "the archive is tagged" bash -c "tar -xOf '$WORK/catalog.tar' manifest.json | grep -qF '\"RepoTags\":[\"example.com/ops/catalog:v1\"]'"
expect_ok "the archive renders as its directory" render "docker-archive:$WORK/catalog.tar" -o json
check "same catalog" cmp -s "$WORK/out" "$WORK/render-dir.json"

# --- failures -------------------------------------------------------------------------------------
fault_rules '[{"path": "/blobs/uploads/", "method": "PUT", "action": "status", "status": 500, "times": -1}]'
expect_fail "a push that breaks fails" "pushing blob sha256:" alpha catalog build --use-http "$CAT" \
  --base-image scratch --tag "$FAULT/ops/broken:v1"
check "no manifest was put" test "$(requests PUT '/manifests/')" -eq 0
expect_fail "nothing under the tag" "MANIFEST_UNKNOWN" __pull --use-http --no-cache "$PLAIN/ops/broken:v1"
mkdir -p "$WORK/invalid/p"
printf '{"schema":"olm.bundle","name":"b.v1","package":"nope","image":"x"}\n' > "$WORK/invalid/p/c.json"
expect_fail "an invalid catalog fails as serve --cache-only does" \
  'writing the serve cache: unknown package \"nope\" for bundle \"b.v1\"' \
  alpha catalog build "$WORK/invalid" --base-image scratch --tag "oci:$WORK/invalid-out"
check "and writes nothing" test ! -e "$WORK/invalid-out"
expect_fail "a missing catalog directory" 'catalog directory nowhere is not a directory' \
  alpha catalog build nowhere --base-image scratch --tag "oci:$WORK/x"
expect_fail "--tag is required" 'required flag(s) "tag" not set' alpha catalog build "$CAT"
expect_fail "a bad label" 'invalid label "novalue"' alpha catalog build "$CAT" -l novalue --tag "oci:$WORK/x"

check "no temporary files left" tmp_empty
finish
