#!/usr/bin/env bash
# Hostile layers: nothing is ever written outside the target directory, links are
# checked, devices skipped, whiteouts applied, limits enforced, and no partial tree or
# temporary file survives a refusal.
source "$(dirname "$0")/harness.sh"

start_registry plain
PLAIN=$REG
R=http://$PLAIN
export OPM_TEST_ESCAPE_DIR=$WORK/outside
mkdir -p "$OPM_TEST_ESCAPE_DIR"
printf 'original\n' > "$OPM_TEST_ESCAPE_DIR/target"
H=$HARNESS_DIR/hostile
for spec in traversal absolute symlink-absolute symlink-relative hardlink devices bomb; do
  push_image "$R" "hostile/$spec" v1 --entry-json "$H/$spec.json" > /dev/null
done
push_image "$R" hostile/whiteout v1 --entry-json "$H/whiteout-lower.json" --entry-json "$H/whiteout-upper.json" > /dev/null
head -c 4096 /dev/urandom > "$WORK/junk.bin"
push_image "$R" hostile/notar v1 --raw "$WORK/junk.bin" > /dev/null

outside_untouched() {
  [ "$(ls -A "$OPM_TEST_ESCAPE_DIR")" = target ] && [ "$(cat "$OPM_TEST_ESCAPE_DIR/target")" = original ]
}
PULL=(__pull --use-http --no-cache)
U=$WORK/unpacked
mkdir -p "$U"

expect_fail "a .. name is refused" "escapes the target directory" "${PULL[@]}" --unpack "$U/traversal" "$PLAIN/hostile/traversal:v1"
check "traversal: nothing outside" outside_untouched
check "traversal: no partial tree" test -z "$(ls -A "$U")"

expect_ok "absolute names are re-rooted" "${PULL[@]}" --unpack "$U/absolute" "$PLAIN/hostile/absolute:v1"
check "absolute: written inside" test -f "$U/absolute$OPM_TEST_ESCAPE_DIR/escape-absolute"
check "absolute: ./ stripped" test -f "$U/absolute/manifests/dotted.yaml"
check "absolute: nothing outside" outside_untouched

expect_ok "an absolute symlink is followed inside the root only" "${PULL[@]}" --unpack "$U/symabs" "$PLAIN/hostile/symlink-absolute:v1"
check "symlink: the link now leads inside the tree" test "$(readlink "$U/symabs/manifests/out")" = "..$OPM_TEST_ESCAPE_DIR"
check "symlink: the file landed inside" test -f "$U/symabs$OPM_TEST_ESCAPE_DIR/escape-symlink"
check "symlink: nothing outside" outside_untouched

expect_fail "a relative symlink that climbs out is refused" "escapes the target directory" \
  "${PULL[@]}" --unpack "$U/symrel" "$PLAIN/hostile/symlink-relative:v1"
check "relative symlink: nothing outside" outside_untouched

expect_fail "a hard link to a path outside is refused" "the target is not a file extracted earlier" \
  "${PULL[@]}" --unpack "$U/hard" "$PLAIN/hostile/hardlink:v1"
check "hard link: target untouched" outside_untouched

expect_ok "devices and FIFOs are skipped" "${PULL[@]}" --unpack "$U/devices" "$PLAIN/hostile/devices:v1"
check "devices: no device nodes" test -z "$(find "$U/devices" -type b -o -type c -o -type p)"
check "devices: setuid stripped" test -z "$(find "$U/devices" -perm -4000)"
check "devices: the ordinary file is there" test -f "$U/devices/manifests/ok.yaml"

expect_ok "whiteouts and opaque directories" "${PULL[@]}" --unpack "$U/whiteout" "$PLAIN/hostile/whiteout:v1"
check "whiteout: only keep.yaml and fresh.yaml remain" \
  test "$(cd "$U/whiteout" && find . -type f | sort | tr '\n' ' ')" = "./manifests/keep.yaml ./olddir/fresh.yaml "

OPM_UNPACK_RATIO_FLOOR=1048576 expect_fail "a decompression bomb is refused by ratio" "unpack limit exceeded: compression ratio above 200:1" \
  "${PULL[@]}" --unpack "$U/bomb" "$PLAIN/hostile/bomb:v1"
OPM_UNPACK_MAX_FILE=1000000 expect_fail "a file over the size limit is refused" "unpack limit exceeded: file \"zeros.bin\" is larger than 1000000 bytes" \
  "${PULL[@]}" --unpack "$U/bomb" "$PLAIN/hostile/bomb:v1"
OPM_UNPACK_MAX_TOTAL=1000 expect_fail "the total size limit" "unpack limit exceeded: more than 1000 bytes in total" \
  "${PULL[@]}" --unpack "$U/bomb" "$PLAIN/hostile/bomb:v1"
OPM_UNPACK_MAX_ENTRIES=2 expect_fail "the entry count limit" "unpack limit exceeded: more than 2 entries" \
  "${PULL[@]}" --unpack "$U/bomb" "$PLAIN/hostile/devices:v1"
check "limits: no partial trees" test "$(ls -A "$U" | tr '\n' ' ')" = "absolute devices symabs whiteout "

expect_fail "a layer that is not a tar stream" "(application/vnd.oci.image.layer.v1.tar) is not a tar archive" \
  "${PULL[@]}" --unpack "$U/notar" "$PLAIN/hostile/notar:v1"

check "no temporary files left" tmp_empty
finish
