#!/usr/bin/env bash
# opm alpha list prints aligned tables of a valid catalog, and validation errors otherwise.
source "$OPM_TESTS/cli/lib/common.bash"

cp -r "$OPM_TESTS/../examples/catalog" cat
run_opm alpha list packages cat
expect_rc 0
expect_text out $'NAME            DISPLAY NAME  DEFAULT CHANNEL\nhello-operator                stable\n'

run_opm alpha list channels cat
expect_rc 0
expect_text out $'PACKAGE         CHANNEL    HEAD\nhello-operator  candidate  hello-operator.v1.2.0-rc.1\nhello-operator  stable     hello-operator.v1.1.0\n'

run_opm alpha list bundles cat hello-operator
expect_rc 0
cat >"$WORK/expected" <<'TXT'
PACKAGE         CHANNEL    BUNDLE                      REPLACES               SKIPS  SKIP RANGE      IMAGE
hello-operator  candidate  hello-operator.v1.1.0                                                     registry.example.com/hello/hello-operator-bundle:v1.1.0
hello-operator  candidate  hello-operator.v1.2.0-rc.1  hello-operator.v1.1.0                         registry.example.com/hello/hello-operator-bundle:v1.2.0-rc.1
hello-operator  stable     hello-operator.v1.0.0                                                     registry.example.com/hello/hello-operator-bundle:v1.0.0
hello-operator  stable     hello-operator.v1.1.0       hello-operator.v1.0.0         >=1.0.0 <1.1.0  registry.example.com/hello/hello-operator-bundle:v1.1.0
TXT
expect_file out "$WORK/expected"

run_opm alpha list channels cat nope
expect_rc 1
expect_err_line 'time="T" level=fatal msg="package \"nope\" not found"'

cp -r "$DATA/catalogs/invalid" invalid
run_opm alpha list packages invalid
expect_rc 1
# Every finding with its location, as validate lists them, then upstream's tree.
normalized_err | tail -1 | grep -q '^time="T" level=fatal msg="invalid/a/catalog.yaml:6: invalid channel \\"s\\": multiple channel heads found in graph: x1, x2\\n.*\\ninvalid index:\\n├── invalid package \\"a\\":' ||
  fail "expected the located findings and the validation tree: $(cat err)"

touch afile
run_opm alpha list packages afile
expect_rc 1
expect_err_line 'time="T" level=fatal msg="cannot list non-index \"afile\""'
