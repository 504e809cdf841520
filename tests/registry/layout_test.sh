#!/usr/bin/env bash
# Local inputs: OCI image layouts (oci:DIR[:TAG]) and docker-save archives
# (docker-archive:FILE[:REF]), with the same verification and unpack rules.
source "$(dirname "$0")/harness.sh"

B=$WORK/bundle
make_bundle_dir "$B" etcd
L=$WORK/layout
"${IMAGETOOL[@]}" layout "$L" v1 --files "$B" --label from=layout > /dev/null
"${IMAGETOOL[@]}" layout "$L" v2 --files "$B" --label from=layout-v2 > /dev/null

expect_ok "oci layout by tag" __pull --labels "oci:$L:v1"
check "layout labels" out_has '{"from":"layout"}'
expect_ok "oci layout second tag" __pull --labels "oci:$L:v2"
check "layout v2 labels" out_has '{"from":"layout-v2"}'
expect_fail "oci layout with two images needs a tag" "more than one image in $L" __pull "oci:$L"
expect_fail "oci layout unknown tag" "no image named \"v9\" in $L" __pull "oci:$L:v9"
rm -rf "$WORK/u"
expect_ok "unpack from an oci layout" __pull --unpack "$WORK/u" "oci:$L:v1"
check "layout unpack" cmp -s "$B/manifests/csv.yaml" "$WORK/u/manifests/csv.yaml"

# A tampered blob is refused.
L2=$WORK/layout2
"${IMAGETOOL[@]}" layout "$L2" v1 --files "$B" > /dev/null
for f in "$L2"/blobs/sha256/*; do
  if tar -tzf "$f" > /dev/null 2>&1; then
    chmod u+w "$f"
    printf 'x' >> "$f"
  fi
done
expect_fail "a tampered layout blob is refused" "digest mismatch for sha256:" __pull --unpack "$WORK/u2" "oci:$L2:v1"
check "nothing unpacked from a tampered layout" test ! -e "$WORK/u2"

A=$WORK/image.tar
"${IMAGETOOL[@]}" archive "$A" example.com/ops/etcd:v1 --files "$B" --label from=archive > /dev/null
expect_ok "docker-archive labels" __pull --labels "docker-archive:$A"
check "archive labels" out_has '{"from":"archive"}'
rm -rf "$WORK/u3"
expect_ok "unpack a docker-archive" __pull --unpack "$WORK/u3" "docker-archive:$A"
check "archive unpack" cmp -s "$B/manifests/csv.yaml" "$WORK/u3/manifests/csv.yaml"
expect_ok "docker-archive by name" __pull --labels "docker-archive:$A:example.com/ops/etcd:v1"
expect_fail "docker-archive unknown name" "no image \"example.com/ops/etcd:v9\"" __pull "docker-archive:$A:example.com/ops/etcd:v9"
cp "$A" "$WORK/image:copy.tar"
expect_ok "an archive whose own name has a colon is read whole" __pull --labels "docker-archive:$WORK/image:copy.tar"
check "labels of the archive named with a colon" out_has '{"from":"archive"}'

# A layout whose index.json names an image index that lists another index (as `skopeo copy
# --all` writes them) resolves to the platform's image; so does the same layout as an archive.
# Nesting deeper than four indexes below the top is refused.
nest_layout() { # LAYOUT LEVELS TAG: index.json names LEVELS indexes around the image of LAYOUT
  python3 - "$@" <<'PY'
import hashlib, json, os, platform, sys
root, levels, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(os.path.join(root, "index.json")) as f:
    index = json.load(f)
child = dict(index["manifests"][0])
child.pop("annotations", None)
arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
child["platform"] = {"os": "linux", "architecture": arch}
for _ in range(levels):
    body = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
                       "manifests": [child]}).encode()
    digest = "sha256:" + hashlib.sha256(body).hexdigest()
    with open(os.path.join(root, "blobs", "sha256", digest[7:]), "wb") as f:
        f.write(body)
    child = {"mediaType": "application/vnd.oci.image.index.v1+json", "digest": digest,
             "size": len(body)}
child["annotations"] = {"org.opencontainers.image.ref.name": tag}
index["manifests"] = [child]
with open(os.path.join(root, "index.json"), "w") as f:
    json.dump(index, f)
PY
}
N=$WORK/nested
"${IMAGETOOL[@]}" layout "$N" v1 --files "$B" --label from=nested > /dev/null
nest_layout "$N" 2 v1
expect_ok "an index of an index in a layout resolves" __pull --labels "oci:$N:v1"
check "nested layout labels" out_has '{"from":"nested"}'
rm -rf "$WORK/u4"
expect_ok "unpack through a nested index" __pull --unpack "$WORK/u4" "oci:$N:v1"
check "nested unpack" cmp -s "$B/manifests/csv.yaml" "$WORK/u4/manifests/csv.yaml"
tar -cf "$WORK/nested.tar" -C "$N" .
expect_ok "an index of an index in an oci archive resolves" __pull --labels "docker-archive:$WORK/nested.tar"
check "nested archive labels" out_has '{"from":"nested"}'
N5=$WORK/nested5
"${IMAGETOOL[@]}" layout "$N5" v1 --files "$B" > /dev/null
nest_layout "$N5" 5 v1
TOP5=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["manifests"][0]["digest"])' "$N5/index.json")
expect_fail "nesting deeper than four levels is refused" \
  "image index $TOP5 nests indexes more than 4 levels deep" __pull --labels "oci:$N5:v1"

check "no temporary files left" tmp_empty
finish
