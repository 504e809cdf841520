#!/usr/bin/env bash
# opm alpha filter of a SQLite index keeps what opm registry prune (the database step of
# opm index prune) keeps of it: the same packages, default channels, channel heads and
# bundles.
source "$OPM_TESTS/cli/lib/common.bash"

DB="$OPM_TESTS/data/sqlite/kiwi.db"

# same_listing WHAT: `opm alpha list WHAT` gives the same table for both catalogs.
same_listing() {
  "$OPM" alpha list "$1" pruned.db >pruned.txt 2>/dev/null || fail "listing the pruned database"
  "$OPM" alpha list "$1" filtered >filtered.txt 2>/dev/null || fail "listing the filtered catalog"
  expect_file filtered.txt pruned.txt
}

for packages in plum kiwi kiwi,plum; do
  rm -rf pruned.db filtered
  cp "$DB" pruned.db
  chmod u+w pruned.db
  "$OPM" registry prune -d pruned.db -p "$packages" 2>/dev/null || fail "registry prune -p $packages"
  {
    printf '%s\n' "apiVersion: olm.operatorframework.io/v1alpha1" "kind: FilterConfiguration" \
      "packages:"
    for p in ${packages//,/ }; do
      printf -- '- name: %s\n' "$p"
    done
  } >filter.yaml
  run_opm alpha filter "$DB" -c filter.yaml -o yaml
  expect_rc 0
  mkdir filtered && cp out filtered/catalog.yaml
  for what in packages channels bundles; do
    [ "$what" = bundles ] && [ "$packages" = kiwi,plum ] && continue
    if [ "$what" = bundles ]; then
      "$OPM" alpha list bundles pruned.db "$packages" >pruned.txt 2>/dev/null || fail "bundles"
      "$OPM" alpha list bundles filtered "$packages" >filtered.txt 2>/dev/null || fail "bundles"
      expect_file filtered.txt pruned.txt
    else
      same_listing "$what"
    fi
  done
done
