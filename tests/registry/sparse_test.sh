#!/usr/bin/env bash
# Sparse tar entries (GNU and PAX 1.0) count at their logical size against the unpack
# limits: a layer of a few kilobytes that describes a gigabyte of holes is refused, never
# unpacked and then read into memory.
source "$(dirname "$0")/harness.sh"

if ! tar --version 2> /dev/null | grep -q 'GNU tar'; then
  echo "skip: GNU tar is needed to write sparse entries"
  exit 77
fi
start_registry plain
R=http://$REG
LABEL=operators.operatorframework.io.bundle.package.v1=foo

# A 1 GiB manifest: one byte of data at its end, the rest a hole.
SRC=$WORK/src
mkdir -p "$SRC/manifests" "$SRC/metadata"
truncate -s $((1 << 30)) "$SRC/manifests/big.yaml"
printf 'x' | dd of="$SRC/manifests/big.yaml" bs=1 seek=$(((1 << 30) - 1)) conv=notrunc status=none
printf 'annotations:\n  operators.operatorframework.io.bundle.package.v1: foo\n' > "$SRC/metadata/annotations.yaml"
(cd "$SRC" && tar --sparse --format=gnu -cf "$WORK/gnu.tar" manifests metadata)
(cd "$SRC" && tar --sparse --format=posix --sparse-version=1.0 -cf "$WORK/pax.tar" manifests metadata)
check "the GNU layer is small" test "$(stat -c %s "$WORK/gnu.tar")" -lt 65536
check "the PAX layer is small" test "$(stat -c %s "$WORK/pax.tar")" -lt 65536

PULL=(__pull --use-http --no-cache)
U=$WORK/unpacked
mkdir -p "$U"
for kind in gnu pax; do
  push_image "$R" "sparse/$kind" v1 --label "$LABEL" --raw "$WORK/$kind.tar" > /dev/null
  ref=$REG/sparse/$kind:v1
  expect_fail "$kind: refused by the compression ratio" "unpack limit exceeded: compression ratio above 200:1" \
    "${PULL[@]}" --unpack "$U/$kind" "$ref"
  OPM_UNPACK_RATIO_FLOOR=$((4 << 30)) OPM_UNPACK_MAX_TOTAL=100000000 expect_fail "$kind: refused by the total size" \
    "unpack limit exceeded: more than 100000000 bytes in total" "${PULL[@]}" --unpack "$U/$kind" "$ref"
  OPM_UNPACK_RATIO_FLOOR=$((4 << 30)) OPM_UNPACK_MAX_FILE=1000000 expect_fail "$kind: refused by the file size" \
    "unpack limit exceeded: file \"manifests/big.yaml\" is larger than 1000000 bytes" "${PULL[@]}" --unpack "$U/$kind" "$ref"
  run_opm render --use-http "$ref"
  check "$kind: render fails" test "$RC" = 1
  check "$kind: render names the image" err_has "failed to unpack image \"$ref\""
  check "$kind: render names the limit" err_has "unpack limit exceeded: compression ratio above 200:1"
done
check "no partial trees" test -z "$(ls -A "$U")"
check "no temporary files left" tmp_empty
finish
