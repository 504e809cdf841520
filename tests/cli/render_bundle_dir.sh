#!/usr/bin/env bash
# `opm render <bundle-directory>`: the olm.bundle of a registry+v1 bundle directory as JSON
# and YAML, several directories at once, and a bundle error wrapped with its reference.
source "$OPM_TESTS/cli/lib/assert.sh"
data=$OPM_TESTS/data/bundles

"$OPM" render "$data/full" >"$TMP/out.json"
expect_file_eq "json output" "$data/full.json" "$TMP/out.json"

"$OPM" render "$data/full" -o yaml >"$TMP/out.yaml"
expect_file_eq "yaml output" "$data/full.yaml" "$TMP/out.yaml"

# Two bundle directories are rendered in argument order and sorted like any catalog.
"$OPM" render "$data/release" "$data/full" \
  --alpha-image-ref-template 'quay.io/{{.Package}}/{{.Name}}:{{.Version}}' >"$TMP/two.json"
expect_eq "objects of two directories" \
  "$(printf '"image": "quay.io/example-operator/example-operator.v1.2.3:1.2.3",\n"image": "quay.io/tiny/tiny-v0.1.0-2:0.1.0",')" \
  "$(grep -E '^    "image"' "$TMP/two.json" | sed 's/^ *//')"

# A bundle directory error is wrapped with the reference.
mkdir -p "$TMP/broken/manifests" "$TMP/broken/metadata"
printf 'apiVersion: v1\nkind: ConfigMap\n' >"$TMP/broken/manifests/cm.yaml"
status=0
"$OPM" render "$TMP/broken" >"$TMP/out" 2>"$TMP/err" || status=$?
expect_eq "bundle error exit status" 1 "$status"
expect_eq "bundle error" "T render reference \"$TMP/broken\": no csv in bundle" \
  "$(strip_time <"$TMP/err")"

finish
