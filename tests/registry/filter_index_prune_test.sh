#!/usr/bin/env bash
# opm alpha filter of a SQLite index image keeps what opm index prune keeps of it: the same
# packages, default channels, channel heads and bundles, for each set of packages kept.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
push_sqlite_bundles
BASE=$WORK/base
mkdir -p "$BASE/bin"
printf '#!/bin/sh\necho base opm\n' > "$BASE/bin/opm"
chmod 0755 "$BASE/bin/opm"
push_image "$R" ops/opm-base v1 --files "$BASE" --label base=yes > /dev/null
"$OPM" index add --use-http -b "$SQLITE_BUNDLES" -u none -i "$REG/ops/opm-base:v1" \
  -t "$REG/ops/index:v1" 2> "$WORK/add.err" || fail "index add: $(cat "$WORK/add.err")"

# listing REF WHAT [PACKAGE]: `opm alpha list WHAT` of a catalog.
listing() { "$OPM" alpha list "$2" --use-http "$1" ${3:+"$3"} 2> /dev/null; }

for packages in plum kiwi kiwi,plum; do
  n=$((${n:-0} + 1))
  expect_ok "index prune -p $packages" index prune --use-http -f "$REG/ops/index:v1" \
    -p "$packages" -c none -i "$REG/ops/opm-base:v1" -t "oci:$WORK/pruned-$n:v1"
  {
    printf '%s\n' "apiVersion: olm.operatorframework.io/v1alpha1" "kind: FilterConfiguration" \
      "packages:"
    for p in ${packages//,/ }; do
      printf -- '- name: %s\n' "$p"
    done
  } > "$WORK/filter-$n.yaml"
  mkdir -p "$WORK/filtered-$n"
  expect_ok "alpha filter of the index image to $packages" alpha filter --use-http \
    "$REG/ops/index:v1" -c "$WORK/filter-$n.yaml" -o yaml
  cp "$WORK/out" "$WORK/filtered-$n/catalog.yaml"
  check "$packages: the pruned image lists them" \
    test "$(listing "oci:$WORK/pruned-$n:v1" packages | wc -l)" -eq $((1 + $(tr , '\n' <<< "$packages" | wc -l)))
  for what in packages channels; do
    check "$packages: the same $what" cmp -s <(listing "oci:$WORK/pruned-$n:v1" "$what") \
      <(listing "$WORK/filtered-$n" "$what")
  done
  for p in ${packages//,/ }; do
    check "$packages: the same bundles of $p" cmp -s \
      <(listing "oci:$WORK/pruned-$n:v1" bundles "$p") <(listing "$WORK/filtered-$n" bundles "$p")
  done
done
check "plum alone has one channel head" \
  test "$(listing "$WORK/filtered-1" channels | tail -n +2)" = "plum     alpha    plum.v1.0.0"

finish
