#!/usr/bin/env bash
# `opm render --migrate-level` / `--migrate`: olm.bundle.object properties replaced by
# olm.csv.metadata, and the migration errors.
source "$OPM_TESTS/cli/lib/assert.sh"
data=$OPM_TESTS/data/bundles

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

finish
