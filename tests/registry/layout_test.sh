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

check "no temporary files left" tmp_empty
finish
