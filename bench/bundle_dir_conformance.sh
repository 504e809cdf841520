#!/usr/bin/env bash
# Checks `opm render <bundle-directory>` against upstream's renders of the corpus bundles
# (corpus/README.md): each directory was built into an image pushed as
# <registry>/corpus/<package-dir>-bundle:<version-dir> and rendered by upstream. A bundle
# directory renders the same once it is given that image reference, which the image
# reference template produces: the version comes from the bundle ({{.Version}}); the
# package part is the corpus directory name, spelled out, because one bundle's annotations
# name a different package (konflux: konflux-operator) than the directory it was pushed as.
# Prints one line per failure and ends with "N passed, M failed".
source "$(dirname "$0")/common.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

for dir in "$OPM_CORPUS"/bundles/*/*/; do
  dir=${dir%/}
  version=$(basename "$dir")
  package=$(basename "$(dirname "$dir")")
  expected=$OPM_CORPUS/expected/bundles/$package/$version/render.json.xz
  if "$OPM" render "$dir" -o json \
    --alpha-image-ref-template "@REGISTRY@/corpus/$package-bundle:{{.Version}}" \
    >"$work/out" 2>"$work/err" && cmp -s "$work/out" <(xz -dc "$expected"); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $package/$version $(head -c 200 "$work/err")"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
