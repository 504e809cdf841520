#!/usr/bin/env bash
# Checks `opm alpha bundle generate` against upstream's on every corpus bundle: each bundle is
# copied twice, both binaries generate from its manifests/ with the package and channels of
# its annotations (the corpus is not laid out as package directories to infer them from),
# and the annotations.yaml and bundle.Dockerfile written must be byte-identical; so must the
# files written with -u into an output directory. Needs upstream's binary: UPSTREAM_OPM
# (default /tmp/upstream-opm/opm). Prints one line per failure and ends with "N passed, M failed".
source "$(dirname "$0")/common.sh"
UPSTREAM_OPM=${UPSTREAM_OPM:-/tmp/upstream-opm/opm}
[ -x "$UPSTREAM_OPM" ] || { echo "no upstream opm at $UPSTREAM_OPM" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# annotation DIR NAME: an annotation's value, without the quotes YAML may have put around it.
annotation() {
  sed -n "s/^  operators.operatorframework.io.bundle.$2: //p" "$1/metadata/annotations.yaml" |
    sed 's/^"\(.*\)"$/\1/'
}

# generate BINARY DIR ARGS...: runs BINARY in DIR on DIR/bundle/manifests.
generate() {
  local bin=$1 dir=$2
  shift 2
  (cd "$dir" && "$bin" alpha bundle generate -d bundle/manifests "$@" >/dev/null 2>&1)
}

for src in "$OPM_CORPUS"/bundles/*/*/; do
  src=${src%/}
  name=$(basename "$(dirname "$src")")/$(basename "$src")
  args=(-p "$(annotation "$src" package.v1)" -c "$(annotation "$src" channels.v1)")
  default=$(annotation "$src" channel.default.v1)
  [ -n "$default" ] && args+=(-e "$default")
  ok=1
  for variant in plain output; do
    extra=()
    [ $variant = output ] && extra=(-u out)
    for side in ours theirs; do
      rm -rf "${work:?}/$side" && mkdir -p "$work/$side/bundle"
      cp -r "$src/manifests" "$work/$side/bundle/"
    done
    generate "$OPM" "$work/ours" "${args[@]}" "${extra[@]}" || ok=0
    generate "$UPSTREAM_OPM" "$work/theirs" "${args[@]}" "${extra[@]}" || ok=0
    diff -r "$work/ours" "$work/theirs" >"$work/diff" || ok=0
  done
  if [ $ok = 1 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name $(head -c 300 "$work/diff")"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
