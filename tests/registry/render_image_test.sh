#!/usr/bin/env bash
# opm render of images: a bundle image renders as its bundle directory would with the
# image reference as its image; a catalog image renders its configs directory; images of
# an unknown type or a SQLite index are refused with upstream's messages; the temporary
# unpack directory never outlives the command.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
BUNDLE=$OPM_TESTS/data/bundles/full
PKG_LABEL=operators.operatorframework.io.bundle.package.v1

push_image "$R" ops/full-bundle v1 --files "$BUNDLE" --label "$PKG_LABEL=full" > /dev/null
ref=$REG/ops/full-bundle:v1

# The same bundle as a directory, given the image reference through the template.
"$OPM" render "$BUNDLE" --alpha-image-ref-template "$ref" > "$WORK/from-dir.json"
expect_ok "render a bundle image" render --use-http "$ref"
check "bundle image renders as its directory" cmp -s "$WORK/out" "$WORK/from-dir.json"
check "no unpack directory left" tmp_empty

expect_ok "render a bundle image as yaml" render --use-http "$ref" -o yaml
check "yaml names the image" out_has "image: $ref"

# A catalog image: the configs label names the catalog directory inside the image.
CAT=$WORK/catalog-image
mkdir -p "$CAT/configs/full"
"$OPM" render "$BUNDLE" --alpha-image-ref-template "$ref" -o yaml > "$CAT/configs/full/bundle.yaml"
push_image "$R" ops/catalog v1 --files "$CAT" \
  --label operators.operatorframework.io.index.configs.v1=/configs > /dev/null
"$OPM" render "$CAT/configs" > "$WORK/from-configs.json"
expect_ok "render a catalog image" render --use-http "$REG/ops/catalog:v1"
check "catalog image renders as its configs directory" cmp -s "$WORK/out" "$WORK/from-configs.json"

# Two references keep their order, whatever they are.
expect_ok "render an image and a directory" render --use-http "$ref" "$BUNDLE"
check "both bundles rendered" test "$(grep -c '"schema": "olm.bundle"' "$WORK/out")" = 2

push_image "$R" ops/unknown v1 --files "$CAT" --label b=2 --label a=1 > /dev/null
expect_fail "an image of unknown type" \
  "render \"$REG/ops/unknown:v1\": image type could not be determined, found labels" \
  render --use-http "$REG/ops/unknown:v1"
check "labels listed sorted" err_has "$(printf '  a=1\n  b=2')"

push_image "$R" ops/nolabels v1 --files "$CAT" > /dev/null
expect_fail "an image without labels" "image type could not be determined: image has no labels" \
  render --use-http "$REG/ops/nolabels:v1"

push_image "$R" ops/sqlite v1 --files "$CAT" \
  --label operators.operatorframework.io.index.database.v1=/database/index.db > /dev/null
# As upstream v1.26.5: the database is opened where the label points, here in a directory
# the image does not have.
expect_fail "a sqlite index image without its database" \
  "render reference \"$REG/ops/sqlite:v1\": unable to open database file: no such file or directory" \
  render --use-http "$REG/ops/sqlite:v1"
check "the sqlite deprecation notice logged" err_has "DEPRECATION NOTICE:"

expect_fail "a missing image" "failed to pull image \"$REG/ops/nothere:v1\"" \
  render --use-http "$REG/ops/nothere:v1"
check "no unpack directory left after failures" tmp_empty

# An OCI layout that was never pushed.
L=$WORK/layout
"${IMAGETOOL[@]}" layout "$L" v1 --files "$BUNDLE" --label "$PKG_LABEL=full" > /dev/null
"$OPM" render "$BUNDLE" --alpha-image-ref-template "oci:$L:v1" > "$WORK/from-dir-oci.json"
expect_ok "render an oci layout" render "oci:$L:v1"
check "oci layout renders as its directory" cmp -s "$WORK/out" "$WORK/from-dir-oci.json"

finish
