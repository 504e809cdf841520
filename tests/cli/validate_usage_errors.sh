#!/usr/bin/env bash
# Bad arguments to opm validate are cobra errors with the usage block, exit 1.
source "$OPM_TESTS/cli/lib/common.bash"

usage=$'Usage:\n  opm validate <directory> [flags]\n\nFlags:\n  -h, --help            help for validate\n  -o, --output string   Output format for validation results (json|yaml|github|sarif|junit)\n\nGlobal Flags:\n      --skip-tls-verify   skip TLS certificate verification for container image registries while pulling bundles\n      --use-http          use plain HTTP for container image registries while pulling bundles\n\n'

run_opm validate missing-dir
expect_rc 1
expect_text err "Error: stat missing-dir: no such file or directory"$'\n'"$usage"

touch afile
run_opm validate afile
expect_rc 1
expect_text err "Error: \"afile\" is not a directory"$'\n'"$usage"

run_opm validate a b
expect_rc 1
expect_text err "Error: accepts 1 arg(s), received 2"$'\n'"$usage"

# The output format is checked after validation has run.
mkdir empty
run_opm validate empty -o xml
expect_rc 1
[ -s out ] && fail "unexpected stdout: $(cat out)"
expect_text err "Error: invalid --output value \"xml\", expected (json|yaml|github|sarif|junit)"$'\n'"$usage"
