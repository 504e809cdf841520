#!/usr/bin/env bash
# alpha filter on corpus catalogs: each case's result must validate with our `opm validate`
# and with upstream v1.26.5's, and its `opm alpha list bundles` table must equal the golden
# in bench/filter-goldens/ (written by --update after review). A whole package must come out
# byte for byte as render gives it; a default channel filtered away must fail.
#   bench/filter_conformance.sh [--update] [OPM_BINARY] [UPSTREAM_OPM]
set -euo pipefail
update=
if [ "${1:-}" = --update ]; then
  update=1
  shift
fi
[ -n "${1:-}" ] && OPM=$1
UPSTREAM=${2:-/tmp/upstream-opm/opm}
source "$(dirname "$0")/common.sh"
[ -x "$UPSTREAM" ] || { echo "no upstream opm at $UPSTREAM" >&2; exit 2; }
goldens=$here/filter-goldens
work=$(mktemp -d "${TMPDIR:-/tmp}/opm-filter-conformance.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0

# config FILE PACKAGE [DEFAULT_CHANNEL [CHANNEL[=RANGE]...]]: a one-package configuration.
config() {
  local file=$1 package=$2 default=${3:-} ch
  {
    printf '%s\n' "apiVersion: olm.operatorframework.io/v1alpha1" "kind: FilterConfiguration" \
      "packages:" "- name: $package"
    if [ -n "$default" ]; then echo "  defaultChannel: $default"; fi
    if [ $# -gt 3 ]; then
      echo "  channels:"
      for ch in "${@:4}"; do
        echo "  - name: ${ch%%=*}"
        if [ "$ch" != "${ch#*=}" ]; then echo "    versionRange: \"${ch#*=}\""; fi
      done
    fi
  } >"$file"
}

# case NAME CATALOG CONFIG_ARGS...: filter, validate twice, compare with the golden.
case_() {
  local name=$1 catalog=$2 dir=$work/$1
  shift 2
  mkdir -p "$dir/out"
  config "$dir/filter.yaml" "$@"
  if ! "$OPM" alpha filter "$catalog" -c "$dir/filter.yaml" -o yaml >"$dir/out/catalog.yaml" \
    2>"$dir/err"; then
    echo "not ok - $name: filter failed: $(cat "$dir/err")"
    failed=1
    return
  fi
  "$OPM" validate "$dir/out" || { echo "not ok - $name: our validate"; failed=1; }
  "$UPSTREAM" validate "$dir/out" || { echo "not ok - $name: upstream validate"; failed=1; }
  "$OPM" alpha list bundles "$dir/out" "$1" >"$dir/bundles.txt"
  if [ -n "$update" ]; then
    cp "$dir/bundles.txt" "$goldens/$name.txt"
  elif ! diff -u "$goldens/$name.txt" "$dir/bundles.txt"; then
    echo "not ok - $name: differs from its golden"
    failed=1
    return
  fi
  echo "ok - $name"
}

V416=$OPM_CORPUS/catalogs/v4.16
V422=$OPM_CORPUS/catalogs/v4.22

case_ one-package "$V416" kube-green
"$OPM" render "$V416/kube-green" -o yaml | cmp -s - "$work/one-package/out/catalog.yaml" ||
  { echo "not ok - one package is not byte-identical to its render"; failed=1; }
case_ one-channel "$V416" multi-nic-cni-operator "" stable
case_ range-cuts-replaces-chain "$V416" multi-nic-cni-operator beta "beta=>=1.1.0 <1.2.5"
case_ range-below-skips "$V416" dell-csm-operator "" "stable=<1.10.0"
case_ skiprange-head "$V422" jumpstarter-operator "" "alpha=>=0.9.0"
case_ range-under-skiprange-head "$V422" jumpstarter-operator "" "alpha=>=0.8.0 <0.9.0"
case_ default-channel-replaced "$V416" koku-metrics-operator alpha alpha

# Deprecations: the corpus has none, so one is added to a copy of a package.
dep=$work/deprecated/koku-metrics-operator
mkdir -p "$dep"
cp "$V416/koku-metrics-operator/catalog.yaml" "$dep/"
first=$(awk '$1 == "name:" && $2 ~ /^koku-metrics-operator\.v/ { print $2; exit }' "$dep/catalog.yaml")
printf '%s\n' "---" "schema: olm.deprecations" "package: koku-metrics-operator" "entries:" \
  "- reference:" "    schema: olm.channel" "    name: alpha" "  message: alpha is retired" \
  "- reference:" "    schema: olm.bundle" "    name: $first" "  message: $first is retired" \
  >>"$dep/catalog.yaml"
case_ deprecations-follow "$work/deprecated" koku-metrics-operator "" beta
grep -q "name: alpha" "$work/deprecations-follow/out/catalog.yaml" &&
  { echo "not ok - the alpha channel's deprecation outlived it"; failed=1; }

config "$work/gone.yaml" koku-metrics-operator "" alpha
if "$OPM" alpha filter "$V416" -c "$work/gone.yaml" >"$work/gone.out" 2>"$work/gone.err" ||
  [ -s "$work/gone.out" ] || ! grep -q 'the default channel "beta" was filtered out' "$work/gone.err"; then
  echo "not ok - a default channel filtered away"
  failed=1
else
  echo "ok - default-channel-filtered-away"
fi
# Heads only, every package: one bundle per channel, valid for both.
{
  printf '%s\n' "apiVersion: olm.operatorframework.io/v1alpha1" "kind: FilterConfiguration" \
    "packages:"
  for p in "$V416"/*/; do
    echo "- name: $(basename "$p")"
  done
} >"$work/all.yaml"
mkdir -p "$work/heads"
if "$OPM" alpha filter "$V416" -c "$work/all.yaml" --keep-heads-only -o yaml \
  >"$work/heads/catalog.yaml" && "$OPM" validate "$work/heads" && "$UPSTREAM" validate "$work/heads" &&
  "$OPM" alpha list channels "$V416" | cmp -s - <("$OPM" alpha list channels "$work/heads"); then
  echo "ok - keep-heads-only"
else
  echo "not ok - keep-heads-only"
  failed=1
fi
exit "$failed"
