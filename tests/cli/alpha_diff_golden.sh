#!/usr/bin/env bash
# opm alpha diff against written golden outputs, text, markdown and json, with the upgrade
# check: OLD is a small catalog (or two packages of a real one), NEW a hand-made edit of it (a
# bundle added at the head, a removed head, a broken replaces chain, a default channel change,
# a deprecation added, a package and a channel removed, and added back), or the same packages a
# release later.
source "$OPM_TESTS/cli/lib/common.bash"

cp -r "$OPM_TESTS/data/diff"/* .

# pair OLD NEW GOLDEN RC: every format matches golden/GOLDEN.{txt,md,json} and exits RC.
pair() {
  local old=$1 new=$2 golden=$3 rc=$4 format ext
  for format in text markdown json; do
    case $format in text) ext=txt ;; markdown) ext=md ;; json) ext=json ;; esac
    run_opm alpha diff "$old" "$new" --check-upgrades -o "$format"
    expect_rc "$rc"
    expect_file out "golden/$golden.$ext"
  done
}

pair base head-added head-added 0
pair base removed-head removed-head 1
pair base broken-replaces broken-replaces 1
pair base skiprange-covers skiprange-covers 0
pair base default-changed default-changed 0
pair base default-moved-away default-moved-away 1
pair base deprecated deprecated 0
pair base removed removed 1
pair deprecated removed removed-announced 0
pair removed base added 0
pair corpus/v4.16 corpus/v4.22 corpus 0

# Unchanged catalogs print nothing, in every format.
for format in text markdown json; do
  run_opm alpha diff base base --check-upgrades -o "$format"
  expect_rc 0
  [ -s out ] && fail "unexpected stdout for $format: $(cat out)"
  [ -s err ] && fail "unexpected stderr for $format: $(cat err)"
done
echo "ok - golden outputs"
