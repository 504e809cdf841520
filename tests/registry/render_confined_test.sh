#!/usr/bin/env bash
# render reads nothing outside an image's unpacked tree: symbolic links in a bundle's
# manifests/ or metadata/, a linked configs directory and a configs label with ".." either
# resolve inside the tree or fail with one line naming the image. Host files placed where
# the links point are never read.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
ESC=$WORK/host
PKG_LABEL=operators.operatorframework.io.bundle.package.v1=foo
CONFIGS_LABEL=operators.operatorframework.io.index.configs.v1
CSV='apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: foo.v1.0.0\nspec:\n  version: 1.0.0\n'
ANNOTATIONS='annotations:\n  operators.operatorframework.io.bundle.package.v1: foo\n  operators.operatorframework.io.bundle.channels.v1: stable\n'

# What a host-reading render would find: a whole bundle and a whole catalog.
mkdir -p "$ESC/catalog/foo"
printf "$CSV" > "$ESC/csv.yaml"
printf "$ANNOTATIONS" > "$ESC/annotations.yaml"
printf '{"schema":"olm.package","name":"host-secret"}\n' > "$ESC/catalog/foo/index.json"
UP=../../../../../../../../../../../..

spec() { # NAME JSON: a layer spec file
  printf '%s\n' "$2" > "$WORK/$1.json"
  echo "$WORK/$1.json"
}
file_entry() { printf '{"name": "%s", "data": "%s"}' "$1" "$2"; }
CSV_ENTRY=$(file_entry manifests/csv.yaml "$CSV")
ANN_ENTRY=$(file_entry metadata/annotations.yaml "$ANNOTATIONS")

expect_err() { # NAME LINE: opm failed and stderr is exactly LINE (timestamp normalized)
  if [ "$RC" -eq 1 ] && [ "$(normalized_err)" = "$2" ]; then
    pass "$1"
  else
    failed "$1 (exit $RC)"
    diff <(printf '%s\n' "$2") <(normalized_err) | sed 's/^/    /'  || true
  fi
}

# A manifest linked out of the tree with a relative target.
push_image "$R" hostile/manifest-rel v1 --label "$PKG_LABEL" --entry-json "$(spec manifest-rel "[
  {\"name\": \"manifests/csv.yaml\", \"type\": \"symlink\", \"link\": \"$UP$ESC/csv.yaml\"}, $ANN_ENTRY]")" > /dev/null
ref=$REG/hostile/manifest-rel:v1
run_opm render --use-http "$ref"
expect_err "a manifest linked outside is refused" \
  "DATE render reference \"$ref\": failed to unpack image \"$ref\": unpacking $ref: symbolic link \"manifests/csv.yaml\" to \"$UP$ESC/csv.yaml\" points outside the image"

# Absolute links start again at the tree's root: the host's files are not there.
push_image "$R" hostile/metadata-abs v1 --label "$PKG_LABEL" --entry-json "$(spec metadata-abs "[$CSV_ENTRY,
  {\"name\": \"metadata/annotations.yaml\", \"type\": \"symlink\", \"link\": \"$ESC/annotations.yaml\"}]")" > /dev/null
ref=$REG/hostile/metadata-abs:v1
run_opm render --use-http "$ref"
expect_err "an absolute metadata link does not reach the host" \
  "DATE render reference \"$ref\": Could not find annotations file"

# A whole metadata directory linked to the host.
push_image "$R" hostile/metadata-dir v1 --label "$PKG_LABEL" --entry-json "$(spec metadata-dir "[$CSV_ENTRY,
  {\"name\": \"metadata\", \"type\": \"symlink\", \"link\": \"$ESC\"}]")" > /dev/null
ref=$REG/hostile/metadata-dir:v1
# The link now leads to a directory of the tree that does not exist.
expect_fail "a linked metadata directory does not reach the host" \
  "/metadata: no such file or directory" render --use-http "$ref"

# A configs directory linked out of the tree.
push_image "$R" hostile/configs-rel v1 --label "$CONFIGS_LABEL=/configs" --entry-json "$(spec configs-rel "[
  {\"name\": \"configs\", \"type\": \"symlink\", \"link\": \"$UP$ESC/catalog\"}]")" > /dev/null
ref=$REG/hostile/configs-rel:v1
run_opm render --use-http "$ref"
expect_err "a configs directory linked outside is refused" \
  "DATE render reference \"$ref\": failed to unpack image \"$ref\": unpacking $ref: symbolic link \"configs\" to \"$UP$ESC/catalog\" points outside the image"

# A configs directory linked inside the tree still renders.
push_image "$R" ops/configs-linked v1 --label "$CONFIGS_LABEL=/configs" --entry-json "$(spec configs-in "[
  {\"name\": \"real/foo/index.json\", \"data\": \"{\\\"schema\\\":\\\"olm.package\\\",\\\"name\\\":\\\"foo\\\"}\\n\"},
  {\"name\": \"configs\", \"type\": \"symlink\", \"link\": \"/real\"}]")" > /dev/null
run_opm render --use-http "$REG/ops/configs-linked:v1"
check "a configs link inside the tree renders" test "$RC" = 0
expect_text "$WORK/out" $'{\n    "schema": "olm.package",\n    "name": "foo",\n    "defaultChannel": ""\n}\n'

# A configs label that climbs out of the tree.
push_image "$R" hostile/configs-label v1 --label "$CONFIGS_LABEL=/configs/$UP$ESC/catalog" \
  --entry-json "$(spec configs-label '[{"name": "configs/.keep", "data": ""}]')" > /dev/null
ref=$REG/hostile/configs-label:v1
run_opm render --use-http "$ref"
expect_err "a configs label with .. is refused" \
  "DATE render reference \"$ref\": render \"$ref\": label $CONFIGS_LABEL=\"/configs/$UP$ESC/catalog\" points outside the image"

check "no unpack directory left" tmp_empty
finish
