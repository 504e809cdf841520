#!/usr/bin/env bash
# opm alpha cache prune on a cache filled by real pulls: what was used lately (a tag pulled
# again renews its manifest, config and layers, and its rendered bundle) is kept, the rest removed with the index's
# references to it, and an image whose blobs were removed is pulled again, the same.
source "$(dirname "$0")/harness.sh"

start_registry plain
push_bundle_image "$OPM_TESTS/data/bundles/full" ops/full-bundle v1 > /dev/null
push_bundle_image "$OPM_TESTS/data/bundles/release" ops/release-bundle v1 > /dev/null
export OLM_CACHE_DIR=$WORK/olm-cache
C=$OLM_CACHE_DIR/images
blobs() { find "$C/blobs" -type f | wc -l; }

expect_ok "the first bundle rendered" render --use-http "$REG/ops/full-bundle:v1"
cp "$WORK/out" "$WORK/full.json"
expect_ok "the second bundle rendered" render --use-http "$REG/ops/release-bundle:v1"
cp "$WORK/out" "$WORK/release.json"
check "each image's manifest, config and layer cached" test "$(blobs)" = 6
find "$C/blobs" "$C/renders" -type f -exec touch -d '40 days ago' {} +

expect_ok "the first bundle rendered again" render --use-http "$REG/ops/full-bundle:v1"
expect_ok "cache info" alpha cache info
check "eight entries: six blobs, two rendered bundles" out_has "entries: 8"
check "the oldest last used 40 days ago" grep -qE '^oldest: 40d0h \(last used ' "$WORK/out"

expect_ok "prune what was not used for 30 days" alpha cache prune --older-than 30d
check "the first bundle's blobs (its pull looked at each) and rendered bundle kept" \
  out_has "kept: 4 entries"
check "the other bundle's blobs and rendered bundle removed" out_has "removed: 4 entries"
check "three blobs left" test "$(blobs)" = 3
check "the index keeps only the reference in use" \
  test "$(grep -o '"org.opencontainers.image.ref.name"' "$C/index.json" | wc -l)" = 1

expect_ok "the first bundle from what is kept" render --use-http "$REG/ops/full-bundle:v1"
check "the same first bundle" cmp -s "$WORK/out" "$WORK/full.json"
expect_ok "the second bundle pulled again" render --use-http "$REG/ops/release-bundle:v1"
check "the same second bundle" cmp -s "$WORK/out" "$WORK/release.json"
check "its blobs cached again" test "$(blobs)" = 6

expect_ok "prune everything" alpha cache prune --all
check "no blob left" test "$(blobs)" = 0
check "nothing kept" out_has "kept: 0 entries"
check "no temporary files left" tmp_empty
finish
