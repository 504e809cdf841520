#!/usr/bin/env bash
# A valid catalog validates silently with exit 0; the structured reports say it passed.
source "$OPM_TESTS/cli/lib/common.bash"

cp -r "$OPM_TESTS/../examples/catalog" cat
run_opm validate cat
expect_rc 0
[ -s out ] && fail "unexpected stdout: $(cat out)"
[ -s err ] && fail "unexpected stderr: $(cat err)"

run_opm validate cat -o json
expect_rc 0
expect_text out $'{\n  "passed": true\n}\n'

run_opm validate cat --output=yaml
expect_rc 0
expect_text out $'passed: true\n\n'
