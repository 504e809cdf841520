#!/usr/bin/env bash
# Where upstream sorts with Go's sort.Slice, objects that compare equal come out in the order
# Go's pattern-defeating quicksort leaves them, not in input order: channels and bundles of
# one package with the same name in `render`; channels with the same name and entries of
# the same version in `alpha render-graph` (the bundles here have three versions). Up to 12
# elements, ties stay in input order; beyond, they do not.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir ties
{
  echo '{"schema":"olm.package","name":"ties","defaultChannel":"stable"}'
  entries=""
  for i in $(seq -w 0 19); do
    entries+="${entries:+,}{\"name\":\"ties.v$i\"}"
  done
  echo "{\"schema\":\"olm.channel\",\"package\":\"ties\",\"name\":\"stable\",\"entries\":[$entries]}"
  for i in $(seq -w 0 13); do
    echo "{\"schema\":\"olm.channel\",\"package\":\"ties\",\"name\":\"dup\",\"entries\":[{\"name\":\"ties.v$i\"}]}"
  done
  for i in $(seq -w 0 19); do
    version="$((10#$i % 3)).0.0"
    echo "{\"schema\":\"olm.bundle\",\"package\":\"ties\",\"name\":\"ties.v$i\",\"image\":\"quay.io/x/ties:$i\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"ties\",\"version\":\"$version\"}}]}"
  done
  for i in $(seq -w 0 15); do
    echo "{\"schema\":\"olm.bundle\",\"package\":\"ties\",\"name\":\"same\",\"image\":\"quay.io/x/same:$i\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"ties\",\"version\":\"2.0.0\"}}]}"
  done
} >ties/catalog.json

# The orders upstream opm writes for this catalog. Latest upstream's render-graph sorts a
# channel's entries by decreasing version (v1.26.5 kept the channel's order).
dup_channels="ties.v05 ties.v07 ties.v01 ties.v02 ties.v03 ties.v04 ties.v00 ties.v06 ties.v13 ties.v08 ties.v09 ties.v10 ties.v11 ties.v12"
same_bundles="07 06 13 04 12 03 02 11 01 00 15 14 05 08 09 10"
graph_entries="ties.v08 ties.v17 ties.v02 ties.v14 ties.v11 ties.v05 ties.v10 ties.v16 ties.v19 ties.v01 ties.v07 ties.v04 ties.v13 ties.v12 ties.v03 ties.v15 ties.v00 ties.v09 ties.v18 ties.v06"

for format in json yaml; do
  run_opm render ties -o "$format"
  expect_rc 0
  if [ "$format" = json ]; then
    channels=$(grep -A5 '"name": "dup"' out | grep -o 'ties\.v[0-9]*' | tr '\n' ' ')
    bundles=$(grep -o 'quay.io/x/same:[0-9]*' out | uniq | cut -d: -f2 | tr '\n' ' ')
  else
    channels=$(grep -B2 '^name: dup$' out | grep -o 'ties\.v[0-9]*' | tr '\n' ' ')
    bundles=$(grep -o '^image: quay.io/x/same:[0-9]*' out | cut -d: -f3 | tr '\n' ' ')
  fi
  expect_eq "$format: channels named dup in Go's order" "$dup_channels " "$channels"
  expect_eq "$format: bundles named same in Go's order" "$same_bundles " "$bundles"
done

run_opm alpha render-graph ties
expect_rc 0
entries=$(grep -o '^      ties-stable-ties\.v[0-9]*\[' out | grep -o 'ties\.v[0-9]*' | tr '\n' ' ')
expect_eq "render-graph: entries of one version in Go's order" "$graph_entries " "$entries"
channels=$(grep -o '^      ties-dup-ties\.v[0-9]*\[' out | grep -o 'ties\.v[0-9]*' | tr '\n' ' ')
expect_eq "render-graph: channels named dup in Go's order" "$dup_channels " "$channels"
exit 0
