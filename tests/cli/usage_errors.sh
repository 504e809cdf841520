#!/usr/bin/env bash
# Command-line mistakes print cobra's "Error:" line and the command's usage on stderr.
source "$OPM_TESTS/cli/lib/common.bash"

first_line() { head -1 err; }

run_opm nope
expect_rc 1
[ "$(first_line)" = 'Error: unknown command "nope" for "opm"' ] || fail "$(first_line)"
sed -n 2p err | grep -qx 'Usage:' || fail "no usage block"

run_opm init a --nope
expect_rc 1
[ "$(first_line)" = 'Error: unknown flag: --nope' ] || fail "$(first_line)"
sed -n 2,3p err >usage_head
expect_text usage_head $'Usage:\n  opm init <packageName> [flags]\n'

run_opm init a -x
expect_rc 1
[ "$(first_line)" = "Error: unknown shorthand flag: 'x' in -x" ] || fail "$(first_line)"

run_opm init a -o
expect_rc 1
[ "$(first_line)" = "Error: flag needs an argument: 'o' in -o" ] || fail "$(first_line)"

run_opm init a --output
expect_rc 1
[ "$(first_line)" = 'Error: flag needs an argument: --output' ] || fail "$(first_line)"

run_opm --use-http=maybe version
expect_rc 1
[ "$(first_line)" = 'Error: invalid argument "maybe" for "--use-http" flag: strconv.ParseBool: parsing "maybe": invalid syntax' ] || fail "$(first_line)"

# The deprecated --skip-tls is accepted with a notice; flags may come before the command.
run_opm --skip-tls version
expect_rc 0
expect_text err $'Flag --skip-tls has been deprecated, use --use-http and --skip-tls-verify instead\n'

# A bare "opm" does nothing, as upstream's empty root command.
run_opm
expect_rc 0
[ -s out ] || [ -s err ] && fail "opm alone printed something"
exit 0
