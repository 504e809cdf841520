#!/usr/bin/env bash
# For every corpus bundle: `opm alpha bundle build -b none` into an OCI layout, then
#  - `opm render` of the image equals `opm render` of the directory (given the image's name),
#  - `opm alpha bundle unpack` gives the directory back,
#  - `opm alpha bundle validate -b none` passes.
# (A bundle directory's other entries, such as tests/, are not part of the image.)
# Prints one line per failure and ends with "N passed, M failed".
source "$(dirname "$0")/common.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OLM_CACHE_DIR="$work/cache" SOURCE_DATE_EPOCH=0
passed=0
failed=0

# annotation DIR NAME: an annotation's value, without the quotes YAML may have put around it.
annotation() {
  sed -n "s/^  operators.operatorframework.io.bundle.$2: //p" "$1/metadata/annotations.yaml" |
    sed 's/^"\(.*\)"$/\1/'
}

check_bundle() { # SRC
  local src=$1 ref="oci:$work/layout:v1"
  rm -rf "${work:?}/b" "$work/layout" "$work/unpacked" && cp -r "$src" "$work/b"
  local args=(-d b/manifests -p "$(annotation "$src" package.v1)" -c "$(annotation "$src" channels.v1)")
  local default
  default=$(annotation "$src" channel.default.v1)
  [ -n "$default" ] && args+=(-e "$default")
  (cd "$work" && "$OPM" alpha bundle build "${args[@]}" -t "$ref" -b none) >/dev/null 2>"$work/err" ||
    { echo "build: $(tail -c 300 "$work/err")"; return 1; }
  "$OPM" render "$ref" >"$work/from_image.json" 2>"$work/err" || { echo "render image"; return 1; }
  "$OPM" render "$src" --alpha-image-ref-template "$ref" >"$work/from_dir.json" 2>"$work/err" ||
    { echo "render dir"; return 1; }
  cmp -s "$work/from_image.json" "$work/from_dir.json" || { echo "renders differ"; return 1; }
  "$OPM" alpha bundle unpack "$ref" -o "$work/unpacked" >/dev/null 2>"$work/err" ||
    { echo "unpack: $(grep '^Error' "$work/err" | head -c 400)"; return 1; }
  for d in manifests metadata; do
    diff -r "$src/$d" "$work/unpacked/$d" >/dev/null || { echo "unpacked $d differs"; return 1; }
  done
  "$OPM" alpha bundle validate -t "$ref" -b none >/dev/null 2>"$work/err" ||
    { echo "validate: $(grep '^Error' "$work/err" | head -c 400)"; return 1; }
}

for src in "$OPM_CORPUS"/bundles/*/*/; do
  src=${src%/}
  if why=$(check_bundle "$src"); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: ${src#"$OPM_CORPUS"/bundles/}: $why"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
