#!/usr/bin/env bash
# Checks opm against upstream's expected results for the corpus catalogs
# (corpus/README.md): validate exits 0 silently; render -o yaml and -o json of each
# package and of the whole tree are byte-identical to upstream's output.
# Prints one line per failure and ends with "N passed, M failed".
source "$(dirname "$0")/common.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

check() { # NAME COMMAND...: passes when the command succeeds
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name"
  fi
}

validate_silently() {
  local out
  out=$("$OPM" validate "$1" 2>&1) && [ -z "$out" ]
}

render_equals() { # DIR FORMAT EXPECTED_FILE
  "$OPM" render "$1" -o "$2" >"$work/out" 2>"$work/err" && cmp -s "$work/out" "$3"
}

expected() { # XZ_FILE -> path of the decompressed copy
  local dest
  dest="$work/$(echo "$1" | md5sum | cut -c1-12)"
  [ -f "$dest" ] || xz -dc "$1" >"$dest"
  echo "$dest"
}

for v in v4.16 v4.22; do
  cat_dir=$OPM_CORPUS/catalogs/$v
  exp_dir=$OPM_CORPUS/expected/$v
  for pkg_dir in "$cat_dir"/*/; do
    pkg=$(basename "$pkg_dir")
    check "$v/$pkg validate" validate_silently "$pkg_dir"
    check "$v/$pkg render yaml" render_equals "$pkg_dir" yaml "$pkg_dir/catalog.yaml"
    check "$v/$pkg render json" render_equals "$pkg_dir" json "$(expected "$exp_dir/$pkg/render.json.xz")"
  done
  check "$v validate" validate_silently "$cat_dir"
  check "$v render json" render_equals "$cat_dir" json "$(expected "$exp_dir/_all/render.json.xz")"
  check "$v render yaml" render_equals "$cat_dir" yaml "$(expected "$exp_dir/_all/render.yaml.xz")"
done

echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
