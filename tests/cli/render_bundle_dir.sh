#!/usr/bin/env bash
# `opm render <bundle-directory>`: the olm.bundle of a registry+v1 bundle directory as JSON
# and YAML, several directories at once, and a bundle error wrapped with its reference.
source "$OPM_TESTS/cli/lib/common.bash"
data=$OPM_TESTS/data/bundles

"$OPM" render "$data/full" >"$WORK/out.json"
expect_file "$WORK/out.json" "$data/full.json"

"$OPM" render "$data/full" -o yaml >"$WORK/out.yaml"
expect_file "$WORK/out.yaml" "$data/full.yaml"

# Two bundle directories are rendered in argument order and sorted like any catalog.
"$OPM" render "$data/release" "$data/full" \
  --alpha-image-ref-template 'quay.io/{{.Package}}/{{.Name}}:{{.Version}}' >"$WORK/two.json"
expect_eq "objects of two directories" \
  "$(printf '"image": "quay.io/example-operator/example-operator.v1.2.3:1.2.3",\n"image": "quay.io/tiny/tiny-v0.1.0-2:0.1.0",')" \
  "$(grep -E '^    "image"' "$WORK/two.json" | sed 's/^ *//')"

# A bundle directory error is wrapped with the reference.
mkdir -p "$WORK/broken/manifests" "$WORK/broken/metadata"
printf 'apiVersion: v1\nkind: ConfigMap\n' >"$WORK/broken/manifests/cm.yaml"
status=0
"$OPM" render "$WORK/broken" >"$WORK/out" 2>"$WORK/err" || status=$?
expect_eq "bundle error exit status" 1 "$status"
expect_eq "bundle error" "DATE render reference \"$WORK/broken\": no csv in bundle" \
  "$(normalized_err)"
