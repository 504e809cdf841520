#!/usr/bin/env bash
# `opm render --migrate-level` / `--migrate`: olm.bundle.object properties replaced by
# olm.csv.metadata, and the migration errors.
source "$OPM_TESTS/cli/lib/common.bash"
data=$OPM_TESTS/data/bundles

"$OPM" render "$data/full" --alpha-image-ref-template 'quay.io/example/bundle:v{{.Version}}' \
  --migrate-level bundle-object-to-csv-metadata >"$WORK/migrated.json"
expect_file "$WORK/migrated.json" "$data/full.migrated.json"

"$OPM" render "$data/full" --alpha-image-ref-template 'quay.io/example/bundle:v{{.Version}}' \
  --migrate >"$WORK/migrate-all.json"
expect_file "$WORK/migrate-all.json" "$data/full.migrated.json"

"$OPM" render "$data/full" --migrate-level none >"$WORK/none.json"
expect_file "$WORK/none.json" "$data/full.json"

# Without an image the migration leaves the bundle alone.
"$OPM" render "$data/full" --migrate >"$WORK/no-image.json"
expect_file "$WORK/no-image.json" "$data/full.json"

status=0
"$OPM" render "$data/full" --migrate-level everything >"$WORK/out" 2>"$WORK/err" || status=$?
expect_eq "unknown migration level exit status" 1 "$status"
expect_eq "unknown migration level" 'DATE unknown migration level "everything"' \
  "$(normalized_err)"

status=0
"$OPM" render "$data/release" --alpha-image-ref-template 'x' --migrate >"$WORK/out" 2>"$WORK/err" ||
  status=$?
expect_eq "migration error exit status" 1 "$status"
expect_eq "migration error" \
  'DATE migrate: json: cannot unmarshal number into Go struct field ClusterServiceVersionSpec.spec.release of type string' \
  "$(normalized_err)"

status=0
"$OPM" render "$data/full" --migrate --migrate-level none >"$WORK/out" 2>"$WORK/err" || status=$?
expect_eq "both migration flags exit status" 1 "$status"
expect_eq "both migration flags" \
  'Error: if any flags in the group [migrate migrate-level] are set none of the others can be; [migrate migrate-level] were all set' \
  "$(head -1 "$WORK/err")"
