#!/usr/bin/env bash
# opm render of a catalog directory writes upstream's JSON and YAML byte for byte:
# stream order, typed field order, YAML quoting and folding, number forms, emoji, tabs,
# a BOM-prefixed file, literal \u003e text, .indexignore; a rendered YAML catalog is a
# fixed point; several references are concatenated in argument order.
source "$OPM_TESTS/cli/lib/common.bash"

cp -r "$DATA/catalogs/edge" edge
run_opm render edge -o yaml
expect_rc 0
expect_file out "$DATA/render_edge.yaml"
[ -s err ] && fail "unexpected stderr: $(cat err)"

run_opm render edge
expect_rc 0
expect_file out "$DATA/render_edge.json"

# Rendering the YAML output again gives the same bytes.
mkdir fixed
cp "$DATA/render_edge.yaml" fixed/catalog.yaml
run_opm render fixed -o yaml
expect_rc 0
expect_file out "$DATA/render_edge.yaml"

# Two references are merged in argument order before writing: the same as one
# directory holding both, in that order.
run_opm render edge fixed -o yaml
expect_rc 0
cp out two_refs.yaml
mkdir combined
cp -r edge combined/1
cp fixed/catalog.yaml combined/2.yaml
run_opm render combined -o yaml
expect_rc 0
expect_file out two_refs.yaml
grep -c '^schema: olm.package$' out >count
expect_text count $'2\n'

# An empty directory renders nothing.
mkdir empty
run_opm render empty
expect_rc 0
[ -s out ] && fail "empty catalog printed: $(cat out)"
exit 0
