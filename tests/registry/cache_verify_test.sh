#!/usr/bin/env bash
# A cached layer whose content no longer matches its digest (same size, changed bytes) is
# fetched again, and the render succeeds as the first one did; when the registry cannot be
# reached, the failure says which layer is damaged instead of a lasting archive error.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
BUNDLE=$OPM_TESTS/data/bundles/full
manifest=$(push_image "$R" ops/full-bundle v1 --files "$BUNDLE" \
  --label operators.operatorframework.io.bundle.package.v1=full | cut -d' ' -f1)
# By digest, so that the manifest comes from the cache once the registry is gone.
ref=$REG/ops/full-bundle@$manifest
export OLM_CACHE_DIR=$WORK/olm-cache

expect_ok "a first render fills the cache" render --use-http "$ref"
cp "$WORK/out" "$WORK/first.json"
# The layer is the largest blob; its size stays the same.
layer=$(find "$OLM_CACHE_DIR/images/blobs" -type f -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2)
digest=sha256:$(basename "$layer")
damage() {
  chmod u+w "$layer"
  size=$(stat -c %s "$layer")
  printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$layer" bs=1 seek=$((size / 2)) conv=notrunc status=none
  # The rendered bundle is not what is being tested here.
  rm -rf "$OLM_CACHE_DIR/images/renders"
}
damage
check "the layer is damaged" test "$(sha256sum < "$layer" | cut -d' ' -f1)" != "${digest#sha256:}"

expect_ok "a damaged cached layer is fetched again" render --use-http "$ref"
check "the output is the first one" cmp -s "$WORK/out" "$WORK/first.json"
check "the layer is whole again" test "$(sha256sum < "$layer" | cut -d' ' -f1)" = "${digest#sha256:}"

# use.lock stays: the hold that `opm alpha cache prune` takes (registry/cache_dir.hpp).
check "no lock files are left in the cache" \
  test -z "$(find "$OLM_CACHE_DIR" -name '*.lock' ! -path "$OLM_CACHE_DIR/images/use.lock")"

# A read-only cache (a read-only bind mount, where the system allows one) that lacks what
# the next image needs: the pull goes to a temporary cache instead of failing.
if unshare -m true 2> /dev/null; then
  push_image "$R" ops/other-bundle v1 --files "$BUNDLE" \
    --label operators.operatorframework.io.bundle.package.v1=other > /dev/null
  RO=$WORK/ro-cache
  cp -a "$OLM_CACHE_DIR" "$RO"
  RC=0
  unshare -m sh -c 'mount -o bind,ro "$1" "$1" && OLM_CACHE_DIR="$1" exec "$2" render --use-http "$3"' \
    _ "$RO" "$OPM" "$REG/ops/other-bundle:v1" > "$WORK/out" 2> "$WORK/err" || RC=$?
  check "read-only cache: the render succeeds" test "$RC" = 0
  check "read-only cache: the bundle is rendered" out_has '"image": "'"$REG"'/ops/other-bundle:v1"'
fi

damage
# The registry goes away: the layer cannot be fetched again.
while read -r pid _; do kill "$pid" 2> /dev/null || true; done < "$WORK/pids"
run_opm render --use-http "$ref"
check "offline: the render fails" test "$RC" = 1
check "offline: the damaged layer is named" err_has "cached layer $digest does not match its digest and could not be fetched again"
check "offline: not an archive error" bash -c "! grep -qi 'truncated' '$WORK/err'"
check "no temporary files left" tmp_empty
finish
