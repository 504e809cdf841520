#!/usr/bin/env bash
# `opm render <bundle-directory>`: the olm.bundle of a registry+v1 bundle directory, as JSON
# and YAML, with an image reference template, with migrations, and the related errors.
source "$OPM_TESTS/cli/lib.sh"
data=$OPM_TESTS/data/bundles

"$OPM" render "$data/full" >"$TMP/out.json"
expect_file_eq "json output" "$data/full.json" "$TMP/out.json"

"$OPM" render "$data/full" -o yaml >"$TMP/out.yaml"
expect_file_eq "yaml output" "$data/full.yaml" "$TMP/out.yaml"

"$OPM" render "$data/full" --alpha-image-ref-template 'quay.io/example/bundle:v{{.Version}}' \
  --migrate-level bundle-object-to-csv-metadata >"$TMP/migrated.json"
expect_file_eq "templated image and csv metadata" "$data/full.migrated.json" "$TMP/migrated.json"

"$OPM" render "$data/full" --alpha-image-ref-template 'quay.io/example/bundle:v{{.Version}}' \
  --migrate >"$TMP/migrate-all.json"
expect_file_eq "--migrate runs every migration" "$data/full.migrated.json" "$TMP/migrate-all.json"

"$OPM" render "$data/full" --migrate-level none >"$TMP/none.json"
expect_file_eq "migration level none changes nothing" "$data/full.json" "$TMP/none.json"

# Without an image the migration leaves the bundle alone.
"$OPM" render "$data/full" --migrate >"$TMP/no-image.json"
expect_file_eq "no image, no migration" "$data/full.json" "$TMP/no-image.json"

# Two bundle directories are rendered in argument order and sorted like any catalog.
"$OPM" render "$data/release" "$data/full" \
  --alpha-image-ref-template 'quay.io/{{.Package}}/{{.Name}}:{{.Version}}' >"$TMP/two.json"
expect_eq "objects of two directories" \
  "$(printf '"image": "quay.io/example-operator/example-operator.v1.2.3:1.2.3",\n"image": "quay.io/tiny/tiny-v0.1.0-2:0.1.0",')" \
  "$(grep -E '^    "image"' "$TMP/two.json" | sed 's/^ *//')"

status=0
"$OPM" render "$data/full" --alpha-image-ref-template '{{.Package' >"$TMP/out" 2>"$TMP/err" || status=$?
expect_eq "template parse error exit status" 1 "$status"
expect_eq "template parse error" \
  "T invalid image reference template: template: image-ref-template:1: unclosed action" \
  "$(strip_time <"$TMP/err")"
expect_eq "nothing on stdout" "" "$(cat "$TMP/out")"

status=0
"$OPM" render "$data/full" --alpha-image-ref-template '{{.Tag}}' >"$TMP/out" 2>"$TMP/err" || status=$?
expect_eq "template execution error exit status" 1 "$status"
expect_eq "template execution error" \
  "T render reference \"$data/full\": failed templating image reference from bundle for \"$data/full\": template: image-ref-template:1:2: executing \"image-ref-template\" at <.Tag>: can't evaluate field Tag in type action.imageReferenceTemplateData" \
  "$(strip_time <"$TMP/err")"

status=0
"$OPM" render "$data/full" --migrate-level everything >"$TMP/out" 2>"$TMP/err" || status=$?
expect_eq "unknown migration level exit status" 1 "$status"
expect_eq "unknown migration level" 'T unknown migration level "everything"' \
  "$(strip_time <"$TMP/err")"

status=0
"$OPM" render "$data/release" --alpha-image-ref-template 'x' --migrate >"$TMP/out" 2>"$TMP/err" ||
  status=$?
expect_eq "migration error exit status" 1 "$status"
expect_eq "migration error" \
  'T migrate: json: cannot unmarshal number into Go struct field ClusterServiceVersionSpec.spec.release of type string' \
  "$(strip_time <"$TMP/err")"

status=0
"$OPM" render "$data/full" --migrate --migrate-level none >"$TMP/out" 2>"$TMP/err" || status=$?
expect_eq "both migration flags exit status" 1 "$status"
expect_eq "both migration flags" \
  'Error: if any flags in the group [migrate migrate-level] are set none of the others can be; [migrate migrate-level] were all set' \
  "$(head -1 "$TMP/err")"

# A bundle directory error is wrapped with the reference.
mkdir -p "$TMP/broken/manifests" "$TMP/broken/metadata"
printf 'apiVersion: v1\nkind: ConfigMap\n' >"$TMP/broken/manifests/cm.yaml"
status=0
"$OPM" render "$TMP/broken" >"$TMP/out" 2>"$TMP/err" || status=$?
expect_eq "bundle error exit status" 1 "$status"
expect_eq "bundle error" "T render reference \"$TMP/broken\": no csv in bundle" \
  "$(strip_time <"$TMP/err")"

finish
